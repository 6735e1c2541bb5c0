//! The selective stages of a node below the root: what may answer the whole node before its
//! moves are searched (reverse futility, null move, ProbCut), what shapes the node (internal
//! iterative reduction, the hash move, the singular test), and what skips one move in the
//! move loop (late move pruning, futility, SEE pruning). The steps are numbered as in
//! `Worker::node` (alphabeta.rs). Each technique is guarded by its switch in `Features` and
//! reported to the observer when it acts.

use shakmaty::Move;

use super::alphabeta::Node;
use super::movepick::MoveOrder;
use super::observer::{Observer, Technique};
use super::params;
use super::score::{self, DRAW};
use super::see;
use super::tt::{self, Bound};
use super::worker::{NULL_MOVE, Worker};
use crate::eval::Value;
use crate::position::Position;

/// What the per-move stage knows of one move before it is made.
#[derive(Clone, Copy)]
pub(super) struct Candidate {
    /// The move.
    pub mv: Move,
    /// Neither a capture nor a promotion.
    pub quiet: bool,
    /// A deferred move searched at last (never pruned: it was not the first time).
    pub revisiting: bool,
    /// Moves searched so far at this node.
    pub searched: usize,
    /// Quiet moves searched so far at this node.
    pub quiets_tried: usize,
}

