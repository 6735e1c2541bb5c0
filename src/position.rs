//! `Position`: a `shakmaty::Chess` plus the incrementally updated 64-bit Zobrist key.
//!
//! The search, perft, bench and the EPD runner all move through this type, so that what perft
//! verifies is exactly what the search relies on. A move is made by copy-make (`clone` plus
//! `play_unchecked`); there is no unmake. The key is shakmaty's Polyglot-compatible Zobrist
//! hash with the en-passant file included only when an en-passant capture is legal, and it is
//! updated per move instead of recomputed. Debug builds check it against a full recompute after
//! every move. This module never decides legality of outside input itself: `play_unchecked`
//! must only be given moves from `legal_moves()`; moves from outside go through `play_uci`.

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::zobrist::{Zobrist64, ZobristValue};
use shakmaty::{
    CastlingMode, CastlingSide, Chess, Color, EnPassantMode, File, Move, MoveList, Piece,
    Position as _, Role, Square,
};

/// The Polyglot key of the standard start position.
pub const START_KEY: u64 = 0x463b_9618_1691_fc9c;

/// A chess position with its Zobrist key. Cheap to clone (about 100 bytes, no heap).
#[derive(Clone, Debug)]
pub struct Position {
    chess: Chess,
    key: u64,
    /// File of the en-passant square if a legal en-passant capture exists (it is part of the key).
    ep_file: Option<File>,
    /// The castling rights as four bits (see `castling_bits`), kept so that a move only
    /// recomputes them when shakmaty's rook mask says a right was lost.
    castling: u8,
}

/// Why a FEN or a move from outside was refused; the message is meant for a user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError(pub String);

impl std::fmt::Display for PositionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PositionError {}

impl Default for Position {
    fn default() -> Self {
        Self::from_chess(Chess::default())
    }
}

impl Position {
    /// Wraps a shakmaty position and computes its key from scratch.
    pub fn from_chess(chess: Chess) -> Self {
        let ep_file = chess.ep_square(EnPassantMode::Legal).map(Square::file);
        let key = full_key(&chess);
        let castling = castling_bits(&chess);
        Self {
            chess,
            key,
            ep_file,
            castling,
        }
    }

    /// Parses a FEN (the halfmove and fullmove fields may be missing). Castling rights written
    /// as Shredder or X-FEN file letters, or rooks not in the corners, select Chess960 castling;
    /// `chess960` forces it.
    pub fn from_fen(fen: &str, chess960: bool) -> Result<Self, PositionError> {
        Self::parse_fen(fen, chess960, false)
    }

    /// Like `from_fen`, but also accepts checks that no game can reach (two checkers aligned
    /// with the king, for example). Their move tree is still well defined and published perft
    /// suites contain such positions; the search and the UCI loop keep the strict `from_fen`.
    pub fn from_fen_for_perft(fen: &str, chess960: bool) -> Result<Self, PositionError> {
        Self::parse_fen(fen, chess960, true)
    }

