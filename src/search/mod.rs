//! The search: one implementation behind every front end (UCI, bench, epd, ebf).
//!
//! `Search::run` performs iterative deepening from depth 1: each iteration calls the root
//! alpha-beta search (`alphabeta.rs`) with the previous iteration's best move first, reports
//! the completed iteration through a callback, and stops at the depth, node, time or mate
//! limit or when `stop` is raised. A best move exists once depth 1 is done; if even depth 1 is
//! cut short, the first root move in search order (a legal move) is played. Switches in
//! `SearchConfig` turn pruning, ordering, the table and quiescence on and off so that the
//! search lab studies this very search, never a copy. This module never prints: output is
//! the front end's business.

mod alphabeta;
pub mod features;
pub mod ordering;
pub mod params;
pub mod score;
pub mod see;
pub mod stats;
pub mod time;
pub mod tt;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use shakmaty::Move;

use crate::eval::{Evaluation, Value};
use crate::position::Position;
use alphabeta::Worker;
use features::Features;
use ordering::MoveOrder;
use score::MAX_PLY;
use stats::Stats;
use tt::{Bound, TranspositionTable};

/// What the `go` command asked for. Times are for the side to move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Search at most this many plies.
    pub depth: Option<u32>,
    /// Search at most this many nodes.
    pub nodes: Option<u64>,
    /// Think exactly this long (minus Move Overhead).
    pub movetime: Option<Duration>,
    /// The side to move's remaining clock.
    pub time: Option<Duration>,
    /// The side to move's increment per move.
    pub increment: Duration,
    /// Moves until the next time control, if any.
    pub movestogo: Option<u32>,
    /// Stop once a mate in at most this many moves is found.
    pub mate: Option<u32>,
    /// Search until `stop` (the UCI layer holds `bestmove` until then).
    pub infinite: bool,
    /// Restrict the root to these moves (all legal); empty means every legal move.
    pub searchmoves: Vec<Move>,
}

impl Limits {
    /// Searches exactly to `depth` plies.
    pub fn depth(depth: u32) -> Self {
        Self {
            depth: Some(depth),
            ..Self::default()
        }
    }

    /// Whether a clock or movetime bounds this search.
    pub fn is_timed(&self) -> bool {
        self.time.is_some() || self.movetime.is_some()
    }
}

/// The switches of the search. `SearchConfig::default()` is the engine as it plays; the search
/// lab turns parts off to measure what each one buys.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    /// Alpha-beta cut-offs; `false` is plain minimax (every move searched with a full window).
    pub pruning: bool,
    /// How moves are ordered after the hash move.
    pub order: MoveOrder,
    /// Use the table's best move to order moves (and store results at all).
    pub hash_move: bool,
    /// Return stored scores from the table when their depth and bound allow.
    pub tt_cutoffs: bool,
    /// Search depths 1, 2, ... up to the limit; `false` searches the final depth only.
    pub iterative_deepening: bool,
    /// Quiescence search at the horizon; `false` scores the horizon with the static evaluation.
    pub quiescence: bool,
    /// Selective-search techniques (pruning, reductions, extensions, move-ordering heuristics).
    pub features: Features,
    /// The evaluation function.
    pub eval: Evaluation,
    /// Threads searching (Lazy SMP helpers share the table).
    pub threads: usize,
    /// Move Overhead: time kept back for the GUI and the network.
    pub move_overhead: Duration,
}

impl Default for SearchConfig {
    fn default() -> Self {
        Self {
            pruning: true,
            order: MoveOrder::MvvLva,
            hash_move: true,
            tt_cutoffs: true,
            iterative_deepening: true,
            quiescence: true,
            features: Features::ALL,
            eval: Evaluation::Positional,
            threads: 1,
            move_overhead: Duration::from_millis(10),
        }
    }
}

impl SearchConfig {
    /// The search lab's starting point: plain alpha-beta at a fixed depth in generation order,
    /// with no table, no iterative deepening, no quiescence, nothing selective and material
    /// evaluation. The lab switches parts on from here.
    pub fn lab_baseline() -> Self {
        Self {
            pruning: true,
            order: MoveOrder::Generation,
            hash_move: false,
            tt_cutoffs: false,
            iterative_deepening: false,
            quiescence: false,
            features: Features::NONE,
            eval: Evaluation::Material,
            ..Self::default()
        }
    }

    /// The core engine of the first release: alpha-beta with iterative deepening, quiescence,
    /// MVV-LVA, the transposition table and material evaluation, nothing selective. The
    /// baseline that playing-strength gains are measured against.
    pub fn material_core() -> Self {
        Self {
            features: Features::NONE,
            eval: Evaluation::Material,
            ..Self::default()
        }
    }
}

/// Stop flag and clock shared between the front end and a running search.
///
/// The front end calls `begin` before the search thread starts (so a `stop` that arrives at
/// once is never lost), `stop` to end it and `ponderhit` to turn pondering into a normal timed
/// search whose clock starts at that moment.
#[derive(Debug)]
pub struct SearchControl {
    stop: AtomicBool,
    pondering: AtomicBool,
    epoch: Instant,
    start_nanos: AtomicU64,
}

impl Default for SearchControl {
    fn default() -> Self {
        Self {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            epoch: Instant::now(),
            start_nanos: AtomicU64::new(0),
        }
    }
}

