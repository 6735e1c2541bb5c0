//! `brudno trace`: one search shown step by step, for toy trees and real positions.
//!
//! The sources of trees: the textbook tree (`--tree standing`, the default), any nested list
//! (`--tree '[[3,12,8],[2,4,6],[14,5,2]]'`), a seeded random uniform tree (`--random`), or
//! a chess position (`--fen`, `--startpos`, with `--moves`) searched by the engine's own
//! alpha-beta through its observer hook (`chess.rs`). Toy trees go through the textbook
//! algorithms of `textbook.rs`. Both record into the same `model::Recorder`, so every output
//! (the narration of `text.rs`, the JSON, the page of `html.rs`) reads one `model::Trace`.
//!
//! Bad input (unreadable tree text, a depth out of range, an illegal FEN or move, a path
//! that cannot be written) is a message on stderr and exit status 2, never a panic.

pub mod budget;
pub mod chess;
pub mod html;
pub mod model;
pub mod observe;
pub mod recorder;
pub mod techniques;
pub mod text;
pub mod textbook;
pub mod tree;

use std::fs;
use std::path::PathBuf;

use serde_json::json;

use brudno_engine::eval::Evaluation;
use brudno_engine::position::Position;
use brudno_tools::ebf::lab::LabConfig;
use brudno_tools::ebf::summary::minimal_leaves;
use brudno_tools::epd::notation;
pub use budget::{Budget, TIME_LIMIT_MESSAGE};
use chess::{ChessRequest, ChessSource};
use model::{AlgorithmInfo, CompareRow, OrderingRow, Score, Trace, ValueFormat};
pub use recorder::assemble;
use textbook::Algorithm;
use tree::Tree;

/// Exit status for bad input or an output that cannot be written.
pub const EXIT_BAD_INPUT: u8 = 2;
/// The most root children `--orderings` permutes (7! = 5040 orders).
pub const MAX_ORDERING_CHILDREN: usize = 7;

/// The command line of `brudno trace`.
#[derive(clap::Args, Clone, Debug)]
pub struct TraceArgs {
    /// A toy tree: `standing` (the textbook tree, the default) or a nested list of integers
    /// such as `[[3,12,8],[2,4,6],[14,5,2]]` (MAX at the root).
    #[arg(long, value_name = "TREE")]
    pub tree: Option<String>,
    /// A random uniform tree of --branching B and --depth D, leaves 0..99 from --seed S.
    #[arg(long)]
    pub random: bool,
    /// Children of every interior node of a random tree.
    #[arg(long, value_name = "B")]
    pub branching: Option<u64>,
    /// Depth of a random tree, or of a chess search (1 to 4).
    #[arg(long, value_name = "D")]
    pub depth: Option<u32>,
    /// Seed of a random tree (default 1).
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// A chess position, searched by the engine's own alpha-beta.
    #[arg(long, value_name = "FEN")]
    pub fen: Option<String>,
    /// The start position.
    #[arg(long)]
    pub startpos: bool,
    /// Moves played from the position first (UCI or SAN, space separated).
    #[arg(long, value_name = "MOVES", num_args = 1.., value_delimiter = ' ')]
    pub moves: Vec<String>,
    /// Toy trees: minimax, negamax, alphabeta (default), alphabeta-strict,
    /// alphabeta-ordered. Chess: minimax, alphabeta (default), mvv-lva, id-tt, engine.
    #[arg(long, value_name = "NAME")]
    pub algorithm: Option<String>,
    /// The evaluation of a chess trace.
    #[arg(long, value_parser = brudno_tools::cli::evaluation(), default_value_t = Evaluation::Material)]
    pub eval: Evaluation,
    /// Toy trees: the root's children in every order, with the value and leaves examined.
    #[arg(long)]
    pub orderings: bool,
    /// Leaves scored by every algorithm on the same tree, beside the Knuth-Moore best case.
    #[arg(long)]
    pub compare: bool,
    /// Write the trace as JSON (format in docs/trace.md).
    #[arg(long, value_name = "PATH")]
    pub json: Option<PathBuf>,
    /// Write a self-contained HTML page that plays the trace back.
    #[arg(long, value_name = "PATH")]
    pub html: Option<PathBuf>,
    /// Print the summary and tables only, not the step-by-step narration.
    #[arg(long)]
    pub quiet: bool,
}

