//! The observer that records a chess trace: it turns what the engine's search reports
//! (`search/observer.rs`) into the trace's nodes and steps, in MAX's view (the side to move
//! at the root), and flags the steps a selective technique caused.
//!
//! It follows the search as a stack of open nodes: `enter` pushes, `leave` pops, so a node
//! searched twice at the same ply (the singular test searches its own position again) or a
//! child that is no move (the null move) still sits where it belongs. What the shape of the
//! search shows, it flags itself: the null-move search and the singular test (children that
//! are no legal move), a move searched again (an LMR or PVS re-search, told apart by depth
//! and window), the root searched again within an iteration (an aspiration fail), a PVS null
//! window, and a null-move search that failed high followed by the node's return (the
//! null-move cut-off). Everything else arrives through `Observer::technique`. It only
//! watches: nothing here may change what the search does.

use shakmaty::{Color, Move, Position as _};

use super::model::{Node, Score, StepKind, Stub, Totals};
use super::recorder::Recorder;
use super::techniques::{self as tech, Effect, Info};
use brudno_engine::eval::Value;
use brudno_engine::position::Position;
use brudno_engine::search::observer::{LeafKind, Observer, Technique};
use brudno_engine::search::score::INFINITY;
use brudno_tools::epd::notation::san;

mod explain;

/// Moves a cut-off skipped, to be sized once the search is over.
pub struct PendingStub {
    /// The stub's node.
    pub stub: usize,
    /// The position whose moves were skipped.
    pub parent: Position,
    /// Keys of the positions before it.
    pub history: Vec<u64>,
    /// The skipped moves.
    pub moves: Vec<Move>,
    /// Plies left at the parent.
    pub depth: i32,
}

/// What a node of the trace stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NodeKind {
    /// A root, or a stub.
    Other,
    /// A legal move from its parent.
    Move(Move),
    /// The null move: the parent's side passes.
    NullMove,
    /// The singular test: the parent's position again, without the hash move.
    SingularTest,
}

/// How a node was last entered and what it returned (negamax form, its side to move).
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    depth: i32,
    alpha: Value,
    beta: Value,
    value: Option<Value>,
}

/// An open node of the search.
struct Frame {
    node: usize,
    ply: usize,
    pos: Position,
    /// Plies left at the node.
    depth: i32,
    /// The best score of its moves so far (from its side to move).
    best: Value,
    /// A technique cut it (so its return needs no other explanation).
    cut: bool,
    /// Moves a technique skipped (futility, late move pruning).
    pruned: Vec<Move>,
}

/// The observer that records the engine's search.
pub struct ChessObserver {
    /// What is recorded.
    pub rec: Recorder,
    /// Moves a cut-off skipped, sized after the search.
    pub stubs: Vec<PendingStub>,
    root_history: Vec<u64>,
    root_turn: Color,
    root_fullmoves: u32,
    windows: bool,
    /// The engine's own configuration: its pseudocode has lines for the techniques.
    engine: bool,
    quiescence: bool,
    eval_name: &'static str,
    stack: Vec<Frame>,
    kinds: Vec<NodeKind>,
    entries: Vec<Entry>,
    iteration_depth: u32,
    needs_root: bool,
    root: usize,
    /// A technique the search announced for the next node it enters (or the next leaf).
    pending: Option<(usize, Technique)>,
}

