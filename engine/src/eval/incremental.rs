//! The positional evaluation as the search runs it: the material and piece-square sum and the
//! game phase (`positional::Placement`) kept up to date move by move, one entry per ply, and
//! the pawn-structure terms from a per-thread cache.
//!
//! A move changes the placement by at most four table entries (a piece leaves a square,
//! arrives on another, maybe a capture, maybe a castling rook), so the search pushes each
//! child's entry from its parent's when it makes the move, and an evaluation sums only the
//! terms that depend on the whole board. The tables are those of `params::WEIGHTS`; the value
//! is always exactly `positional::evaluate` with those weights (tests below, and a
//! `debug_assert!` at every evaluation). Nothing here knows of the search or above.

use shakmaty::{Color, Piece, Role, Square};

use super::Value;
use super::params::WEIGHTS;
use super::pawn_cache::PawnCache;
use super::positional::{self, Placement};
use super::weights::{S, Weights};
use crate::position::{PieceChanges, Position};

/// Material plus piece-square value by `[color][role - 1][square]`, from White's point of
/// view (Black's entries negative), for `WEIGHTS`.
static TABLE: [[[S; 64]; 6]; 2] = placement_table(&WEIGHTS);

/// Phase weight by `role - 1`: knights and bishops 1, rooks 2, queens 4.
const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];

const fn placement_table(weights: &Weights) -> [[[S; 64]; 6]; 2] {
    let mut table = [[[S(0, 0); 64]; 6]; 2];
    let mut color = 0;
    while color < 2 {
        // shakmaty: Black = 0, White = 1; the tables are written from White's side, rank 8
        // first.
        let (sign, flip) = if color == 1 { (1, 56) } else { (-1, 0) };
        let mut role = 0;
        while role < 6 {
            let material = if role < 5 {
                weights.material[role]
            } else {
                S(0, 0)
            };
            let mut square = 0;
            while square < 64 {
                let pst = weights.pst[role][square ^ flip];
                table[color][role][square] =
                    S(sign * (material.0 + pst.0), sign * (material.1 + pst.1));
                square += 1;
            }
            role += 1;
        }
        color += 1;
    }
    table
}

#[inline(always)]
fn entry(color: Color, role: Role, square: Square) -> S {
    TABLE[color as usize][role as usize - 1][square as usize]
}

/// The placement after a move, from the placement before it and what the move changed.
#[inline]
pub fn after_move(before: Placement, changes: &PieceChanges) -> Placement {
    let mut after = before;
    let mut add = |piece: Piece, square: Square, sign: i32| {
        let value = entry(piece.color, piece.role, square);
        after.mg += sign * value.0;
        after.eg += sign * value.1;
        after.phase += sign * PHASE[piece.role as usize - 1];
    };
    for &(piece, square) in changes.removed() {
        add(piece, square, -1);
    }
    for &(piece, square) in changes.added() {
        add(piece, square, 1);
    }
    after
}

/// The positional evaluation of one searching thread: placements by ply and the pawn cache.
pub struct Incremental {
    /// `placements[ply]` is the placement of the node at `ply` on the current path.
    placements: Vec<Placement>,
    pawns: PawnCache,
    /// Whether the processor counts bits in one instruction (`popcnt`), which the build for
    /// any x86-64 may not assume: the evaluation counts attacked squares a dozen times.
    popcnt: bool,
}

impl Incremental {
    /// The state for a search of `root` (the node at ply 0) over plies `0..plies`.
    pub fn new(plies: usize, root: &Position) -> Self {
        let mut placements = vec![Placement::default(); plies];
        placements[0] = positional::placement(root.board(), &WEIGHTS);
        Self {
            placements,
            pawns: PawnCache::new(),
            popcnt: has_popcnt(),
        }
    }

    /// The node at `ply` (1 or more) is reached from the node at `ply - 1` by a move that
    /// made `changes`.
    #[inline]
    pub fn push_move(&mut self, ply: usize, changes: &PieceChanges) {
        self.placements[ply] = after_move(self.placements[ply - 1], changes);
    }

    /// The node at `ply` is reached by a null move: the placement does not change.
    #[inline]
    pub fn push_null(&mut self, ply: usize) {
        self.placements[ply] = self.placements[ply - 1];
    }

