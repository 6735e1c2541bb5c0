//! Process-level tests of what analysis users rely on: MultiPV output (shape, order, the cap
//! at the number of legal moves), `go searchmoves`, and Lazy SMP (`Threads` > 1) giving one
//! legal bestmove under every limit, stopping at once, and combining with both.

use crate::common;

use std::time::{Duration, Instant};

use common::{Engine, is_legal_after};

const LONG: Duration = Duration::from_secs(60);

/// One `info depth ...` line, read into the fields these tests look at.
#[derive(Debug)]
struct Info {
    depth: u32,
    multipv: u32,
    /// Centipawns, or +-(100000 - moves) for a mate score so that ordering still holds.
    score: i64,
    /// Whether the score is a bound (`lowerbound` / `upperbound`), not exact.
    bound: bool,
    pv: Vec<String>,
}

fn parse_info(line: &str) -> Option<Info> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    if tokens.first() != Some(&"info") || !tokens.contains(&"depth") || !tokens.contains(&"pv") {
        return None;
    }
    let after = |key: &str| tokens.iter().position(|t| *t == key).map(|i| tokens[i + 1]);
    let depth = after("depth")?.parse().ok()?;
    let multipv = after("multipv").map_or(Some(1), |v| v.parse().ok())?;
    let score_at = tokens.iter().position(|t| *t == "score")?;
    let value: i64 = tokens[score_at + 2].parse().ok()?;
    let score = match tokens[score_at + 1] {
        "cp" => value,
        "mate" if value > 0 => 100_000 - value,
        "mate" => -100_000 - value,
        _ => return None,
    };
    let bound = matches!(tokens[score_at + 3], "lowerbound" | "upperbound");
    let pv_at = tokens.iter().position(|t| *t == "pv")?;
    let pv = tokens[pv_at + 1..].iter().map(|t| t.to_string()).collect();
    Some(Info {
        depth,
        multipv,
        score,
        bound,
        pv,
    })
}

/// Runs one `go` and returns its `info depth` lines and the bestmove.
fn go(engine: &mut Engine, command: &str) -> (Vec<Info>, String) {
    engine.send(command);
    let (lines, best) = engine.search_lines(LONG);
    let infos = lines.iter().filter_map(|l| parse_info(l)).collect();
    (infos, best)
}

/// The lines reported at `depth`, sorted by `multipv`. The engine repeats the final lines with
/// the final node count just before `bestmove`; the last report of each line counts.
fn lines_at(infos: &[Info], depth: u32) -> Vec<&Info> {
    let mut lines: Vec<&Info> = Vec::new();
    for info in infos.iter().filter(|i| i.depth == depth) {
        lines.retain(|l| l.multipv != info.multipv);
        lines.push(info);
    }
    lines.sort_by_key(|i| i.multipv);
    lines
}

/// The lines of the deepest depth reported.
fn deepest(infos: &[Info]) -> Vec<&Info> {
    let depth = infos
        .iter()
        .map(|i| i.depth)
        .max()
        .expect("some info lines");
    lines_at(infos, depth)
}

#[test]
fn multipv_reports_k_distinct_lines_best_first_at_every_depth() {
    let mut engine = Engine::start();
    engine.send("setoption name MultiPV value 4");
    engine.send("position startpos moves e2e4 e7e5 g1f3");
    let (infos, best) = go(&mut engine, "go depth 7");
    for depth in 1..=7 {
        let lines = lines_at(&infos, depth);
        let numbers: Vec<u32> = lines.iter().map(|i| i.multipv).collect();
        assert_eq!(numbers, vec![1, 2, 3, 4], "depth {depth}: {lines:?}");
        let mut first_moves: Vec<&str> = lines.iter().map(|i| i.pv[0].as_str()).collect();
        for pair in lines.windows(2) {
            assert!(
                pair[0].score >= pair[1].score,
                "depth {depth}: line {} ({}) below line {} ({})",
                pair[0].multipv,
                pair[0].score,
                pair[1].multipv,
                pair[1].score
            );
        }
        for line in &lines {
            assert!(
                !line.bound,
                "depth {depth}: a MultiPV score must be exact: {line:?}"
            );
            let moves: Vec<&str> = line.pv.iter().map(String::as_str).collect();
            assert!(
                is_legal_line(&["e2e4", "e7e5", "g1f3"], &moves),
                "illegal pv {moves:?}"
            );
        }
        first_moves.sort_unstable();
        first_moves.dedup();
        assert_eq!(first_moves.len(), 4, "depth {depth}: repeated first moves");
    }
    assert_eq!(
        best,
        deepest(&infos)[0].pv[0],
        "bestmove is the first line's move"
    );
}

