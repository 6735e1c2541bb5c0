//! When a search stops: what `go` asked for (`Limits`: depth, nodes, the clock, a mate, the
//! root moves) and the flag and clock the front end shares with a running search
//! (`SearchControl`: `stop`, `ponderhit`, the time since `begin`).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use shakmaty::Move;

/// What the `go` command asked for. Times are for the side to move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Search at most this many plies.
    pub depth: Option<u32>,
    /// Search at most this many nodes.
    pub nodes: Option<u64>,
    /// Start no new iteration once this many nodes are searched (datagen's soft limit; `nodes`
    /// stays the hard one).
    pub soft_nodes: Option<u64>,
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
