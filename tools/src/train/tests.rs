//! Tests of the trainer: the inputs of both perspectives, mirroring, quantisation against
//! the float reference, and a loss that falls.

use super::*;
use brudno_engine::eval::nnue::Accumulator;

/// Training arguments for the tests: `hidden` neurons, the given buckets, one epoch.
fn test_args(hidden: usize, king_buckets: usize, output_buckets: usize) -> TrainArgs {
    TrainArgs {
        data: Vec::new(),
        output: PathBuf::new(),
        epochs: 1,
        batch: 1,
        learning_rate: 0.01,
        decay: 1.0,
        schedule: super::Shape::Exponential,
        warmup: 1.0,
        final_rate: 0.01,
        lambda: 0.0,
        threads: 1,
        seed: 1,
        mirror: false,
        hidden,
        output_buckets,
        king_buckets,
        init: None,
        games_fraction: 1.0,
    }
}

/// A share of the games holds about that share, every game of a smaller share is in each
/// larger one, the whole keeps every game, and another seed draws other games.
#[test]
fn a_share_of_the_games_is_nested_in_every_larger_share() {
    let games = 0..20_000usize;
    let kept = |fraction: f64, seed: u64| -> Vec<usize> {
        games
            .clone()
            .filter(|&g| in_share(g, seed, fraction))
            .collect()
    };
    assert_eq!(kept(1.0, 1).len(), 20_000);
    let quarter = kept(0.25, 1);
    let half = kept(0.5, 1);
    assert!((4_700..5_300).contains(&quarter.len()), "{}", quarter.len());
    assert!((9_700..10_300).contains(&half.len()), "{}", half.len());
    assert!(quarter.iter().all(|g| half.binary_search(g).is_ok()));
    assert_ne!(kept(0.5, 2), half);
}

/// The trainer's shapes: plain, and four mirrored king buckets with eight output buckets.
fn shapes(hidden: usize) -> [Architecture; 2] {
    [
        architecture(&test_args(hidden, 1, 1)).unwrap(),
        architecture(&test_args(hidden, 4, 8)).unwrap(),
    ]
}

/// The colour-flipped FEN of a position without castling rights or en passant square: the
/// ranks reversed, the colours and the side to move swapped.
fn colour_flipped(fen: &str) -> String {
    let fields: Vec<&str> = fen.split(' ').collect();
    let board: Vec<String> = fields[0]
        .split('/')
        .rev()
        .map(|rank| {
            rank.chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect()
        })
        .collect();
    let turn = if fields[1] == "w" { "b" } else { "w" };
    format!("{} {turn} - - 0 1", board.join("/"))
}

#[test]
fn each_side_sees_the_board_as_the_other_sees_its_colour_flip() {
    for arch in shapes(32) {
        for fen in [
            "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 b - - 0 6",
            "4k3/8/8/8/8/8/8/R3K2R w - - 0 1",
        ] {
            let sample = Sample::new(&Position::from_fen(fen, false).unwrap(), 0, 0.5, 0.0);
            let flipped = colour_flipped(fen);
            let other = Sample::new(&Position::from_fen(&flipped, false).unwrap(), 0, 0.5, 0.0);
            let (us, them, n) = sample.perspectives(&arch);
            let (other_us, other_them, m) = other.perspectives(&arch);
            assert_eq!(n, m);
            let sorted = |v: &[usize]| {
                let mut v = v.to_vec();
                v.sort_unstable();
                v
            };
            assert_eq!(sorted(&us[..n]), sorted(&other_us[..n]), "{arch:?} {fen}");
            assert_eq!(
                sorted(&them[..n]),
                sorted(&other_them[..n]),
                "{arch:?} {fen}"
            );
            assert!(us[..n].iter().all(|&f| f < arch.inputs()));
        }
    }
}

