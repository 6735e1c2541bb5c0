//! Legal move generation in the two halves a staged move picker asks for, written straight
//! into the caller's list: the captures and promotions, and the quiet moves. Neither builds
//! a full move list, so a node that is cut by a capture never pays for its quiet moves.
//!
//! Both halves are for a side that is not in check (in check, `legal_moves` gives the
//! evasions). Legality comes from the pins, computed once: a piece that is not pinned may go
//! anywhere its attacks reach, a pinned one only along the line through its king, and the
//! king only to a square no enemy piece attacks once the king has left its square. En
//! passant and castling, rare and full of special cases, go through shakmaty's own tests.
//! Together the two halves are exactly `legal_moves` (tests below, on random playouts of
//! standard and Chess960 positions).
//!
//! `is_legal` answers for one move (a hash move or a killer from another position) with the
//! same rules, without generating anything.

use shakmaty::{Bitboard, CastlingSide, Color, Move, Position as _, Rank, Role, Square, attacks};

use super::Position;

/// The promotions in the order they are generated (queen first).
const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Knight, Role::Rook, Role::Bishop];

/// What legality checks need of the side to move.
struct Legality {
    us: Color,
    king: Square,
    /// Our pieces pinned to our king.
    pinned: Bitboard,
}

impl Position {
    fn legality(&self) -> Option<Legality> {
        let board = self.board();
        let us = self.turn();
        let king = board.king_of(us)?;
        let them = board.by_color(!us);
        let snipers = (attacks::rook_attacks(king, Bitboard::EMPTY)
            & board.rooks_and_queens()
            & them)
            | (attacks::bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens() & them);
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let between = attacks::between(king, sniper) & board.occupied();
            if between.count() == 1 {
                pinned |= between & board.by_color(us);
            }
        }
        Some(Legality { us, king, pinned })
    }

    /// Whether our king, having moved from `from` to `to`, stands attacked there.
    #[inline]
    fn king_attacked_after(&self, legality: &Legality, to: Square) -> bool {
        let board = self.board();
        let occupied = board.occupied() ^ Bitboard::from_square(legality.king);
        board.attacks_to(to, !legality.us, occupied).any()
    }

    /// Whether a move of the non-king piece on `from` to `to` keeps the king safe (not in
    /// check before: only a pin can make it illegal).
    #[inline]
    fn pin_allows(legality: &Legality, from: Square, to: Square) -> bool {
        !legality.pinned.contains(from) || attacks::aligned(from, to, legality.king)
    }

    /// The legal captures and promotions (quiet promotions included) and en-passant
    /// captures, for a side not in check, passed to `push` one by one.
    pub fn generate_captures(&self, mut push: impl FnMut(Move)) {
        debug_assert!(!self.is_check());
        let Some(legality) = self.legality() else {
            return;
        };
        let board = self.board();
        let us = legality.us;
        let ours = board.by_color(us);
        let theirs = board.by_color(!us);
        let occupied = board.occupied();
        let last_rank = Bitboard::from_rank(us.fold_wb(Rank::Eighth, Rank::First));
        for from in board.pawns() & ours {
            let targets = attacks::pawn_attacks(us, from) & theirs;
            let forward = if us == Color::White {
                from.offset(8)
            } else {
                from.offset(-8)
            };
            let push_square = forward
                .filter(|&to| last_rank.contains(to) && !occupied.contains(to))
                .map_or(Bitboard::EMPTY, Bitboard::from_square);
            for to in targets | push_square {
                if !Self::pin_allows(&legality, from, to) {
                    continue;
                }
                let capture = board.role_at(to);
                if last_rank.contains(to) {
                    for promotion in PROMOTIONS {
                        push(Move::Normal {
                            role: Role::Pawn,
                            from,
                            capture,
                            to,
                            promotion: Some(promotion),
                        });
                    }
                } else {
                    push(Move::Normal {
                        role: Role::Pawn,
                        from,
                        capture,
                        to,
                        promotion: None,
                    });
                }
            }
        }
        self.piece_and_king_moves(&legality, theirs, &mut push);
        // En passant needs shakmaty's full test (the captured pawn leaves another square).
        if self.chess().maybe_ep_square().is_some() {
            for m in self.chess().en_passant_moves() {
                push(m);
            }
        }
    }

    /// The legal quiet moves (no capture, no promotion), castling included, for a side not
    /// in check, passed to `push` one by one.
    pub fn generate_quiets(&self, mut push: impl FnMut(Move)) {
        debug_assert!(!self.is_check());
        let Some(legality) = self.legality() else {
            return;
        };
        let board = self.board();
        let us = legality.us;
        let ours = board.by_color(us);
        let occupied = board.occupied();
        let empty = !occupied;
        let last_rank = Bitboard::from_rank(us.fold_wb(Rank::Eighth, Rank::First));
        let double_rank = Bitboard::from_rank(us.fold_wb(Rank::Third, Rank::Sixth));
        // Single steps, then double steps, each in the order of their target squares.
        let pawns = board.pawns() & ours;
        let forward = us.fold_wb(8, -8);
        let singles = pawns.shift(forward) & empty;
        let doubles = (singles & double_rank).shift(forward) & empty;
        for (targets, back) in [(singles & !last_rank, forward), (doubles, 2 * forward)] {
            for to in targets {
                let Some(from) = to.offset(-back) else {
                    continue;
                };
                if Self::pin_allows(&legality, from, to) {
                    push(Move::Normal {
                        role: Role::Pawn,
                        from,
                        capture: None,
                        to,
                        promotion: None,
                    });
                }
            }
        }
        self.piece_and_king_moves(&legality, empty, &mut push);
        for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
            if let Some(castle) = self.castle(&legality, side) {
                push(castle);
            }
        }
    }

    /// The knight, bishop, rook, queen and king moves to the squares of `targets` (the other
    /// side's pieces for captures, the empty squares for quiet moves), in that order.
    #[inline]
    fn piece_and_king_moves(
        &self,
        legality: &Legality,
        targets: Bitboard,
        push: &mut impl FnMut(Move),
    ) {
        let board = self.board();
        let (us, occupied) = (legality.us, board.occupied());
        for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            for from in board.by_role(role) & board.by_color(us) {
                for to in attacks::attacks(from, role.of(us), occupied) & targets {
                    if Self::pin_allows(legality, from, to) {
                        push(Move::Normal {
                            role,
                            from,
                            capture: board.role_at(to),
                            to,
                            promotion: None,
                        });
                    }
                }
            }
        }
        let king = legality.king;
        for to in attacks::king_attacks(king) & targets {
            if !self.king_attacked_after(legality, to) {
                push(Move::Normal {
                    role: Role::King,
                    from: king,
                    capture: board.role_at(to),
                    to,
                    promotion: None,
                });
            }
        }
    }

    /// Castling to `side` if it is legal (not in check): the right, an empty path, and no
    /// square the king crosses or lands on attacked (Chess960 rules).
    fn castle(&self, legality: &Legality, side: CastlingSide) -> Option<Move> {
        let castles = self.chess().castles();
        let us = legality.us;
        let rook = castles.rook(us, side)?;
        let board = self.board();
        let occupied = board.occupied();
        if (castles.path(us, side) & occupied).any() {
            return None;
        }
        let king = legality.king;
        let king_to = side.king_to(us);
        let after = occupied ^ king ^ rook ^ side.rook_to(us);
        if board.attacks_to(king_to, !us, after).any() {
            return None;
        }
        let crossed = attacks::between(king, king_to).with(king);
        let without_king = occupied ^ king;
        if crossed
            .into_iter()
            .any(|sq| board.attacks_to(sq, !us, without_king).any())
        {
            return None;
        }
        Some(Move::Castle { king, rook })
    }

    /// Whether `mv`, a move that may come from another position (a hash move or a killer),
    /// is legal here. Ordinary moves are checked against the attack tables, the checkers and
    /// the pins; castling and en passant go through shakmaty.
    pub fn is_legal(&self, mv: Move) -> bool {
        let Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } = mv
        else {
            return self.chess().is_legal(mv);
        };
        let board = self.board();
        let us = self.turn();
        if board.piece_at(from) != Some(role.of(us)) || board.by_color(us).contains(to) {
            return false;
        }
        let checkers = self.checkers();
        if checkers.any() && role != Role::King {
            // In check any other piece must take the one checker or step between it and the
            // king (the king's own moves are tested below like any king move).
            let (Some(checker), Some(king)) = (checkers.single_square(), board.king_of(us)) else {
                return false;
            };
            if !(attacks::between(king, checker) | checker).contains(to) {
                return false;
            }
        }
        let target = board.role_at(to);
        if target != capture || target == Some(Role::King) {
            return false;
        }
        let occupied = board.occupied();
        let last_rank = Bitboard::from_rank(us.fold_wb(Rank::Eighth, Rank::First));
        let reaches = match role {
            Role::Pawn => {
                if last_rank.contains(to) != promotion.is_some() {
                    return false;
                }
                if capture.is_some() {
                    attacks::pawn_attacks(us, from).contains(to)
                } else {
                    let step = |sq: Square| {
                        if us == Color::White {
                            sq.offset(8)
                        } else {
                            sq.offset(-8)
                        }
                    };
                    let double_rank = Bitboard::from_rank(us.fold_wb(Rank::Third, Rank::Sixth));
                    match step(from) {
                        Some(one) if one == to => true,
                        Some(one) => {
                            double_rank.contains(one)
                                && !occupied.contains(one)
                                && step(one) == Some(to)
                        }
                        None => false,
                    }
                }
            }
            _ if promotion.is_some() => false,
            Role::King => attacks::king_attacks(from).contains(to),
            _ => attacks::attacks(from, role.of(us), occupied).contains(to),
        };
        if !reaches {
            return false;
        }
        let Some(legality) = self.legality() else {
            return false;
        };
        if role == Role::King {
            !self.king_attacked_after(&legality, to)
        } else {
            Self::pin_allows(&legality, from, to)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::splitmix64;

    fn names(moves: impl IntoIterator<Item = Move>) -> Vec<String> {
        let mut out: Vec<String> = moves.into_iter().map(|m| format!("{m:?}")).collect();
        out.sort();
        out
    }

    /// Random playouts from positions rich in pins, promotions, en passant and castling
    /// (standard and Chess960): not in check, the captures and the quiet moves are each
    /// exactly the legal moves of their kind; every legal move is `is_legal` and so are no
    /// moves of other positions that are illegal here.
    #[test]
    fn the_two_halves_are_the_legal_moves() {
        let starts = crate::position::test_positions::starts_and(&[
            ("3k4/8/8/2q5/8/4R3/8/4K2R w K - 0 1", false),
            ("1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1", true),
        ]);
        let mut state = 5;
        let mut checked = 0;
        let mut in_check = 0;
        let mut previous: Vec<Move> = Vec::new();
        for (fen, chess960) in starts {
            for _ in 0..12 {
                let mut pos = Position::from_fen(fen, chess960).unwrap();
                for _ in 0..80 {
                    let legal = pos.legal_moves();
                    if legal.is_empty() {
                        break;
                    }
                    for &m in &legal {
                        assert!(pos.is_legal(m), "{} {m}", pos.fen());
                    }
                    for &m in &previous {
                        assert_eq!(pos.is_legal(m), legal.contains(&m), "{} {m:?}", pos.fen());
                    }
                    in_check += usize::from(pos.is_check() && !previous.is_empty());
                    if !pos.is_check() {
                        let mut captures = Vec::new();
                        pos.generate_captures(|m| captures.push(m));
                        let mut quiets = Vec::new();
                        pos.generate_quiets(|m| quiets.push(m));
                        let tactical = legal
                            .iter()
                            .copied()
                            .filter(|m| m.is_capture() || m.is_promotion());
                        let quiet = legal
                            .iter()
                            .copied()
                            .filter(|m| !m.is_capture() && !m.is_promotion());
                        assert_eq!(names(captures), names(tactical), "{}", pos.fen());
                        assert_eq!(names(quiets), names(quiet), "{}", pos.fen());
                        checked += 1;
                    }
                    previous = legal.to_vec();
                    state = splitmix64(state);
                    pos = pos.play(legal[(state % legal.len() as u64) as usize]);
                }
            }
        }
        assert!(checked > 5000, "{checked}");
        assert!(in_check > 200, "{in_check} positions in check");
    }
}