    /// The evaluation of `pos`, the node at `ply` on the current path, from the side to move:
    /// the same value as `positional::evaluate(pos.board(), pos.turn(), &WEIGHTS)`.
    #[inline]
    pub fn evaluate(&mut self, ply: usize, pos: &Position) -> Value {
        let placement = self.placements[ply];
        debug_assert_eq!(
            placement,
            positional::placement(pos.board(), &WEIGHTS),
            "{}",
            pos.fen()
        );
        #[cfg(target_arch = "x86_64")]
        if self.popcnt {
            // SAFETY: the processor has `popcnt` (`has_popcnt`, asked when `self` was made).
            return unsafe { evaluate_with_popcnt(pos, placement, &mut self.pawns) };
        }
        positional::evaluate_incremental(
            pos.board(),
            pos.turn(),
            &WEIGHTS,
            placement,
            &mut self.pawns,
        )
    }
}

/// Whether the processor has the `popcnt` instruction.
fn has_popcnt() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::arch::is_x86_feature_detected!("popcnt");
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// `positional::evaluate_incremental` compiled to count bits with `popcnt` (about a third
/// less time per evaluation than the portable bit count).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn evaluate_with_popcnt(pos: &Position, placement: Placement, pawns: &mut PawnCache) -> Value {
    positional::evaluate_incremental(pos.board(), pos.turn(), &WEIGHTS, placement, pawns)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::splitmix64;
    use shakmaty::Move;

    /// Long random games from every start, one `Incremental` (one pawn cache) for all of
    /// them: after every move the placement equals a sum from scratch and the evaluation
    /// equals `positional::evaluate`, the reference without a cache. Null moves are mixed in.
    #[test]
    fn incremental_evaluation_equals_the_reference_after_every_move() {
        let mut seen_castle = [0; 2];
        let mut seen_en_passant = 0;
        let mut seen_promotion = 0;
        let mut seen_capture = 0;
        let mut state = 7;
        let mut evaluator = Incremental::new(400, &Position::default());
        for (fen, chess960) in crate::position::test_positions::STARTS {
            for _game in 0..8 {
                let mut pos = Position::from_fen(fen, chess960).unwrap();
                evaluator.placements[0] = positional::placement(pos.board(), &WEIGHTS);
                for ply in 1..300 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    state = splitmix64(state);
                    if state % 11 == 0
                        && let Some(after_null) = pos.play_null()
                    {
                        evaluator.push_null(ply);
                        pos = after_null;
                    } else {
                        // En passant and castling whenever legal (rare in random play).
                        let mv = moves
                            .iter()
                            .copied()
                            .find(|m| m.is_en_passant() || (m.is_castle() && state % 2 == 0))
                            .unwrap_or(moves[(state % moves.len() as u64) as usize]);
                        match mv {
                            Move::Castle { king, rook } => {
                                seen_castle[usize::from(rook < king)] += 1
                            }
                            Move::EnPassant { .. } => seen_en_passant += 1,
                            Move::Normal {
                                promotion: Some(_), ..
                            } => seen_promotion += 1,
                            Move::Normal {
                                capture: Some(_), ..
                            } => seen_capture += 1,
                            _ => {}
                        }
                        let mut child = pos.clone();
                        let changes = pos.play_into(mv, &mut child);
                        evaluator.push_move(ply, &changes);
                        pos = child;
                    }
                    assert_eq!(
                        evaluator.placements[ply],
                        positional::placement(pos.board(), &WEIGHTS),
                        "{}",
                        pos.fen()
                    );
                    assert_eq!(
                        evaluator.evaluate(ply, &pos),
                        positional::evaluate(pos.board(), pos.turn(), &WEIGHTS),
                        "{}",
                        pos.fen()
                    );
                }
            }
        }
        assert!(
            seen_castle[0] > 0
                && seen_castle[1] > 0
                && seen_en_passant > 0
                && seen_promotion > 0
                && seen_capture > 0,
            "castles {seen_castle:?}, en passant {seen_en_passant}, promotions {seen_promotion}"
        );
    }

    /// A new search starts from its root's placement, and the start position is level but
    /// for the tempo.
    #[test]
    fn a_new_state_evaluates_its_root() {
        let root = Position::default();
        let mut evaluator = Incremental::new(8, &root);
        let tempo = WEIGHTS.tempo.0; // all pieces: the middlegame value.
        assert_eq!(evaluator.evaluate(0, &root), tempo);
    }
}