#[test]
fn the_king_decides_the_bucket_and_the_mirroring() {
    let arch = shapes(32)[1];
    // Kings on e1/e8 stand on files e-h: mirrored, back rank's centre (bucket 1); on b1/b8
    // in the corner bucket 0, unmirrored; on f3/f6 in bucket 3, mirrored.
    for (fen, bucket, mirrored) in [
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", 1, true),
        ("1k6/8/8/8/8/8/8/1K6 w - - 0 1", 0, false),
        ("8/8/5k2/8/8/5K2/8/8 w - - 0 1", 3, true),
    ] {
        let sample = Sample::new(&Position::from_fen(fen, false).unwrap(), 0, 0.5, 0.0);
        let (us, _, n) = sample.perspectives(&arch);
        let pos = Position::from_fen(fen, false).unwrap();
        let king = pos.board().king_of(Color::White).unwrap();
        let expected = arch.feature(
            Color::White,
            KingKey {
                bucket,
                mirror: mirrored,
            },
            Piece {
                color: Color::White,
                role: Role::King,
            },
            king,
        );
        assert!(us[..n].contains(&expected), "{fen}: {:?}", &us[..n]);
        assert!(us[..n].iter().all(|f| f / INPUTS == usize::from(bucket)));
    }
    let why = architecture(&test_args(32, 3, 1)).unwrap_err();
    assert!(why.contains("1, 2 or 4"), "{why}");
}

#[test]
fn a_mirrored_sample_is_the_mirrored_position() {
    let fen = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
    let mirror = "8/5p2/4p3/r5PK/k1p3R1/8/1P1P4/8 w - - 0 1";
    let sample = Sample::new(&Position::from_fen(fen, false).unwrap(), 30, 1.0, 0.5);
    let expected = Sample::new(&Position::from_fen(mirror, false).unwrap(), 30, 1.0, 0.5);
    let mut got: Vec<u16> = sample.mirrored().features[..usize::from(sample.count)].to_vec();
    let mut want: Vec<u16> = expected.features[..usize::from(expected.count)].to_vec();
    got.sort_unstable();
    want.sort_unstable();
    assert_eq!(got, want);
    assert_eq!(sample.mirrored().target, expected.target);
    // A random network scores a position and its mirror alike only by chance.
    let network = FloatNetwork::random(Architecture::plain(64), 9);
    let plain = Architecture::plain(64);
    let (us, them, n) = sample.perspectives(&plain);
    let (mus, mthem, _) = sample.mirrored().perspectives(&plain);
    assert_ne!(
        network.forward(&us[..n], &them[..n], 0).0,
        network.forward(&mus[..n], &mthem[..n], 0).0
    );
}

/// The quantised network gives the float network's evaluation within 3% of the value
/// plus 8 centipawns (the rounding of 200,000 weights), on varied positions, for the
/// plain shape, a narrow one with eight output buckets, and one with four king buckets as
/// well (the trainer's inputs are the engine's: the quantised network is evaluated by the
/// engine's own accumulator).
#[test]
fn quantised_inference_matches_the_float_reference() {
    let bucketed = Architecture {
        output_buckets: 8,
        ..Architecture::plain(32)
    };
    for arch in [Architecture::plain(256), bucketed, shapes(32)[1]] {
        let mut float = FloatNetwork::random(arch, 3);
        // Larger, varied output weights and biases so the evaluations spread out.
        for (i, w) in float.w2.iter_mut().enumerate() {
            *w = ((i % 17) as f32 - 8.0) / 20.0;
        }
        for (i, b) in float.b1.iter_mut().enumerate() {
            *b = ((i % 7) as f32) / 10.0;
        }
        for (i, b) in float.b2.iter_mut().enumerate() {
            *b = 0.05 + 0.1 * i as f32;
        }
        let network = quantise(&float);
        assert_eq!(network.arch, arch);
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 2 3",
            "6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1",
        ];
        let mut spread = Vec::new();
        for fen in fens {
            let pos = Position::from_fen(fen, false).unwrap();
            let reference = float.evaluate(&pos);
            let accumulator = Accumulator::refreshed(pos.board(), &network);
            let quantised = network.output(&accumulator, pos.board(), pos.turn()) as f32;
            assert!(
                (quantised - reference).abs() <= 8.0 + 0.03 * reference.abs(),
                "{arch:?}, {fen}: float {reference}, quantised {quantised}"
            );
            spread.push(reference);
        }
        assert!(spread.iter().any(|v| v.abs() > 50.0), "{spread:?}");
    }
}

