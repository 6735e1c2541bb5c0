//! `brudno datagen`: self-play games that produce training data for the evaluation (the
//! tuner, `brudno tune`, and the network trainer, `brudno train`), and `brudno datadump`,
//! which prints such data as text.
//!
//! Each game starts from the start position (or a position of an EPD file) plus a number of
//! uniformly random legal plies, all drawn from a generator seeded by the run's seed and
//! the game's number, so that a seed names the same games on every machine and with any
//! number of threads: games are written in their numbered order whatever thread played
//! them. An opening whose quick search scores beyond `OPENING_LIMIT` for either side is
//! drawn again. Moves come from the engine's own search (`search::Search`, one thread, a
//! table cleared at each game, the evaluation of `--eval`: by default the engine's) at a
//! fixed node count or depth. A game ends by the rules or by adjudication, without
//! tablebases: a win when the score stays beyond `WIN_SCORE` for the side ahead for
//! `WIN_PLIES` plies, a draw when it stays within `DRAW_SCORE` for `DRAW_PLIES` plies after
//! `DRAW_AFTER` plies, or at `MAX_PLIES`. Every position where the side to move is not in
//! check, the chosen move is neither a capture nor a promotion and the score is not a mate
//! is kept, with the score (White's view) and the result, in the packed format of
//! `packed.rs`.

