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
        Self {
            chess,
            key,
            ep_file,
        }
    }

    /// Parses a FEN. The board and the side to move are required; castling rights, the
    /// en-passant square and the move counters may be missing (`- - 0 1`). Castling rights
    /// written as Shredder or X-FEN file letters, or rooks not in the corners, select Chess960
    /// castling; `chess960` forces it. Positions that cannot arise in a game (no king, two
    /// kings of a colour, pawns on the first or last rank, the side not to move in check, an
    /// impossible en-passant square, castling rights without their king and rook) are refused.
    pub fn from_fen(fen: &str, chess960: bool) -> Result<Self, PositionError> {
        let fen = fen.trim();
        let quoted = shorten(fen);
        check_fen_layout(fen).map_err(|e| PositionError(format!("bad FEN '{quoted}': {e}")))?;
        let parsed = Fen::from_ascii(fen.as_bytes())
            .map_err(|e| PositionError(format!("bad FEN '{quoted}': {e}")))?;
        let setup = parsed.as_setup();
        let mode = if chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::detect(setup)
        };
        let chess: Chess = parsed.into_position(mode).map_err(|e| {
            let reasons = e.to_string();
            let reasons = reasons.trim_start_matches("illegal position: ");
            PositionError(format!("illegal position '{quoted}': {reasons}"))
        })?;
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
    pub fn play_in_place(&mut self, m: Move) {
        let us = self.chess.turn();
        let mut key = self.key ^ Zobrist64::zobrist_for_white_turn().0;
        if let Some(file) = self.ep_file.take() {
            key ^= Zobrist64::zobrist_for_en_passant_file(file).0;
        }
        let castling_before = castling_bits(&self.chess);

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

        let changed = castling_before ^ castling_bits(&self.chess);
        if changed != 0 {
            key ^= castling_keys(changed);
        }
        if double_push {
            self.ep_file = self.chess.ep_square(EnPassantMode::Legal).map(Square::file);
            if let Some(file) = self.ep_file {
                key ^= Zobrist64::zobrist_for_en_passant_file(file).0;
            }
        }
        self.key = key;
        debug_assert_eq!(self.key, full_key(&self.chess), "incremental Zobrist key");
    }

    /// The position with the other side to move and nothing else changed (a "null move"), or
    /// `None` when the side to move is in check (passing would leave the king capturable).
    pub fn play_null(&self) -> Option<Self> {
        if self.chess.is_check() {
            return None;
        }
        let chess = self.chess.clone().swap_turn().ok()?;
        let mut key = self.key ^ Zobrist64::zobrist_for_white_turn().0;
        if let Some(file) = self.ep_file {
            key ^= Zobrist64::zobrist_for_en_passant_file(file).0;
        }
        let null = Self {
            chess,
            key,
            ep_file: None,
        };
        debug_assert_eq!(null.key, full_key(&null.chess), "null-move Zobrist key");
        Some(null)
    }

    /// Whether the side to move has a piece other than pawns and the king (null-move pruning
    /// is unsafe without one: zugzwang is common in pawn endings).
    #[inline]
    pub fn has_non_pawn_material(&self) -> bool {
        let board = self.chess.board();
        let ours = board.by_color(self.chess.turn());
        (ours & !(board.pawns() | board.kings())).any()
    }

    /// Parses a move in UCI notation (`e2e4`, `e7e8q`, `e1g1` or `e1h1` for castling) and plays
    /// it if it is legal; otherwise returns why not and leaves the position unchanged.
    pub fn play_uci(&mut self, text: &str) -> Result<Move, PositionError> {
        let m = self.parse_uci(text)?;
        self.play_in_place(m);
        Ok(m)
    }

    /// Parses a UCI move and checks it is legal here, without playing it. Castling is read
    /// both as king takes rook (`e1h1`) and as the king's move to its destination (`e1g1`),
    /// in standard chess and in Chess960.
    pub fn parse_uci(&self, text: &str) -> Result<Move, PositionError> {
        let uci = UciMove::from_ascii(text.as_bytes())
            .map_err(|_| PositionError(format!("malformed move '{}'", shorten(text))))?;
        uci.to_move(&self.chess)
            .ok()
            .or_else(|| self.castle_to_king_destination(uci))
            .ok_or_else(|| PositionError(format!("illegal move '{text}' in {}", self.fen())))
    }

    /// A Chess960 castle written as the king's move to its destination (`b1g1` with the king
    /// on b1 and the rook on h1), which shakmaty reads only for a king on the e-file. Taken as
    /// castling only when the king would move two files or more: it cannot be a king step.
    fn castle_to_king_destination(&self, uci: UciMove) -> Option<Move> {
        let UciMove::Normal {
            from,
            to,
            promotion: None,
        } = uci
        else {
            return None;
        };
        if from.rank() != to.rank() || from.distance(to) < 2 {
            return None;
        }
        self.legal_moves().into_iter().find(|&m| match m {
            Move::Castle { king, rook } => {
                let side = CastlingSide::from_queen_side(rook < king);
                king == from && Square::from_coords(side.king_to_file(), king.rank()) == to
            }
            _ => false,
        })
    }

    /// Formats a move for UCI output in the given castling notation.
    pub fn uci(m: Move, mode: CastlingMode) -> String {
        m.to_uci(mode).to_string()
    }
}

