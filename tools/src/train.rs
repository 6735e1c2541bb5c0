//! `brudno train`: trains the NNUE (`eval/nnue`) on positions from Brudno's own games
//! (`brudno datagen`), on the CPU, and writes the quantised network file.
//!
//! The network trained here is the one the engine runs, in floating point: 768 inputs per
//! perspective and king bucket (`--king-buckets`: 1, or 2 or 4 by the square of that side's
//! king, the board mirrored left to right when it stands on files e-h), one hidden layer of
//! `--hidden` neurons (256 by default) shared by both
//! perspectives, SCReLU (`clamp(x, 0, 1)^2`), one output per output bucket (`--output-buckets`,
//! by the number of pieces on the board; one by default), of which a position uses its own; `sigmoid(output)` predicts the target, the search's
//! score seen through the same sigmoid, blended with the game's result when `--lambda` (the
//! result's weight, default 0) is above 0, both from the side to move. The loss is the
//! squared error, minimised with Adam over shuffled mini-batches, the batch split over
//! `--threads`. Whole games (every twentieth) are held out, the training and held-out
//! losses are printed after every epoch, and the network written is that of the epoch with
//! the lowest held-out loss. The inputs are sparse (at most 32 of 768 per perspective), so
//! a position costs a few tens of thousands of multiply-adds forward and back.
//!
//! Quantisation (`quantise`) scales the hidden weights by `QA` and the output weights by `QB`
//! as `nnue::network` expects; the float evaluation here is the reference the quantised one
//! is tested against.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use shakmaty::{Color, Piece, Role, Square};

use brudno_engine::eval::nnue::{Architecture, INPUTS, KingKey, Network, QB, SCALE};
use brudno_engine::position::Position;
use brudno_engine::rng::splitmix64;

/// The input index of `piece` on `square` from White's perspective in the first king bucket,
/// unmirrored: what a sample stores; each perspective's index follows from it and the kings
/// (`Sample::perspectives`).
fn feature(perspective: Color, piece: Piece, square: Square) -> usize {
    Architecture::plain(16).feature(perspective, KingKey::default(), piece, square)
}

/// The piece and square of a stored input (`feature` from White's perspective).
fn decode(white_feature: usize) -> (Piece, Square) {
    let (side_role, square) = (white_feature / 64, white_feature % 64);
    let color = if side_role < 6 {
        Color::White
    } else {
        Color::Black
    };
    let piece = Piece {
        color,
        role: Role::ALL[side_role % 6],
    };
    (piece, Square::new(square as u32))
}

/// The king bucket of each king square (seen from that king's side, files a-d after
/// mirroring) for `--king-buckets` 2 (the back rank, the rest) and 4 (the back rank's
/// corner files a-b, its centre files c-d, the second rank, the rest), the layouts the
/// field's first bucketed networks use; the squares of files e-h get their mirror's bucket.
pub fn king_layout(buckets: usize) -> Option<[u8; 64]> {
    let of = |rank: usize, file: usize| -> u8 {
        match (buckets, rank, file) {
            (1, _, _) => 0,
            (2, 0, _) => 0,
            (2, _, _) => 1,
            (4, 0, 0 | 1) => 0,
            (4, 0, _) => 1,
            (4, 1, _) => 2,
            (4, _, _) => 3,
            _ => unreachable!(),
        }
    };
    if ![1, 2, 4].contains(&buckets) {
        return None;
    }
    let mut layout = [0u8; 64];
    for (square, bucket) in layout.iter_mut().enumerate() {
        let (rank, file) = (square / 8, square % 8);
        *bucket = of(rank, file.min(7 - file));
    }
    Some(layout)
}

/// The shape `args` asks for: `--king-buckets` (mirrored when more than one), `--hidden`
/// neurons, `--output-buckets` outputs; checked as a network file's header is.
pub fn architecture(args: &TrainArgs) -> Result<Architecture, String> {
    let bucket_of = king_layout(args.king_buckets).ok_or_else(|| {
        format!(
            "{} king buckets; the trainer makes 1, 2 or 4",
            args.king_buckets
        )
    })?;
    let arch = Architecture {
        king_buckets: args.king_buckets,
        bucket_of,
        mirrored: args.king_buckets > 1,
        output_buckets: args.output_buckets,
        ..Architecture::plain(args.hidden)
    };
    arch.check()?;
    Ok(arch)
}