use std::collections::BTreeMap;
use std::io::{BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use shakmaty::Color;

use crate::eval::Evaluation;
use crate::position::Position;
use crate::rng::splitmix64;
use crate::search::ordering::is_tactical;
use crate::search::score;
use crate::search::tt::TranspositionTable;
use crate::search::{Limits, Search, SearchConfig, SearchControl};
use crate::tools::epd;
use crate::tools::packed::{self, RECORD_BYTES};

/// A score (centipawns, side ahead) that counts as a win when it lasts.
pub const WIN_SCORE: i32 = 1000;
/// Plies the winning score must last.
pub const WIN_PLIES: usize = 8;
/// A score within which the game counts as a draw when it lasts.
pub const DRAW_SCORE: i32 = 10;
/// Plies the drawn score must last.
pub const DRAW_PLIES: usize = 16;
/// No draw adjudication before this ply.
pub const DRAW_AFTER: usize = 60;
/// A game is a draw after this many plies.
pub const MAX_PLIES: usize = 400;
/// An opening whose quick search scores beyond this (centipawns) is drawn again.
pub const OPENING_LIMIT: i32 = 400;
/// Nodes of the quick search that vets an opening.
const OPENING_NODES: u64 = 2000;
/// Table per game, in MiB.
const HASH_MIB: usize = 8;

/// Arguments of `brudno datagen`.
#[derive(Args, Debug, Clone)]
pub struct DatagenArgs {
    /// Where to write the packed positions (appended to when it exists and --append is given).
    #[arg(long)]
    pub output: PathBuf,
    /// Stop once this many positions are written.
    #[arg(long, default_value_t = 100_000)]
    pub positions: u64,
    /// Nodes per move.
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    /// A fixed depth per move instead of nodes.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Random plies before the engine plays.
    #[arg(long, default_value_t = 8)]
    pub random_plies: usize,
    /// EPD file of start positions (default: the start position).
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// The seed: the same seed gives the same games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Add to an existing file instead of refusing to overwrite it.
    #[arg(long)]
    pub append: bool,
    /// The evaluation both sides play with (the engine's default: NNUE, the embedded network
    /// or the one of `--eval-file`).
    #[arg(long, value_enum, default_value_t = Evaluation::default())]
    pub eval: Evaluation,
    /// A network file for `--eval nnue` instead of the embedded network.
    #[arg(long)]
    pub eval_file: Option<PathBuf>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// Arguments of `brudno datadump`.
#[derive(Args, Debug, Clone)]
pub struct DatadumpArgs {
    /// A file written by `brudno datagen`.
    pub file: PathBuf,
    /// Print at most this many positions.
    #[arg(long)]
    pub limit: Option<usize>,
    /// Only the counts: positions, games, results, bad records.
    #[arg(long)]
    pub summary: bool,
}

/// One finished game: its kept records, packed.
struct Game {
    records: Vec<[u8; RECORD_BYTES]>,
}

/// The generator of game `game` of a run seeded `seed`.
fn game_seed(seed: u64, game: u64) -> u64 {
    splitmix64(seed ^ splitmix64(game))
}

/// How the engine is asked to move.
#[derive(Clone, Copy, Debug)]
pub struct MoveLimit {
    /// Nodes per move.
    pub nodes: u64,
    /// Or a fixed depth.
    pub depth: Option<u32>,
    /// The evaluation its search uses.
    pub eval: Evaluation,
}

impl MoveLimit {
    fn limits(self) -> Limits {
        match self.depth {
            Some(depth) => Limits::depth(depth),
            None => Limits {
                nodes: Some(self.nodes),
                ..Limits::default()
            },
        }
    }
}

/// Plays game number `game` and returns its kept positions, packed. Deterministic: the
/// same arguments give the same game.
pub fn play_game(
    openings: &[Position],
    random_plies: usize,
    limit: MoveLimit,
    seed: u64,
    game: u64,
) -> Vec<[u8; RECORD_BYTES]> {
    let tt = TranspositionTable::new(HASH_MIB);
    let config = SearchConfig {
        threads: 1,
        eval: limit.eval,
        ..SearchConfig::default()
    };
    let search = |pos: &Position, history: &[u64], limits: &Limits| {
        let control = SearchControl::default();
        control.begin(false);
        Search {
            position: pos,
            history,
            limits,
            config: &config,
            tt: &tt,
            control: &control,
            histories: None,
        }
        .run(&mut |_| {})
    };
    let mut state = game_seed(seed, game);
    let mut next = || {
        state = splitmix64(state);
        state
    };
    // The opening: a start position and random plies, drawn again while it is over or lost.
    let (mut pos, mut history) = loop {
        let mut pos = openings[(next() % openings.len() as u64) as usize].clone();
        let mut history = Vec::new();
        for _ in 0..random_plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            history.push(pos.key());
            pos.play_in_place(moves[(next() % moves.len() as u64) as usize]);
        }
        if game_over(&pos, &history).is_some() {
            continue;
        }
        let quick = search(
            &pos,
            &history,
            &Limits {
                nodes: Some(OPENING_NODES),
                ..Limits::default()
            },
        );
        if quick.score.abs() <= OPENING_LIMIT {
            break (pos, history);
        }
    };
    tt.clear(1);

    let limits = limit.limits();
    let mut kept: Vec<(Position, i16)> = Vec::new();
    let mut win_run = 0usize;
    let mut draw_run = 0usize;
    let mut last_sign = 0;
    let mut result = 1u8;
    for ply in 0..MAX_PLIES {
        if let Some(over) = game_over(&pos, &history) {
            result = over;
            break;
        }
        let found = search(&pos, &history, &limits);
        let Some(mv) = found.best_move else {
            break;
        };
        let white_score = if pos.turn() == Color::White {
            found.score
        } else {
            -found.score
        };
        if !pos.is_check() && !is_tactical(mv) && !score::is_mate(found.score) {
            kept.push((pos.clone(), white_score.clamp(-32000, 32000) as i16));
        }
        // Adjudication.
        let sign = if white_score >= WIN_SCORE {
            1
        } else if white_score <= -WIN_SCORE {
            -1
        } else {
            0
        };
        win_run = if sign != 0 && sign == last_sign {
            win_run + 1
        } else {
            usize::from(sign != 0)
        };
        last_sign = sign;
        if win_run >= WIN_PLIES {
            result = if sign > 0 { 2 } else { 0 };
            break;
        }
        draw_run = if white_score.abs() <= DRAW_SCORE {
            draw_run + 1
        } else {
            0
        };
        if ply >= DRAW_AFTER && draw_run >= DRAW_PLIES {
            result = 1;
            break;
        }
        history.push(pos.key());
        pos.play_in_place(mv);
    }
    kept.iter()
        .enumerate()
        .map(|(i, (pos, score))| packed::encode(pos, *score, result, i == 0))
        .collect()
}

/// The result for White (0, 1 or 2) if the game is over by the rules (threefold repetition
/// counted strictly).
fn game_over(pos: &Position, history: &[u64]) -> Option<u8> {
    if pos.legal_moves().is_empty() {
        return Some(if !pos.is_check() {
            1
        } else if pos.turn() == Color::White {
            0
        } else {
            2
        });
    }
    let repetitions = history.iter().filter(|&&k| k == pos.key()).count();
    if pos.is_insufficient_material() || pos.halfmoves() >= 100 || repetitions >= 2 {
        return Some(1);
    }
    None
}

/// Runs `brudno datagen`.
pub fn run(args: &DatagenArgs) -> ExitCode {
    let openings = match &args.openings {
        None => vec![Position::default()],
        Some(path) => {
            let text = match std::fs::read_to_string(path) {
                Ok(text) => text,
                Err(error) => {
                    eprintln!("datagen: cannot read {}: {error}", path.display());
                    return ExitCode::from(2);
                }
            };
            let (records, errors) = epd::parse_text(&text);
            for error in &errors {
                eprintln!("{}: {error}", path.display());
            }
            let positions: Vec<Position> =
                records.iter().filter_map(|r| r.position().ok()).collect();
            if positions.is_empty() {
                eprintln!("datagen: no usable position in {}", path.display());
                return ExitCode::from(2);
            }
            positions
        }
    };
    if let Some(path) = &args.eval_file {
        match crate::eval::nnue::try_load(&path.to_string_lossy()) {
            Ok(message) => eprintln!("datagen: {message}"),
            Err(why) => {
                eprintln!("datagen: {why}");
                return ExitCode::from(2);
            }
        }
    }
    if args.output.exists() && !args.append {
        eprintln!(
            "datagen: {} exists; give --append to add to it or choose another --output",
            args.output.display()
        );
        return ExitCode::from(2);
    }
    // The output's folder is made when missing (`data/` on a fresh checkout).
    if let Some(parent) = args.output.parent()
        && !parent.as_os_str().is_empty()
        && let Err(error) = std::fs::create_dir_all(parent)
    {
        eprintln!("datagen: cannot make {}: {error}", parent.display());
        return ExitCode::from(2);
    }
    let file = match std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&args.output)
    {
        Ok(file) => file,
        Err(error) => {
            eprintln!("datagen: cannot write {}: {error}", args.output.display());
            return ExitCode::from(2);
        }
    };
    let limit = MoveLimit {
        nodes: args.nodes.max(1),
        depth: args.depth,
        eval: args.eval,
    };
    let started = Instant::now();
    let report = Generation::new(args.positions, args.quiet);
    let outcome = generate(
        &openings,
        args.random_plies,
        limit,
        args.seed,
        args.threads.max(1),
        args.positions,
        BufWriter::new(file),
        &report,
    );
    report.bar.finish_and_clear();
    match outcome {
        Ok((games, positions)) => {
            let seconds = started.elapsed().as_secs_f64();
            eprintln!(
                "datagen: {positions} positions from {games} games in {seconds:.0} s ({:.0} positions/s, {} threads) written to {}",
                positions as f64 / seconds.max(1e-9),
                args.threads.max(1),
                args.output.display()
            );
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("datagen: write failed: {error}");
            ExitCode::from(1)
        }
    }
}

