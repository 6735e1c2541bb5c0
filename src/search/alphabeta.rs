//! Negamax alpha-beta (fail-soft) and quiescence search, run by one `Worker` per thread.
//!
//! Bounds go down, values come up: a node is searched with a window `(alpha, beta)`, each
//! child with the negated window `(-beta, -alpha)`, and its value comes back negated. A move
//! whose value reaches `beta` refutes the opponent's previous move (`score >= beta` is the
//! cut-off) and the rest of the moves are skipped. Fail-soft: the returned value may lie
//! outside the window, which tells the table more than the bound would.
//!
//! The steps of a node, in the order they run, are numbered in `negamax`. Nothing here
//! allocates per node: move lists and PV lines live in fixed-size arrays.

use arrayvec::ArrayVec;
use shakmaty::Move;

use super::ordering::{self, ScoredMoves, is_tactical, pick_next, score_moves};
use super::score::{self, DRAW, INFINITY, MAX_PLY};
use super::stats::Stats;
use super::time::Deadlines;
use super::tt::{self, Bound, TtEntry};
use super::{Report, Search, SearchResult};
use crate::eval::{self, Value};
use crate::position::Position;

/// How often (in nodes) the clock and the stop flag are polled.
const POLL_INTERVAL: u64 = 1024;

type Line = ArrayVec<Move, MAX_PLY>;

/// A root move with what the current and last iterations learnt about it.
#[derive(Clone, Debug)]
pub(super) struct RootMove {
    pub mv: Move,
    /// Score in the last iteration that searched it to the end (-INFINITY if none).
    pub score: Value,
    /// Principal variation starting with `mv`.
    pub pv: Line,
}

/// The state of one searching thread.
pub(super) struct Worker<'a> {
    search: &'a Search<'a>,
    pub deadlines: Deadlines,
    pub root_moves: Vec<RootMove>,
    pub stats: Stats,
    pub aborted: bool,
    /// Keys of the game history followed by the current search path; the last is the node's.
    keys: Vec<u64>,
    /// Triangular PV table: `pv[ply]` is the best line found from the node at `ply`.
    pv: Vec<Line>,
    seldepth: usize,
    /// Root moves fully searched in the current iteration (for a cut-short iteration).
    completed_in_iteration: usize,
    next_poll: u64,
}

