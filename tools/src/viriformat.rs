//! viriformat: the game format of Viridithas and Stormphrax, which bullet reads; what
//! `brudno datagen` writes. A file is a sequence of games with no header, so files
//! concatenate. A game, little-endian:
//!
//! | bytes | field |
//! |---|---|
//! | 32 | the start position as a marlinformat board (`packed.rs`): castling rights as type-6 rooks, score 0, the game's result for White (0 loss, 1 draw, 2 win) in byte 30, byte 31 zero |
//! | 4 per move | a 16-bit move and the search's 16-bit score (centipawns, White's view) of the position the move was played in |
//! | 4 | zero: the end of the game |
//!
//! A move: bits 0..5 the from square, 6..11 the to square (castling as king takes rook),
//! 12..13 the promotion piece (0 knight, 1 bishop, 2 rook, 3 queen), 14..15 the kind (0 normal,
//! 1 en passant, 2 castling, 3 promotion). Every move of the game after its opening is
//! recorded, captures, checks and mate scores included: which positions a trainer learns
//! from is the trainer's choice (`training_records`), not the file's.
//!
//! Reading checks every field and refuses a bad game with its reason (a move that is not
//! legal in its position, a game cut short); it never panics on input.

use shakmaty::{Move, Role, Square};

use crate::packed::{self, RECORD_BYTES, Record};
use brudno_engine::position::Position;
use brudno_engine::position::is_tactical;
use brudno_engine::search::score;

/// Bytes of a move with its score.
pub const MOVE_BYTES: usize = 4;

const EN_PASSANT: u16 = 1 << 14;
const CASTLING: u16 = 2 << 14;
const PROMOTION: u16 = 3 << 14;

/// One self-play game: where the engine took over, what it played and scored, and how it
/// ended.
#[derive(Clone, Debug)]
pub struct Game {
    /// The position the recorded moves start from (after the random opening plies).
    pub start: Position,
    /// The game's result for White: 0 loss, 1 draw, 2 win.
    pub result: u8,
    /// Each move with the score of the position it was played in (White's view).
    pub moves: Vec<(Move, i16)>,
}

/// The 16 bits of a move (shakmaty's castling is already king takes rook).
pub fn encode_move(m: Move) -> u16 {
    let squares = |from: Square, to: Square| from as u16 | (to as u16) << 6;
    match m {
        Move::Normal {
            from,
            to,
            promotion: Some(role),
            ..
        } => squares(from, to) | (role as u16 - Role::Knight as u16) << 12 | PROMOTION,
        Move::Normal { from, to, .. } => squares(from, to),
        Move::EnPassant { from, to } => squares(from, to) | EN_PASSANT,
        Move::Castle { king, rook } => squares(king, rook) | CASTLING,
        // Crazyhouse drops are not chess moves; no game of ours holds one.
        Move::Put { to, .. } => squares(to, to),
    }
}

/// The legal move of `position` whose 16 bits are `raw`, or why there is none.
pub fn decode_move(position: &Position, raw: u16) -> Result<Move, String> {
    position
        .legal_moves()
        .into_iter()
        .find(|&m| encode_move(m) == raw)
        .ok_or_else(|| {
            format!(
                "move {raw:#06x} is not legal in {} (from {}, to {}, kind {})",
                position.fen(),
                Square::new(u32::from(raw & 63)),
                Square::new(u32::from((raw >> 6) & 63)),
                raw >> 14
            )
        })
}

