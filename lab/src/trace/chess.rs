//! Traces of real chess positions, searched by the engine's own search: the search lab's
//! full-width configurations (`minimax`, `alphabeta`, `mvv-lva`, `id-tt`) and the engine as
//! it plays (`engine`: PVS, aspiration windows, the table, null move, reductions, ...), run
//! through `Search::run_observed` with the observer of `observe/`, which turns what the
//! search reports into the trace's nodes and steps. Nothing here searches on its own: the
//! sizes of skipped subtrees and of the full-width tree come from the engine's `minimax`
//! configuration too.
//!
//! The engine computes in negamax form (values from the side to move); the observer converts
//! every value and window to MAX's view (the side to move at the root), so that chess traces
//! read like the textbook's. Every search here runs under a `Budget`: the lab stops a request
//! at its time limit, the command line never does.

use std::sync::Arc;

use shakmaty::Move;

use super::budget::Budget;
use super::model::{CutoffTest, Pseudocode, TechniqueCount, Totals, Trace, ValueFormat};
use super::observe::ChessObserver;
use super::recorder::Recorder;
use super::techniques;
use brudno_engine::eval::Evaluation;
use brudno_engine::position::Position;
use brudno_engine::search::observer::{Observer, SilentLab};
use brudno_engine::search::score;
use brudno_engine::search::tt::TranspositionTable;
use brudno_engine::search::{Limits, Search, SearchConfig, SearchControl, SearchResult};
use brudno_tools::ebf::lab::{self, LabConfig};

/// The deepest chess trace (the trees grow by a factor of about 30 a ply).
pub const MAX_DEPTH: u32 = 4;
/// The full-width configurations of the lab a chess trace may use: they return the
/// minimax value, and `--compare` lists them beside the engine.
pub const CONFIGS: [LabConfig; 4] = [
    LabConfig::Minimax,
    LabConfig::Alphabeta,
    LabConfig::MvvLva,
    LabConfig::IdTt,
];
/// Every algorithm of a chess trace: the full-width configurations, then the engine as it
/// plays (`LabConfig::Full`, named `engine` here).
pub const ALGORITHMS: [LabConfig; 5] = [
    LabConfig::Minimax,
    LabConfig::Alphabeta,
    LabConfig::MvvLva,
    LabConfig::IdTt,
    LabConfig::Full,
];

/// The name of a chess algorithm: the lab's, with `engine` for the engine as it plays.
pub fn algorithm_name(config: LabConfig) -> &'static str {
    if config == LabConfig::Full {
        "engine"
    } else {
        config.name()
    }
}

/// One line about a chess algorithm.
pub fn algorithm_description(config: LabConfig) -> &'static str {
    if config == LabConfig::Full {
        "the engine as it plays: PVS with null windows and re-searches, aspiration windows, the transposition table, null move, reverse futility and futility, late move reductions and pruning, singular extensions, ProbCut, quiescence"
    } else {
        config.description()
    }
}

/// The chess algorithm called `name`, or a message listing the known ones.
pub fn parse_algorithm(name: &str) -> Result<LabConfig, String> {
    ALGORITHMS
        .into_iter()
        .find(|&c| algorithm_name(c) == name)
        .ok_or_else(|| {
            let names: Vec<&str> = ALGORITHMS.iter().map(|&c| algorithm_name(c)).collect();
            format!(
                "unknown algorithm '{name}' for a chess trace (known: {})",
                names.join(", ")
            )
        })
}

/// The engine as it plays, lit step by step.
const ENGINE: Pseudocode = Pseudocode {
    lines: techniques::ENGINE_PSEUDOCODE,
    enter: 4,
    leaf: 7,
    no_moves: 24,
    draw: 5,
    return_max: 25,
    return_min: 25,
    alpha: 22,
    beta: 22,
    cutoff_max: 23,
    cutoff_min: 23,
};

/// The engine's negamax, as the trace lights it.
const NEGAMAX: Pseudocode = Pseudocode {
    lines: &[
        "function negamax(pos, depth, α, β)  ▹ side to move's view",
        "  if pos is drawn by rule: return 0  ▹ 50 moves, repetition",
        "  if depth = 0: return evaluate(pos)  ▹ the horizon",
        "  moves ← legal moves of pos, ordered  ▹ hash move, MVV-LVA",
        "  if no moves: return in check ? −MATE + ply : 0",
        "  best ← −∞",
        "  for each move in moves:",
        "    score ← −negamax(pos + move, depth − 1, −β, −α)",
        "    if score > best: best ← score",
        "    if score > α: α ← score  ▹ at MIN: β falls (MAX's view)",
        "    if score ≥ β: break  ▹ cut-off: skip the rest",
        "  return best",
    ],
    enter: 1,
    leaf: 3,
    no_moves: 5,
    draw: 2,
    return_max: 12,
    return_min: 12,
    alpha: 10,
    beta: 10,
    cutoff_max: 11,
    cutoff_min: 11,
};

