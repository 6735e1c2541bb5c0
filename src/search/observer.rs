//! The observer hook: what the search tells someone watching it (the `trace` tool, and the
//! UCI loop for `info currmove`), at the points the textbooks name: a node entered with its
//! window, a leaf scored, a child's value that is the node's best so far, alpha raised, a
//! cut-off, a node's value returned, the start of an iteration and of each root move.
//!
//! The search is generic over its observer (`Worker<O: Observer>`), and the engine plays
//! with `Silent`, whose methods are empty: the calls compile away, so the search with the hook
//! off is the search without it (same bench signature, same node rate). An observer only
//! watches; it must never change what the search does.
//!
//! Values are the search's own, in negamax form: from the side to move at the node, with
//! `alpha` and `beta` the node's window. Plies count from the root (0).
//!
//! `technique` reports what a selective step did (a null-move cut-off, a futility prune, a
//! late-move reduction, ...), with what it compared, so that the engine's trace can flag the
//! step and explain it in a sentence. What the observer can see from `enter` and `leave`
//! alone (the null-move search and the singular test as children, re-searches of the same
//! move, aspiration re-searches of the root, null windows) it works out itself; `technique`
//! carries the rest.

use shakmaty::Move;

use crate::eval::Value;
use crate::position::Position;

/// Why a node was scored without searching its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeafKind {
    /// The horizon: the static evaluation (or quiescence search, when on).
    Horizon,
    /// A draw by rule: fifty moves, repetition or insufficient material.
    Draw,
    /// No legal move: checkmate (in check) or stalemate.
    NoMoves,
}

/// A selective step of the search, as `Observer::technique` reports it. Each names one
/// technique of `search::features` (or the table, or quiescence) at the moment it acts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Technique {
    /// The null-move search failed high: the node returns without searching its moves.
    /// `value`: the null search's score; `bound`: beta; `amount`: the reduction R.
    NullMoveCutoff,
    /// Reverse futility: the static evaluation minus a margin is still at or above beta.
    /// `value`: the static evaluation; `bound`: beta; `amount`: the margin (cp).
    ReverseFutility,
    /// Futility: the quiet move `mv` cannot lift the static evaluation plus a margin to alpha
    /// and is skipped. `value`: the static evaluation; `bound`: alpha; `amount`: the margin.
    Futility,
    /// Late move pruning: the quiet move `mv` comes too late near the leaves and is skipped.
    /// `amount`: the quiet moves already tried.
    LateMovePruning,
    /// Late move reduction: `mv` is searched `amount` plies shallower, with a null window.
    LateMoveReduction,
    /// The reduced search of `mv` beat alpha: it is searched again at full depth.
    /// `value`: the reduced score; `bound`: alpha.
    LmrResearch,
    /// The null-window search of `mv` landed inside the window: it is searched again with
    /// the full window. `value`: the null-window score; `bound`: alpha.
    PvsResearch,
    /// The root's aspiration window failed low: `value` <= `bound` (alpha); searched again.
    AspirationFailLow,
    /// The root's aspiration window failed high: `value` >= `bound` (beta); searched again.
    AspirationFailHigh,
    /// A stored result of enough depth answers the node. `value`: the stored score; `bound`:
    /// the window edge it satisfies; `amount`: the stored depth.
    TtCutoff,
    /// The hash move `mv` is singular: every other move failed low against `bound`; it is
    /// extended by `amount` plies (negative: reduced, the alternatives hold too).
    SingularExtension,
    /// Multi-cut: several moves beat the singular bound, which is above beta: the node
    /// returns `value` at once.
    MultiCut,
    /// ProbCut: the capture `mv` still beats `bound` (beta plus a margin) in a reduced
    /// search; the node returns `value`.
    ProbCut,
    /// Quiescence resolved the horizon: `value` after `amount` quiescence nodes.
    Quiescence,
    /// Mate-distance pruning: no line from here can beat a mate already found; `value`.
    MateDistance,
}

/// What a technique compared or decided; the fields each technique uses are listed on
/// `Technique`. Values are from the side to move at the node.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Detail {
    /// The move the step is about, if any.
    pub mv: Option<Move>,
    /// The value the step compared or returned.
    pub value: Value,
    /// The bound it compared with.
    pub bound: Value,
    /// A margin in centipawns, or plies of a reduction or extension, or a count.
    pub amount: i32,
}

/// Watches a search; every method defaults to doing nothing.
pub trait Observer {
    /// A new iteration of iterative deepening starts at `depth` (once per depth, also without
    /// iterative deepening).
    #[inline(always)]
    fn iteration(&mut self, _depth: u32) {}
    /// The root's move `mv`, the `number`th of the root's list in this iteration's order
    /// (1 = the first), is about to be searched to `depth` (for `info currmove`).
    #[inline(always)]
    fn root_move(&mut self, _depth: i32, _mv: Move, _number: usize) {}

    /// The search enters the node `pos` at `ply` with `depth` plies left and the window
    /// `(alpha, beta)`.
    #[inline(always)]
    fn enter(&mut self, _pos: &Position, _ply: usize, _depth: i32, _alpha: Value, _beta: Value) {}

    /// The node just entered at `ply` is a leaf, scored `value`.
    #[inline(always)]
    fn leaf(&mut self, _ply: usize, _value: Value, _kind: LeafKind) {}

    /// The child just returned scores `value` for the node at `ply`: its best so far.
    #[inline(always)]
    fn improved(&mut self, _ply: usize, _value: Value) {}

    /// Alpha of the node at `ply` rises to `alpha`.
    #[inline(always)]
    fn alpha_raised(&mut self, _ply: usize, _alpha: Value) {}

    /// The node `pos` at `ply` cuts off after searching `searched` of its moves: the others
    /// are skipped.
    #[inline(always)]
    fn cutoff(&mut self, _pos: &Position, _ply: usize, _searched: usize) {}

    /// The node at `ply` returns `value`.
    #[inline(always)]
    fn leave(&mut self, _ply: usize, _value: Value) {}

    /// A selective step acted at the node at `ply` (see `Technique` for what `detail` holds).
    #[inline(always)]
    fn technique(&mut self, _ply: usize, _technique: Technique, _detail: Detail) {}
}

/// The observer of a search nobody watches: the engine as it plays.
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;

impl Observer for Silent {}
