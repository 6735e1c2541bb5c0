//! The state of one searching thread (`Worker`) and what the threads of a search share, with
//! the bookkeeping around the search proper: the evaluation cache, repetition detection, the
//! PV table, polling the clock and the stop flag, and the reports a finished iteration gives.
//!
//! The search itself lives next door: `root.rs` (iterations and the root), `alphabeta.rs`
//! (negamax), `quiescence.rs` and `heuristics.rs` (move ordering and what it learns).

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use arrayvec::ArrayVec;
use shakmaty::Move;

use super::abdada::Searching;
use super::config::Switches;
use super::features::Features;
use super::history::Histories;
use super::lmr;
use super::movepick::MoveOrder;
use super::movepick::{MovePicker, OrderingContext};
use super::observer::{Observer, Silent};
use super::report::{Report, SearchResult};
use super::request::Search;
use super::score::{self, INFINITY, MAX_PLY};
use super::stats::Stats;
use super::tablebase::{RootRanking, rank_root};
use super::time::Deadlines;
use super::tt::{self, Bound, PackedMove};
use crate::eval::incremental::Incremental;
use crate::eval::nnue::{Network, accumulator::Stack};
use crate::eval::{self, Evaluation, Value};
use crate::position::{PieceChanges, Position};

/// How often (in nodes) the clock and the stop flag are polled.
pub(super) const POLL_INTERVAL: u64 = 1024;
/// Entries of the per-thread evaluation cache (a power of two).
pub(super) const EVAL_CACHE_SIZE: usize = 1 << 13;

/// A line of moves (a principal variation).
pub(super) type Line = ArrayVec<Move, MAX_PLY>;

/// A root move with what the current and last iterations learnt about it.
#[derive(Clone, Debug)]
pub(super) struct RootMove {
    pub mv: Move,
    /// Score in the last iteration that searched it (-INFINITY if none).
    pub score: Value,
    /// Principal variation starting with `mv`.
    pub pv: Line,
    /// Nodes this thread spent below `mv` in the current iteration (time management).
    pub nodes: u64,
}

/// Per-ply state on the search path.
#[derive(Clone, Copy, Default)]
pub(super) struct Ply {
    /// Static evaluation (`-INFINITY` when in check).
    pub static_eval: Value,
    /// The move being searched from this ply (0 for none, `NULL_MOVE` for a null move).
    pub current: PackedMove,
    /// Two quiet moves that caused cut-offs at this ply.
    pub killers: [PackedMove; 2],
    /// The piece and target square of `current` for the continuation history
    /// (`history::piece_to`), 0 for none or a null move.
    pub moved: u16,
    /// The move left out of this node's search (the singular-extension test), 0 for none.
    pub excluded: PackedMove,
}

/// Per-ply slots: a node at ply `p < MAX_PLY` writes `p + 2` (its grandchildren's killers).
pub(super) const PLY_SLOTS: usize = MAX_PLY + 4;

/// The packed "move" of a null move (never a real packed move: from = to = h8).
pub(super) const NULL_MOVE: PackedMove = 63 | (63 << 6);

/// What the threads of one search share besides the table: the signal that the main thread
/// is done, the node count of all threads, and the deepest line a thread completed.
#[derive(Default)]
pub(super) struct Shared {
    /// Raised by the main thread when it stops: helper threads stop too.
    pub helpers_stop: AtomicBool,
    /// Nodes searched by all threads, published every poll interval.
    pub nodes: AtomicU64,
    /// The deepest iteration a thread completed with an exact score (MultiPV 1 only): the
    /// main thread plays it when it is deeper than its own last completed iteration.
    pub deepest: Mutex<Option<Report>>,
    /// The depth of `deepest` (0 for none), read at every poll: a thread whose iteration is
    /// no deeper gives it up (`Worker::poll_abort`).
    pub completed_depth: AtomicU32,
    /// Raised when a helper completes the `go depth` limit: the main thread stops then too,
    /// and plays that helper's line.
    pub depth_reached: AtomicBool,
    /// The positions the threads are searching now (empty with one thread).
    pub searching: Searching,
    /// The root moves ranked by the tablebases, when the root is in them: the threads search
    /// only the moves of the best rank.
    pub root_ranking: Option<RootRanking>,
    /// Tablebase hits of all threads, published with the nodes.
    pub tb_hits: AtomicU64,
}

