//! `brudno bench` as OpenBench and people use it: the signature must not change between runs,
//! the last line must be `<N> nodes <M> nps`, and `bench` typed into the UCI loop must give the
//! same signature as the command line. And OpenBench's other request, `genfens`, given as the
//! command line its client writes.

use crate::common;

use std::process::Command;
use std::time::Duration;

use common::Engine;

/// A depth small enough for a test, deep enough to use the table, quiescence and ordering.
const DEPTH: &str = "4";

/// Runs `brudno bench <DEPTH>` and returns its output lines.
fn bench_lines() -> Vec<String> {
    let output = Command::new(env!("CARGO_BIN_EXE_brudno"))
        .args(["bench", DEPTH])
        .output()
        .expect("run brudno bench");
    assert!(output.status.success());
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

/// The node count of an OpenBench line `<N> nodes <M> nps`, if it is one.
fn signature(line: &str) -> Option<u64> {
    match line.split(' ').collect::<Vec<_>>().as_slice() {
        [nodes, "nodes", nps, "nps"] if nps.parse::<u64>().is_ok() => nodes.parse().ok(),
        _ => None,
    }
}

/// The per-position lines without their timing (`time N ms`), so two runs compare them whole.
fn position_lines(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter(|l| l.starts_with("position "))
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let mut kept = Vec::with_capacity(words.len());
            let mut index = 0;
            while index < words.len() {
                if words[index] == "time" && words.get(index + 2) == Some(&"ms") {
                    index += 3;
                } else {
                    kept.push(words[index]);
                    index += 1;
                }
            }
            kept.join(" ")
        })
        .collect()
}

#[test]
fn two_runs_give_the_same_signature_and_the_openbench_last_line() {
    let first = bench_lines();
    let second = bench_lines();
    let first_nodes = signature(first.last().unwrap()).expect("last line '<N> nodes <M> nps'");
    let second_nodes = signature(second.last().unwrap()).expect("last line '<N> nodes <M> nps'");
    assert_eq!(first_nodes, second_nodes);
    assert!(first_nodes > 0);
    // Every position, its node count and its best move are the same in both runs.
    assert_eq!(position_lines(&first).len(), 50);
    assert_eq!(position_lines(&first), position_lines(&second));
    // The per-position counts add up to the signature.
    let sum: u64 = position_lines(&first)
        .iter()
        .map(|line| {
            let after = line.split(" nodes ").nth(1).expect("nodes field");
            after
                .split_whitespace()
                .next()
                .unwrap()
                .parse::<u64>()
                .unwrap()
        })
        .sum();
    assert_eq!(sum, first_nodes);
}

#[test]
fn bench_inside_the_uci_loop_gives_the_command_line_signature() {
    let expected = signature(bench_lines().last().unwrap()).unwrap();
    let mut engine = Engine::start();
    engine.send(&format!("bench {DEPTH}"));
    let lines = engine.read_until(Duration::from_secs(60), |l| signature(l).is_some());
    assert_eq!(signature(lines.last().unwrap()), Some(expected));
    assert_eq!(position_lines(&lines).len(), 50);
    // The engine still answers afterwards and can search.
    engine.sync();
    engine.send("go depth 2");
    engine.bestmove(Duration::from_secs(30));
}

/// `--speedup` (time to depth, one thread against N) searches every position with a legal
/// move on both sides and ends with the median speed-up and its bootstrap interval; it
/// refuses one thread.
#[test]
fn speedup_compares_threads_position_by_position() {
    let output = Command::new(env!("CARGO_BIN_EXE_brudno"))
        .args(["bench", "3", "--threads", "2", "--speedup", "2"])
        .output()
        .expect("run brudno bench --speedup");
    assert!(output.status.success());
    let text = String::from_utf8_lossy(&output.stdout);
    let per_position = text
        .lines()
        .filter(|l| l.contains(" ms ") && l.contains(" speed-up "))
        .count();
    assert_eq!(
        per_position, 48,
        "50 bench positions less the two without a move:\n{text}"
    );
    assert_eq!(text.lines().filter(|l| l.starts_with("round ")).count(), 2);
    let summary = text
        .lines()
        .find(|l| l.starts_with("median speed-up per position "))
        .unwrap_or_else(|| panic!("no summary:\n{text}"));
    let median: f64 = summary
        .strip_prefix("median speed-up per position ")
        .and_then(|rest| rest.split(',').next())
        .and_then(|number| number.parse().ok())
        .unwrap_or_else(|| panic!("no median: {summary}"));
    assert!(median > 0.0);
    // The last line bounds the median by a bootstrap interval over the rounds.
    let last = text.lines().last().unwrap_or_default();
    let bounds: Vec<f64> = last
        .rsplit(": ")
        .next()
        .unwrap_or_default()
        .split(" to ")
        .filter_map(|number| number.parse().ok())
        .collect();
    // (A percentile bootstrap interval need not contain the estimate itself: with two rounds
    // a position's resampled median is one of three values, so only the order is certain.)
    assert!(
        bounds.len() == 2 && 0.0 < bounds[0] && bounds[0] <= bounds[1],
        "interval {last} for {median}"
    );

    let refused = Command::new(env!("CARGO_BIN_EXE_brudno"))
        .args(["bench", "3", "--speedup", "1"])
        .output()
        .expect("run brudno bench --speedup with one thread");
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--threads"));
}

/// `brudno "genfens N seed S book <None|FILE>" quit`, as OpenBench's `Client/genfens.py`
/// runs it: `N` lines `info string genfens <FEN>`, the same for the same seed, legal
/// positions, a book's lines used when one is given; a bad request fails at once.
#[test]
fn genfens_answers_openbench_with_n_positions_per_seed() {
    let genfens = |request: &str| {
        let output = Command::new(env!("CARGO_BIN_EXE_brudno"))
            .args([request, "quit"])
            .output()
            .expect("run brudno genfens");
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        (output.status, stdout)
    };
    let (status, first) = genfens("genfens 5 seed 42 book None");
    assert!(status.success(), "{first}");
    let fens: Vec<&str> = first
        .lines()
        .filter_map(|l| l.strip_prefix("info string genfens "))
        .collect();
    assert_eq!(fens.len(), 5, "{first}");
    for fen in &fens {
        let position = brudno::position::Position::from_fen(fen, false).expect(fen);
        assert!(!position.legal_moves().is_empty(), "{fen}");
    }
    assert_eq!(genfens("genfens 5 seed 42 book None").1, first);
    assert_ne!(genfens("genfens 5 seed 43 book None").1, first);

    let book = std::env::temp_dir().join(format!("brudno-genfens-{}.epd", std::process::id()));
    std::fs::write(
        &book,
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq -\n",
    )
    .unwrap();
    let request = format!("genfens 3 seed 1 book {} plies 0", book.display());
    let (status, from_book) = genfens(&request);
    let _ = std::fs::remove_file(&book);
    assert!(status.success(), "{from_book}");
    assert_eq!(
        from_book.lines().next(),
        Some(
            "info string genfens r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 1"
        )
    );
    let (status, _) = genfens("genfens many seed 1 book None");
    assert_eq!(status.code(), Some(2));
}