impl Game {
    /// Appends the game's bytes to `out`.
    pub fn write_to(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&packed::encode(&self.start, 0, self.result, false));
        for &(m, score) in &self.moves {
            out.extend_from_slice(&encode_move(m).to_le_bytes());
            out.extend_from_slice(&score.to_le_bytes());
        }
        out.extend_from_slice(&[0; MOVE_BYTES]);
    }

    /// The game's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(RECORD_BYTES + MOVE_BYTES * (self.moves.len() + 1));
        self.write_to(&mut out);
        out
    }

    /// Reads the game at the start of `data`: the game and the bytes it took, or why it
    /// cannot be read.
    pub fn read(data: &[u8]) -> Result<(Game, usize), String> {
        let header: &[u8; RECORD_BYTES] = data
            .get(..RECORD_BYTES)
            .and_then(|h| h.try_into().ok())
            .ok_or_else(|| format!("{} bytes, too few for a start position", data.len()))?;
        let record = packed::decode(header).map_err(|why| format!("start position: {why}"))?;
        let mut position = record.position.clone();
        let mut moves = Vec::new();
        let mut at = RECORD_BYTES;
        loop {
            let Some(bytes) = data.get(at..at + MOVE_BYTES) else {
                return Err(format!(
                    "cut short after {} moves (no end marker)",
                    moves.len()
                ));
            };
            at += MOVE_BYTES;
            let raw = u16::from_le_bytes([bytes[0], bytes[1]]);
            let score = i16::from_le_bytes([bytes[2], bytes[3]]);
            if raw == 0 && score == 0 {
                break;
            }
            let m = decode_move(&position, raw)
                .map_err(|why| format!("move {}: {why}", moves.len() + 1))?;
            position.play_in_place(m);
            moves.push((m, score));
        }
        let game = Game {
            start: record.position,
            result: record.result,
            moves,
        };
        Ok((game, at))
    }

    /// Each recorded position with the move played in it and its score.
    pub fn positions(&self) -> impl Iterator<Item = (Position, Move, i16)> + '_ {
        let mut position = self.start.clone();
        self.moves.iter().map(move |&(m, score)| {
            let before = position.clone();
            position.play_in_place(m);
            (before, m, score)
        })
    }

    /// The positions a trainer learns from, as records: the side to move not in check, the
    /// move played neither a capture nor a promotion, the score not a mate.
    pub fn training_records(&self) -> impl Iterator<Item = Record> + '_ {
        let mut first = true;
        self.positions()
            .filter(|(position, m, score)| {
                !position.is_check() && !is_tactical(*m) && !score::is_mate(i32::from(*score))
            })
            .map(move |(position, _, score)| {
                let game_start = std::mem::take(&mut first);
                Record {
                    position,
                    score,
                    result: self.result,
                    game_start,
                }
            })
    }
}

/// Reads every game of `data`. A game that cannot be read ends the reading (the bytes after it
/// cannot be trusted to start a game): it is reported through `bad` with its number (from 0)
/// and the games before it are returned.
pub fn read_all(data: &[u8], bad: &mut dyn FnMut(usize, &str)) -> Vec<Game> {
    let mut games = Vec::new();
    let mut at = 0;
    while at < data.len() {
        match Game::read(&data[at..]) {
            Ok((game, used)) => {
                games.push(game);
                at += used;
            }
            Err(why) => {
                bad(games.len(), &why);
                break;
            }
        }
    }
    games
}

/// The byte where game `games` (from 0) starts: after that many whole games, or why the
/// bytes do not hold them.
pub fn skip_games(data: &[u8], games: u64) -> Result<usize, String> {
    let mut at = 0;
    for game in 0..games {
        at += RECORD_BYTES;
        loop {
            let bytes = data
                .get(at..at + MOVE_BYTES)
                .ok_or_else(|| format!("{game} whole games, fewer than {games}"))?;
            at += MOVE_BYTES;
            if bytes == [0; MOVE_BYTES] {
                break;
            }
        }
    }
    Ok(at)
}

