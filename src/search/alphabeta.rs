//! Negamax alpha-beta (fail-soft) and quiescence search, run by one `Worker` per thread.
//!
//! Bounds go down, values come up: a node is searched with a window `(alpha, beta)`, each
//! child with the negated window `(-beta, -alpha)`, and its value comes back negated. A move
//! whose value reaches `beta` refutes the opponent's previous move (`score >= beta` is the
//! cut-off) and the rest of the moves are skipped. Fail-soft: the returned value may lie
//! outside the window, which tells the table more than the bound would.
//!
//! The steps of a node, in the order they run, are numbered in `negamax`; each selective step
//! is guarded by its switch in `Features`, so that with `Features::NONE` this is plain
//! alpha-beta (the search lab and the alpha-beta = minimax tests rely on that). Nothing here
//! allocates per node: move lists and PV lines live in fixed-size arrays.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use arrayvec::ArrayVec;
use shakmaty::{Color, Move};

use super::features::Features;
use super::ordering::{self, ScoredMove, ScoredMoves, is_tactical, pick_next};
use super::params;
use super::score::{self, DRAW, INFINITY, MAX_PLY, mate_in, mated_in};
use super::see::see_non_negative;
use super::stats::Stats;
use super::time::Deadlines;
use super::tt::{self, Bound, PackedMove, TtEntry};
use super::{Report, Search, SearchResult};
use crate::eval::{self, Evaluation, Value, piece_value};
use crate::position::Position;

/// How often (in nodes) the clock and the stop flag are polled.
const POLL_INTERVAL: u64 = 1024;
/// Entries of the per-thread evaluation cache (a power of two).
const EVAL_CACHE_SIZE: usize = 1 << 13;

/// Ordering score bands (higher is tried earlier), below the hash move.
const GOOD_CAPTURE: i32 = 1 << 24;
const KILLER_FIRST: i32 = 1 << 22;
const KILLER_SECOND: i32 = KILLER_FIRST - 1;
const COUNTERMOVE: i32 = KILLER_FIRST - 2;
const BAD_CAPTURE: i32 = -(1 << 24);

type Line = ArrayVec<Move, MAX_PLY>;

/// A root move with what the current and last iterations learnt about it.
#[derive(Clone, Debug)]
pub(super) struct RootMove {
    pub mv: Move,
    /// Score in the last iteration that searched it (-INFINITY if none).
    pub score: Value,
    /// Principal variation starting with `mv`.
    pub pv: Line,
}

/// Per-ply state on the search path.
#[derive(Clone, Copy, Default)]
struct Ply {
    /// Static evaluation (`-INFINITY` when in check).
    static_eval: Value,
    /// The move being searched from this ply (0 for none, `NULL_MOVE` for a null move).
    current: PackedMove,
    /// Two quiet moves that caused cut-offs at this ply.
    killers: [PackedMove; 2],
}

/// The packed "move" of a null move (never a real packed move: from = to = h8).
const NULL_MOVE: PackedMove = 63 | (63 << 6);

/// What the threads of one search share besides the table: the signal that the main thread
/// is done and the node count of all threads.
#[derive(Default)]
pub(super) struct Shared {
    /// Raised by the main thread when it stops: helper threads stop too.
    pub helpers_stop: AtomicBool,
    /// Nodes searched by all threads, published every poll interval.
    pub nodes: AtomicU64,
}

/// The state of one searching thread.
pub(super) struct Worker<'a> {
    search: &'a Search<'a>,
    shared: &'a Shared,
    /// The main thread decides, reports and keeps time; helpers only fill the table.
    is_main: bool,
    /// Own nodes already added to `shared.nodes`.
    published_nodes: u64,
    features: Features,
    pub deadlines: Deadlines,
    pub root_moves: Vec<RootMove>,
    pub stats: Stats,
    pub aborted: bool,
    /// Keys of the game history followed by the current search path; the last is the node's.
    keys: Vec<u64>,
    /// Index in `keys` before which no repetition is possible (the last null move).
    null_floor: usize,
    /// Triangular PV table: `pv[ply]` is the best line found from the node at `ply`.
    pv: Vec<Line>,
    plies: Vec<Ply>,
    /// History of quiet moves: `[side][from * 64 + to]`.
    history: Vec<[i32; 4096]>,
    /// Quiet move that refuted each previous move: `[previous from * 64 + to]`.
    countermoves: Vec<PackedMove>,
    /// Late move reductions by `[depth][move number]`.
    reductions: Vec<[u8; 64]>,
    /// Cached static evaluations: (key, value).
    eval_cache: Vec<(u64, Value)>,
    seldepth: usize,
    /// Whether the current iteration found a move that raised alpha at the root.
    iteration_has_pv: bool,
    next_poll: u64,
}