/// Outside text quoted in an error message, cut to a length a user can read.
fn shorten(text: &str) -> String {
    const MAX_CHARS: usize = 100;
    match text.char_indices().nth(MAX_CHARS) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None => text.to_string(),
    }
}

/// Checks what shakmaty reads leniently or reports in variant terms: eight ranks of eight
/// squares (a ninth rank would be read as a crazyhouse pocket), a side to move, at most six
/// fields. Says what is wrong in a user's terms.
fn check_fen_layout(fen: &str) -> Result<(), String> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let Some(board) = fields.first() else {
        return Err("the FEN is empty".to_string());
    };
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 8 {
        return Err(format!("the board has {} ranks, not 8", ranks.len()));
    }
    for (index, rank) in ranks.iter().enumerate() {
        let name = 8 - index;
        let mut squares = 0;
        for c in rank.chars() {
            squares += match c {
                '1'..='8' => c as usize - '0' as usize,
                'p' | 'n' | 'b' | 'r' | 'q' | 'k' | 'P' | 'N' | 'B' | 'R' | 'Q' | 'K' => 1,
                _ => {
                    return Err(format!(
                        "rank {name} has '{c}', neither a piece nor 1 to 8 empty squares"
                    ));
                }
            };
        }
        if squares != 8 {
            return Err(format!("rank {name} has {squares} squares, not 8"));
        }
    }
    match fields.len() {
        1 => Err("the side to move ('w' or 'b') is missing".to_string()),
        2..=6 => Ok(()),
        n => Err(format!("{n} fields, at most 6")),
    }
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
    fn null_move_flips_the_side_and_keeps_the_key_exact() {
        let mut pos = Position::default();
        pos.play_uci("e2e4").unwrap();
        pos.play_uci("d7d5").unwrap();
        pos.play_uci("e4e5").unwrap();
        pos.play_uci("f7f5").unwrap(); // en passant possible: the null move removes it
        let null = pos.play_null().unwrap();
        assert_eq!(null.turn(), Color::Black);
        assert_eq!(null.key(), null.full_key());
        assert_ne!(null.key(), pos.key());
        let in_check = Position::from_fen("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", false).unwrap();
        assert!(in_check.play_null().is_none());
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
    fn fen_layout_errors_are_named() {
        let error = |fen: &str| Position::from_fen(fen, false).unwrap_err().0;
        assert!(error("8/8/8/8/8/8/8/K6k/8 w - - 0 1").contains("9 ranks"));
        assert!(error("8/8/8/8/8/8/K6k w - - 0 1").contains("7 ranks"));
        assert!(error("8/8/8/8/8/8/8/K7k w - - 0 1").contains("rank 1 has 9 squares"));
        assert!(error("8/8/8/8/8/8/8/K5k w - - 0 1").contains("rank 1 has 7 squares"));
        assert!(error("8/8/8/8/8/8/8/K5kx w - - 0 1").contains("has 'x', neither a piece"));
        assert!(error("8/8/8/8/8/8/8/K9k w - - 0 1").contains("has '9', neither a piece"));
        assert!(error("8/8/8/8/8/8/8/K6k").contains("side to move"));
        assert!(error("8/8/8/8/8/8/8/K6k w - - 0 1 x").contains("7 fields"));
        assert!(error("").contains("empty"));
        assert!(error("8/8/8/8/8/8/8/K6k w - e3 0 1").contains("invalid ep square"));
        // Missing castling, en passant and counters default to "- - 0 1".
        let pos = Position::from_fen("8/8/8/8/8/8/8/K6k b", false).unwrap();
        assert_eq!(pos.fen(), "8/8/8/8/8/8/8/K6k b - - 0 1");
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

        // King on b1, rooks on a1 and h1: both castles both ways; b1c1 stays a king step.
        let pos =
            Position::from_fen("rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1", true).unwrap();
        let short = pos.parse_uci("b1h1").unwrap();
        assert!(short.is_castle());
        assert_eq!(pos.parse_uci("b1g1").unwrap(), short);
        let long = pos.parse_uci("b1a1").unwrap();
        assert!(long.is_castle());
        assert!(!pos.parse_uci("b1c1").unwrap().is_castle());
        assert!(pos.parse_uci("b1f1").is_err());
    }
}
