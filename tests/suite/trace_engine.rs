//! The engine as it plays, traced (`brudno trace --algorithm engine`): its root value and best
//! move are the engine's own `go depth D` (the UCI binary, same evaluation, fresh table), and
//! the steps flagged with a technique sit where the technique acted: a null-move cut-off right
//! after a null-move search that held, an LMR or PVS re-search as the same move searched again
//! deeper or wider, an aspiration fail as the root searched again within its iteration, a
//! table cut-off at a node that searched no move.

use crate::common;

use std::time::Duration;

use brudno::eval::Evaluation;
use brudno::lab::trace::chess::{self, ChessRequest, ChessSource};
use brudno::lab::trace::model::{Score, StepKind, Trace};
use brudno::position::Position;
use brudno::tools::ebf::lab::LabConfig;
use brudno::tools::epd::notation;
use common::Engine;

/// The Italian game, a rook endgame, a wild middlegame, a Sicilian Dragon.
const FENS: [&str; 4] = [
    "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 1",
    "3r1k2/4npp1/1ppr3p/p6P/P2PPPP1/1NR5/5K2/2R5 w - - 0 1",
    "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1",
    "2rq1rk1/pp1bppbp/2np1np1/8/3NP3/1BN1BP2/PPPQ2PP/2KR3R b - - 0 1",
];

fn engine_trace(fen: &str, depth: u32) -> Trace {
    let request = ChessRequest {
        source: ChessSource {
            position: Position::from_fen(fen, false).unwrap(),
            history: Vec::new(),
            moves_san: Vec::new(),
            start: fen.to_string(),
        },
        config: LabConfig::Full,
        depth,
        eval: Evaluation::Material,
    };
    chess::trace(&request).0
}

/// The engine's own answer to `go depth D`: (score in centipawns, best move in SAN).
fn uci_answer(engine: &mut Engine, fen: &str, depth: u32) -> (i64, String) {
    engine.send("ucinewgame");
    engine.send(&format!("position fen {fen}"));
    engine.send(&format!("go depth {depth}"));
    let (info, bestmove) = engine.search_lines(Duration::from_secs(60));
    let last = info
        .iter()
        .rev()
        .find(|l| l.contains(" score "))
        .expect("an info line with a score");
    let words: Vec<&str> = last.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "score").unwrap();
    let score = match words[at + 1] {
        "cp" => words[at + 2].parse().unwrap(),
        // Mates are compared through the trace's own text below; none in these positions.
        other => panic!("unexpected score kind {other} in {last}"),
    };
    let position = Position::from_fen(fen, false).unwrap();
    let mv = notation::parse_move(&position, &bestmove).unwrap();
    (score, notation::san(&position, mv))
}

#[test]
fn the_engine_trace_finds_what_go_depth_finds() {
    let mut engine = Engine::start();
    engine.handshake();
    engine.send("setoption name Evaluation value material");
    engine.send("setoption name Threads value 1");
    for fen in FENS {
        for depth in 1..=4 {
            let trace = engine_trace(fen, depth);
            let (score, best) = uci_answer(&mut engine, fen, depth);
            assert_eq!(
                trace.result.value,
                Some(Score::Value(score)),
                "{fen} depth {depth}"
            );
            let first = trace.result.best_line[1];
            let label = &trace.nodes[first].label;
            let san = label.rsplit(' ').next().unwrap();
            assert_eq!(san, best, "{fen} depth {depth}: best line {label}");
            assert_eq!(trace.algorithm.name, "engine");
            assert_eq!(trace.version, 2);
        }
    }
}