impl<'a> Worker<'a> {
    pub fn new(
        search: &'a Search<'a>,
        shared: &'a Shared,
        is_main: bool,
        deadlines: Deadlines,
    ) -> Self {
        let root = search.position;
        let legal = root.legal_moves();
        let allowed = |m: &Move| {
            search.limits.searchmoves.is_empty() || search.limits.searchmoves.contains(m)
        };
        let mut candidates: Vec<Move> = legal.iter().copied().filter(allowed).collect();
        if candidates.is_empty() {
            candidates = legal.to_vec();
        }
        // Initial root order: the hash move, then the configured order.
        let hash_move = if search.config.hash_move {
            search.tt.probe(root.key()).map_or(0, |e| e.mv)
        } else {
            0
        };
        let mut scored = ordering::score_moves(
            &candidates,
            search.config.order,
            hash_move,
            root.key(),
            |_| 0,
        );
        let root_moves = (0..scored.len())
            .map(|i| RootMove {
                mv: pick_next(&mut scored, i),
                score: -INFINITY,
                pv: Line::new(),
            })
            .collect();
        let mut keys = Vec::with_capacity(search.history.len() + MAX_PLY + 1);
        keys.extend_from_slice(search.history);
        keys.push(root.key());
        let mut reductions = vec![[0u8; 64]; MAX_PLY + 1];
        for (depth, row) in reductions.iter_mut().enumerate().skip(1) {
            for (number, cell) in row.iter_mut().enumerate().skip(1) {
                let r = params::LMR_BASE
                    + (depth as f64).ln() * (number as f64).ln() / params::LMR_DIVISOR;
                *cell = r.max(0.0) as u8;
            }
        }
        Self {
            search,
            shared,
            is_main,
            published_nodes: 0,
            features: search.config.features,
            deadlines,
            root_moves,
            stats: Stats::default(),
            aborted: false,
            keys,
            null_floor: 0,
            pv: vec![Line::new(); MAX_PLY + 1],
            plies: vec![Ply::default(); MAX_PLY + 4],
            history: vec![[0; 4096]; 2],
            countermoves: vec![0; 4096],
            reductions,
            eval_cache: vec![(0, 0); EVAL_CACHE_SIZE],
            seldepth: 0,
            iteration_has_pv: false,
            next_poll: POLL_INTERVAL,
        }
    }

