//! Brudno's viriformat is the field's: files Brudno writes are read by the `viriformat` crate
//! (Viridithas's own reader, the format's definition) game by game and move by move, with the
//! same start positions, moves, scores and results. Hand-made games cover castling rights on
//! both wings, en passant, every promotion and Chess960 castling; a datagen run covers what
//! self-play produces.

use std::io::BufReader;

use ::viriformat::chess::chessmove::Move as TheirMove;
use ::viriformat::dataformat::{Game as TheirGame, WDL};
use brudno::position::Position;
use brudno::tools::viriformat::{self, encode_move};

use crate::common;

fn game(fen: &str, chess960: bool, moves: &[&str], result: u8) -> viriformat::Game {
    let start = Position::from_fen(fen, chess960).unwrap();
    let mut position = start.clone();
    let moves = moves
        .iter()
        .enumerate()
        .map(|(i, text)| (position.play_uci(text).unwrap(), 250 - 61 * i as i16))
        .collect();
    viriformat::Game {
        start,
        result,
        moves,
    }
}

/// The FEN fields both sides write alike: the board, the side to move, the castling rights
/// (standard chess only: viriformat prints KQkq for Chess960 too) and the half-move clock.
fn comparable(fen: &str, castling: bool) -> String {
    let fields: Vec<&str> = fen.split(' ').collect();
    let rights = if castling { fields[2] } else { "" };
    format!("{} {} {} {}", fields[0], fields[1], rights, fields[4])
}

/// Reads `ours` (written by Brudno) with the viriformat crate and compares it game by game.
fn read_with_viriformat(ours: &[viriformat::Game], chess960: bool) {
    let mut bytes = Vec::new();
    for game in ours {
        game.write_to(&mut bytes);
    }
    let mut reader = BufReader::new(bytes.as_slice());
    for game in ours {
        let theirs = TheirGame::deserialise_from(&mut reader, Vec::new()).unwrap();
        assert_eq!(theirs.len(), game.moves.len());
        let expected = match game.result {
            0 => WDL::Loss,
            1 => WDL::Draw,
            _ => WDL::Win,
        };
        assert_eq!(theirs.outcome(), expected);
        let their_moves: Vec<TheirMove> = theirs.moves().collect();
        let mut their_scores = Vec::new();
        let mut their_boards = Vec::new();
        theirs.visit_positions(|board, score| {
            their_scores.push(score);
            their_boards.push(board.to_string());
        });
        let mut position = game.start.clone();
        for (index, &(m, score)) in game.moves.iter().enumerate() {
            assert_eq!(
                TheirMove::from_raw(encode_move(m)),
                Some(their_moves[index]),
                "move {index} of {}",
                game.start.fen()
            );
            assert_eq!(their_scores[index], i32::from(score));
            assert_eq!(
                comparable(&their_boards[index], !chess960),
                comparable(&position.fen(), !chess960),
                "before move {index}"
            );
            position.play_in_place(m);
        }
    }
    let mut rest = Vec::new();
    std::io::Read::read_to_end(&mut reader, &mut rest).unwrap();
    assert!(rest.is_empty(), "every byte read as a game");
}

#[test]
fn hand_made_games_read_the_same_in_the_viriformat_crate() {
    read_with_viriformat(
        &[
            // Castling on both wings; en passant.
            game(
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                false,
                &["a2a4", "b4a3", "e1c1", "e8g8", "d5e6", "a3b2", "c1b1"],
                2,
            ),
            // Every promotion, for both colours.
            game(
                "8/1P4P1/8/8/3k4/7K/1p4p1/8 w - - 0 1",
                false,
                &[
                    "b7b8q", "b2b1r", "g7g8n", "g2g1b", "b8b5", "d4e4", "g8f6", "e4f3",
                ],
                0,
            ),
            game(&Position::default().fen(), false, &[], 1),
            game(
                "4k3/8/8/8/8/8/4P3/4K2R w K - 0 1",
                false,
                &["e1g1", "e8d7"],
                1,
            ),
        ],
        false,
    );
    // Chess960: king on b1 between rooks on a1 and g1; queenside castling is king takes rook
    // onto the neighbouring square, kingside across four.
    read_with_viriformat(
        &[game(
            "rk4r1/pppppppp/8/8/8/8/PPPPPPPP/RK4R1 w GAga - 0 1",
            true,
            &["b1a1", "b8g8", "c1b1"],
            1,
        )],
        true,
    );
}

#[test]
fn a_datagen_run_reads_the_same_in_the_viriformat_crate() {
    let path = std::env::temp_dir().join(format!("brudno-virireader-{}.vf", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let (status, _, stderr) = common::run_brudno(&[
        "datagen",
        "--output",
        path.to_str().unwrap(),
        "--moves",
        "600",
        "--nodes",
        "300",
        "--hard-nodes",
        "3000",
        "--seed",
        "17",
        "--eval",
        "positional",
        "--quiet",
    ]);
    assert!(status.success(), "{stderr}");
    let bytes = std::fs::read(&path).unwrap();
    let ours = viriformat::read_all(&bytes, &mut |i, why| panic!("game {i}: {why}"));
    assert!(ours.len() >= 2);
    read_with_viriformat(&ours, false);
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_file(path.with_extension("vf.progress"));
    let _ = std::fs::remove_file(path.with_extension("vf.json"));
}
