//! Search correctness: mates found with the right distance, draws scored as draws, and
//! alpha-beta returning exactly the minimax value while examining no more leaves.

use crate::common;

use brudno::eval::{self, Value};
use brudno::position::Position;
use brudno::search::MoveOrder;
use brudno::search::score::{DRAW, INFINITY, mate_in_moves, mated_in};
use brudno::search::{Limits, SearchConfig};
use common::{
    bare_config, engine_config, has_mate_in, is_mated_within, random_positions, search_with,
};

fn best(fen: &str, depth: u32) -> (String, Option<i32>) {
    let pos = Position::from_fen(fen, false).unwrap();
    let result = search_with(&pos, &[], &engine_config(), &Limits::depth(depth));
    let best = result.best_move.map(|m| m.to_string()).unwrap_or_default();
    (best, mate_in_moves(result.score))
}

fn uci_best(fen: &str, depth: u32) -> (String, Option<i32>) {
    let pos = Position::from_fen(fen, false).unwrap();
    let result = search_with(&pos, &[], &engine_config(), &Limits::depth(depth));
    let mv = result
        .best_move
        .map(|m| Position::uci(m, pos.castling_mode()))
        .unwrap_or_default();
    (mv, mate_in_moves(result.score))
}

#[test]
fn mate_in_one() {
    // Scholar's mate.
    let (mv, score) = uci_best(
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        4,
    );
    assert_eq!((mv.as_str(), score), ("h5f7", Some(1)));
    // Back-rank mate.
    let (mv, score) = uci_best("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 4);
    assert_eq!((mv.as_str(), score), ("d1d8", Some(1)));
}

/// Checks a composed mate with the independent solver and then with the engine.
fn assert_mate(fen: &str, moves: u32, depth: u32, first_move: Option<&str>) {
    let pos = Position::from_fen(fen, false).unwrap();
    assert!(
        has_mate_in(&pos, moves),
        "solver: no mate in {moves}: {fen}"
    );
    assert!(!has_mate_in(&pos, moves - 1), "solver: shorter mate: {fen}");
    // The engine reduces and prunes, so the nominal depth may need to exceed 2N - 1; the mate
    // limit ends the search as soon as the mate is proven.
    let position = Position::from_fen(fen, false).unwrap();
    let limits = Limits {
        depth: Some(depth + 8),
        mate: Some(moves),
        ..Limits::default()
    };
    let result = search_with(&position, &[], &engine_config(), &limits);
    let mv = result
        .best_move
        .map(|m| Position::uci(m, position.castling_mode()))
        .unwrap_or_default();
    let score = mate_in_moves(result.score);
    assert_eq!(score, Some(moves as i32), "{fen}");
    if let Some(expected) = first_move {
        assert_eq!(mv, expected, "{fen}");
    }
    // The move the engine chose really mates in time.
    let after = pos.play(pos.parse_uci(&mv).unwrap());
    assert!(
        is_mated_within(&after, moves - 1),
        "{mv} does not mate: {fen}"
    );
}

#[test]
fn mate_in_two() {
    // 1. Nf6+ gxf6 2. Bxf7#.
    assert_mate(
        "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
        2,
        5,
        Some("d5f6"),
    );
}

#[test]
fn mate_in_three() {
    // Queen and rook against a bare king.
    assert_mate("7k/8/8/8/8/1Q6/8/R5K1 w - - 0 1", 2, 5, None);
    // Black mates the wandering king: 1... Bc5+ 2. Kxc5 Qb6+ 3. Kd5 Qd6#.
    assert_mate(
        "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1",
        3,
        6,
        None,
    );
}

#[test]
fn being_mated_is_a_negative_mate() {
    // Black's only moves are promotions on a1; every one is answered by Qb7# (or Qa7#).
    let fen = "k7/2Q5/1K6/8/8/8/p7/8 b - - 0 1";
    assert!(is_mated_within(&Position::from_fen(fen, false).unwrap(), 1));
    let (_, score) = best(fen, 4);
    assert_eq!(score, Some(-1));
}

#[test]
fn mated_and_stalemated_roots_have_no_move() {
    let pos = Position::from_fen("7k/7P/6K1/8/3B4/8/8/8 b - - 0 1", false).unwrap();
    let result = search_with(&pos, &[], &engine_config(), &Limits::depth(3));
    assert_eq!(result.best_move, None);
    assert_eq!(result.score, mated_in(0));
    let pos = Position::from_fen("8/8/8/8/8/6k1/6p1/6K1 w - - 0 1", false).unwrap();
    let result = search_with(&pos, &[], &engine_config(), &Limits::depth(3));
    assert_eq!(result.best_move, None);
    assert_eq!(result.score, DRAW);
}

#[test]
fn repetition_of_a_game_position_is_a_draw() {
    // White (a knight against a queen) to move after 1... Qb8 2. Nb1 Qa8: Nc3 repeats the
    // position the game started from. The search must score that move a draw and prefer it
    // to everything else, which loses material-wise.
    let mut pos = Position::from_fen("q6k/8/8/8/8/2N5/8/6K1 b - - 0 1", false).unwrap();
    let mut history = Vec::new();
    for m in ["a8b8", "c3b1", "b8a8"] {
        history.push(pos.key());
        pos.play_uci(m).unwrap();
    }
    let result = search_with(&pos, &history, &engine_config(), &Limits::depth(5));
    assert_eq!(result.score, DRAW);
    assert_eq!(result.best_move.unwrap().to_string(), "Nb1-c3");
    // Without the history the same position is simply lost material.
    let result = search_with(&pos, &[], &engine_config(), &Limits::depth(5));
    assert!(result.score <= -500, "{}", result.score);
}

#[test]
fn fifty_move_rule_is_a_draw() {
    // White is a queen up but the halfmove clock is at 99: any non-capturing, non-pawn move
    // ends the game in a draw, and no capture or pawn move is available.
    let pos = Position::from_fen("7k/8/8/8/8/8/8/1Q5K w - - 99 80", false).unwrap();
    let result = search_with(&pos, &[], &engine_config(), &Limits::depth(4));
    assert_eq!(result.score, DRAW);
    // The same position with a fresh clock is a big advantage.
    let pos = Position::from_fen("7k/8/8/8/8/8/8/1Q5K w - - 0 80", false).unwrap();
    let result = search_with(&pos, &[], &engine_config(), &Limits::depth(4));
    assert!(result.score > 500);
}

#[test]
fn insufficient_material_is_a_draw() {
    let pos = Position::from_fen("8/8/4k3/8/8/3NK3/8/8 w - - 0 1", false).unwrap();
    let result = search_with(&pos, &[], &engine_config(), &Limits::depth(5));
    assert_eq!(result.score, DRAW);
}

/// An independent, plain minimax (negamax form) with the engine's rules: material evaluation
/// at the horizon, mate by distance, stalemate, fifty-move rule, repetition on the path and
/// insufficient material. Returns (value, leaves).
fn reference_minimax(pos: &Position, depth: u32, ply: usize, path: &mut Vec<u64>) -> (Value, u64) {
    if ply > 0 {
        let repeated = path[..path.len() - 1]
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .take(pos.halfmoves() as usize / 2)
            .any(|&k| k == pos.key());
        let moves = pos.legal_moves();
        if pos.halfmoves() >= 100 && !(pos.is_check() && moves.is_empty()) {
            return (DRAW, 1);
        }
        if repeated || pos.is_insufficient_material() {
            return (DRAW, 1);
        }
    }
    if depth == 0 {
        return (eval::evaluate(pos), 1);
    }
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return (if pos.is_check() { mated_in(ply) } else { DRAW }, 1);
    }
    let mut best = -INFINITY;
    let mut leaves = 0;
    for m in moves {
        let child = pos.play(m);
        path.push(child.key());
        let (value, child_leaves) = reference_minimax(&child, depth - 1, ply + 1, path);
        path.pop();
        best = best.max(-value);
        leaves += child_leaves;
    }
    (best, leaves)
}