impl SearchControl {
    /// Resets the flags for a new search and starts its clock now.
    pub fn begin(&self, pondering: bool) {
        self.stop.store(false, Ordering::SeqCst);
        self.pondering.store(pondering, Ordering::SeqCst);
        self.restart_clock();
    }

    /// Asks the search to stop as soon as possible.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Whether `stop` has been asked.
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The opponent played the expected move: pondering ends and the clock starts now.
    pub fn ponderhit(&self) {
        self.restart_clock();
        self.pondering.store(false, Ordering::SeqCst);
    }

    /// Whether the search is pondering (no time limit applies while it is).
    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    /// Time since `begin` (or since `ponderhit`).
    pub fn elapsed(&self) -> Duration {
        let start = Duration::from_nanos(self.start_nanos.load(Ordering::Relaxed));
        self.epoch.elapsed().saturating_sub(start)
    }

    fn restart_clock(&self) {
        let now = self.epoch.elapsed().as_nanos() as u64;
        self.start_nanos.store(now, Ordering::SeqCst);
    }
}

/// One completed iteration (or the final summary), as the UCI `info` line shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// Nominal depth of the iteration.
    pub depth: u32,
    /// Deepest ply reached, quiescence included.
    pub seldepth: u32,
    /// Score of the principal variation, from the side to move.
    pub score: Value,
    /// Whether `score` is exact or only a bound.
    pub bound: Bound,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// Permille of the hash table used by this search.
    pub hashfull: u32,
    /// The principal variation: a legal sequence from the root.
    pub pv: Vec<Move>,
}

impl Report {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        let micros = self.elapsed.as_micros().max(1);
        (u128::from(self.nodes) * 1_000_000 / micros) as u64
    }
}

/// What a finished search returns.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The move to play; `None` only when the root has no legal move.
    pub best_move: Option<Move>,
    /// The expected reply, for pondering.
    pub ponder_move: Option<Move>,
    /// Score of the best move.
    pub score: Value,
    /// Deepest completed iteration (0 when none completed).
    pub depth: u32,
    /// The last report (what the final `info` line shows).
    pub report: Report,
    /// Counters summed over all threads.
    pub stats: Stats,
}

/// A search of one position: the single entry point of every front end.
pub struct Search<'a> {
    /// The root position.
    pub position: &'a Position,
    /// Keys of the game's earlier positions, oldest first, excluding the root (repetitions).
    pub history: &'a [u64],
    /// When to stop.
    pub limits: &'a Limits,
    /// Which parts of the search are switched on.
    pub config: &'a SearchConfig,
    /// The shared transposition table.
    pub tt: &'a TranspositionTable,
    /// Stop flag and clock.
    pub control: &'a SearchControl,
}

impl Search<'_> {
    /// Runs the search; `report` is called after every completed iteration.
    pub fn run(&self, report: &mut dyn FnMut(&Report)) -> SearchResult {
        self.tt.new_search();
        let deadlines = time::deadlines(self.limits, self.config.move_overhead);
        let mut worker = Worker::new(self, deadlines);
        if worker.root_moves.is_empty() {
            return self.no_legal_move(&worker);
        }
        self.iterate(&mut worker, report)
    }

    /// Iterative deepening: depth 1, 2, ... until a limit says stop.
    fn iterate(&self, worker: &mut Worker, report: &mut dyn FnMut(&Report)) -> SearchResult {
        let max_depth = self
            .limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .clamp(1, MAX_PLY as u32 - 1);
        let first_depth = if self.config.iterative_deepening {
            1
        } else {
            max_depth
        };
        let mut completed: Option<Report> = None;
        let mut previous_score = None;
        for depth in first_depth..=max_depth {
            let (score, bound) = worker.iteration(depth as i32, previous_score);
            if worker.aborted {
                // A root move that raised alpha in the cut-short iteration is at least as good
                // as the previous choice (it was searched deeper): keep it.
                if let Some(partial) = worker.partial_report(depth) {
                    completed = Some(partial);
                }
                break;
            }
            let iteration = worker.report(depth, score, bound);
            report(&iteration);
            completed = Some(iteration);
            previous_score = Some(score);
            if self.should_stop_after_iteration(worker, depth, score) {
                break;
            }
        }
        let report = completed.unwrap_or_else(|| worker.fallback_report());
        worker.finish(report)
    }

    /// Whether to stop between iterations: soft deadline, mate limit, proven mate, forced move.
    fn should_stop_after_iteration(&self, worker: &Worker, depth: u32, score: Value) -> bool {
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
                && self.control.elapsed() >= soft
            {
                return true;
            }
        }
        false
    }

    fn no_legal_move(&self, worker: &Worker) -> SearchResult {
        let score = if self.position.is_check() {
            score::mated_in(0)
        } else {
            score::DRAW
        };
        let report = Report {
            depth: 0,
            seldepth: 0,
            score,
            bound: Bound::Exact,
            nodes: 0,
            elapsed: self.control.elapsed(),
            hashfull: self.tt.hashfull(),
            pv: Vec::new(),
        };
        SearchResult {
            best_move: None,
            ponder_move: None,
            score,
            depth: 0,
            report,
            stats: worker.stats,
        }
    }
}