    fn parse_fen(
        fen: &str,
        chess960: bool,
        allow_impossible_check: bool,
    ) -> Result<Self, PositionError> {
        let fen = fen.trim();
        let parsed = Fen::from_ascii(fen.as_bytes())
            .map_err(|e| PositionError(format!("bad FEN '{fen}': {e}")))?;
        let setup = parsed.as_setup();
        let mode = if chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::detect(setup)
        };
        let parsed: Result<Chess, _> = parsed.into_position(mode);
        let chess = match parsed {
            Err(error) if allow_impossible_check => error.ignore_impossible_check(),
            other => other,
        }
        .map_err(|e| PositionError(format!("illegal position '{fen}': {e}")))?;
        Ok(Self::from_chess(chess))
    }

    /// The underlying shakmaty position.
    #[inline]
    pub fn chess(&self) -> &Chess {
        &self.chess
    }

    /// The board (piece placement).
    #[inline]
    pub fn board(&self) -> &shakmaty::Board {
        self.chess.board()
    }

    /// The Zobrist key (Polyglot compatible).
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.chess.turn()
    }

    /// Half-moves since the last capture or pawn move.
    #[inline]
    pub fn halfmoves(&self) -> u32 {
        self.chess.halfmoves()
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn is_check(&self) -> bool {
        self.chess.is_check()
    }

    /// All legal moves.
    #[inline]
    pub fn legal_moves(&self) -> MoveList {
        self.chess.legal_moves()
    }

    /// Whether neither side can possibly mate (K v K, K+minor v K, same-coloured bishops...).
    #[inline]
    pub fn is_insufficient_material(&self) -> bool {
        self.chess.is_insufficient_material()
    }

    /// Castling notation in force: standard (`e1g1`) or Chess960 (king takes rook, `e1h1`).
    #[inline]
    pub fn castling_mode(&self) -> CastlingMode {
        self.chess.castles().mode()
    }

    /// The FEN of this position.
    pub fn fen(&self) -> String {
        Fen::from_position(&self.chess, EnPassantMode::Legal).to_string()
    }

    /// The key computed from scratch; equals `key()` unless the incremental update is wrong.
    pub fn full_key(&self) -> u64 {
        full_key(&self.chess)
    }

    /// Returns the position after the legal move `m`, with its key updated incrementally.
    #[inline]
    #[must_use]
    pub fn play(&self, m: Move) -> Self {
        let mut next = self.clone();
        next.play_in_place(m);
        next
    }

    /// Plays the legal move `m` on this position (copy-make callers clone first).
    #[inline]
    pub fn play_in_place(&mut self, m: Move) {
        let us = self.chess.turn();
        let mut key = self.key ^ Zobrist64::zobrist_for_white_turn().0;
        if let Some(file) = self.ep_file.take() {
            key ^= Zobrist64::zobrist_for_en_passant_file(file).0;
        }
        let rights_before = self.chess.castles().castling_rights();

        let mut double_push = false;
        match m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                key ^= piece_key(from, role.of(us));
                if let Some(captured) = capture {
                    key ^= piece_key(to, captured.of(!us));
                }
                key ^= piece_key(to, promotion.unwrap_or(role).of(us));
                double_push = role == Role::Pawn && from.distance(to) == 2;
            }
            Move::EnPassant { from, to } => {
                let captured = Square::from_coords(to.file(), from.rank());
                key ^= piece_key(from, us.pawn());
                key ^= piece_key(to, us.pawn());
                key ^= piece_key(captured, (!us).pawn());
            }
            Move::Castle { king, rook } => {
                let side = CastlingSide::from_queen_side(rook < king);
                let rank = king.rank();
                key ^= piece_key(king, us.king());
                key ^= piece_key(rook, us.rook());
                key ^= piece_key(Square::from_coords(side.king_to_file(), rank), us.king());
                key ^= piece_key(Square::from_coords(side.rook_to_file(), rank), us.rook());
            }
            Move::Put { .. } => unreachable!("drops do not exist in standard chess"),
        }

        self.chess.play_unchecked(m);

        // Rights are only ever lost; the rook mask tells cheaply whether any was.
        if self.chess.castles().castling_rights() != rights_before {
            let castling = castling_bits(&self.chess);
            key ^= castling_keys(self.castling ^ castling);
            self.castling = castling;
        }
        // The en-passant file counts only when a capture is legal. The pseudo-legal test (an
        // enemy pawn beside the pushed one) is a few instructions; the full legality test
        // generates moves, so it stays out of line and runs only when that test passes.
        if double_push && self.chess.ep_square(EnPassantMode::PseudoLegal).is_some() {
            self.ep_file = legal_ep_file(&self.chess);
            if let Some(file) = self.ep_file {
                key ^= Zobrist64::zobrist_for_en_passant_file(file).0;
            }
        }
        self.key = key;
        debug_assert_eq!(self.key, full_key(&self.chess), "incremental Zobrist key");
    }

    /// Parses a move in UCI notation (`e2e4`, `e7e8q`, `e1g1` or `e1h1` for castling) and plays
    /// it if it is legal; otherwise returns why not and leaves the position unchanged.
    pub fn play_uci(&mut self, text: &str) -> Result<Move, PositionError> {
        let m = self.parse_uci(text)?;
        self.play_in_place(m);
        Ok(m)
    }

    /// Parses a UCI move and checks it is legal here, without playing it.
    pub fn parse_uci(&self, text: &str) -> Result<Move, PositionError> {
        let uci = UciMove::from_ascii(text.as_bytes())
            .map_err(|_| PositionError(format!("malformed move '{text}'")))?;
        uci.to_move(&self.chess)
            .map_err(|_| PositionError(format!("illegal move '{text}' in {}", self.fen())))
    }

    /// Formats a move for UCI output in the given castling notation.
    pub fn uci(m: Move, mode: CastlingMode) -> String {
        m.to_uci(mode).to_string()
    }
}