impl Shared {
    /// What the `threads` threads of one search share.
    pub fn new(threads: usize) -> Self {
        Self {
            searching: Searching::new(threads),
            ..Self::default()
        }
    }

    /// What the threads of `search` share, the root ranked by the tablebases when it is in
    /// them.
    pub fn for_search(search: &Search) -> Self {
        let mut shared = Self::new(search.config.threads);
        shared.root_ranking = search.config.syzygy.as_ref().and_then(|syzygy| {
            rank_root(
                syzygy,
                search.position,
                search.history,
                &root_candidates(search),
            )
        });
        // Each root move the tables ranked was a probe: counted as Stockfish counts them, so
        // that `tbhits` is not 0 when only the root is in the tables.
        if let Some(ranking) = &shared.root_ranking {
            shared
                .tb_hits
                .store(ranking.moves.len() as u64, Ordering::Relaxed);
        }
        shared
    }

    /// Keeps `report` if it is deeper than the deepest completed line so far.
    pub fn offer(&self, report: Report) {
        let mut deepest = self.deepest.lock().unwrap_or_else(|p| p.into_inner());
        if deepest.as_ref().is_none_or(|d| report.depth > d.depth) {
            self.completed_depth.store(report.depth, Ordering::Relaxed);
            *deepest = Some(report);
        }
    }

    /// Whether some thread has completed an iteration of `depth` or deeper.
    pub fn has_completed(&self, depth: u32) -> bool {
        self.completed_depth.load(Ordering::Relaxed) >= depth
    }

    /// The deepest completed line, if it is deeper than `depth`.
    pub fn deeper_than(&self, depth: u32) -> Option<Report> {
        let deepest = self.deepest.lock().unwrap_or_else(|p| p.into_inner());
        deepest.as_ref().filter(|d| d.depth > depth).cloned()
    }
}

/// The legal root moves the search may play: those of `searchmoves`, or all of them when it
/// is empty or names none.
pub(super) fn root_candidates(search: &Search) -> Vec<Move> {
    let legal = search.position.legal_moves();
    let allowed =
        |m: &Move| search.limits.searchmoves.is_empty() || search.limits.searchmoves.contains(m);
    let candidates: Vec<Move> = legal.iter().copied().filter(allowed).collect();
    if candidates.is_empty() {
        legal.to_vec()
    } else {
        candidates
    }
}

/// The root's first order, from the move picker: in the engine's order its main mode at the
/// root (the hash move, captures and promotions that do not lose material by MVV-LVA, quiet
/// moves by the histories kept from the previous search, losing captures); in a lab order,
/// that order. Only `root_candidates` are kept.
fn root_order(search: &Search, histories: &Histories) -> Vec<Move> {
    let root = search.position;
    let candidates = root_candidates(search);
    let hash_move = if search.config.hash_move {
        search.tt.probe(root.key()).map_or(0, |e| e.mv)
    } else {
        0
    };
    if search.config.order != MoveOrder::Staged {
        return MovePicker::lab(&candidates, search.config.order, hash_move, root.key(), 0)
            .into_order();
    }
    let mut picker = MovePicker::main(
        tt::legal_move_from_packed(hash_move, root),
        0,
        root.is_check(),
    );
    // No move before the root in the tree: no killers, countermove or continuation rows.
    let context = OrderingContext {
        features: search.config.features,
        histories,
        continuation: None,
        killers: [0; 2],
        countermove: 0,
    };
    let mut order = Vec::with_capacity(candidates.len());
    while let Some(mv) = picker.next(root, &context) {
        if candidates.contains(&mv) {
            order.push(mv);
        }
    }
    debug_assert_eq!(order.len(), candidates.len());
    order
}