/// The counts of a file: games and recorded moves, from the end markers alone (no position
/// is decoded, so it is fast), or why the bytes are not a sequence of whole games.
pub fn count(data: &[u8]) -> Result<(u64, u64), String> {
    let mut games = 0u64;
    let mut moves = 0u64;
    let mut at = 0;
    while at < data.len() {
        at += RECORD_BYTES;
        loop {
            let Some(bytes) = data.get(at..at + MOVE_BYTES) else {
                return Err(format!(
                    "game {} is cut short at byte {} of {}",
                    games + 1,
                    at.min(data.len()),
                    data.len()
                ));
            };
            at += MOVE_BYTES;
            if bytes == [0; MOVE_BYTES] {
                break;
            }
            moves += 1;
        }
        games += 1;
    }
    Ok((games, moves))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game_from(fen: &str, chess960: bool, moves: &[&str], result: u8) -> Game {
        let start = Position::from_fen(fen, chess960).unwrap();
        let mut position = start.clone();
        let moves = moves
            .iter()
            .enumerate()
            .map(|(i, text)| {
                let m = position.play_uci(text).unwrap();
                (m, i as i16 * 37 - 100)
            })
            .collect();
        Game {
            start,
            result,
            moves,
        }
    }

    fn round_trip(game: &Game) {
        let bytes = game.to_bytes();
        assert_eq!(
            bytes.len(),
            RECORD_BYTES + MOVE_BYTES * (game.moves.len() + 1)
        );
        let (again, used) = Game::read(&bytes).unwrap();
        assert_eq!(used, bytes.len());
        assert_eq!(again.start.fen(), game.start.fen());
        assert_eq!(again.result, game.result);
        assert_eq!(again.moves, game.moves);
        assert_eq!(count(&bytes), Ok((1, game.moves.len() as u64)));
    }

    #[test]
    fn moves_are_encoded_as_viriformat_defines_them() {
        let start = Position::default();
        let e2e4 = start.parse_uci("e2e4").unwrap();
        assert_eq!(encode_move(e2e4), 12 | 28 << 6);
        let castle = Position::from_fen("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", false).unwrap();
        let short = castle.parse_uci("e1g1").unwrap();
        assert_eq!(encode_move(short), 4 | 7 << 6 | 2 << 14, "king takes rook");
        let ep = Position::from_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", false).unwrap();
        let capture = ep.parse_uci("e5d6").unwrap();
        assert_eq!(encode_move(capture), 36 | 43 << 6 | 1 << 14);
        let promote = Position::from_fen("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", false).unwrap();
        for (text, piece) in [("b7b8n", 0), ("b7b8b", 1), ("b7b8r", 2), ("b7b8q", 3)] {
            let m = promote.parse_uci(text).unwrap();
            assert_eq!(
                encode_move(m),
                49 | 57 << 6 | piece << 12 | 3 << 14,
                "{text}"
            );
            assert_eq!(decode_move(&promote, encode_move(m)), Ok(m));
        }
    }

    #[test]
    fn games_round_trip() {
        round_trip(&game_from(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            false,
            &["e1c1", "e8g8", "a2a4", "b4a3", "d5e6"],
            2,
        ));
        round_trip(&game_from(
            "8/1P4p1/8/7k/8/8/6P1/4K3 w - - 0 1",
            false,
            &["b7b8q", "h5g4", "b8b1", "g4g3"],
            1,
        ));
        round_trip(&game_from(
            "4k3/6P1/8/8/8/8/1p6/4K3 b - - 0 1",
            false,
            &["b2b1n", "g7g8r", "e8d7", "g8g1"],
            0,
        ));
        // Chess960: king on b1, rooks on a1 and h1; queenside castling is king takes rook.
        round_trip(&game_from(
            "rk4r1/pppppppp/8/8/8/8/PPPPPPPP/RK4R1 w GAga - 0 1",
            true,
            &["b1a1", "b8g8"],
            1,
        ));
        round_trip(&game_from(
            Position::default().fen().as_str(),
            false,
            &[],
            1,
        ));
    }

    #[test]
    fn bad_games_are_refused_with_a_reason() {
        let game = game_from(&Position::default().fen(), false, &["e2e4", "e7e5"], 2);
        let bytes = game.to_bytes();
        let why = Game::read(&bytes[..bytes.len() - 2]).unwrap_err();
        assert!(why.contains("cut short"), "{why}");
        let mut illegal = bytes.clone();
        illegal[RECORD_BYTES + 4] = 12; // black's e5 replaced by a move from e2
        let why = Game::read(&illegal).unwrap_err();
        assert!(why.contains("move 2") && why.contains("not legal"), "{why}");
        let mut two = bytes.clone();
        two.extend_from_slice(&illegal);
        two.extend_from_slice(&bytes);
        let mut reported = Vec::new();
        let games = read_all(&two, &mut |i, why| reported.push((i, why.to_string())));
        assert_eq!(games.len(), 1);
        assert_eq!(reported.len(), 1);
        assert_eq!(reported[0].0, 1);
        assert_eq!(count(&two), Ok((3, 6)));
        assert_eq!(skip_games(&two, 1), Ok(bytes.len()));
        assert_eq!(skip_games(&two, 3), Ok(two.len()));
        assert!(skip_games(&two, 4).is_err());
        assert!(count(&two[..two.len() - 1]).is_err());
    }

    #[test]
    fn training_records_leave_out_checks_captures_and_mates() {
        let mut game = game_from(
            &Position::default().fen(),
            false,
            &[
                "e2e4", "d7d5", "e4d5", "d8d5", "b1c3", "d5e5", "g1e2", "e5e4",
            ],
            1,
        );
        game.moves[7].1 = score::MATE as i16 - 3;
        let records: Vec<Record> = game.training_records().collect();
        let fens: Vec<String> = records.iter().map(|r| r.position.fen()).collect();
        // e2e4, d7d5 kept; e4d5 and d8d5 captures; b1c3 kept; d5e5 gives check... the move
        // itself is kept (the position before it is not in check); g1e2 answers a check;
        // e5e4 is scored as a mate.
        assert_eq!(records.len(), 4, "{fens:?}");
        assert!(records[0].game_start && records[1..].iter().all(|r| !r.game_start));
        assert!(
            records
                .iter()
                .all(|r| !r.position.is_check() && r.result == 1)
        );
    }
}
