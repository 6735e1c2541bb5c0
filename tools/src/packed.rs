//! The training-data format: marlinformat, the 32-byte record of the field's trainers (bullet,
//! marlinflow), one position with its search score and its game's result, written by
//! `brudno datagen` and read by `brudno tune` and `brudno train`.
//!
//! A file is a plain sequence of records (no header, so files concatenate); the positions of
//! one game are contiguous and the first of each game is marked. A record, little-endian:
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | occupancy: bit `s` set when square `s` (a1 = 0, b1 = 1, ..., h8 = 63) holds a piece |
//! | 8..24 | the pieces of the occupied squares in increasing square order, 4 bits each, low nibble first: bits 0..2 the type (0 pawn, 1 knight, 2 bishop, 3 rook, 4 queen, 5 king, 6 a rook that still has its castling right), bit 3 set for Black; unused nibbles 0 |
//! | 24 | bit 7: Black to move; bits 0..6: the en-passant square, or 64 for none |
//! | 25 | half-move clock |
//! | 26..28 | full-move number |
//! | 28..30 | the search's score in centipawns from White's point of view (i16) |
//! | 30 | the game's result: 0 Black won, 1 draw, 2 White won |
//! | 31 | marlinformat's spare byte: bit 7 marks the first position of a game (Brudno's own; other tools ignore the byte); `to_marlin` clears it |
//!
//! Files written before marlinformat (up to December 2026) kept the castling rights in bits
//! 0..3 of the spare byte (K, Q, k, q) and never used type 6; both are read, so old files
//! keep loading, and `brudno datadump FILE --marlin OUT` converts them.
//!
//! A position with castling rights that standard chess cannot have (a rook with its right
//! outside a corner) is read as Chess960, as viriformat's own reader does.
//!
//! Decoding checks every field (piece codes, one king each, at most 32 pieces, a legal
//! position) and refuses a bad record with the reason; it never panics on input.

use shakmaty::fen::Fen;
use shakmaty::{
    Bitboard, Board, CastlingMode, Color, EnPassantMode, FromSetup, Piece, Position as _, Role,
    Setup, Square,
};

use brudno_engine::position::Position;

/// Bytes per record.
pub const RECORD_BYTES: usize = 32;

/// The type code of a rook that still has its castling right.
const UNMOVED_ROOK: u8 = 6;
/// The spare byte's mark of a game's first position.
const GAME_START: u8 = 0x80;

/// One training position.
#[derive(Clone, Debug)]
pub struct Record {
    /// The position.
    pub position: Position,
    /// The search's score in centipawns, from White's point of view.
    pub score: i16,
    /// The game's result for White: 0 loss, 1 draw, 2 win.
    pub result: u8,
    /// Whether this is the first kept position of its game.
    pub game_start: bool,
}

impl Record {
    /// The result as a score for White: 0, 0.5 or 1.
    pub fn white_result(&self) -> f64 {
        f64::from(self.result) / 2.0
    }
}

fn piece_code(piece: Piece) -> u8 {
    let role = piece.role as u8 - 1;
    if piece.color == Color::White {
        role
    } else {
        8 | role
    }
}

fn code_piece(code: u8) -> Option<Piece> {
    let color = if code & 8 == 0 {
        Color::White
    } else {
        Color::Black
    };
    let role = match code & 7 {
        0 => Role::Pawn,
        1 => Role::Knight,
        2 => Role::Bishop,
        3 => Role::Rook,
        4 => Role::Queen,
        5 => Role::King,
        UNMOVED_ROOK => Role::Rook,
        _ => return None,
    };
    Some(Piece { color, role })
}

/// Packs a position (standard chess) with its score and result, as marlinformat with the
/// first position of a game marked in the spare byte.
pub fn encode(position: &Position, score: i16, result: u8, game_start: bool) -> [u8; RECORD_BYTES] {
    let mut bytes = [0u8; RECORD_BYTES];
    let board = position.board();
    let occupied = board.occupied();
    let setup = position.chess().to_setup(EnPassantMode::Legal);
    let castling_rooks = setup.castling_rights;
    bytes[0..8].copy_from_slice(&occupied.0.to_le_bytes());
    for (index, square) in occupied.into_iter().enumerate().take(32) {
        let piece = board.piece_at(square);
        let mut code = piece.map_or(0, piece_code);
        if piece.is_some_and(|p| p.role == Role::Rook) && castling_rooks.contains(square) {
            code = (code & 8) | UNMOVED_ROOK;
        }
        bytes[8 + index / 2] |= code << (4 * (index % 2));
    }
    let ep = setup.ep_square.map_or(64, |s| s as u8);
    bytes[24] = ep
        | if position.turn() == Color::Black {
            0x80
        } else {
            0
        };
    bytes[25] = setup.halfmoves.min(255) as u8;
    bytes[26..28]
        .copy_from_slice(&(setup.fullmoves.get().min(u32::from(u16::MAX)) as u16).to_le_bytes());
    bytes[28..30].copy_from_slice(&score.to_le_bytes());
    bytes[30] = result.min(2);
    bytes[31] = if game_start { GAME_START } else { 0 };
    bytes
}