impl<O: Observer> Worker<'_, O> {
    /// Steps 7 to 8b: the value when the whole node is pruned.
    #[inline(always)]
    pub(super) fn prune_node(&mut self, pos: &Position, node: &Node) -> Option<Value> {
        if node.excluded != 0 || node.pv_node || node.in_check {
            return None;
        }
        // Step 7. Reverse futility pruning: far above beta near the leaves, assume a cut-off.
        let rfp_margin = params::rfp_margin() * (node.depth - i32::from(node.improving));
        if self.features.reverse_futility
            && node.depth <= params::rfp_max_depth()
            && !score::is_decisive(node.beta)
            && node.static_eval - rfp_margin >= node.beta
        {
            self.observer.technique(
                node.ply,
                Technique::ReverseFutility {
                    eval: node.static_eval,
                    margin: rfp_margin,
                },
            );
            return Some(node.static_eval);
        }
        // Step 8. Null-move pruning.
        if let Some(value) = self.null_move(pos, node) {
            return Some(value);
        }
        // Step 8b. ProbCut.
        self.try_probcut(pos, node)
    }

    /// Step 8. Null-move pruning: if passing still fails high after a reduced search, the
    /// position is good enough to cut (not in check, not in pawn endings: zugzwang).
    #[inline(always)]
    fn null_move(&mut self, pos: &Position, node: &Node) -> Option<Value> {
        let (ply, depth, beta) = (node.ply, node.depth, node.beta);
        if !self.features.null_move
            || depth < params::nmp_min_depth()
            || node.static_eval < beta
            || self.plies[ply - 1].current == NULL_MOVE
            || !pos.has_non_pawn_material()
        {
            return None;
        }
        let null = pos.play_null()?;
        let reduction = params::nmp_base_reduction()
            + depth / params::nmp_depth_divisor()
            + ((node.static_eval - beta) / params::nmp_eval_divisor()).min(params::nmp_eval_max());
        self.plies[ply].current = NULL_MOVE;
        self.plies[ply].moved = 0;
        self.made_null_move(ply + 1);
        self.keys.push(null.key());
        let saved_floor = self.null_floor;
        self.null_floor = self.keys.len() - 1;
        let score = -self.negamax(
            &null,
            depth - 1 - reduction,
            -beta,
            -beta + 1,
            ply + 1,
            !node.cut_node,
        );
        self.null_floor = saved_floor;
        self.keys.pop();
        if self.aborted {
            return Some(DRAW);
        }
        if score >= beta {
            self.observer.technique(
                ply,
                Technique::NullMoveCutoff {
                    value: score,
                    reduction,
                },
            );
            return Some(if score::is_decisive(score) {
                beta
            } else {
                score
            });
        }
        self.observer
            .technique(ply, Technique::NullMoveFailed { value: score });
        None
    }

    /// Step 8b. ProbCut: if a capture that wins enough material by SEE still beats beta by a
    /// margin after a quiescence check and a search four plies shallower, the full search
    /// would almost surely fail high too: cut (`probcut.rs`). Skipped when the table already
    /// says a search this deep stays below that bound.
    #[inline(always)]
    fn try_probcut(&mut self, pos: &Position, node: &Node) -> Option<Value> {
        let (ply, depth) = (node.ply, node.depth);
        if !self.features.probcut
            || depth < params::probcut_min_depth()
            || score::is_decisive(node.beta)
        {
            return None;
        }
        let probcut_beta = node.beta + params::probcut_margin()
            - params::probcut_improving() * Value::from(node.improving);
        let refuted_by_table = node.tt_entry.is_some_and(|entry| {
            entry.depth > depth - params::probcut_reduction()
                && score::from_tt(entry.score, ply) < probcut_beta
                && entry.bound != Bound::Lower
        });
        if !refuted_by_table && let Some(value) = self.probcut(pos, node, probcut_beta) {
            return Some(value);
        }
        self.aborted.then_some(DRAW)
    }

    /// Steps 9 to 10b: the depth, the hash move and its extension; a value when the
    /// singular test cuts the node (multi-cut).
    #[inline(always)]
    pub(super) fn shape_node(&mut self, pos: &Position, node: &mut Node) -> Option<Value> {
        // Step 9. Internal iterative reduction: without a hash move this node was never
        // searched before; search it a little shallower.
        if self.features.iir
            && node.hash_move == 0
            && node.depth >= params::iir_min_depth()
            && (node.pv_node || node.cut_node)
        {
            node.depth -= 1;
            self.observer
                .technique(node.ply, Technique::InternalReduction);
        }

        // Step 10. The hash move, if legal here: the move picker tries it before any move
        // is generated (it often refutes at once). The lab's fixed orders generate first, as
        // the plain algorithm does.
        if matches!(self.switches().order, MoveOrder::Staged) {
            node.staged_hash = tt::legal_move_from_packed(node.hash_move, pos);
        }

        // Step 10b. The singular test.
        self.singular_test(pos, node)
    }

    /// Step 10b. Singular extension: when the hash move's stored result is a deep enough
    /// lower bound, search the other moves, reduced, against a bound just below it. If they
    /// all fail low, the hash move is the only good move here: extend it. If even the bound
    /// beats beta, several moves refute: cut (multi-cut). If only the stored score beats
    /// beta, the hash move is not that special: reduce it.
    #[inline(always)]
    fn singular_test(&mut self, pos: &Position, node: &mut Node) -> Option<Value> {
        let (ply, depth) = (node.ply, node.depth);
        let entry = node.tt_entry?;
        let mv = node.staged_hash?;
        if !self.features.singular
            || node.excluded != 0
            || depth < params::se_min_depth()
            || entry.depth < depth - params::se_tt_depth_margin()
            || entry.bound == Bound::Upper
        {
            return None;
        }
        let tt_score = score::from_tt(entry.score, ply);
        if score::is_decisive(tt_score) {
            return None;
        }
        let singular_beta = tt_score - params::se_margin_per_depth() * depth;
        self.plies[ply].excluded = node.hash_move;
        let value = self.negamax(
            pos,
            (depth - 1) / params::se_depth_divisor(),
            singular_beta - 1,
            singular_beta,
            ply,
            node.cut_node,
        );
        self.plies[ply].excluded = 0;
        if self.aborted {
            return Some(DRAW);
        }
        if value < singular_beta {
            node.singular_extension = 1;
            self.observer
                .technique(ply, Technique::SingularExtension { mv });
        } else if singular_beta >= node.beta {
            self.observer.technique(
                ply,
                Technique::MultiCut {
                    value: singular_beta,
                },
            );
            return Some(singular_beta);
        } else if tt_score >= node.beta {
            node.singular_extension = -1;
        }
        None
    }

    /// Futility pruning's condition for the whole node: near the leaves, the static
    /// evaluation plus a margin stays at or below alpha, so no quiet move that does not give
    /// check can lift it there.
    #[inline(always)]
    pub(super) fn futile(&self, node: &Node) -> bool {
        self.features.futility
            && !node.pv_node
            && !node.in_check
            && node.depth <= params::futility_max_depth()
            && !score::is_decisive(node.alpha)
            && node.static_eval + params::futility_margin(node.depth) <= node.alpha
    }

    /// Per-move pruning in the move loop, before the move is made: whether to skip it, and
    /// whether the rest of the quiet moves go with it (late move pruning). `quiet_check_free`
    /// tells whether the move is known not to give check (computed only when futility asks).
    #[inline(always)]
    pub(super) fn prune_move(
        &mut self,
        pos: &Position,
        node: &Node,
        candidate: Candidate,
        quiet_check_free: impl FnOnce() -> bool,
    ) -> Option<Skip> {
        let (ply, depth, mv) = (node.ply, node.depth, candidate.mv);
        if candidate.revisiting {
            return None;
        }
        let quiet_at_non_pv = !node.pv_node && !node.in_check && candidate.quiet;

        // Late move pruning: near the leaves, quiet moves this late rarely matter.
        if self.features.late_move_pruning
            && quiet_at_non_pv
            && depth <= params::lmp_max_depth()
            && node.best > -score::TB_WIN_BOUND
            && candidate.quiets_tried >= params::lmp_threshold(depth, node.improving)
        {
            // The rest of the quiet moves would be skipped as well: the picker leaves them
            // ungenerated or unscored.
            self.observer.technique(
                ply,
                Technique::LateMovePruning {
                    mv,
                    tried: candidate.quiets_tried,
                },
            );
            return Some(Skip::Quiets);
        }

        // Futility pruning: a quiet move cannot lift a hopeless static eval to alpha.
        // Decided before the move is made (whether it gives check is read from the move and
        // the node's check squares), so a pruned move costs no copy, key, network update or
        // prefetch.
        if quiet_at_non_pv && candidate.searched > 0 && self.futile(node) && quiet_check_free() {
            self.observer.technique(
                ply,
                Technique::Futility {
                    mv,
                    eval: node.static_eval,
                    margin: params::futility_margin(depth),
                },
            );
            return Some(Skip::Move);
        }

        // SEE pruning: near the leaves, once a move holds off a mate, a move whose static
        // exchange loses more than a depth-scaled margin is skipped (a capture of a defended
        // piece, a quiet move onto an attacked square).
        if self.features.see_pruning
            && node.best > -score::TB_WIN_BOUND
            && depth <= params::see_prune_max_depth()
        {
            let threshold = params::see_prune_threshold(candidate.quiet, depth);
            if !see::is_safe_capture(mv) && !see::see_ge(pos, mv, threshold) {
                self.observer
                    .technique(ply, Technique::SeePruning { mv, threshold });
                return Some(Skip::Move);
            }
        }
        None
    }
}

/// What the per-move stage skips.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Skip {
    /// This move.
    Move,
    /// This move and every quiet move after it.
    Quiets,
}