/// Whether every move of `line` is legal in turn after `startpos moves <before>`.
fn is_legal_line(before: &[&str], line: &[&str]) -> bool {
    let mut moves: Vec<&str> = before.to_vec();
    for mv in line {
        if !is_legal_after(None, &moves, mv) {
            return false;
        }
        moves.push(mv);
    }
    true
}

#[test]
fn multipv_is_capped_by_the_number_of_legal_moves() {
    let mut engine = Engine::start();
    engine.send("setoption name MultiPV value 256");
    // The queen on g2 leaves White's king one move: Kb1.
    let fen = "7k/8/8/8/8/8/6q1/K7 w - - 0 1";
    engine.send(&format!("position fen {fen}"));
    let (infos, best) = go(&mut engine, "go depth 4");
    assert!(!infos.is_empty());
    assert!(infos.iter().all(|i| i.multipv == 1), "{infos:?}");
    assert_eq!(best, "a1b1");
}

#[test]
fn multipv_lists_every_legal_move_when_asked_for_more() {
    let mut engine = Engine::start();
    engine.send("setoption name MultiPV value 10");
    // White is in check along the first rank: Ka2 and Kb2 are the only moves.
    let fen = "7k/8/8/8/8/8/8/K6q w - - 0 1";
    engine.send(&format!("position fen {fen}"));
    let (infos, _) = go(&mut engine, "go depth 3");
    let lines = deepest(&infos);
    let numbers: Vec<u32> = lines.iter().map(|i| i.multipv).collect();
    assert_eq!(numbers, vec![1, 2], "{lines:?}");
}

#[test]
fn searchmoves_restricts_the_root_and_ignores_illegal_moves_with_a_message() {
    let mut engine = Engine::start();
    engine.send("position startpos");
    let (infos, best) = go(&mut engine, "go searchmoves a2a3 h2h3 depth 6");
    assert!(["a2a3", "h2h3"].contains(&best.as_str()), "{best}");
    assert!(
        infos
            .iter()
            .all(|i| ["a2a3", "h2h3"].contains(&i.pv[0].as_str()))
    );

    engine.send("go searchmoves e2e5 g1f3 depth 4");
    let lines = engine.read_until(LONG, |l| l.starts_with("bestmove"));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string") && l.contains("e2e5")),
        "no message about e2e5: {lines:?}"
    );
    assert_eq!(
        lines.last().unwrap().split_whitespace().nth(1),
        Some("g1f3")
    );
}

#[test]
fn multipv_and_searchmoves_together_with_threads() {
    let mut engine = Engine::start();
    engine.send("setoption name Threads value 2");
    engine.send("setoption name MultiPV value 2");
    engine.send("position startpos");
    let allowed = ["e2e4", "d2d4", "c2c4"];
    let (infos, best) = go(&mut engine, "go searchmoves e2e4 d2d4 c2c4 depth 6");
    assert!(allowed.contains(&best.as_str()), "{best}");
    assert!(infos.iter().all(|i| allowed.contains(&i.pv[0].as_str())));
    let lines = deepest(&infos);
    assert_eq!(lines.iter().map(|i| i.multipv).collect::<Vec<_>>(), [1, 2]);
    assert_ne!(lines[0].pv[0], lines[1].pv[0]);
    assert!(lines[0].score >= lines[1].score);
}

#[test]
fn several_threads_give_one_legal_bestmove_under_every_limit() {
    let mut engine = Engine::start();
    engine.send("setoption name Threads value 3");
    let moves = ["e2e4", "c7c5", "g1f3", "d7d6"];
    let position = format!("position startpos moves {}", moves.join(" "));
    for limit in [
        "depth 8",
        "nodes 30000",
        "movetime 200",
        "wtime 2000 btime 2000 winc 20 binc 20",
        "wtime 50 btime 50",
        "wtime 1000 btime 1000 movestogo 1",
        "depth 1",
        "nodes 1",
    ] {
        engine.send(&position);
        let started = Instant::now();
        let (_, best) = go(&mut engine, &format!("go {limit}"));
        assert!(is_legal_after(None, &moves, &best), "{limit}: {best}");
        assert!(started.elapsed() < Duration::from_secs(20), "{limit}");
        // Exactly one bestmove: nothing more arrives.
        let extra = engine.sync();
        assert!(
            extra.iter().all(|l| !l.starts_with("bestmove")),
            "{limit}: {extra:?}"
        );
    }
    // A mate limit with a mate on the board.
    let fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
    engine.send(&format!("position fen {fen}"));
    let (infos, best) = go(&mut engine, "go mate 1");
    assert_eq!(best, "a1a8");
    assert!(infos.iter().any(|i| i.score == 100_000 - 1));
}

