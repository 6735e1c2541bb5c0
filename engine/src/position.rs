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
    Bitboard, CastlingMode, CastlingSide, Chess, Color, EnPassantMode, File, Move, MoveList, Piece,
    Position as _, Rank, Role, Square, attacks,
};

mod changes;
mod check;
mod movegen;
#[cfg(test)]
pub(crate) mod test_positions;
pub use changes::PieceChanges;
pub use check::CheckInfo;

/// Whether a move changes the material: a capture or a promotion (what quiescence searches,
/// what the training data's filter skips).
#[inline]
pub fn is_tactical(m: Move) -> bool {
    m.is_capture() || m.is_promotion()
}

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
    /// The pieces giving check to the side to move, computed once when the position is made
    /// (shakmaty computes them again at every call).
    checkers: Bitboard,
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
        let checkers = chess.checkers();
        Self {
            chess,
            key,
            ep_file,
            castling,
            checkers,
        }
    }

    /// Parses a FEN. The board and the side to move are required; castling rights, the
    /// en-passant square and the move counters may be missing (`- - 0 1`). Castling rights
    /// written as Shredder or X-FEN file letters, or rooks not in the corners, select Chess960
    /// castling; `chess960` forces it. Positions that cannot arise in a game (no king, two
    /// kings of a colour, pawns on the first or last rank, the side not to move in check, an
    /// impossible en-passant square, castling rights without their king and rook) are refused.
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
        let parsed: Result<Chess, _> = parsed.into_position(mode);
        let chess = match parsed {
            Err(error) if allow_impossible_check => error.ignore_impossible_check(),
            other => other,
        }
        .map_err(|e| {
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
        self.checkers.any()
    }

    /// The pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// All legal moves.
    #[inline]
    pub fn legal_moves(&self) -> MoveList {
        self.chess.legal_moves()
    }

    /// Whether neither side can possibly mate (K v K, K+minor v K, same-coloured bishops...).
    /// A pawn, rook or queen on the board always leaves a mate possible, so that common case
    /// is answered from one bitboard test (shakmaty's full test looks at every piece).
    #[inline]
    pub fn is_insufficient_material(&self) -> bool {
        let board = self.chess.board();
        if (board.pawns() | board.rooks_and_queens()).any() {
            return false;
        }
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
        let mut next = Self {
            chess: self.chess.clone(),
            key: 0,
            ep_file: None,
            castling: 0,
            checkers: Bitboard::EMPTY,
        };
        let changes = PieceChanges::of_move(m, self.turn());
        (next.key, next.ep_file, next.castling) = self.updated(&mut next.chess, m, &changes);
        next.checkers = next.chess.checkers();
        next
    }

    /// Writes the position after the legal move `m` into `child`, whatever it held before:
    /// copy-make into a buffer the caller keeps for all the moves of a node.
    ///
    /// Returns what the move changed on the board (`PieceChanges`), for whatever else is
    /// kept move by move (the evaluation's sums, the network's accumulators).
    ///
    /// Perft and the search use it. Returned by value from `play`, the 152-byte child was
    /// copied once more on its way to the recursive call, through libc's memcpy, whose wide
    /// loads and stores stall against shakmaty's narrow ones (store-to-load forwarding); that
    /// copy cost perft through Position 15-20% against shakmaty's own perft, which clones in
    /// registers.
    #[inline]
    pub fn play_into(&self, m: Move, child: &mut Position) -> PieceChanges {
        child.chess.clone_from(&self.chess);
        let changes = PieceChanges::of_move(m, self.turn());
        (child.key, child.ep_file, child.castling) = self.updated(&mut child.chess, m, &changes);
        child.checkers = child.chess.checkers();
        changes
    }

    /// Plays the legal move `m` on this position (copy-make callers use `play`).
    pub fn play_in_place(&mut self, m: Move) {
        *self = self.play(m);
    }

    /// Plays `m` on `chess` (a copy of this position's) and returns the key, en-passant file
    /// and castling bits of the result, updated from this position's by the move's
    /// `changes`.
    #[inline]
    fn updated(
        &self,
        chess: &mut Chess,
        m: Move,
        changes: &PieceChanges,
    ) -> (u64, Option<File>, u8) {
        let mut key = self.key ^ Zobrist64::zobrist_for_white_turn().0;
        if let Some(file) = self.ep_file {
            key ^= Zobrist64::zobrist_for_en_passant_file(file).0;
        }
        for &(piece, square) in changes.removed().iter().chain(changes.added()) {
            key ^= piece_key(square, piece);
        }
        let rights_before = chess.castles().castling_rights();
        // A pawn move of two ranks: the squares' indices differ by 16.
        let double_push = matches!(m, Move::Normal { role: Role::Pawn, from, to, .. }
            if (u32::from(from) ^ u32::from(to)) == 16);

        chess.play_unchecked(m);

        // Rights are only ever lost; the rook mask tells cheaply whether any was.
        let mut castling = self.castling;
        if chess.castles().castling_rights() != rights_before {
            castling = castling_bits(chess);
            key ^= castling_keys(self.castling ^ castling);
        }
        // The en-passant file counts only when an en-passant capture is legal.
        let mut ep_file = None;
        if double_push {
            ep_file = legal_ep_file(chess);
            if let Some(file) = ep_file {
                key ^= Zobrist64::zobrist_for_en_passant_file(file).0;
            }
        }
        debug_assert_eq!(key, full_key(chess), "incremental Zobrist key");
        (key, ep_file, castling)
    }

    /// The position with the other side to move and nothing else changed (a "null move"), or
    /// `None` when the side to move is in check (passing would leave the king capturable).
    pub fn play_null(&self) -> Option<Self> {
        if self.is_check() {
            return None;
        }
        let chess = self.chess.clone().swap_turn().ok()?;
        let mut key = self.key ^ Zobrist64::zobrist_for_white_turn().0;
        if let Some(file) = self.ep_file {
            key ^= Zobrist64::zobrist_for_en_passant_file(file).0;
        }
        // The side that passed was not in check, so the side that passed to cannot be either.
        let null = Self {
            chess,
            key,
            ep_file: None,
            castling: self.castling,
            checkers: Bitboard::EMPTY,
        };
        debug_assert_eq!(null.checkers, null.chess.checkers());
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

/// File of the en-passant square if the side to move has a legal en-passant capture.
///
/// shakmaty's `ep_square(EnPassantMode::Legal)` generates the en-passant moves with a full
/// legality test (a few hundred instructions); after every double push that cost showed in
/// perft. Here: a pawn of ours must attack the square, and after the capture (our pawn gone
/// from its square and on the en-passant square, theirs gone) no piece of theirs may attack
/// our king. That covers the pinned capturer, the rank that opens when both pawns leave it,
/// and a check the capture must answer. Debug builds compare the resulting key with shakmaty's.
#[inline]
fn legal_ep_file(chess: &Chess) -> Option<File> {
    let ep_square = chess.ep_square(EnPassantMode::PseudoLegal)?;
    let us = chess.turn();
    let board = chess.board();
    let king = board.king_of(us)?;
    let captured = Square::from_coords(ep_square.file(), us.fold_wb(Rank::Fifth, Rank::Fourth));
    let capturers = attacks::pawn_attacks(!us, ep_square) & board.pawns() & board.by_color(us);
    capturers
        .into_iter()
        .any(|from| {
            let occupied = (board.occupied() ^ from ^ captured) | ep_square;
            (board.attacks_to(king, !us, occupied) & !Bitboard::from(captured)).is_empty()
        })
        .then_some(ep_square.file())
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
mod tests;
