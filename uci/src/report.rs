//! How a search's progress and answer are written as UCI text: the `info` line of a
//! `Report` and the `bestmove` line, with moves in UCI notation (`Position::uci`) and scores
//! as `cp`/`mate` (`brudno_tools::display::score_text`, which the EPD reports share). The engine core reports data (`Report`, `SearchResult`); only this module
//! turns it into the protocol's words. It only formats: it never writes, and never decides
//! what is reported.

use shakmaty::{CastlingMode, Move};

use brudno_engine::position::Position;
use brudno_engine::search::Report;
use brudno_engine::search::tt::Bound;
use brudno_engine::search::wdl::wdl;
use brudno_tools::display::score_text;

/// Formats an `info` line for a report; with `wdl_material` (the root's material, see
/// `wdl.rs`), the line carries `wdl W D L` too (`UCI_ShowWDL`).
pub fn info_line(report: &Report, mode: CastlingMode, wdl_material: Option<i32>) -> String {
    let mut line = format!(
        "info depth {} seldepth {} multipv {} score {}",
        report.depth,
        report.seldepth.max(report.depth),
        report.multipv,
        score_text(report.score)
    );
    match report.bound {
        Bound::Lower => line.push_str(" lowerbound"),
        Bound::Upper if report.depth > 0 => line.push_str(" upperbound"),
        _ => {}
    }
    if let Some(material) = wdl_material {
        let (w, d, l) = wdl(report.score, material);
        line.push_str(&format!(" wdl {w} {d} {l}"));
    }
    line.push_str(&format!(
        " nodes {} nps {} hashfull {}",
        report.nodes,
        report.nps(),
        report.hashfull
    ));
    if let Some(tbhits) = report.tbhits {
        line.push_str(&format!(" tbhits {tbhits}"));
    }
    line.push_str(&format!(" time {}", report.elapsed.as_millis()));
    if !report.pv.is_empty() {
        line.push_str(" pv");
        for &m in &report.pv {
            line.push(' ');
            line.push_str(&Position::uci(m, mode));
        }
    }
    line
}

/// Formats `bestmove <move> [ponder <move>]`, or `bestmove 0000` without a legal move.
pub fn bestmove_line(best: Option<Move>, ponder: Option<Move>, mode: CastlingMode) -> String {
    match (best, ponder) {
        (None, _) => "bestmove 0000".to_string(),
        (Some(best), None) => format!("bestmove {}", Position::uci(best, mode)),
        (Some(best), Some(ponder)) => format!(
            "bestmove {} ponder {}",
            Position::uci(best, mode),
            Position::uci(ponder, mode)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bestmove_with_and_without_a_move() {
        let pos = Position::default();
        let e2e4 = pos.parse_uci("e2e4").unwrap();
        let e7e5 = pos.play(e2e4).parse_uci("e7e5").unwrap();
        let mode = CastlingMode::Standard;
        assert_eq!(bestmove_line(None, None, mode), "bestmove 0000");
        assert_eq!(bestmove_line(Some(e2e4), None, mode), "bestmove e2e4");
        assert_eq!(
            bestmove_line(Some(e2e4), Some(e7e5), mode),
            "bestmove e2e4 ponder e7e5"
        );
    }
}
