//! Negamax alpha-beta (fail-soft) below the root, run by one `Worker` per thread.
//!
//! Bounds go down, values come up: a node is searched with a window `(alpha, beta)`, each
//! child with the negated window `(-beta, -alpha)`, and its value comes back negated. A move
//! whose value reaches `beta` refutes the opponent's previous move (`score >= beta` is the
//! cut-off) and the rest of the moves are skipped. Fail-soft: the returned value may lie
//! outside the window, which tells the table more than the bound would.
//!
//! The steps of a node, in the order they run, are numbered in `negamax_node`; each selective step
//! is guarded by its switch in `Features`, so that with `Features::NONE` this is plain
//! alpha-beta (the search lab and the alpha-beta = minimax tests rely on that). Nothing here
//! allocates per node: move lists and PV lines live in fixed-size arrays.

use arrayvec::ArrayVec;

use shakmaty::Move;

use super::MoveOrder;
use super::abdada::Claim;
use super::history;
use super::lmr::{self, LateMove};
use super::movepick::MovePicker;
use super::observer::{LeafKind, Observer, Technique};
use super::params;
use super::score::{self, DRAW, INFINITY, MAX_PLY, mate_in, mated_in};
use super::see;
use super::tt::{self, Bound, PackedMove, TtEntry};
use super::worker::{NULL_MOVE, Worker};
use crate::eval::Value;
use crate::position::Position;
use crate::position::is_tactical;

