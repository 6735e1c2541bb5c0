//! Helpers of the protocol-hardening tests (`tests/hardening_*.rs`): the `info string`
//! lines of a reply, and the checks every hostile input ends with (one note saying why, a
//! legal search afterwards, a clean quit).

use std::time::Duration;

use super::{Engine, is_legal_after};

/// Generous bound for anything that should take milliseconds: only a hang fails it.
pub const LONG: Duration = Duration::from_secs(30);

/// The start position as `d` prints it.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
/// The position after 1. e4 as `d` prints it.
pub const AFTER_E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";

/// The `info string` lines among `lines`.
pub fn notes(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info string"))
        .collect()
}

/// How many `bestmove` lines are among `lines`.
pub fn bestmoves(lines: &[String]) -> usize {
    lines.iter().filter(|l| l.starts_with("bestmove")).count()
}

/// Syncs and checks that exactly one `info string` came back and that it mentions `why`.
pub fn expect_one_note(engine: &mut Engine, why: &str) -> String {
    let lines = engine.sync();
    let found = notes(&lines);
    assert_eq!(found.len(), 1, "expected one info string: {lines:?}");
    assert!(
        found[0].to_lowercase().contains(&why.to_lowercase()),
        "info string does not say '{why}': {}",
        found[0]
    );
    found[0].clone()
}

/// Syncs and checks that nothing was reported.
pub fn expect_no_note(engine: &mut Engine) {
    let lines = engine.sync();
    assert!(
        notes(&lines).is_empty(),
        "unexpected info string: {lines:?}"
    );
}

/// Searches the current position (given as FEN) briefly and checks the move is legal there.
pub fn expect_legal_search(engine: &mut Engine, fen: &str) {
    engine.send("go depth 2");
    let mv = engine.bestmove(LONG);
    assert!(is_legal_after(Some(fen), &[], &mv), "{mv} in {fen}");
}

/// `quit` ends the engine with success.
pub fn expect_clean_quit(engine: &mut Engine) {
    engine.send("quit");
    let status = engine.exit_status(LONG).expect("engine did not exit");
    assert!(status.success(), "{status:?}");
}