/// The state of one searching thread, watched by `O` (`Silent` when nobody watches).
pub(super) struct Worker<'a, O: Observer = Silent> {
    pub(super) search: &'a Search<'a>,
    /// Who watches the search (the `trace` tool); `Silent` compiles to nothing.
    pub(super) observer: O,
    pub(super) shared: &'a Shared,
    /// The main thread decides, reports and keeps time; helpers only fill the table.
    pub(super) is_main: bool,
    /// Own nodes already added to `shared.nodes`.
    pub(super) published_nodes: u64,
    /// Own tablebase hits already added to `shared.tb_hits`.
    pub(super) published_tb_hits: u64,
    /// Probe the tablebases inside the tree at positions with at most this many pieces (0:
    /// never).
    pub(super) tb_pieces: usize,
    pub(super) features: Features,
    pub(super) deadlines: Deadlines,
    pub(super) root_moves: Vec<RootMove>,
    pub(super) stats: Stats,
    pub(super) aborted: bool,
    /// Keys of the game history followed by the current search path; the last is the node's.
    pub(super) keys: Vec<u64>,
    /// Index in `keys` before which no repetition is possible (the last null move).
    pub(super) null_floor: usize,
    /// Triangular PV table: `pv[ply]` is the best line found from the node at `ply`.
    pub(super) pv: Vec<Line>,
    /// The per-ply state of the path, sized at compile time: a node clamps its ply into
    /// `1..MAX_PLY` once (`negamax_node`), and every access after that needs no bounds check.
    pub(super) plies: Box<[Ply; PLY_SLOTS]>,
    /// The histories (quiet, countermove, continuation), kept between
    /// searches when the search has a `HistoryStore`.
    pub(super) learned: Box<Histories>,
    /// The table part of the late move reductions (`lmr.rs`).
    pub(super) reductions: Arc<lmr::Table>,
    /// Cached static evaluations: [key, value]. All zeros at first, so the allocation comes
    /// zeroed from the system and a short search touches only the pages it uses.
    pub(super) eval_cache: Box<[[u64; 2]; EVAL_CACHE_SIZE]>,
    /// The network and the accumulators by ply, with the NNUE evaluation.
    pub(super) nnue: Option<(Arc<Network>, Stack)>,
    /// The positional evaluation's placements by ply and pawn cache, with that evaluation.
    pub(super) positional: Option<Incremental>,
    pub(super) seldepth: usize,
    /// Whether the current iteration found a move that raised alpha at the root.
    pub(super) iteration_has_pv: bool,
    /// The MultiPV line the root is searching (its moves from this index on).
    pub(super) pv_index: usize,
    /// The depth of the current iteration when another thread's completed iteration may
    /// supersede it (several threads, MultiPV 1); 0 otherwise.
    pub(super) skippable_depth: u32,
    /// Set with `aborted` when the iteration was given up because another thread completed
    /// one at least as deep: the thread goes on deeper, the search is not over.
    pub(super) superseded: bool,
    pub(super) next_poll: u64,
    /// The main thread without a node limit: between polls nothing needs a look
    /// (`poll_abort`).
    pub(super) quick_poll: bool,
}