    /// One iteration for one principal variation: the root moves from `pv_index` on (the
    /// better lines of MultiPV sit before it) searched to `depth`, inside an aspiration
    /// window around the previous score when that feature is on. The best of them ends up at
    /// `pv_index`. Returns its score (meaningless if `aborted`) and its bound.
    pub fn iteration(
        &mut self,
        depth: i32,
        pv_index: usize,
        previous: Option<Value>,
    ) -> (Value, Bound) {
        if pv_index == 0 {
            self.iteration_has_pv = false;
        }
        let Some(previous) = previous.filter(|p| {
            self.features.aspiration && depth >= params::ASPIRATION_MIN_DEPTH && !score::is_mate(*p)
        }) else {
            return (
                self.search_root(depth, pv_index, -INFINITY, INFINITY),
                Bound::Exact,
            );
        };
        let mut delta = params::ASPIRATION_WINDOW;
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
            if score <= alpha {
                // Fail low: widen downwards, pull beta in.
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
            } else if score >= beta {
                beta = (score + delta).min(INFINITY);
            } else {
                return (score, Bound::Exact);
            }
            delta += delta / 2;
            if delta > 1000 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    /// Searches the root moves from `pv_index` on to `depth` within `(alpha, beta)`; a move
    /// that raises alpha moves to `pv_index`, so the next iteration searches it first.
    fn search_root(&mut self, depth: i32, pv_index: usize, mut alpha: Value, beta: Value) -> Value {
        let root = self.search.position;
        let config = self.search.config;
        let mut best = -INFINITY;
        self.stats.nodes += 1;
        self.stats.interior += 1;
        self.stats.legal_moves += self.root_moves.len() as u64;
        self.plies[0].static_eval = if root.is_check() {
            -INFINITY
        } else {
            self.evaluate(root)
        };
        for index in pv_index..self.root_moves.len() {
            let mv = self.root_moves[index].mv;
            let child = root.play(mv);
            let extension = i32::from(self.features.check_extension && child.is_check());
            let new_depth = depth - 1 + extension;
            self.keys.push(child.key());
            self.plies[0].current = tt::pack_move(mv);
            let score = if !config.pruning {
                -self.negamax(&child, new_depth, -INFINITY, INFINITY, 1, false)
            } else if index == pv_index || !self.features.pvs {
                -self.negamax(&child, new_depth, -beta, -alpha, 1, false)
            } else {
                let mut score = -self.negamax(&child, new_depth, -alpha - 1, -alpha, 1, true);
                if score > alpha && score < beta && !self.aborted {
                    score = -self.negamax(&child, new_depth, -beta, -alpha, 1, false);
                }
                score
            };
            self.keys.pop();
            if self.aborted {
                break;
            }
            let root_move = &mut self.root_moves[index];
            root_move.score = score;
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                if pv_index == 0 {
                    self.iteration_has_pv = true;
                }
                root_move.pv.clear();
                root_move.pv.push(mv);
                let _ = root_move.pv.try_extend_from_slice(&self.pv[1]);
                self.root_moves[pv_index..=index].rotate_right(1);
                if config.pruning && score >= beta {
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

    /// The negamax alpha-beta search of one node below the root.
    fn negamax(
        &mut self,
        pos: &Position,
        mut depth: i32,
        mut alpha: Value,
        mut beta: Value,
        ply: usize,
        cut_node: bool,
    ) -> Value {
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
            return DRAW;
        }
        if self.is_repetition(pos) || pos.is_insufficient_material() {
            self.stats.leaves += 1;
            return DRAW;
        }

        // Step 3. Mate-distance pruning: no line from here can beat a mate already found
        // closer to the root.
        if features.mate_distance {
            alpha = alpha.max(mated_in(ply));
            beta = beta.min(mate_in(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }

        // Step 4. At the horizon, resolve captures (quiescence) or take the static evaluation.
        if depth <= 0 || ply >= MAX_PLY - 1 {
            self.stats.leaves += 1;
            return if config.quiescence && ply < MAX_PLY - 1 {
                self.quiesce_node(pos, alpha, beta, ply)
            } else {
                self.evaluate(pos)
            };
        }

        // Step 5. Transposition table: a deep enough stored bound may answer the node outright
        // (not at PV nodes when PVS is on, to keep the PV whole); otherwise its move goes first.
        let original_alpha = alpha;
        let mut hash_move = 0;
        let mut tt_eval = None;
        if config.hash_move
            && let Some(entry) = self.search.tt.probe(pos.key())
        {
            self.stats.tt_hits += 1;
            hash_move = entry.mv;
            tt_eval = Some(entry.eval);
            if config.tt_cutoffs && entry.depth >= depth && !(features.pvs && pv_node) {
                let stored = score::from_tt(entry.score, ply);
                let usable = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => stored >= beta,
                    Bound::Upper => stored <= alpha,
                };
                if usable {
                    self.stats.tt_cutoffs += 1;
                    return stored;
                }
            }
        }

        // Step 6. Static evaluation (from the table when stored) and whether it improved on
        // our position two plies ago.
        let in_check = pos.is_check();
        let static_eval = if in_check {
            -INFINITY
        } else {
            tt_eval.unwrap_or_else(|| self.evaluate(pos))
        };
        self.plies[ply].static_eval = static_eval;
        self.plies[ply + 2].killers = [0, 0];
        let improving = !in_check
            && ply >= 2
            && (self.plies[ply - 2].static_eval == -INFINITY
                || static_eval > self.plies[ply - 2].static_eval);

        // Step 7. Reverse futility pruning: far above beta near the leaves, assume a cut-off.
        if features.reverse_futility
            && !pv_node
            && !in_check
            && depth <= params::RFP_MAX_DEPTH
            && !score::is_mate(beta)
            && static_eval - params::RFP_MARGIN * (depth - i32::from(improving)) >= beta
        {
            return static_eval;
        }

        // Step 8. Null-move pruning: if passing still fails high after a reduced search, the
        // position is good enough to cut (not in check, not in pawn endings: zugzwang).
        if features.null_move
            && !pv_node
            && !in_check
            && depth >= params::NMP_MIN_DEPTH
            && static_eval >= beta
            && self.plies[ply - 1].current != NULL_MOVE
            && pos.has_non_pawn_material()
            && let Some(null) = pos.play_null()
        {
            let reduction = params::NMP_BASE_REDUCTION
                + depth / params::NMP_DEPTH_DIVISOR
                + ((static_eval - beta) / params::NMP_EVAL_DIVISOR).min(3);
            self.plies[ply].current = NULL_MOVE;
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
                return if score::is_mate(score) { beta } else { score };
            }
        }

        // Step 9. Internal iterative reduction: without a hash move this node was never
        // searched before; search it a little shallower.
        if features.iir && hash_move == 0 && depth >= params::IIR_MIN_DEPTH && (pv_node || cut_node)
        {
            depth -= 1;
        }

        // Step 10. The hash move is tried before any move generation (it often refutes at
        // once); only then are the legal moves generated (none means mate or stalemate) and
        // ordered: good captures by MVV-LVA, killers, countermove, quiet moves by history,
        // losing captures. The lab's orders generate first, as the plain algorithm does.
        let mut staged_hash = if matches!(config.order, ordering::MoveOrder::MvvLva) {
            tt::legal_move_from_packed(hash_move, pos)
        } else {
            None
        };
        let hash_searched = staged_hash.is_some();
        let mut moves = ScoredMoves::new();
        let mut generated = false;
        let mut next = 0;
        // One buffer for every child: copy-make writes into it instead of returning a copy.
        let mut child = pos.clone();

        // Step 11. Search the moves.
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut quiets_tried: ArrayVec<PackedMove, 64> = ArrayVec::new();
        let mut searched = 0usize;
        loop {
            let mv = if let Some(mv) = staged_hash.take() {
                mv
            } else {
                if !generated {
                    generated = true;
                    let legal = pos.legal_moves();
                    if legal.is_empty() {
                        self.stats.leaves += 1;
                        return if in_check { mated_in(ply) } else { DRAW };
                    }
                    self.stats.interior += 1;
                    self.stats.legal_moves += legal.len() as u64;
                    self.order_moves(pos, &legal, hash_move, ply, &mut moves);
                    if hash_searched {
                        moves.retain(|m| tt::pack_move(m.mv) != hash_move);
                    }
                }
                if next >= moves.len() {
                    break;
                }
                next += 1;
                pick_next(&mut moves, next - 1)
            };
            let is_quiet = !is_tactical(mv);
            let packed = tt::pack_move(mv);

            // Late move pruning: near the leaves, quiet moves this late rarely matter.
            if features.late_move_pruning
                && !pv_node
                && !in_check
                && is_quiet
                && depth <= params::LMP_MAX_DEPTH
                && best > -score::MATE_BOUND
                && quiets_tried.len() >= params::lmp_threshold(depth, improving)
            {
                continue;
            }

            pos.play_into(mv, &mut child);
            self.search.tt.prefetch(child.key());
            let gives_check = child.is_check();

            // Futility pruning: a quiet move cannot lift a hopeless static eval to alpha.
            if features.futility
                && !pv_node
                && !in_check
                && is_quiet
                && !gives_check
                && searched > 0
                && depth <= params::FUTILITY_MAX_DEPTH
                && !score::is_mate(alpha)
                && static_eval + params::FUTILITY_BASE + params::FUTILITY_PER_DEPTH * depth <= alpha
            {
                continue;
            }

            let extension = i32::from(features.check_extension && gives_check);
            let new_depth = depth - 1 + extension;
            self.keys.push(child.key());
            self.plies[ply].current = packed;
            let score = if !config.pruning {
                -self.negamax(&child, new_depth, -INFINITY, INFINITY, ply + 1, false)
            } else if searched == 0 {
                -self.negamax(&child, new_depth, -beta, -alpha, ply + 1, false)
            } else {
                let reduction = if features.lmr
                    && depth >= params::LMR_MIN_DEPTH
                    && is_quiet
                    && !gives_check
                    && !in_check
                {
                    self.late_move_reduction(
                        depth,
                        searched,
                        pv_node,
                        improving,
                        cut_node,
                        pos.turn(),
                        packed,
                        ply,
                    )
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
                let mut score = -self.negamax(&child, new_depth - reduction, lo, hi, ply + 1, true);
                if score > alpha && reduction > 0 && !self.aborted {
                    score = -self.negamax(&child, new_depth, lo, hi, ply + 1, !cut_node);
                }
                if features.pvs && score > alpha && score < beta && !self.aborted {
                    score = -self.negamax(&child, new_depth, -beta, -alpha, ply + 1, false);
                }
                score
            };
            self.keys.pop();
            if self.aborted {
                return DRAW;
            }
            searched += 1;

            if score > best {
                best = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, mv);
                }
                if config.pruning && score >= beta {
                    self.stats.cutoffs += 1;
                    if searched == 1 {
                        self.stats.first_move_cutoffs += 1;
                    }
                    if is_quiet {
                        self.reward_quiet(pos.turn(), packed, &quiets_tried, depth, ply);
                    }
                    break;
                }
            }
            if is_quiet {
                let _ = quiets_tried.try_push(packed);
            }
        }

        // Step 12. Store the result with its bound type: failing high gives a lower bound,
        // failing low an upper bound, anything inside the window is exact.
        if config.hash_move {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.search.tt.store(
                pos.key(),
                TtEntry {
                    mv: best_move.map_or(0, tt::pack_move),
                    score: score::to_tt(best, ply),
                    eval: if in_check { 0 } else { static_eval },
                    depth,
                    bound,
                },
            );
        }
        best
    }

    /// Orders the moves of a node: hash move, captures (losing ones last when SEE is on),
    /// killers, countermove, then quiet moves by history (or as configured for the lab).
    fn order_moves(
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
        let side = pos.turn() as usize;
        let killers = self.plies[ply].killers;
        let previous = self.plies[ply - 1].current;
        let countermove = if features.countermove && previous != 0 && previous != NULL_MOVE {
            self.countermoves[usize::from(previous & 0xfff)]
        } else {
            0
        };
        scored.clear();
        for &mv in legal {
            let packed = tt::pack_move(mv);
            let score = if packed == hash_move {
                i32::MAX
            } else if is_tactical(mv) {
                let mvv_lva = ordering::mvv_lva_score(mv);
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
            } else if features.history {
                self.history[side][usize::from(packed & 0xfff)]
            } else {
                0
            };
            scored.push(ScoredMove { mv, score });
        }
    }

    /// The reduction for a late quiet move, from the log table adjusted by node type,
    /// improvement, killers and history.
    #[allow(clippy::too_many_arguments)]
    fn late_move_reduction(
        &self,
        depth: i32,
        searched: usize,
        pv_node: bool,
        improving: bool,
        cut_node: bool,
        side: Color,
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
        if self.features.history {
            reduction -= self.history[side as usize][usize::from(packed & 0xfff)]
                / params::LMR_HISTORY_DIVISOR;
        }
        reduction
    }

    /// A quiet move caused a cut-off: remember it as a killer and countermove, raise its
    /// history and lower that of the quiet moves tried before it.
    fn reward_quiet(
        &mut self,
        side: Color,
        packed: PackedMove,
        tried: &[PackedMove],
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
            self.countermoves[usize::from(previous & 0xfff)] = packed;
        }
        if features.history {
            let bonus = params::history_bonus(depth);
            let table = &mut self.history[side as usize];
            apply_history(&mut table[usize::from(packed & 0xfff)], bonus);
            for &other in tried {
                apply_history(&mut table[usize::from(other & 0xfff)], -bonus);
            }
        }
    }

    /// Quiescence search of a node entered from the main search (already counted there).
    fn quiesce_node(&mut self, pos: &Position, mut alpha: Value, beta: Value, ply: usize) -> Value {
        self.stats.qnodes += 1;
        self.seldepth = self.seldepth.max(ply);
        let features = self.features;
        let in_check = pos.is_check();
        let mut best = -INFINITY;
        let mut stand_pat = -INFINITY;
        if !in_check {
            // Lazy evaluation: far above beta on material alone, the positional terms will
            // not bring the score back down; stand pat on the material.
            if features.lazy_eval && self.search.config.eval == Evaluation::Positional {
                let material = eval::evaluate(pos);
                if material - params::LAZY_EVAL_MARGIN >= beta {
                    return material;
                }
            }
            // Stand pat: the side to move may decline every capture. (A stalemate scored by
            // stand pat here is the usual price of not generating moves first.)
            stand_pat = self.evaluate(pos);
            best = stand_pat;
            if best >= beta || ply >= MAX_PLY - 1 {
                return best;
            }
            alpha = alpha.max(best);
        }

        // In check every evasion is searched and standing pat is not allowed: a mated side
        // must score as mated, not as its material. Otherwise only captures and promotions,
        // generated without the quiet moves.
        let legal = pos.tactical_moves();
        if legal.is_empty() {
            return if in_check { mated_in(ply) } else { best };
        }

        let mut moves = ScoredMoves::new();
        for &mv in &legal {
            if in_check || is_tactical(mv) {
                let score = ordering::mvv_lva_score(mv);
                moves.push(ScoredMove { mv, score });
            }
        }
        let mut child = pos.clone();
        for index in 0..moves.len() {
            let mv = pick_next(&mut moves, index);
            if !in_check {
                // Delta pruning: even winning this piece cannot reach alpha.
                if features.futility
                    && mv.promotion().is_none()
                    && stand_pat + mv.capture().map_or(0, piece_value) + params::DELTA_MARGIN
                        <= alpha
                {
                    continue;
                }
                // Captures that lose material are not worth resolving.
                if features.see && !see_non_negative(pos, mv) {
                    continue;
                }
            }
            pos.play_into(mv, &mut child);
            let score = -self.quiesce(&child, -beta, -alpha, ply + 1);
            if self.aborted {
                return DRAW;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                }
                if score >= beta {
                    break;
                }
            }
        }
        best
    }

