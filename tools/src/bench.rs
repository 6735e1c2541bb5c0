//! `bench`: a fixed-depth search of the positions in epd/bench.epd, giving a node-count
//! signature and the node rate.
//!
//! The node count is deterministic (one thread, a fresh 16 MiB table for each position, a
//! fixed depth), so it identifies the search's behaviour: a change that should not alter the
//! search must leave it unchanged. The last line is `<N> nodes <M> nps`, the format OpenBench
//! reads. The positions are compiled into the binary so bench runs from any directory.

use std::time::{Duration, Instant};

use crate::epd;
use brudno_engine::eval::Evaluation;
use brudno_engine::position::Position;
use brudno_engine::search::tt::TranspositionTable;
use brudno_engine::search::{Limits, Search, SearchConfig, SearchControl, SearchResult};

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
pub fn run(depth: Option<u32>, eval: Evaluation, out: &mut dyn FnMut(&str)) -> String {
    totals(depth.unwrap_or(DEFAULT_DEPTH), 1, eval, out).summary()
}

/// Runs bench with `threads` search threads and the evaluation `eval`, and returns the
/// totals. With one thread the node
/// count is the signature; with more it varies from run to run (Lazy SMP), and the per-position
/// times measure how much sooner the threads reach the depth.
pub fn totals(
    depth: u32,
    threads: usize,
    eval: Evaluation,
    out: &mut dyn FnMut(&str),
) -> BenchTotals {
    let (records, _) = epd::parse_text(BENCH_EPD);
    let mut tt = TranspositionTable::new(HASH_MIB);
    let mut totals = BenchTotals::default();
    for (index, record) in records.iter().enumerate() {
        let Ok(position) = record.position() else {
            out(&format!("position {}: unreadable, skipped", index + 1));
            continue;
        };
        let (elapsed, result) = search_fresh(&position, depth, threads, eval, &mut tt);
        totals.elapsed += elapsed;
        totals.nodes += result.stats.nodes;
        let best = result.best_move.map_or_else(
            || "0000".to_string(),
            |mv| Position::uci(mv, position.castling_mode()),
        );
        out(&format!(
            "position {:>2}/{} {:<22} nodes {:>9}  time {:>9.2} ms  bestmove {best}",
            index + 1,
            records.len(),
            record.id(),
            result.stats.nodes,
            elapsed.as_secs_f64() * 1000.0,
        ));
    }
    out("");
    out(&format!("Total time (ms) : {}", totals.elapsed.as_millis()));
    out(&format!("Nodes searched  : {}", totals.nodes));
    out(&format!("Nodes/second    : {}", totals.nps()));
    totals
}

/// Searches `position` to `depth` with `threads` threads on `tt`, emptied first; returns the
/// time the search took and its result.
fn search_fresh(
    position: &Position,
    depth: u32,
    threads: usize,
    eval: Evaluation,
    tt: &mut TranspositionTable,
) -> (Duration, SearchResult) {
    tt.resize(HASH_MIB);
    let config = SearchConfig {
        threads: threads.max(1),
        eval,
        ..SearchConfig::default()
    };
    let limits = Limits::depth(depth);
    let control = SearchControl::default();
    control.begin(false);
    let started = Instant::now();
    let result = Search {
        position,
        history: &[],
        limits: &limits,
        config: &config,
        tt,
        control: &control,
        histories: None,
    }
    .run(&mut |_| {});
    (started.elapsed(), result)
}

/// What `speedup` measured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Speedup {
    /// Median over the positions of each position's median time ratio (one thread / N).
    pub median: f64,
    /// 95% bootstrap interval of `median` (`median_interval`): how precisely the rounds
    /// pinned it down.
    pub interval: (f64, f64),
    /// Total one-thread time over total N-thread time (per-position medians summed).
    pub total: f64,
    /// N-thread nodes over one-thread nodes, totals.
    pub nodes: f64,
}

/// Time to depth with `threads` threads against one. Each bench position is searched to
/// `depth` with one thread and then at once with `threads` (a fresh table each time), so a
/// change in the machine's speed hits both sides of a ratio; `rounds` passes over the positions
/// give each position a median time on each side. Several threads are not deterministic, so
/// one round says little. Positions without a legal move are left out.
pub fn speedup(depth: u32, threads: usize, rounds: usize, out: &mut dyn FnMut(&str)) -> Speedup {
    let (records, _) = epd::parse_text(BENCH_EPD);
    let positions: Vec<(String, Position)> = records
        .iter()
        .filter_map(|r| Some((r.id(), r.position().ok()?)))
        .filter(|(_, p)| !p.legal_moves().is_empty())
        .collect();
    let mut tt = TranspositionTable::new(HASH_MIB);
    // [position] -> (one-thread times, N-thread times) and (one-thread nodes, N-thread nodes)
    let mut times = vec![(Vec::new(), Vec::new()); positions.len()];
    let mut nodes = vec![(0u64, 0u64); positions.len()];
    for round in 1..=rounds.max(1) {
        let mut one_total = 0.0;
        let mut many_total = 0.0;
        for (((_, position), time), node) in positions.iter().zip(&mut times).zip(&mut nodes) {
            let (one, one_result) =
                search_fresh(position, depth, 1, SearchConfig::default().eval, &mut tt);
            let (many, many_result) = search_fresh(
                position,
                depth,
                threads,
                SearchConfig::default().eval,
                &mut tt,
            );
            time.0.push(one.as_secs_f64());
            time.1.push(many.as_secs_f64());
            node.0 += one_result.stats.nodes;
            node.1 += many_result.stats.nodes;
            one_total += one.as_secs_f64();
            many_total += many.as_secs_f64();
        }
        out(&format!(
            "round {round}/{rounds}: 1 thread {:.2} s, {threads} threads {:.2} s",
            one_total, many_total
        ));
    }
    out("");
    let (mut one_sum, mut many_sum, mut one_nodes, mut many_nodes) = (0.0, 0.0, 0u64, 0u64);
    for (((id, _), (one, many)), &(n1, n2)) in positions.iter().zip(&times).zip(&nodes) {
        let (ratio, one, many) = position_speedup(one, many);
        one_sum += one;
        many_sum += many;
        one_nodes += n1;
        many_nodes += n2;
        out(&format!(
            "{id:<22} 1 thread {:>9.2} ms  {threads} threads {:>9.2} ms  speed-up {ratio:>5.2}  nodes x{:.2}",
            one * 1000.0,
            many * 1000.0,
            n2 as f64 / n1.max(1) as f64
        ));
    }
    let result = Speedup {
        median: median_speedup(&times),
        interval: median_interval(&times, BOOTSTRAP_REPLICATES, BOOTSTRAP_SEED),
        total: one_sum / many_sum.max(1e-9),
        nodes: many_nodes as f64 / one_nodes.max(1) as f64,
    };
    out("");
    out(&format!(
        "Time to depth {depth}, {threads} threads against 1, {} positions, {rounds} rounds:",
        positions.len()
    ));
    out(&format!(
        "median speed-up per position {:.3}, total {:.3}, nodes x{:.3}",
        result.median, result.total, result.nodes
    ));
    out(&format!(
        "95% interval of the median speed-up (bootstrap over the rounds): {:.3} to {:.3}",
        result.interval.0, result.interval.1
    ));
    result
}

