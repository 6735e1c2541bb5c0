//! `brudno selfplay`: plays Brudno against itself at a fixed node count and writes quiet
//! positions with the game's result, the data the evaluation tuner (`brudno tune`) learns from.
//!
//! Games start from an EPD opening file plus a few random legal plies (fixed seed, so a run is
//! repeatable), use the same `Search` as UCI play, and end by the rules (mate, stalemate,
//! repetition, fifty moves, insufficient material) or by adjudication (a decisive score for
//! several plies, or a ply limit). A position is kept when the side to move is not in check,
//! the engine's move is quiet and the score is not a mate: positions the static evaluation
//! can be fairly judged on. Output lines are `<FEN> | <result>` with the result from White's
//! point of view (1, 0.5 or 0).

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use clap::Args;
use shakmaty::Color;

use crate::position::Position;
use crate::search::ordering::{is_tactical, splitmix64};
use crate::search::score;
use crate::search::tt::TranspositionTable;
use crate::search::{Limits, Search, SearchConfig, SearchControl};
use crate::tools::epd;

/// Arguments of `brudno selfplay`.
#[derive(Args, Debug)]
pub struct SelfplayArgs {
    /// EPD file of opening positions (each game starts from one, then random plies).
    #[arg(long)]
    pub openings: PathBuf,
    /// Where to write `<FEN> | <result>` lines.
    #[arg(long)]
    pub output: PathBuf,
    /// Number of games.
    #[arg(long, default_value_t = 1000)]
    pub games: usize,
    /// Nodes per move.
    #[arg(long, default_value_t = 6000)]
    pub nodes: u64,
    /// Random plies played after the opening position.
    #[arg(long, default_value_t = 4)]
    pub random_plies: usize,
    /// Parallel games (threads).
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Seed of the random plies.
    #[arg(long, default_value_t = 1963)]
    pub seed: u64,
}

/// Plies after which a game is adjudicated a draw.
const MAX_PLIES: usize = 300;
/// Score (centipawns) that counts as decisive for adjudication.
const DECISIVE: i32 = 1000;
/// Consecutive decisive plies needed.
const DECISIVE_PLIES: usize = 6;

/// Runs `brudno selfplay`.
pub fn run(args: &SelfplayArgs) -> ExitCode {
    let text = match std::fs::read_to_string(&args.openings) {
        Ok(text) => text,
        Err(error) => {
            eprintln!(
                "brudno selfplay: cannot read {}: {error}",
                args.openings.display()
            );
            return ExitCode::from(2);
        }
    };
    let (records, errors) = epd::parse_text(&text);
    for error in &errors {
        eprintln!("{}: {error}", args.openings.display());
    }
    let openings: Vec<Position> = records.iter().filter_map(|r| r.position().ok()).collect();
    if openings.is_empty() {
        eprintln!(
            "brudno selfplay: no usable opening in {}",
            args.openings.display()
        );
        return ExitCode::from(2);
    }
    let file = match File::create(&args.output) {
        Ok(file) => file,
        Err(error) => {
            eprintln!(
                "brudno selfplay: cannot write {}: {error}",
                args.output.display()
            );
            return ExitCode::from(2);
        }
    };
    let output = Mutex::new(BufWriter::new(file));
    let next_game = AtomicUsize::new(0);
    let positions = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..args.threads.max(1) {
            scope.spawn(|| {
                loop {
                    let game = next_game.fetch_add(1, Ordering::Relaxed);
                    if game >= args.games {
                        break;
                    }
                    let seed = splitmix64(args.seed ^ (game as u64).wrapping_mul(0x9e37));
                    let opening = &openings[game % openings.len()];
                    let (kept, result) = play_game(opening, args.random_plies, args.nodes, seed);
                    let mut out = output.lock().unwrap_or_else(|p| p.into_inner());
                    for fen in &kept {
                        let _ = writeln!(out, "{fen} | {result}");
                    }
                    let total = positions.fetch_add(kept.len(), Ordering::Relaxed) + kept.len();
                    if (game + 1).is_multiple_of(50) {
                        eprintln!("{} games, {total} positions", game + 1);
                    }
                }
            });
        }
    });
    let mut out = output.into_inner().unwrap_or_else(|p| p.into_inner());
    if let Err(error) = out.flush() {
        eprintln!("brudno selfplay: write failed: {error}");
        return ExitCode::from(1);
    }
    eprintln!(
        "{} games, {} positions written to {}",
        args.games,
        positions.load(Ordering::Relaxed),
        args.output.display()
    );
    ExitCode::SUCCESS
}