/// What to trace, read from the command line.
#[derive(Clone, Debug)]
pub enum Request {
    /// A toy tree and a textbook algorithm.
    Toy {
        /// The tree.
        tree: Tree,
        /// The algorithm.
        algorithm: Algorithm,
        /// The source, for the JSON and the header.
        source: serde_json::Value,
        /// A name for the tree.
        name: String,
    },
    /// A chess position and a configuration of the engine's search.
    Chess(ChessRequest),
}

/// Reads the command line into a request, or says what is wrong with it.
pub fn request(args: &TraceArgs) -> Result<Request, String> {
    let chess = args.fen.is_some() || args.startpos;
    let sources = [
        args.tree.is_some(),
        args.random,
        args.fen.is_some(),
        args.startpos,
    ];
    if sources.iter().filter(|&&s| s).count() > 1 {
        return Err("give one of --tree, --random, --fen and --startpos".to_string());
    }
    if !chess && !args.moves.is_empty() {
        return Err("--moves needs --fen or --startpos".to_string());
    }
    if chess {
        return chess_request(args).map(Request::Chess);
    }
    if args.eval != Evaluation::Material {
        return Err("--eval applies to chess positions (--fen, --startpos)".to_string());
    }
    let algorithm = match args.algorithm.as_deref() {
        None => Algorithm::AlphaBeta,
        Some(name) => Algorithm::ALL
            .into_iter()
            .find(|a| a.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = Algorithm::ALL.iter().map(|a| a.name()).collect();
                format!(
                    "unknown algorithm '{name}' for a toy tree (known: {})",
                    names.join(", ")
                )
            })?,
    };
    if args.random {
        let (Some(branching), Some(depth)) = (args.branching, args.depth) else {
            return Err("--random needs --branching B and --depth D".to_string());
        };
        let seed = args.seed.unwrap_or(1);
        let tree = tree::random(branching, depth, seed)?;
        return Ok(Request::Toy {
            tree,
            algorithm,
            source: json!({ "kind": "random", "branching": branching, "depth": depth, "seed": seed }),
            name: format!("a random tree (seed {seed})"),
        });
    }
    if args.branching.is_some() || args.seed.is_some() || args.depth.is_some() {
        return Err(
            "--branching, --depth and --seed describe a --random tree or (--depth) a chess search"
                .to_string(),
        );
    }
    let text = match args.tree.as_deref() {
        None | Some("standing") => tree::STANDING,
        Some(text) => text,
    };
    let tree = tree::parse(text).map_err(|e| format!("cannot read the tree {e}"))?;
    let name = if text == tree::STANDING {
        "the standing tree".to_string()
    } else {
        "the tree".to_string()
    };
    Ok(Request::Toy {
        source: json!({ "kind": "tree", "text": tree.to_text(Tree::ROOT) }),
        tree,
        algorithm,
        name,
    })
}

fn chess_request(args: &TraceArgs) -> Result<ChessRequest, String> {
    if args.orderings {
        return Err(
            "--orderings permutes the root of a toy tree, not a chess position".to_string(),
        );
    }
    if args.branching.is_some() || args.seed.is_some() {
        return Err("--branching and --seed describe a --random tree".to_string());
    }
    let depth = args.depth.unwrap_or(3);
    if !(1..=chess::MAX_DEPTH).contains(&depth) {
        return Err(format!(
            "--depth {depth} is out of range for a chess trace (1 to {})",
            chess::MAX_DEPTH
        ));
    }
    let config = match args.algorithm.as_deref() {
        None => LabConfig::Alphabeta,
        Some(name) => chess::parse_algorithm(name)?,
    };
    let (mut position, start) = match &args.fen {
        Some(fen) => (
            Position::from_fen(fen, false).map_err(|e| e.to_string())?,
            fen.clone(),
        ),
        None => (Position::default(), "startpos".to_string()),
    };
    let mut history = Vec::new();
    let mut moves_san = Vec::new();
    for (number, text) in args.moves.iter().filter(|m| !m.is_empty()).enumerate() {
        let mv = notation::parse_move(&position, text)
            .map_err(|e| format!("move {} of --moves, '{text}': {e}", number + 1))?;
        moves_san.push(notation::san(&position, mv));
        history.push(position.key());
        position.play_in_place(mv);
    }
    if position.legal_moves().is_empty() {
        return Err("the position has no legal move: there is nothing to search".to_string());
    }
    Ok(ChessRequest {
        source: ChessSource {
            position,
            history,
            moves_san,
            start,
        },
        config,
        depth,
        eval: args.eval,
    })
}

