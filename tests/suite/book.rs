//! The Polyglot opening book through the built binary: loading and its messages, `go` answered
//! from the book, castling entries in both notations, and files that are not books.
//!
//! The books are written here, entry by entry, with the engine's own position key and a move
//! encoding written out independently of the engine's (`polyglot_move`).

use crate::common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use brudno::position::Position;
use common::{Engine, is_legal_after};

const LONG: Duration = Duration::from_secs(30);
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const CASTLES: &str = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";

/// A file in the temporary folder, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str, bytes: &[u8]) -> Self {
        let path = std::env::temp_dir().join(format!("brudno-book-{}-{name}", std::process::id()));
        std::fs::write(&path, bytes).unwrap();
        Self(path)
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// A Polyglot move from UCI text, castling given as the king taking its rook (`e1h1`).
fn polyglot_move(uci: &str) -> u16 {
    let b = uci.as_bytes();
    let square = |file: u8, rank: u8| u16::from(rank - b'1') << 3 | u16::from(file - b'a');
    let promotion = match b.get(4) {
        None => 0,
        Some(b'n') => 1,
        Some(b'b') => 2,
        Some(b'r') => 3,
        Some(_) => 4,
    };
    promotion << 12 | square(b[0], b[1]) << 6 | square(b[2], b[3])
}

/// The position after `moves` from `fen`.
fn position(fen: &str, moves: &[&str], chess960: bool) -> Position {
    let mut position = Position::from_fen(fen, chess960).unwrap();
    for m in moves {
        position.play_uci(m).unwrap();
    }
    position
}

/// Writes a book of `(position, move, weight)` entries, sorted by key.
fn write_book(name: &str, entries: &[(Position, &str, u16)]) -> TempFile {
    let mut rows: Vec<(u64, u16, u16)> = entries
        .iter()
        .map(|(p, m, w)| (p.key(), polyglot_move(m), *w))
        .collect();
    rows.sort_by_key(|r| r.0);
    let mut bytes = Vec::new();
    for (key, mv, weight) in rows {
        bytes.extend(key.to_be_bytes());
        bytes.extend(mv.to_be_bytes());
        bytes.extend(weight.to_be_bytes());
        bytes.extend(0u32.to_be_bytes());
    }
    TempFile::new(name, &bytes)
}

/// The start position book of most tests: d2d4 heaviest, and an answer to e2e4.
fn opening_book(name: &str) -> TempFile {
    let start = position(START, &[], false);
    write_book(
        name,
        &[
            (start.clone(), "e2e4", 30),
            (start.clone(), "d2d4", 60),
            (start.clone(), "g1f3", 10),
            (position(START, &["e2e4"], false), "c7c5", 5),
        ],
    )
}

/// An engine with the book at `path` loaded; returns it and the load message.
fn with_book(path: &Path, best: bool) -> (Engine, String) {
    let mut engine = Engine::start();
    engine.send(&format!("setoption name BookFile value {}", path.display()));
    engine.send("setoption name OwnBook value true");
    engine.send(&format!("setoption name BookBestMove value {best}"));
    let lines = engine.sync();
    let message = lines
        .iter()
        .find(|l| l.starts_with("info string book"))
        .cloned()
        .unwrap_or_default();
    (engine, message)
}

/// The lines of one `go` up to its `bestmove`, and that move.
fn go(engine: &mut Engine, go: &str) -> (Vec<String>, String) {
    engine.send(go);
    engine.search_lines(LONG)
}

fn searched(lines: &[String]) -> bool {
    lines.iter().any(|l| l.starts_with("info depth"))
}

#[test]
fn handshake_declares_the_book_options() {
    let mut engine = Engine::start();
    let lines = engine.handshake();
    for declaration in [
        "option name OwnBook type check default false",
        "option name BookFile type string default <empty>",
        "option name BookBestMove type check default false",
        "option name BookDepth type spin default 255 min 0 max 1024",
    ] {
        assert!(
            lines.iter().any(|l| l == declaration),
            "{declaration}: {lines:?}"
        );
    }
}

