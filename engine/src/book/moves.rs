//! Polyglot keys and moves: the key of a position as Polyglot computes it, and the 16-bit
//! move of a book entry decoded to the legal move it stands for (castling included) and back.

use shakmaty::zobrist::Zobrist64;
use shakmaty::{EnPassantMode, Move, Position as _, Role, Square};

use crate::position::Position;

/// Polyglot's key for `position`: the engine's key, with the en-passant file also hashed
/// when the capture is only pseudo-legal (the capturing pawn pinned, say).
pub fn polyglot_key(position: &Position) -> u64 {
    position
        .chess()
        .zobrist_hash::<Zobrist64>(EnPassantMode::PseudoLegal)
        .0
}

/// The promotion roles in Polyglot's order (index 0: no promotion).
const PROMOTIONS: [Option<Role>; 5] = [
    None,
    Some(Role::Knight),
    Some(Role::Bishop),
    Some(Role::Rook),
    Some(Role::Queen),
];

/// The legal move of `position` that the Polyglot move `raw` stands for, or `None` if it
/// stands for none (a move that is not legal, unused bits set, an unknown promotion). A move
/// of the king onto a rook of its own colour is castling with that rook.
pub fn decode_move(raw: u16, position: &Position) -> Option<Move> {
    if raw >> 15 != 0 {
        return None;
    }
    let to = Square::new(u32::from(raw & 0o77));
    let from = Square::new(u32::from((raw >> 6) & 0o77));
    let promotion = *PROMOTIONS.get(usize::from((raw >> 12) & 7))?;
    position.legal_moves().into_iter().find(|&m| match m {
        Move::Castle { king, rook } => promotion.is_none() && king == from && rook == to,
        Move::Normal { .. } | Move::EnPassant { .. } => {
            m.from() == Some(from) && m.to() == to && m.promotion() == promotion
        }
        Move::Put { .. } => false,
    })
}

