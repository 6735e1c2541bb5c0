//! The lines GUIs and match runners read during a search, checked as fastchess checks them:
//! every PV move legal, and no PV that goes on after the game would be over by rule
//! (checkmate, stalemate, threefold repetition counting the game's own history, the
//! fifty-move rule, insufficient material); and `info currmove` after the first second.

use crate::common;

use std::time::Duration;

use common::Engine;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

const LONG: Duration = Duration::from_secs(60);

/// A game as the match runner tracks it: the current position and the keys of every
/// position so far (the current one included).
#[derive(Clone)]
struct Game {
    pos: Chess,
    keys: Vec<u64>,
}

fn key(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

impl Game {
    fn from_fen(fen: &str) -> Self {
        let pos: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        Self {
            keys: vec![key(&pos)],
            pos,
        }
    }

    fn start() -> Self {
        Self {
            keys: vec![key(&Chess::default())],
            pos: Chess::default(),
        }
    }

    /// Plays a move in UCI notation; `Err` if it is not legal here.
    fn play(&mut self, uci: &str) -> Result<(), String> {
        let mv = uci
            .parse::<UciMove>()
            .ok()
            .and_then(|m| m.to_move(&self.pos).ok())
            .ok_or_else(|| format!("illegal move {uci} in {}", self.fen()))?;
        self.pos.play_unchecked(mv);
        self.keys.push(key(&self.pos));
        Ok(())
    }

    fn fen(&self) -> String {
        Fen::from_position(&self.pos, EnPassantMode::Legal).to_string()
    }

    /// Why the game is over by rule now, if it is.
    fn over(&self) -> Option<&'static str> {
        let here = key(&self.pos);
        if self.pos.is_checkmate() {
            Some("checkmate")
        } else if self.pos.is_stalemate() {
            Some("stalemate")
        } else if self.keys.iter().filter(|&&k| k == here).count() >= 3 {
            Some("threefold repetition")
        } else if self.pos.halfmoves() >= 100 {
            Some("fifty-move rule")
        } else if self.pos.is_insufficient_material() {
            Some("insufficient material")
        } else {
            None
        }
    }

    /// fastchess's check of one PV: each move legal, none after the game is over.
    fn check_pv(&self, line: &str) -> Result<usize, String> {
        let Some(at) = line.find(" pv ") else {
            return Ok(0);
        };
        let mut game = self.clone();
        let moves: Vec<&str> = line[at + 4..].split_whitespace().collect();
        for (i, mv) in moves.iter().enumerate() {
            if let Some(why) = game.over() {
                return Err(format!(
                    "PV continues after {why} at move {i} ({mv}): {line}"
                ));
            }
            game.play(mv)
                .map_err(|e| format!("Illegal PV move: {e}: {line}"))?;
        }
        Ok(moves.len())
    }
}

/// Sends the game to the engine, searches with `go`, checks every info line's PV; returns
/// the best move and the PV lengths.
fn search_and_check(
    engine: &mut Engine,
    start: &str,
    moves: &[String],
    game: &Game,
    go: &str,
) -> (String, Vec<usize>) {
    let moves_text = if moves.is_empty() {
        String::new()
    } else {
        format!(" moves {}", moves.join(" "))
    };
    engine.send(&format!("position {start}{moves_text}"));
    engine.send(go);
    let (lines, best) = engine.search_lines(LONG);
    let mut lengths = Vec::new();
    for line in &lines {
        if line.starts_with("info") && line.contains(" pv ") {
            match game.check_pv(line) {
                Ok(n) => lengths.push(n),
                Err(e) => panic!("{e}\nposition {start}{moves_text}"),
            }
        }
    }
    (best, lengths)
}

#[test]
fn pv_stops_at_the_fifty_move_rule() {
    let fen = "8/8/8/4k3/8/8/8/R3K3 w - - 98 80";
    let game = Game::from_fen(fen);
    let mut engine = Engine::start();
    let (_, lengths) = search_and_check(
        &mut engine,
        &format!("fen {fen}"),
        &[],
        &game,
        "go depth 14",
    );
    assert!(!lengths.is_empty());
    // Two quiet plies end the game: a longer PV would need a capture or a pawn move.
    assert!(lengths.iter().all(|&n| n <= 2), "{lengths:?}");
}

#[test]
fn pv_stops_at_a_threefold_repetition_of_the_game() {
    // The knights went out and back twice: the start position stands for the second time
    // after Nf3 Nf6 Ng1, so Ng8 would make it threefold.
    let moves: Vec<String> = ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let mut game = Game::start();
    for mv in &moves {
        game.play(mv).unwrap();
    }
    let mut engine = Engine::start();
    for go in ["go depth 8", "go searchmoves f6g8 depth 8"] {
        let (best, lengths) = search_and_check(&mut engine, "startpos", &moves, &game, go);
        assert!(!lengths.is_empty());
        if go.contains("searchmoves") {
            assert_eq!(best, "f6g8");
            // The only move searched repeats the position a third time: the PV is that move.
            assert!(lengths.iter().all(|&n| n == 1), "{lengths:?}");
        }
    }
}

#[test]
fn self_play_pvs_pass_the_match_runner_checks() {
    // A drawn rook ending: both sides shuffle, the game repeats, and the hash moves left by
    // earlier searches make long PVs that run into the game's own repetitions.
    let fen = "8/5k2/8/3r4/8/8/2R5/4K3 w - - 0 1";
    let mut game = Game::from_fen(fen);
    let mut moves: Vec<String> = Vec::new();
    let mut engine = Engine::start();
    let mut checked = 0;
    while game.over().is_none() && moves.len() < 150 {
        let (best, lengths) = search_and_check(
            &mut engine,
            &format!("fen {fen}"),
            &moves,
            &game,
            "go nodes 5000",
        );
        checked += lengths.len();
        game.play(&best).unwrap();
        moves.push(best);
    }
    assert!(
        checked > moves.len(),
        "{checked} PVs over {} moves",
        moves.len()
    );
    // The game ends by rule within 100 plies: mate, or the clock reaches 100.
    assert!(
        game.over().is_some(),
        "game still on after {} plies",
        moves.len()
    );
}

#[test]
fn currmove_is_announced_after_the_first_second_only() {
    let mut engine = Engine::start();
    engine.send("position startpos");
    engine.send("go movetime 300");
    let short = engine.read_until(LONG, |l| l.starts_with("bestmove"));
    assert!(!short.iter().any(|l| l.contains("currmove")), "{short:?}");

    let game = Game::start();
    let legal = game.pos.legal_moves().len();
    engine.send("go movetime 2500");
    let long = engine.read_until(LONG, |l| l.starts_with("bestmove"));
    let announced: Vec<&String> = long.iter().filter(|l| l.contains(" currmove ")).collect();
    assert!(!announced.is_empty(), "{long:?}");
    for line in announced {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words[..2], ["info", "depth"], "{line}");
        let mv = words[words.iter().position(|&w| w == "currmove").unwrap() + 1];
        let number: usize = words[words.iter().position(|&w| w == "currmovenumber").unwrap() + 1]
            .parse()
            .unwrap();
        assert!(game.clone().play(mv).is_ok(), "{line}");
        assert!((1..=legal).contains(&number), "{line}");
    }
}
