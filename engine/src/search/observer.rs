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
//! Besides the textbook points, the engine's selective techniques report where they act
//! (`Observer::technique`): a table cut-off, a null-move cut-off, a pruned move, a reduced
//! move and its re-search, an extension, an aspiration window that failed. The trace of the
//! engine as it plays (`brudno trace --algorithm engine`) shows each step with the technique
//! that caused it.

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

/// A selective technique acting at a node: what it did and the numbers that made it act.
/// Moves are those of the node the event belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Technique {
    /// The transposition table held a bound deep enough to answer the node: `value` is
    /// returned without searching a move.
    TableCutoff {
        /// The stored value, at this node.
        value: Value,
        /// The stored remaining depth (at least the node's).
        stored_depth: i32,
    },
    /// Mate-distance pruning: a mate already found nearer the root makes the window empty.
    MateDistance,
    /// Reverse futility: the static evaluation less a margin is still at least beta.
    ReverseFutility {
        /// The static evaluation.
        eval: Value,
        /// The margin taken off it.
        margin: Value,
    },
    /// Null move: the side to move passes and a search `reduction` plies shallower still
    /// scores `value`, at least beta: the node is cut.
    NullMoveCutoff {
        /// The null-window search's value.
        value: Value,
        /// Plies taken off the depth (besides the one of the pass).
        reduction: i32,
    },
    /// Null move tried, but passing fell below beta: the moves are searched.
    NullMoveFailed {
        /// The null-window search's value.
        value: Value,
    },
    /// ProbCut: the capture `mv`, searched `reduction` plies shallower against a raised
    /// bound, beats it: the node is cut.
    ProbCut {
        /// The capture.
        mv: Move,
        /// The value of the reduced search.
        value: Value,
        /// The raised bound (beta plus the ProbCut margin).
        bound: Value,
    },
    /// Internal iterative reduction: without a hash move the node is searched a ply
    /// shallower.
    InternalReduction,
    /// Singular extension: every other move fails low against a bound below the hash
    /// move's stored value: the hash move `mv` is searched a ply deeper.
    SingularExtension {
        /// The hash move.
        mv: Move,
    },
    /// Multi-cut: even without the hash move the node beats beta: cut.
    MultiCut {
        /// The bound the reduced search beat.
        value: Value,
    },
    /// Check extension: `mv` gives check and is searched a ply deeper.
    CheckExtension {
        /// The checking move.
        mv: Move,
    },
    /// Late move pruning: a late quiet move near the leaves is skipped.
    LateMovePruning {
        /// The skipped move.
        mv: Move,
        /// How many quiet moves were tried before it.
        tried: usize,
    },
    /// Futility pruning: a quiet move cannot lift the static evaluation plus a margin to
    /// alpha, so it is skipped.
    Futility {
        /// The skipped move.
        mv: Move,
        /// The static evaluation.
        eval: Value,
        /// The margin added to it.
        margin: Value,
    },
    /// SEE pruning: the static exchange of `mv` loses more than the margin of its depth, so
    /// it is skipped.
    SeePruning {
        /// The skipped move.
        mv: Move,
        /// The least exchange gain it needed (negative: the loss allowed).
        threshold: Value,
    },
    /// Late move reduction: `mv` is searched `reduction` plies shallower with a null
    /// window.
    Reduced {
        /// The reduced move.
        mv: Move,
        /// Plies taken off.
        reduction: i32,
    },
    /// The reduced search of `mv` beat alpha: it is searched again at full depth.
    ReducedResearch {
        /// The move searched again.
        mv: Move,
    },
    /// Principal variation search: the null-window search of `mv` landed inside the window,
    /// so it is searched again with the full window.
    PvsResearch {
        /// The move searched again.
        mv: Move,
    },
    /// The root's aspiration window `(alpha, beta)` failed: the value fell outside it and the
    /// iteration is searched again with a wider window.
    AspirationFailed {
        /// The failed window's lower bound.
        alpha: Value,
        /// The failed window's upper bound.
        beta: Value,
        /// The value that fell outside.
        value: Value,
    },
    /// Quiescence: at the horizon, captures are resolved (`nodes` nodes) before the static
    /// evaluation is trusted.
    Quiescence {
        /// Nodes the quiescence search visited.
        nodes: u64,
    },
}

