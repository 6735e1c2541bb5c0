//! The accumulators against a refresh from scratch, for the plain network and for one with
//! king buckets, mirroring and output buckets, through the generic path and through the
//! fixed-width path (`fixed.rs`) where the width and the processor have one.

use shakmaty::{Move, Square};

use super::*;
use crate::rng::splitmix64;

/// A network of shape `arch` with varied weights.
fn varied(arch: Architecture) -> Network {
    let mut network = Network::zeroed(arch);
    let mut state = 1;
    for w in network.w1.iter_mut() {
        state = splitmix64(state);
        *w = (state % 41) as i16 - 20;
    }
    for (j, b) in network.b1.iter_mut().enumerate() {
        *b = (j % 13) as i16;
    }
    for (k, w) in network.w2.iter_mut().enumerate() {
        *w = ((k * 7) % 31) as i16 - 15;
    }
    for (k, b) in network.b2.iter_mut().enumerate() {
        *b = 321 - 50 * k as i32;
    }
    network
}

/// Four king buckets by rank pairs, mirrored, eight output buckets.
fn bucketed() -> Architecture {
    let mut bucket_of = [0u8; 64];
    for (square, bucket) in bucket_of.iter_mut().enumerate() {
        *bucket = match square / 8 {
            0 => 0,
            1 => 1,
            2 | 3 => 2,
            _ => 3,
        };
    }
    Architecture {
        king_buckets: 4,
        bucket_of,
        mirrored: true,
        hidden: 32,
        output_buckets: 8,
    }
}

/// The stack's accumulator at `ply`, as an `Accumulator`.
fn stacked(stack: &Stack, ply: usize) -> Accumulator {
    let (white, black) = (stack.slot(ply, 0), stack.slot(ply, 1));
    let mut values = stack.values[white].to_vec();
    values.extend_from_slice(&stack.values[black]);
    Accumulator { values }
}

/// Long random games from several starts (castling both ways, en passant, promotions,
/// kings walking across buckets and files; the Chess960 starts castle with king and rook
/// on other files): whenever a node is evaluated, each perspective's accumulator equals a
/// refresh from the board, and so does the value.
#[test]
fn updates_equal_a_refresh_after_every_move() {
    let starts =
        crate::position::test_positions::starts_and(&[("4k3/8/8/8/8/8/8/4K3 w - - 0 1", false)]);
    let wide_bucketed = Architecture {
        hidden: 256,
        ..bucketed()
    };
    for arch in [
        Architecture::plain(32),
        bucketed(),
        Architecture::plain(256),
        Architecture::plain(128),
        Architecture::plain(384),
        wide_bucketed,
    ] {
        let network = varied(arch);
        let mut seen = [0; 4];
        let mut state = 1;
        let mut fixed_path = 0;
        for &(fen, chess960) in &starts {
            for _game in 0..6 {
                let mut pos = Position::from_fen(fen, chess960).unwrap();
                let mut stack = Stack::new(400, &network);
                stack.set_root(&pos);
                // The same moves through the generic path alone.
                let mut generic = Stack::new(400, &network);
                generic.set_root(&pos);
                let first = stack.evaluate(0, &pos, &network);
                let fresh = Accumulator::refreshed(pos.board(), &network);
                assert_eq!(first, network.output(&fresh, pos.board(), pos.turn()));
                for ply in 1..300 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    state = splitmix64(state);
                    // En passant and castling whenever legal; kings often.
                    let mv = moves
                        .iter()
                        .copied()
                        .find(|m| m.is_en_passant() || m.is_castle())
                        .or_else(|| {
                            moves
                                .iter()
                                .copied()
                                .filter(|m| m.role() == shakmaty::Role::King)
                                .nth((state % 3) as usize)
                        })
                        .filter(|_| state % 4 != 0)
                        .unwrap_or(moves[(state >> 8) as usize % moves.len()]);
                    match mv {
                        Move::Castle { .. } => seen[0] += 1,
                        Move::EnPassant { .. } => seen[1] += 1,
                        Move::Normal {
                            promotion: Some(_), ..
                        } => seen[2] += 1,
                        Move::Normal {
                            role: shakmaty::Role::King,
                            ..
                        } => seen[3] += 1,
                        _ => {}
                    }
                    let mut child = pos.clone();
                    let changes = pos.play_into(mv, &mut child);
                    stack.push_move(ply, &changes);
                    generic.push_move(ply, &changes);
                    pos = child;
                    // Evaluate only some plies, so updates also span several moves.
                    if state % 3 != 0 || ply % 17 == 0 {
                        let value = match stack.evaluate_fixed(ply, &pos, &network) {
                            Some(value) => {
                                fixed_path += 1;
                                value
                            }
                            None => stack.evaluate(ply, &pos, &network),
                        };
                        assert_eq!(value, generic.evaluate_generic(ply, &pos, &network));
                        let fresh = Accumulator::refreshed(pos.board(), &network);
                        assert_eq!(stacked(&stack, ply), fresh, "{} after {mv}", pos.fen());
                        assert_eq!(value, network.output(&fresh, pos.board(), pos.turn()));
                    }
                }
            }
        }
        assert!(
            seen.iter().all(|&s| s > 0),
            "castles, en passant, promotions, kings: {seen:?}"
        );
        // The widths of `fixed.rs` take their path wherever the processor has AVX2.
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            assert_eq!(
                fixed_path > 0,
                arch.hidden != 32,
                "{fixed_path} at {}",
                arch.hidden
            );
        }
        let _ = fixed_path;
    }
}