    /// Quiescence search of a node below the horizon.
    fn quiesce(&mut self, pos: &Position, alpha: Value, beta: Value, ply: usize) -> Value {
        self.stats.nodes += 1;
        if self.poll_abort() {
            return DRAW;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(pos);
        }
        self.quiesce_node(pos, alpha, beta, ply)
    }

    /// Static evaluation through a small per-thread cache (the positional evaluation costs
    /// far more than a probe, and quiescence meets the same positions again and again).
    #[inline]
    fn evaluate(&mut self, pos: &Position) -> Value {
        let eval = self.search.config.eval;
        if eval == Evaluation::Material {
            return eval.evaluate(pos);
        }
        let slot = &mut self.eval_cache[pos.key() as usize & (EVAL_CACHE_SIZE - 1)];
        if slot.0 == pos.key() {
            return slot.1;
        }
        let value = eval.evaluate(pos);
        *slot = (pos.key(), value);
        value
    }

    /// Whether the node's position occurred before, since the last capture or pawn move (and
    /// the last null move), on the search path or in the game. One repetition is a draw.
    fn is_repetition(&self, pos: &Position) -> bool {
        let reversible = pos.halfmoves() as usize;
        let current = self.keys.len() - 1;
        let earliest = current.saturating_sub(reversible).max(self.null_floor);
        let mut index = current;
        while index >= earliest + 2 {
            index -= 2;
            if self.keys[index] == pos.key() {
                return true;
            }
        }
        false
    }

