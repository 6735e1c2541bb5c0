//! Syzygy tablebases through the built binary: won endings converted to mate within the
//! 50-move rule, drawn ones held against a perfect opponent, `tbhits` on the info lines, and
//! bad paths answered with an `info string` while `go` still plays a legal move.
//!
//! The tables are the 3- and 4-piece set (and KRPvKR) in `../shared/syzygy`; without that
//! folder the tests that need it print a note and pass. The opponent and the referee are
//! `shakmaty-syzygy` itself: after every move of the engine the tables must still give it the
//! result it started with.

use crate::common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use brudno::position::Position;
use common::Engine;
use shakmaty::{Chess, Move, Position as _};
use shakmaty_syzygy::{AmbiguousWdl, Tablebase, Wdl};

const LONG: Duration = Duration::from_secs(30);

/// Nodes per engine move: enough to see short mates, a few milliseconds each.
const NODES: u64 = 20_000;

/// The test tables, if they are there.
fn tables_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/syzygy");
    if dir.join("KQvK.rtbw").is_file() {
        Some(dir)
    } else {
        eprintln!("note: {} not found, Syzygy test skipped", dir.display());
        None
    }
}

fn referee(dir: &Path) -> Tablebase<Chess> {
    let mut tables = Tablebase::new();
    tables.add_directory(dir).expect("read the test tables");
    tables
}

/// An engine with the tables loaded; returns it and the `info string` lines of the load.
fn engine_with(path: &str) -> (Engine, Vec<String>) {
    let mut engine = Engine::start();
    engine.send(&format!("setoption name SyzygyPath value {path}"));
    let lines = engine.sync();
    let infos = lines
        .into_iter()
        .filter(|l| l.starts_with("info string"))
        .collect();
    (engine, infos)
}

/// How a game ended.
#[derive(Debug, PartialEq, Eq)]
enum End {
    /// The side to move is checkmated.
    Mated(shakmaty::Color),
    /// Stalemate, insufficient material, the 50-move rule or a threefold repetition.
    Draw(&'static str),
}

/// The WDL of `pos` for the side to move, counting the halfmove clock.
fn wdl(tables: &Tablebase<Chess>, pos: &Position) -> AmbiguousWdl {
    tables
        .probe_wdl(pos.chess())
        .expect("position in the tables")
}

/// The opponent: perfect play. Decisive positions follow the tables' DTZ line (the quickest
/// win, the longest defence). In a draw it sets traps: of its drawing moves it plays the one
/// that leaves the engine the most losing replies (the first of them, in a rotating order).
fn opponent_move(tables: &Tablebase<Chess>, pos: &Position, ply: usize) -> Move {
    let chess = pos.chess();
    let value = tables
        .probe_wdl_after_zeroing(chess)
        .expect("in the tables");
    if value != Wdl::Draw {
        return tables.best_move(chess).expect("probe").expect("a move").0;
    }
    // The value of a position for the side to move there (mate and dead draws included).
    let value_of = |after: &Chess| -> Wdl {
        if after.is_checkmate() {
            Wdl::Loss
        } else if after.is_insufficient_material() || after.legal_moves().is_empty() {
            Wdl::Draw
        } else {
            tables
                .probe_wdl_after_zeroing(after)
                .expect("in the tables")
        }
    };
    let legal = pos.legal_moves();
    let mut best: Option<(usize, Move)> = None;
    for i in 0..legal.len() {
        let m = legal[(i + ply) % legal.len()];
        let mut after = chess.clone();
        after.play_unchecked(m);
        if value_of(&after) != Wdl::Draw {
            continue;
        }
        let traps = after
            .legal_moves()
            .iter()
            .filter(|&&reply| {
                let mut next = after.clone();
                next.play_unchecked(reply);
                value_of(&next) == Wdl::Win
            })
            .count();
        if best.is_none_or(|(most, _)| traps > most) {
            best = Some((traps, m));
        }
    }
    best.expect("a drawing move").1
}

/// Plays `fen` out: the engine (with tables) moves for `engine_side`, the perfect opponent for
/// the other side. After each engine move the referee checks that the engine still has at
/// least the result `expected` (for the engine). Returns the end and the moves.
fn play_out(
    dir: &Path,
    fen: &str,
    engine_side: shakmaty::Color,
    expected: i32,
) -> (End, Vec<String>) {
    let tables = referee(dir);
    let (mut engine, _) = engine_with(&dir.display().to_string());
    let mut pos = Position::from_fen(fen, false).unwrap();
    let mut keys = vec![pos.key()];
    let mut moves: Vec<String> = Vec::new();
    for ply in 0..400 {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            return if pos.is_check() {
                (End::Mated(pos.turn()), moves)
            } else {
                (End::Draw("stalemate"), moves)
            };
        }
        if pos.is_insufficient_material() {
            return (End::Draw("insufficient material"), moves);
        }
        if pos.halfmoves() >= 100 {
            return (End::Draw("50-move rule"), moves);
        }
        if keys.iter().filter(|&&k| k == pos.key()).count() >= 3 {
            return (End::Draw("threefold repetition"), moves);
        }
        let text = if pos.turn() == engine_side {
            let list = if moves.is_empty() {
                String::new()
            } else {
                format!(" moves {}", moves.join(" "))
            };
            engine.send(&format!("position fen {fen}{list}"));
            engine.send(&format!("go nodes {NODES}"));
            engine.bestmove(LONG)
        } else {
            let mv = opponent_move(&tables, &pos, ply);
            Position::uci(mv, shakmaty::CastlingMode::Standard)
        };
        let mover = pos.turn();
        pos.play_uci(&text)
            .unwrap_or_else(|e| panic!("{e}: {fen} moves {}", moves.join(" ")));
        if pos.halfmoves() == 0 {
            keys.clear();
        }
        keys.push(pos.key());
        moves.push(text);
        if mover == engine_side && !pos.legal_moves().is_empty() {
            // The result for the engine, now that the opponent is to move.
            let now = -wdl(&tables, &pos).signum();
            assert!(
                now >= expected,
                "the engine let the result slip to {now} (from {expected}): {fen} moves {}",
                moves.join(" ")
            );
        }
    }
    panic!("no result in 400 plies: {fen} moves {}", moves.join(" "));
}