/// Traces a toy tree with `algorithm`.
pub fn trace_tree(tree: &Tree, algorithm: Algorithm) -> Trace {
    let mut rec = textbook::recorder_for(tree, algorithm);
    textbook::search(tree, algorithm, &mut rec);
    let (nodes, steps, iterations) = rec.finish();
    let mut trace = assemble(
        nodes,
        steps,
        iterations,
        algorithm.pseudocode(),
        ValueFormat::Plain,
    );
    trace.algorithm = AlgorithmInfo {
        name: algorithm.name().to_string(),
        description: algorithm.description().to_string(),
    };
    trace
}

/// The Knuth-Moore best case of a uniform tree.
fn best_case_row(b: f64, depth: u32) -> CompareRow {
    CompareRow {
        algorithm: "best case b^⌈d/2⌉ + b^⌊d/2⌋ − 1".to_string(),
        value: None,
        leaves: minimal_leaves(b, depth).round() as u64,
    }
}

/// Every toy algorithm on `tree`, then the best case when the tree is uniform.
pub fn compare_tree(tree: &Tree) -> Vec<CompareRow> {
    let mut rows: Vec<CompareRow> = Algorithm::ALL
        .into_iter()
        .map(|algorithm| {
            let (value, leaves) = textbook::count(tree, algorithm);
            CompareRow {
                algorithm: algorithm.name().to_string(),
                value: Some(Score::Value(value)),
                leaves,
            }
        })
        .collect();
    if let Some((b, d)) = tree.uniform() {
        rows.push(best_case_row(b as f64, d));
    }
    rows
}

/// The root's children of `tree` in every order (lexicographic in their original
/// positions), each searched by `algorithm`. Errors when there are too many to list.
pub fn orderings(tree: &Tree, algorithm: Algorithm) -> Result<Vec<OrderingRow>, String> {
    orderings_within(tree, algorithm, &Budget::unlimited())
}

/// `orderings` under `budget`, checked between orders.
pub fn orderings_within(
    tree: &Tree,
    algorithm: Algorithm,
    budget: &Budget,
) -> Result<Vec<OrderingRow>, String> {
    let count = tree.nodes[Tree::ROOT].children.len();
    if count > MAX_ORDERING_CHILDREN {
        return Err(format!(
            "--orderings lists every order of the root's children; {count} children have too many orders (at most {MAX_ORDERING_CHILDREN} children)"
        ));
    }
    let of = tree.leaves().len() as u64;
    let mut order: Vec<usize> = (0..count).collect();
    let mut rows = Vec::new();
    loop {
        budget.check()?;
        let reordered = tree.with_root_order(&order);
        let (value, leaves) = textbook::count(&reordered, algorithm);
        rows.push(OrderingRow {
            order: order
                .iter()
                .map(|&i| tree.nodes[tree.nodes[Tree::ROOT].children[i]].label.clone())
                .collect(),
            value: Some(Score::Value(value)),
            leaves,
            of,
        });
        if !next_permutation(&mut order) {
            break;
        }
    }
    Ok(rows)
}

/// Steps `items` to the next permutation in lexicographic order; false after the last.
fn next_permutation(items: &mut [usize]) -> bool {
    let Some(pivot) = (1..items.len()).rev().find(|&i| items[i - 1] < items[i]) else {
        return false;
    };
    let successor = (pivot..items.len())
        .rev()
        .find(|&i| items[i] > items[pivot - 1])
        .unwrap_or(pivot);
    items.swap(pivot - 1, successor);
    items[pivot..].reverse();
    true
}

/// Every chess algorithm at the request's depth on its position (the engine's leaves are
/// its horizon nodes, each resolved by quiescence), then the best case with the position's
/// own `b` (mean legal moves at minimax's interior nodes).
pub fn compare_chess(request: &ChessRequest) -> Vec<CompareRow> {
    compare_chess_within(request, &Budget::unlimited()).unwrap_or_default()
}

/// `compare_chess` under `budget`.
pub fn compare_chess_within(
    request: &ChessRequest,
    budget: &Budget,
) -> Result<Vec<CompareRow>, String> {
    let mut rows = Vec::new();
    let mut branching = 0.0;
    for config in chess::ALGORITHMS {
        let result = chess::search_within(
            &ChessRequest {
                config,
                ..request.clone()
            },
            budget,
        );
        budget.check()?;
        if config == LabConfig::Minimax {
            branching = result.stats.mean_branching();
        }
        rows.push(CompareRow {
            algorithm: chess::algorithm_name(config).to_string(),
            value: Some(Score::Value(i64::from(result.score))),
            leaves: result.stats.leaves,
        });
    }
    rows.push(best_case_row(branching, request.depth));
    Ok(rows)
}

