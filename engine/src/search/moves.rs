//! Step 11 of `Worker::node` (alphabeta.rs): the move loop, for the root and every node
//! below it. The moves come from the picker (movepick.rs: the hash move, good captures,
//! killers, countermove, quiet moves by history, losing captures, each stage prepared when
//! reached; or, for the lab's orders, every move scored at once), or at the root from the
//! iteration's root moves. Each move passes the per-move pruning (pruning.rs), Lazy SMP's
//! claim, and is searched with its extension, reduction and window (`search_move`); the
//! best one raises alpha, and one that reaches beta cuts the node and teaches the histories.

use arrayvec::ArrayVec;

use shakmaty::Move;

use super::abdada::{Claim, Mark};
use super::alphabeta::Node;
use super::history;
use super::lmr::{self, LateMove};
use super::movepick::MoveOrder;
use super::movepick::MovePicker;
use super::observer::{LeafKind, Observer, Technique};
use super::params;
use super::pruning::{Candidate, Skip};
use super::score::{DRAW, INFINITY, mated_in};
use super::tt::{self, PackedMove};
use super::worker::Worker;
use crate::eval::Value;
use crate::position::{Position, is_tactical};

/// Where the move loop stands in its moves besides the picker: the next root move, and the
/// moves put off because another thread is searching them (Lazy SMP only), which come
/// after all the others, when their results are likely in the table.
struct Cursor {
    next: usize,
    deferred: ArrayVec<Move, 64>,
    revisited: usize,
}

/// The moves searched at a node that did not cut it: what the histories punish when a later
/// move cuts (quiet moves with their piece and square, captures by their history index).
#[derive(Default)]
struct Tried {
    quiets: ArrayVec<(PackedMove, u16), 64>,
    captures: ArrayVec<usize, 32>,
}

/// One move of the loop.
#[derive(Clone, Copy)]
struct Next {
    mv: Move,
    /// Its index among the root moves (0 below the root).
    index: usize,
    /// A deferred move, searched at last.
    revisiting: bool,
}