#[test]
fn go_in_a_book_position_plays_the_heaviest_move_at_once() {
    let path = opening_book("heaviest.bin");
    let (mut engine, message) = with_book(&path.0, true);
    assert_eq!(
        message,
        format!("info string book: 4 entries from {}", path.0.display())
    );
    engine.send("position startpos");
    let started = Instant::now();
    let (lines, mv) = go(&mut engine, "go wtime 60000 btime 60000");
    assert!(started.elapsed() < Duration::from_secs(2));
    assert_eq!(
        lines,
        [
            "info string book move d2d4 (weight 60 of 100)",
            "bestmove d2d4"
        ]
    );
    assert_eq!(mv, "d2d4");
    // Black's reply after e2e4 is in the book too; exactly one bestmove per go.
    engine.send("position startpos moves e2e4");
    let (lines, mv) = go(&mut engine, "go movetime 5000");
    assert_eq!(mv, "c7c5");
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(!engine.sync().iter().any(|l| l.starts_with("bestmove")));
}

#[test]
fn weighted_choice_plays_every_book_move_and_only_those() {
    let start = position(START, &[], false);
    let path = write_book(
        "weighted.bin",
        &[
            (start.clone(), "e2e4", 1),
            (start.clone(), "d2d4", 1),
            (start, "b1c3", 0),
        ],
    );
    let (mut engine, _) = with_book(&path.0, false);
    engine.send("position startpos");
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..40 {
        let (lines, mv) = go(&mut engine, "go depth 5");
        assert!(!searched(&lines), "{lines:?}");
        assert!(lines[0].ends_with("(weight 1 of 2)"), "{lines:?}");
        seen.insert(mv);
    }
    // Both at weight 1 (each alone 40 times: chance 2^-39); weight 0 never.
    assert_eq!(seen.into_iter().collect::<Vec<_>>(), ["d2d4", "e2e4"]);
}

#[test]
fn out_of_book_positions_get_a_normal_search() {
    let path = opening_book("out.bin");
    let (mut engine, _) = with_book(&path.0, true);
    engine.send("position startpos moves e2e4 e7e5");
    let (lines, mv) = go(&mut engine, "go depth 4");
    assert!(searched(&lines), "{lines:?}");
    assert!(!lines.iter().any(|l| l.contains("book move")), "{lines:?}");
    assert!(is_legal_after(None, &["e2e4", "e7e5"], &mv), "{mv}");
    // Back in the book after a new game.
    engine.send("ucinewgame");
    engine.send("position startpos");
    assert_eq!(go(&mut engine, "go depth 4").1, "d2d4");
}

#[test]
fn analysis_and_book_switches_leave_the_book_aside() {
    let path = opening_book("analysis.bin");
    let (mut engine, _) = with_book(&path.0, true);
    engine.send("position startpos");
    for command in ["go depth 3 searchmoves e2e4 g1f3", "go mate 1 depth 2"] {
        let (lines, _) = go(&mut engine, command);
        assert!(
            !lines.iter().any(|l| l.contains("book move")),
            "{command}: {lines:?}"
        );
    }
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    engine.send("stop");
    let lines = engine.read_until(LONG, |l| l.starts_with("bestmove"));
    assert!(searched(&lines) && !lines.iter().any(|l| l.contains("book move")));

    engine.send("setoption name MultiPV value 2");
    assert!(searched(&go(&mut engine, "go depth 2").0));
    engine.send("setoption name MultiPV value 1");
    // BookDepth 1: the book is used for the first ply only.
    engine.send("setoption name BookDepth value 1");
    assert_eq!(go(&mut engine, "go depth 2").1, "d2d4");
    engine.send("position startpos moves e2e4");
    assert!(searched(&go(&mut engine, "go depth 2").0));
    engine.send("setoption name BookDepth value 255");
    assert_eq!(go(&mut engine, "go depth 2").1, "c7c5");
    // OwnBook off: searched; on again: the same file, loaded again.
    engine.send("setoption name OwnBook value false");
    assert!(engine.sync().iter().any(|l| l.contains("book: off")));
    assert!(searched(&go(&mut engine, "go depth 2").0));
    engine.send("setoption name OwnBook value true");
    assert!(engine.sync().iter().any(|l| l.contains("book: 4 entries")));
    assert_eq!(go(&mut engine, "go depth 2").1, "c7c5");
    // BookFile <empty>: no book.
    engine.send("setoption name BookFile value <empty>");
    assert!(
        engine
            .sync()
            .iter()
            .any(|l| l.contains("BookFile is empty"))
    );
    assert!(searched(&go(&mut engine, "go depth 2").0));
}