/// With king buckets and mirroring, a king move that crosses a bucket or the middle of the
/// board changes its side's key and no other.
#[test]
fn king_moves_across_buckets_change_their_side_key() {
    let arch = bucketed();
    let key = |color, square| arch.king_key(color, square);
    assert_eq!(key(Color::White, Square::E1).bucket, 0);
    assert_eq!(key(Color::White, Square::D1).bucket, 0);
    assert!(key(Color::White, Square::E1).mirror);
    assert_eq!(key(Color::White, Square::E1), key(Color::White, Square::F1));
    assert!(!key(Color::White, Square::D1).mirror);
    assert_ne!(key(Color::White, Square::E1), key(Color::White, Square::E2));
    // Black's king is seen from Black's side: e8 is its first rank.
    assert_eq!(key(Color::Black, Square::E8), key(Color::White, Square::E1));
    let network = varied(arch);
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1", false).unwrap();
    let mut stack = Stack::new(8, &network);
    stack.set_root(&pos);
    let mv = pos.parse_uci("e1d2").unwrap();
    let mut child = pos.clone();
    let changes = pos.play_into(mv, &mut child);
    stack.push_move(1, &changes);
    // White's king left rank 1 (bucket 0) for rank 2 (bucket 1): White's key changed.
    assert_eq!(stack.plies[1].key_changed, [true, false]);
}

/// A position and its colour-flipped mirror score the same for their sides to move, with
/// and without buckets.
#[test]
fn the_evaluation_is_symmetric() {
    for arch in [Architecture::plain(32), bucketed()] {
        let network = varied(arch);
        for (fen, mirror) in [
            (
                "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
                "rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 2 3",
            ),
            (
                "8/5k2/8/8/8/8/4PK2/8 b - - 0 1",
                "8/4pk2/8/8/8/8/5K2/8 w - - 0 1",
            ),
        ] {
            let a = Position::from_fen(fen, false).unwrap();
            let b = Position::from_fen(mirror, false).unwrap();
            let va = network.output(
                &Accumulator::refreshed(a.board(), &network),
                a.board(),
                a.turn(),
            );
            let vb = network.output(
                &Accumulator::refreshed(b.board(), &network),
                b.board(),
                b.turn(),
            );
            assert_eq!(va, vb, "{fen}");
        }
    }
}
