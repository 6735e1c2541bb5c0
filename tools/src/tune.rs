//! `brudno tune`: Texel tuning of the positional evaluation's weights on positions from
//! Brudno's own games (written by `brudno datagen`).
//!
//! The evaluation is linear in its weights once the game phase is fixed, so each position is
//! reduced once to its trace (which weights it uses, how often, and its phase). The tuner then
//! minimises the mean squared difference between each position's target and the predicted
//! score `1 / (1 + 10^(-K * eval / 400))` by Adam gradient descent over all weights, after
//! fitting `K` to the starting weights. The target is the game's result, or with `--lambda`
//! below 1 a blend of the result and the search's score seen through the same sigmoid. It
//! prints the error on held-out games (the last tenth of the file, cut at a game's start) as
//! it goes and writes a new `engine/src/eval/params.rs` with the weights of the report whose
//! held-out error was lowest (early stopping). It never changes the engine by
//! itself: the output is a file to review, rebuild with, and test in games.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::{dataset, packed};
use brudno_engine::eval::params::WEIGHTS;
use brudno_engine::eval::positional::{MAX_PHASE, Trace, evaluate_traced};
use brudno_engine::eval::weights::{S, Weights, index};

/// Arguments of `brudno tune`.
#[derive(Args, Debug)]
pub struct TuneArgs {
    /// Training data written by `brudno datagen`.
    pub data: PathBuf,
    /// Where to write the tuned weights (a params.rs file).
    #[arg(long)]
    pub output: PathBuf,
    /// Full passes of gradient descent.
    #[arg(long, default_value_t = 1500)]
    pub epochs: usize,
    /// Adam learning rate, in centipawns per step.
    #[arg(long, default_value_t = 1.0)]
    pub learning_rate: f64,
    /// Scaling constant of the sigmoid; fitted to the data when absent.
    #[arg(long)]
    pub k: Option<f64>,
    /// L2 penalty pulling each weight towards its starting value (per training position).
    #[arg(long, default_value_t = 0.0)]
    pub regularization: f64,
    /// Weights used by fewer training positions than this keep their starting value.
    #[arg(long, default_value_t = 200)]
    pub min_count: usize,
    /// Weight of the game result in the target; the rest is the search's score.
    #[arg(long, default_value_t = 1.0)]
    pub lambda: f64,
    /// Print the errors every this many epochs.
    #[arg(long, default_value_t = 100)]
    pub report_every: usize,
}

/// One training position: its target (the result, or a blend with the score), its trace.
struct Sample {
    result: f64,
    /// The search's score, White's view, centipawns.
    score: f64,
    /// Whether it is the first position of its game.
    game_start: bool,
    phase: f64,
    /// (weight index, count for White minus Black).
    terms: Vec<(u16, i16)>,
}

#[derive(Default)]
struct Recorder {
    terms: Vec<(u16, i16)>,
    phase: i32,
}

impl Trace for Recorder {
    fn add(&mut self, index: usize, count: i32) {
        match self
            .terms
            .iter_mut()
            .find(|(i, _)| usize::from(*i) == index)
        {
            Some(term) => term.1 += count as i16,
            None => self.terms.push((index as u16, count as i16)),
        }
    }
    fn phase(&mut self, phase: i32) {
        self.phase = phase;
    }
}

/// Reads packed records (`packed.rs`); bad records are reported with their number and
/// skipped. Returns the samples and the number of bad records.
#[cfg(test)]
fn load(data: &[u8]) -> (Vec<Sample>, usize) {
    let mut bad = 0;
    let records = packed::decode_all(data, &mut |index, why| {
        eprintln!("record {}: {why}", index + 1);
        bad += 1;
    });
    (samples(&records), bad)
}

/// The samples of training records.
fn samples(records: &[packed::Record]) -> Vec<Sample> {
    records
        .iter()
        .map(|record| {
            let mut recorder = Recorder::default();
            let pos = &record.position;
            // The trace is White-relative whatever the side to move; the value is not needed.
            evaluate_traced(pos.board(), pos.turn(), &WEIGHTS, &mut recorder);
            recorder.terms.retain(|&(_, count)| count != 0);
            Sample {
                result: record.white_result(),
                score: f64::from(record.score),
                game_start: record.game_start,
                phase: f64::from(recorder.phase) / f64::from(MAX_PHASE),
                terms: recorder.terms,
            }
        })
        .collect()
}

