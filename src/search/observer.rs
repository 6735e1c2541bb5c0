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
}

/// The observer of a search nobody watches: the engine as it plays.
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;

impl Observer for Silent {}