/// Arguments of `brudno train`.
#[derive(Args, Debug, Clone)]
pub struct TrainArgs {
    /// Training data written by `brudno datagen` (one or more files).
    #[arg(required = true)]
    pub data: Vec<PathBuf>,
    /// Where to write the quantised network.
    #[arg(long)]
    pub output: PathBuf,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 30)]
    pub epochs: usize,
    /// Positions per gradient step.
    #[arg(long, default_value_t = 16384)]
    pub batch: usize,
    /// Adam's learning rate at the start.
    #[arg(long, default_value_t = 0.001)]
    pub learning_rate: f32,
    /// The learning rate is multiplied by this after every epoch (`--schedule exponential`).
    #[arg(long, default_value_t = 0.92)]
    pub decay: f32,
    /// The learning rate's shape over the run: `exponential` (`--decay` after every epoch) or
    /// `cosine` (a linear warm-up over `--warmup` epochs, then a half cosine down to
    /// `--final-rate` of the peak at the last step).
    #[arg(long, value_enum, default_value_t = Shape::Exponential)]
    pub schedule: Shape,
    /// Epochs of linear warm-up from zero to `--learning-rate` (`--schedule cosine`).
    #[arg(long, default_value_t = 1.0)]
    pub warmup: f32,
    /// The last step's learning rate as a share of the peak (`--schedule cosine`).
    #[arg(long, default_value_t = 0.01)]
    pub final_rate: f32,
    /// Weight of the game's result in the target (the rest is the search's score). Above 0 the
    /// network memorises the results of the training games (docs/datagen.md).
    #[arg(long, default_value_t = 0.0)]
    pub lambda: f32,
    /// Threads sharing each batch.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Seed of the initial weights and of the shuffling.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Also train on each training position mirrored left to right (files a-h swapped), where
    /// no side may castle any more: the same position for chess, twice the data.
    #[arg(long)]
    pub mirror: bool,
    /// Hidden neurons per perspective (a multiple of 16).
    #[arg(long, default_value_t = 256)]
    pub hidden: usize,
    /// Output buckets by the number of pieces on the board (1 to 32; 8 is common).
    #[arg(long, default_value_t = 1)]
    pub output_buckets: usize,
    /// King buckets: 1 (one set of input weights), or 2 or 4 by the king's square, the board
    /// mirrored left to right for a king on files e-h (`king_layout`).
    #[arg(long, default_value_t = 1)]
    pub king_buckets: usize,
    /// Start from this network (a warm start, usually with a smaller --learning-rate)
    /// instead of random weights; its shape is the run's (--hidden and --king-buckets are
    /// ignored), except that a network with one output bucket grows to --output-buckets,
    /// each a copy of its output layer.
    #[arg(long, value_name = "NET")]
    pub init: Option<PathBuf>,
    /// Train on this share of the training games only (0 to 1), chosen at random by game
    /// number and --seed; the held-out games stay the same whatever the share, and a smaller
    /// share's games are part of every larger one's. The data-size curve's points.
    #[arg(long, default_value_t = 1.0, value_name = "SHARE")]
    pub games_fraction: f64,
}

/// One training position: its active inputs from White's perspective in the first king
/// bucket (each perspective's are derived), the side to move, the target from the side to
/// move.
#[derive(Clone)]
struct Sample {
    features: [u16; 32],
    count: u8,
    /// Pieces on the board, kings included (the output bucket follows from it).
    pieces: u8,
    white_to_move: bool,
    target: f32,
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

impl Sample {
    fn new(position: &Position, white_score: i16, white_result: f32, lambda: f32) -> Self {
        let board = position.board();
        let mut features = [0u16; 32];
        let mut count = 0;
        for square in board.occupied() {
            if let Some(piece) = board.piece_at(square)
                && count < 32
            {
                features[count] = feature(Color::White, piece, square) as u16;
                count += 1;
            }
        }
        let white = position.turn() == Color::White;
        let (score, result) = if white {
            (f32::from(white_score), white_result)
        } else {
            (-f32::from(white_score), 1.0 - white_result)
        };
        let target = lambda * result + (1.0 - lambda) * sigmoid(score / SCALE as f32);
        Sample {
            features,
            count: count as u8,
            pieces: board.occupied().count() as u8,
            white_to_move: white,
            target,
        }
    }

