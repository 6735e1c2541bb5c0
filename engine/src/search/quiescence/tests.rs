//! Quiescence with the transposition table, tested where its bounds act: many zero windows
//! around a position's true quiescence value, asked one after another of one worker whose
//! table keeps every entry they store, must each come out on the side of the window that
//! quiescence without a table gives.

use crate::position::Position;
use crate::rng::splitmix64;
use crate::search::features::Features;
use crate::search::history::Histories;
use crate::search::observer::Silent;
use crate::search::score::INFINITY;
use crate::search::time::Deadlines;
use crate::search::tt::TranspositionTable;
use crate::search::worker::{Shared, Worker};
use crate::search::{Limits, MoveOrder, Search, SearchConfig, SearchControl};

/// `count` positions of random playouts from the start (8 to 80 plies, a fixed seed), with
/// captures to resolve in most of them.
fn positions(count: usize, mut state: u64) -> Vec<Position> {
    let mut positions = Vec::with_capacity(count);
    while positions.len() < count {
        state = splitmix64(state);
        let plies = 8 + (state % 73) as usize;
        let mut pos = Position::default();
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            state = splitmix64(state);
            pos = pos.play(moves[(state % moves.len() as u64) as usize]);
        }
        if !pos.legal_moves().is_empty() {
            positions.push(pos);
        }
    }
    positions
}

/// Runs `probe` on the one worker of a search of `position` with `config` on `tt` (its
/// quiescence is then called at ply 1, as for a node below the root).
fn with_worker<R>(
    position: &Position,
    config: &SearchConfig,
    tt: &TranspositionTable,
    probe: impl FnOnce(&mut Worker) -> R,
) -> R {
    let limits = Limits::depth(1);
    let control = SearchControl::default();
    control.begin(false);
    let search = Search {
        position,
        history: &[],
        limits: &limits,
        config,
        tt,
        control: &control,
        histories: None,
    };
    let shared = Shared::new(1);
    let mut worker = Worker::new(
        &search,
        &shared,
        true,
        Deadlines::default(),
        Silent,
        Histories::new(),
    );
    probe(&mut worker)
}

#[test]
fn table_bounds_in_quiescence_agree_with_quiescence_without_a_table() {
    // Pure quiescence: no delta pruning, no SEE, material evaluation.
    let plain = SearchConfig {
        quiescence: true,
        order: MoveOrder::Staged,
        features: Features::NONE,
        ..SearchConfig::lab_baseline()
    };
    let tabled = SearchConfig {
        hash_move: true,
        tt_cutoffs: true,
        ..plain.clone()
    };
    let mut state = 0x0044_7AB1;
    let mut cutoffs = 0;
    for pos in positions(80, 0x0044_0001) {
        let exact = with_worker(&pos, &plain, &TranspositionTable::new(1), |worker| {
            worker.quiesce(&pos, -INFINITY, INFINITY, 1)
        });
        let tt = TranspositionTable::new(1);
        with_worker(&pos, &tabled, &tt, |worker| {
            for _ in 0..40 {
                state = splitmix64(state);
                let beta = exact - 300 + (state % 601) as i32;
                let value = worker.quiesce(&pos, beta - 1, beta, 1);
                assert_eq!(
                    value >= beta,
                    exact >= beta,
                    "{} with beta {beta}: {value}, without a table {exact}",
                    pos.fen()
                );
            }
            cutoffs += worker.stats.tt_cutoffs;
        });
    }
    assert!(cutoffs >= 1000, "only {cutoffs} cut-offs by the table");
}