#[test]
fn threads_reach_the_requested_depth_and_report_it() {
    let mut engine = Engine::start();
    engine.send("setoption name Threads value 2");
    engine.send("position startpos moves d2d4 g8f6 c2c4");
    let (infos, best) = go(&mut engine, "go depth 10");
    let last = infos.last().expect("info lines");
    assert_eq!(last.depth, 10, "{infos:?}");
    assert_eq!(last.pv[0], best);
    assert!(infos.iter().all(|i| i.depth <= 10));
}

/// With two threads the main thread reports lines a helper completed (and goes on from them):
/// depths in the info lines never go back, nor do their node counts and times, however the
/// threads took over each other's iterations.
#[test]
fn info_lines_with_threads_never_go_back() {
    let mut engine = Engine::start();
    engine.send("setoption name Threads value 2");
    for moves in [
        "",
        "e2e4 c7c5 g1f3 d7d6",
        "d2d4 d7d5 c2c4 e7e6 b1c3 g8f6 c1g5",
    ] {
        engine.send(&format!("position startpos moves {moves}"));
        engine.send("go depth 12");
        let lines = engine.read_until(LONG, |l| l.starts_with("bestmove"));
        let field = |line: &str, key: &str| -> Option<u64> {
            let mut tokens = line.split_whitespace();
            tokens.position(|t| t == key)?;
            tokens.next()?.parse().ok()
        };
        let reports: Vec<(u64, u64, u64)> = lines
            .iter()
            .filter(|l| l.starts_with("info depth") && l.contains(" pv "))
            .map(|l| {
                let get = |key| field(l, key).unwrap_or_else(|| panic!("no {key}: {l}"));
                (get("depth"), get("nodes"), get("time"))
            })
            .collect();
        assert_eq!(reports.last().map(|r| r.0), Some(12), "{lines:?}");
        for pair in reports.windows(2) {
            assert!(pair[0].0 <= pair[1].0, "depth went back: {lines:?}");
            assert!(pair[0].1 <= pair[1].1, "nodes went back: {lines:?}");
            assert!(pair[0].2 <= pair[1].2, "time went back: {lines:?}");
        }
    }
}

#[test]
fn stop_ends_every_thread_at_once() {
    let mut engine = Engine::start();
    engine.send("setoption name Threads value 4");
    engine.send("position startpos");
    for _ in 0..5 {
        engine.send("go infinite");
        // Depths may be skipped: the main thread reports the deepest line a helper completed.
        engine.read_until(LONG, |l| parse_info(l).is_some_and(|info| info.depth >= 4));
        let sent = Instant::now();
        engine.send("stop");
        let best = engine.bestmove(LONG);
        assert!(
            sent.elapsed() < Duration::from_millis(500),
            "stop took {:?}",
            sent.elapsed()
        );
        assert!(is_legal_after(None, &[], &best), "{best}");
    }
    // Still answering, and a new search works with the threads it has.
    engine.sync();
    let (_, best) = go(&mut engine, "go depth 5");
    assert!(is_legal_after(None, &[], &best));
}

#[test]
fn the_thread_count_can_go_up_and_down_between_searches() {
    // Helper threads are kept between searches; fewer, more and none must all still search.
    let mut engine = Engine::start();
    engine.send("position startpos moves e2e4 e7e5");
    for threads in [4, 2, 6, 1, 3] {
        engine.send(&format!("setoption name Threads value {threads}"));
        for _ in 0..3 {
            let (infos, best) = go(&mut engine, "go depth 6");
            assert!(
                is_legal_after(None, &["e2e4", "e7e5"], &best),
                "{threads} threads: {best}"
            );
            assert_eq!(infos.last().map(|i| i.depth), Some(6), "{threads} threads");
        }
    }
}