impl<'a> Worker<'a> {
    pub fn new(search: &'a Search<'a>, deadlines: Deadlines) -> Self {
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
        let mut scored = score_moves(
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
        Self {
            search,
            deadlines,
            root_moves,
            stats: Stats::default(),
            aborted: false,
            keys,
            pv: vec![Line::new(); MAX_PLY + 1],
            seldepth: 0,
            completed_in_iteration: 0,
            next_poll: POLL_INTERVAL,
        }
    }

    /// Searches every root move to `depth` with a full window; the best moves to the front.
    /// Returns the best score (meaningless if `aborted`).
    pub fn search_root(&mut self, depth: i32) -> Value {
        let root = self.search.position;
        let config = self.search.config;
        let mut alpha = -INFINITY;
        let beta = INFINITY;
        let mut best = -INFINITY;
        self.completed_in_iteration = 0;
        self.stats.nodes += 1;
        self.stats.interior += 1;
        self.stats.legal_moves += self.root_moves.len() as u64;
        for index in 0..self.root_moves.len() {
            let mv = self.root_moves[index].mv;
            let child = root.play(mv);
            self.keys.push(child.key());
            let score = if config.pruning {
                -self.negamax(&child, depth - 1, -beta, -alpha, 1)
            } else {
                -self.negamax(&child, depth - 1, -INFINITY, INFINITY, 1)
            };
            self.keys.pop();
            if self.aborted {
                break;
            }
            self.completed_in_iteration = index + 1;
            let root_move = &mut self.root_moves[index];
            root_move.score = score;
            if score > best {
                best = score;
                root_move.pv.clear();
                root_move.pv.push(mv);
                let _ = root_move.pv.try_extend_from_slice(&self.pv[1]);
                if score > alpha {
                    alpha = score;
                }
                // Keep the best move at the front: the next iteration searches it first.
                self.root_moves[..=index].rotate_right(1);
            }
        }
        if self.search.config.hash_move && !self.aborted {
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
        depth: i32,
        mut alpha: Value,
        beta: Value,
        ply: usize,
    ) -> Value {
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

        // Step 3. At the horizon, resolve captures (quiescence) or take the static evaluation.
        if depth <= 0 || ply >= MAX_PLY - 1 {
            self.stats.leaves += 1;
            return if self.search.config.quiescence && ply < MAX_PLY - 1 {
                self.quiesce_node(pos, alpha, beta, ply)
            } else {
                eval::evaluate(pos)
            };
        }

        // Step 4. Transposition table: a deep enough stored bound may answer the node outright;
        // otherwise its move is tried first.
        let config = self.search.config;
        let original_alpha = alpha;
        let mut hash_move = 0;
        if config.hash_move
            && let Some(entry) = self.search.tt.probe(pos.key())
        {
            self.stats.tt_hits += 1;
            hash_move = entry.mv;
            if config.tt_cutoffs && entry.depth >= depth {
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

        // Step 5. Generate the legal moves; none means checkmate or stalemate.
        let legal = pos.legal_moves();
        if legal.is_empty() {
            self.stats.leaves += 1;
            return if pos.is_check() {
                score::mated_in(ply)
            } else {
                DRAW
            };
        }
        self.stats.interior += 1;
        self.stats.legal_moves += legal.len() as u64;

        // Step 6. Search the moves in order: hash move, MVV-LVA captures, quiet moves.
        let mut moves = score_moves(&legal, config.order, hash_move, pos.key(), |_| 0);
        let mut best = -INFINITY;
        let mut best_move = None;
        for index in 0..moves.len() {
            let mv = pick_next(&mut moves, index);
            let child = pos.play(mv);
            self.keys.push(child.key());
            let score = if config.pruning {
                -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1)
            } else {
                -self.negamax(&child, depth - 1, -INFINITY, INFINITY, ply + 1)
            };
            self.keys.pop();
            if self.aborted {
                return DRAW;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, mv);
                }
                if config.pruning && score >= beta {
                    self.stats.cutoffs += 1;
                    if index == 0 {
                        self.stats.first_move_cutoffs += 1;
                    }
                    break;
                }
            }
        }

        // Step 7. Store the result with its bound type: failing high gives a lower bound,
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
                    eval: 0,
                    depth,
                    bound,
                },
            );
        }
        best
    }

    /// Quiescence search of a node entered from the main search (already counted there).
    fn quiesce_node(&mut self, pos: &Position, mut alpha: Value, beta: Value, ply: usize) -> Value {
        self.stats.qnodes += 1;
        self.seldepth = self.seldepth.max(ply);
        let legal = pos.legal_moves();
        let in_check = pos.is_check();

        // In check every evasion is searched and standing pat is not allowed: a mated side
        // must score as mated, not as its material.
        if legal.is_empty() {
            return if in_check { score::mated_in(ply) } else { DRAW };
        }
        let mut best = -INFINITY;
        if !in_check {
            // Stand pat: the side to move may decline every capture.
            best = eval::evaluate(pos);
            if best >= beta || ply >= MAX_PLY - 1 {
                return best;
            }
            alpha = alpha.max(best);
        }

        let mut moves = ScoredMoves::new();
        for &mv in &legal {
            if in_check || is_tactical(mv) {
                let score = ordering::mvv_lva_score(mv);
                moves.push(ordering::ScoredMove { mv, score });
            }
        }
        for index in 0..moves.len() {
            let mv = pick_next(&mut moves, index);
            let child = pos.play(mv);
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
            return eval::evaluate(pos);
        }
        self.quiesce_node(pos, alpha, beta, ply)
    }

    /// Whether the node's position occurred before, since the last capture or pawn move, on
    /// the search path or in the game. One repetition is scored as a draw.
    fn is_repetition(&self, pos: &Position) -> bool {
        let reversible = pos.halfmoves() as usize;
        let current = self.keys.len() - 1;
        let earliest = current.saturating_sub(reversible);
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

    /// Counts towards the next poll; when due, checks stop, time and node limits.
    #[inline]
    fn poll_abort(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if let Some(limit) = self.search.limits.nodes
            && self.stats.nodes >= limit.max(1)
        {
            self.aborted = true;
            return true;
        }
        if self.stats.nodes < self.next_poll {
            return false;
        }
        self.next_poll = self.stats.nodes + POLL_INTERVAL;
        self.aborted = self.time_is_up();
        self.aborted
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

    /// The report of a completed iteration.
    pub fn report(&self, depth: u32, score: Value, bound: Bound) -> Report {
        Report {
            depth,
            seldepth: self.seldepth as u32,
            score,
            bound,
            nodes: self.stats.nodes,
            elapsed: self.search.control.elapsed(),
            hashfull: self.search.tt.hashfull(),
            pv: self.legal_line(&self.root_moves[0].pv),
        }
    }

    /// The report of an iteration cut short after at least one root move was finished.
    pub fn partial_report(&self, depth: u32) -> Option<Report> {
        if self.completed_in_iteration == 0 {
            return None;
        }
        let best = &self.root_moves[0];
        Some(self.report(depth, best.score, Bound::Exact))
    }

    /// The report when not even depth 1 finished: the first root move in search order.
    pub fn fallback_report(&self) -> Report {
        let mut report = self.report(0, 0, Bound::Upper);
        report.pv.truncate(1);
        if report.pv.first() != Some(&self.root_moves[0].mv) {
            report.pv = vec![self.root_moves[0].mv];
        }
        report
    }

    /// Builds the result: fills the PV out from the table, picks the ponder move.
    pub fn finish(&self, mut report: Report) -> SearchResult {
        report.nodes = self.stats.nodes;
        report.elapsed = self.search.control.elapsed();
        report.hashfull = self.search.tt.hashfull();
        let best_move = report.pv.first().copied();
        SearchResult {
            best_move,
            ponder_move: report.pv.get(1).copied(),
            score: report.score,
            depth: report.depth,
            stats: self.stats,
            report,
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
