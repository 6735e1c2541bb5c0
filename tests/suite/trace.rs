//! The trace (`brudno trace`): chess traces are the engine's own search seen through its
//! observer hook (the same root values and the same counts as the search lab), the counters
//! of a trace add up, and the command line prints what it promises and refuses bad input
//! with a message and exit status 2, never a panic. The page itself is tested in a browser
//! in `trace_page.rs`.

use crate::common;

use brudno::lab::trace::chess::{self, ChessRequest, ChessSource};
use brudno::lab::trace::model::{Score, StepKind, Trace};
use brudno::lab::trace::recorder::subtree_size;
use brudno::position::Position;
use brudno::tools::ebf::lab::{self, LabConfig, LabPosition};

use brudno::eval::Evaluation;
use common::run_brudno;

/// Middlegames, endgames, and a position where the side to move is mated in two plies.
const FENS: [&str; 6] = [
    "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 1",
    "3r1k2/4npp1/1ppr3p/p6P/P2PPPP1/1NR5/5K2/2R5 w - - 0 1",
    "8/3k4/2p2n2/1p1p4/1P1P4/2P1N3/4K3/8 w - - 0 1",
    "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "7k/8/5K2/6Q1/8/8/8/8 b - - 0 1",
];

fn request(fen: &str, config: LabConfig, depth: u32) -> ChessRequest {
    ChessRequest {
        source: ChessSource {
            position: Position::from_fen(fen, false).unwrap(),
            history: Vec::new(),
            moves_san: Vec::new(),
            start: fen.to_string(),
        },
        config,
        depth,
        eval: Evaluation::Material,
    }
}

#[test]
fn chess_traces_match_the_search_lab() {
    // The lab searches each position on its own, with the same switches; the trace watches
    // the engine's search. Root values, leaves and nodes must agree exactly.
    let positions: Vec<LabPosition> = FENS
        .iter()
        .map(|fen| LabPosition {
            id: fen.to_string(),
            position: Position::from_fen(fen, false).unwrap(),
        })
        .collect();
    let max_depth = 3;
    let run = lab::measure(
        positions,
        chess::CONFIGS.to_vec(),
        max_depth,
        false,
        &mut |_| {},
    );
    for (config_index, &config) in chess::CONFIGS.iter().enumerate() {
        for depth in 1..=max_depth {
            for (position_index, fen) in FENS.iter().enumerate() {
                let sample = run.sample(config_index, depth, position_index);
                let (trace, result) = chess::trace(&request(fen, config, depth));
                let what = format!("{} depth {depth} on {fen}", config.name());
                assert_eq!(result.score, sample.score, "{what}: search result");
                assert_eq!(
                    trace.result.value,
                    Some(Score::Value(i64::from(sample.score))),
                    "{what}: root value"
                );
                assert_eq!(trace.result.leaves, sample.stats.leaves, "{what}: leaves");
                assert_eq!(trace.result.visited, sample.stats.nodes, "{what}: nodes");
                let iterations = if config == LabConfig::IdTt { depth } else { 1 };
                assert_eq!(trace.iterations.len() as u32, iterations, "{what}");
                check_counters(&trace, &what);
                // Minimax's own trace is the full tree: the totals are what it visits.
                let last = trace.iterations.last().unwrap();
                let minimax = run.sample(0, depth, position_index);
                assert_eq!(last.totals.nodes, minimax.stats.nodes, "{what}: totals");
                assert_eq!(last.totals.leaves, minimax.stats.leaves, "{what}: totals");
            }
        }
    }
}

/// The counters of every step add up, and in a single full-width pass every node of the
/// full tree is visited or pruned.
fn check_counters(trace: &Trace, what: &str) {
    for iteration in &trace.iterations {
        let (mut visited, mut leaves, mut pruned) = (0, 0, 0);
        for step in trace.iteration_steps(iteration) {
            match step.kind {
                StepKind::Enter => visited += 1,
                StepKind::Leaf => {
                    visited += 1;
                    leaves += 1;
                }
                StepKind::Cutoff => {
                    for &s in step.skipped.as_ref().unwrap() {
                        pruned += subtree_size(&trace.nodes, s);
                    }
                }
                _ => {}
            }
            assert_eq!(
                (step.visited, step.leaves, step.pruned),
                (visited, leaves, pruned),
                "{what}"
            );
        }
        assert_eq!(
            visited + pruned,
            iteration.totals.nodes,
            "{what}: visited + pruned"
        );
    }
}

