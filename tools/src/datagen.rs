//! `brudno datagen`: self-play games that produce training data for the evaluation (the
//! network trainer, `brudno train`, and the tuner, `brudno tune`); `brudno datadump` reads
//! it back (`datadump.rs`, through the reader of `dataset.rs`) and `brudno data add` puts a
//! finished run into `data/` (`datastore.rs`).
//!
//! Each game starts from the start position (or a position of an EPD file) plus a number of
//! uniformly random legal plies (between `--random-plies` and `--random-plies-max`), all drawn
//! from a generator seeded by the run's seed and the game's number, so that a seed names the
//! same games on every machine and with any number of threads: games are written in their
//! numbered order whatever thread played them. An opening whose quick search scores beyond
//! `OPENING_LIMIT` for either side is drawn again. Moves come from the engine's own search
//! (`search::Search`, one thread, a table cleared at each game, the evaluation of `--eval`: by
//! default the engine's) with a soft node limit (no new iteration past it) under a hard cap,
//! or a fixed depth. A game ends by the rules or by adjudication, without tablebases: a win
//! when the score stays beyond `WIN_SCORE` for the side ahead for `WIN_PLIES` plies, a draw
//! when it stays within `DRAW_SCORE` for `DRAW_PLIES` plies after `DRAW_AFTER` plies, or at
//! `MAX_PLIES`. Every move the engine played is recorded with its score (White's view) in
//! viriformat (`viriformat.rs`); which positions to learn from is the trainer's choice.

use std::collections::BTreeMap;
use std::io::{BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use shakmaty::Color;

use crate::datafile::{self, Progress, Settings};
use crate::epd;
use crate::viriformat;
use brudno_engine::eval::Evaluation;
use brudno_engine::eval::nnue::Network;
use brudno_engine::eval::nnue::network::fnv1a;
use brudno_engine::position::Position;
use brudno_engine::rng::splitmix64;
use brudno_engine::search::history::HistoryStore;
use brudno_engine::search::tt::TranspositionTable;
use brudno_engine::search::{Limits, Search, SearchConfig, SearchControl};

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
    /// Where to write the games, in viriformat (continued when it exists and --append is
    /// given). A scratch file outside the repository: `brudno data add` puts it into `data/`.
    #[arg(long)]
    pub output: PathBuf,
    /// Stop after the game that brings the recorded moves (positions) to this many.
    #[arg(long, visible_alias = "positions", default_value_t = 100_000)]
    pub moves: u64,
    /// Soft node limit per move: no new iteration once this many nodes are searched.
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    /// Hard node limit per move: the search stops here even inside an iteration.
    #[arg(long, default_value_t = 100_000)]
    pub hard_nodes: u64,
    /// A fixed depth per move instead of nodes.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Random plies before the engine plays (the least).
    #[arg(long, default_value_t = 8)]
    pub random_plies: usize,
    /// The most random plies; each game draws its number between the two (default: one more
    /// than --random-plies).
    #[arg(long)]
    pub random_plies_max: Option<usize>,
    /// EPD file of start positions (default: the start position).
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// The seed: the same seed gives the same games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Continue an existing file (cut back to its last whole game) instead of refusing to
    /// overwrite it.
    #[arg(long)]
    pub append: bool,
    /// The evaluation both sides play with (the engine's default: NNUE, the embedded network
    /// or the one of `--eval-file`).
    #[arg(long, value_parser = crate::cli::evaluation(), default_value_t = Evaluation::default())]
    pub eval: Evaluation,
    /// A network file for `--eval nnue` instead of the embedded network.
    #[arg(long)]
    pub eval_file: Option<PathBuf>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// One finished game: its viriformat bytes and its recorded moves.
struct Game {
    bytes: Vec<u8>,
    moves: u64,
}

/// The generator of game `game` of a run seeded `seed`.
pub fn game_seed(seed: u64, game: u64) -> u64 {
    splitmix64(seed ^ splitmix64(game))
}

/// How the engine is asked to move.
#[derive(Clone, Debug)]
pub struct MoveLimit {
    /// Soft node limit per move (no new iteration past it).
    pub nodes: u64,
    /// Hard node limit per move.
    pub hard_nodes: u64,
    /// Or a fixed depth.
    pub depth: Option<u32>,
    /// The evaluation its search uses.
    pub eval: Evaluation,
    /// The network `Evaluation::Nnue` evaluates with.
    pub network: Arc<Network>,
}

impl MoveLimit {
    fn limits(&self) -> Limits {
        match self.depth {
            Some(depth) => Limits::depth(depth),
            None => Limits {
                soft_nodes: Some(self.nodes),
                nodes: Some(self.hard_nodes.max(self.nodes)),
                ..Limits::default()
            },
        }
    }
}

/// The random plies of an opening: between `least` and `most`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RandomPlies {
    /// The fewest.
    pub least: usize,
    /// The most.
    pub most: usize,
}