/// White-relative evaluation of a sample under real-valued weights.
#[inline]
fn evaluate(sample: &Sample, weights: &[[f64; 2]]) -> f64 {
    let (mut mg, mut eg) = (0.0, 0.0);
    for &(i, count) in &sample.terms {
        let w = weights[usize::from(i)];
        mg += w[0] * f64::from(count);
        eg += w[1] * f64::from(count);
    }
    mg * sample.phase + eg * (1.0 - sample.phase)
}

#[inline]
fn sigmoid(k: f64, eval: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * eval / 400.0))
}

fn mean_error(samples: &[Sample], weights: &[[f64; 2]], k: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let total: f64 = samples
        .iter()
        .map(|s| (s.result - sigmoid(k, evaluate(s, weights))).powi(2))
        .sum();
    total / samples.len() as f64
}

/// The K that minimises the error for the given weights (golden-section search).
fn fit_k(samples: &[Sample], weights: &[[f64; 2]]) -> f64 {
    let (mut lo, mut hi) = (0.1f64, 4.0f64);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if mean_error(samples, weights, a) < mean_error(samples, weights, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Gradient of the mean error, computed on two threads.
fn gradient(samples: &[Sample], weights: &[[f64; 2]], k: f64) -> Vec<[f64; 2]> {
    let half = samples.len() / 2;
    let (left, right) = samples.split_at(half);
    let part = |chunk: &[Sample]| {
        let mut grad = vec![[0.0f64; 2]; weights.len()];
        let scale = k * std::f64::consts::LN_10 / 400.0;
        for s in chunk {
            let p = sigmoid(k, evaluate(s, weights));
            let common = -2.0 * (s.result - p) * p * (1.0 - p) * scale;
            for &(i, count) in &s.terms {
                let c = common * f64::from(count);
                grad[usize::from(i)][0] += c * s.phase;
                grad[usize::from(i)][1] += c * (1.0 - s.phase);
            }
        }
        grad
    };
    let (mut grad, other) = std::thread::scope(|scope| {
        let handle = scope.spawn(|| part(right));
        let grad = part(left);
        (grad, handle.join().unwrap_or_default())
    });
    let n = samples.len().max(1) as f64;
    for (g, o) in grad
        .iter_mut()
        .zip(other.iter().chain(std::iter::repeat(&[0.0; 2])))
    {
        g[0] = (g[0] + o[0]) / n;
        g[1] = (g[1] + o[1]) / n;
    }
    grad
}

/// Runs `brudno tune`.
pub fn run(args: &TuneArgs) -> ExitCode {
    let mut bad = 0;
    let loaded = dataset::load(&args.data, &mut |index, why| {
        eprintln!("{}: {index}: {why}", args.data.display());
        bad += 1;
    });
    let samples = match loaded {
        Ok(loaded) => samples(&loaded.records),
        Err(why) => {
            eprintln!("brudno tune: {why}");
            return ExitCode::from(2);
        }
    };
    if samples.len() < 100 {
        eprintln!("brudno tune: only {} usable positions", samples.len());
        return ExitCode::from(2);
    }
    // The last tenth of the file, from the start of a game on, is held out to watch for
    // over-fitting: whole games the tuner never sees. Holding out every tenth position
    // instead would leak: its neighbours from the same game, with the same result, stay in
    // the training set.
    let tenth = samples.len() - samples.len() / 10;
    let split = (tenth..samples.len())
        .find(|&i| samples[i].game_start)
        .unwrap_or(tenth);
    let mut train = samples;
    let mut test = train.split_off(split);
    let weights: Vec<[f64; 2]> = WEIGHTS
        .to_flat()
        .iter()
        .map(|s| [f64::from(s.0), f64::from(s.1)])
        .collect();
    // Weights seen in too few positions would be fitted to noise: they stay as they are.
    let mut uses = vec![0usize; weights.len()];
    for sample in &train {
        for &(i, _) in &sample.terms {
            uses[usize::from(i)] += 1;
        }
    }
    let frozen: Vec<bool> = uses
        .iter()
        .enumerate()
        .map(|(i, &n)| n < args.min_count || i == index::MATERIAL + 5)
        .collect();
    let k = args.k.unwrap_or_else(|| fit_k(&train, &weights));
    // The target: the result, blended with the score when lambda < 1.
    let lambda = args.lambda.clamp(0.0, 1.0);
    for sample in train.iter_mut().chain(test.iter_mut()) {
        sample.result = lambda * sample.result + (1.0 - lambda) * sigmoid(k, sample.score);
    }
    eprintln!(
        "{} training and {} held-out positions ({bad} bad records), K = {k:.4}, lambda {lambda}, \
         {} of {} weights frozen (used by fewer than {} positions)",
        train.len(),
        test.len(),
        frozen.iter().filter(|&&f| f).count(),
        frozen.len(),
        args.min_count
    );
    let (weights, best_epoch, best_error) =
        descend(&train, &test, weights, &frozen, k, args, &mut |line| {
            eprintln!("{line}")
        });
    eprintln!(
        "the weights of epoch {best_epoch} are written (lowest held-out error, {best_error:.6})"
    );
    let rounded: Vec<S> = weights
        .iter()
        .map(|w| S(w[0].round() as i32, w[1].round() as i32))
        .collect();
    let source = params_source(&Weights::from_flat(&rounded));
    if let Err(error) = std::fs::write(&args.output, source) {
        eprintln!(
            "brudno tune: cannot write {}: {error}",
            args.output.display()
        );
        return ExitCode::from(1);
    }
    eprintln!("tuned weights written to {}", args.output.display());
    ExitCode::SUCCESS
}

/// Adam over `epochs` full passes from `weights` (frozen ones stay), reporting both errors
/// every `report_every` epochs. Returns the weights of the report with the lowest held-out
/// error (early stopping; the starting weights, epoch 0, if none beats them), its epoch and
/// that error. Without held-out positions the last weights are returned.
fn descend(
    train: &[Sample],
    test: &[Sample],
    mut weights: Vec<[f64; 2]>,
    frozen: &[bool],
    k: f64,
    args: &TuneArgs,
    report: &mut dyn FnMut(&str),
) -> (Vec<[f64; 2]>, usize, f64) {
    let start = weights.clone();
    let start_held_out = mean_error(test, &weights, k);
    report(&format!(
        "start: train error {:.6}, held-out error {start_held_out:.6}",
        mean_error(train, &weights, k),
    ));
    let mut best = (weights.clone(), 0usize, start_held_out);
    let (beta1, beta2, epsilon) = (0.9, 0.999, 1e-8);
    let mut m = vec![[0.0f64; 2]; weights.len()];
    let mut v = vec![[0.0f64; 2]; weights.len()];
    for epoch in 1..=args.epochs {
        let grad = gradient(train, &weights, k);
        let t = epoch as i32;
        for i in 0..weights.len() {
            if frozen[i] {
                continue;
            }
            for phase in 0..2 {
                let g = grad[i][phase]
                    + 2.0 * args.regularization * (weights[i][phase] - start[i][phase]);
                m[i][phase] = beta1 * m[i][phase] + (1.0 - beta1) * g;
                v[i][phase] = beta2 * v[i][phase] + (1.0 - beta2) * g * g;
                let m_hat = m[i][phase] / (1.0 - beta1.powi(t));
                let v_hat = v[i][phase] / (1.0 - beta2.powi(t));
                weights[i][phase] -= args.learning_rate * m_hat / (v_hat.sqrt() + epsilon);
            }
        }
        if epoch.is_multiple_of(args.report_every.max(1)) || epoch == args.epochs {
            let held_out = mean_error(test, &weights, k);
            report(&format!(
                "epoch {epoch}: train error {:.6}, held-out error {held_out:.6}",
                mean_error(train, &weights, k),
            ));
            if held_out < best.2 || test.is_empty() {
                best = (weights.clone(), epoch, held_out);
            }
        }
    }
    best
}

/// Renders weights as the source of `engine/src/eval/params.rs`.
pub fn params_source(weights: &Weights) -> String {
    fn list(values: &[S]) -> String {
        values
            .iter()
            .map(|s| format!("S({}, {})", s.0, s.1))
            .collect::<Vec<_>>()
            .join(", ")
    }
    let mut out = String::new();
    out.push_str(
        "//! The evaluation's weights: every tunable number of the positional evaluation in one place.\n\
         //!\n\
         //! Each weight is a pair (middlegame, endgame) in centipawns; the evaluation blends the two by\n\
         //! game phase. Tables are written from White's point of view with rank 8 first, as a board is\n\
         //! printed. `brudno tune` (Texel tuning on positions from Brudno's own games) writes files of\n\
         //! this shape; whether a tuned set replaces the one in use is decided in games\n\
         //! (docs/strength-log.md).\n\n\
         use super::weights::{S, Weights};\n\n\
         /// The weights the engine plays with.\n\
         #[rustfmt::skip]\n\
         pub const WEIGHTS: Weights = Weights {\n",
    );
    let _ = writeln!(out, "    material: [{}],", list(&weights.material));
    out.push_str("    pst: [\n");
    for (name, table) in ["pawn", "knight", "bishop", "rook", "queen", "king"]
        .iter()
        .zip(&weights.pst)
    {
        let _ = writeln!(out, "        // {name}\n        [");
        for row in table.chunks(8) {
            let _ = writeln!(out, "            {},", list(row));
        }
        out.push_str("        ],\n");
    }
    out.push_str("    ],\n");
    let _ = writeln!(
        out,
        "    mobility_knight: [{}],",
        list(&weights.mobility_knight)
    );
    let _ = writeln!(
        out,
        "    mobility_bishop: [{}],",
        list(&weights.mobility_bishop)
    );
    let _ = writeln!(
        out,
        "    mobility_rook: [{}],",
        list(&weights.mobility_rook)
    );
    let _ = writeln!(
        out,
        "    mobility_queen: [{}],",
        list(&weights.mobility_queen)
    );
    let _ = writeln!(out, "    passed_pawn: [{}],", list(&weights.passed_pawn));
    for (name, value) in [
        ("doubled_pawn", weights.doubled_pawn),
        ("isolated_pawn", weights.isolated_pawn),
        ("bishop_pair", weights.bishop_pair),
        ("rook_open_file", weights.rook_open_file),
        ("rook_semi_open_file", weights.rook_semi_open_file),
    ] {
        let _ = writeln!(out, "    {name}: S({}, {}),", value.0, value.1);
    }
    let _ = writeln!(out, "    king_shield: [{}],", list(&weights.king_shield));
    let _ = writeln!(out, "    king_attack: [{}],", list(&weights.king_attack));
    let _ = writeln!(
        out,
        "    tempo: S({}, {}),",
        weights.tempo.0, weights.tempo.1
    );
    out.push_str("};\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use brudno_engine::position::Position;

    /// Packed records of `(FEN, result for White: 0, 1 or 2)`, one game each.
    fn pack(positions: &[(&str, u8)]) -> Vec<u8> {
        positions
            .iter()
            .flat_map(|(fen, result)| {
                packed::encode(&Position::from_fen(fen, false).unwrap(), 0, *result, true)
            })
            .collect()
    }

    #[test]
    fn tuner_model_matches_the_engine_evaluation() {
        let data = pack(&[
            (
                "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
                1,
            ),
            ("8/5k2/8/8/8/8/4PK2/8 b - - 0 1", 2),
        ]);
        let (samples, bad) = load(&data);
        assert_eq!((samples.len(), bad), (2, 0));
        let weights: Vec<[f64; 2]> = WEIGHTS
            .to_flat()
            .iter()
            .map(|s| [f64::from(s.0), f64::from(s.1)])
            .collect();
        for (sample, fen) in samples.iter().zip([
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            "8/5k2/8/8/8/8/4PK2/8 b - - 0 1",
        ]) {
            let pos = Position::from_fen(fen, false).unwrap();
            let engine = brudno_engine::eval::Evaluation::Positional.evaluate(&pos);
            let white = if pos.turn() == shakmaty::Color::White {
                engine
            } else {
                -engine
            };
            // Equal up to the engine's integer rounding.
            assert!((evaluate(sample, &weights) - f64::from(white)).abs() <= 1.0);
        }
    }

    #[test]
    fn bad_records_are_counted() {
        let mut data = pack(&[("8/8/8/8/8/8/8/K6k w - - 0 1", 1)]);
        data[30] = 7; // no such result
        data.extend_from_slice(&[0; 40]); // an empty board, then 8 stray bytes
        let (samples, bad) = load(&data);
        assert_eq!((samples.len(), bad), (0, 3));
    }

    #[test]
    fn written_source_round_trips_the_current_weights() {
        let source = params_source(&WEIGHTS);
        let current = include_str!("../../engine/src/eval/params.rs");
        assert_eq!(
            source.split_whitespace().collect::<Vec<_>>(),
            current.split_whitespace().collect::<Vec<_>>()
        );
    }

    #[test]
    fn gradient_descent_lowers_the_error() {
        // White wins the positions where it has an extra pawn and loses the one where it is a
        // pawn down: a small step against the gradient must fit that better.
        let (samples, _) = load(&pack(&[
            ("4k3/8/8/8/8/8/P7/4K3 w - - 0 1", 2),
            ("4k3/8/8/8/8/8/1P6/4K3 w - - 0 1", 2),
            ("4k3/8/8/8/8/8/2P5/4K3 b - - 0 1", 2),
            ("4k3/p7/8/8/8/8/8/4K3 w - - 0 1", 0),
        ]));
        let weights: Vec<[f64; 2]> = WEIGHTS
            .to_flat()
            .iter()
            .map(|s| [f64::from(s.0), f64::from(s.1)])
            .collect();
        let before = mean_error(&samples, &weights, 1.0);
        let grad = gradient(&samples, &weights, 1.0);
        let stepped: Vec<[f64; 2]> = weights
            .iter()
            .zip(&grad)
            .map(|(w, g)| [w[0] - 1000.0 * g[0], w[1] - 1000.0 * g[1]])
            .collect();
        assert!(mean_error(&samples, &stepped, 1.0) < before);
    }

    #[test]
    fn the_weights_with_the_lowest_held_out_error_are_kept() {
        let train = load(&pack(&[
            ("4k3/8/8/8/8/8/P7/4K3 w - - 0 1", 2),
            ("4k3/8/8/8/8/8/1P6/4K3 w - - 0 1", 2),
            ("4k3/p7/8/8/8/8/8/4K3 w - - 0 1", 0),
        ]))
        .0;
        // Held-out games that agree with the training ones, and games that contradict them.
        let agree = load(&pack(&[("4k3/8/8/8/8/8/2P5/4K3 w - - 0 1", 2)])).0;
        let contradict = load(&pack(&[("4k3/8/8/8/8/8/2P5/4K3 w - - 0 1", 0)])).0;
        let weights: Vec<[f64; 2]> = WEIGHTS
            .to_flat()
            .iter()
            .map(|s| [f64::from(s.0), f64::from(s.1)])
            .collect();
        let frozen = vec![false; weights.len()];
        let args = TuneArgs {
            data: PathBuf::new(),
            output: PathBuf::new(),
            epochs: 40,
            learning_rate: 5.0,
            k: None,
            regularization: 0.0,
            min_count: 0,
            lambda: 1.0,
            report_every: 10,
        };
        let mut lines = Vec::new();
        let (_, epoch, error) = descend(
            &train,
            &agree,
            weights.clone(),
            &frozen,
            1.0,
            &args,
            &mut |l| lines.push(l.to_string()),
        );
        assert_eq!(lines.len(), 5, "{lines:?}");
        assert!(epoch > 0 && error < mean_error(&agree, &weights, 1.0));
        let (kept, epoch, _) = descend(
            &train,
            &contradict,
            weights.clone(),
            &frozen,
            1.0,
            &args,
            &mut |_| {},
        );
        assert_eq!(epoch, 0);
        assert_eq!(kept, weights);
    }
}
