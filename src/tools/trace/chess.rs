//! Traces of real chess positions, searched by the engine's own alpha-beta: the search lab's
//! configurations (`minimax`, `alphabeta`, `mvv-lva`, `id-tt`) run through
//! `Search::run_observed` with an observer that turns what the search reports into the
//! trace's nodes and steps. Nothing here searches on its own: the sizes of skipped subtrees
//! and of the full-width tree come from the engine's `minimax` configuration too.
//!
//! The engine computes in negamax form (values from the side to move); the observer converts
//! every value and window to MAX's view (the side to move at the root), so that chess traces
//! read like the textbook's.

use shakmaty::{Color, Move, Position as _};

use super::model::{CutoffTest, Node, Pseudocode, Score, Stub, Totals, Trace, ValueFormat};
use super::recorder::Recorder;
use crate::eval::{Evaluation, Value};
use crate::position::Position;
use crate::search::observer::{LeafKind, Observer, Silent};
use crate::search::score::{self, INFINITY};
use crate::search::tt::TranspositionTable;
use crate::search::{Limits, Search, SearchConfig, SearchControl, SearchResult};
use crate::tools::ebf::lab::{self, LabConfig};
use crate::tools::epd::notation::san;

/// The deepest chess trace (the trees grow by a factor of about 30 a ply).
pub const MAX_DEPTH: u32 = 4;
/// The configurations a chess trace may use: the full-width ones of the lab (the engine as
/// it plays re-searches and reduces, which a tree of steps cannot show plainly).
pub const CONFIGS: [LabConfig; 4] = [
    LabConfig::Minimax,
    LabConfig::Alphabeta,
    LabConfig::MvvLva,
    LabConfig::IdTt,
];

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
    if config == LabConfig::Minimax {
        NEGAMAX_MINIMAX
    } else {
        NEGAMAX
    }
}

/// The search configuration of a chess trace: the lab's, with the evaluation asked for.
pub fn search_config(config: LabConfig, eval: Evaluation) -> SearchConfig {
    SearchConfig {
        eval,
        ..config.search_config(false)
    }
}

/// Runs one search of `source` with `config` at `depth`, watched by `observer`.
fn run_search<O: Observer>(
    source: &ChessSource,
    config: &SearchConfig,
    limits: &Limits,
    observer: O,
) -> (SearchResult, O) {
    let tt = TranspositionTable::new(if config.hash_move { lab::HASH_MIB } else { 1 });
    let control = SearchControl::default();
    control.begin(false);
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
    let config = search_config(request.config, request.eval);
    let limits = Limits::depth(request.depth);
    run_search(&request.source, &config, &limits, Silent).0
}

/// Nodes and leaves of the full-width tree of `depth` under the moves `only` of `position`
/// (all of them when empty), without the root itself when `only` is given: the engine's
/// `minimax` configuration, counted.
pub fn full_tree(position: &Position, history: &[u64], depth: u32, only: &[Move]) -> Totals {
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
    let (result, _) = run_search(&source, &config, &limits, Silent);
    let root = u64::from(!only.is_empty() && result.stats.nodes > 0);
    Totals {
        nodes: result.stats.nodes - root,
        leaves: result.stats.leaves,
    }
}

/// Moves a cut-off skipped, to be sized once the search is over.
struct PendingStub {
    stub: usize,
    parent: Position,
    history: Vec<u64>,
    moves: Vec<Move>,
    depth: i32,
}

/// A node on the current search path.
struct Frame {
    node: usize,
    pos: Position,
    /// Plies left at the node.
    depth: i32,
    /// The best score of its moves so far (from its side to move).
    best: Value,
}

/// The observer that records the engine's search.
struct ChessObserver {
    rec: Recorder,
    root_history: Vec<u64>,
    root_turn: Color,
    root_fullmoves: u32,
    windows: bool,
    eval_name: &'static str,
    path: Vec<Frame>,
    /// The move that leads to each node (none for roots and stubs).
    moves: Vec<Option<Move>>,
    iteration_depth: u32,
    needs_root: bool,
    /// The root of the iteration being recorded.
    root: usize,
    stubs: Vec<PendingStub>,
}

impl ChessObserver {
    /// A value of the node at `ply` (from its side to move) in MAX's view.
    fn view(&self, ply: usize, value: Value) -> Score {
        let score = if value >= INFINITY {
            Score::PosInf
        } else if value <= -INFINITY {
            Score::NegInf
        } else {
            Score::Value(i64::from(value))
        };
        if ply.is_multiple_of(2) {
            score
        } else {
            score.negate()
        }
    }

    /// The move `mv` from `parent` at `ply` plies below the root, numbered: `1. e4`, `1... e5`.
    fn numbered(&self, parent: &Position, ply: usize, mv: Move) -> String {
        let text = san(parent, mv);
        // Full move number of the parent position.
        let black_root = usize::from(self.root_turn == Color::Black);
        let number = self.root_fullmoves as usize + (ply + black_root) / 2;
        if parent.turn() == Color::White {
            format!("{number}. {text}")
        } else {
            format!("{number}... {text}")
        }
    }
}

impl Observer for ChessObserver {
    fn iteration(&mut self, depth: u32) {
        self.iteration_depth = depth;
        self.needs_root = true;
    }

