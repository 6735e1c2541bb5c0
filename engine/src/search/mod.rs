//! The search: one implementation behind every front end (UCI, bench, epd, ebf).
//!
//! `Search::run` performs iterative deepening from depth 1: each iteration (`root.rs`, the
//! aspiration window) calls the one search function (`alphabeta.rs`, for the root and every
//! other node) with the previous iteration's best move first, reports the completed iteration
//! through a callback, and stops at the depth, node, time or mate limit or when `stop` is
//! raised. A best move exists once depth 1 is done; if even depth 1 is
//! cut short, the first root move in search order (a legal move) is played. Switches in
//! `SearchConfig` turn pruning, ordering, the table and quiescence on and off so that the
//! search lab studies this very search, never a copy. With Syzygy tables (`tablebase/`) a
//! root in the tables plays only the moves that keep its result. This module never prints: output is
//! the front end's business.

mod abdada;
mod alphabeta;
pub mod config;
pub mod correction;
pub mod features;
mod heuristics;
pub mod history;
pub mod level;
pub mod limits;
pub mod lmr;
pub mod movepick;
mod moves;
pub use movepick::MoveOrder;
pub mod observer;
pub mod params;
pub mod pool;
mod probcut;
mod pruning;
mod quiescence;
pub mod report;
mod request;
pub mod resources;
mod root;
pub mod score;
pub mod see;
pub mod stats;
pub mod table_memory;
pub mod tablebase;
mod tbprobe;
pub mod time;
pub mod tt;
pub mod wdl;
mod worker;

pub use config::SearchConfig;
pub(crate) use config::Switches;
pub use limits::{Limits, SearchControl};
pub use report::{Report, SearchResult};
pub use request::Search;

use std::sync::atomic::Ordering;
use std::time::Duration;

use crate::eval::Value;
use observer::{Observer, Silent, SilentLab};
use score::MAX_PLY;
use stats::Stats;
use tt::Bound;
use worker::{Shared, Worker};

/// Stack for helper threads: the recursion keeps move lists on the stack.
const HELPER_STACK_BYTES: usize = 16 << 20;

/// One iteration at `depth`: the MultiPV lines one after the other, each from its score at
/// the depth before (`previous_scores`, updated), until one is cut short by a stop.
fn search_lines<O: Observer>(
    worker: &mut Worker<O>,
    depth: u32,
    previous_scores: &mut [Option<Value>],
) -> Vec<(Value, Bound)> {
    let mut reports = Vec::with_capacity(previous_scores.len());
    if !worker.aborted {
        worker.observer.iteration(depth);
    }
    for (pv_index, previous) in previous_scores.iter_mut().enumerate() {
        if worker.aborted {
            break;
        }
        let (score, bound) = worker.iteration(depth as i32, pv_index, *previous);
        if worker.aborted {
            break;
        }
        *previous = Some(score);
        reports.push((score, bound));
    }
    reports
}

/// An iteration at `depth` cut short: the lines it finished (`reports`) replace their older
/// selves in `completed`. If even the first line was cut short, a root move that already
/// raised alpha in it is at least as good as the previous choice (it was searched deeper):
/// that is kept.
fn merge_cut_short<O: Observer>(
    worker: &mut Worker<O>,
    depth: u32,
    reports: &[(Value, Bound)],
    completed: &mut Vec<Report>,
) {
    let mut fresh: Vec<Report> = reports
        .iter()
        .enumerate()
        .map(|(pv_index, &(score, bound))| worker.report(depth, pv_index, score, bound))
        .collect();
    if fresh.is_empty() {
        fresh.extend(worker.partial_report(depth));
    }
    for (pv_index, line) in fresh.into_iter().enumerate() {
        match completed.get_mut(pv_index) {
            Some(slot) => *slot = line,
            None => completed.push(line),
        }
    }
    // An older line may now show a move a fresher line already shows.
    let mut seen = Vec::new();
    completed.retain(|line| {
        let first = line.pv.first().copied();
        let new = !seen.contains(&first);
        seen.push(first);
        new
    });
    for (pv_index, line) in completed.iter_mut().enumerate() {
        line.multipv = pv_index as u32 + 1;
    }
}

