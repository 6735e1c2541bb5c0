//! The search lab's fixed orders, one mode of the move picker (`MovePicker::lab`): every
//! move scored at once, the hash move first, then generation order, a deliberately bad
//! order (quiet moves first, then captures with MVV-LVA reversed) or a fixed-seed random
//! order (repeatable: the seed and the position's key decide it). They are what the lab
//! compares the engine's order against; the engine's order itself is the picker's main mode.
//! Ordering only permutes moves: it never adds or drops one.

use shakmaty::Move;

use super::{ScoredMove, ScoredMoves, mvv_lva_score};
use crate::position::is_tactical;
use crate::rng::splitmix64;
use crate::search::tt::{PackedMove, pack_move};

/// How moves are ordered (a switch of the search, for the search lab).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveOrder {
    /// As shakmaty generates them.
    Generation,
    /// Quiet moves first, then captures with MVV-LVA reversed: chosen to be bad.
    Worst,
    /// A random order, fixed by the seed and the position's key (repeatable).
    Random(u64),
    /// The engine's order, the staged move picker's main mode (`movepick.rs`): the hash
    /// move, captures and promotions by MVV-LVA, killers and countermove, quiet moves by
    /// history, losing captures (each where its switch is on), at the root as in the tree.
    Staged,
}

/// The hash move's score: above every other.
const HASH_MOVE_SCORE: i32 = 1 << 30;
/// How far below every quiet move the worst order puts the captures.
const CAPTURE_OFFSET: i32 = 1 << 20;

/// Scores `moves` for a fixed order; the move packed as `hash_move` (if present) first.
/// `Staged` is not a fixed order (the picker's main mode is): given it, the moves keep the
/// generation order.
pub(super) fn score(
    moves: &[Move],
    order: MoveOrder,
    hash_move: PackedMove,
    key: u64,
) -> ScoredMoves {
    let mut scored = ScoredMoves::new();
    let mut random = match order {
        MoveOrder::Random(seed) => seed ^ key ^ 0x9e37_79b9_7f4a_7c15,
        _ => 0,
    };
    for (index, &mv) in moves.iter().enumerate() {
        let score = if hash_move != 0 && pack_move(mv) == hash_move {
            HASH_MOVE_SCORE
        } else {
            match order {
                // Earlier generated moves score higher, so the stable pick keeps their order.
                MoveOrder::Generation | MoveOrder::Staged => -(index as i32),
                MoveOrder::Worst => {
                    if is_tactical(mv) {
                        -CAPTURE_OFFSET - mvv_lva_score(mv)
                    } else {
                        -(index as i32)
                    }
                }
                MoveOrder::Random(_) => {
                    random = splitmix64(random);
                    (random >> 34) as i32
                }
            }
        };
        scored.push(ScoredMove { mv, score });
    }
    scored
}

#[cfg(test)]
mod tests {
    use shakmaty::Role;

    use super::super::pick_next;
    use super::*;
    use crate::position::Position;

    fn ordered(fen: &str, order: MoveOrder, hash: PackedMove) -> Vec<Move> {
        let pos = Position::from_fen(fen, false).unwrap();
        let legal = pos.legal_moves();
        let mut scored = score(&legal, order, hash, pos.key());
        (0..scored.len())
            .map(|i| pick_next(&mut scored, i))
            .collect()
    }

    const FEN: &str = "4k3/8/3r1q2/4P3/2N5/8/8/R3K2Q w - - 0 1";

    #[test]
    fn hash_move_goes_first_in_every_order() {
        let pos = Position::from_fen(FEN, false).unwrap();
        let quiet = pos
            .legal_moves()
            .into_iter()
            .find(|m| !is_tactical(*m))
            .unwrap();
        for order in [
            MoveOrder::Generation,
            MoveOrder::Worst,
            MoveOrder::Random(3),
        ] {
            assert_eq!(ordered(FEN, order, pack_move(quiet))[0], quiet);
        }
    }

    #[test]
    fn orders_are_permutations_and_repeatable() {
        let pos = Position::from_fen(FEN, false).unwrap();
        let mut legal: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
        legal.sort();
        for order in [
            MoveOrder::Worst,
            MoveOrder::Random(11),
            MoveOrder::Generation,
        ] {
            let first = ordered(FEN, order, 0);
            assert_eq!(first, ordered(FEN, order, 0));
            let mut names: Vec<String> = first.iter().map(|m| m.to_string()).collect();
            names.sort();
            assert_eq!(names, legal);
        }
        let worst = ordered(FEN, MoveOrder::Worst, 0);
        assert!(!is_tactical(worst[0]));
        assert_eq!(worst.last().unwrap().capture(), Some(Role::Queen));
        assert_ne!(
            ordered(FEN, MoveOrder::Random(1), 0),
            ordered(FEN, MoveOrder::Random(2), 0)
        );
    }
}