/// The record as plain marlinformat, whatever Brudno file it came from: the castling rights as
/// type-6 rooks, the spare byte zero.
pub fn to_marlin(record: &Record) -> [u8; RECORD_BYTES] {
    encode(&record.position, record.score, record.result, false)
}

/// Unpacks a record, or says what is wrong with it.
pub fn decode(bytes: &[u8; RECORD_BYTES]) -> Result<Record, String> {
    let occupied = Bitboard(u64::from_le_bytes(bytes[0..8].try_into().unwrap_or([0; 8])));
    if occupied.count() > 32 {
        return Err(format!("{} pieces (at most 32)", occupied.count()));
    }
    let mut board = Board::empty();
    let mut castling_rights = Bitboard::EMPTY;
    for (index, square) in occupied.into_iter().enumerate() {
        let code = (bytes[8 + index / 2] >> (4 * (index % 2))) & 15;
        let piece = code_piece(code).ok_or_else(|| format!("piece code {code} on {square}"))?;
        board.set_piece_at(square, piece);
        if code & 7 == UNMOVED_ROOK {
            castling_rights.add(square);
        }
    }
    let turn = if bytes[24] & 0x80 != 0 {
        Color::Black
    } else {
        Color::White
    };
    let ep = bytes[24] & 0x7f;
    let ep_square = match ep {
        64 => None,
        0..=63 => Some(Square::new(u32::from(ep))),
        _ => return Err(format!("en-passant square {ep}")),
    };
    // Files from before marlinformat: the rights in bits 0..3 of the spare byte.
    for (bit, square) in [Square::H1, Square::A1, Square::H8, Square::A8]
        .into_iter()
        .enumerate()
    {
        if bytes[31] & (1 << bit) != 0 {
            castling_rights.add(square);
        }
    }
    let fullmoves = u16::from_le_bytes([bytes[26], bytes[27]]).max(1);
    let setup = Setup {
        board,
        promoted: Bitboard::EMPTY,
        pockets: None,
        turn,
        castling_rights,
        ep_square,
        remaining_checks: None,
        halfmoves: u32::from(bytes[25]),
        fullmoves: std::num::NonZeroU32::new(u32::from(fullmoves))
            .unwrap_or(std::num::NonZeroU32::MIN),
    };
    // Castling rights of rooks outside the corners (or a king off its file) are Chess960's.
    let read = |mode| {
        shakmaty::Chess::from_setup(setup.clone(), mode)
            .or_else(shakmaty::PositionError::ignore_invalid_ep_square)
            .map_err(|e| format!("illegal position: {e}"))
    };
    let chess = read(CastlingMode::Standard).or_else(|why| {
        if setup.castling_rights.any() {
            read(CastlingMode::Chess960)
        } else {
            Err(why)
        }
    })?;
    let result = bytes[30];
    if result > 2 {
        return Err(format!("result {result} (0, 1 or 2)"));
    }
    Ok(Record {
        position: Position::from_chess(chess),
        score: i16::from_le_bytes([bytes[28], bytes[29]]),
        result,
        game_start: bytes[31] & GAME_START != 0,
    })
}

/// Reads every record of `data`; a bad record is reported through `bad` with its index and
/// skipped. A trailing partial record is reported too.
pub fn decode_all(data: &[u8], bad: &mut dyn FnMut(usize, &str)) -> Vec<Record> {
    let mut records = Vec::with_capacity(data.len() / RECORD_BYTES);
    let chunks = data.chunks_exact(RECORD_BYTES);
    let rest = chunks.remainder().len();
    for (index, chunk) in chunks.enumerate() {
        let bytes: &[u8; RECORD_BYTES] = chunk.try_into().unwrap_or(&[0; RECORD_BYTES]);
        match decode(bytes) {
            Ok(record) => records.push(record),
            Err(why) => bad(index, &why),
        }
    }
    if rest > 0 {
        bad(
            data.len() / RECORD_BYTES,
            &format!("{rest} trailing bytes (not a whole record)"),
        );
    }
    records
}