/// Progress of a run: a bar with positions per second and the time left.
struct Generation {
    bar: ProgressBar,
}

impl Generation {
    fn new(target: u64, quiet: bool) -> Self {
        let bar = ProgressBar::new(target);
        if quiet || !std::io::stderr().is_terminal() {
            bar.set_draw_target(ProgressDrawTarget::hidden());
        }
        bar.set_style(
            ProgressStyle::with_template(
                "{bar:40} {pos}/{len} positions  {per_sec}  {msg}  eta {eta}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        Self { bar }
    }
}

/// Plays games on `threads` threads until `target` positions are written, writing each game
/// in its numbered order. Returns the games and positions written.
#[allow(clippy::too_many_arguments)]
fn generate<W: Write + Send>(
    openings: &[Position],
    random_plies: usize,
    limit: MoveLimit,
    seed: u64,
    threads: usize,
    target: u64,
    writer: W,
    report: &Generation,
) -> std::io::Result<(u64, u64)> {
    struct Shared<W> {
        writer: W,
        /// Finished games waiting for the games before them.
        pending: BTreeMap<u64, Game>,
        /// The next game to write.
        next_to_write: u64,
        positions: u64,
        games: u64,
        error: Option<std::io::Error>,
    }
    let shared = Mutex::new(Shared {
        writer,
        pending: BTreeMap::new(),
        next_to_write: 0,
        positions: 0,
        games: 0,
        error: None,
    });
    let next_game = AtomicU64::new(0);
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                while !done.load(Ordering::Relaxed) {
                    let game = next_game.fetch_add(1, Ordering::Relaxed);
                    let records = play_game(openings, random_plies, limit, seed, game);
                    let mut s = shared.lock().unwrap_or_else(|p| p.into_inner());
                    s.pending.insert(game, Game { records });
                    loop {
                        let next = s.next_to_write;
                        let Some(game) = s.pending.remove(&next) else {
                            break;
                        };
                        s.next_to_write += 1;
                        if s.positions >= target || s.error.is_some() {
                            continue;
                        }
                        let take = game.records.len().min((target - s.positions) as usize);
                        for record in &game.records[..take] {
                            if let Err(error) = s.writer.write_all(record) {
                                s.error = Some(error);
                                break;
                            }
                        }
                        s.positions += take as u64;
                        s.games += 1;
                        report.bar.set_position(s.positions);
                        report.bar.set_message(format!("{} games", s.games));
                    }
                    if s.positions >= target || s.error.is_some() {
                        done.store(true, Ordering::Relaxed);
                    }
                }
            });
        }
    });
    let mut s = shared.into_inner().unwrap_or_else(|p| p.into_inner());
    if let Some(error) = s.error {
        return Err(error);
    }
    s.writer.flush()?;
    Ok((s.games, s.positions))
}