    fn update_pv(&mut self, ply: usize, mv: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        let _ = line.try_extend_from_slice(&tail[0]);
    }

    /// Counts towards the next poll; when due, publishes the node count and checks stop,
    /// time and node limits (helpers stop when the main thread does).
    #[inline]
    fn poll_abort(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.is_main
            && let Some(limit) = self.search.limits.nodes
            && self.total_nodes() >= limit.max(1)
        {
            self.aborted = true;
            return true;
        }
        if self.stats.nodes < self.next_poll {
            return false;
        }
        self.next_poll = self.stats.nodes + POLL_INTERVAL;
        self.publish_nodes();
        self.aborted = if self.is_main {
            self.time_is_up()
        } else {
            self.shared.helpers_stop.load(Ordering::Relaxed) || self.search.control.is_stopped()
        };
        self.aborted
    }

    /// Adds the nodes searched since the last call to the shared count.
    pub fn publish_nodes(&mut self) {
        let fresh = self.stats.nodes - self.published_nodes;
        if fresh > 0 {
            self.shared.nodes.fetch_add(fresh, Ordering::Relaxed);
            self.published_nodes = self.stats.nodes;
        }
    }

    /// Nodes of all threads: the shared count plus this thread's unpublished nodes.
    fn total_nodes(&self) -> u64 {
        self.shared.nodes.load(Ordering::Relaxed) + (self.stats.nodes - self.published_nodes)
    }

