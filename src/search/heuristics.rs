//! Move ordering inside the tree and what the search learns for it: killer moves, the
//! countermove table, the history heuristic, the continuation history (a quiet move scored by
//! the moves one and two plies before it) and the capture history, plus the late-move
//! reduction amount that the histories adjust, and the correction history, which corrects the
//! static evaluation by what searches of the same pawn structure found.
//!
//! Order at a node: hash move, captures that do not lose material (MVV-LVA, then capture
//! history), the two killers, the countermove, quiet moves by history plus continuation
//! history, then losing captures. The lab's orders (`MoveOrder`) bypass all of this.

use shakmaty::{Board, Color, Move};

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

/// Rows of the continuation and capture histories: 0 (no move) and 12 pieces x 64 squares.
pub(super) const PIECE_TO: usize = 1 + 12 * 64;
/// Entries per side of the correction history (a power of two).
pub(super) const CORRECTION_SIZE: usize = 1 << 14;
/// Correction history: units per centipawn.
const CORRECTION_GRAIN: i32 = 256;
/// Correction history: largest correction, in centipawns.
const CORRECTION_MAX: i32 = 64;

/// The continuation-history index of `mv` played by `us`: the moving piece and the target
/// square, 1..=768 (0 stands for no move).
#[inline]
pub(super) fn piece_to(us: Color, mv: Move) -> u16 {
    let piece = us as u16 * 6 + mv.role() as u16 - 1;
    1 + piece * 64 + mv.to() as u16
}

/// Index of the pawn structure in the correction history.
#[inline]
fn pawn_index(board: &Board) -> usize {
    let pawns = board.pawns();
    let white = (pawns & board.white()).0;
    let black = (pawns & board.black()).0;
    let hash =
        white.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ black.wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
    (hash.rotate_left(32).wrapping_mul(0x1656_67b1_9e37_79f9) >> 50) as usize
        & (CORRECTION_SIZE - 1)
}

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
            self.learned.countermoves[usize::from(previous & 0xfff)]
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
                    mvv_lva = mvv_lva * MVV_LVA_WEIGHT
                        + i32::from(self.learned.captures[capture_index(us, mv)]) / 2;
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
            self.learned.history[side as usize][usize::from(packed & 0xfff)]
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
                usize::from(self.plies[ply - back].moved) * PIECE_TO
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
            .map(|&row| i32::from(self.learned.continuation[row + usize::from(index)]))
            .sum()
    }

    /// A capture (or promotion) caused a cut-off: raise its capture history and lower that of
    /// the captures tried before it.
    pub(super) fn reward_capture(&mut self, us: Color, mv: Move, tried: &[Move], depth: i32) {
        if !self.features.capture_history {
            return;
        }
        let bonus = params::history_bonus(depth);
        apply_history16(&mut self.learned.captures[capture_index(us, mv)], bonus);
        for &other in tried {
            apply_history16(&mut self.learned.captures[capture_index(us, other)], -bonus);
        }
    }

    /// A quiet move caused a cut-off: lower the capture history of the captures tried before.
    pub(super) fn punish_captures(&mut self, us: Color, tried: &[Move], depth: i32) {
        if !self.features.capture_history {
            return;
        }
        let bonus = params::history_bonus(depth);
        for &other in tried {
            apply_history16(&mut self.learned.captures[capture_index(us, other)], -bonus);
        }
    }

    /// The static evaluation corrected by the correction history of its pawn structure.
    #[inline]
    pub(super) fn corrected_eval(&self, pos: &Position, raw: Value) -> Value {
        if !self.features.correction_history || score::is_decisive(raw) {
            return raw;
        }
        let entry = self.learned.correction[correction_index(pos)];
        (raw + entry / CORRECTION_GRAIN).clamp(-score::TB_WIN_BOUND + 1, score::TB_WIN_BOUND - 1)
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
        let index = correction_index(pos);
        let entry = &mut self.learned.correction[index];
        let weight = (depth + 1).min(16);
        let target = (best - static_eval) * CORRECTION_GRAIN;
        let limit = CORRECTION_MAX * CORRECTION_GRAIN;
        *entry = ((*entry * (256 - weight) + target * weight) / 256).clamp(-limit, limit);
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
            self.learned.countermoves[usize::from(previous & 0xfff)] = packed;
        }
        let bonus = params::history_bonus(depth);
        if features.history {
            let table = &mut self.learned.history[side as usize];
            apply_history(&mut table[usize::from(packed & 0xfff)], bonus);
            for &(other, _) in tried {
                apply_history(&mut table[usize::from(other & 0xfff)], -bonus);
            }
        }
        if let Some(rows) = self.continuation_rows(ply) {
            for row in rows.into_iter().filter(|&row| row != 0) {
                apply_history16(
                    &mut self.learned.continuation[row + usize::from(moved)],
                    bonus,
                );
                for &(_, other) in tried {
                    apply_history16(
                        &mut self.learned.continuation[row + usize::from(other)],
                        -bonus,
                    );
                }
            }
        }
    }
}

/// The capture-history index of a capture or promotion by `us`.
#[inline]
fn capture_index(us: Color, mv: Move) -> usize {
    usize::from(piece_to(us, mv)) * 8 + mv.capture().map_or(0, |role| role as usize)
}

/// The correction-history index of the position's side to move and pawn structure.
#[inline]
fn correction_index(pos: &Position) -> usize {
    pos.turn() as usize * CORRECTION_SIZE + pawn_index(pos.board())
}

/// `apply_history` for the 16-bit tables.
#[inline]
fn apply_history16(entry: &mut i16, bonus: i32) {
    let mut value = i32::from(*entry);
    apply_history(&mut value, bonus);
    *entry = value as i16;
}

/// History update with gravity: values stay within `±HISTORY_MAX` and recent results weigh
/// more than old ones.
#[inline]
fn apply_history(entry: &mut i32, bonus: i32) {
    *entry += bonus - *entry * bonus.abs() / params::HISTORY_MAX;
}
