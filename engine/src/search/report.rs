//! How a search's progress and answer are written as UCI text: the `info` line of a
//! `Report` and the `bestmove` line, with moves in UCI notation (`Position::uci`) and scores
//! as `cp`/`mate` (`score::UciScore`).
//!
//! It sits in the search layer, below both the protocol loop (`uci`), which prints these lines
//! for `go`, and the tools (`bench`), which print the same `bestmove` text, so neither imports
//! the other for it. It only formats: it never writes, and never decides what is reported.

use shakmaty::{CastlingMode, Move};

use super::Report;
use super::score::UciScore;
use super::tt::Bound;
use super::wdl::wdl;
use crate::position::Position;

/// Formats an `info` line for a report; with `wdl_material` (the root's material, see
/// `wdl.rs`), the line carries `wdl W D L` too (`UCI_ShowWDL`).
pub fn info_line(report: &Report, mode: CastlingMode, wdl_material: Option<i32>) -> String {
    let mut line = format!(
        "info depth {} seldepth {} multipv {} score {}",
        report.depth,
        report.seldepth.max(report.depth),
        report.multipv,
        UciScore::from_value(report.score)
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