#[test]
fn values_are_in_the_root_players_view() {
    // Black to move has one move, 1... Kh7, and is mated by 2. Qg7#: Black is the root
    // player (MAX), so the value is a mate against MAX.
    let (trace, result) = chess::trace(&request(FENS[5], LabConfig::Alphabeta, 3));
    assert!(result.score < -brudno::search::score::MATE_BOUND);
    let value = trace.result.value.and_then(Score::finite).unwrap();
    assert_eq!(value, i64::from(result.score));
    // A leaf where White (MIN, below the root) has mated: checkmate, negative for MAX.
    let mate = trace
        .steps
        .iter()
        .find(|s| s.detail.as_deref() == Some("checkmate"))
        .expect("a checkmate leaf");
    assert!(mate.value.and_then(Score::finite).unwrap() < 0);
    assert!(
        trace.nodes[mate.node].max,
        "the mated side is the root player"
    );
    // Every node's side alternates with its depth.
    for node in &trace.nodes {
        assert_eq!(node.max, node.depth % 2 == 0);
    }
}

#[test]
fn moves_are_labelled_in_san_with_numbers() {
    let (trace, _) = chess::trace(&request(FENS[0], LabConfig::MvvLva, 3));
    let root = &trace.nodes[trace.iterations[0].root];
    let first = &trace.nodes[root.children[0]];
    // MVV-LVA puts a capture first, and Black's captures first in reply.
    assert_eq!(first.label, "1. Nxe5");
    let reply = &trace.nodes[first.children[0]];
    assert_eq!(reply.label, "1... Nxe5");
    assert_eq!(reply.path.as_deref().unwrap(), "1. Nxe5 Nxe5");
    let third = &trace.nodes[reply.children[0]];
    assert!(third.label.starts_with("2. "), "{}", third.label);
    assert_eq!(
        third.path.as_deref().unwrap(),
        format!("1. Nxe5 Nxe5 {}", third.label)
    );
}

#[test]
fn stubs_count_the_skipped_moves_and_their_subtrees() {
    let (trace, _) = chess::trace(&request(FENS[1], LabConfig::Alphabeta, 3));
    let (mut stubs, mut pruned) = (0, 0);
    for step in trace.steps.iter().filter(|s| s.kind == StepKind::Cutoff) {
        for &s in step.skipped.as_ref().unwrap() {
            let stub = trace.nodes[s].stub.expect("a chess cut-off skips a stub");
            // Every skipped move is at least its own node.
            assert!(stub.moves >= 1 && stub.nodes >= stub.moves);
            assert_eq!(trace.nodes[s].parent, Some(step.node));
            pruned += stub.nodes;
            stubs += 1;
        }
    }
    assert!(stubs > 10, "alpha-beta cuts in a middlegame at depth 3");
    assert_eq!(pruned, trace.result.pruned);
}

fn brudno(args: &[&str]) -> (i32, String, String) {
    let (status, stdout, stderr) = run_brudno(args);
    (status.code().unwrap_or(-1), stdout, stderr)
}

