//! Tests of the trainer: the inputs of both perspectives, mirroring, quantisation against
//! the float reference, and a loss that falls.

use super::*;
use crate::eval::nnue::Accumulator;

#[test]
fn black_features_are_the_mirror_of_white_ones() {
    let pos = Position::from_fen(
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 2 3",
        false,
    )
    .unwrap();
    let board = pos.board();
    for square in board.occupied() {
        let piece = board.piece_at(square).unwrap();
        assert_eq!(
            flip(feature(Color::White, piece, square)),
            feature(Color::Black, piece, square)
        );
    }
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
    let (us, them, n) = sample.perspectives();
    let (mus, mthem, _) = sample.mirrored().perspectives();
    assert_ne!(
        network.forward(&us[..n], &them[..n], 0).0,
        network.forward(&mus[..n], &mthem[..n], 0).0
    );
}

/// The quantised network gives the float network's evaluation within 3% of the value
/// plus 8 centipawns (the rounding of 200,000 weights), on varied positions, for the
/// plain shape and for a narrow one with eight output buckets.
#[test]
fn quantised_inference_matches_the_float_reference() {
    let bucketed = Architecture {
        output_buckets: 8,
        ..Architecture::plain(32)
    };
    for arch in [Architecture::plain(256), bucketed] {
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
    let mut train: Vec<Sample> = fens
        .iter()
        .map(|(fen, result)| Sample::new(&Position::from_fen(fen, false).unwrap(), 0, *result, 1.0))
        .collect();
    let args = TrainArgs {
        data: Vec::new(),
        output: PathBuf::new(),
        epochs: 30,
        batch: 4,
        learning_rate: 0.01,
        decay: 1.0,
        lambda: 1.0,
        threads: 2,
        seed: 5,
        mirror: false,
        hidden: 64,
        output_buckets: 2,
    };
    let arch = architecture(&args).unwrap();
    let before = mean_loss(&FloatNetwork::random(arch, args.seed), &train, 1);
    let mut lines = Vec::new();
    let network = train_network(&mut train, &[], &args, &mut |l| lines.push(l.to_string()));
    let after = mean_loss(&network, &train, 1);
    assert!(after < before / 4.0, "loss {before} -> {after}");
    assert_eq!(lines.len(), 31);
    assert!(
        lines[30].starts_with("the network of epoch 30 is kept"),
        "{}",
        lines[30]
    );
    // White with the queen is winning from both sides' point of view.
    let queen_up = Position::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", false).unwrap();
    assert!(network.evaluate(&queen_up) > 100.0);
}