#[test]
fn castling_entries_become_the_castling_move_of_either_notation() {
    let white = position(CASTLES, &[], false);
    let black = position(CASTLES, &["a2a3"], false);
    // Chess960, king on c1 between rooks on b1 and g1.
    let c960 = "k7/8/8/8/8/8/8/1RK3R1 w GB - 0 1";
    let path = write_book(
        "castles.bin",
        &[
            (white.clone(), "e1h1", 9),
            (white, "e1a1", 1),
            (black, "e8a8", 9),
            (position(c960, &[], true), "c1g1", 1),
            (position(c960, &[], true), "c1b1", 9),
        ],
    );
    for (chess960, short, long, c960_move) in [
        (false, "e1g1", "e8c8", "c1b1"),
        (true, "e1h1", "e8a8", "c1b1"),
    ] {
        let (mut engine, _) = with_book(&path.0, true);
        engine.send(&format!("setoption name UCI_Chess960 value {chess960}"));
        engine.send(&format!("position fen {CASTLES}"));
        let (lines, mv) = go(&mut engine, "go depth 3");
        assert_eq!(mv, short, "{lines:?}");
        assert_eq!(
            lines[0],
            format!("info string book move {short} (weight 9 of 10)")
        );
        engine.send(&format!("position fen {CASTLES} moves a2a3"));
        assert_eq!(go(&mut engine, "go depth 3").1, long);
        // A Chess960 FEN is read as Chess960 in either mode (rooks off the corners).
        engine.send(&format!("position fen {c960}"));
        assert_eq!(go(&mut engine, "go depth 3").1, c960_move);
    }
}

#[test]
fn illegal_book_moves_are_ignored() {
    let start = position(START, &[], false);
    // e2e5 and a castle with pieces in the way: neither is legal in the start position.
    let path = write_book(
        "illegal.bin",
        &[(start.clone(), "e2e5", 50), (start, "e1h1", 50)],
    );
    let (mut engine, _) = with_book(&path.0, true);
    engine.send("position startpos");
    let (lines, mv) = go(&mut engine, "go depth 3");
    assert!(searched(&lines), "{lines:?}");
    assert!(is_legal_after(None, &[], &mv), "{mv}");
}

#[test]
fn files_that_are_not_books_are_reported_and_the_engine_plays_on() {
    let short = TempFile::new("short.bin", &[0; 17]);
    let mut bytes = [0u8; 32];
    bytes[0] = 2;
    bytes[16] = 1;
    let unsorted = TempFile::new("unsorted.bin", &bytes);
    let missing = std::env::temp_dir().join("brudno-book-no-such-file.bin");
    for (path, why) in [
        (missing.as_path(), "cannot read it"),
        (&short.0, "17 bytes is not a multiple of 16"),
        (
            &unsorted.0,
            "not sorted by key (entry 1 has a smaller key than entry 0)",
        ),
    ] {
        let (mut engine, message) = with_book(path, true);
        assert!(
            message.contains(why) && message.ends_with("playing without a book"),
            "{message}"
        );
        engine.send("position startpos");
        let (lines, mv) = go(&mut engine, "go depth 3");
        assert!(searched(&lines), "{lines:?}");
        assert!(is_legal_after(None, &[], &mv), "{mv}");
    }
    // A good book after a bad one is used.
    let good = opening_book("after-bad.bin");
    let (mut engine, _) = with_book(&missing, true);
    engine.send(&format!(
        "setoption name BookFile value {}",
        good.0.display()
    ));
    assert!(engine.sync().iter().any(|l| l.contains("book: 4 entries")));
    engine.send("position startpos");
    assert_eq!(go(&mut engine, "go depth 3").1, "d2d4");
}