/// The Polyglot encoding of `mv` (castling as the king taking its rook), for writing books.
pub fn encode_move(mv: Move) -> u16 {
    let (from, to) = match mv {
        Move::Castle { king, rook } => (king, rook),
        _ => (mv.from().unwrap_or(mv.to()), mv.to()),
    };
    let promotion = PROMOTIONS
        .iter()
        .position(|&p| p == mv.promotion())
        .unwrap_or(0) as u16;
    promotion << 12 | (u32::from(from) as u16) << 6 | u32::from(to) as u16
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::{Book, Entry, book_bytes};
    use shakmaty::zobrist::ZobristValue;
    use shakmaty::{CastlingMode, File};

    fn after(moves: &[&str]) -> Position {
        let mut position = Position::default();
        for m in moves {
            position.play_uci(m).unwrap();
        }
        position
    }

    fn book(entries: &[Entry]) -> Book {
        Book::from_bytes(book_bytes(entries)).unwrap()
    }

    /// The keys published with the Polyglot book format, the last one after an en-passant
    /// capture and a rook move that loses a castling right (a1a3).
    #[test]
    fn polyglot_test_vectors() {
        let cases: [(&[&str], u64); 9] = [
            (&[], 0x463b96181691fc9c),
            (&["e2e4"], 0x823c9b50fd114196),
            (&["e2e4", "d7d5"], 0x0756b94461c50fb0),
            (&["e2e4", "d7d5", "e4e5"], 0x662fafb965db29d4),
            (&["e2e4", "d7d5", "e4e5", "f7f5"], 0x22a48b5a8e47ff78),
            (
                &["e2e4", "d7d5", "e4e5", "f7f5", "e1e2"],
                0x652a607ca3f242c1,
            ),
            (
                &["e2e4", "d7d5", "e4e5", "f7f5", "e1e2", "e8f7"],
                0x00fdd303c946bdd9,
            ),
            (
                &["a2a4", "b7b5", "h2h4", "b5b4", "c2c4"],
                0x3c8123ea7b067637,
            ),
            (
                &["a2a4", "b7b5", "h2h4", "b5b4", "c2c4", "b4c3", "a1a3"],
                0x5c3f9b829b279560,
            ),
        ];
        for (moves, expected) in cases {
            let position = after(moves);
            assert_eq!(polyglot_key(&position), expected, "after {moves:?}");
            assert_eq!(position.key(), expected, "engine key after {moves:?}");
        }
    }

    /// d7d5 next to a white pawn pinned along the fifth rank: Polyglot hashes the d-file, the
    /// engine does not (the capture is not legal).
    #[test]
    fn pseudo_legal_en_passant_is_in_the_polyglot_key_only() {
        let mut position = Position::from_fen("4k3/3p4/8/K3P2r/8/8/8/8 b - - 0 1", false).unwrap();
        position.play_uci("d7d5").unwrap();
        let file_key = Zobrist64::zobrist_for_en_passant_file(File::D).0;
        assert_eq!(polyglot_key(&position), position.key() ^ file_key);
        // As python-chess 1.11.2 computes it (`chess.polyglot.zobrist_hash`).
        assert_eq!(polyglot_key(&position), 0x2004_29d3_a5ab_9df1);
        // Entries under either key are found.
        for key in [polyglot_key(&position), position.key()] {
            let e = Entry {
                key,
                raw_move: encode_move(position.parse_uci("a5b6").unwrap()),
                weight: 1,
                learn: 0,
            };
            assert_eq!(book(&[e]).moves(&position).len(), 1);
        }
    }

    #[test]
    fn moves_decode_from_the_bit_fields() {
        let start = Position::default();
        // e2e4: to e4 = rank 3 file 4 (28), from e2 = rank 1 file 4 (12).
        let e2e4 = decode_move(12 << 6 | 28, &start).unwrap();
        assert_eq!(Position::uci(e2e4, CastlingMode::Standard), "e2e4");
        assert_eq!(encode_move(e2e4), 12 << 6 | 28);
        // Not legal, unknown promotion, bit 15 set.
        assert_eq!(decode_move(12 << 6 | 36, &start), None);
        assert_eq!(decode_move(5 << 12 | 12 << 6 | 28, &start), None);
        assert_eq!(decode_move(1 << 15 | 12 << 6 | 28, &start), None);

        let promotion = Position::from_fen("8/1P5k/8/8/8/8/8/K7 w - - 0 1", false).unwrap();
        for (code, text) in [(1, "b7b8n"), (2, "b7b8b"), (3, "b7b8r"), (4, "b7b8q")] {
            let raw = code << 12 | 49 << 6 | 57;
            let m = decode_move(raw, &promotion).unwrap();
            assert_eq!(Position::uci(m, CastlingMode::Standard), text);
            assert_eq!(encode_move(m), raw);
        }
        // A promotion needs its piece.
        assert_eq!(decode_move(49 << 6 | 57, &promotion), None);
    }

    #[test]
    fn castling_is_the_king_taking_its_rook() {
        let fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
        for (chess960, short, long) in [(false, "e1g1", "e1c1"), (true, "e1h1", "e1a1")] {
            let position = Position::from_fen(fen, chess960).unwrap();
            let mode = if chess960 {
                CastlingMode::Chess960
            } else {
                CastlingMode::Standard
            };
            // e1h1 = from 4 to 7, e1a1 = from 4 to 0.
            let m = decode_move(4 << 6 | 7, &position).unwrap();
            assert!(matches!(m, Move::Castle { .. }));
            assert_eq!(Position::uci(m, mode), short);
            assert_eq!(
                Position::uci(decode_move(4 << 6, &position).unwrap(), mode),
                long
            );
            assert_eq!(encode_move(m), 4 << 6 | 7);
        }
        // Black: e8h8 and e8a8.
        let mut black = Position::from_fen(fen, false).unwrap();
        black.play_uci("a2a3").unwrap();
        let m = decode_move(60 << 6 | 63, &black).unwrap();
        assert_eq!(Position::uci(m, CastlingMode::Standard), "e8g8");
        let m = decode_move(60 << 6 | 56, &black).unwrap();
        assert_eq!(Position::uci(m, CastlingMode::Standard), "e8c8");
        // Without the right, e1h1 is no move.
        let no_rights = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1", false).unwrap();
        assert_eq!(decode_move(4 << 6 | 7, &no_rights), None);
        // Chess960: king on c1, rooks on b1 and g1.
        let c960 = Position::from_fen("k7/8/8/8/8/8/8/1RK3R1 w GB - 0 1", true).unwrap();
        let m = decode_move(2 << 6 | 6, &c960).unwrap();
        assert_eq!(Position::uci(m, CastlingMode::Chess960), "c1g1");
        assert_eq!(c960.play(m).fen(), "k7/8/8/8/8/8/8/1R3RK1 b - - 1 1");
        let m = decode_move(2 << 6 | 1, &c960).unwrap();
        assert_eq!(Position::uci(m, CastlingMode::Chess960), "c1b1");
        assert_eq!(c960.play(m).fen(), "k7/8/8/8/8/8/8/2KR2R1 b - - 1 1");
    }
}
