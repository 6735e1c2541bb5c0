//! Perft through Brudno's `Position` (copy-make plus the incremental Zobrist key, bulk-counted
//! at the last ply) against `shakmaty::perft` on the same positions in the same run.
//!
//! Both report throughput in leaf nodes per second, so the ratio of the two rates is the cost
//! of keeping our own key. The target is Brudno at least 0.8 of shakmaty's rate. This bench
//! never checks counts: `tests/perft.rs` does.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

use brudno::position::Position;
use brudno::tools::perft::perft;

/// (name, FEN, depth): each run takes a few milliseconds.
const POSITIONS: [(&str, &str, u32); 4] = [
    (
        "startpos",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        4,
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        3,
    ),
    ("cpw3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5),
    (
        "cpw5",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        3,
    ),
];

fn perft_vs_shakmaty(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
    for (name, fen, depth) in POSITIONS {
        let position = Position::from_fen(fen, false).expect("bench FEN");
        let nodes = perft(&position, depth);
        assert_eq!(nodes, shakmaty::perft(position.chess(), depth), "{name}");
        group.throughput(Throughput::Elements(nodes));
        group.bench_with_input(BenchmarkId::new("brudno", name), &position, |b, pos| {
            b.iter(|| perft(black_box(pos), depth))
        });
        group.bench_with_input(
            BenchmarkId::new("shakmaty", name),
            position.chess(),
            |b, chess| b.iter(|| shakmaty::perft(black_box(chess), depth)),
        );
    }
    group.finish();
}

criterion_group! {
    name = benches;
    // Fewer bootstrap resamples and no plots: the statistics took longer than the
    // measurements on two shared cores. Command-line options still override these.
    config = Criterion::default().nresamples(10_000).without_plots();
    targets = perft_vs_shakmaty
}
criterion_main!(benches);
