//! The worker's deferral of busy moves (`abdada.rs`), tested through real searches: a pretend
//! second thread marks positions in the shared table, and one worker searches around them.

use shakmaty::Move;

use super::{Shared, Worker};
use crate::position::Position;
use crate::search::MoveOrder;
use crate::search::observer::Silent;
use crate::search::time::Deadlines;
use crate::search::tt::TranspositionTable;
use crate::search::{Limits, Search, SearchConfig, SearchControl};

/// Searches `fen` to `depth` on one worker whose `Shared` is given, with a fresh table:
/// the value, the moves put off, the best move.
fn search_value(fen: &str, depth: u32, shared: &Shared, config: &SearchConfig) -> (i32, u64, Move) {
    let position = Position::from_fen(fen, false).unwrap();
    let limits = Limits::depth(depth);
    let tt = TranspositionTable::new(1);
    let control = SearchControl::default();
    control.begin(false);
    let search = Search {
        position: &position,
        history: &[],
        limits: &limits,
        config,
        tt: &tt,
        control: &control,
        histories: None,
    };
    let mut worker = Worker::new(
        &search,
        shared,
        true,
        Deadlines::default(),
        Silent,
        crate::search::history::Histories::new(),
    );
    let (score, _) = worker.iteration(depth as i32, 0, None);
    (score, worker.stats.deferred, worker.root_moves[0].mv)
}

/// A pretend second thread is busy with every child and grandchild of the root: the
/// worker puts off all but the first move at the root and at each child, and still returns
/// the value of alpha-beta that defers nothing (dropping a put-off move changes it).
#[test]
fn deferred_moves_are_searched_last_and_never_dropped() {
    let fens = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        "8/2k5/3p4/p2P1p2/P2P1P2/8/8/4K3 w - - 0 1",
    ];
    // Plain alpha-beta: its value does not depend on the order of the moves.
    let config = SearchConfig {
        pruning: true,
        order: MoveOrder::Staged,
        ..SearchConfig::lab_baseline()
    };
    for depth in [3, 4] {
        for fen in fens {
            let (reference, none, _) = search_value(fen, depth, &Shared::new(1), &config);
            assert_eq!(none, 0);
            let busy = Shared::new(64);
            let root = Position::from_fen(fen, false).unwrap();
            let mut children = 0;
            for mv in root.legal_moves() {
                let child = root.play(mv);
                children += 1;
                assert!(busy.searching.mark(child.key()).is_some());
                for reply in child.legal_moves() {
                    let _ = busy.searching.mark(child.play(reply).key());
                }
            }
            let (value, deferred, _) = search_value(fen, depth, &busy, &config);
            assert_eq!(value, reference, "{fen} depth {depth}");
            assert!(deferred >= children - 1, "{fen}: {deferred} deferred");
        }
    }
}

/// A search leaves the table as it found it: every mark it made is gone (those taken off
/// early, before a new best move's full-window search, too), and every mark of the
/// pretend other thread is still there.
#[test]
fn a_search_removes_its_own_marks_and_no_one_elses() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let config = SearchConfig::default();
    let (_, _, best) = search_value(fen, 6, &Shared::new(2), &config);
    // The pretend other thread is busy with every reply to the best move.
    let shared = Shared::new(2);
    let child = Position::from_fen(fen, false).unwrap().play(best);
    let mut others = Vec::new();
    for reply in child.legal_moves() {
        let key = child.play(reply).key();
        if shared.searching.mark(key).is_some() {
            others.push(key);
        }
    }
    assert!(others.len() >= 4);
    let (_, deferred, _) = search_value(fen, 6, &shared, &config);
    assert!(deferred > 0, "the pretend marks were seen");
    let mut left = shared.searching.marked_keys();
    left.sort_unstable();
    others.sort_unstable();
    assert_eq!(left, others);
}
