//! What the search learns for move ordering and how it reads it: killer moves, the
//! countermove table, the history heuristic, the continuation history (a quiet move scored by
//! the moves one and two plies before it) and the capture history, and the correction
//! history, which corrects the static evaluation by what searches of the same pawn structure
//! found.
//!
//! The order itself is the move picker's (`movepick.rs`); the tables are `history.rs`'s; the
//! late-move reduction the histories adjust is decided in `lmr.rs`.
//! Here the search rewards the move that caused a cut-off and punishes those tried before it.

use shakmaty::{Color, Move};

use super::history::ContinuationHistory;
use super::movepick::OrderingContext;
use super::observer::Observer;
use super::params;
use super::score;
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

    /// What the histories say of a quiet move: its butterfly history plus its continuation
    /// history after the moves one and two plies before (each where its switch is on).
    pub(super) fn quiet_history(&self, side: Color, mv: Move, ply: usize) -> i32 {
        let (butterfly, continuation) = self
            .ordering(ply, self.continuation_rows(ply))
            .quiet_histories(side, mv);
        butterfly + continuation
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

    /// A capture (or promotion) caused a cut-off: raise its capture history and lower that of
    /// the captures tried before it.
    pub(super) fn reward_capture(&mut self, us: Color, mv: Move, tried: &[Move], depth: i32) {
        if !self.features.capture_history {
            return;
        }
        let bonus = params::history_bonus(depth);
        self.learned
            .captures
            .update(us, mv, bonus, params::capture_history_limit());
        for &other in tried {
            self.learned
                .captures
                .update(us, other, -bonus, params::capture_history_limit());
        }
    }

    /// A quiet move caused a cut-off: lower the capture history of the captures tried before.
    pub(super) fn punish_captures(&mut self, us: Color, tried: &[Move], depth: i32) {
        if !self.features.capture_history {
            return;
        }
        let bonus = params::history_bonus(depth);
        for &other in tried {
            self.learned
                .captures
                .update(us, other, -bonus, params::capture_history_limit());
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
        self.learned.correction.update(
            pos.board(),
            pos.turn(),
            depth,
            best - static_eval,
            (params::correction_max(), params::correction_weight_max()),
        );
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
