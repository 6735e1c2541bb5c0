//! Iterations at the root: aspiration windows around the previous score, then every root move
//! searched in turn, principal variation search after the first. With MultiPV the lines are
//! searched one after the other, each among the root moves the better lines left. With
//! several threads, root moves another thread is busy with come last (see `abdada.rs`).

use shakmaty::Move;

use super::abdada::Claim;
use super::history;
use super::observer::{Observer, Technique};
use super::params;
use super::score::{self, INFINITY};
use super::tt::{self, Bound, TtEntry};
use super::worker::Worker;
use crate::eval::Value;

impl<O: Observer> Worker<'_, O> {
    /// One iteration for one principal variation: the root moves from `pv_index` on (the
    /// better lines of MultiPV sit before it) searched to `depth`, inside an aspiration
    /// window around the previous score when that feature is on. The best of them ends up at
    /// `pv_index`. Returns its score (meaningless if `aborted`) and its bound.
    pub(super) fn iteration(
        &mut self,
        depth: i32,
        pv_index: usize,
        previous: Option<Value>,
    ) -> (Value, Bound) {
        if pv_index == 0 {
            self.iteration_has_pv = false;
        }
        let Some(previous) = previous.filter(|p| {
            self.features.aspiration
                && depth >= params::aspiration_min_depth()
                && !score::is_mate(*p)
        }) else {
            return (
                self.search_root(depth, pv_index, -INFINITY, INFINITY),
                Bound::Exact,
            );
        };
        let mut delta = params::aspiration_window();
        let mut alpha = (previous - delta).max(-INFINITY);
        let mut beta = (previous + delta).min(INFINITY);
        loop {
            let score = self.search_root(depth, pv_index, alpha, beta);
            if self.aborted {
                let bound = if score >= beta {
                    Bound::Lower
                } else {
                    Bound::Exact
                };
                return (score, bound);
            }
            if score <= alpha || score >= beta {
                self.observer.technique(
                    0,
                    Technique::AspirationFailed {
                        alpha,
                        beta,
                        value: score,
                    },
                );
            }
            if score <= alpha {
                // Fail low: widen downwards, pull beta in.
                let towards = params::aspiration_fail_low_beta();
                beta = (alpha * (100 - towards) + beta * towards) / 100;
                alpha = (score - delta).max(-INFINITY);
            } else if score >= beta {
                beta = (score + delta).min(INFINITY);
            } else {
                return (score, Bound::Exact);
            }
            delta += delta * params::aspiration_widening() / 100;
            if delta > params::aspiration_max_delta() {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    /// Searches the root moves from `pv_index` on to `depth` within `(alpha, beta)`; a move
    /// that raises alpha moves to `pv_index`, so the next iteration searches it first. The
    /// observer sees the root entered with its window and left with its value.
    #[inline(always)]
    pub(super) fn search_root(
        &mut self,
        depth: i32,
        pv_index: usize,
        alpha: Value,
        beta: Value,
    ) -> Value {
        self.observer
            .enter(self.search.position, 0, depth, alpha, beta);
        let value = self.search_root_moves(depth, pv_index, alpha, beta);
        self.observer.leave(0, value);
        value
    }

    fn search_root_moves(
        &mut self,
        depth: i32,
        pv_index: usize,
        mut alpha: Value,
        beta: Value,
    ) -> Value {
        let root = self.search.position;
        let config = self.search.config;
        let mut best = -INFINITY;
        self.stats.nodes += 1;
        self.stats.interior += 1;
        self.stats.legal_moves += self.root_moves.len() as u64;
        self.plies[0].static_eval = if root.is_check() {
            -INFINITY
        } else {
            self.evaluate(root, 0)
        };
        // With several threads, a root move another thread is searching waits for the end
        // (as in the tree, `alphabeta.rs`); it is located again by identity, because moves
        // that raise alpha meanwhile rotate the list.
        let defer = self.shared.searching.is_on() && depth >= params::abdada_defer_depth();
        let mut deferred: Vec<Move> = Vec::new();
        let mut next = pv_index;
        let mut revisited = 0;
        let mut searched = 0;
        loop {
            let mut revisiting = false;
            let index = if next < self.root_moves.len() {
                next += 1;
                next - 1
            } else if revisited < deferred.len() {
                revisited += 1;
                revisiting = true;
                let mv = deferred[revisited - 1];
                match self.root_moves[pv_index..].iter().position(|r| r.mv == mv) {
                    Some(offset) => pv_index + offset,
                    None => continue,
                }
            } else {
                break;
            };
            let mv = self.root_moves[index].mv;
            let mut child = root.clone();
            let changes = root.play_into(mv, &mut child);
            self.made_move(1, &changes);
            let may_defer = !revisiting;
            let mut mark = match (defer && index > pv_index)
                .then(|| self.shared.searching.claim(child.key(), may_defer))
            {
                Some(Claim::Defer) => {
                    deferred.push(mv);
                    self.stats.deferred += 1;
                    continue;
                }
                Some(Claim::Search(mark)) => mark,
                None => None,
            };
            self.observer.root_move(depth, mv, index + 1);
            let nodes_before = self.stats.nodes;
            let extension = i32::from(self.features.check_extension && child.is_check());
            let new_depth = depth - 1 + extension;
            self.keys.push(child.key());
            self.plies[0].current = tt::pack_move(mv);
            self.plies[0].moved = history::piece_to(root.turn(), mv);
            let score = if !config.pruning {
                -self.negamax(&child, new_depth, -INFINITY, INFINITY, 1, false)
            } else if index == pv_index || !self.features.pvs {
                -self.negamax(&child, new_depth, -beta, -alpha, 1, false)
            } else {
                let mut score = -self.negamax(&child, new_depth, -alpha - 1, -alpha, 1, true);
                if score > alpha && score < beta && !self.aborted {
                    self.observer.technique(0, Technique::PvsResearch { mv });
                    self.shared.searching.unmark(mark.take());
                    score = -self.negamax(&child, new_depth, -beta, -alpha, 1, false);
                }
                score
            };
            self.keys.pop();
            self.shared.searching.unmark(mark);
            if self.aborted {
                break;
            }
            searched += 1;
            let root_move = &mut self.root_moves[index];
            root_move.score = score;
            root_move.nodes += self.stats.nodes - nodes_before;
            if score > best {
                best = score;
                self.observer.improved(0, score);
            }
            if score > alpha {
                alpha = score;
                self.observer.alpha_raised(0, alpha);
                if pv_index == 0 {
                    self.iteration_has_pv = true;
                }
                root_move.pv.clear();
                root_move.pv.push(mv);
                let _ = root_move.pv.try_extend_from_slice(&self.pv[1]);
                self.root_moves[pv_index..=index].rotate_right(1);
                if config.pruning && score >= beta {
                    self.observer.cutoff(root, 0, searched);
                    break;
                }
            }
        }
        if self.search.config.hash_move && !self.aborted && pv_index == 0 {
            let best_move = self.root_moves[0].mv;
            self.search.tt.store(
                root.key(),
                TtEntry {
                    mv: tt::pack_move(best_move),
                    score: score::to_tt(best, 0),
                    eval: 0,
                    depth,
                    bound: Bound::Exact,
                },
            );
        }
        best
    }
}
