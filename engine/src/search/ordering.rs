//! Move ordering: which move the search tries first decides how much alpha-beta can prune.
//!
//! The engine's order is: the hash move (the best move stored in the transposition table, which
//! after iterative deepening is the previous iteration's choice), then captures and promotions
//! by MVV-LVA (most valuable victim first, least valuable attacker breaking ties), then quiet
//! moves. The search lab also needs deliberately poor orders to compare against: generation
//! order, a fixed-seed random order and a "worst" order (quiet moves first, then captures with
//! MVV-LVA reversed). Ordering only permutes moves: it never adds or drops one.

use arrayvec::ArrayVec;
use shakmaty::{Move, Role};

use super::see;
use super::tt::{PackedMove, pack_move};
use crate::rng::splitmix64;

/// How moves are ordered (a switch of the search, for the search lab).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveOrder {
    /// As shakmaty generates them.
    Generation,
    /// Quiet moves first, then captures with MVV-LVA reversed: chosen to be bad.
    Worst,
    /// A random order, fixed by the seed and the position's key (repeatable).
    Random(u64),
    /// The engine's order, the staged move picker's (`movepick.rs`): the hash move, captures
    /// and promotions by MVV-LVA, killers and countermove, quiet moves by history, losing
    /// captures (each where its switch is on). At the root, before any history: the hash
    /// move, captures by MVV-LVA, then the quiet moves as generated.
    Staged,
}

/// A move with its ordering score (higher is tried earlier).
#[derive(Clone, Copy, Debug)]
pub struct ScoredMove {
    /// The move.
    pub mv: Move,
    /// Its ordering score.
    pub score: i32,
}

/// The moves of one node with their scores; lives on the stack.
pub type ScoredMoves = ArrayVec<ScoredMove, 256>;

/// Score of the hash move: above everything else.
const HASH_MOVE_SCORE: i32 = 1 << 30;
/// Offset that puts every capture or promotion above every quiet move.
const CAPTURE_BASE: i32 = 1 << 20;

/// MVV-LVA value of a capture or promotion, on the search's piece values (`see::value`): the
/// victim's value dominates (a promotion adds the promoted piece as if it were captured), the
/// cheaper attacker wins ties (its value, at most a queen's, counts a sixty-fourth: less than
/// the smallest difference between two victims, 16 x 10).
#[inline]
pub fn mvv_lva_score(m: Move) -> i32 {
    let victim = m.capture().map_or(0, see::value);
    let promotion = m.promotion().map_or(0, see::value);
    let attacker = see::value(m.role()).min(see::value(Role::Queen));
    16 * (victim + promotion) - attacker / 64
}

/// Whether a move belongs in quiescence: a capture or a promotion.
#[inline]
pub fn is_tactical(m: Move) -> bool {
    m.is_capture() || m.is_promotion()
}

/// Scores the moves for the given order; the hash move (if given and present) goes first.
pub fn score_moves(
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
                MoveOrder::Generation => -(index as i32),
                MoveOrder::Worst => {
                    if is_tactical(mv) {
                        -CAPTURE_BASE - mvv_lva_score(mv)
                    } else {
                        -(index as i32)
                    }
                }
                MoveOrder::Random(_) => {
                    random = splitmix64(random);
                    (random >> 34) as i32
                }
                MoveOrder::Staged => {
                    if is_tactical(mv) {
                        CAPTURE_BASE + mvv_lva_score(mv)
                    } else {
                        0
                    }
                }
            }
        };
        scored.push(ScoredMove { mv, score });
    }
    scored
}

/// Moves the best-scored move among `moves[index..]` to `index` and returns it (selection
/// sort, one step at a time: a cut-off early saves sorting the rest). Among equal scores the
/// earliest wins, and the moves it passes keep their order (they shift up by one rather
/// than swap), so picking one by one gives exactly a stable sort, best first.
#[inline]
pub fn pick_next(moves: &mut [ScoredMove], index: usize) -> Move {
    let mut best = index;
    for i in index + 1..moves.len() {
        if moves[i].score > moves[best].score {
            best = i;
        }
    }
    moves[index..=best].rotate_right(1);
    moves[index].mv
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    fn ordered(fen: &str, order: MoveOrder, hash: PackedMove) -> Vec<Move> {
        let pos = Position::from_fen(fen, false).unwrap();
        let legal = pos.legal_moves();
        let mut scored = score_moves(&legal, order, hash, pos.key());
        (0..scored.len())
            .map(|i| pick_next(&mut scored, i))
            .collect()
    }

    const FEN: &str = "4k3/8/3r1q2/4P3/2N5/8/8/R3K2Q w - - 0 1";

    #[test]
    fn mvv_lva_takes_the_queen_with_the_pawn_first() {
        let moves = ordered(FEN, MoveOrder::Staged, 0);
        let uci: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        // Queen victims first (pawn takes before knight... only the pawn can), then the rook.
        assert_eq!(moves[0].capture(), Some(Role::Queen));
        assert_eq!(moves[0].role(), Role::Pawn);
        assert_eq!(moves[1].capture(), Some(Role::Rook));
        assert_eq!(moves[1].role(), Role::Pawn, "{uci:?}");
        assert_eq!(moves[2].capture(), Some(Role::Rook));
        assert_eq!(moves[2].role(), Role::Knight);
        let first_quiet = moves.iter().position(|m| !is_tactical(*m)).unwrap();
        assert!(moves[first_quiet..].iter().all(|m| !is_tactical(*m)));
    }

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
            MoveOrder::Staged,
        ] {
            assert_eq!(ordered(FEN, order, pack_move(quiet))[0], quiet);
        }
    }

    #[test]
    fn picking_one_by_one_is_a_stable_sort() {
        let pos = Position::from_fen(FEN, false).unwrap();
        let legal = pos.legal_moves();
        // Scores with many ties, as quiet moves' histories have.
        let scored = |order| {
            let mut moves = score_moves(&legal, order, 0, pos.key());
            for m in moves.iter_mut().filter(|m| !is_tactical(m.mv)) {
                m.score = (m.mv.to() as i32 * 7) % 13;
            }
            moves
        };
        let mut by_selection = scored(MoveOrder::Staged);
        for i in 0..legal.len() {
            pick_next(&mut by_selection, i);
        }
        let mut stable = scored(MoveOrder::Staged);
        stable.sort_by_key(|m| std::cmp::Reverse(m.score));
        let names = |list: &ScoredMoves| list.iter().map(|m| m.mv).collect::<Vec<_>>();
        assert_eq!(names(&by_selection), names(&stable));
        assert!(by_selection.windows(2).all(|w| w[0].score >= w[1].score));
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
