//! What a search tells its front end, as data (the UCI crate writes it as text): a `Report`
//! for every line of every completed iteration, and the `SearchResult` at the end.

use std::time::Duration;

use shakmaty::Move;

use super::stats::Stats;
use super::tt::Bound;
use crate::eval::Value;

/// One completed iteration (or the final summary), as the UCI `info` line shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// Nominal depth of the iteration.
    pub depth: u32,
    /// Deepest ply reached, quiescence included.
    pub seldepth: u32,
    /// Which principal variation this is (1 = the best; more with MultiPV).
    pub multipv: u32,
    /// Score of the principal variation, from the side to move.
    pub score: Value,
    /// Whether `score` is exact or only a bound.
    pub bound: Bound,
    /// Nodes searched so far, by all threads.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// Permille of the hash table used by this search.
    pub hashfull: u32,
    /// Tablebase probes that gave an answer, by all threads; `None` without tables.
    pub tbhits: Option<u64>,
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
    /// The last report of the best line (what the final `info` line shows).
    pub report: Report,
    /// The last reports of every line (MultiPV), best first; `lines[0] == report`.
    pub lines: Vec<Report>,
    /// Counters summed over all threads.
    pub stats: Stats,
}
