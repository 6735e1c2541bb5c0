//! Quiescence search: at the horizon, resolve captures and promotions until the position is
//! quiet, so that the static evaluation never judges a position in the middle of an exchange.
//!
//! The side to move may stand pat (decline every capture) unless it is in check; in check
//! every evasion is searched, so a mated side scores as mated. Losing captures (by SEE) and
//! captures that cannot reach alpha (delta pruning) are skipped when those features are on.
//! The transposition table serves quiescence as it serves the main search (with the same
//! switches): a stored bound that settles a non-PV node answers it, a stored static
//! evaluation saves computing it, and every node stores its result at depth 0.

use super::history;
use super::movepick::MovePicker;
use super::observer::Observer;
use super::params;
use super::score::{self, DRAW, INFINITY, MAX_PLY, mated_in};
use super::see::{self, see_non_negative};
use super::tt::{self, Bound, TtEntry};
use super::worker::Worker;
use crate::eval::{self, Evaluation, Value};
use crate::position::Position;

impl<O: Observer> Worker<'_, O> {
    /// Quiescence search of a node entered from the main search (already counted there).
    pub(super) fn quiesce_node(
        &mut self,
        pos: &Position,
        mut alpha: Value,
        beta: Value,
        ply: usize,
    ) -> Value {
        self.stats.qnodes += 1;
        self.seldepth = self.seldepth.max(ply);
        let features = self.features;
        let switches = self.switches();
        let in_check = pos.is_check();
        let original_alpha = alpha;

        // The table: a stored bound that settles this node answers it (any stored depth
        // reaches the horizon; not at PV nodes, so the line stays whole), and a stored
        // static evaluation saves computing it.
        let mut tt_eval = None;
        if switches.hash_move
            && let Some(entry) = self.search.tt.probe(pos.key())
        {
            self.stats.tt_hits += 1;
            let stored = score::from_tt(entry.score, ply);
            if switches.tt_cutoffs && beta - alpha == 1 && entry.bound.cuts(stored, alpha, beta) {
                self.stats.tt_cutoffs += 1;
                return stored;
            }
            tt_eval = Some(entry.eval);
        }

        let mut best = -INFINITY;
        let mut stand_pat = -INFINITY;
        let mut raw_eval = 0;
        if !in_check {
            // Lazy evaluation: far above beta on material alone, the positional terms will
            // not bring the score back down; stand pat on the material (through the endgame
            // knowledge, so that a drawn ending is not taken for its material).
            if features.lazy_eval && self.search.config.eval == Evaluation::Positional {
                let material = eval::endgame::adjust(pos.board(), pos.turn(), eval::evaluate(pos));
                if material - params::lazy_eval_margin() >= beta {
                    return material;
                }
            }
            // Stand pat: the side to move may decline every capture. (A stalemate scored by
            // stand pat here is the usual price of not generating moves first.)
            raw_eval = tt_eval.unwrap_or_else(|| self.evaluate(pos, ply));
            let keys = self.correction_keys(pos, ply);
            stand_pat = self.corrected_eval(raw_eval, keys.as_ref());
            best = stand_pat;
            if best >= beta || ply >= MAX_PLY - 1 {
                return best;
            }
            alpha = alpha.max(best);
        }

        // In check every evasion is searched and standing pat is not allowed: a mated side
        // must score as mated, not as its material. Otherwise only captures and promotions,
        // generated without the quiet moves, by MVV-LVA (the picker's quiescence mode).
        let mut picker = MovePicker::quiescence();
        let mut child = pos.clone();
        let mut best_move = 0;
        while let Some(mv) = picker.next_lazy(pos, || self.ordering(ply, None)) {
            if !in_check {
                // Delta pruning: even winning this piece cannot reach alpha.
                if features.futility
                    && mv.promotion().is_none()
                    && stand_pat + mv.capture().map_or(0, see::value) + params::delta_margin()
                        <= alpha
                {
                    continue;
                }
                // Captures that lose material are not worth resolving.
                if features.see && !see_non_negative(pos, mv) {
                    continue;
                }
            }
            let changes = pos.play_into(mv, &mut child);
            self.made_move(ply + 1, &changes);
            // The move, for the correction history's keys below.
            self.plies[ply].moved = history::piece_to(pos.turn(), mv);
            let score = -self.quiesce(&child, -beta, -alpha, ply + 1);
            if self.aborted {
                return DRAW;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = tt::pack_move(mv);
                }
                if score >= beta {
                    break;
                }
            }
        }
        if in_check && picker.yielded() == 0 {
            return mated_in(ply);
        }
        // Store the result at depth 0 with its bound (a deeper entry of this search is
        // kept: `TranspositionTable::store`).
        if switches.hash_move {
            let bound = Bound::of(best, original_alpha, beta);
            self.search.tt.store(
                pos.key(),
                TtEntry {
                    mv: best_move,
                    score: score::to_tt(best, ply),
                    eval: if in_check { 0 } else { raw_eval },
                    depth: 0,
                    bound,
                },
            );
        }
        best
    }

    /// Quiescence search of a node below the horizon.
    pub(super) fn quiesce(
        &mut self,
        pos: &Position,
        alpha: Value,
        beta: Value,
        ply: usize,
    ) -> Value {
        self.stats.nodes += 1;
        if self.poll_abort() {
            return DRAW;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(pos, ply);
        }
        self.quiesce_node(pos, alpha, beta, ply)
    }
}

#[cfg(test)]
mod tests;
