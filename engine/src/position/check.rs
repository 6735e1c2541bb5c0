//! Whether a move gives check, answered from the move alone, so that the search can decide
//! to prune a quiet move before paying for making it.
//!
//! `CheckInfo` is computed once per node: the other side's king, the squares from which each
//! kind of piece of ours would attack it (with today's occupancy), and our pieces that stand
//! alone between one of our sliders and that king (moving one off the line uncovers a check).
//! An ordinary move then gives check when its piece lands on a checking square of its kind
//! (direct) or when it leaves such a line (discovered); promotions, en passant and castling,
//! rare and full of special cases, are made and looked at. The answer is exact: it equals
//! making the move and asking whether the other side is in check (tested on random games,
//! standard and Chess960, and checked in debug builds at every call).

use shakmaty::{Bitboard, Move, Square, attacks};

use super::Position;

/// What `Position::gives_check` needs of a node, computed once per node.
#[derive(Clone, Copy, Debug)]
pub struct CheckInfo {
    /// The other side's king.
    king: Square,
    /// Squares from which a piece of ours of each kind (pawn ... king) attacks that king.
    check_squares: [Bitboard; 6],
    /// Our pieces alone on a line between one of our sliders and that king.
    discoverers: Bitboard,
}

impl Position {
    /// The check squares and discoverers against the side not to move (`None` without its
    /// king, which no game position lacks).
    pub fn check_info(&self) -> Option<CheckInfo> {
        let board = self.board();
        let us = self.turn();
        let king = board.king_of(!us)?;
        let occupied = board.occupied();
        let ours = board.by_color(us);
        let bishop = attacks::bishop_attacks(king, occupied);
        let rook = attacks::rook_attacks(king, occupied);
        let check_squares = [
            attacks::pawn_attacks(!us, king),
            attacks::knight_attacks(king),
            bishop,
            rook,
            bishop | rook,
            Bitboard::EMPTY,
        ];
        let snipers = ((attacks::rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens())
            | (attacks::bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens()))
            & ours;
        let mut discoverers = Bitboard::EMPTY;
        for sniper in snipers {
            let between = attacks::between(king, sniper) & occupied;
            if between.count() == 1 {
                discoverers |= between & ours;
            }
        }
        Some(CheckInfo {
            king,
            check_squares,
            discoverers,
        })
    }

    /// Whether the legal move `m` gives check, without making it (`info` from `check_info`
    /// of this position).
    #[inline]
    pub fn gives_check(&self, m: Move, info: &CheckInfo) -> bool {
        let gives = match m {
            Move::Normal {
                role,
                from,
                to,
                promotion: None,
                ..
            } => {
                let direct = info.check_squares[role as usize - 1].contains(to);
                let discovered =
                    info.discoverers.contains(from) && !attacks::aligned(from, to, info.king);
                direct || discovered
            }
            _ => return self.play(m).is_check(),
        };
        debug_assert_eq!(gives, self.play(m).is_check(), "{} {m:?}", self.fen());
        gives
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::splitmix64;

    /// On random games from positions rich in checks, pins, promotions, en passant and
    /// castling (standard and Chess960), `gives_check` says for every legal move what making
    /// it says.
    #[test]
    fn gives_check_agrees_with_making_the_move() {
        let starts = crate::position::test_positions::starts_and(&[
            ("3k4/8/8/2q5/8/4R3/8/4K2R w K - 0 1", false),
            ("4k3/8/8/3R4/1B6/8/8/Q3K3 w - - 0 1", false),
        ]);
        let mut state = 11;
        let (mut moves, mut checks, mut discovered) = (0, 0, 0);
        for (fen, chess960) in starts {
            for _ in 0..12 {
                let mut pos = Position::from_fen(fen, chess960).unwrap();
                for _ in 0..80 {
                    let legal = pos.legal_moves();
                    if legal.is_empty() {
                        break;
                    }
                    let info = pos.check_info().unwrap();
                    for &m in &legal {
                        let made = pos.play(m).is_check();
                        assert_eq!(pos.gives_check(m, &info), made, "{} {m:?}", pos.fen());
                        moves += 1;
                        checks += usize::from(made);
                        if let Move::Normal { from, .. } = m
                            && info.discoverers.contains(from)
                            && made
                        {
                            discovered += 1;
                        }
                    }
                    state = splitmix64(state);
                    pos = pos.play(legal[(state % legal.len() as u64) as usize]);
                }
            }
        }
        assert!(
            moves > 100_000 && checks > 3000 && discovered > 50,
            "{moves} {checks} {discovered}"
        );
    }
}