/// Plays game number `game` and returns it. Deterministic: the same arguments give the same
/// game.
pub fn play_game(
    openings: &[Position],
    random_plies: RandomPlies,
    limit: &MoveLimit,
    seed: u64,
    game: u64,
) -> viriformat::Game {
    let tt = TranspositionTable::new(HASH_MIB);
    let config = SearchConfig {
        threads: 1,
        eval: limit.eval,
        network: Arc::clone(&limit.network),
        ..SearchConfig::default()
    };
    // The game's searches keep their histories from move to move, as a game under UCI does
    // (and none pays for clearing the tables again); the opening's quick vetting searches
    // start from empty ones.
    let kept = HistoryStore::default();
    let search = |pos: &Position, history: &[u64], limits: &Limits, histories| {
        let control = SearchControl::default();
        control.begin(false);
        Search {
            position: pos,
            history,
            limits,
            config: &config,
            tt: &tt,
            control: &control,
            histories,
        }
        .run(&mut |_| {})
    };
    let vet = |pos: &Position, history: &[u64]| {
        let quick = Limits {
            nodes: Some(OPENING_NODES),
            ..Limits::default()
        };
        search(pos, history, &quick, None).score
    };
    let (mut pos, mut history) = draw_opening(openings, random_plies, game_seed(seed, game), vet);
    tt.clear(1);

    let limits = limit.limits();
    let start = pos.clone();
    let mut moves: Vec<(shakmaty::Move, i16)> = Vec::new();
    let mut win_run = 0usize;
    let mut draw_run = 0usize;
    let mut last_sign = 0;
    let mut result = 1u8;
    for ply in 0..MAX_PLIES {
        if let Some(over) = game_over(&pos, &history) {
            result = over;
            break;
        }
        let found = search(&pos, &history, &limits, Some(&kept));
        let Some(mv) = found.best_move else {
            break;
        };
        let white_score = if pos.turn() == Color::White {
            found.score
        } else {
            -found.score
        };
        moves.push((mv, white_score.clamp(-32000, 32000) as i16));
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
    viriformat::Game {
        start,
        result,
        moves,
    }
}

/// The opening of a game whose generator starts at `state`: a start position of
/// `openings` and between `random_plies.least` and `.most` uniformly random legal plies, drawn again while the game is
/// over or `vet` (a quick search's score) is beyond `OPENING_LIMIT` for either side. Returns
/// the position and the keys of the positions before it. Deterministic in `state`.
pub fn draw_opening(
    openings: &[Position],
    random_plies: RandomPlies,
    mut state: u64,
    mut vet: impl FnMut(&Position, &[u64]) -> i32,
) -> (Position, Vec<u64>) {
    let mut next = || {
        state = splitmix64(state);
        state
    };
    let spread = random_plies.most.saturating_sub(random_plies.least) as u64 + 1;
    loop {
        let mut pos = openings[(next() % openings.len() as u64) as usize].clone();
        let mut history = Vec::new();
        // (A fixed count draws nothing: genfens's openings stay those of its seed.)
        let plies = if spread > 1 {
            random_plies.least + (next() % spread) as usize
        } else {
            random_plies.least
        };
        for _ in 0..plies {
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
        if vet(&pos, &history).abs() <= OPENING_LIMIT {
            return (pos, history);
        }
    }
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
    let mut network = brudno_engine::eval::nnue::embedded();
    if let Some(path) = &args.eval_file {
        match crate::evalfile::load(&path.to_string_lossy()) {
            Ok((loaded, message)) => {
                network = loaded;
                eprintln!("datagen: {message}");
            }
            Err(why) => {
                eprintln!("datagen: {why}");
                return ExitCode::from(2);
            }
        }
    }
    let random_plies = RandomPlies {
        least: args.random_plies,
        most: args
            .random_plies_max
            .unwrap_or(args.random_plies + 1)
            .max(args.random_plies),
    };
    let limit = MoveLimit {
        nodes: args.nodes.max(1),
        hard_nodes: args.hard_nodes.max(args.nodes.max(1)),
        depth: args.depth,
        eval: args.eval,
        network,
    };
    let settings = Settings {
        seed: args.seed,
        nodes: limit.nodes,
        hard_nodes: limit.hard_nodes,
        depth: args.depth.unwrap_or(0),
        random_plies: (random_plies.least, random_plies.most),
        openings: args
            .openings
            .as_ref()
            .and_then(|path| std::fs::read(path).ok())
            .map_or(0, |bytes| fnv1a(&bytes)),
        eval: format!("{:?}", args.eval).to_lowercase(),
        network: limit.network.checksum(),
    };
    let mut start = Progress::default();
    if args.output.exists() {
        if !args.append {
            eprintln!(
                "datagen: {} exists; give --append to continue it or choose another --output",
                args.output.display()
            );
            return ExitCode::from(2);
        }
        // A run stopped part-way continues from its progress file: the data is cut back to
        // the whole games it counts (a game cut in two is cut away) and play goes on at the
        // next game, so the file ends as an uninterrupted run's would.
        let progress = match datafile::load_progress(&args.output, &settings) {
            Ok(Some(progress)) => progress,
            Ok(None) => {
                eprintln!(
                    "datagen: {} has no progress file ({}), so it cannot be continued; choose another --output",
                    args.output.display(),
                    datafile::progress_path(&args.output).display()
                );
                return ExitCode::from(2);
            }
            Err(why) => {
                eprintln!("datagen: {why}");
                return ExitCode::from(2);
            }
        };
        match datafile::cut_back(&args.output, progress.bytes) {
            Ok(0) => {}
            Ok(cut) => eprintln!(
                "datagen: {} ended {cut} bytes past its last whole game; cut back",
                args.output.display()
            ),
            Err(why) => {
                eprintln!("datagen: {why}");
                return ExitCode::from(2);
            }
        }
        eprintln!(
            "datagen: continuing {} at game {} with {} moves written",
            args.output.display(),
            progress.next_game,
            progress.moves
        );
        start = progress;
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
    let started = Instant::now();
    let report = Generation::new(args.moves, args.quiet);
    let checkpoint =
        |progress: Progress| datafile::save_progress(&args.output, &settings, progress);
    let outcome = generate(
        &openings,
        random_plies,
        limit,
        args.seed,
        args.threads.max(1),
        Run {
            start,
            target: args.moves,
        },
        BufWriter::new(file),
        &report,
        &checkpoint,
    );
    report.bar.finish_and_clear();
    let outcome = outcome.and_then(|progress| {
        datafile::write_manifest(&args.output, &settings, progress, args.openings.as_deref())
            .map(|_| progress)
    });
    match outcome {
        Ok(progress) => {
            let games = progress.next_game - start.next_game;
            let moves = progress.moves - start.moves;
            let seconds = started.elapsed().as_secs_f64();
            eprintln!(
                "datagen: {moves} moves from {games} games in {seconds:.0} s ({:.0} moves/hour, {} threads) written to {} ({} moves in {} games in all; manifest {})",
                moves as f64 * 3600.0 / seconds.max(1e-9),
                args.threads.max(1),
                args.output.display(),
                progress.moves,
                progress.next_game,
                datafile::manifest_path(&args.output).display()
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
            ProgressStyle::with_template("{bar:40} {pos}/{len} moves  {per_sec}  {msg}  eta {eta}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        Self { bar }
    }
}

/// Where a run starts and the recorded moves it stops at (in all, those written before
/// included): the game that reaches them is the last.
#[derive(Clone, Copy, Debug)]
struct Run {
    start: Progress,
    target: u64,
}

/// Plays games on `threads` threads from game `run.start.next_game` until the file holds
/// `run.target` recorded moves, writing each game whole and in its numbered order, flushing it
/// and then calling `checkpoint` with the progress. Returns the progress at the end.
#[allow(clippy::too_many_arguments)]
fn generate<W: Write + Send>(
    openings: &[Position],
    random_plies: RandomPlies,
    limit: MoveLimit,
    seed: u64,
    threads: usize,
    run: Run,
    writer: W,
    report: &Generation,
    checkpoint: &(dyn Fn(Progress) -> std::io::Result<()> + Sync),
) -> std::io::Result<Progress> {
    struct Shared<W> {
        writer: W,
        /// Finished games waiting for the games before them.
        pending: BTreeMap<u64, Game>,
        /// Written so far.
        progress: Progress,
        error: Option<std::io::Error>,
    }
    let target = run.target;
    let shared = Mutex::new(Shared {
        writer,
        pending: BTreeMap::new(),
        progress: run.start,
        error: None,
    });
    let next_game = AtomicU64::new(run.start.next_game);
    let done = AtomicBool::new(run.start.moves >= target);
    report.bar.set_position(run.start.moves);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                while !done.load(Ordering::Relaxed) {
                    let game = next_game.fetch_add(1, Ordering::Relaxed);
                    let played = play_game(openings, random_plies, &limit, seed, game);
                    let mut s = shared.lock().unwrap_or_else(|p| p.into_inner());
                    let finished = Game {
                        moves: played.moves.len() as u64,
                        bytes: played.to_bytes(),
                    };
                    s.pending.insert(game, finished);
                    loop {
                        if s.progress.moves >= target || s.error.is_some() {
                            break;
                        }
                        let next = s.progress.next_game;
                        let Some(game) = s.pending.remove(&next) else {
                            break;
                        };
                        let written = s
                            .writer
                            .write_all(&game.bytes)
                            .and_then(|()| s.writer.flush());
                        s.progress.next_game += 1;
                        s.progress.moves += game.moves;
                        s.progress.bytes += game.bytes.len() as u64;
                        let saved = written.and_then(|()| checkpoint(s.progress));
                        if let Err(error) = saved {
                            s.error = Some(error);
                        }
                        report.bar.set_position(s.progress.moves);
                        let games = s.progress.next_game;
                        report.bar.set_message(format!("{games} games"));
                    }
                    if s.progress.moves >= target || s.error.is_some() {
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
    Ok(s.progress)
}

#[cfg(test)]
mod tests;