#[test]
fn the_standing_tree_narrated() {
    let (code, out, err) = brudno(&["trace"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("MAX root  α −∞  β +∞"), "{out}");
    assert!(out.contains("    leaf 2.1 = 2\n    cut-off: 2 ≤ α 3, skips 2.2, 2.3 (2 siblings)"));
    assert!(out.contains("  MIN 1 returns 3   α → 3"));
    assert!(out.contains("value 3\n"));
    assert!(out.contains("leaves examined 7 of 9"));
    assert!(out.contains("leaves examined, in order: 3 12 8 2 14 5 2"));
    assert!(out.contains("leaves never looked at (2): 2.2 (4), 2.3 (6)"));
}

#[test]
fn orderings_and_comparison_tables() {
    let (code, out, _) = brudno(&["trace", "--tree", "standing", "--orderings", "--quiet"]);
    assert_eq!(code, 0);
    let leaves: Vec<&str> = out
        .lines()
        .filter(|l| l.ends_with(" of 9"))
        .map(|l| l.split_whitespace().rev().nth(2).unwrap())
        .collect();
    assert_eq!(leaves, ["7", "7", "9", "9", "7", "7"]);
    let (code, out, _) = brudno(&[
        "trace",
        "--random",
        "--branching",
        "3",
        "--depth",
        "4",
        "--seed",
        "7",
        "--compare",
        "--quiet",
    ]);
    assert_eq!(code, 0);
    let row = |name: &str| {
        out.lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().last())
            .unwrap()
            .to_string()
    };
    assert_eq!(row("minimax"), "81");
    assert_eq!(row("alphabeta-ordered"), "17");
    assert_eq!(row("best case"), "17");
    assert!(out.contains("b = 3 · depth 4 · 81 leaves · seed 7"));
}

#[test]
fn json_output_follows_the_documented_format() {
    let dir = std::env::temp_dir().join(format!("brudno-trace-json-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("t.json");
    let (code, _, err) = brudno(&[
        "trace",
        "--startpos",
        "--depth",
        "2",
        "--compare",
        "--quiet",
        "--json",
        path.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(json["format"], "brudno-trace");
    assert_eq!(json["version"], 2);
    assert_eq!(json["values"]["unit"], "cp");
    let steps = json["steps"].as_array().unwrap();
    let nodes = json["nodes"].as_array().unwrap();
    assert_eq!(steps[0]["kind"], "enter");
    assert_eq!(steps[0]["alpha"], "-inf");
    assert_eq!(steps[0]["beta"], "+inf");
    assert_eq!(steps[0]["line"], 1);
    for (i, node) in nodes.iter().enumerate() {
        assert_eq!(node["id"], i);
    }
    let pseudocode = json["pseudocode"].as_array().unwrap();
    for step in steps {
        let line = step["line"].as_u64().unwrap() as usize;
        assert!((1..=pseudocode.len()).contains(&line));
        assert!(!step["text"].as_str().unwrap().is_empty());
    }
    let last = &json["iterations"][0];
    assert_eq!(last["totals"]["leaves"], 400);
    assert_eq!(last["last_step"].as_u64().unwrap() as usize, steps.len());
    assert_eq!(json["compare"][0]["algorithm"], "minimax");
    assert_eq!(json["compare"][0]["leaves"], 400);
    assert_eq!(json["result"]["minimax_leaves"], 400);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_input_is_refused_with_a_message() {
    let cases: [(&[&str], &str); 12] = [
        (&["trace", "--tree", "[[1,2],[3"], "at character 10"),
        (&["trace", "--tree", "[1,,2]"], "at character 4"),
        (&["trace", "--tree", "[]"], "empty list"),
        (&["trace", "--startpos", "--depth", "5"], "out of range"),
        (&["trace", "--startpos", "--depth", "0"], "out of range"),
        (&["trace", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"], "king"),
        (
            &["trace", "--startpos", "--moves", "e2e5"],
            "move 1 of --moves",
        ),
        (
            &["trace", "--startpos", "--algorithm", "negamax"],
            "unknown algorithm 'negamax' for a chess trace",
        ),
        (&["trace", "--algorithm", "mvv-lva"], "unknown algorithm"),
        (&["trace", "--random", "--branching", "3"], "--depth"),
        (
            &["trace", "--random", "--branching", "10", "--depth", "9"],
            "at most",
        ),
        (
            &[
                "trace",
                "--fen",
                "7k/8/8/8/8/8/8/K6q w - - 0 1",
                "--moves",
                "a1b1",
            ],
            "illegal",
        ),
    ];
    for (args, message) in cases {
        let (code, _, err) = brudno(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    let (code, _, err) = brudno(&["trace", "--quiet", "--html", "/nonexistent-dir/page.html"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("cannot write /nonexistent-dir/page.html"),
        "{err}"
    );
}