    fn enter(&mut self, pos: &Position, ply: usize, depth: i32, alpha: Value, beta: Value) {
        let node = if ply == 0 {
            if self.needs_root {
                self.needs_root = false;
                let id = self.rec.nodes.len();
                let mut node = Node::new(id, None, "root".to_string(), 0, true);
                node.path = Some(String::new());
                self.rec
                    .begin_iteration(self.iteration_depth, id, Totals::default());
                self.rec.add_node(node);
                self.moves.push(None);
                self.root = id;
            }
            self.path.clear();
            self.root
        } else {
            self.path.truncate(ply);
            let parent = &self.path[ply - 1];
            let mv = parent
                .pos
                .legal_moves()
                .into_iter()
                .find(|&m| parent.pos.play(m).key() == pos.key());
            let (label, plain) = match mv {
                Some(mv) => (
                    self.numbered(&parent.pos, ply - 1, mv),
                    san(&parent.pos, mv),
                ),
                None => ("?".to_string(), "?".to_string()),
            };
            let parent_node = parent.node;
            let parent_path = self.rec.nodes[parent_node].path.clone().unwrap_or_default();
            // A line numbers its first move and White's moves: "1. e4 e5 2. Nf3".
            let path = if parent_path.is_empty() {
                label.clone()
            } else if parent.pos.turn() == Color::White {
                format!("{parent_path} {label}")
            } else {
                format!("{parent_path} {plain}")
            };
            let id = self.rec.nodes.len();
            let mut node = Node::new(
                id,
                Some(parent_node),
                label,
                ply as u32,
                ply.is_multiple_of(2),
            );
            node.path = Some(path);
            self.rec.add_node(node);
            self.moves.push(mv);
            id
        };
        self.path.push(Frame {
            node,
            pos: pos.clone(),
            depth,
            best: -INFINITY,
        });
        if self.windows {
            let (low, high) = if ply.is_multiple_of(2) {
                (self.view(ply, alpha), self.view(ply, beta))
            } else {
                (self.view(ply, beta), self.view(ply, alpha))
            };
            self.rec.enter(node, Some(low), Some(high));
        } else {
            self.rec.enter(node, None, None);
        }
    }

    fn leaf(&mut self, ply: usize, value: Value, kind: LeafKind) {
        let node = self.path[ply].node;
        let (horizon, no_moves, draw) = self.rec.chess_leaf_lines();
        let (line, why) = match kind {
            LeafKind::Horizon => (horizon, format!("{} evaluation", self.eval_name)),
            LeafKind::Draw => (draw, "draw by rule".to_string()),
            LeafKind::NoMoves if value < 0 => (no_moves, "checkmate".to_string()),
            LeafKind::NoMoves => (no_moves, "stalemate".to_string()),
        };
        let score = self.view(ply, value);
        self.rec.leaf(node, score, line, Some(&why));
    }

    fn improved(&mut self, ply: usize, value: Value) {
        self.path[ply].best = value;
        let score = self.view(ply, value);
        self.rec.improves(self.path[ply].node, score);
    }

    fn alpha_raised(&mut self, ply: usize, alpha: Value) {
        if self.windows {
            let score = self.view(ply, alpha);
            self.rec.tighten(self.path[ply].node, score);
        }
    }

    fn cutoff(&mut self, pos: &Position, ply: usize, _searched: usize) {
        let frame = &self.path[ply];
        let node = frame.node;
        let searched: Vec<Move> = self.rec.nodes[node]
            .children
            .iter()
            .filter_map(|&c| self.moves[c])
            .collect();
        let skipped: Vec<Move> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| !searched.contains(m))
            .collect();
        let value = self.view(ply, frame.best);
        let mut stubs = Vec::new();
        if !skipped.is_empty() {
            let id = self.rec.nodes.len();
            let count = skipped.len();
            let noun = if count == 1 { "move" } else { "moves" };
            let mut stub = Node::new(
                id,
                Some(node),
                format!("{count} {noun} skipped"),
                ply as u32 + 1,
                !ply.is_multiple_of(2),
            );
            stub.stub = Some(Stub {
                moves: count as u64,
                nodes: 0,
            });
            self.rec.add_node(stub);
            self.moves.push(None);
            let mut history = self.root_history.clone();
            history.extend(self.path[..ply].iter().map(|f| f.pos.key()));
            self.stubs.push(PendingStub {
                stub: id,
                parent: pos.clone(),
                history,
                moves: skipped,
                depth: frame.depth,
            });
            stubs.push(id);
        }
        self.rec.cutoff(node, value, stubs);
    }

    fn leave(&mut self, ply: usize, value: Value) {
        let score = self.view(ply, value);
        self.rec.ret(self.path[ply].node, score);
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
    let source = &request.source;
    let config = search_config(request.config, request.eval);
    let code = pseudocode(request.config);
    let format = ValueFormat::Centipawns {
        mate: i64::from(score::MATE),
        mate_bound: i64::from(score::MATE_BOUND),
    };
    let observer = ChessObserver {
        rec: Recorder::new(code, format, CutoffTest::Inclusive),
        root_history: source.history.clone(),
        root_turn: source.position.turn(),
        root_fullmoves: source.position.chess().fullmoves().get(),
        windows: config.pruning,
        eval_name: request.eval.name(),
        path: Vec::new(),
        moves: Vec::new(),
        iteration_depth: request.depth,
        needs_root: true,
        root: 0,
        stubs: Vec::new(),
    };
    let (result, mut observer) =
        run_search(source, &config, &Limits::depth(request.depth), observer);

    // The sizes the search did not see: each stub's skipped subtrees and each iteration's
    // full-width tree.
    for pending in &observer.stubs {
        let depth = pending.depth.max(1) as u32;
        let totals = full_tree(&pending.parent, &pending.history, depth, &pending.moves);
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
        let totals = full_tree(&source.position, &source.history, depth, &[]);
        observer.rec.set_totals(index, totals);
    }
    let (nodes, steps, iterations) = observer.rec.finish();
    let mut trace = super::assemble(nodes, steps, iterations, code, format);
    trace.algorithm = super::model::AlgorithmInfo {
        name: request.config.name().to_string(),
        description: request.config.description().to_string(),
    };
    (trace, result)
}