/// Builds the whole trace the command line asks for.
pub fn build(args: &TraceArgs, request: &Request) -> Result<Trace, String> {
    build_within(args, request, &Budget::unlimited())
}

/// `build` under `budget`: the lab's way, which gives up at its time limit.
pub fn build_within(args: &TraceArgs, request: &Request, budget: &Budget) -> Result<Trace, String> {
    match request {
        Request::Toy {
            tree,
            algorithm,
            source,
            name,
        } => {
            let mut trace = trace_tree(tree, *algorithm);
            trace.source = source.clone();
            trace.title = format!("{} on {name}", algorithm.name());
            let shape = match tree.uniform() {
                Some((b, d)) => format!("b = {b} · depth {d}"),
                None => format!("depth {}", tree.depth()),
            };
            let seed = source
                .get("seed")
                .map(|s| format!(" · seed {s}"))
                .unwrap_or_default();
            trace.header = format!(
                "{shape} · {} leaves{seed} · {} steps",
                tree.leaves().len(),
                trace.steps.len()
            );
            if args.compare {
                trace.compare = Some(compare_tree(tree));
            }
            if args.orderings {
                trace.orderings = Some(orderings_within(tree, *algorithm, budget)?);
            }
            Ok(trace)
        }
        Request::Chess(chess_request) => {
            let (mut trace, _) = chess::trace_within(chess_request, budget)?;
            let source = &chess_request.source;
            let eval = chess_request.eval.name();
            trace.source = json!({
                "kind": "chess",
                "start": source.start,
                "moves": source.moves_san,
                "fen": source.position.fen(),
                "depth": chess_request.depth,
                "evaluation": eval,
            });
            let from = if source.moves_san.is_empty() {
                source.start.clone()
            } else {
                format!("{} + {}", source.start, source.moves_san.join(" "))
            };
            trace.title = format!("{} on {from}", chess::algorithm_name(chess_request.config));
            trace.header = format!(
                "{} to move · depth {} · {eval} evaluation · {} nodes visited · {} steps",
                if source.position.turn() == shakmaty::Color::White {
                    "White"
                } else {
                    "Black"
                },
                chess_request.depth,
                trace.result.visited,
                trace.steps.len()
            );
            if args.compare {
                trace.compare = Some(compare_chess_within(chess_request, budget)?);
            }
            Ok(trace)
        }
    }
}

/// Runs `brudno trace`: the narration and tables through `out`, errors on stderr. Returns
/// the exit status.
pub fn run(args: &TraceArgs, out: &mut dyn FnMut(&str)) -> u8 {
    let trace = match request(args).and_then(|request| build(args, &request)) {
        Ok(trace) => trace,
        Err(message) => {
            eprintln!("trace: {message}");
            return EXIT_BAD_INPUT;
        }
    };
    if !args.quiet {
        for line in text::narration(&trace) {
            out(&line);
        }
        out("");
    }
    for line in text::summary(&trace) {
        out(&line);
    }
    if let Some(rows) = &trace.orderings {
        out("");
        for line in text::orderings_table(&trace, rows) {
            out(&line);
        }
    }
    if let Some(rows) = &trace.compare {
        out("");
        for line in text::compare_table(&trace, rows) {
            out(&line);
        }
    }
    let mut status = 0;
    let json = || serde_json::to_string(&trace).unwrap_or_default();
    let page = || html::page(&trace);
    let outputs: [(Option<&PathBuf>, &dyn Fn() -> String); 2] =
        [(args.json.as_ref(), &json), (args.html.as_ref(), &page)];
    for (path, content) in outputs {
        let Some(path) = path else { continue };
        if let Err(e) = fs::write(path, content()) {
            eprintln!("trace: cannot write {}: {e}", path.display());
            status = EXIT_BAD_INPUT;
        }
    }
    status
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permutations_in_lexicographic_order() {
        let mut items = vec![0, 1, 2];
        let mut seen = vec![items.clone()];
        while next_permutation(&mut items) {
            seen.push(items.clone());
        }
        assert_eq!(
            seen,
            [
                [0, 1, 2],
                [0, 2, 1],
                [1, 0, 2],
                [1, 2, 0],
                [2, 0, 1],
                [2, 1, 0]
            ]
        );
    }
}