    /// The same position with the files swapped (a <-> h): its inputs, same target.
    fn mirrored(&self) -> Self {
        let mut mirrored = self.clone();
        for f in &mut mirrored.features[..usize::from(self.count)] {
            *f ^= 7;
        }
        mirrored
    }

    /// The active inputs of the side to move's and the other side's perspectives in the
    /// shape `arch`: each side's inputs in its king's bucket, mirrored as its king says.
    fn perspectives(&self, arch: &Architecture) -> ([usize; 32], [usize; 32], usize) {
        let n = usize::from(self.count);
        let features = &self.features[..n];
        let king = |color: Color| {
            features
                .iter()
                .map(|&f| decode(usize::from(f)))
                .find(|(piece, _)| piece.role == Role::King && piece.color == color)
                .map_or_else(KingKey::default, |(_, square)| arch.king_key(color, square))
        };
        let (white_key, black_key) = (king(Color::White), king(Color::Black));
        let mut white = [0usize; 32];
        let mut black = [0usize; 32];
        for (i, &f) in features.iter().enumerate() {
            let (piece, square) = decode(usize::from(f));
            white[i] = arch.feature(Color::White, white_key, piece, square);
            black[i] = arch.feature(Color::Black, black_key, piece, square);
        }
        if self.white_to_move {
            (white, black, n)
        } else {
            (black, white, n)
        }
    }
}

/// The network in floating point.
#[derive(Clone)]
pub struct FloatNetwork {
    /// The shape.
    pub arch: Architecture,
    /// Input weights, `arch.inputs()` rows (`INPUTS` per king bucket) of `arch.hidden`.
    pub w1: Vec<f32>,
    /// Hidden biases.
    pub b1: Vec<f32>,
    /// Output weights, per output bucket: the side to move's half, then the other's.
    pub w2: Vec<f32>,
    /// Output biases, one per output bucket.
    pub b2: Vec<f32>,
}

/// Output weights are kept within this so that quantised they fit `|w| <= 127`.
const W2_LIMIT: f32 = 127.0 / QB as f32;
/// Input weights and biases are kept within this so that quantised they fit an `i16`.
const W1_LIMIT: f32 = 127.0;

impl FloatNetwork {
    /// Small random weights from `seed`, in the shape `arch`.
    pub fn random(arch: Architecture, seed: u64) -> Self {
        let mut state = seed;
        let mut uniform = |scale: f32| {
            state = splitmix64(state);
            ((state >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * scale
        };
        let hidden = arch.hidden;
        let w1 = (0..arch.inputs() * hidden).map(|_| uniform(0.1)).collect();
        let w2 = (0..arch.output_buckets * 2 * hidden)
            .map(|_| uniform(0.05))
            .collect();
        Self {
            arch,
            w1,
            b1: vec![0.0; hidden],
            w2,
            b2: vec![0.0; arch.output_buckets],
        }
    }

    fn zeros(arch: Architecture) -> Self {
        let hidden = arch.hidden;
        Self {
            arch,
            w1: vec![0.0; arch.inputs() * hidden],
            b1: vec![0.0; hidden],
            w2: vec![0.0; arch.output_buckets * 2 * hidden],
            b2: vec![0.0; arch.output_buckets],
        }
    }

    fn accumulate(&self, features: &[usize]) -> Vec<f32> {
        let hidden = self.arch.hidden;
        let mut acc = self.b1.clone();
        for &f in features {
            for (a, w) in acc.iter_mut().zip(&self.w1[f * hidden..(f + 1) * hidden]) {
                *a += w;
            }
        }
        acc
    }

    /// The output (before the sigmoid) of output bucket `bucket` for the two perspectives'
    /// inputs.
    fn forward(&self, us: &[usize], them: &[usize], bucket: usize) -> (f32, Vec<f32>, Vec<f32>) {
        let hidden = self.arch.hidden;
        let acc_us = self.accumulate(us);
        let acc_them = self.accumulate(them);
        let w2 = &self.w2[bucket * 2 * hidden..(bucket + 1) * 2 * hidden];
        let mut out = self.b2[bucket];
        for i in 0..hidden {
            let a = acc_us[i].clamp(0.0, 1.0);
            let b = acc_them[i].clamp(0.0, 1.0);
            out += a * a * w2[i] + b * b * w2[hidden + i];
        }
        (out, acc_us, acc_them)
    }

    /// The output bucket of a sample.
    fn bucket(&self, sample: &Sample) -> usize {
        self.arch.output_bucket(usize::from(sample.pieces))
    }

    /// The float evaluation of `pos` from the side to move, in centipawns: the reference the
    /// quantised network is held to.
    pub fn evaluate(&self, pos: &Position) -> f32 {
        let sample = Sample::new(pos, 0, 0.5, 1.0);
        let (us, them, n) = sample.perspectives(&self.arch);
        self.forward(&us[..n], &them[..n], self.bucket(&sample)).0 * SCALE as f32
    }

    /// Adds the gradient of one sample's loss to `grad`; returns the loss.
    fn backward(&self, sample: &Sample, grad: &mut FloatNetwork) -> f32 {
        let hidden = self.arch.hidden;
        let bucket = self.bucket(sample);
        let (us, them, n) = sample.perspectives(&self.arch);
        let (out, acc_us, acc_them) = self.forward(&us[..n], &them[..n], bucket);
        let prediction = sigmoid(out);
        let error = prediction - sample.target;
        let d_out = 2.0 * error * prediction * (1.0 - prediction);
        grad.b2[bucket] += d_out;
        let w2 = bucket * 2 * hidden;
        let mut d_acc = vec![0f32; hidden];
        for (half, (acc, features)) in [(&acc_us, &us[..n]), (&acc_them, &them[..n])]
            .into_iter()
            .enumerate()
        {
            let row = w2 + half * hidden;
            for i in 0..hidden {
                let x = acc[i];
                let a = x.clamp(0.0, 1.0);
                grad.w2[row + i] += d_out * a * a;
                d_acc[i] = if x > 0.0 && x < 1.0 {
                    d_out * self.w2[row + i] * 2.0 * x
                } else {
                    0.0
                };
            }
            for (g, d) in grad.b1.iter_mut().zip(&d_acc) {
                *g += d;
            }
            for &f in features {
                for (g, d) in grad.w1[f * hidden..(f + 1) * hidden].iter_mut().zip(&d_acc) {
                    *g += d;
                }
            }
        }
        error * error
    }

    fn params_mut(&mut self) -> [&mut [f32]; 4] {
        [&mut self.w1, &mut self.b1, &mut self.w2, &mut self.b2]
    }

    fn add(&mut self, other: &FloatNetwork) {
        let theirs = [
            other.w1.as_slice(),
            other.b1.as_slice(),
            other.w2.as_slice(),
            other.b2.as_slice(),
        ];
        for (mine, theirs) in self.params_mut().into_iter().zip(theirs) {
            for (a, b) in mine.iter_mut().zip(theirs) {
                *a += b;
            }
        }
    }

    fn clear(&mut self) {
        for params in self.params_mut() {
            params.iter_mut().for_each(|p| *p = 0.0);
        }
    }
}

/// Adam's moments.
struct Adam {
    m: FloatNetwork,
    v: FloatNetwork,
    step: i32,
}

impl Adam {
    fn update(&mut self, network: &mut FloatNetwork, grad: &mut FloatNetwork, rate: f32, n: f32) {
        let (beta1, beta2, epsilon) = (0.9f32, 0.999f32, 1e-8f32);
        self.step += 1;
        let c1 = 1.0 - beta1.powi(self.step);
        let c2 = 1.0 - beta2.powi(self.step);
        let limits = [W1_LIMIT, W1_LIMIT, W2_LIMIT, W1_LIMIT];
        for ((((w, g), m), v), limit) in network
            .params_mut()
            .into_iter()
            .zip(grad.params_mut())
            .zip(self.m.params_mut())
            .zip(self.v.params_mut())
            .zip(limits)
        {
            for i in 0..w.len() {
                let gi = g[i] / n;
                m[i] = beta1 * m[i] + (1.0 - beta1) * gi;
                v[i] = beta2 * v[i] + (1.0 - beta2) * gi * gi;
                w[i] -= rate * (m[i] / c1) / ((v[i] / c2).sqrt() + epsilon);
                w[i] = w[i].clamp(-limit, limit);
            }
        }
    }
}

/// Mean loss of `samples` (no gradient), over `threads`.
fn mean_loss(network: &FloatNetwork, samples: &[Sample], threads: usize) -> f32 {
    if samples.is_empty() {
        return 0.0;
    }
    let chunk = samples.len().div_ceil(threads.max(1));
    let total: f64 = std::thread::scope(|scope| {
        let handles: Vec<_> = samples
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|s| {
                            let (us, them, n) = s.perspectives(&network.arch);
                            let bucket = network.bucket(s);
                            let out = network.forward(&us[..n], &them[..n], bucket).0;
                            let e = sigmoid(out) - s.target;
                            f64::from(e * e)
                        })
                        .sum::<f64>()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or(0.0)).sum()
    });
    (total / samples.len() as f64) as f32
}

/// Runs `brudno train`.
pub fn run(args: &TrainArgs) -> ExitCode {
    let started = Instant::now();
    let init = match &args.init {
        None => None,
        Some(path) => match brudno_engine::eval::nnue::read_file(&path.to_string_lossy()) {
            Ok(network) => Some(network),
            Err(why) => {
                eprintln!("train: --init: {why}");
                return ExitCode::from(2);
            }
        },
    };
    let mut start = init.as_ref().map(FloatNetwork::dequantised);
    // --output-buckets 1 (the default) keeps the init's own buckets.
    if args.output_buckets > 1
        && let Some(float) = start.take_if(|f| f.arch.output_buckets != args.output_buckets)
    {
        let buckets = float.arch.output_buckets;
        start = float.with_output_buckets(args.output_buckets);
        if start.is_none() {
            eprintln!(
                "train: --init has {buckets} output buckets; only a one-bucket network grows to --output-buckets {}",
                args.output_buckets
            );
            return ExitCode::from(2);
        }
    }
    let arch = match start
        .as_ref()
        .map_or_else(|| architecture(args), |n| Ok(n.arch))
    {
        Ok(arch) => arch,
        Err(why) => {
            eprintln!("train: {why}");
            return ExitCode::from(2);
        }
    };
    let Some(Samples {
        mut train,
        test,
        games: game,
        positions,
        positional_loss,
    }) = read_samples(args)
    else {
        return ExitCode::from(2);
    };
    if train.len() < args.batch.max(1) {
        eprintln!(
            "train: {} training positions, fewer than one batch ({})",
            train.len(),
            args.batch
        );
        return ExitCode::from(2);
    }
    eprintln!(
        "train: {} training and {} held-out positions ({game} games) read in {:.0} s; {} king buckets x {INPUTS} -> {}x2 -> {} output buckets, lambda {}, batch {}, {} threads",
        train.len(),
        test.len(),
        started.elapsed().as_secs_f64(),
        arch.king_buckets,
        arch.hidden,
        arch.output_buckets,
        args.lambda,
        args.batch,
        args.threads
    );
    eprintln!(
        "train: held-out loss of the positional evaluation {:.6}",
        positional_loss / test.len().max(1) as f64
    );
    let (network, kept) = train_network(&mut train, &test, args, arch, start, &mut |line| {
        eprintln!("{line}")
    });
    let quantised = quantise(&network);
    if let Err(error) = std::fs::write(&args.output, quantised.to_bytes()) {
        eprintln!("train: cannot write {}: {error}", args.output.display());
        return ExitCode::from(1);
    }
    let run = record::Run {
        args,
        positions,
        held_out: test.len() as u64,
        games: game as u64,
        kept,
        start: init.as_ref().map(Network::checksum),
        checksum: quantised.checksum(),
    };
    let text = serde_json::to_string_pretty(&record::to_json(&run)).unwrap_or_default();
    if let Err(error) = std::fs::write(record::sidecar(&args.output), text + "\n") {
        eprintln!("train: cannot write the training record: {error}");
        return ExitCode::from(1);
    }
    eprintln!(
        "train: network written to {} ({} bytes) after {:.0} s",
        args.output.display(),
        brudno_engine::eval::nnue::network::file_bytes(&arch),
        started.elapsed().as_secs_f64()
    );
    ExitCode::SUCCESS
}

/// Trains a network of shape `arch` on `train` from `start` (random weights when `None`),
/// reporting the losses after every epoch through `report`; returns the network of the
/// epoch with the lowest loss on `test` (the last epoch's when `test` is empty), with that
/// epoch and its loss.
fn train_network(
    train: &mut [Sample],
    test: &[Sample],
    args: &TrainArgs,
    arch: Architecture,
    start: Option<FloatNetwork>,
    report: &mut dyn FnMut(&str),
) -> (FloatNetwork, (usize, f32)) {
    let threads = args.threads.max(1);
    let mut network = start.unwrap_or_else(|| FloatNetwork::random(arch, args.seed));
    let mut adam = Adam {
        m: FloatNetwork::zeros(arch),
        v: FloatNetwork::zeros(arch),
        step: 0,
    };
    let mut grads: Vec<FloatNetwork> = (0..threads).map(|_| FloatNetwork::zeros(arch)).collect();
    let batch = args.batch.max(1);
    let schedule = Schedule {
        shape: args.schedule,
        peak: args.learning_rate,
        decay: args.decay,
        warmup_epochs: args.warmup,
        final_share: args.final_rate,
        epochs: args.epochs,
        steps_per_epoch: train.len().div_ceil(batch),
    };
    let mut step = 0;
    let mut rate = schedule.rate(0);
    let mut state = splitmix64(args.seed ^ 0x7261_696e);
    // Early stopping: the network of the epoch with the lowest held-out loss is returned.
    let mut best: Option<(f32, usize, FloatNetwork)> = None;
    for epoch in 1..=args.epochs {
        let epoch_started = Instant::now();
        // Fisher-Yates shuffle.
        for i in (1..train.len()).rev() {
            state = splitmix64(state);
            train.swap(i, (state % (i as u64 + 1)) as usize);
        }
        let mut loss_sum = 0f64;
        for chunk in train.chunks(batch) {
            rate = schedule.rate(step);
            step += 1;
            let part = chunk.len().div_ceil(threads);
            let losses: Vec<f64> = std::thread::scope(|scope| {
                let network = &network;
                let handles: Vec<_> = grads
                    .iter_mut()
                    .zip(chunk.chunks(part))
                    .map(|(grad, samples)| {
                        scope.spawn(move || {
                            grad.clear();
                            samples
                                .iter()
                                .map(|s| f64::from(network.backward(s, grad)))
                                .sum::<f64>()
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap_or(0.0))
                    .collect()
            });
            loss_sum += losses.iter().sum::<f64>();
            let used = chunk.len().div_ceil(part);
            let (first, rest) = grads.split_at_mut(1);
            for other in rest.iter().take(used - 1) {
                first[0].add(other);
            }
            adam.update(&mut network, &mut first[0], rate, chunk.len() as f32);
        }
        let train_loss = loss_sum / train.len() as f64;
        let test_loss = mean_loss(&network, test, threads);
        report(&format!(
            "epoch {epoch:>3}: train loss {train_loss:.6}, held-out loss {test_loss:.6}, rate {rate:.6}, {:.0} s",
            epoch_started.elapsed().as_secs_f64()
        ));
        if best.as_ref().is_none_or(|(loss, _, _)| test_loss < *loss) || test.is_empty() {
            best = Some((test_loss, epoch, network.clone()));
        }
    }
    match best {
        Some((loss, epoch, best)) => {
            report(&format!(
                "the network of epoch {epoch} is kept (lowest held-out loss, {loss:.6})"
            ));
            (best, (epoch, loss))
        }
        None => (network, (0, f32::NAN)),
    }
}

mod quantise;
pub mod record;
mod samples;
pub mod schedule;

pub use quantise::quantise;
pub use samples::in_share;
use samples::{Samples, read_samples};
use schedule::{Schedule, Shape};
#[cfg(test)]
mod tests;