impl<'a, O: Observer> Worker<'a, O> {
    pub(super) fn new(
        search: &'a Search<'a>,
        shared: &'a Shared,
        is_main: bool,
        deadlines: Deadlines,
        observer: O,
        learned: Box<Histories>,
    ) -> Self {
        let root = search.position;
        let root_move = |mv| RootMove {
            mv,
            score: -INFINITY,
            pv: Line::new(),
            nodes: 0,
        };
        let root_moves = if let Some(ranking) = &shared.root_ranking {
            // In the tables: only the moves that keep the result, quickest progress first.
            ranking.kept().map(|r| root_move(r.mv)).collect()
        } else {
            root_order(search, &learned)
                .into_iter()
                .map(root_move)
                .collect()
        };
        // Probes in the tree: not when the root ranking by DTZ already decides (or the root
        // is not won), as Stockfish does.
        let tb_pieces = match (&search.config.syzygy, &shared.root_ranking) {
            (None, _) => 0,
            (Some(_), Some(ranking)) if ranking.by_dtz || ranking.score() <= score::DRAW => 0,
            (Some(syzygy), _) => syzygy.piece_limit(),
        };
        let mut keys = Vec::with_capacity(search.history.len() + MAX_PLY + 1);
        keys.extend_from_slice(search.history);
        keys.push(root.key());
        Self {
            search,
            observer,
            shared,
            is_main,
            published_nodes: 0,
            published_tb_hits: 0,
            tb_pieces,
            features: search.config.features,
            deadlines,
            root_moves,
            stats: Stats::default(),
            aborted: false,
            keys,
            null_floor: 0,
            pv: vec![Line::new(); MAX_PLY + 1],
            plies: Box::new([Ply::default(); PLY_SLOTS]),
            learned,
            reductions: lmr::table(),
            eval_cache: vec![[0; 2]; EVAL_CACHE_SIZE]
                .into_boxed_slice()
                .try_into()
                .expect("EVAL_CACHE_SIZE entries"),
            nnue: (search.config.eval == Evaluation::Nnue).then(|| {
                let network = Arc::clone(&search.config.network);
                let mut stack = Stack::new(MAX_PLY + 4, &network);
                stack.set_root(root);
                (network, stack)
            }),
            positional: (search.config.eval == Evaluation::Positional)
                .then(|| Incremental::new(MAX_PLY + 4, root)),
            seldepth: 0,
            iteration_has_pv: false,
            pv_index: 0,
            skippable_depth: 0,
            superseded: false,
            next_poll: POLL_INTERVAL,
            quick_poll: is_main && search.limits.nodes.is_none(),
        }
    }

    /// The lab's switches this search obeys: for an observer that does not read them
    /// (`Silent`, the engine as it plays) the constant `Switches::PLAYING`, so that no node
    /// tests them.
    #[inline(always)]
    pub(super) fn switches(&self) -> Switches {
        if O::READS_SWITCHES {
            self.search.config.switches()
        } else {
            Switches::PLAYING
        }
    }

    /// Static evaluation of `pos`, the node at `ply` on the current path, through a small
    /// per-thread cache (the evaluation costs far more than a probe, and quiescence meets the
    /// same positions again and again). The network brings its accumulators up to date.
    #[inline]
    pub(super) fn evaluate(&mut self, pos: &Position, ply: usize) -> Value {
        let eval = self.search.config.eval;
        if eval == Evaluation::Material {
            return eval.evaluate(pos);
        }
        let slot = &mut self.eval_cache[pos.key() as usize & (EVAL_CACHE_SIZE - 1)];
        if slot[0] == pos.key() {
            return slot[1] as i64 as Value;
        }
        let value = match (&mut self.nnue, &mut self.positional) {
            (Some((network, stack)), _) => {
                let raw = stack.evaluate(ply, pos, network);
                eval::endgame::adjust(pos.board(), pos.turn(), raw)
            }
            (None, Some(positional)) => {
                let raw = positional.evaluate(ply, pos);
                eval::endgame::adjust(pos.board(), pos.turn(), raw)
            }
            (None, None) => eval.evaluate(pos),
        };
        *slot = [pos.key(), i64::from(value) as u64];
        value
    }

    /// The node at `ply` is reached by a move that made `changes`: the network's
    /// accumulators or the positional evaluation's placements follow (nothing to do for
    /// material).
    #[inline]
    pub(super) fn made_move(&mut self, ply: usize, changes: &PieceChanges) {
        if let Some((_, stack)) = &mut self.nnue {
            stack.push_move(ply, changes);
        }
        if let Some(positional) = &mut self.positional {
            positional.push_move(ply, changes);
        }
    }

    /// The node at `ply` is reached by a null move.
    #[inline]
    pub(super) fn made_null_move(&mut self, ply: usize) {
        if let Some((_, stack)) = &mut self.nnue {
            stack.push_null(ply);
        }
        if let Some(positional) = &mut self.positional {
            positional.push_null(ply);
        }
    }