    fn time_is_up(&self) -> bool {
        let control = self.search.control;
        if control.is_stopped() {
            return true;
        }
        if control.is_pondering() {
            return false;
        }
        match self.deadlines.hard {
            Some(hard) => control.elapsed() >= hard,
            None => false,
        }
    }

    /// The report of line `pv_index` (0-based) of a completed iteration.
    pub fn report(&self, depth: u32, pv_index: usize, score: Value, bound: Bound) -> Report {
        Report {
            depth,
            seldepth: self.seldepth as u32,
            multipv: pv_index as u32 + 1,
            score,
            bound,
            nodes: self.total_nodes(),
            elapsed: self.search.control.elapsed(),
            hashfull: self.search.tt.hashfull(),
            pv: self.legal_line(&self.root_moves[pv_index].pv),
        }
    }

    /// The report of an iteration cut short after a root move raised alpha for the first line.
    pub fn partial_report(&self, depth: u32) -> Option<Report> {
        if !self.iteration_has_pv {
            return None;
        }
        let best = &self.root_moves[0];
        Some(self.report(depth, 0, best.score, Bound::Exact))
    }

    /// The report when not even depth 1 finished: the first root move in search order.
    pub fn fallback_report(&self) -> Report {
        let mut report = self.report(0, 0, 0, Bound::Upper);
        report.pv.truncate(1);
        if report.pv.first() != Some(&self.root_moves[0].mv) {
            report.pv = vec![self.root_moves[0].mv];
        }
        report
    }

