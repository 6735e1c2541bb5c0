//! `bench`: a fixed-depth search of the positions in epd/bench.epd, giving a node-count
//! signature and the node rate.
//!
//! The node count is deterministic (one thread, a fresh 16 MiB table for each position, a
//! fixed depth), so it identifies the search's behaviour: a change that should not alter the
//! search must leave it unchanged. The last line is `<N> nodes <M> nps`, the format OpenBench
//! reads. The positions are compiled into the binary so bench runs from any directory.

use std::time::{Duration, Instant};

use crate::search::tt::TranspositionTable;
use crate::search::{Limits, Search, SearchConfig, SearchControl};
use crate::tools::epd;
use crate::uci::bestmove_line;

/// The bench positions, shipped with the engine.
pub const BENCH_EPD: &str = include_str!("../../epd/bench.epd");
/// Depth used when none is given: the whole run takes 5 to 20 seconds in release on one core
/// of the project's 2-core machines (about 16 million nodes in 7 seconds).
pub const DEFAULT_DEPTH: u32 = 13;
/// Hash size for every bench position, in MiB.
pub const HASH_MIB: usize = 16;

/// Totals of a bench run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BenchTotals {
    /// Nodes over all positions: the signature.
    pub nodes: u64,
    /// Time spent searching.
    pub elapsed: Duration,
}

impl BenchTotals {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (u128::from(self.nodes) * 1_000_000 / self.elapsed.as_micros().max(1)) as u64
    }

    /// The OpenBench line: `<N> nodes <M> nps`.
    pub fn summary(&self) -> String {
        format!("{} nodes {} nps", self.nodes, self.nps())
    }
}

/// Runs bench at `depth` (default `DEFAULT_DEPTH`) on one thread, printing a line per
/// position through `out`; returns the closing `<N> nodes <M> nps` line.
pub fn run(depth: Option<u32>, out: &mut dyn FnMut(&str)) -> String {
    totals(depth.unwrap_or(DEFAULT_DEPTH), 1, out).summary()
}

/// Runs bench with `threads` search threads and returns the totals. With one thread the node
/// count is the signature; with more it varies from run to run (Lazy SMP), and the per-position
/// times measure how much sooner the threads reach the depth.
pub fn totals(depth: u32, threads: usize, out: &mut dyn FnMut(&str)) -> BenchTotals {
    let (records, _) = epd::parse_text(BENCH_EPD);
    let mut tt = TranspositionTable::new(HASH_MIB);
    let config = SearchConfig {
        threads: threads.max(1),
        ..SearchConfig::default()
    };
    let limits = Limits::depth(depth);
    let mut totals = BenchTotals::default();
    for (index, record) in records.iter().enumerate() {
        let Ok(position) = record.position() else {
            out(&format!("position {}: unreadable, skipped", index + 1));
            continue;
        };
        tt.resize(HASH_MIB);
        let control = SearchControl::default();
        control.begin(false);
        let started = Instant::now();
        let result = Search {
            position: &position,
            history: &[],
            limits: &limits,
            config: &config,
            tt: &tt,
            control: &control,
        }
        .run(&mut |_| {});
        let elapsed = started.elapsed();
        totals.elapsed += elapsed;
        totals.nodes += result.stats.nodes;
        out(&format!(
            "position {:>2}/{} {:<22} nodes {:>9}  time {:>9.2} ms  {}",
            index + 1,
            records.len(),
            record.id(),
            result.stats.nodes,
            elapsed.as_secs_f64() * 1000.0,
            bestmove_line(result.best_move, None, position.castling_mode())
        ));
    }
    out("");
    out(&format!("Total time (ms) : {}", totals.elapsed.as_millis()));
    out(&format!("Nodes searched  : {}", totals.nodes));
    out(&format!("Nodes/second    : {}", totals.nps()));
    totals
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bench_position_is_valid() {
        let (records, errors) = epd::parse_text(BENCH_EPD);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(records.len(), 50);
        for record in &records {
            assert!(record.position().is_ok(), "{}", record.id());
        }
    }
}