/// Bootstrap replicates behind `Speedup::interval`.
const BOOTSTRAP_REPLICATES: usize = 1000;
/// Fixed seed: the same times give the same interval.
const BOOTSTRAP_SEED: u64 = 0x00b5_0d00_1963;

/// The statistic `speedup` reports, from each position's one-thread and N-thread times: the
/// median over positions of the ratio of the position's median times.
fn median_speedup(times: &[(Vec<f64>, Vec<f64>)]) -> f64 {
    let mut ratios: Vec<f64> = times
        .iter()
        .map(|(one, many)| position_speedup(one, many).0)
        .collect();
    median(&mut ratios)
}

/// One position's speed-up from its one-thread and N-thread times: the ratio of the median
/// times, with those medians.
fn position_speedup(one: &[f64], many: &[f64]) -> (f64, f64, f64) {
    let (one, many) = (median(&mut one.to_vec()), median(&mut many.to_vec()));
    (one / many.max(1e-9), one, many)
}

/// A 95% percentile-bootstrap interval of `median_speedup`: each position's one-thread and
/// N-thread times are drawn again with replacement, `replicates` times. It measures how
/// well the rounds pin the statistic down for these positions on this machine in this
/// hour; it cannot see the machine changing between runs.
fn median_interval(times: &[(Vec<f64>, Vec<f64>)], replicates: usize, seed: u64) -> (f64, f64) {
    let mut rng = SplitMix64(seed);
    let mut draw = |values: &[f64]| -> Vec<f64> {
        (0..values.len())
            .map(|_| values[(rng.next() % values.len() as u64) as usize])
            .collect()
    };
    let mut estimates: Vec<f64> = (0..replicates.max(1))
        .map(|_| {
            let resampled: Vec<(Vec<f64>, Vec<f64>)> = times
                .iter()
                .map(|(one, many)| (draw(one), draw(many)))
                .collect();
            median_speedup(&resampled)
        })
        .collect();
    estimates.sort_by(f64::total_cmp);
    let at = |q: f64| estimates[((estimates.len() - 1) as f64 * q).round() as usize];
    (at(0.025), at(0.975))
}

/// A small deterministic generator for the bootstrap (Steele, Lea and Flood's SplitMix64).
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// The median of `values` (sorted in place); 0 for none.
fn median(values: &mut [f64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f64::total_cmp);
    let middle = values.len() / 2;
    if values.len() % 2 == 1 {
        values[middle]
    } else {
        (values[middle - 1] + values[middle]) / 2.0
    }
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

    #[test]
    fn the_interval_collapses_on_steady_times_and_widens_on_scattered_ones() {
        // Three positions, ten rounds: 1-thread 30 ms, N-thread 20 ms, every round.
        let steady: Vec<(Vec<f64>, Vec<f64>)> =
            (0..3).map(|_| (vec![30.0; 10], vec![20.0; 10])).collect();
        assert_eq!(median_speedup(&steady), 1.5);
        assert_eq!(median_interval(&steady, 200, 7), (1.5, 1.5));
        // The N-thread times now fall in two modes, 15 and 25 ms, half the rounds each.
        let split = |n: usize| {
            (
                vec![30.0; n],
                (0..n)
                    .map(|i| if i % 2 == 0 { 15.0 } else { 25.0 })
                    .collect(),
            )
        };
        let scattered: Vec<(Vec<f64>, Vec<f64>)> = (0..3).map(|_| split(10)).collect();
        let estimate = median_speedup(&scattered);
        let (low, high) = median_interval(&scattered, 200, 7);
        assert!(low < estimate && estimate < high, "{low} {estimate} {high}");
        assert!(low <= 1.25 && high >= 1.9, "{low} {high}");
        // The same times and seed give the same interval.
        assert_eq!(median_interval(&scattered, 200, 7), (low, high));
    }

    #[test]
    fn median_of_odd_even_and_no_values() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 3.0, 2.0]), 2.5);
        assert_eq!(median(&mut []), 0.0);
    }
}