    /// Builds the result from the last iteration's lines (best first), with the ponder move
    /// from the best line's PV; `helper_stats` are the other threads' counters.
    pub fn finish(&self, mut lines: Vec<Report>, helper_stats: Stats) -> SearchResult {
        let nodes = self.total_nodes();
        let elapsed = self.search.control.elapsed();
        let hashfull = self.search.tt.hashfull();
        for line in &mut lines {
            line.nodes = nodes;
            line.elapsed = elapsed;
            line.hashfull = hashfull;
        }
        let report = lines[0].clone();
        let mut stats = self.stats;
        stats += helper_stats;
        SearchResult {
            best_move: report.pv.first().copied(),
            ponder_move: report.pv.get(1).copied(),
            score: report.score,
            depth: report.depth,
            stats,
            report,
            lines,
        }
    }

    /// Replays `line` from the root, keeping its legal prefix, then extends it with hash moves
    /// (each checked for legality) up to a repetition or the maximum length.
    fn legal_line(&self, line: &[Move]) -> Vec<Move> {
        let mut pos = self.search.position.clone();
        let mut result = Vec::with_capacity(line.len());
        let mut seen = vec![pos.key()];
        for &mv in line {
            if !pos.legal_moves().contains(&mv) {
                break;
            }
            pos.play_in_place(mv);
            seen.push(pos.key());
            result.push(mv);
        }
        if self.search.config.hash_move {
            while result.len() < MAX_PLY / 2 {
                let Some(entry) = self.search.tt.probe(pos.key()) else {
                    break;
                };
                let legal = pos.legal_moves();
                let Some(mv) = tt::unpack_move(entry.mv, &legal) else {
                    break;
                };
                pos.play_in_place(mv);
                if seen.contains(&pos.key()) {
                    break;
                }
                seen.push(pos.key());
                result.push(mv);
            }
        }
        result
    }
}

/// History update with gravity: values stay within `±HISTORY_MAX` and recent results weigh
/// more than old ones.
#[inline]
fn apply_history(entry: &mut i32, bonus: i32) {
    *entry += bonus - *entry * bonus.abs() / params::HISTORY_MAX;
}