impl ChessObserver {
    /// An observer recording into `rec`, for a search of `position` (after `history`);
    /// `engine` when the search is the engine as it plays.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        rec: Recorder,
        position: &Position,
        history: &[u64],
        windows: bool,
        engine: bool,
        quiescence: bool,
        eval_name: &'static str,
        depth: u32,
    ) -> Self {
        Self {
            rec,
            stubs: Vec::new(),
            root_history: history.to_vec(),
            root_turn: position.turn(),
            root_fullmoves: position.chess().fullmoves().get(),
            windows,
            engine,
            quiescence,
            eval_name,
            stack: Vec::new(),
            kinds: Vec::new(),
            entries: Vec::new(),
            iteration_depth: depth,
            needs_root: true,
            root: 0,
            pending: None,
        }
    }

    /// A value of a node at `ply` (from its side to move) in MAX's view.
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

    fn show(&self, ply: usize, value: Value) -> String {
        self.rec.format().show(self.view(ply, value))
    }

    /// The bound a node at `ply` must reach to cut (its negamax beta), in MAX's view, with
    /// its name: "β +0.35" at MAX, "α −0.35" at MIN.
    fn far_bound(&self, ply: usize, beta: Value) -> String {
        let name = if ply.is_multiple_of(2) { "β" } else { "α" };
        format!("{name} {}", self.show(ply, beta))
    }

    /// The bound a move must pass to improve a node at `ply` (its negamax alpha).
    fn near_bound(&self, ply: usize, alpha: Value) -> String {
        let name = if ply.is_multiple_of(2) { "α" } else { "β" };
        format!("{name} {}", self.show(ply, alpha))
    }

    /// The move `mv` from `parent` at `ply` plies below the root, numbered: `1. e4`, `1... e5`.
    fn numbered(&self, parent: &Position, ply: usize, mv: Move) -> String {
        let text = san(parent, mv);
        let black_root = usize::from(self.root_turn == Color::Black);
        let number = self.root_fullmoves as usize + (ply + black_root) / 2;
        if parent.turn() == Color::White {
            format!("{number}. {text}")
        } else {
            format!("{number}... {text}")
        }
    }

    fn add_node(&mut self, node: Node, kind: NodeKind) -> usize {
        let id = self.rec.add_node(node);
        self.kinds.push(kind);
        self.entries.push(Entry::default());
        id
    }

    /// A stub for `moves` of the open node `frame` (index into the stack), sized later.
    fn add_stub(&mut self, frame: usize, moves: Vec<Move>) -> Option<usize> {
        if moves.is_empty() {
            return None;
        }
        let (node, ply, depth, pos) = {
            let f = &self.stack[frame];
            (f.node, f.ply, f.depth, f.pos.clone())
        };
        let count = moves.len();
        let noun = if count == 1 { "move" } else { "moves" };
        let id = self.rec.nodes.len();
        let mut stub = Node::new(
            id,
            Some(node),
            format!("{count} {noun} skipped"),
            self.rec.nodes[node].depth + 1,
            !ply.is_multiple_of(2),
        );
        stub.stub = Some(Stub {
            moves: count as u64,
            nodes: 0,
        });
        self.add_node(stub, NodeKind::Other);
        let mut history = self.root_history.clone();
        history.extend(self.stack[..frame].iter().map(|f| f.pos.key()));
        self.stubs.push(PendingStub {
            stub: id,
            parent: pos,
            history,
            moves,
            depth,
        });
        Some(id)
    }

    /// The legal moves of the open node `frame` not searched yet.
    fn unsearched(&self, frame: usize) -> Vec<Move> {
        let f = &self.stack[frame];
        let searched: Vec<Move> = self.rec.nodes[f.node]
            .children
            .iter()
            .filter_map(|&c| match self.kinds[c] {
                NodeKind::Move(mv) => Some(mv),
                _ => None,
            })
            .collect();
        f.pos
            .legal_moves()
            .into_iter()
            .filter(|m| !searched.contains(m) && !f.pruned.contains(m))
            .collect()
    }

    /// The pseudocode line of a technique: its own with the engine's pseudocode, else the
    /// line of the step it flags.
    fn line(&self, info: Info) -> Option<u32> {
        self.engine.then_some(info.line)
    }

    /// The window of `node` as it stands now (after its alpha or beta moved), MAX's view.
    fn current_window(&self, node: usize) -> String {
        let format = self.rec.format();
        let (low, high) = self.rec.window_of(node);
        format!("({}, {})", format.show_opt(low), format.show_opt(high))
    }

    /// The bound a move must pass to improve `node` now: "α +0.35" at MAX, "β" at MIN.
    fn current_near(&self, node: usize) -> String {
        let format = self.rec.format();
        let (low, high) = self.rec.window_of(node);
        if self.rec.nodes[node].max {
            format!("α {}", format.show_opt(low))
        } else {
            format!("β {}", format.show_opt(high))
        }
    }

    fn window_text(&self, ply: usize, alpha: Value, beta: Value) -> String {
        let (a, b) = (self.view(ply, alpha), self.view(ply, beta));
        let (low, high) = if ply.is_multiple_of(2) {
            (a, b)
        } else {
            (b, a)
        };
        let format = self.rec.format();
        format!("({}, {})", format.show(low), format.show(high))
    }

    /// The technique announced at `ply` for the next step, if any (taken: an announcement
    /// holds for one step only).
    fn take_pending(&mut self, ply: usize) -> Option<Technique> {
        match self.pending.take() {
            Some((at, technique)) if at == ply => Some(technique),
            _ => None,
        }
    }

    /// A technique that ends the open node on top of the stack.
    fn node_cut(&mut self, info: Info, value: Option<Value>, text: String) {
        let top = self.stack.len() - 1;
        let (node, ply) = (self.stack[top].node, self.stack[top].ply);
        self.stack[top].cut = true;
        let moves = self.unsearched(top);
        let stub = self.add_stub(top, moves).into_iter().collect();
        let line = self.line(info).unwrap_or(self.rec_cutoff_line());
        let score = value.map(|v| self.view(ply, v));
        self.rec
            .technique(StepKind::Cutoff, node, line, score, (info.name, text), stub);
    }

    fn rec_cutoff_line(&self) -> u32 {
        self.rec.chess_leaf_lines().0
    }
}

