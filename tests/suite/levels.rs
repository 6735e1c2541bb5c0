//! `UCI_LimitStrength` / `UCI_Elo` and `UCI_ShowWDL` through the binary: the options are
//! declared, a weaker level searches fewer nodes and still answers every `go` with one legal
//! move, and the win/draw/loss triple is on the info lines when asked for.

use crate::common;

use std::time::Duration;

use common::{Engine, is_legal_after};

const LONG: Duration = Duration::from_secs(60);

fn nodes_of(line: &str) -> u64 {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|&w| w == "nodes").expect("nodes");
    words[at + 1].parse().unwrap()
}

#[test]
fn the_options_are_declared() {
    let mut engine = Engine::start();
    let lines = engine.handshake();
    for option in [
        "option name UCI_LimitStrength type check default false",
        "option name UCI_Elo type spin default 2100 min 1350 max 2100",
        "option name UCI_ShowWDL type check default false",
    ] {
        assert!(lines.iter().any(|l| l == option), "{option}: {lines:?}");
    }
}

#[test]
fn a_weaker_level_searches_fewer_nodes_and_plays_legal_moves() {
    let mut engine = Engine::start();
    engine.send("setoption name UCI_LimitStrength value true");
    let mut nodes = Vec::new();
    for elo in [1350, 1700, 2100] {
        engine.send(&format!("setoption name UCI_Elo value {elo}"));
        engine.send("ucinewgame");
        engine.send("position startpos moves e2e4 e7e5 g1f3");
        engine.send("go wtime 60000 btime 60000");
        let (lines, best) = engine.search_lines(LONG);
        assert!(
            is_legal_after(None, &["e2e4", "e7e5", "g1f3"], &best),
            "{best}"
        );
        let last_info = lines.iter().rev().find(|l| l.contains(" nodes ")).unwrap();
        nodes.push(nodes_of(last_info));
        // The level compares several lines.
        assert!(lines.iter().any(|l| l.contains(" multipv 2 ")), "{lines:?}");
    }
    assert!(nodes[0] < nodes[1] && nodes[1] < nodes[2], "{nodes:?}");
    // Full strength at the same clock searches more than the strongest level's budget.
    engine.send("setoption name UCI_LimitStrength value false");
    engine.send("go nodes 1000000");
    let lines = engine.read_until(LONG, |l| l.starts_with("bestmove"));
    let last_info = lines.iter().rev().find(|l| l.contains(" nodes ")).unwrap();
    assert!(nodes_of(last_info) > nodes[2], "{last_info}");
    assert!(!lines.iter().any(|l| l.contains(" multipv 2 ")));
}

#[test]
fn a_weak_level_never_gives_away_a_mate_in_one() {
    let mut engine = Engine::start();
    engine.send("setoption name UCI_LimitStrength value true");
    engine.send("setoption name UCI_Elo value 1350");
    for _ in 0..5 {
        // Scholar's mate: Qxf7#.
        engine.send(
            "position fen r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        );
        engine.send("go movetime 500");
        assert_eq!(engine.bestmove(LONG), "h5f7");
    }
}

#[test]
fn wdl_is_shown_when_asked_for() {
    let mut engine = Engine::start();
    engine.send("position startpos");
    engine.send("go depth 6");
    let lines = engine.read_until(LONG, |l| l.starts_with("bestmove"));
    assert!(!lines.iter().any(|l| l.contains(" wdl ")));

    engine.send("setoption name UCI_ShowWDL value true");
    // White is a queen up: winning chances dominate.
    engine.send("position fen rnb1kbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3");
    engine.send("go depth 6");
    let lines = engine.read_until(LONG, |l| l.starts_with("bestmove"));
    let infos: Vec<&String> = lines.iter().filter(|l| l.contains(" score ")).collect();
    assert!(!infos.is_empty());
    for line in infos {
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = words.iter().position(|&w| w == "wdl").expect(line);
        let wdl: Vec<u32> = words[at + 1..at + 4]
            .iter()
            .map(|w| w.parse().unwrap())
            .collect();
        assert_eq!(wdl.iter().sum::<u32>(), 1000, "{line}");
        assert!(wdl[0] > 800, "{line}");
        // The PV stays last.
        assert!(at < words.iter().position(|&w| w == "pv").unwrap_or(usize::MAX));
    }
}

/// The score and node count of the last main-line info of a `go nodes 20000` search from a
/// fresh game, with `Evaluation` set to `evaluation`.
fn score_and_nodes(engine: &mut Engine, evaluation: &str) -> (String, u64) {
    engine.send(&format!("setoption name Evaluation value {evaluation}"));
    engine.send("ucinewgame");
    engine.send("position startpos moves e2e4 c7c5 g1f3 d7d6");
    engine.send("go nodes 20000");
    let (lines, _) = engine.search_lines(LONG);
    let last = lines
        .iter()
        .rev()
        .find(|l| l.contains(" nodes ") && l.contains(" score ") && !l.contains(" multipv 2 "))
        .unwrap_or_else(|| panic!("{lines:?}"));
    let words: Vec<&str> = last.split_whitespace().collect();
    let at = words.iter().position(|&w| w == "score").unwrap();
    (
        format!("{} {}", words[at + 1], words[at + 2]),
        nodes_of(last),
    )
}

/// The levels were calibrated with the positional evaluation and play with it whatever
/// `Evaluation` says; at full strength the option decides.
#[test]
fn a_level_plays_with_the_positional_evaluation() {
    let mut engine = Engine::start();
    let full_nnue = score_and_nodes(&mut engine, "NNUE");
    let full_positional = score_and_nodes(&mut engine, "Positional");
    assert_ne!(full_nnue, full_positional);
    engine.send("setoption name UCI_LimitStrength value true");
    engine.send("setoption name UCI_Elo value 2100");
    let level_nnue = score_and_nodes(&mut engine, "NNUE");
    let level_positional = score_and_nodes(&mut engine, "Positional");
    assert_eq!(level_nnue, level_positional);
}
