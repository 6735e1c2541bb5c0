//! One description of what a move does to the board: the pieces it takes off squares and the
//! pieces it puts on squares. Making a move computes it once (`Position::play_into`), and
//! everything kept move by move reads it: the Zobrist key (here), the positional
//! evaluation's material and piece-square sums (`eval::incremental`) and the network's
//! accumulators (`eval::nnue::accumulator`). None of them decodes the move again.
//!
//! A move removes at most two pieces (the mover and a captured piece, or the king and the
//! rook of a castle) and adds at most two (the mover or its promotion, or the castled king and
//! rook). A Chess960 castle whose king or rook does not move removes and adds the same piece
//! on the same square; every reader sums the changes, so the two cancel.

use shakmaty::{CastlingSide, Color, Move, Piece, Role, Square};

/// A piece and the square it leaves or reaches.
pub type Change = (Piece, Square);

/// The pieces a move takes off the board and puts on it, with their squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceChanges {
    removed: [(Piece, Square); 2],
    added: [(Piece, Square); 2],
    removed_count: u8,
    added_count: u8,
}

const NO_PIECE: (Piece, Square) = (
    Piece {
        color: Color::White,
        role: Role::Pawn,
    },
    Square::A1,
);

impl PieceChanges {
    /// No change (a null move: only the side to move changes).
    pub const NONE: PieceChanges = PieceChanges {
        removed: [NO_PIECE; 2],
        added: [NO_PIECE; 2],
        removed_count: 0,
        added_count: 0,
    };

    #[inline(always)]
    fn add(&mut self, color: Color, role: Role, square: Square) {
        self.added[self.added_count as usize] = (Piece { color, role }, square);
        self.added_count += 1;
    }

    #[inline(always)]
    fn remove(&mut self, color: Color, role: Role, square: Square) {
        self.removed[self.removed_count as usize] = (Piece { color, role }, square);
        self.removed_count += 1;
    }

    /// What `mv`, played by `us`, changes (standard chess and Chess960).
    #[inline]
    pub fn of_move(mv: Move, us: Color) -> PieceChanges {
        let mut changes = PieceChanges::NONE;
        match mv {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                changes.remove(us, role, from);
                if let Some(captured) = capture {
                    changes.remove(!us, captured, to);
                }
                changes.add(us, promotion.unwrap_or(role), to);
            }
            Move::EnPassant { from, to } => {
                changes.remove(us, Role::Pawn, from);
                changes.remove(!us, Role::Pawn, Square::from_coords(to.file(), from.rank()));
                changes.add(us, Role::Pawn, to);
            }
            Move::Castle { king, rook } => {
                let side = CastlingSide::from_queen_side(rook < king);
                let rank = king.rank();
                changes.remove(us, Role::King, king);
                changes.remove(us, Role::Rook, rook);
                changes.add(
                    us,
                    Role::King,
                    Square::from_coords(side.king_to_file(), rank),
                );
                changes.add(
                    us,
                    Role::Rook,
                    Square::from_coords(side.rook_to_file(), rank),
                );
            }
            Move::Put { role, to } => changes.add(us, role, to),
        }
        changes
    }

    /// The pieces taken off the board, with the squares they left.
    #[inline]
    pub fn removed(&self) -> &[(Piece, Square)] {
        &self.removed[..self.removed_count as usize]
    }

    /// The pieces put on the board, with their squares.
    #[inline]
    pub fn added(&self) -> &[(Piece, Square)] {
        &self.added[..self.added_count as usize]
    }

    /// How many pieces the move puts on the board and takes off it, with the first of
    /// each and the second taken off (`NONE`'s placeholder where there is none): the
    /// network's update reads its common cases from these without slicing.
    #[inline]
    pub fn parts(&self) -> ((u8, u8), Change, [Change; 2]) {
        (
            (self.added_count, self.removed_count),
            self.added[0],
            self.removed,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    /// Applying the changes of every legal move to the board before it gives the board
    /// after it, for every kind of move (captures, promotions, en passant, castling in both
    /// notations, a Chess960 castle whose king stays put).
    #[test]
    fn changes_turn_the_board_before_into_the_board_after() {
        let fens = [
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                false,
            ),
            (
                "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
                false,
            ),
            ("8/PPPk4/8/8/8/8/4Kppp/8 w - - 0 1", false),
            ("8/PPPk4/8/8/8/8/4Kppp/8 b - - 0 1", false),
            ("2r1kr2/8/8/8/8/8/8/1R2K1R1 w GBfc - 0 1", true),
            ("1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1", true),
        ];
        let mut kinds = [0; 4];
        for (fen, chess960) in fens {
            let pos = Position::from_fen(fen, chess960).unwrap();
            for mv in pos.legal_moves() {
                let changes = PieceChanges::of_move(mv, pos.turn());
                let mut board = pos.board().clone();
                for &(piece, square) in changes.removed() {
                    assert_eq!(board.remove_piece_at(square), Some(piece), "{fen} {mv}");
                }
                for &(piece, square) in changes.added() {
                    assert_eq!(board.piece_at(square), None, "{fen} {mv}");
                    board.set_piece_at(square, piece);
                }
                assert_eq!(&board, pos.play(mv).board(), "{fen} {mv}");
                kinds[match mv {
                    Move::Castle { .. } => 0,
                    Move::EnPassant { .. } => 1,
                    Move::Normal {
                        promotion: Some(_), ..
                    } => 2,
                    _ => 3,
                }] += 1;
            }
        }
        assert!(kinds.iter().all(|&k| k > 0), "{kinds:?}");
    }
}