#[test]
fn training_lowers_the_loss() {
    // Positions where the side with an extra queen wins: a few steps must fit them.
    let fens = [
        ("3qk3/8/8/8/8/8/8/4K3 w - - 0 1", 0.0),
        ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", 1.0),
        ("4k3/8/8/8/8/8/8/3QK3 b - - 0 1", 1.0),
        ("3qk3/8/8/8/8/8/8/4K3 b - - 0 1", 0.0),
    ];
    // The plain shape and four king buckets (the kings stand in different buckets).
    for king_buckets in [1, 4] {
        let mut train: Vec<Sample> = fens
            .iter()
            .map(|(fen, result)| {
                Sample::new(&Position::from_fen(fen, false).unwrap(), 0, *result, 1.0)
            })
            .collect();
        let args = TrainArgs {
            epochs: 30,
            batch: 4,
            lambda: 1.0,
            threads: 2,
            seed: 5,
            ..test_args(64, king_buckets, 2)
        };
        let arch = architecture(&args).unwrap();
        let before = mean_loss(&FloatNetwork::random(arch, args.seed), &train, 1);
        let mut lines = Vec::new();
        let (network, kept) = train_network(&mut train, &[], &args, arch, None, &mut |l| {
            lines.push(l.to_string())
        });
        assert_eq!(kept.0, 30);
        let after = mean_loss(&network, &train, 1);
        assert!(
            after < before / 4.0,
            "{king_buckets}: loss {before} -> {after}"
        );
        assert_eq!(lines.len(), 31);
        assert!(
            lines[30].starts_with("the network of epoch 30 is kept"),
            "{}",
            lines[30]
        );
        // White with the queen is winning from both sides' point of view.
        let queen_up = Position::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", false).unwrap();
        assert!(network.evaluate(&queen_up) > 100.0);
        assert_eq!(quantise(&network).arch.king_buckets, king_buckets);
    }
}

/// A warm start (`--init`) begins where the network it starts from is: its weights come back
/// through `dequantised` and `quantise` unchanged.
#[test]
fn a_warm_start_begins_at_the_network_it_starts_from() {
    for arch in shapes(32) {
        let random = quantise(&FloatNetwork::random(arch, 9));
        assert!(quantise(&FloatNetwork::dequantised(&random)) == random);
    }
}

/// A one-bucket network grown to eight output buckets (`train --init NET --output-buckets
/// 8`) evaluates every position exactly as before, whatever its piece count; a network that
/// already has buckets does not grow.
#[test]
fn a_network_grown_to_output_buckets_evaluates_as_before() {
    let mut float = FloatNetwork::random(Architecture::plain(32), 5);
    for (i, w) in float.w2.iter_mut().enumerate() {
        *w = ((i % 13) as f32 - 6.0) / 20.0;
    }
    float.b2[0] = 0.3;
    let before = quantise(&float);
    let grown = float.clone().with_output_buckets(8).unwrap();
    assert_eq!(grown.arch.output_buckets, 8);
    let after = quantise(&grown);
    let fens = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 2 3",
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1",
        "8/8/4k3/8/8/3K4/6Q1/8 w - - 0 1",
    ];
    let mut values = Vec::new();
    for fen in fens {
        let pos = Position::from_fen(fen, false).unwrap();
        let value = |network: &Network| {
            let accumulator = Accumulator::refreshed(pos.board(), network);
            network.output(&accumulator, pos.board(), pos.turn())
        };
        assert_eq!(value(&before), value(&after), "{fen}");
        values.push(value(&after));
    }
    assert!(values.iter().any(|&v| v != values[0]), "{values:?}");
    assert!(grown.with_output_buckets(4).is_none());
}