/// Puts the MultiPV lines of a completed iteration best first. Each line is the best of the
/// moves the better lines left, but pruning and the table make scores slightly path
/// dependent, so a later line can come out above an earlier one; a GUI expects them in order.
/// The root moves, the scores and the aspiration anchors move together.
fn sort_lines<O: Observer>(
    worker: &mut Worker<O>,
    reports: &mut [(Value, Bound)],
    previous_scores: &mut [Option<Value>],
) {
    let mut order: Vec<usize> = (0..reports.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(reports[i].0));
    if order.iter().enumerate().all(|(at, &i)| at == i) {
        return;
    }
    let moves: Vec<_> = order
        .iter()
        .map(|&i| worker.root_moves[i].clone())
        .collect();
    let scores: Vec<_> = order.iter().map(|&i| reports[i]).collect();
    let anchors: Vec<_> = order.iter().map(|&i| previous_scores[i]).collect();
    worker.root_moves[..moves.len()].clone_from_slice(&moves);
    reports.copy_from_slice(&scores);
    previous_scores.copy_from_slice(&anchors);
}

impl Search<'_> {
    /// Runs the search; `report` is called for every line of every completed iteration.
    /// With `threads > 1`, helper threads search the same root and share the table (Lazy
    /// SMP); the main thread keeps time, decides and reports, and its stop stops them all.
    pub fn run(&self, report: &mut dyn FnMut(&Report)) -> SearchResult {
        if self.config.switches() == Switches::PLAYING {
            self.run_observed(Silent, report).0
        } else {
            self.run_observed(SilentLab, report).0
        }
    }

    /// Runs the search as `run` does, with `observer` watching the main thread's search
    /// (`observer.rs`); returns the result and the observer.
    pub fn run_observed<O: Observer>(
        &self,
        observer: O,
        report: &mut dyn FnMut(&Report),
    ) -> (SearchResult, O) {
        assert!(
            O::READS_SWITCHES || self.config.switches() == Switches::PLAYING,
            "an observer that does not read the lab's switches was given other switches"
        );
        self.tt.new_search();
        let deadlines = time::deadlines(self.limits, self.config.move_overhead);
        let shared = Shared::for_search(self);
        let mut worker = Worker::new(self, &shared, true, deadlines, observer, self.histories(0));
        if worker.root_moves.is_empty() {
            let result = self.no_legal_move(&worker);
            self.keep_histories(0, worker.learned);
            return (result, worker.observer);
        }
        let helpers = self.config.threads.saturating_sub(1);
        if helpers == 0 {
            let result = self.iterate(&mut worker, report);
            self.keep_histories(0, worker.learned);
            return (result, worker.observer);
        }
        let helper_stats = std::sync::Mutex::new(Stats::default());
        let job = |index: usize| {
            let stats = if O::READS_SWITCHES {
                self.help(&shared, index, SilentLab)
            } else {
                self.help(&shared, index, Silent)
            };
            *helper_stats.lock().unwrap_or_else(|p| p.into_inner()) += stats;
        };
        let stop_helpers = || shared.helpers_stop.store(true, Ordering::SeqCst);
        let mut result =
            pool::with_helpers(helpers, HELPER_STACK_BYTES, &job, &stop_helpers, || {
                self.iterate(&mut worker, report)
            });
        result.stats += helper_stats.into_inner().unwrap_or_else(|p| p.into_inner());
        self.keep_histories(0, worker.learned);
        (result, worker.observer)
    }

    /// Thread `index`'s histories: those it left in the store, or empty ones.
    fn histories(&self, index: usize) -> Box<history::Histories> {
        self.histories
            .map_or_else(history::Histories::new, |store| store.take(index))
    }

    /// Leaves thread `index`'s histories for the next search, when there is a store.
    fn keep_histories(&self, index: usize, learned: Box<history::Histories>) {
        if let Some(store) = self.histories {
            store.put(index, learned);
        }
    }

    /// A helper thread: iterative deepening on the same root without reporting, filling the
    /// shared table. Odd helpers search every other depth, those of the limit's parity (so the
    /// last is the limit): they run ahead of the main thread and reach the limit sooner, and
    /// the threads do not all search the same tree at the same depth. (Measured against odd
    /// helpers searching every depth one ply ahead: time to depth 12, 13 and 14 with two
    /// threads, median per position, 1.39 / 1.35 / 1.46 -> 1.47 / 1.52 / 1.62.) All threads
    /// put off the moves another thread is searching (`abdada.rs`). Each completed iteration
    /// is offered to the main thread, which plays the deepest one; a helper that completes
    /// the `go depth` limit ends the search. A thread gives up an iteration (or skips it)
    /// once another has completed one at least as deep, and goes on deeper. Returns its
    /// counters.
    fn help<O: Observer>(&self, shared: &Shared, index: usize, observer: O) -> Stats {
        let mut worker = Worker::new(
            self,
            shared,
            false,
            time::Deadlines::default(),
            observer,
            self.histories(index),
        );
        let max_depth = self.max_depth();
        let step = if index % 2 == 1 { 2 } else { 1 };
        let first = 1 + (max_depth - 1) % step;
        let mut previous = None;
        for depth in (first..=max_depth).step_by(step as usize) {
            if shared.has_completed(depth) {
                continue;
            }
            worker.skippable_depth = if self.config.multipv <= 1 { depth } else { 0 };
            let (score, bound) = worker.iteration(depth as i32, 0, previous);
            if worker.superseded {
                worker.resume_after_superseded();
                continue;
            }
            if worker.aborted {
                break;
            }
            previous = Some(score);
            if self.config.multipv <= 1 && bound == Bound::Exact {
                shared.offer(worker.report(depth, 0, score, bound));
                if depth == max_depth && self.limits.depth.is_some() {
                    shared.depth_reached.store(true, Ordering::Relaxed);
                }
            }
        }
        worker.publish_nodes();
        self.keep_histories(index, worker.learned);
        worker.stats
    }

    /// The deepest iteration allowed: `go depth`, or the ply limit.
    fn max_depth(&self) -> u32 {
        self.limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .clamp(1, MAX_PLY as u32 - 1)
    }

    /// Iterative deepening: depth 1, 2, ... until a limit says stop. Each iteration searches
    /// the MultiPV lines one after the other, each among the root moves the better lines left.
    /// With several threads (MultiPV 1), an iteration a helper completes first is taken over
    /// from it: the main thread reports the helper's line and goes on one ply deeper (time to
    /// depth 13 with two threads, 2-thread times against the search without it, 20 rounds,
    /// first version: 1.6% shorter in median per position, 4.6% in total).
    fn iterate<O: Observer>(
        &self,
        worker: &mut Worker<O>,
        report: &mut dyn FnMut(&Report),
    ) -> SearchResult {
        let max_depth = self.max_depth();
        let first_depth = if self.config.iterative_deepening {
            1
        } else {
            max_depth
        };
        let lines = self.config.multipv.clamp(1, worker.root_moves.len());
        let mut completed: Vec<Report> = Vec::new();
        let mut previous_scores: Vec<Option<Value>> = vec![None; lines];
        let mut completed_depth = 0;
        let skipping = lines == 1 && worker.shared.searching.is_on();
        let mut depth = first_depth;
        let mut clock = time::Scaling::default();
        while depth <= max_depth {
            worker.skippable_depth = if skipping { depth } else { 0 };
            let iteration_start_nodes = worker.stats.nodes;
            for root_move in &mut worker.root_moves {
                root_move.nodes = 0;
            }
            if skipping && worker.shared.has_completed(depth) {
                // Already done by a helper: not even started.
                worker.aborted = true;
                worker.superseded = true;
            }
            let mut reports = search_lines(worker, depth, &mut previous_scores);
            // Another thread completed this depth (or a deeper one): play on from its line
            // rather than finish the same work. (The line is always there: `offer` publishes
            // the depth and the line under one lock; without it, this ends like a stop.)
            if worker.superseded
                && let Some(mut line) = worker.shared.deeper_than(completed_depth)
            {
                worker.resume_after_superseded();
                worker.adopt(&mut line);
                previous_scores[0] = Some(line.score);
                completed_depth = line.depth;
                depth = line.depth + 1;
                report(&line);
                completed = vec![line];
                if self.should_stop_after_iteration(
                    worker,
                    completed_depth,
                    completed[0].score,
                    1.0,
                ) {
                    break;
                }
                continue;
            }
            if worker.aborted {
                merge_cut_short(worker, depth, &reports, &mut completed);
                break;
            }
            if lines > 1 {
                sort_lines(worker, &mut reports, previous_scores.as_mut_slice());
            }
            completed = reports
                .iter()
                .enumerate()
                .map(|(pv_index, &(score, bound))| worker.report(depth, pv_index, score, bound))
                .collect();
            completed_depth = depth;
            for line in &completed {
                report(line);
            }
            if skipping {
                worker.shared.offer(completed[0].clone());
            }
            let scale = if lines == 1 && worker.features.time_management {
                let nodes = worker.stats.nodes - iteration_start_nodes;
                let best = &worker.root_moves[0];
                clock.update(best.mv, completed[0].score, best.nodes, nodes)
            } else {
                1.0
            };
            if self.should_stop_after_iteration(worker, depth, completed[0].score, scale) {
                break;
            }
            depth += 1;
        }
        // A helper that completed a deeper iteration than the main thread (it skips depths,
        // or the main thread was stopped mid-iteration) has the better move.
        if lines == 1
            && let Some(mut line) = worker.shared.deeper_than(completed_depth)
        {
            worker.refresh(&mut line);
            report(&line);
            completed = vec![line];
        }
        if completed.is_empty() {
            completed.push(worker.fallback_report());
        }
        worker.finish(completed)
    }

    /// Whether to stop between iterations: soft deadline (times `scale`, what time
    /// management makes of the last iterations, never beyond the hard deadline), mate limit,
    /// proven mate, forced move.
    fn should_stop_after_iteration<O: Observer>(
        &self,
        worker: &Worker<O>,
        depth: u32,
        score: Value,
        scale: f64,
    ) -> bool {
        if let Some(mate) = self.limits.mate
            && score::is_mate(score)
            && score > 0
            && (score::MATE - score + 1) / 2 <= mate as i32
        {
            return true;
        }
        if self.control.is_pondering() || self.limits.infinite {
            return false;
        }
        if self
            .limits
            .soft_nodes
            .is_some_and(|soft| worker.stats.nodes >= soft)
        {
            return true;
        }
        if self.limits.is_timed() {
            if worker.root_moves.len() == 1 {
                return true;
            }
            // A mate found well within the searched depth is not going to change (reductions
            // mean a mate found at just the searched depth may still be shortened).
            if score::is_mate(score) && 2 * (score::MATE - score.abs()) <= depth as i32 {
                return true;
            }
            if let Some(soft) = worker.deadlines.soft
                && self.control.elapsed()
                    >= soft
                        .mul_f64(scale)
                        .min(worker.deadlines.hard.unwrap_or(Duration::MAX))
            {
                return true;
            }
        }
        false
    }

    fn no_legal_move<O: Observer>(&self, worker: &Worker<O>) -> SearchResult {
        let score = if self.position.is_check() {
            score::mated_in(0)
        } else {
            score::DRAW
        };
        let report = Report {
            depth: 0,
            seldepth: 0,
            multipv: 1,
            score,
            bound: Bound::Exact,
            nodes: 0,
            elapsed: self.control.elapsed(),
            hashfull: self.tt.hashfull(),
            tbhits: self.config.syzygy.as_ref().map(|_| 0),
            pv: Vec::new(),
        };
        SearchResult {
            best_move: None,
            ponder_move: None,
            score,
            depth: 0,
            lines: vec![report.clone()],
            report,
            stats: worker.stats,
        }
    }
}
