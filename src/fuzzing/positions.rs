//! Fuzz targets for positions and moves as text: a FEN, and a move list in SAN or UCI.
//!
//! `fen` reads the input as a FEN in both castling modes, strictly and as perft does, and
//! checks what the engine relies on: a position that was read writes back a FEN that reads
//! as the same position (same FEN, same key), its key equals the key computed from scratch
//! after every legal move, and every legal move written in UCI reads back as that move.
//! `moves` plays a move list the way `brudno trace --moves`, EPD records and `position ...
//! moves` read it; every move accepted is legal, and its SAN and UCI forms read back as it.

use shakmaty::{CastlingMode, Move};

use super::common::text;
use crate::position::Position;
use crate::tools::epd::notation;

/// The most moves of one input that `moves` plays.
const MAX_MOVES: usize = 512;

/// Reads the input as a FEN.
pub fn fen(data: &[u8]) {
    let text = text(data);
    for chess960 in [false, true] {
        if let Ok(position) = Position::from_fen(&text, chess960) {
            check_position(&position, false);
        }
        if let Ok(position) = Position::from_fen_for_perft(&text, chess960) {
            check_position(&position, true);
        }
    }
}

/// The FEN round trip and the moves of a position that was read.
fn check_position(position: &Position, perft: bool) {
    let written = position.fen();
    let chess960 = position.castling_mode() == CastlingMode::Chess960;
    let again = if perft {
        Position::from_fen_for_perft(&written, chess960)
    } else {
        Position::from_fen(&written, chess960)
    };
    let again = again.unwrap_or_else(|e| panic!("the FEN written back is refused: {e}"));
    assert_eq!(
        again.fen(),
        written,
        "the FEN written back reads differently"
    );
    assert_eq!(again.key(), position.key(), "{written}: another key");
    assert_eq!(position.key(), position.full_key(), "{written}: wrong key");
    let legal = position.legal_moves();
    assert_eq!(
        again.legal_moves().len(),
        legal.len(),
        "{written}: other moves"
    );
    for &m in &legal {
        let child = position.play(m);
        assert_eq!(child.key(), child.full_key(), "{written}: key after {m:?}");
        check_uci(position, m);
    }
}

/// A legal move written in UCI reads back as that move: in the position's castling notation,
/// and as the king taking its rook (which no other move can be written as). The standard
/// notation of a Chess960 castle may also be a king step (`b1c1`) or no move at all (`c1c1`).
fn check_uci(position: &Position, m: Move) {
    for mode in [position.castling_mode(), CastlingMode::Chess960] {
        let written = Position::uci(m, mode);
        assert_eq!(
            position.parse_uci(&written),
            Ok(m),
            "{}: '{written}' does not read back as {m:?}",
            position.fen()
        );
    }
}

/// Reads a move list: a first line that is a FEN sets the position (the start position
/// otherwise, and that line holds moves too), then every whitespace-separated token is read
/// leniently (SAN or coordinates, `epd::notation`) and strictly (UCI, `Position::parse_uci`);
/// the move read is played and the next token read in the new position.
pub fn moves(data: &[u8]) {
    let text = text(data);
    let (first, rest) = text.split_once('\n').unwrap_or((&text, ""));
    let (mut position, list) = match Position::from_fen(first, false) {
        Ok(position) => (position, rest),
        Err(_) => (Position::default(), &*text),
    };
    for token in list.split_whitespace().take(MAX_MOVES) {
        let lenient = notation::parse_move(&position, token);
        let strict = position.parse_uci(token);
        let legal = position.legal_moves();
        for m in [lenient.as_ref().ok(), strict.as_ref().ok()]
            .into_iter()
            .flatten()
        {
            assert!(legal.contains(m), "'{token}' read as an illegal {m:?}");
            check_san(&position, *m);
            check_uci(&position, *m);
        }
        if let (Ok(a), Ok(b)) = (&lenient, &strict) {
            assert_eq!(a, b, "'{token}' names two moves in {}", position.fen());
        }
        if let Err(error) = &lenient {
            assert!(!error.to_string().is_empty());
        }
        let Some(m) = lenient.ok().or(strict.ok()) else {
            continue;
        };
        position.play_in_place(m);
        assert_eq!(position.key(), position.full_key(), "key after '{token}'");
    }
}

/// A legal move written in SAN reads back as that move.
fn check_san(position: &Position, m: Move) {
    let san = notation::san(position, m);
    assert_eq!(
        notation::parse_move(position, &san),
        Ok(m),
        "{}: SAN '{san}' does not read back",
        position.fen()
    );
}
