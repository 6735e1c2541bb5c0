//! Move ordering inside the tree and what the search learns for it: killer moves, the
//! countermove table, the history heuristic, the continuation history (a quiet move scored by
//! the moves one and two plies before it) and the capture history, plus the late-move
//! reduction amount that the histories adjust, and the correction history, which corrects the
//! static evaluation by what searches of the same pawn structure found.
//!
//! Order at a node: hash move, captures that do not lose material (MVV-LVA, then capture
//! history), the two killers, the countermove, quiet moves by history plus continuation
//! history, then losing captures. The lab's orders (`MoveOrder`) bypass all of this.

use shakmaty::{Color, Move};

use super::history::{ContinuationHistory, piece_to};
use super::observer::Observer;
use super::ordering::{self, ScoredMove, ScoredMoves, is_tactical};
use super::params;
use super::score::{self, MAX_PLY};
use super::see::see_non_negative;
use super::tt::{self, PackedMove};
use super::worker::{NULL_MOVE, Worker};
use crate::eval::Value;
use crate::position::Position;

/// Ordering score bands (higher is tried earlier), below the hash move.
const GOOD_CAPTURE: i32 = 1 << 24;
const KILLER_FIRST: i32 = 1 << 22;
const KILLER_SECOND: i32 = KILLER_FIRST - 1;
const COUNTERMOVE: i32 = KILLER_FIRST - 2;
const BAD_CAPTURE: i32 = -(1 << 24);
/// Capture ordering: MVV-LVA points weigh this much against capture history.
const MVV_LVA_WEIGHT: i32 = 1024;

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
        let us = pos.turn();
        let continuation = self.continuation_rows(ply);
        let killers = self.plies[ply].killers;
        let previous = self.plies[ply - 1].current;
        let countermove = if features.countermove && previous != 0 && previous != NULL_MOVE {
            self.learned.countermoves.get(usize::from(previous))
        } else {
            0
        };
        scored.clear();
        for &mv in legal {
            let packed = tt::pack_move(mv);
            let score = if packed == hash_move {
                i32::MAX
            } else if is_tactical(mv) {
                let mut mvv_lva = ordering::mvv_lva_score(mv);
                if features.capture_history {
                    mvv_lva = mvv_lva * MVV_LVA_WEIGHT + self.learned.captures.get(us, mv) / 2;
                }
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
            } else {
                let (butterfly, continuation) = self.quiet_histories(us, mv, packed, continuation);
                butterfly + continuation
            };
            scored.push(ScoredMove { mv, score });
        }
    }

    /// What the histories say of a quiet move: its butterfly history plus its continuation
    /// history after the moves one and two plies before (each where its switch is on).
    pub(super) fn quiet_history(
        &self,
        side: Color,
        mv: Move,
        packed: PackedMove,
        ply: usize,
    ) -> i32 {
        let (butterfly, continuation) =
            self.quiet_histories(side, mv, packed, self.continuation_rows(ply));
        butterfly + continuation
    }

    /// The butterfly and the continuation history of a quiet move (0 where a switch is off),
    /// apart: ordering adds them, late move reductions weigh the continuation half.
    #[inline]
    fn quiet_histories(
        &self,
        side: Color,
        mv: Move,
        packed: PackedMove,
        rows: Option<[usize; 2]>,
    ) -> (i32, i32) {
        let butterfly = if self.features.history {
            self.learned.butterfly.get(side, usize::from(packed))
        } else {
            0
        };
        let continuation = rows.map_or(0, |rows| self.continuation_score(rows, piece_to(side, mv)));
        (butterfly, continuation)
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
        mv: Move,
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
        let (butterfly, continuation) =
            self.quiet_histories(side, mv, packed, self.continuation_rows(ply));
        let history = butterfly + continuation / 2;
        reduction - history / params::LMR_HISTORY_DIVISOR
    }

    /// The continuation-history rows of the moves one and two plies before the node at `ply`
    /// (0 where there is none), or `None` when the feature is off.
    #[inline]
    fn continuation_rows(&self, ply: usize) -> Option<[usize; 2]> {
        if !self.features.continuation_history {
            return None;
        }
        let row = |back: usize| {
            if ply >= back {
                ContinuationHistory::row(self.plies[ply - back].moved)
            } else {
                0
            }
        };
        Some([row(1), row(2)])
    }

    #[inline]
    fn continuation_score(&self, rows: [usize; 2], index: u16) -> i32 {
        rows.iter()
            .filter(|&&row| row != 0)
            .map(|&row| self.learned.continuation.get(row, index))
            .sum()
    }

    /// A capture (or promotion) caused a cut-off: raise its capture history and lower that of
    /// the captures tried before it.
    pub(super) fn reward_capture(&mut self, us: Color, mv: Move, tried: &[Move], depth: i32) {
        if !self.features.capture_history {
            return;
        }
        let bonus = params::history_bonus(depth);
        self.learned.captures.update(us, mv, bonus);
        for &other in tried {
            self.learned.captures.update(us, other, -bonus);
        }
    }

    /// A quiet move caused a cut-off: lower the capture history of the captures tried before.
    pub(super) fn punish_captures(&mut self, us: Color, tried: &[Move], depth: i32) {
        if !self.features.capture_history {
            return;
        }
        let bonus = params::history_bonus(depth);
        for &other in tried {
            self.learned.captures.update(us, other, -bonus);
        }
    }

    /// The static evaluation corrected by the correction history of its pawn structure.
    #[inline]
    pub(super) fn corrected_eval(&self, pos: &Position, raw: Value) -> Value {
        if !self.features.correction_history || score::is_decisive(raw) {
            return raw;
        }
        let correction = self.learned.correction.get(pos.board(), pos.turn());
        (raw + correction).clamp(-score::TB_WIN_BOUND + 1, score::TB_WIN_BOUND - 1)
    }

    /// A node searched to `depth` found `best` where the corrected static evaluation said
    /// `static_eval`: move the correction of its pawn structure towards the difference.
    pub(super) fn update_correction(
        &mut self,
        pos: &Position,
        depth: i32,
        static_eval: Value,
        best: Value,
    ) {
        if !self.features.correction_history || score::is_decisive(best) {
            return;
        }
        self.learned
            .correction
            .update(pos.board(), pos.turn(), depth, best - static_eval);
    }

    /// A quiet move caused a cut-off: remember it as a killer and countermove, raise its
    /// history and lower that of the quiet moves tried before it.
    pub(super) fn reward_quiet(
        &mut self,
        side: Color,
        packed: PackedMove,
        moved: u16,
        tried: &[(PackedMove, u16)],
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
            self.learned.countermoves.set(usize::from(previous), packed);
        }
        let bonus = params::history_bonus(depth);
        if features.history {
            let table = &mut self.learned.butterfly;
            table.update(side, usize::from(packed), bonus);
            for &(other, _) in tried {
                table.update(side, usize::from(other), -bonus);
            }
        }
        if let Some(rows) = self.continuation_rows(ply) {
            let table = &mut self.learned.continuation;
            for row in rows.into_iter().filter(|&row| row != 0) {
                table.update(row, moved, bonus);
                for &(_, other) in tried {
                    table.update(row, other, -bonus);
                }
            }
        }
    }
}