#[test]
fn alpha_beta_equals_minimax_and_examines_no_more_leaves() {
    let positions = random_positions(100, 0xB2D0_1963);
    let mut total_minimax = 0u64;
    let mut total_alphabeta = 0u64;
    for (index, pos) in positions.iter().enumerate() {
        for depth in 1..=4u32 {
            // Depth 4 on every position would take too long for a test run: every fourth.
            if depth == 4 && index % 4 != 0 {
                continue;
            }
            let limits = Limits::depth(depth);
            let minimax = search_with(
                pos,
                &[],
                &bare_config(false, MoveOrder::Generation),
                &limits,
            );
            let (reference, reference_leaves) =
                reference_minimax(pos, depth, 0, &mut vec![pos.key()]);
            assert_eq!(
                minimax.score,
                reference,
                "minimax vs reference: {} d{depth}",
                pos.fen()
            );
            assert_eq!(
                minimax.stats.leaves,
                reference_leaves,
                "{} d{depth}",
                pos.fen()
            );
            for order in [MoveOrder::Generation, MoveOrder::Staged, MoveOrder::Worst] {
                let ab = search_with(pos, &[], &bare_config(true, order), &limits);
                assert_eq!(
                    ab.score,
                    minimax.score,
                    "alpha-beta ({order:?}) vs minimax: {} depth {depth}",
                    pos.fen()
                );
                assert!(
                    ab.stats.leaves <= minimax.stats.leaves,
                    "{order:?} examined more leaves: {} d{depth}",
                    pos.fen()
                );
                if order == MoveOrder::Staged {
                    total_alphabeta += ab.stats.leaves;
                }
            }
            total_minimax += minimax.stats.leaves;
        }
    }
    // Pruning must actually prune: far fewer leaves over the whole set.
    assert!(
        total_alphabeta * 3 < total_minimax,
        "{total_alphabeta} vs {total_minimax}"
    );
}

