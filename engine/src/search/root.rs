//! Iterations at the root: aspiration windows around the previous score, then every root move
//! searched in turn, principal variation search after the first. With MultiPV the lines are
//! searched one after the other, each among the root moves the better lines left. With
//! several threads, root moves another thread is busy with come last (see `abdada.rs`).

use super::observer::{Observer, Technique};
use super::params;
use super::score::{self, INFINITY};
use super::tt::Bound;
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
}
