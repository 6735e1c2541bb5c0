//! Move ordering inside the tree and what the search learns for it: killer moves, the
//! countermove table and the history heuristic, plus the late-move-reduction amount that the
//! history adjusts.
//!
//! Order at a node: hash move, captures that do not lose material (MVV-LVA), the two killers,
//! the countermove, quiet moves by history, then losing captures. The lab's orders
//! (`MoveOrder`) bypass all of this.

use shakmaty::{Color, Move};

use super::observer::Observer;
use super::ordering::{self, ScoredMove, ScoredMoves, is_tactical};
use super::params;
use super::score::MAX_PLY;
use super::see::see_non_negative;
use super::tt::{self, PackedMove};
use super::worker::{NULL_MOVE, Worker};
use crate::position::Position;

/// Ordering score bands (higher is tried earlier), below the hash move.
const GOOD_CAPTURE: i32 = 1 << 24;
const KILLER_FIRST: i32 = 1 << 22;
const KILLER_SECOND: i32 = KILLER_FIRST - 1;
const COUNTERMOVE: i32 = KILLER_FIRST - 2;
const BAD_CAPTURE: i32 = -(1 << 24);

impl<O: Observer> Worker<'_, O> {
    /// Orders the moves of a node: hash move, captures (losing ones last when SEE is on),
    /// killers, countermove, then quiet moves by history (or as configured for the lab).
    pub(super) fn order_moves(
        &self,
        pos: &Position,
        legal: &[Move],
        hash_move: PackedMove,
        ply: usize,
        scored: &mut ScoredMoves,
    ) {
        let config = self.search.config;
        let features = self.features;
        if !matches!(config.order, ordering::MoveOrder::MvvLva) {
            *scored = ordering::score_moves(legal, config.order, hash_move, pos.key(), |_| 0);
            return;
        }
        let side = pos.turn() as usize;
        let killers = self.plies[ply].killers;
        let previous = self.plies[ply - 1].current;
        let countermove = if features.countermove && previous != 0 && previous != NULL_MOVE {
            self.countermoves[usize::from(previous & 0xfff)]
        } else {
            0
        };
        scored.clear();
        for &mv in legal {
            let packed = tt::pack_move(mv);
            let score = if packed == hash_move {
                i32::MAX
            } else if is_tactical(mv) {
                let mvv_lva = ordering::mvv_lva_score(mv);
                if !features.see || see_non_negative(pos, mv) {
                    GOOD_CAPTURE + mvv_lva
                } else {
                    BAD_CAPTURE + mvv_lva
                }
            } else if features.killers && packed == killers[0] {
                KILLER_FIRST
            } else if features.killers && packed == killers[1] {
                KILLER_SECOND
            } else if packed == countermove {
                COUNTERMOVE
            } else if features.history {
                self.history[side][usize::from(packed & 0xfff)]
            } else {
                0
            };
            scored.push(ScoredMove { mv, score });
        }
    }

    /// The reduction for a late quiet move, from the log table adjusted by node type,
    /// improvement, killers and history.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn late_move_reduction(
        &self,
        depth: i32,
        searched: usize,
        pv_node: bool,
        improving: bool,
        cut_node: bool,
        side: Color,
        packed: PackedMove,
        ply: usize,
    ) -> i32 {
        let mut reduction =
            i32::from(self.reductions[(depth as usize).min(MAX_PLY)][searched.min(63)]);
        if pv_node {
            reduction -= 1;
        }
        if !improving {
            reduction += 1;
        }
        if cut_node {
            reduction += 1;
        }
        if self.plies[ply].killers.contains(&packed) {
            reduction -= 1;
        }
        if self.features.history {
            reduction -= self.history[side as usize][usize::from(packed & 0xfff)]
                / params::LMR_HISTORY_DIVISOR;
        }
        reduction
    }

    /// A quiet move caused a cut-off: remember it as a killer and countermove, raise its
    /// history and lower that of the quiet moves tried before it.
    pub(super) fn reward_quiet(
        &mut self,
        side: Color,
        packed: PackedMove,
        tried: &[PackedMove],
        depth: i32,
        ply: usize,
    ) {
        let features = self.features;
        if features.killers && self.plies[ply].killers[0] != packed {
            self.plies[ply].killers[1] = self.plies[ply].killers[0];
            self.plies[ply].killers[0] = packed;
        }
        let previous = self.plies[ply - 1].current;
        if features.countermove && previous != 0 && previous != NULL_MOVE {
            self.countermoves[usize::from(previous & 0xfff)] = packed;
        }
        if features.history {
            let bonus = params::history_bonus(depth);
            let table = &mut self.history[side as usize];
            apply_history(&mut table[usize::from(packed & 0xfff)], bonus);
            for &other in tried {
                apply_history(&mut table[usize::from(other & 0xfff)], -bonus);
            }
        }
    }
}

/// History update with gravity: values stay within `±HISTORY_MAX` and recent results weigh
/// more than old ones.
#[inline]
fn apply_history(entry: &mut i32, bonus: i32) {
    *entry += bonus - *entry * bonus.abs() / params::HISTORY_MAX;
}
