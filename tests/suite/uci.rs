//! Process-level UCI conversations with the built `brudno` binary: what a GUI sees.

use crate::common;

use std::time::{Duration, Instant};

use common::{Engine, is_legal_after};

const LONG: Duration = Duration::from_secs(30);

#[test]
fn handshake_lists_identity_options_and_uciok() {
    let mut engine = Engine::start();
    engine.send("uci");
    let lines = engine.read_until(LONG, |l| l == "uciok");
    assert!(lines[0].starts_with("id name Brudno"));
    assert!(lines.iter().any(|l| l.starts_with("id author ")));
    for option in [
        "Hash",
        "Threads",
        "Move Overhead",
        "Clear Hash",
        "Ponder",
        "UCI_Chess960",
    ] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {option} type "))),
            "missing option {option}: {lines:?}"
        );
    }
    engine.sync();
}

#[test]
fn isready_is_answered_during_infinite_search_and_stop_gives_one_bestmove() {
    let mut engine = Engine::start();
    engine.send("position startpos");
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    let before_ready = engine.sync();
    assert!(
        !before_ready.iter().any(|l| l.starts_with("bestmove")),
        "bestmove before stop under infinite"
    );
    // Still no bestmove a while later: infinite waits for stop.
    let later = engine.drain(Duration::from_millis(200));
    assert!(!later.iter().any(|l| l.starts_with("bestmove")));
    engine.send("stop");
    let mv = engine.bestmove(LONG);
    assert!(is_legal_after(None, &[], &mv), "{mv}");
    // Exactly one.
    let after = engine.sync();
    assert!(
        !after.iter().any(|l| l.starts_with("bestmove")),
        "{after:?}"
    );
}

#[test]
fn infinite_search_that_finishes_early_still_waits_for_stop() {
    let mut engine = Engine::start();
    engine.send("position fen 7k/8/8/8/8/8/8/K7 w - - 0 1");
    engine.send("go infinite depth 2");
    let lines = engine.drain(Duration::from_millis(300));
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    engine.send("stop");
    engine.bestmove(LONG);
}

#[test]
fn stop_right_after_go_still_gives_exactly_one_bestmove() {
    let mut engine = Engine::start();
    for _ in 0..20 {
        engine.send("go infinite");
        engine.send("stop");
    }
    let lines = engine.sync();
    let lines_later = engine.drain(Duration::from_millis(100));
    let count = lines
        .iter()
        .chain(&lines_later)
        .filter(|l| l.starts_with("bestmove"))
        .count();
    assert_eq!(count, 20, "{lines:?}");
}