    /// Whether the node's position occurred before, since the last capture or pawn move (and
    /// the last null move), on the search path or in the game. One repetition is a draw.
    pub(super) fn is_repetition(&self, pos: &Position) -> bool {
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

    pub(super) fn update_pv(&mut self, ply: usize, mv: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        let _ = line.try_extend_from_slice(&tail[0]);
    }

    /// Counts towards the next poll; when due, publishes the node count and checks stop,
    /// time and node limits (helpers stop when the main thread does), and whether another
    /// thread has completed an iteration as deep as this one (`superseded`).
    ///
    /// The common case, the main thread between polls with no node limit, is a test of
    /// three fields inlined into the node; the rest is a call.
    #[inline(always)]
    pub(super) fn poll_abort(&mut self) -> bool {
        if !self.aborted && self.quick_poll && self.stats.nodes < self.next_poll {
            return false;
        }
        self.poll_abort_slow()
    }

    #[inline(never)]
    fn poll_abort_slow(&mut self) -> bool {
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
        // Helpers look at the main thread's signal at every node (a read of a line nobody
        // writes until then), so the main thread never waits for them to finish.
        if !self.is_main && self.shared.helpers_stop.load(Ordering::Relaxed) {
            self.aborted = true;
            return true;
        }
        if self.stats.nodes < self.next_poll {
            return false;
        }
        self.next_poll = self.stats.nodes + POLL_INTERVAL;
        self.publish_nodes();
        self.aborted = if self.is_main {
            self.time_is_up() || self.shared.depth_reached.load(Ordering::Relaxed)
        } else {
            self.shared.helpers_stop.load(Ordering::Relaxed) || self.search.control.is_stopped()
        };
        if !self.aborted
            && self.skippable_depth > 0
            && self.shared.has_completed(self.skippable_depth)
        {
            self.aborted = true;
            self.superseded = true;
        }
        self.aborted
    }

    /// Adds the nodes searched (and the tablebase hits) since the last call to the shared
    /// counts.
    pub(super) fn publish_nodes(&mut self) {
        let fresh = self.stats.nodes - self.published_nodes;
        if fresh > 0 {
            self.shared.nodes.fetch_add(fresh, Ordering::Relaxed);
            self.published_nodes = self.stats.nodes;
        }
        let hits = self.stats.tb_hits - self.published_tb_hits;
        if hits > 0 {
            self.shared.tb_hits.fetch_add(hits, Ordering::Relaxed);
            self.published_tb_hits = self.stats.tb_hits;
        }
    }

    /// Tablebase hits of all threads, `None` without tables.
    pub(super) fn total_tb_hits(&self) -> Option<u64> {
        self.search.config.syzygy.as_ref().map(|_| {
            self.shared.tb_hits.load(Ordering::Relaxed)
                + (self.stats.tb_hits - self.published_tb_hits)
        })
    }

    /// Nodes of all threads: the shared count plus this thread's unpublished nodes.
    pub(super) fn total_nodes(&self) -> u64 {
        self.shared.nodes.load(Ordering::Relaxed) + (self.stats.nodes - self.published_nodes)
    }

    pub(super) fn time_is_up(&self) -> bool {
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

    /// The report of line `pv_index` (0-based) of a completed iteration. With the root in
    /// the tablebases, a score short of a mate is the tables' score of the line's move.
    pub(super) fn report(&self, depth: u32, pv_index: usize, score: Value, bound: Bound) -> Report {
        let pv = self.legal_line(&self.root_moves[pv_index].pv);
        let tb_score = self
            .shared
            .root_ranking
            .as_ref()
            .filter(|_| !score::is_mate(score))
            .and_then(|ranking| ranking.score_of(*pv.first()?));
        Report {
            depth,
            seldepth: self.seldepth as u32,
            multipv: pv_index as u32 + 1,
            score: tb_score.unwrap_or(score),
            bound: if tb_score.is_some() {
                Bound::Exact
            } else {
                bound
            },
            nodes: self.total_nodes(),
            elapsed: self.search.control.elapsed(),
            hashfull: self.search.tt.hashfull(),
            tbhits: self.total_tb_hits(),
            pv,
        }
    }

    /// After an iteration was superseded: the thread searches on (deeper), counting it.
    pub(super) fn resume_after_superseded(&mut self) {
        self.aborted = false;
        self.superseded = false;
        self.stats.superseded += 1;
    }

    /// Brings another thread's line up to now: its node count, time and table fill are those
    /// of when it was completed, maybe before this thread's last report.
    pub(super) fn refresh(&self, line: &mut Report) {
        line.nodes = self.total_nodes();
        line.elapsed = self.search.control.elapsed();
        line.hashfull = self.search.tt.hashfull();
        line.tbhits = self.total_tb_hits();
    }

    /// Takes another thread's completed line as this thread's last iteration: its move goes
    /// first at the root, with its score and PV, for the next iteration to start from.
    pub(super) fn adopt(&mut self, line: &mut Report) {
        self.refresh(line);
        let Some(index) = line
            .pv
            .first()
            .and_then(|mv| self.root_moves.iter().position(|r| r.mv == *mv))
        else {
            return;
        };
        self.root_moves[..=index].rotate_right(1);
        let best = &mut self.root_moves[0];
        best.score = line.score;
        best.pv = line.pv.iter().copied().take(MAX_PLY).collect();
    }

    /// The report of an iteration cut short after a root move raised alpha for the first line.
    pub(super) fn partial_report(&self, depth: u32) -> Option<Report> {
        if !self.iteration_has_pv {
            return None;
        }
        let best = &self.root_moves[0];
        Some(self.report(depth, 0, best.score, Bound::Exact))
    }

    /// The report when not even depth 1 finished: the first root move in search order.
    pub(super) fn fallback_report(&self) -> Report {
        let mut report = self.report(0, 0, 0, Bound::Upper);
        report.pv.truncate(1);
        if report.pv.first() != Some(&self.root_moves[0].mv) {
            report.pv = vec![self.root_moves[0].mv];
        }
        report
    }

    /// Builds the result from the last iteration's lines (best first), with the ponder move
    /// from the best line's PV. The counters are this thread's; `Search::run` adds the
    /// helpers'.
    pub(super) fn finish(&self, mut lines: Vec<Report>) -> SearchResult {
        let nodes = self.total_nodes();
        let elapsed = self.search.control.elapsed();
        let hashfull = self.search.tt.hashfull();
        let tbhits = self.total_tb_hits();
        for line in &mut lines {
            line.nodes = nodes;
            line.elapsed = elapsed;
            line.hashfull = hashfull;
            line.tbhits = tbhits;
        }
        let report = lines[0].clone();
        let stats = self.stats;
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
    /// (each checked for legality) up to a repetition or the maximum length. The line ends at
    /// the first position where the game would be over by rule, counting the game's own
    /// history: a threefold repetition, the fifty-move rule, insufficient material (match
    /// runners warn about a PV that goes on after one).
    pub(super) fn legal_line(&self, line: &[Move]) -> Vec<Move> {
        let mut pos = self.search.position.clone();
        let mut result = Vec::with_capacity(line.len());
        // Every position of the game so far, then the root and the line's positions.
        let mut game: Vec<u64> = self.search.history.to_vec();
        let root = game.len();
        game.push(pos.key());
        // A position with no legal move ends the line by itself (no move after it is legal).
        let over_by_rule = |pos: &Position, game: &[u64]| {
            pos.halfmoves() >= 100
                || pos.is_insufficient_material()
                || game.iter().filter(|&&k| k == pos.key()).count() >= 3
        };
        for &mv in line {
            if !pos.legal_moves().contains(&mv) {
                return result;
            }
            pos.play_in_place(mv);
            game.push(pos.key());
            result.push(mv);
            if over_by_rule(&pos, &game) {
                return result;
            }
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
                // The hash moves stop at the line's first repetition of its own positions.
                if game[root..].contains(&pos.key()) {
                    break;
                }
                game.push(pos.key());
                result.push(mv);
                if over_by_rule(&pos, &game) {
                    break;
                }
            }
        }
        result
    }
}

#[cfg(test)]
mod tests;