fn assert_converts(fen: &str) {
    let Some(dir) = tables_dir() else { return };
    let pos = Position::from_fen(fen, false).unwrap();
    let winner = pos.turn();
    assert_eq!(wdl(&referee(&dir), &pos), AmbiguousWdl::Win, "{fen}");
    let (end, moves) = play_out(&dir, fen, winner, 1);
    println!(
        "{fen}: {} ({} plies) -> {end:?}",
        moves.join(" "),
        moves.len()
    );
    assert_eq!(end, End::Mated(!winner), "{fen} moves {}", moves.join(" "));
}

fn assert_holds(fen: &str, engine_side: shakmaty::Color) {
    let Some(dir) = tables_dir() else { return };
    let pos = Position::from_fen(fen, false).unwrap();
    assert_eq!(wdl(&referee(&dir), &pos), AmbiguousWdl::Draw, "{fen}");
    let (end, moves) = play_out(&dir, fen, engine_side, 0);
    println!(
        "{fen}: {} ({} plies) -> {end:?}",
        moves.join(" "),
        moves.len()
    );
    assert!(
        matches!(end, End::Draw(_)),
        "{fen} moves {}: {end:?}",
        moves.join(" ")
    );
}

#[test]
fn kqvk_is_mated() {
    assert_converts("4k3/8/8/8/8/8/8/4K2Q w - - 0 1");
}

#[test]
fn krvk_is_mated() {
    assert_converts("8/8/8/4k3/8/8/8/R3K3 w - - 0 1");
}

#[test]
fn kpvk_win_is_promoted_and_mated() {
    // The black king is close: only some moves win.
    assert_converts("8/8/8/8/3k4/8/4PK2/8 w - - 0 1");
}

#[test]
fn kpvk_draw_is_held_by_the_lone_king() {
    // White to move can only draw; every move but one loses.
    assert_holds("8/2pk4/8/8/8/4K3/8/8 w - - 0 1", shakmaty::Color::White);
}

#[test]
fn krvkp_draw_is_held_by_the_pawn() {
    // White (king and pawn against a rook) to move: 11 of its 12 moves lose.
    assert_holds("8/4P3/1k4K1/8/8/8/4r3/8 w - - 0 1", shakmaty::Color::White);
}