/// The engine's search with alpha-beta switched off (`minimax`).
const NEGAMAX_MINIMAX: Pseudocode = Pseudocode {
    lines: &[
        "function negamax(pos, depth)  ▹ side to move's view",
        "  if pos is drawn by rule: return 0  ▹ 50 moves, repetition",
        "  if depth = 0: return evaluate(pos)  ▹ the horizon",
        "  moves ← legal moves of pos",
        "  if no moves: return in check ? −MATE + ply : 0",
        "  best ← −∞",
        "  for each move in moves:",
        "    best ← max(best, −negamax(pos + move, depth − 1))",
        "  return best",
    ],
    enter: 1,
    leaf: 3,
    no_moves: 5,
    draw: 2,
    return_max: 9,
    return_min: 9,
    alpha: 8,
    beta: 8,
    cutoff_max: 8,
    cutoff_min: 8,
};

/// The position to trace: the root after any moves, with the keys of the game before it.
#[derive(Clone, Debug)]
pub struct ChessSource {
    /// The root.
    pub position: Position,
    /// Keys of the positions before the root, oldest first (repetitions).
    pub history: Vec<u64>,
    /// The moves played to reach the root, in SAN (empty for none).
    pub moves_san: Vec<String>,
    /// The FEN the moves start from (`startpos` for the start position).
    pub start: String,
}

/// The pseudocode of a chess trace with `config`.
pub fn pseudocode(config: LabConfig) -> Pseudocode {
    match config {
        LabConfig::Minimax => NEGAMAX_MINIMAX,
        LabConfig::Full => ENGINE,
        _ => NEGAMAX,
    }
}

/// The search configuration of a chess trace: the lab's, with the evaluation asked for; the
/// engine's (`LabConfig::Full`) with quiescence, as it plays, on one thread.
pub fn search_config(config: LabConfig, eval: Evaluation) -> SearchConfig {
    SearchConfig {
        eval,
        ..config.search_config(config == LabConfig::Full)
    }
}

/// Runs one search of `source` with `config` at `depth`, watched by `observer`, on a fresh
/// table; under a limited `budget` the search stops when the budget's control is stopped.
fn run_search<O: Observer>(
    source: &ChessSource,
    config: &SearchConfig,
    limits: &Limits,
    observer: O,
    budget: &Budget,
) -> (SearchResult, O) {
    let tt = TranspositionTable::new(if config.hash_move { lab::HASH_MIB } else { 1 });
    let control = budget.control().unwrap_or_else(|| {
        let control = Arc::new(SearchControl::default());
        control.begin(false);
        control
    });
    Search {
        position: &source.position,
        history: &source.history,
        limits,
        config,
        tt: &tt,
        control: &control,
        histories: None,
    }
    .run_observed(observer, &mut |_| {})
}

/// The engine's search of `request`, nobody watching: what the trace's values and counts
/// are checked against, and what `--compare` lists.
pub fn search(request: &ChessRequest) -> SearchResult {
    search_within(request, &Budget::unlimited())
}

/// `search` under `budget` (its result is cut short when the budget is spent: check it).
pub fn search_within(request: &ChessRequest, budget: &Budget) -> SearchResult {
    let config = search_config(request.config, request.eval);
    let limits = Limits::depth(request.depth);
    run_search(&request.source, &config, &limits, SilentLab, budget).0
}

/// One search of `source` with the switches `config` to `depth` on a fresh table, nobody
/// watching, under `budget`: the search lab's measurement, for the lab's `/api/ebf`.
pub fn run_config(
    source: &ChessSource,
    config: &SearchConfig,
    depth: u32,
    budget: &Budget,
) -> SearchResult {
    run_search(source, config, &Limits::depth(depth), SilentLab, budget).0
}

/// Nodes and leaves of the full-width tree of `depth` under the moves `only` of `position`
/// (all of them when empty), without the root itself when `only` is given: the engine's
/// `minimax` configuration, counted.
pub fn full_tree(position: &Position, history: &[u64], depth: u32, only: &[Move]) -> Totals {
    full_tree_within(position, history, depth, only, &Budget::unlimited())
}