/// Plays one game; returns the kept FENs and the result for White ("1", "0.5" or "0").
fn play_game(
    opening: &Position,
    random_plies: usize,
    nodes: u64,
    seed: u64,
) -> (Vec<String>, &'static str) {
    let mut pos = opening.clone();
    let mut history: Vec<u64> = Vec::new();
    let mut state = seed;
    for _ in 0..random_plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        state = splitmix64(state);
        history.push(pos.key());
        pos = pos.play(moves[(state % moves.len() as u64) as usize]);
    }
    let tt = TranspositionTable::new(8);
    let config = SearchConfig::default();
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let mut kept = Vec::new();
    let mut decisive_run = 0usize;
    let mut last_winner = None;
    for _ in 0..MAX_PLIES {
        if let Some(result) = game_over(&pos, &history) {
            return (kept, result);
        }
        let control = SearchControl::default();
        control.begin(false);
        let result = Search {
            position: &pos,
            history: &history,
            limits: &limits,
            config: &config,
            tt: &tt,
            control: &control,
        }
        .run(&mut |_| {});
        let Some(mv) = result.best_move else {
            break;
        };
        if !pos.is_check() && !is_tactical(mv) && !score::is_mate(result.score) {
            kept.push(pos.fen());
        }
        // Adjudicate a clearly decided game.
        let white_score = if pos.turn() == Color::White {
            result.score
        } else {
            -result.score
        };
        let winner = (white_score.abs() >= DECISIVE).then_some(white_score > 0);
        if winner.is_some() && winner == last_winner {
            decisive_run += 1;
        } else {
            decisive_run = usize::from(winner.is_some());
        }
        last_winner = winner;
        if decisive_run >= DECISIVE_PLIES {
            return (kept, if white_score > 0 { "1" } else { "0" });
        }
        history.push(pos.key());
        pos = pos.play(mv);
    }
    (kept, "0.5")
}

/// The result if the game is over by the rules (threefold repetition counted strictly).
fn game_over(pos: &Position, history: &[u64]) -> Option<&'static str> {
    if pos.legal_moves().is_empty() {
        return Some(if !pos.is_check() {
            "0.5"
        } else if pos.turn() == Color::White {
            "0"
        } else {
            "1"
        });
    }
    let repetitions = history.iter().filter(|&&k| k == pos.key()).count();
    if pos.is_insufficient_material() || pos.halfmoves() >= 100 || repetitions >= 2 {
        return Some("0.5");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_over_by_the_rules() {
        let mated = Position::from_fen("7k/7P/6K1/8/3B4/8/8/8 b - - 0 1", false).unwrap();
        assert_eq!(game_over(&mated, &[]), Some("1"));
        let stalemate = Position::from_fen("8/8/8/8/8/6k1/6p1/6K1 w - - 0 1", false).unwrap();
        assert_eq!(game_over(&stalemate, &[]), Some("0.5"));
        let start = Position::default();
        assert_eq!(game_over(&start, &[]), None);
        assert_eq!(
            game_over(&start, &[start.key(), 1, start.key()]),
            Some("0.5")
        );
    }

    #[test]
    fn a_short_game_keeps_quiet_positions_with_a_result() {
        let (kept, result) = play_game(&Position::default(), 2, 300, 7);
        assert!(!kept.is_empty());
        assert!(["1", "0.5", "0"].contains(&result));
        for fen in &kept {
            let pos = Position::from_fen(fen, false).unwrap();
            assert!(!pos.is_check(), "{fen}");
        }
        // Repeatable: the same seed gives the same game.
        assert_eq!(play_game(&Position::default(), 2, 300, 7), (kept, result));
    }
}