#[test]
fn position_with_moves_is_played() {
    let mut engine = Engine::start();
    engine.send("position startpos moves e2e4 e7e5 g1f3");
    engine.send("d");
    let lines = engine.read_until(LONG, |l| l.starts_with("Fen:"));
    assert_eq!(
        lines.last().unwrap(),
        "Fen: rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    );
    engine.send("go depth 3");
    let mv = engine.bestmove(LONG);
    assert!(is_legal_after(None, &["e2e4", "e7e5", "g1f3"], &mv), "{mv}");
}

#[test]
fn illegal_move_in_position_keeps_the_previous_position() {
    let mut engine = Engine::start();
    engine.send("position startpos moves e2e4");
    engine.send("position startpos moves d2d4 d7d5 e1e3");
    let lines = engine.sync();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string") && l.contains("e1e3")),
        "{lines:?}"
    );
    engine.send("d");
    let lines = engine.read_until(LONG, |l| l.starts_with("Fen:"));
    assert_eq!(
        lines.last().unwrap(),
        "Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    // A bad FEN likewise.
    engine.send("position fen rnbqkbnr/pppppppp/8/8 w KQkq - 0 1");
    let lines = engine.sync();
    assert!(lines.iter().any(|l| l.starts_with("info string")));
    engine.send("go depth 2");
    let mv = engine.bestmove(LONG);
    assert!(is_legal_after(None, &["e2e4"], &mv), "{mv}");
}

#[test]
fn every_kind_of_limit_returns_a_legal_move() {
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3";
    for go in [
        "go depth 4",
        "go nodes 5000",
        "go movetime 100",
        "go wtime 1000 btime 1000 winc 10 binc 10",
        "go wtime 50 btime 50",
        "go wtime 3000 btime 3000 movestogo 1",
        "go mate 1",
    ] {
        let mut engine = Engine::start();
        engine.send(&format!("position fen {fen}"));
        let started = Instant::now();
        engine.send(go);
        let mv = engine.bestmove(LONG);
        assert!(is_legal_after(Some(fen), &[], &mv), "{go}: {mv}");
        if go == "go mate 1" {
            assert_eq!(mv, "f3f7", "Qxf7 is mate");
        }
        if go.contains("movetime 100") {
            assert!(started.elapsed() < Duration::from_secs(5));
        }
    }
}

#[test]
fn info_lines_carry_the_standard_fields_and_precede_bestmove() {
    let mut engine = Engine::start();
    engine.send("position startpos moves d2d4");
    engine.send("go depth 5");
    let lines = engine.read_until(LONG, |l| l.starts_with("bestmove"));
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert!(infos.len() >= 5, "{lines:?}");
    for field in [
        " seldepth ",
        " score cp ",
        " nodes ",
        " nps ",
        " hashfull ",
        " time ",
        " pv ",
    ] {
        assert!(
            infos.iter().all(|l| l.contains(field)),
            "{field}: {infos:?}"
        );
    }
    // The last line before bestmove is an info line.
    assert!(lines[lines.len() - 2].starts_with("info depth 5 "));
}

#[test]
fn mated_or_stalemated_root_gives_bestmove_0000() {
    let mut engine = Engine::start();
    engine.send("position fen 7k/7P/6K1/8/3B4/8/8/8 b - - 0 1");
    engine.send("go depth 5");
    let lines = engine.read_until(LONG, |l| l.starts_with("bestmove"));
    assert_eq!(lines.last().unwrap(), "bestmove 0000");
    assert!(lines.iter().any(|l| l.contains("score mate 0")));
    engine.send("position fen 8/8/8/8/8/6k1/6p1/6K1 w - - 0 1");
    engine.send("go wtime 1000 btime 1000");
    assert_eq!(engine.bestmove(LONG), "0000");
}

#[test]
fn mate_scores_are_reported_in_moves() {
    let mut engine = Engine::start();
    engine.send("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    engine.send("go depth 4");
    let lines = engine.read_until(LONG, |l| l.starts_with("bestmove"));
    assert!(
        lines[lines.len() - 2].contains("score mate 1 "),
        "{lines:?}"
    );
    assert_eq!(
        lines.last().unwrap().split_whitespace().nth(1),
        Some("d1d8")
    );
}

#[test]
fn unknown_commands_are_answered_with_info_string() {
    let mut engine = Engine::start();
    engine.send("hello engine");
    let lines = engine.sync();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string") && l.contains("hello"))
    );
}

#[test]
fn quit_and_end_of_input_exit_promptly_even_mid_search() {
    let mut engine = Engine::start();
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    let started = Instant::now();
    engine.send("quit");
    assert!(engine.wait_exit(Duration::from_secs(2)));
    assert!(started.elapsed() < Duration::from_millis(500));

    let mut engine = Engine::start();
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    engine.close_input();
    assert!(engine.wait_exit(Duration::from_secs(2)));
}

#[test]
fn ponder_holds_bestmove_until_ponderhit_then_uses_the_clock() {
    let mut engine = Engine::start();
    engine.send("position startpos moves e2e4 e7e5");
    engine.send("go ponder wtime 2000 btime 2000");
    let lines = engine.drain(Duration::from_millis(400));
    assert!(!lines.iter().any(|l| l.starts_with("bestmove")));
    let hit = Instant::now();
    engine.send("ponderhit");
    let mv = engine.bestmove(LONG);
    assert!(
        hit.elapsed() < Duration::from_millis(1500),
        "used too much of the clock"
    );
    assert!(is_legal_after(None, &["e2e4", "e7e5"], &mv));
}

#[test]
fn chess960_castling_is_written_king_takes_rook() {
    let mut engine = Engine::start();
    engine.send("setoption name UCI_Chess960 value true");
    // Only castling and king moves matter here: White can castle short, and should.
    engine.send("position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1 moves");
    engine.send("go searchmoves e1h1 depth 2");
    assert_eq!(engine.bestmove(LONG), "e1h1");
    engine.send("setoption name UCI_Chess960 value false");
    engine.send("position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    engine.send("go searchmoves e1g1 depth 2");
    assert_eq!(engine.bestmove(LONG), "e1g1");
}