impl Observer for ChessObserver {
    fn iteration(&mut self, depth: u32) {
        self.iteration_depth = depth;
        self.needs_root = true;
    }

    fn enter(&mut self, pos: &Position, ply: usize, depth: i32, alpha: Value, beta: Value) {
        let (low, high) = if ply.is_multiple_of(2) {
            (self.view(ply, alpha), self.view(ply, beta))
        } else {
            (self.view(ply, beta), self.view(ply, alpha))
        };
        let window = if self.windows {
            (Some(low), Some(high))
        } else {
            (None, None)
        };
        if ply == 0 {
            let again = !self.needs_root;
            if self.needs_root {
                self.needs_root = false;
                let id = self.rec.nodes.len();
                let mut node = Node::new(id, None, "root".to_string(), 0, true);
                node.path = Some(String::new());
                self.rec
                    .begin_iteration(self.iteration_depth, id, Totals::default());
                self.add_node(node, NodeKind::Other);
                self.root = id;
            }
            self.stack.clear();
            self.stack.push(Frame {
                node: self.root,
                ply,
                pos: pos.clone(),
                depth,
                best: -INFINITY,
                cut: false,
                pruned: Vec::new(),
            });
            self.rec.enter(self.root, window.0, window.1);
            if self.engine {
                self.rec.set_last_line(tech::ROOT_LINE);
            }
            if again {
                self.root_again(depth, alpha, beta);
            }
            self.pending = None;
            self.entries[self.root] = Entry {
                depth,
                alpha,
                beta,
                value: None,
            };
            return;
        }
        let Some(parent) = self.stack.len().checked_sub(1) else {
            return;
        };
        let parent_pos = &self.stack[parent].pos;
        let (kind, label, plain) = if pos.key() == parent_pos.key() {
            let text = "singular test".to_string();
            (NodeKind::SingularTest, text.clone(), text)
        } else if parent_pos.play_null().is_some_and(|n| n.key() == pos.key()) {
            let text = "null move".to_string();
            (NodeKind::NullMove, text.clone(), text)
        } else {
            match parent_pos
                .legal_moves()
                .into_iter()
                .find(|&m| parent_pos.play(m).key() == pos.key())
            {
                Some(mv) => (
                    NodeKind::Move(mv),
                    self.numbered(parent_pos, ply - 1, mv),
                    san(parent_pos, mv),
                ),
                None => (NodeKind::Other, "?".to_string(), "?".to_string()),
            }
        };
        let parent_node = self.stack[parent].node;
        let parent_white = self.stack[parent].pos.turn() == Color::White;
        let parent_path = self.rec.nodes[parent_node].path.clone().unwrap_or_default();
        // A line numbers its first move and White's moves: "1. e4 e5 2. Nf3".
        let path = if parent_path.is_empty() {
            label.clone()
        } else if parent_white && matches!(kind, NodeKind::Move(_)) {
            format!("{parent_path} {label}")
        } else {
            format!("{parent_path} {plain}")
        };
        let id = self.rec.nodes.len();
        let mut node = Node::new(
            id,
            Some(parent_node),
            label,
            self.rec.nodes[parent_node].depth + 1,
            ply.is_multiple_of(2),
        );
        node.path = Some(path);
        self.add_node(node, kind);
        self.stack.push(Frame {
            node: id,
            ply,
            pos: pos.clone(),
            depth,
            best: -INFINITY,
            cut: false,
            pruned: Vec::new(),
        });
        self.rec.enter(id, window.0, window.1);
        self.flag_child(id, ply, parent, depth, alpha, beta);
        self.pending = None;
        self.entries[id] = Entry {
            depth,
            alpha,
            beta,
            value: None,
        };
    }

    fn leaf(&mut self, ply: usize, value: Value, kind: LeafKind) {
        let Some(frame) = self.stack.last() else {
            return;
        };
        let node = frame.node;
        let (horizon, no_moves, draw) = self.rec.chess_leaf_lines();
        let (line, why) = match kind {
            LeafKind::Horizon if self.quiescence => (
                horizon,
                format!("quiescence search ({} evaluation)", self.eval_name),
            ),
            LeafKind::Horizon => (horizon, format!("{} evaluation", self.eval_name)),
            LeafKind::Draw => (draw, "draw by rule".to_string()),
            LeafKind::NoMoves if value < 0 => (no_moves, "checkmate".to_string()),
            LeafKind::NoMoves => (no_moves, "stalemate".to_string()),
        };
        let score = self.view(ply, value);
        self.rec.leaf(node, score, line, Some(&why));
        let flagged = self
            .rec
            .steps()
            .last()
            .is_some_and(|s| s.technique.is_some());
        let counted = self.take_pending(ply);
        if kind == LeafKind::Horizon && self.quiescence && self.engine && !flagged {
            let text = match counted {
                Some(Technique::Quiescence { nodes }) => format!(
                    "Leaf {}: quiescence, captures searched until quiet: {} after {nodes} {}.",
                    self.rec.nodes[node].path.clone().unwrap_or_default(),
                    self.show(ply, value),
                    if nodes == 1 { "node" } else { "nodes" }
                ),
                _ => self
                    .rec
                    .steps()
                    .last()
                    .map(|s| s.text.clone())
                    .unwrap_or_default(),
            };
            self.rec.flag_last(tech::QUIESCENCE.name, text, None);
        }
    }