#[test]
fn krvkr_draw_is_not_lost() {
    // 14 of White's 15 moves lose.
    assert_holds("2r5/8/8/8/5R2/6k1/8/7K w - - 0 1", shakmaty::Color::White);
}

/// The `tbhits` of the last info line before `bestmove`.
fn last_tbhits(lines: &[String]) -> Option<u64> {
    let info = lines.iter().rev().find(|l| l.contains(" tbhits "))?;
    let mut words = info.split_whitespace();
    words.find(|&w| w == "tbhits")?;
    words.next()?.parse().ok()
}

#[test]
fn tbhits_are_counted_when_captures_lead_into_the_tables() {
    let Some(dir) = tables_dir() else { return };
    // KQRvKR (no table): captures lead into 4-piece tables.
    let fen = "8/8/3k4/8/2r5/8/3K4/Q6R w - - 0 1";
    let (mut engine, infos) = engine_with(&dir.display().to_string());
    assert!(
        infos.iter().any(|l| l.contains("up to 5 pieces")),
        "{infos:?}"
    );
    engine.send(&format!("position fen {fen}"));
    engine.send("go depth 8");
    let lines = engine.read_until(LONG, |l| l.starts_with("bestmove"));
    let hits = last_tbhits(&lines).expect("tbhits on the info lines");
    assert!(hits > 0, "{lines:?}");

    // SyzygyProbeLimit 0 turns the probes off; without tables there is no tbhits at all.
    engine.send("setoption name SyzygyProbeLimit value 0");
    engine.send("ucinewgame");
    engine.send("go depth 8");
    let lines = engine.read_until(LONG, |l| l.starts_with("bestmove"));
    assert_eq!(last_tbhits(&lines), Some(0), "{lines:?}");
    engine.send("setoption name SyzygyPath value <empty>");
    engine.send("go depth 4");
    let lines = engine.read_until(LONG, |l| l.starts_with("bestmove"));
    assert_eq!(last_tbhits(&lines), None, "{lines:?}");
}