/// File of the en-passant square if an en-passant capture is legal.
#[cold]
#[inline(never)]
fn legal_ep_file(chess: &Chess) -> Option<File> {
    chess.ep_square(EnPassantMode::Legal).map(Square::file)
}

#[inline]
fn piece_key(square: Square, piece: Piece) -> u64 {
    Zobrist64::zobrist_for_piece(square, piece).0
}

/// The castling rights as four bits: white king side, white queen side, black king side, black
/// queen side.
#[inline]
fn castling_bits(chess: &Chess) -> u8 {
    let castles = chess.castles();
    u8::from(castles.has(Color::White, CastlingSide::KingSide))
        | u8::from(castles.has(Color::White, CastlingSide::QueenSide)) << 1
        | u8::from(castles.has(Color::Black, CastlingSide::KingSide)) << 2
        | u8::from(castles.has(Color::Black, CastlingSide::QueenSide)) << 3
}

/// XOR of the castling keys for the rights set in `bits` (same layout as `castling_bits`).
fn castling_keys(bits: u8) -> u64 {
    let mut key = 0;
    for (bit, color, side) in [
        (1, Color::White, CastlingSide::KingSide),
        (2, Color::White, CastlingSide::QueenSide),
        (4, Color::Black, CastlingSide::KingSide),
        (8, Color::Black, CastlingSide::QueenSide),
    ] {
        if bits & bit != 0 {
            key ^= Zobrist64::zobrist_for_castling_right(color, side).0;
        }
    }
    key
}

fn full_key(chess: &Chess) -> u64 {
    chess.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_has_the_polyglot_key() {
        assert_eq!(Position::default().key(), START_KEY);
    }

    /// Polyglot's published keys for a short opening sequence (from the Polyglot book format
    /// description), covering en passant, castling-right loss and king moves.
    #[test]
    fn polyglot_reference_keys() {
        let cases: [(&[&str], u64); 8] = [
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
        ];
        for (moves, expected) in cases {
            let mut pos = Position::default();
            for m in moves {
                pos.play_uci(m).unwrap();
            }
            assert_eq!(pos.key(), expected, "after {moves:?}");
            assert_eq!(pos.full_key(), expected);
        }
    }

    #[test]
    fn illegal_move_leaves_position_unchanged() {
        let mut pos = Position::default();
        let before = pos.key();
        assert!(pos.play_uci("e2e5").is_err());
        assert!(pos.play_uci("zz").is_err());
        assert_eq!(pos.key(), before);
    }

    #[test]
    fn impossible_checks_are_refused_except_for_perft() {
        // Two bishops on one diagonal both give check: no game reaches this.
        let fen = "B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1";
        assert!(Position::from_fen(fen, false).is_err());
        let pos = Position::from_fen_for_perft(fen, false).unwrap();
        assert_eq!(pos.legal_moves().len(), 6);
        assert_eq!(pos.key(), pos.full_key());
        assert!(Position::from_fen_for_perft("8/8/8/8/8/8/8/8 w - - 0 1", false).is_err());
    }

    #[test]
    fn chess960_castling_both_notations() {
        let mut pos =
            Position::from_fen("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1", true).unwrap();
        let m = pos.parse_uci("e1h1").unwrap();
        assert!(m.is_castle());
        let m2 = pos.parse_uci("e1g1").unwrap();
        assert_eq!(m, m2);
        pos.play_in_place(m);
        assert_eq!(pos.key(), pos.full_key());
    }
}
