//! The training positions of `brudno train`: every file read into samples, every twentieth
//! game held out whole, and `--games-fraction`'s share of the other games kept for training
//! (mirrored too with `--mirror`), with the loss of the hand-written evaluation on the
//! held-out positions as the bar the network must pass.

use shakmaty::Position as _;

use brudno_engine::eval::params::WEIGHTS;
use brudno_engine::eval::positional;
use brudno_engine::rng::splitmix64;

use super::{SCALE, Sample, TrainArgs, sigmoid};
use crate::dataset;

/// Whether training game `game` is in the share `fraction` of the games: a uniform draw
/// from the game's number and `seed` under `fraction`, so that the games of a share are
/// part of every larger share's.
pub fn in_share(game: usize, seed: u64, fraction: f64) -> bool {
    let draw = splitmix64(splitmix64(seed ^ 0x5eed_da7a) ^ game as u64);
    ((draw >> 11) as f64 / (1u64 << 53) as f64) < fraction
}

/// What `read_samples` read.
pub struct Samples {
    /// Training positions (with their mirrored copies).
    pub train: Vec<Sample>,
    /// Held-out positions.
    pub test: Vec<Sample>,
    /// Games read.
    pub games: usize,
    /// Training positions, mirrored copies not counted.
    pub positions: u64,
    /// The summed squared error of the positional evaluation on the held-out positions.
    pub positional_loss: f64,
}

/// Reads the files of `args` into samples; `None`, with the reason printed, when a file
/// cannot be read or the share is not one.
pub fn read_samples(args: &TrainArgs) -> Option<Samples> {
    if !(0.0..=1.0).contains(&args.games_fraction) || args.games_fraction == 0.0 {
        eprintln!(
            "train: --games-fraction {} is not a share above 0 and at most 1",
            args.games_fraction
        );
        return None;
    }
    let mut train = Vec::new();
    let mut test = Vec::new();
    let mut game = 0usize;
    let mut positions = 0u64;
    let mut positional_loss = 0f64;
    for path in &args.data {
        let mut bad = 0;
        let loaded = dataset::load(path, &mut |index, why| {
            bad += 1;
            if bad <= 10 {
                eprintln!("{}: {index}: {why}", path.display());
            }
        });
        let records = match loaded {
            Ok(loaded) => loaded.records,
            Err(why) => {
                eprintln!("train: {why}");
                return None;
            }
        };
        if bad > 0 {
            eprintln!("{}: {bad} bad records skipped", path.display());
        }
        for record in &records {
            if record.game_start {
                game += 1;
            }
            let sample = Sample::new(
                &record.position,
                record.score,
                record.white_result() as f32,
                args.lambda.clamp(0.0, 1.0),
            );
            // Every twentieth game is held out, whole.
            if game.is_multiple_of(20) {
                // The hand-written evaluation on the same target: the bar the net must pass.
                let board = record.position.board();
                let turn = record.position.turn();
                let positional = positional::evaluate(board, turn, &WEIGHTS);
                let error = sigmoid(positional as f32 / SCALE as f32) - sample.target;
                positional_loss += f64::from(error * error);
                test.push(sample);
            } else if in_share(game, args.seed, args.games_fraction) {
                if args.mirror && !record.position.chess().castles().any() {
                    train.push(sample.mirrored());
                }
                train.push(sample);
                positions += 1;
            }
        }
    }
    Some(Samples {
        train,
        test,
        games: game,
        positions,
        positional_loss,
    })
}