    fn improved(&mut self, ply: usize, value: Value) {
        let Some(frame) = self.stack.last_mut() else {
            return;
        };
        frame.best = value;
        let node = frame.node;
        let score = self.view(ply, value);
        self.rec.improves(node, score);
    }

    fn alpha_raised(&mut self, ply: usize, alpha: Value) {
        if self.windows
            && let Some(frame) = self.stack.last()
        {
            let node = frame.node;
            let score = self.view(ply, alpha);
            self.rec.tighten(node, score);
        }
    }

    fn cutoff(&mut self, _pos: &Position, ply: usize, _searched: usize) {
        let Some(top) = self.stack.len().checked_sub(1) else {
            return;
        };
        let node = self.stack[top].node;
        let value = self.view(ply, self.stack[top].best);
        let moves = self.unsearched(top);
        let stubs = self.add_stub(top, moves).into_iter().collect();
        self.rec.cutoff(node, value, stubs);
    }

    fn leave(&mut self, ply: usize, value: Value) {
        let Some(frame) = self.stack.last() else {
            return;
        };
        let node = frame.node;
        // A null-move search that held beta, and nothing searched after it: the null-move
        // cut-off (unless the search already said why the node ended).
        let last_child = self.rec.nodes[node].children.last().copied();
        if !frame.cut
            && let Some(child) = last_child
            && self.kinds[child] == NodeKind::NullMove
            && let Some(child_value) = self.entries[child].value
            && -child_value >= self.entries[node].beta
        {
            let beta = self.entries[node].beta;
            let reduction = (frame.depth - 1 - self.entries[child].depth).max(0);
            let technique = Technique::NullMoveCutoff {
                value: -child_value,
                reduction,
            };
            let text = self.sentence(ply, technique, frame, beta);
            self.node_cut(tech::NULL_MOVE_CUTOFF, Some(-child_value), text);
        }
        self.pending = None;
        self.entries[node].value = Some(value);
        let score = self.view(ply, value);
        self.rec.ret(node, score);
        self.stack.pop();
    }

    fn technique(&mut self, ply: usize, technique: Technique) {
        let Some(top) = self.stack.len().checked_sub(1) else {
            return;
        };
        let info = tech::of(technique);
        let beta = self.entries[self.stack[top].node].beta;
        let effect = tech::effect(technique);
        if effect == Effect::Announces {
            self.pending = Some((ply, technique));
            return;
        }
        let text = self.sentence(ply, technique, &self.stack[top], beta);
        let line = self.line(info).unwrap_or(self.rec_cutoff_line());
        let node = self.stack[top].node;
        match effect {
            Effect::CutsTheNode => {
                let value = match technique {
                    Technique::TableCutoff { value, .. }
                    | Technique::NullMoveCutoff { value, .. }
                    | Technique::ProbCut { value, .. }
                    | Technique::MultiCut { value } => Some(value),
                    Technique::ReverseFutility { eval, .. } => Some(eval),
                    _ => None,
                };
                self.node_cut(info, value, text);
            }
            Effect::SkipsAMove => {
                let (mv, value) = match technique {
                    Technique::Futility { mv, eval, .. } => (Some(mv), Some(eval)),
                    Technique::LateMovePruning { mv, .. } | Technique::SeePruning { mv, .. } => {
                        (Some(mv), None)
                    }
                    _ => (None, None),
                };
                self.stack[top].pruned.extend(mv);
                let stub = self
                    .add_stub(top, mv.into_iter().collect())
                    .into_iter()
                    .collect();
                let score = value.map(|v| self.view(ply, v));
                self.rec
                    .technique(StepKind::Prune, node, line, score, (info.name, text), stub);
            }
            Effect::Decides | Effect::Announces => {
                let value = match technique {
                    Technique::NullMoveFailed { value } => Some(self.view(ply, value)),
                    _ => None,
                };
                self.rec.technique(
                    StepKind::Technique,
                    node,
                    line,
                    value,
                    (info.name, text),
                    Vec::new(),
                );
            }
        }
    }
}
