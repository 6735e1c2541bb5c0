//! The per-node hot paths, each timed on its own: legal move generation, making a move
//! (copy-make plus the incremental key, beside shakmaty's bare copy-make), evaluation (material
//! and positional, the latter also as the search runs it), and the transposition table's
//! probe and store.
//!
//! Every group reports time per operation (throughput in operations per second), measured
//! over the 50 positions of epd/bench.epd, so the figures multiply directly with the
//! operations per node that `cargo bench --bench search` prints to give the share of a node
//! each path takes. Run one group with `cargo bench --bench hot_paths -- movegen`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};
use shakmaty::Position as _;

use brudno::eval::incremental::Incremental;
use brudno::eval::{Evaluation, evaluate};
use brudno::position::Position;
use brudno::rng::splitmix64;
use brudno::search::table_memory::Pages;
use brudno::search::tt::{BUCKET_BYTES, Bound, TranspositionTable, TtEntry};
use brudno::tools::{bench, epd};

/// Short runs: the whole `cargo bench` has to finish in a couple of minutes on two cores.
fn configure(group: &mut BenchmarkGroup<'_, criterion::measurement::WallTime>) {
    group
        .sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
}

/// The bench positions (opening, middlegame, endgame, tactics).
fn positions() -> Vec<Position> {
    let (records, _) = epd::parse_text(bench::BENCH_EPD);
    records.iter().filter_map(|r| r.position().ok()).collect()
}

fn movegen(c: &mut Criterion) {
    let positions = positions();
    let mut group = c.benchmark_group("movegen");
    configure(&mut group);
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("legal_moves", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| black_box(p).legal_moves().len())
                .sum::<usize>()
        })
    });
    group.finish();
}

fn make_move(c: &mut Criterion) {
    let positions = positions();
    let work: Vec<(Position, Vec<shakmaty::Move>)> = positions
        .into_iter()
        .map(|p| {
            let moves = p.legal_moves().to_vec();
            (p, moves)
        })
        .collect();
    let moves: usize = work.iter().map(|(_, m)| m.len()).sum();
    let mut group = c.benchmark_group("make_move");
    configure(&mut group);
    group.throughput(Throughput::Elements(moves as u64));
    group.bench_function("brudno_play", |b| {
        b.iter(|| {
            let mut keys = 0u64;
            for (position, moves) in &work {
                for &m in moves {
                    keys ^= black_box(position).play(m).key();
                }
            }
            keys
        })
    });
    group.bench_function("shakmaty_clone_play", |b| {
        b.iter(|| {
            let mut turns = 0u32;
            for (position, moves) in &work {
                for &m in moves {
                    let mut child = black_box(position.chess()).clone();
                    child.play_unchecked(m);
                    turns += child.halfmoves();
                }
            }
            turns
        })
    });
    group.finish();
}

fn eval(c: &mut Criterion) {
    let positions = positions();
    let mut group = c.benchmark_group("eval");
    configure(&mut group);
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("material", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| evaluate(black_box(p)))
                .sum::<i32>()
        })
    });
    group.bench_function("positional", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| Evaluation::Positional.evaluate(black_box(p)))
                .sum::<i32>()
        })
    });
    // As the search evaluates: the placement kept by the moves (here each position is its
    // own root) and the pawn structure from a warm cache.
    let mut incremental: Vec<Incremental> =
        positions.iter().map(|p| Incremental::new(1, p)).collect();
    group.bench_function("positional_incremental", |b| {
        b.iter(|| {
            positions
                .iter()
                .zip(&mut incremental)
                .map(|(p, state)| state.evaluate(0, black_box(p)))
                .sum::<i32>()
        })
    });
    group.finish();
}

fn tt(c: &mut Criterion) {
    // 16 MiB as in bench and by default, with keys spread over the whole table so that the
    // cache misses of a real search are in the figure.
    const KEYS: usize = 4096;
    let table = TranspositionTable::new(16);
    let mut state = 7;
    let keys: Vec<u64> = (0..KEYS)
        .map(|_| {
            state = splitmix64(state);
            state
        })
        .collect();
    let misses: Vec<u64> = keys.iter().map(|k| splitmix64(k ^ 1)).collect();
    let entry = |i: usize| TtEntry {
        mv: (i as u16) | 1,
        score: (i % 200) as i32 - 100,
        eval: 0,
        depth: (i % 12) as i32,
        bound: Bound::Exact,
    };
    for (i, &key) in keys.iter().enumerate() {
        table.store(key, entry(i));
    }
    let hits = keys.iter().filter(|&&k| table.probe(k).is_some()).count();
    assert_eq!(hits, KEYS, "every stored key is found");
    let mut group = c.benchmark_group("tt");
    configure(&mut group);
    group.throughput(Throughput::Elements(KEYS as u64));
    group.bench_function("store", |b| {
        b.iter(|| {
            for (i, &key) in keys.iter().enumerate() {
                table.store(black_box(key), entry(i));
            }
        })
    });
    group.bench_function("probe_hit", |b| {
        b.iter(|| {
            keys.iter()
                .filter(|&&k| table.probe(black_box(k)).is_some())
                .count()
        })
    });
    group.bench_function("probe_miss", |b| {
        b.iter(|| {
            misses
                .iter()
                .filter(|&&k| table.probe(black_box(k)).is_some())
                .count()
        })
    });
    group.finish();
}

/// Probe cost against table size and page size: a table filled to the last bucket, then
/// probed at random keys, each probe a cache miss and, with 4 KiB pages on a large table, a
/// TLB miss too. `Pages::Normal` is the table as it was before huge pages.
fn tt_pages(c: &mut Criterion) {
    const PROBES: usize = 1 << 16;
    let mut group = c.benchmark_group("tt_pages");
    configure(&mut group);
    group.throughput(Throughput::Elements(PROBES as u64));
    for mib in [16, 1024] {
        for (name, pages) in [("huge", Pages::Huge), ("normal", Pages::Normal)] {
            let table = TranspositionTable::with_pages(mib, pages);
            let buckets = (mib << 20) / BUCKET_BYTES;
            let mut state = 11;
            // Four stores per bucket on average: every page is touched (and so backed).
            for i in 0..buckets * 4 {
                state = splitmix64(state);
                table.store(
                    state,
                    TtEntry {
                        mv: 1,
                        score: (i % 100) as i32,
                        eval: 0,
                        depth: (i % 8) as i32,
                        bound: Bound::Exact,
                    },
                );
            }
            let keys: Vec<u64> = (0..PROBES)
                .map(|_| {
                    state = splitmix64(state);
                    state
                })
                .collect();
            group.bench_function(format!("probe_{mib}mib_{name}"), |b| {
                b.iter(|| {
                    keys.iter()
                        .filter(|&&k| table.probe(black_box(k)).is_some())
                        .count()
                })
            });
        }
    }
    group.finish();
}

criterion_group! {
    name = benches;
    // Fewer bootstrap resamples and no plots: the statistics took longer than the
    // measurements on two shared cores. Command-line options still override these.
    config = Criterion::default().nresamples(10_000).without_plots();
    targets = movegen, make_move, eval, tt, tt_pages
}
criterion_main!(benches);