/// Lazy SMP puts off moves another thread is searching (`abdada.rs`, whose unit test forces it
/// with a pretend thread) and searches them at the end. Here two real threads: without a
/// table each one's search is exact alpha-beta in any order, so they must return the single
/// thread's value, and they must have met (deferred) along the way.
#[test]
fn two_threads_defer_moves_and_return_the_exact_value() {
    let mut deferred = 0;
    for pos in random_positions(10, 0x5EED_0002) {
        for depth in 4..=5 {
            let limits = Limits::depth(depth);
            let one = search_with(&pos, &[], &bare_config(true, MoveOrder::Staged), &limits);
            assert_eq!(one.stats.deferred, 0, "one thread never defers");
            let two_threads = SearchConfig {
                threads: 2,
                ..bare_config(true, MoveOrder::Staged)
            };
            for _ in 0..2 {
                let two = search_with(&pos, &[], &two_threads, &limits);
                assert_eq!(two.score, one.score, "{} depth {depth}", pos.fen());
                deferred += two.stats.deferred;
            }
        }
    }
    assert!(deferred > 0, "the threads never met");
}

/// A thread gives up an iteration once another has completed one as deep (the main thread
/// then plays on from the helper's line). It must happen, and the search must still end on
/// the requested depth with a legal move, the line reported and the one played agreeing.
#[test]
fn two_threads_take_over_each_others_iterations_and_reach_the_depth() {
    let config = SearchConfig {
        threads: 2,
        ..engine_config()
    };
    let mut superseded = 0;
    for pos in random_positions(12, 0x5EED_0003) {
        for _ in 0..2 {
            let result = search_with(&pos, &[], &config, &Limits::depth(10));
            assert_eq!(result.depth, 10, "{}", pos.fen());
            let mv = result.best_move.expect("a move");
            assert!(pos.legal_moves().contains(&mv), "{}", pos.fen());
            assert_eq!(result.report.pv.first(), Some(&mv));
            superseded += result.stats.superseded;
        }
    }
    assert!(superseded > 0, "no iteration was ever taken over");
}

/// Threads share the table, take over each other's iterations and put off each other's
/// moves; none of it may hide a repetition. A perpetual check must still be seen as one:
/// White, a queen and two rooks down, draws by 1. Qe8+ Kh7 2. Qh5+ Kg8 3. Qe8+, and every
/// other move loses.
#[test]
fn two_threads_still_see_a_perpetual_check() {
    let pos = Position::from_fen("6k1/6p1/8/8/1rr5/8/1q4PP/4Q2K w - - 0 1", false).unwrap();
    for threads in [1, 2] {
        let config = SearchConfig {
            threads,
            ..engine_config()
        };
        for _ in 0..3 {
            let result = search_with(&pos, &[], &config, &Limits::depth(12));
            assert_eq!(result.score, DRAW, "{threads} threads");
            let mv = Position::uci(result.best_move.unwrap(), pos.castling_mode());
            assert_eq!(mv, "e1e8", "{threads} threads");
        }
    }
}

/// The same with the engine as it plays (table, selective search): two threads still prove
/// the composed mates with the right distance.
#[test]
fn two_threads_find_the_mates() {
    let config = SearchConfig {
        threads: 2,
        ..engine_config()
    };
    for (fen, moves) in [
        (
            "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
            2,
        ),
        (
            "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1",
            3,
        ),
    ] {
        let pos = Position::from_fen(fen, false).unwrap();
        for _ in 0..3 {
            let result = search_with(&pos, &[], &config, &Limits::depth(2 * moves + 6));
            assert_eq!(mate_in_moves(result.score), Some(moves as i32), "{fen}");
            let mv = result.best_move.unwrap();
            assert!(is_mated_within(&pos.play(mv), moves - 1), "{fen}");
        }
    }
}