impl<O: Observer> Worker<'_, O> {
    /// The negamax alpha-beta search of one node below the root, as its observer sees it:
    /// entered with its window, left with its value.
    #[inline(always)]
    pub(super) fn negamax(
        &mut self,
        pos: &Position,
        depth: i32,
        alpha: Value,
        beta: Value,
        ply: usize,
        cut_node: bool,
    ) -> Value {
        self.observer.enter(pos, ply, depth, alpha, beta);
        let value = self.negamax_node(pos, depth, alpha, beta, ply, cut_node);
        self.observer.leave(ply, value);
        value
    }

    /// The steps of a node.
    fn negamax_node(
        &mut self,
        pos: &Position,
        mut depth: i32,
        mut alpha: Value,
        mut beta: Value,
        ply: usize,
        cut_node: bool,
    ) -> Value {
        // Every node below the root is at ply 1 to MAX_PLY - 1 (the horizon below stops
        // at MAX_PLY - 1): saying so once lets the compiler drop the bounds checks of the
        // per-ply arrays.
        debug_assert!((1..MAX_PLY).contains(&ply), "ply {ply}");
        let ply = ply.clamp(1, MAX_PLY - 1);
        let config = self.search.config;
        let features = self.features;
        let pv_node = beta - alpha > 1;

        // Step 1. Count the node, poll the clock and the stop flag.
        self.stats.nodes += 1;
        self.pv[ply].clear();
        self.seldepth = self.seldepth.max(ply);
        if self.poll_abort() {
            return DRAW;
        }

        // Step 2. Draws: fifty-move rule, repetition, insufficient material. A mate on the
        // hundredth half-move still counts as a mate.
        if pos.halfmoves() >= 100 && !(pos.is_check() && pos.legal_moves().is_empty()) {
            self.stats.leaves += 1;
            self.observer.leaf(ply, DRAW, LeafKind::Draw);
            return DRAW;
        }
        if self.is_repetition(pos) || pos.is_insufficient_material() {
            self.stats.leaves += 1;
            self.observer.leaf(ply, DRAW, LeafKind::Draw);
            return DRAW;
        }

        // Step 3. Mate-distance pruning: no line from here can beat a mate already found
        // closer to the root.
        if features.mate_distance {
            alpha = alpha.max(mated_in(ply));
            beta = beta.min(mate_in(ply + 1));
            if alpha >= beta {
                self.observer.technique(ply, Technique::MateDistance);
                return alpha;
            }
        }

        // Step 4. At the horizon, resolve captures (quiescence) or take the static evaluation.
        if depth <= 0 || ply >= MAX_PLY - 1 {
            self.stats.leaves += 1;
            let value = if config.quiescence && ply < MAX_PLY - 1 {
                let before = self.stats.qnodes;
                let value = self.quiesce_node(pos, alpha, beta, ply);
                let nodes = self.stats.qnodes - before;
                self.observer
                    .technique(ply, Technique::Quiescence { nodes });
                value
            } else {
                self.evaluate(pos, ply)
            };
            self.observer.leaf(ply, value, LeafKind::Horizon);
            return value;
        }

        // Step 5. Transposition table: a deep enough stored bound may answer the node outright
        // (not at PV nodes when PVS is on, to keep the PV whole); otherwise its move goes first.
        // A node searched without one move (the singular-extension test) neither stops at a
        // stored bound nor stores its own: the table's entry is about all the moves.
        let original_alpha = alpha;
        let excluded = self.plies[ply].excluded;
        let mut hash_move = 0;
        let mut tt_eval = None;
        let mut tt_entry = None;
        if config.hash_move
            && let Some(entry) = self.search.tt.probe(pos.key())
        {
            self.stats.tt_hits += 1;
            hash_move = entry.mv;
            tt_eval = Some(entry.eval);
            tt_entry = Some(entry);
            if config.tt_cutoffs
                && excluded == 0
                && entry.depth >= depth
                && !(features.pvs && pv_node)
            {
                let stored = score::from_tt(entry.score, ply);
                if entry.bound.cuts(stored, alpha, beta) {
                    self.stats.tt_cutoffs += 1;
                    self.observer.technique(
                        ply,
                        Technique::TableCutoff {
                            value: stored,
                            stored_depth: entry.depth,
                        },
                    );
                    return stored;
                }
            }
        }

        // Step 5b. Tablebases: right after a capture or pawn move, with few enough pieces, the
        // tables know the result. A draw is exact; a win is a lower bound and a loss an upper
        // bound (a mate may be quicker or slower), returned when the window allows it.
        let mut best = -INFINITY;
        let mut max_value = INFINITY;
        if self.tb_pieces > 0
            && excluded == 0
            && pos.halfmoves() == 0
            && let Some((value, bound)) = self.probe_tablebase(pos, depth, ply)
        {
            if bound.cuts(value, alpha, beta) {
                if config.hash_move {
                    self.store_tablebase_result(pos, depth, ply, value, bound);
                }
                return value;
            }
            if pv_node {
                if bound == Bound::Lower {
                    best = value;
                    alpha = alpha.max(value);
                } else {
                    max_value = value;
                }
            }
        }

        // Step 6. Static evaluation (from the table when stored) and whether it improved on
        // our position two plies ago.
        // The table and the correction history keep the raw evaluation; the corrected one
        // drives the pruning below.
        let in_check = pos.is_check();
        let correction_keys = if in_check {
            None
        } else {
            self.correction_keys(pos, ply)
        };
        let raw_eval = if in_check {
            -INFINITY
        } else {
            tt_eval.unwrap_or_else(|| self.evaluate(pos, ply))
        };
        let static_eval = if in_check {
            -INFINITY
        } else {
            self.corrected_eval(raw_eval, correction_keys.as_ref())
        };
        self.plies[ply].static_eval = static_eval;
        self.plies[ply + 2].killers = [0, 0];
        let improving = !in_check
            && ply >= 2
            && (self.plies[ply - 2].static_eval == -INFINITY
                || static_eval > self.plies[ply - 2].static_eval);

        // Step 7. Reverse futility pruning: far above beta near the leaves, assume a cut-off.
        if features.reverse_futility
            && excluded == 0
            && !pv_node
            && !in_check
            && depth <= params::rfp_max_depth()
            && !score::is_decisive(beta)
            && static_eval - params::rfp_margin() * (depth - i32::from(improving)) >= beta
        {
            self.observer.technique(
                ply,
                Technique::ReverseFutility {
                    eval: static_eval,
                    margin: params::rfp_margin() * (depth - i32::from(improving)),
                },
            );
            return static_eval;
        }

        // Step 8. Null-move pruning: if passing still fails high after a reduced search, the
        // position is good enough to cut (not in check, not in pawn endings: zugzwang).
        if features.null_move
            && excluded == 0
            && !pv_node
            && !in_check
            && depth >= params::nmp_min_depth()
            && static_eval >= beta
            && self.plies[ply - 1].current != NULL_MOVE
            && pos.has_non_pawn_material()
            && let Some(null) = pos.play_null()
        {
            let reduction = params::nmp_base_reduction()
                + depth / params::nmp_depth_divisor()
                + ((static_eval - beta) / params::nmp_eval_divisor()).min(params::nmp_eval_max());
            self.plies[ply].current = NULL_MOVE;
            self.plies[ply].moved = 0;
            self.made_null_move(ply + 1);
            self.keys.push(null.key());
            let saved_floor = self.null_floor;
            self.null_floor = self.keys.len() - 1;
            let score = -self.negamax(
                &null,
                depth - 1 - reduction,
                -beta,
                -beta + 1,
                ply + 1,
                !cut_node,
            );
            self.null_floor = saved_floor;
            self.keys.pop();
            if self.aborted {
                return DRAW;
            }
            if score >= beta {
                self.observer.technique(
                    ply,
                    Technique::NullMoveCutoff {
                        value: score,
                        reduction,
                    },
                );
                return if score::is_decisive(score) {
                    beta
                } else {
                    score
                };
            }
            self.observer
                .technique(ply, Technique::NullMoveFailed { value: score });
        }

        // Step 8b. ProbCut: if a capture that wins enough material by SEE still beats beta
        // by a margin after a quiescence check and a search four plies shallower, the full
        // search would almost surely fail high too: cut. Skipped when the table already says
        // a search this deep stays below that bound.
        if features.probcut
            && excluded == 0
            && !pv_node
            && !in_check
            && depth >= params::probcut_min_depth()
            && !score::is_decisive(beta)
        {
            let probcut_beta = beta + params::probcut_margin()
                - params::probcut_improving() * Value::from(improving);
            let refuted_by_table = tt_entry.is_some_and(|entry| {
                entry.depth > depth - params::probcut_reduction()
                    && score::from_tt(entry.score, ply) < probcut_beta
                    && entry.bound != Bound::Lower
            });
            if !refuted_by_table
                && let Some(value) = self.probcut(
                    pos,
                    depth,
                    probcut_beta,
                    static_eval,
                    raw_eval,
                    ply,
                    cut_node,
                )
            {
                return value;
            }
            if self.aborted {
                return DRAW;
            }
        }

        // Step 9. Internal iterative reduction: without a hash move this node was never
        // searched before; search it a little shallower.
        if features.iir
            && hash_move == 0
            && depth >= params::iir_min_depth()
            && (pv_node || cut_node)
        {
            depth -= 1;
            self.observer.technique(ply, Technique::InternalReduction);
        }

        // Step 10. The hash move, if legal here: the move picker tries it before any move
        // is generated (it often refutes at once). The lab's fixed orders generate first, as
        // the plain algorithm does.
        let staged_hash = if matches!(config.order, MoveOrder::Staged) {
            tt::legal_move_from_packed(hash_move, pos)
        } else {
            None
        };

        // Step 10b. Singular extension: when the hash move's stored result is a deep enough
        // lower bound, search the other moves, reduced, against a bound just below it. If
        // they all fail low, the hash move is the only good move here: extend it. If even
        // the bound beats beta, several moves refute: cut (multi-cut). If only the stored
        // score beats beta, the hash move is not that special: reduce it.
        let mut singular_extension = 0;
        if features.singular
            && excluded == 0
            && ply > 0
            && depth >= params::se_min_depth()
            && staged_hash.is_some()
            && let Some(entry) = tt_entry
            && entry.depth >= depth - params::se_tt_depth_margin()
            && entry.bound != Bound::Upper
        {
            let tt_score = score::from_tt(entry.score, ply);
            if !score::is_decisive(tt_score) {
                let singular_beta = tt_score - params::se_margin_per_depth() * depth;
                self.plies[ply].excluded = hash_move;
                let value = self.negamax(
                    pos,
                    (depth - 1) / params::se_depth_divisor(),
                    singular_beta - 1,
                    singular_beta,
                    ply,
                    cut_node,
                );
                self.plies[ply].excluded = 0;
                if self.aborted {
                    return DRAW;
                }
                if value < singular_beta {
                    singular_extension = 1;
                    if let Some(mv) = staged_hash {
                        self.observer
                            .technique(ply, Technique::SingularExtension { mv });
                    }
                } else if singular_beta >= beta {
                    self.observer.technique(
                        ply,
                        Technique::MultiCut {
                            value: singular_beta,
                        },
                    );
                    return singular_beta;
                } else if tt_score >= beta {
                    singular_extension = -1;
                }
            }
        }
        // The moves come from the picker (movepick.rs): the hash move, good captures,
        // killers, countermove, quiet moves by history, losing captures, each stage prepared
        // when reached; or, for the lab's orders, every move scored at once.
        let mut picker = if matches!(config.order, MoveOrder::Staged) {
            MovePicker::main(staged_hash, excluded, in_check)
        } else {
            MovePicker::lab(
                &pos.legal_moves(),
                config.order,
                hash_move,
                pos.key(),
                excluded,
            )
        };
        let rows = self.continuation_rows(ply);
        // One buffer for every child: copy-make writes into it instead of returning a copy.
        let mut child = pos.clone();
        // The node's check squares, computed when futility pruning first asks.
        let mut check_info = None;

        // Futility pruning's condition for the whole node (below: every quiet move that does
        // not give check, once a move was searched). At a null-window node alpha never
        // moves (a score above it is a cut-off), so it holds for every later move, and the
        // picker may leave those moves out instead of yielding each to be pruned, unless
        // an observer is to see each of them.
        let futile_node = !O::SEES_EVERY_PRUNED_MOVE
            && features.futility
            && !pv_node
            && !in_check
            && depth <= params::futility_max_depth()
            && !score::is_decisive(alpha)
            && static_eval + params::futility_base() + params::futility_per_depth() * depth
                <= alpha;

        // Step 11. Search the moves.
        let mut best_move = None;
        let mut quiets_tried: ArrayVec<(PackedMove, u16), 64> = ArrayVec::new();
        let mut captures_tried: ArrayVec<usize, 32> = ArrayVec::new();
        let mut searched = 0usize;
        // Moves put off because another thread is searching them (Lazy SMP only): they come
        // after all the others, when their results are likely in the table.
        let defer = depth >= params::abdada_defer_depth() && self.shared.searching.is_on();
        let mut deferred: ArrayVec<Move, 64> = ArrayVec::new();
        let mut revisited = 0;
        loop {
            let mut revisiting = false;
            let mv = if let Some(mv) = picker.next_lazy(pos, || self.ordering(ply, rows)) {
                mv
            } else if revisited < deferred.len() {
                revisited += 1;
                revisiting = true;
                deferred[revisited - 1]
            } else {
                break;
            };
            let is_quiet = !is_tactical(mv);
            let packed = tt::pack_move(mv);
            let moved = history::piece_to(pos.turn(), mv);

            // Late move pruning: near the leaves, quiet moves this late rarely matter.
            if features.late_move_pruning
                && !revisiting
                && !pv_node
                && !in_check
                && is_quiet
                && depth <= params::lmp_max_depth()
                && best > -score::TB_WIN_BOUND
                && quiets_tried.len() >= params::lmp_threshold(depth, improving)
            {
                // The rest of the quiet moves would be skipped as well: the picker leaves
                // them ungenerated or unscored.
                self.observer.technique(
                    ply,
                    Technique::LateMovePruning {
                        mv,
                        tried: quiets_tried.len(),
                    },
                );
                picker.skip_quiets();
                continue;
            }

            // Futility pruning: a quiet move cannot lift a hopeless static eval to alpha.
            // Decided before the move is made (whether it gives check is read from the move
            // and the node's check squares), so a pruned move costs no copy, key, network
            // update or prefetch.
            if features.futility
                && !revisiting
                && !pv_node
                && !in_check
                && is_quiet
                && searched > 0
                && depth <= params::futility_max_depth()
                && !score::is_decisive(alpha)
                && static_eval + params::futility_base() + params::futility_per_depth() * depth
                    <= alpha
                && check_info
                    .get_or_insert_with(|| pos.check_info())
                    .is_some_and(|info| !pos.gives_check(mv, &info))
            {
                self.observer.technique(
                    ply,
                    Technique::Futility {
                        mv,
                        eval: static_eval,
                        margin: params::futility_base() + params::futility_per_depth() * depth,
                    },
                );
                continue;
            }

            // SEE pruning: near the leaves, once a move holds off a mate, a move whose static
            // exchange loses more than a depth-scaled margin is skipped (a capture of a
            // defended piece, a quiet move onto an attacked square).
            if features.see_pruning
                && !revisiting
                && best > -score::TB_WIN_BOUND
                && depth <= params::see_prune_max_depth()
            {
                let threshold = params::see_prune_threshold(is_quiet, depth);
                if !see::is_safe_capture(mv) && !see::see_ge(pos, mv, threshold) {
                    self.observer
                        .technique(ply, Technique::SeePruning { mv, threshold });
                    continue;
                }
            }

            let changes = pos.play_into(mv, &mut child);
            self.made_move(ply + 1, &changes);
            self.search.tt.prefetch(child.key());
            let gives_check = child.is_check();

            // The first move is neither put off nor marked: every thread searches it (it sets
            // the bound for the rest). The others are put off at most once.
            let may_defer = !revisiting && !deferred.is_full();
            let mut mark = match (defer && searched > 0)
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

            let mut extension = i32::from(features.check_extension && gives_check);
            if extension > 0 {
                self.observer
                    .technique(ply, Technique::CheckExtension { mv });
            }
            if packed == hash_move {
                extension = if singular_extension > 0 {
                    1
                } else {
                    extension + singular_extension
                };
            }
            let new_depth = depth - 1 + extension;
            self.keys.push(child.key());
            self.plies[ply].current = packed;
            self.plies[ply].moved = moved;
            let score = if !config.pruning {
                -self.negamax(&child, new_depth, -INFINITY, INFINITY, ply + 1, false)
            } else if searched == 0 {
                -self.negamax(&child, new_depth, -beta, -alpha, ply + 1, false)
            } else {
                let reduction = if features.lmr
                    && depth >= params::lmr_min_depth()
                    && is_quiet
                    && !gives_check
                    && !in_check
                {
                    let (butterfly, continuation) = self.quiet_histories(rows, pos.turn(), mv);
                    let late = LateMove {
                        depth,
                        searched,
                        pv_node,
                        improving,
                        cut_node,
                        killer: self.plies[ply].killers[0] == packed
                            || self.plies[ply].killers[1] == packed,
                        butterfly,
                        continuation,
                    };
                    lmr::reduction(&self.reductions, &late)
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
                let mut score = -self.negamax(&child, new_depth - reduction, lo, hi, ply + 1, true);
                if score > alpha && reduction > 0 && !self.aborted {
                    self.observer
                        .technique(ply, Technique::ReducedResearch { mv });
                    score = -self.negamax(&child, new_depth, lo, hi, ply + 1, !cut_node);
                }
                if features.pvs && score > alpha && score < beta && !self.aborted {
                    self.observer.technique(ply, Technique::PvsResearch { mv });
                    // A new best move: let the other threads join its full-window search.
                    self.shared.searching.unmark(mark.take());
                    score = -self.negamax(&child, new_depth, -beta, -alpha, ply + 1, false);
                }
                score
            };
            self.keys.pop();
            self.shared.searching.unmark(mark);
            if self.aborted {
                return DRAW;
            }
            searched += 1;
            if futile_node
                && searched == 1
                && let Some(info) = *check_info.get_or_insert_with(|| pos.check_info())
            {
                picker.quiets_giving_check_only(info);
            }

            if score > best {
                best = score;
                best_move = Some(mv);
                self.observer.improved(ply, score);
                if score > alpha {
                    alpha = score;
                    self.observer.alpha_raised(ply, alpha);
                    self.update_pv(ply, mv);
                }
                if config.pruning && score >= beta {
                    self.observer.cutoff(pos, ply, searched);
                    self.stats.cutoffs += 1;
                    if searched == 1 {
                        self.stats.first_move_cutoffs += 1;
                    }
                    let capture = (!is_quiet).then(|| history::capture_index(pos.turn(), mv));
                    if is_quiet {
                        self.reward_quiet(pos.turn(), packed, moved, &quiets_tried, depth, ply);
                    }
                    self.reward_captures(capture, &captures_tried, depth);
                    break;
                }
            }
            if is_quiet {
                let _ = quiets_tried.try_push((packed, moved));
            } else if features.capture_history {
                let _ = captures_tried.try_push(history::capture_index(pos.turn(), mv));
            }
        }

        // No move at all: checkmate or stalemate. Otherwise the node counts as interior,
        // with its number of legal moves when the picker generated them all, or when the
        // configuration asks for it (the search lab's branching factor).
        if picker.yielded() == 0 {
            self.stats.leaves += 1;
            let value = if in_check { mated_in(ply) } else { DRAW };
            self.observer.leaf(ply, value, LeafKind::NoMoves);
            return value;
        }
        self.stats.interior += 1;
        if let Some(legal) = picker
            .legal()
            .or_else(|| config.count_legal_moves.then(|| pos.legal_moves().len()))
        {
            self.stats.legal_moves += legal as u64;
        }

        // Step 12. Store the result with its bound type: failing high gives a lower bound,
        // failing low an upper bound, anything inside the window is exact. A tablebase loss
        // caps the value of a PV node.
        best = best.min(max_value);
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if config.hash_move && excluded == 0 {
            self.search.tt.store(
                pos.key(),
                TtEntry {
                    mv: best_move.map_or(0, tt::pack_move),
                    score: score::to_tt(best, ply),
                    eval: if in_check { 0 } else { raw_eval },
                    depth,
                    bound,
                },
            );
        }
        // Step 13. The correction history learns where the result says more than the static
        // evaluation: not in check (no evaluation), not when a capture or promotion decided
        // the node, and only in the direction its bound allows.
        if excluded == 0
            && let Some(keys) = &correction_keys
            && (bound == Bound::Upper || best_move.is_none_or(|mv| !is_tactical(mv)))
            && !(bound == Bound::Lower && best <= static_eval)
            && !(bound == Bound::Upper && best >= static_eval)
        {
            self.update_correction(keys, depth, static_eval, best);
        }
        best
    }
}