/// Runs `brudno datadump`: `<FEN> | <score> | <result>` lines, or a summary.
pub fn dump(args: &DatadumpArgs, out: &mut dyn FnMut(&str)) -> ExitCode {
    let data = match std::fs::read(&args.file) {
        Ok(data) => data,
        Err(error) => {
            eprintln!("datadump: cannot read {}: {error}", args.file.display());
            return ExitCode::from(2);
        }
    };
    let mut bad = 0;
    let records = packed::decode_all(&data, &mut |index, why| {
        bad += 1;
        eprintln!("{}: record {}: {why}", args.file.display(), index + 1);
    });
    if args.summary {
        let games = records.iter().filter(|r| r.game_start).count();
        let mut results = [0usize; 3];
        for record in &records {
            results[usize::from(record.result)] += 1;
        }
        out(&format!(
            "{} positions, {games} games, results for White (positions): {} won, {} drawn, {} lost; {bad} bad records",
            records.len(),
            results[2],
            results[1],
            results[0]
        ));
    } else {
        for record in records.iter().take(args.limit.unwrap_or(usize::MAX)) {
            out(&packed::to_text(record));
        }
    }
    if bad > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_over_by_the_rules() {
        let mated = Position::from_fen("7k/7P/6K1/8/3B4/8/8/8 b - - 0 1", false).unwrap();
        assert_eq!(game_over(&mated, &[]), Some(2));
        let stalemate = Position::from_fen("8/8/8/8/8/6k1/6p1/6K1 w - - 0 1", false).unwrap();
        assert_eq!(game_over(&stalemate, &[]), Some(1));
        let start = Position::default();
        assert_eq!(game_over(&start, &[]), None);
        assert_eq!(game_over(&start, &[start.key(), 1, start.key()]), Some(1));
    }

    #[test]
    fn games_are_deterministic_and_keep_quiet_positions() {
        let limit = MoveLimit {
            nodes: 300,
            depth: None,
            eval: Evaluation::Positional,
        };
        let openings = [Position::default()];
        let game = play_game(&openings, 6, limit, 7, 3);
        assert!(!game.is_empty());
        assert_eq!(game, play_game(&openings, 6, limit, 7, 3));
        assert_ne!(game, play_game(&openings, 6, limit, 7, 4));
        let records: Vec<_> = game.iter().map(|r| packed::decode(r).unwrap()).collect();
        assert!(records[0].game_start && records[1..].iter().all(|r| !r.game_start));
        let result = records[0].result;
        for record in &records {
            assert!(!record.position.is_check());
            assert_eq!(record.result, result, "one result per game");
            assert!(i32::from(record.score).abs() < score::MATE_BOUND);
        }
    }

    #[test]
    fn the_output_does_not_depend_on_the_thread_count() {
        let limit = MoveLimit {
            nodes: 200,
            depth: None,
            eval: Evaluation::Positional,
        };
        let openings = [Position::default()];
        let run = |threads| {
            let mut out = Vec::new();
            let report = Generation::new(500, true);
            let (_, positions) =
                generate(&openings, 8, limit, 11, threads, 500, &mut out, &report).unwrap();
            assert_eq!(positions, 500);
            out
        };
        let one = run(1);
        assert_eq!(one.len(), 500 * RECORD_BYTES);
        assert_eq!(one, run(2));
    }
}