impl<O: Observer> Worker<'_, O> {
    /// Step 11: searches the moves of `node`, raising `node.alpha` and `node.best`; returns
    /// the best move (none when every move failed low or the search was aborted), or the
    /// node's value when it has no move at all (checkmate or stalemate).
    #[inline(always)]
    pub(super) fn search_moves<const ROOT: bool>(
        &mut self,
        pos: &Position,
        node: &mut Node,
    ) -> Result<Option<Move>, Value> {
        let ply = node.ply;
        let mut picker = self.picker::<ROOT>(pos, node);
        let rows = if ROOT {
            None
        } else {
            self.continuation_rows(ply)
        };
        // One buffer for every child: copy-make writes into it instead of returning a copy.
        let mut child = pos.clone();
        // The node's check squares, computed when futility pruning first asks.
        let mut check_info = None;
        // At a null-window node alpha never moves (a score above it is a cut-off), so
        // futility's condition for the whole node holds for every later move, and the
        // picker may leave those moves out instead of yielding each to be pruned, unless an
        // observer is to see each of them.
        let futile_node = !ROOT && !O::SEES_EVERY_PRUNED_MOVE && self.futile(node);
        let defer = node.depth >= params::abdada_defer_depth() && self.shared.searching.is_on();
        let mut cursor = Cursor {
            next: self.pv_index,
            deferred: ArrayVec::new(),
            revisited: 0,
        };
        let mut best_move = None;
        let mut tried = Tried::default();
        let mut searched = 0usize;
        while let Some(next) = self.next_move::<ROOT>(pos, ply, &mut picker, &mut cursor, rows) {
            let mv = next.mv;
            let is_quiet = !is_tactical(mv);
            let packed = tt::pack_move(mv);
            let moved = history::piece_to(pos.turn(), mv);
            let candidate = Candidate {
                mv,
                quiet: is_quiet,
                revisiting: next.revisiting,
                searched,
                quiets_tried: tried.quiets.len(),
            };
            if !ROOT
                && let Some(skip) = self.prune_move(pos, node, candidate, || {
                    check_info
                        .get_or_insert_with(|| pos.check_info())
                        .is_some_and(|info| !pos.gives_check(mv, &info))
                })
            {
                if skip == Skip::Quiets {
                    picker.skip_quiets();
                }
                continue;
            }

            let changes = pos.play_into(mv, &mut child);
            self.made_move(ply + 1, &changes);
            self.search.tt.prefetch(child.key());
            // The first move is neither put off nor marked: every thread searches it (it sets
            // the bound for the rest). The others are put off at most once.
            let may_defer = !next.revisiting && !cursor.deferred.is_full();
            let Some(mark) = self.claim(defer && searched > 0, child.key(), may_defer) else {
                cursor.deferred.push(mv);
                continue;
            };
            if ROOT {
                self.observer.root_move(node.depth, mv, next.index + 1);
            }
            let nodes_before = self.stats.nodes;
            self.keys.push(child.key());
            self.plies[ply].current = packed;
            self.plies[ply].moved = moved;
            let score = self.search_move::<ROOT>(node, &child, mv, searched, rows, mark);
            self.keys.pop();
            if self.aborted {
                return Ok(None);
            }
            searched += 1;
            if futile_node
                && searched == 1
                && let Some(info) = *check_info.get_or_insert_with(|| pos.check_info())
            {
                picker.quiets_giving_check_only(info);
            }
            if ROOT {
                let root_move = &mut self.root_moves[next.index];
                root_move.score = score;
                root_move.nodes += self.stats.nodes - nodes_before;
            }

            if score > node.best {
                best_move = Some(mv);
                if self.take_score::<ROOT>(pos, node, next, score, searched, &tried) {
                    break;
                }
            }
            if !ROOT && is_quiet {
                let _ = tried.quiets.try_push((packed, moved));
            } else if !ROOT && self.features.capture_history {
                let _ = tried
                    .captures
                    .try_push(history::capture_index(pos.turn(), mv));
            }
        }
        if ROOT {
            return Ok(best_move);
        }

        self.count_moves(pos, node, &picker)?;
        Ok(best_move)
    }

    /// A move's `score` better than the node's best so far: it becomes the best; above alpha
    /// it raises alpha and leads the line (at the root, the root moves' order); at or above
    /// beta it cuts the node (below the root the histories learn). Returns whether it cut.
    #[inline(always)]
    fn take_score<const ROOT: bool>(
        &mut self,
        pos: &Position,
        node: &mut Node,
        next: Next,
        score: Value,
        searched: usize,
        tried: &Tried,
    ) -> bool {
        let ply = node.ply;
        node.best = score;
        self.observer.improved(ply, score);
        if score > node.alpha {
            node.alpha = score;
            self.observer.alpha_raised(ply, score);
            if ROOT {
                self.new_root_best(next.index);
            } else {
                self.update_pv(ply, next.mv);
            }
        }
        if !self.switches().pruning || score < node.beta {
            return false;
        }
        self.observer.cutoff(pos, ply, searched);
        if !ROOT {
            self.learn_from_cutoff(pos, node, next.mv, searched, tried);
        }
        true
    }

    /// A cut-off below the root by `mv`, the `searched`-th move: counted, and the histories
    /// learn (a bonus for the move that cut, a malus for the quiet moves or the captures
    /// tried before it).
    #[inline(always)]
    fn learn_from_cutoff(
        &mut self,
        pos: &Position,
        node: &Node,
        mv: Move,
        searched: usize,
        tried: &Tried,
    ) {
        self.stats.cutoffs += 1;
        self.stats.first_move_cutoffs += u64::from(searched == 1);
        if is_tactical(mv) {
            let capture =
                (self.features.capture_history).then(|| history::capture_index(pos.turn(), mv));
            self.reward_captures(capture, &tried.captures, node.depth);
        } else {
            let (packed, moved) = (tt::pack_move(mv), history::piece_to(pos.turn(), mv));
            self.reward_quiet(
                pos.turn(),
                packed,
                moved,
                &tried.quiets,
                node.depth,
                node.ply,
            );
            self.reward_captures(None, &tried.captures, node.depth);
        }
    }

    /// After the move loop below the root: no move at all is checkmate or stalemate (the
    /// node's value); otherwise the node counts as interior, with its number of legal moves
    /// when the picker generated them all, or when the configuration asks for it (the search
    /// lab's branching factor).
    #[inline(always)]
    fn count_moves(
        &mut self,
        pos: &Position,
        node: &Node,
        picker: &MovePicker,
    ) -> Result<(), Value> {
        if picker.yielded() == 0 {
            self.stats.leaves += 1;
            let value = if node.in_check {
                mated_in(node.ply)
            } else {
                DRAW
            };
            self.observer.leaf(node.ply, value, LeafKind::NoMoves);
            return Err(value);
        }
        self.stats.interior += 1;
        let count_legal_moves = self.switches().count_legal_moves;
        if let Some(legal) = picker
            .legal()
            .or_else(|| count_legal_moves.then(|| pos.legal_moves().len()))
        {
            self.stats.legal_moves += legal as u64;
        }
        Ok(())
    }

    /// The move picker of a node (at the root an empty one: its moves are the root moves).
    #[inline(always)]
    fn picker<const ROOT: bool>(&self, pos: &Position, node: &Node) -> MovePicker {
        let order = self.switches().order;
        if ROOT || matches!(order, MoveOrder::Staged) {
            MovePicker::main(node.staged_hash, node.excluded, node.in_check)
        } else {
            MovePicker::lab(
                &pos.legal_moves(),
                order,
                node.hash_move,
                pos.key(),
                node.excluded,
            )
        }
    }

    /// The next move of the loop: from the picker, or the root moves in order from the
    /// line's index; then the moves put off by Lazy SMP (at the root located again by
    /// identity, because moves that raise alpha meanwhile rotate the list).
    #[inline(always)]
    fn next_move<const ROOT: bool>(
        &self,
        pos: &Position,
        ply: usize,
        picker: &mut MovePicker,
        cursor: &mut Cursor,
        rows: Option<[usize; 2]>,
    ) -> Option<Next> {
        let fresh = if ROOT {
            (cursor.next < self.root_moves.len()).then(|| {
                cursor.next += 1;
                self.root_moves[cursor.next - 1].mv
            })
        } else {
            picker.next_lazy(pos, || self.ordering(ply, rows))
        };
        if let Some(mv) = fresh {
            let index = if ROOT { cursor.next - 1 } else { 0 };
            return Some(Next {
                mv,
                index,
                revisiting: false,
            });
        }
        while cursor.revisited < cursor.deferred.len() {
            let mv = cursor.deferred[cursor.revisited];
            cursor.revisited += 1;
            let index = if ROOT {
                let line = self.pv_index;
                match self.root_moves[line..].iter().position(|r| r.mv == mv) {
                    Some(offset) => line + offset,
                    None => continue,
                }
            } else {
                0
            };
            return Some(Next {
                mv,
                index,
                revisiting: true,
            });
        }
        None
    }

    /// Lazy SMP's claim of a child (`active` once the first move is searched and the node
    /// is deep enough): `None` when another thread is searching it and the move is put off,
    /// else the mark to lift after the search (none when nothing was marked).
    #[inline(always)]
    fn claim(&mut self, active: bool, key: u64, may_defer: bool) -> Option<Option<Mark>> {
        if !active {
            return Some(None);
        }
        match self.shared.searching.claim(key, may_defer) {
            Claim::Defer => {
                self.stats.deferred += 1;
                None
            }
            Claim::Search(mark) => Some(mark),
        }
    }

    /// At the root, a move raised alpha: its line is the new principal variation, and it
    /// moves to the line's index, so the next iteration searches it first.
    fn new_root_best(&mut self, index: usize) {
        let line = self.pv_index;
        if line == 0 {
            self.iteration_has_pv = true;
        }
        let root_move = &mut self.root_moves[index];
        let mv = root_move.mv;
        root_move.pv.clear();
        root_move.pv.push(mv);
        let _ = root_move.pv.try_extend_from_slice(&self.pv[1]);
        self.root_moves[line..=index].rotate_right(1);
    }

    /// The search of one move, its child `child` already made: its extension (check,
    /// singular), then the first move with the full window, the others with a null window
    /// (principal variation search) and, when late and quiet, reduced; searched again when
    /// they beat alpha. The root reduces nothing, and without PVS it searches every move
    /// with the full window.
    #[inline(always)]
    fn search_move<const ROOT: bool>(
        &mut self,
        node: &Node,
        child: &Position,
        mv: Move,
        searched: usize,
        rows: Option<[usize; 2]>,
        mut mark: Option<Mark>,
    ) -> Value {
        let (ply, depth, alpha, beta) = (node.ply, node.depth, node.alpha, node.beta);
        let features = self.features;
        let gives_check = child.is_check();
        let mut extension = i32::from(features.check_extension && gives_check);
        if extension > 0 {
            self.observer
                .technique(ply, Technique::CheckExtension { mv });
        }
        if !ROOT && tt::pack_move(mv) == node.hash_move {
            extension = if node.singular_extension > 0 {
                1
            } else {
                extension + node.singular_extension
            };
        }
        let new_depth = depth - 1 + extension;
        let score = if !self.switches().pruning {
            -self.negamax(child, new_depth, -INFINITY, INFINITY, ply + 1, false)
        } else if searched == 0 || (ROOT && !features.pvs) {
            -self.negamax(child, new_depth, -beta, -alpha, ply + 1, false)
        } else {
            let reduction = if !ROOT
                && features.lmr
                && depth >= params::lmr_min_depth()
                && !is_tactical(mv)
                && !gives_check
                && !node.in_check
            {
                self.late_move_reduction(node, mv, searched, rows)
                    .min(new_depth - 1)
                    .max(0)
            } else {
                0
            };
            // A null window when PVS is on; otherwise the full window.
            let (lo, hi) = if features.pvs {
                (-alpha - 1, -alpha)
            } else {
                (-beta, -alpha)
            };
            if reduction > 0 {
                self.observer
                    .technique(ply, Technique::Reduced { mv, reduction });
            }
            let mut score = -self.negamax(child, new_depth - reduction, lo, hi, ply + 1, true);
            if score > alpha && reduction > 0 && !self.aborted {
                self.observer
                    .technique(ply, Technique::ReducedResearch { mv });
                score = -self.negamax(child, new_depth, lo, hi, ply + 1, !node.cut_node);
            }
            if features.pvs && score > alpha && score < beta && !self.aborted {
                self.observer.technique(ply, Technique::PvsResearch { mv });
                // A new best move: let the other threads join its full-window search.
                self.shared.searching.unmark(mark.take());
                score = -self.negamax(child, new_depth, -beta, -alpha, ply + 1, false);
            }
            score
        };
        self.shared.searching.unmark(mark);
        score
    }

    /// The late-move reduction of the quiet move `mv`, the `searched + 1`-th of its node.
    #[inline(always)]
    fn late_move_reduction(
        &self,
        node: &Node,
        mv: Move,
        searched: usize,
        rows: Option<[usize; 2]>,
    ) -> i32 {
        let packed = tt::pack_move(mv);
        let killers = self.plies[node.ply].killers;
        let (butterfly, continuation) = self.quiet_histories(rows, node.turn, mv);
        let late = LateMove {
            depth: node.depth,
            searched,
            pv_node: node.pv_node,
            improving: node.improving,
            cut_node: node.cut_node,
            killer: killers[0] == packed || killers[1] == packed,
            butterfly,
            continuation,
        };
        lmr::reduction(&self.reductions, &late)
    }
}