/// The record as text: `<FEN> | <score> | <result>`, result as 1-0, 1/2-1/2 or 0-1.
pub fn to_text(record: &Record) -> String {
    let result = ["0-1", "1/2-1/2", "1-0"][usize::from(record.result.min(2))];
    let fen = Fen::from_position(record.position.chess(), EnPassantMode::Legal);
    format!("{fen} | {} | {result}", record.score)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip() {
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 3 17",
            "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b Kq e3 0 3",
            "8/8/8/8/8/6k1/6p1/6K1 w - - 99 120",
            "4k3/8/8/8/8/8/8/4K2R b K - 0 1",
        ];
        for (i, fen) in fens.iter().enumerate() {
            let position = Position::from_fen(fen, false).unwrap();
            let score = -300 + 123 * i as i16;
            let bytes = encode(&position, score, (i % 3) as u8, i == 1);
            let record = decode(&bytes).unwrap();
            assert_eq!(record.position.fen(), position.fen(), "{fen}");
            assert_eq!(record.position.key(), position.key());
            assert_eq!(record.score, score);
            assert_eq!(record.result, (i % 3) as u8);
            assert_eq!(record.game_start, i == 1);
        }
    }

    #[test]
    fn bad_records_are_refused_with_a_reason() {
        let good = encode(&Position::default(), 0, 1, true);
        let mut bad = good;
        bad[8] = 0x07; // piece code 7 on a1
        assert!(decode(&bad).unwrap_err().contains("piece code 7"));
        let mut bad = good;
        bad[30] = 3;
        assert!(decode(&bad).unwrap_err().contains("result 3"));
        let mut bad = good;
        bad[8] = 0x33; // a white rook instead of the king's neighbours: still legal? a1 R, b1 R
        bad[10] = 0x33; // no white king left on e1
        assert!(decode(&bad).unwrap_err().contains("illegal position"));
        let mut calls = Vec::new();
        let mut data = good.to_vec();
        data.extend_from_slice(&bad);
        data.extend_from_slice(&good[..5]);
        let records = decode_all(&data, &mut |i, why| calls.push((i, why.to_string())));
        assert_eq!(records.len(), 1);
        assert_eq!(calls.len(), 2);
        assert_eq!(calls[0].0, 1);
        assert!(calls[1].1.contains("5 trailing bytes"));
        assert_eq!(
            to_text(&records[0]),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 0 | 1/2-1/2"
        );
    }

    /// The start position as marlinformat writes it, byte for byte: the four rooks of type 6.
    #[test]
    fn the_start_position_is_marlinformat() {
        let bytes = encode(&Position::default(), -17, 2, false);
        assert_eq!(&bytes[0..8], &0xffff_0000_0000_ffffu64.to_le_bytes());
        assert_eq!(
            &bytes[8..24],
            &[
                0x16, 0x42, 0x25, 0x61, 0, 0, 0, 0, 0x88, 0x88, 0x88, 0x88, 0x9e, 0xca, 0xad, 0xe9
            ]
        );
        assert_eq!(bytes[24], 64, "White to move, no en-passant square");
        assert_eq!((bytes[25], bytes[26], bytes[27]), (0, 1, 0));
        assert_eq!(i16::from_le_bytes([bytes[28], bytes[29]]), -17);
        assert_eq!((bytes[30], bytes[31]), (2, 0));
        assert_eq!(
            to_marlin(&decode(&encode(&Position::default(), -17, 2, true)).unwrap()),
            bytes
        );
    }

    /// A record of the format before marlinformat (castling in the spare byte, rooks of type
    /// 3) reads as the same position, and converts to the marlinformat record.
    #[test]
    fn records_of_the_old_format_still_load() {
        let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w Kq - 3 17";
        let position = Position::from_fen(fen, false).unwrap();
        let new = encode(&position, 55, 1, true);
        let mut old = new;
        for index in 0..32 {
            let byte = 8 + index / 2;
            let shift = 4 * (index % 2);
            if (old[byte] >> shift) & 7 == UNMOVED_ROOK {
                old[byte] = (old[byte] & !(7 << shift)) | (3 << shift);
            }
        }
        old[31] = GAME_START | 0b0001 | 0b1000; // K and q
        assert_ne!(old, new);
        let record = decode(&old).unwrap();
        assert_eq!(record.position.fen(), fen);
        assert!(record.game_start);
        let mut marlin = new;
        marlin[31] = 0;
        assert_eq!(to_marlin(&record), marlin);
    }
}