#[test]
fn flagged_steps_sit_where_their_technique_acted() {
    let trace = engine_trace(FENS[0], 4);
    let count = |name: &str| {
        trace
            .techniques
            .iter()
            .find(|t| t.name == name)
            .map_or(0, |t| t.count)
    };
    // This search has null-move cut-offs, LMR and PVS re-searches and table cut-offs; the
    // counts are the flagged steps. (Aspiration fails: `aspiration_fails_are_flagged`.)
    for name in [
        "null-move",
        "null-move-cutoff",
        "lmr",
        "lmr-research",
        "pvs-research",
        "null-window",
        "quiescence",
        "tt-cutoff",
        "reverse-futility",
        "futility",
        "late-move-pruning",
        "check-extension",
    ] {
        assert!(count(name) > 0, "no {name} in the trace");
        let flagged = trace
            .steps
            .iter()
            .filter(|s| s.technique == Some(name))
            .count() as u64;
        assert_eq!(flagged, count(name), "{name}");
    }
    for (index, step) in trace.steps.iter().enumerate() {
        let node = &trace.nodes[step.node];
        match step.technique {
            Some("null-move-cutoff") => {
                // A cut-off whose node's last searched child is the null move, which returned
                // (or was scored) just before, and the node returns right after.
                assert_eq!(step.kind, StepKind::Cutoff);
                let searched: Vec<usize> = node
                    .children
                    .iter()
                    .copied()
                    .filter(|&c| trace.nodes[c].stub.is_none())
                    .collect();
                let null = *searched.last().unwrap();
                assert_eq!(trace.nodes[null].label, "null move");
                let previous = &trace.steps[index - 1];
                assert_eq!(previous.node, null, "step {}", index + 1);
                let next = &trace.steps[index + 1];
                assert_eq!((next.kind, next.node), (StepKind::Return, step.node));
                assert!(!step.skipped.as_ref().unwrap().is_empty());
            }
            Some("null-move") => {
                assert_eq!(node.label, "null move");
                assert!(matches!(step.kind, StepKind::Enter | StepKind::Leaf));
                // The null move is the side's pass: the side to move flips.
                let parent = &trace.nodes[node.parent.unwrap()];
                assert_ne!(parent.max, node.max);
            }
            Some(name @ ("lmr-research" | "pvs-research")) => {
                // The same move as the sibling searched just before it.
                let parent = &trace.nodes[node.parent.unwrap()];
                let at = parent
                    .children
                    .iter()
                    .position(|&c| c == step.node)
                    .unwrap();
                let before = &trace.nodes[parent.children[at - 1]];
                assert_eq!(before.label, node.label, "{name} at step {}", index + 1);
                assert!(matches!(step.kind, StepKind::Enter | StepKind::Leaf));
            }
            Some("aspiration-fail-high" | "aspiration-fail-low") => {
                assert!(node.parent.is_none(), "the root is searched again");
                assert_eq!(step.kind, StepKind::Enter);
                let iteration = &trace.iterations[node.iteration];
                assert!(index + 1 > iteration.first_step);
            }
            _ => {}
        }
    }
}

#[test]
fn a_tt_cutoff_is_flagged_where_the_table_answered() {
    // Iterative deepening fills the table; depth 4 answers transposed nodes from it. Each
    // flagged step is a cut-off of a node that searched no move, right before its return.
    let trace = engine_trace(FENS[0], 4);
    let cutoffs: Vec<_> = trace
        .steps
        .iter()
        .filter(|s| s.technique == Some("tt-cutoff"))
        .collect();
    assert!(!cutoffs.is_empty(), "no TT cut-off flagged");
    for step in cutoffs {
        assert_eq!(step.kind, StepKind::Cutoff);
        let node = &trace.nodes[step.node];
        assert!(node.children.iter().all(|&c| trace.nodes[c].stub.is_some()));
        assert!(
            step.text
                .starts_with("Transposition table: this position was searched before")
        );
    }
    // A pruned move is one stub of one move, and the node goes on.
    let futile = trace
        .steps
        .iter()
        .find(|s| s.technique == Some("futility"))
        .unwrap();
    assert_eq!(futile.kind, StepKind::Prune);
    let stub = futile.skipped.as_ref().unwrap()[0];
    assert_eq!(trace.nodes[stub].stub.unwrap().moves, 1);
}

/// Tactical positions whose fourth iteration leaves the third's aspiration window: the
/// trace flags each failed window, and the flagged steps are the counted ones.
#[test]
fn aspiration_fails_are_flagged() {
    let fens = [
        "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
        "rnbqkb1r/pppp1ppp/8/4P3/6n1/7P/PPPNPPP1/R1BQKBNR b KQkq - 1 1",
        "r4q1k/p2bR1rp/2p2Q1N/5p2/5p2/2P5/PP3PPP/R5K1 w - - 1 1",
        "3q1rk1/p4pp1/2pb3p/3p4/6Pr/1PNQ4/P1PB1PP1/4RRK1 b - - 1 1",
    ];
    let mut fails = 0;
    for fen in fens {
        let trace = engine_trace(fen, 4);
        for name in ["aspiration-fail-high", "aspiration-fail-low"] {
            let count = trace
                .techniques
                .iter()
                .find(|t| t.name == name)
                .map_or(0, |t| t.count);
            let flagged = trace
                .steps
                .iter()
                .filter(|s| s.technique == Some(name))
                .count() as u64;
            assert_eq!(flagged, count, "{fen} {name}");
            fails += count;
        }
    }
    assert!(
        fails > 0,
        "no aspiration window failed in {} positions",
        fens.len()
    );
}
