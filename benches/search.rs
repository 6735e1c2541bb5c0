//! The whole search to a fixed depth on three positions (opening, middlegame, endgame), with
//! a freshly cleared 16 MiB table for every run as in `brudno bench`.
//!
//! Throughput is in search nodes per second. Before timing, each position is searched once
//! and the operations per node are printed (moves made, move generations, evaluations, table
//! probes and stores, from the search's own counters); multiplied with the per-operation
//! times of `cargo bench --bench hot_paths` they give the share of a node each hot path takes.
//! Run it alone with `cargo bench --bench search`.

use std::time::Duration;

use criterion::{BatchSize, BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

use brudno::position::Position;
use brudno::search::stats::Stats;
use brudno::search::tt::TranspositionTable;
use brudno::search::{Limits, Search, SearchConfig, SearchControl};

/// (name, FEN, depth): each search takes a few tens of milliseconds.
const POSITIONS: [(&str, &str, u32); 3] = [
    (
        "startpos",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        7,
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        5,
    ),
    (
        "rook_endgame",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        9,
    ),
];

/// Searches `position` to `depth` on `tt` (which the caller has cleared); returns the counters.
fn search(position: &Position, depth: u32, tt: &TranspositionTable) -> Stats {
    let limits = Limits::depth(depth);
    let config = SearchConfig::default();
    let control = SearchControl::default();
    control.begin(false);
    Search {
        position,
        history: &[],
        limits: &limits,
        config: &config,
        tt,
        control: &control,
        histories: None,
    }
    .run(&mut |_| {})
    .stats
}

/// Prints how often each hot path runs per node; every node but the root is entered by one
/// move, move generation happens at interior and quiescence nodes, the static evaluation at
/// most once per quiescence node, the table is probed at interior nodes and at the nodes it
/// answers, and written at interior nodes.
fn print_operations_per_node(name: &str, stats: &Stats) {
    let per_node = |count: u64| count as f64 / stats.nodes.max(1) as f64;
    eprintln!(
        "search/{name}: {} nodes; per node: make {:.2}, movegen {:.2}, eval <= {:.2}, \
         tt probe {:.2}, tt store {:.2}",
        stats.nodes,
        per_node(stats.nodes.saturating_sub(1)),
        per_node(stats.interior + stats.qnodes),
        per_node(stats.qnodes),
        per_node(stats.interior + stats.tt_cutoffs),
        per_node(stats.interior),
    );
}

fn fixed_depth(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
    let tt = TranspositionTable::new(16);
    for (name, fen, depth) in POSITIONS {
        let position = Position::from_fen(fen, false).expect("bench FEN");
        tt.clear(1);
        let stats = search(&position, depth, &tt);
        print_operations_per_node(name, &stats);
        group.throughput(Throughput::Elements(stats.nodes));
        group.bench_with_input(
            BenchmarkId::new(format!("depth{depth}"), name),
            &position,
            |b, position| {
                b.iter_batched(
                    || tt.clear(1),
                    |()| search(position, depth, &tt),
                    BatchSize::PerIteration,
                )
            },
        );
    }
    group.finish();
}

criterion_group! {
    name = benches;
    // Fewer bootstrap resamples and no plots: the statistics took longer than the
    // measurements on two shared cores. Command-line options still override these.
    config = Criterion::default().nresamples(10_000).without_plots();
    targets = fixed_depth
}
criterion_main!(benches);