/// `full_tree` under `budget`.
pub fn full_tree_within(
    position: &Position,
    history: &[u64],
    depth: u32,
    only: &[Move],
    budget: &Budget,
) -> Totals {
    let source = ChessSource {
        position: position.clone(),
        history: history.to_vec(),
        moves_san: Vec::new(),
        start: String::new(),
    };
    let limits = Limits {
        depth: Some(depth),
        searchmoves: only.to_vec(),
        ..Limits::default()
    };
    let config = search_config(LabConfig::Minimax, Evaluation::Material);
    let (result, _) = run_search(&source, &config, &limits, SilentLab, budget);
    let root = u64::from(!only.is_empty() && result.stats.nodes > 0);
    Totals {
        nodes: result.stats.nodes - root,
        leaves: result.stats.leaves,
    }
}

/// What a chess trace was asked for.
#[derive(Clone, Debug)]
pub struct ChessRequest {
    /// The position.
    pub source: ChessSource,
    /// The lab configuration.
    pub config: LabConfig,
    /// The depth (1..=MAX_DEPTH).
    pub depth: u32,
    /// The evaluation.
    pub eval: Evaluation,
}

/// Traces the engine's search of `request`: nodes, steps, iterations (with the full-width
/// totals) and the search's own result, for checking.
pub fn trace(request: &ChessRequest) -> (Trace, SearchResult) {
    trace_within(request, &Budget::unlimited()).unwrap_or_else(|_| {
        // An unlimited budget is never spent: this is not reached; stay total all the same.
        let code = pseudocode(request.config);
        let empty =
            super::recorder::assemble(Vec::new(), Vec::new(), Vec::new(), code, value_format());
        (empty, search(request))
    })
}

/// How chess values are written: centipawns, with the engine's mate scores.
pub fn value_format() -> ValueFormat {
    ValueFormat::Centipawns {
        mate: i64::from(score::MATE),
        mate_bound: i64::from(score::MATE_BOUND),
    }
}

/// `trace` under `budget`: an error when the budget ran out before the trace was complete.
pub fn trace_within(
    request: &ChessRequest,
    budget: &Budget,
) -> Result<(Trace, SearchResult), String> {
    let source = &request.source;
    let config = search_config(request.config, request.eval);
    let code = pseudocode(request.config);
    let format = value_format();
    let observer = ChessObserver::new(
        Recorder::new(code, format, CutoffTest::Inclusive),
        &source.position,
        &source.history,
        config.pruning,
        request.config == LabConfig::Full,
        config.quiescence,
        request.eval.name(),
        request.depth,
    );
    let limits = Limits {
        nodes: budget.max_nodes(),
        ..Limits::depth(request.depth)
    };
    let (result, mut observer) = run_search(source, &config, &limits, observer, budget);
    budget.check()?;
    if let Some(cap) = budget.max_nodes()
        && result.stats.nodes >= cap
    {
        return Err(format!(
            "this search visits more than {cap} nodes, more than a page can play: choose a smaller --depth or a better-ordered algorithm"
        ));
    }

    // The sizes the search did not see: each stub's skipped subtrees and each iteration's
    // full-width tree.
    for pending in &observer.stubs {
        let depth = pending.depth.max(1) as u32;
        let totals = full_tree_within(
            &pending.parent,
            &pending.history,
            depth,
            &pending.moves,
            budget,
        );
        budget.check()?;
        let node = &mut observer.rec.nodes[pending.stub];
        if let Some(stub) = node.stub.as_mut() {
            stub.nodes = totals.nodes;
        }
    }
    for index in 0..observer.rec.iteration_count() {
        let depth = if config.iterative_deepening {
            index as u32 + 1
        } else {
            request.depth
        };
        let totals = full_tree_within(&source.position, &source.history, depth, &[], budget);
        budget.check()?;
        observer.rec.set_totals(index, totals);
    }
    let (nodes, steps, iterations) = observer.rec.finish();
    let mut trace = super::recorder::assemble(nodes, steps, iterations, code, format);
    trace.algorithm = super::model::AlgorithmInfo {
        name: algorithm_name(request.config).to_string(),
        description: algorithm_description(request.config).to_string(),
    };
    if request.config == LabConfig::Full {
        trace.techniques = techniques::ALL
            .iter()
            .map(|info| TechniqueCount {
                name: info.name,
                label: info.label,
                description: info.description,
                count: trace
                    .steps
                    .iter()
                    .filter(|s| s.technique == Some(info.name))
                    .count() as u64,
            })
            .collect();
    }
    Ok((trace, result))
}
