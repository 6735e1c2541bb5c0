//! What the search learns for move ordering and how it reads it: killer moves, the
//! countermove table, the history heuristic, the continuation history (a quiet move scored by
//! the moves one and two plies before it), the capture history.
//!
//! The order itself is the move picker's (`movepick.rs`); the tables are `history.rs`'s; the
//! late-move reduction the histories adjust is decided in `lmr.rs`.
//! Here the search rewards the move that caused a cut-off and punishes those tried before it.

use shakmaty::{Color, Move};

use super::correction::{CorrectionKeys, Weights};
use super::history::ContinuationHistory;
use super::movepick::OrderingContext;
use super::observer::Observer;
use super::params;
use super::score::{self, TB_WIN_BOUND};
use super::tt::PackedMove;
use super::worker::{NULL_MOVE, Worker};
use crate::eval::Value;
use crate::position::Position;

impl<O: Observer> Worker<'_, O> {
    /// What the move picker reads of this thread for the node at `ply`: the switches, the
    /// histories, the continuation rows `rows`, the killers and the countermove.
    #[inline]
    pub(super) fn ordering(&self, ply: usize, rows: Option<[usize; 2]>) -> OrderingContext<'_> {
        OrderingContext {
            features: self.features,
            histories: &self.learned,
            continuation: rows,
            killers: self.plies[ply].killers,
            countermove: self.countermove(ply),
        }
    }

    /// What the histories say of the quiet move `mv` by `side` after the moves of the
    /// continuation rows `rows` (`OrderingContext::quiet_histories`, without making the
    /// rest of the context: the killers and the countermove).
    #[inline]
    pub(super) fn quiet_histories(
        &self,
        rows: Option<[usize; 2]>,
        side: Color,
        mv: Move,
    ) -> (i32, i32) {
        OrderingContext {
            features: self.features,
            histories: &self.learned,
            continuation: rows,
            killers: [0; 2],
            countermove: 0,
        }
        .quiet_histories(side, mv)
    }

    /// The countermove of the node at `ply`: the quiet move that last refuted the move
    /// before it (0 for none, or when the switch is off).
    #[inline]
    pub(super) fn countermove(&self, ply: usize) -> PackedMove {
        let previous = self.plies[ply - 1].current;
        if self.features.countermove && previous != 0 && previous != NULL_MOVE {
            self.learned.countermoves.get(usize::from(previous))
        } else {
            0
        }
    }

    /// The continuation-history rows of the moves one and two plies before the node at `ply`
    /// (0 where there is none), or `None` when the feature is off.
    #[inline]
    pub(super) fn continuation_rows(&self, ply: usize) -> Option<[usize; 2]> {
        if !self.features.continuation_history {
            return None;
        }
        let moved = |back: usize| {
            if ply >= back {
                self.plies[ply - back].moved
            } else {
                0
            }
        };
        Some([
            ContinuationHistory::row(moved(1)),
            ContinuationHistory::row(moved(2)),
        ])
    }

    /// The correction-history keys of the node `pos` at `ply`, or `None` when the switch is
    /// off.
    #[inline]
    pub(super) fn correction_keys(&self, pos: &Position, ply: usize) -> Option<CorrectionKeys> {
        if !self.features.correction_history {
            return None;
        }
        let moved = |back: usize| {
            if ply >= back {
                self.plies[ply - back].moved
            } else {
                0
            }
        };
        Some(CorrectionKeys::new(
            pos.board(),
            pos.turn(),
            moved(2),
            moved(1),
        ))
    }

    /// The static evaluation `raw` corrected by the correction history of the node with
    /// `keys` (`raw` itself without keys), kept short of the decisive scores.
    #[inline]
    pub(super) fn corrected_eval(&self, raw: Value, keys: Option<&CorrectionKeys>) -> Value {
        let Some(keys) = keys else {
            return raw;
        };
        let weights = Weights {
            pawn: params::corr_pawn_weight(),
            non_pawn: params::corr_non_pawn_weight(),
            continuation: params::corr_continuation_weight(),
        };
        (raw + self.learned.correction.correction(keys, weights))
            .clamp(-TB_WIN_BOUND + 1, TB_WIN_BOUND - 1)
    }

    /// A node with `keys` searched to `depth` found `best` where its corrected static
    /// evaluation said `static_eval`: the correction moves toward the difference, more the
    /// deeper the search. Not for decisive scores, whose distance to the evaluation says
    /// nothing about its error.
    #[inline]
    pub(super) fn update_correction(
        &mut self,
        keys: &CorrectionKeys,
        depth: i32,
        static_eval: Value,
        best: Value,
    ) {
        if score::is_decisive(best) {
            return;
        }
        let max = params::corr_bonus_max();
        let bonus = ((best - static_eval) * depth / params::corr_bonus_divisor()).clamp(-max, max);
        self.learned.correction.update(keys, bonus);
    }

    /// A move caused a cut-off at `depth`: the capture history rises for it when it is a
    /// capture or promotion (`cut`, its capture index), and falls for the captures and
    /// promotions tried before it (`tried`), which failed to cut where it did.
    pub(super) fn reward_captures(&mut self, cut: Option<usize>, tried: &[usize], depth: i32) {
        if !self.features.capture_history {
            return;
        }
        let bonus = params::history_bonus(depth);
        let limit = params::capture_history_limit();
        let table = &mut self.learned.capture;
        if let Some(index) = cut {
            table.update(index, bonus, limit);
        }
        for &index in tried {
            table.update(index, -bonus, limit);
        }
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
            let limit = params::history_limit();
            table.update(side, usize::from(packed), bonus, limit);
            for &(other, _) in tried {
                table.update(side, usize::from(other), -bonus, limit);
            }
        }
        if let Some(rows) = self.continuation_rows(ply) {
            let table = &mut self.learned.continuation;
            let limit = params::continuation_limit();
            for row in rows {
                table.update(row, moved, bonus, limit);
                for &(_, other) in tried {
                    table.update(row, other, -bonus, limit);
                }
            }
        }
    }
}
