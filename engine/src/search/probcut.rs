//! ProbCut: at a node expected to fail high, a capture that wins enough material is tried
//! first with a quiescence check and then with a search `params::probcut_reduction` plies
//! shallower, against a null window `params::probcut_margin` above beta. If it holds, the
//! full-depth search would almost surely fail high as well, and the node is cut with a stored lower bound.
//! Called from step 8b of `Worker::node` (pruning.rs) when the `probcut` switch is on.

use super::alphabeta::Node;
use super::history;
use super::movepick::MovePicker;
use super::observer::{Observer, Technique};
use super::params;
use super::score;
use super::tt::{self, Bound, TtEntry};
use super::worker::Worker;
use crate::eval::Value;
use crate::position::Position;

impl<O: Observer> Worker<'_, O> {
    /// ProbCut's capture loop: captures and promotions whose static exchange can lift the
    /// node's corrected static evaluation to `probcut_beta`, each checked by quiescence and
    /// then by a search `params::probcut_reduction` plies shallower against the null window
    /// at `probcut_beta`. The first that holds is stored (with the raw evaluation) as a lower
    /// bound and its value returned.
    pub(super) fn probcut(
        &mut self,
        pos: &Position,
        node: &Node,
        probcut_beta: Value,
    ) -> Option<Value> {
        let (depth, ply, cut_node) = (node.depth, node.ply, node.cut_node);
        let (static_eval, raw_eval) = (node.static_eval, node.raw_eval);
        let mut picker = MovePicker::probcut(probcut_beta - static_eval);
        let mut child = pos.clone();
        let probe_depth = depth - params::probcut_reduction();
        while let Some(mv) = picker.next_lazy(pos, || self.ordering(ply, None)) {
            let changes = pos.play_into(mv, &mut child);
            self.made_move(ply + 1, &changes);
            self.keys.push(child.key());
            self.plies[ply].current = tt::pack_move(mv);
            self.plies[ply].moved = history::piece_to(pos.turn(), mv);
            let mut value = -self.quiesce(&child, -probcut_beta, -probcut_beta + 1, ply + 1);
            if value >= probcut_beta && !self.aborted {
                value = -self.negamax(
                    &child,
                    probe_depth,
                    -probcut_beta,
                    -probcut_beta + 1,
                    ply + 1,
                    !cut_node,
                );
            }
            self.keys.pop();
            if self.aborted {
                return None;
            }
            if value >= probcut_beta {
                self.stats.cutoffs += 1;
                self.observer.technique(
                    ply,
                    Technique::ProbCut {
                        mv,
                        value,
                        bound: probcut_beta,
                    },
                );
                if self.switches().hash_move {
                    self.search.tt.store(
                        pos.key(),
                        TtEntry {
                            mv: tt::pack_move(mv),
                            score: score::to_tt(value, ply),
                            eval: raw_eval,
                            depth: probe_depth + params::probcut_store_depth(),
                            bound: Bound::Lower,
                        },
                    );
                }
                return Some(value);
            }
        }
        None
    }
}