/// Watches a search; every method defaults to doing nothing.
pub trait Observer {
    /// Whether this observer is told of every move futility pruning skips
    /// (`Technique::Futility`). When it is not, the move picker may leave those moves out
    /// without yielding them (`MovePicker::quiets_giving_check_only`): the same moves are
    /// searched either way.
    const SEES_EVERY_PRUNED_MOVE: bool = true;

    /// Whether the search reads the lab's switches of `SearchConfig` (`Switches`: plain
    /// minimax, the table, quiescence, the order of moves, counting legal moves). `Silent`
    /// does not: the engine as it plays has them at their defaults, compiled in, and tests
    /// none of them at its nodes; `Search::run` gives any other switches to `SilentLab`.
    const READS_SWITCHES: bool = true;

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

    /// A selective technique acted at the node at `ply` (see `Technique`).
    #[inline(always)]
    fn technique(&mut self, _ply: usize, _technique: Technique) {}
}

/// The observer of a search nobody watches: the engine as it plays, with the lab's
/// switches at their defaults (`Switches::PLAYING`) whatever the configuration says.
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;

impl Observer for Silent {
    const SEES_EVERY_PRUNED_MOVE: bool = false;
    const READS_SWITCHES: bool = false;
}

/// The observer of a search nobody watches that reads the lab's switches (the search lab,
/// `brudno ebf`, the tests of plain alpha-beta).
#[derive(Clone, Copy, Debug, Default)]
pub struct SilentLab;

impl Observer for SilentLab {
    const SEES_EVERY_PRUNED_MOVE: bool = false;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::tt::TranspositionTable;
    use crate::search::{Limits, Search, SearchConfig, SearchControl};

    /// Counts each kind of technique event.
    #[derive(Default)]
    struct Counter {
        table: u32,
        null_cut: u32,
        reduced: u32,
        research: u32,
        quiescence: u32,
        pruned: u32,
    }

    impl Observer for Counter {
        fn technique(&mut self, _ply: usize, technique: Technique) {
            match technique {
                Technique::TableCutoff { .. } => self.table += 1,
                Technique::NullMoveCutoff { .. } => self.null_cut += 1,
                Technique::Reduced { reduction, .. } => {
                    assert!(reduction > 0);
                    self.reduced += 1;
                }
                Technique::ReducedResearch { .. } => self.research += 1,
                Technique::Quiescence { .. } => self.quiescence += 1,
                Technique::LateMovePruning { .. }
                | Technique::Futility { .. }
                | Technique::SeePruning { .. } => self.pruned += 1,
                _ => {}
            }
        }
    }

    /// A real search of a middlegame reports the engine's techniques where they act, and
    /// the observer changes nothing: the same nodes and move as the silent search.
    #[test]
    fn the_engine_reports_its_techniques() {
        let position = Position::from_fen(
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
            false,
        )
        .unwrap();
        let limits = Limits::depth(8);
        let config = SearchConfig::default();
        let run = |observe: bool| {
            let tt = TranspositionTable::new(4);
            let control = SearchControl::default();
            control.begin(false);
            let search = Search {
                position: &position,
                history: &[],
                limits: &limits,
                config: &config,
                tt: &tt,
                control: &control,
                histories: None,
            };
            if observe {
                let (result, counter) = search.run_observed(Counter::default(), &mut |_| {});
                (result.stats.nodes, result.best_move, Some(counter))
            } else {
                let result = search.run(&mut |_| {});
                (result.stats.nodes, result.best_move, None)
            }
        };
        let (nodes, best, counter) = run(true);
        let (silent_nodes, silent_best, _) = run(false);
        assert_eq!((nodes, best), (silent_nodes, silent_best));
        let c = counter.unwrap();
        assert!(c.table > 0, "table cut-offs");
        assert!(c.null_cut > 0, "null-move cut-offs");
        assert!(
            c.reduced > c.research && c.research > 0,
            "reductions and re-searches"
        );
        assert!(c.quiescence > 0 && c.pruned > 0, "quiescence and pruning");
    }
}