#[test]
fn searches_with_tables_are_deterministic() {
    let Some(dir) = tables_dir() else { return };
    let fen = "8/8/3k4/8/2r5/8/3K4/Q6R w - - 0 1";
    let run = || {
        let (mut engine, _) = engine_with(&dir.display().to_string());
        engine.send(&format!("position fen {fen}"));
        engine.send("go depth 9");
        let lines = engine.read_until(LONG, |l| l.starts_with("bestmove"));
        lines
            .iter()
            .map(|l| {
                // Drop what depends on the clock.
                let words: Vec<&str> = l.split_whitespace().collect();
                let mut kept = Vec::new();
                let mut skip = false;
                for w in words {
                    if skip {
                        skip = false;
                    } else if w == "nps" || w == "time" {
                        skip = true;
                    } else {
                        kept.push(w);
                    }
                }
                kept.join(" ")
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(run(), run());
}

#[test]
fn the_root_in_the_tables_shows_the_tablebase_score() {
    let Some(dir) = tables_dir() else { return };
    let (mut engine, infos) = engine_with(&dir.display().to_string());
    assert!(
        infos
            .iter()
            .any(|l| l.contains("72 files, 36 tables, up to 5 pieces")),
        "{infos:?}"
    );
    // Lucena: a win, not yet a mate in sight; Philidor: a draw.
    engine.send("position fen 1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1");
    engine.send("go depth 6");
    let lines = engine.read_until(LONG, |l| l.starts_with("bestmove"));
    let last_info = lines.iter().rev().find(|l| l.contains(" score ")).unwrap();
    assert!(
        last_info.contains("score cp 31871") || last_info.contains("score mate "),
        "{last_info}"
    );
    // The root's probes count: one per root move ranked (as Stockfish counts them).
    let lucena = Position::from_fen("1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1", false).unwrap();
    let root_moves = lucena.legal_moves().len() as u64;
    let hits = last_tbhits(&lines).expect("tbhits on the info lines");
    assert!(hits >= root_moves, "{hits} tbhits, {root_moves} root moves");
    engine.send("position fen 4k3/8/r7/3PK3/8/8/8/7R b - - 0 1");
    engine.send("go depth 6");
    let lines = engine.read_until(LONG, |l| l.starts_with("bestmove"));
    let last_info = lines.iter().rev().find(|l| l.contains(" score ")).unwrap();
    assert!(last_info.contains("score cp 0 "), "{last_info}");
}

/// A fresh, empty folder under the system's temporary folder.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("brudno-syzygy-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Loads `path`, expects an `info string` containing `expected`, and a legal move from `go`.
fn assert_reported_and_plays(path: &str, expected: &str) {
    let (mut engine, infos) = engine_with(path);
    assert!(
        infos.iter().any(|l| l.contains(expected)),
        "{path}: {infos:?}"
    );
    let fen = "4k3/8/8/8/8/8/8/4K2Q w - - 0 1";
    engine.send(&format!("position fen {fen}"));
    engine.send("go depth 6");
    let lines = engine.read_until(LONG, |l| l.starts_with("bestmove"));
    let mv = lines.last().unwrap().split_whitespace().nth(1).unwrap();
    assert!(common::is_legal_after(Some(fen), &[], mv), "{lines:?}");
    assert!(
        lines
            .iter()
            .all(|l| !l.contains(" tbhits ") || l.contains(" tbhits 0")),
        "{lines:?}"
    );
}

#[test]
fn a_missing_folder_is_reported_and_the_engine_plays_on() {
    assert_reported_and_plays("/no/such/folder/brudno", "does not exist");
}

#[test]
fn an_empty_folder_is_reported() {
    let dir = temp_dir("empty");
    assert_reported_and_plays(&dir.display().to_string(), "no table files");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_corrupt_file_is_skipped_with_a_message() {
    let dir = temp_dir("garbage");
    std::fs::write(dir.join("KQvK.rtbw"), b"this is not a tablebase").unwrap();
    assert_reported_and_plays(&dir.display().to_string(), "corrupt");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_table_corrupt_inside_is_reported_once_when_probed() {
    // The right magic header and a plausible size, then garbage: found only at the probe.
    let dir = temp_dir("inside");
    let mut bytes = vec![0x71, 0xe8, 0x23, 0x5d];
    bytes.extend((0..(64 * 4 + 12)).map(|i| (i * 37 % 251) as u8));
    std::fs::write(dir.join("KQvK.rtbw"), &bytes).unwrap();
    let (mut engine, infos) = engine_with(&dir.display().to_string());
    assert!(
        infos.iter().any(|l| l.contains("1 file, 1 table")),
        "{infos:?}"
    );
    let fen = "4k3/8/8/8/8/8/8/4K2Q w - - 0 1";
    engine.send(&format!("position fen {fen}"));
    engine.send("go depth 5");
    let lines = engine.read_until(LONG, |l| l.starts_with("bestmove"));
    let mv = lines.last().unwrap().split_whitespace().nth(1).unwrap();
    assert!(common::is_legal_after(Some(fen), &[], mv), "{lines:?}");
    engine.send("go depth 5");
    let more = engine.read_until(LONG, |l| l.starts_with("bestmove"));
    let reports = lines
        .iter()
        .chain(&more)
        .filter(|l| l.contains("is corrupt"))
        .count();
    assert_eq!(reports, 1, "{lines:?} {more:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn several_folders_are_read_and_missing_ones_named() {
    let Some(dir) = tables_dir() else { return };
    let separator = if cfg!(windows) { ';' } else { ':' };
    let path = format!("/no/such/folder{separator}{}", dir.display());
    let (_, infos) = engine_with(&path);
    assert!(infos.iter().any(|l| l.contains("72 files")), "{infos:?}");
    assert!(
        infos
            .iter()
            .any(|l| l.contains("/no/such/folder does not exist")),
        "{infos:?}"
    );
}

#[test]
fn the_options_are_declared() {
    let mut engine = Engine::start();
    let lines = engine.handshake();
    for line in [
        "option name SyzygyPath type string default <empty>",
        "option name SyzygyProbeDepth type spin default 1 min 1 max 100",
        "option name SyzygyProbeLimit type spin default 7 min 0 max 7",
        "option name Syzygy50MoveRule type check default true",
    ] {
        assert!(lines.iter().any(|l| l == line), "{line}: {lines:?}");
    }
}
