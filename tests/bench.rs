//! `brudno bench` as OpenBench and people use it: the signature must not change between runs,
//! the last line must be `<N> nodes <M> nps`, and `bench` typed into the UCI loop must give the
//! same signature as the command line.

mod common;

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
    assert!(
        bounds.len() == 2 && bounds[0] <= median && median <= bounds[1],
        "interval {last} around {median}"
    );

    let refused = Command::new(env!("CARGO_BIN_EXE_brudno"))
        .args(["bench", "3", "--speedup", "1"])
        .output()
        .expect("run brudno bench --speedup with one thread");
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--threads"));
}
