//! Endgames (`eval::endgame`): the bare king is mated with queen, rook, two bishops, and bishop
//! and knight, within the 50-move rule and a node budget per move, and the plain draws are
//! recognised by the evaluation.
//!
//! The mates are played out move by move with the library search at a fixed node count per
//! move. The defender is perfect play from the Syzygy tables in `../shared/syzygy` (the
//! longest resistance, as in `tests/syzygy.rs`), or the engine itself where the tables are
//! missing; the tables also confirm that each start is won and each draw a draw. Every
//! evaluation claim is checked on the position and on its colour-flipped mirror.

use crate::common;

use std::path::{Path, PathBuf};

use brudno::eval::Evaluation;
use brudno::eval::endgame::KNOWN_WIN;
use brudno::position::Position;
use brudno::search::score::{MATE, MATE_BOUND};
use brudno::search::tt::TranspositionTable;
use brudno::search::{Limits, Search, SearchConfig, SearchControl};
use shakmaty::{Board, Chess, Color, Piece};
use shakmaty_syzygy::{AmbiguousWdl, Tablebase};

/// Nodes per move of the engine with queen or rook: a few milliseconds, too few to see the
/// mate without the mop-up evaluation.
const FEW_NODES: u64 = 2_000;

/// Nodes per move of the engine with two bishops or bishop and knight (a few tens of
/// milliseconds).
const NODES: u64 = 40_000;

/// The test tables, if they are there.
fn tables_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/syzygy");
    if dir.join("KBNvK.rtbw").is_file() {
        Some(dir)
    } else {
        eprintln!(
            "note: {} not found, the engine defends itself",
            dir.display()
        );
        None
    }
}

fn tables() -> Option<Tablebase<Chess>> {
    let dir = tables_dir()?;
    let mut tables = Tablebase::new();
    tables.add_directory(&dir).expect("read the test tables");
    Some(tables)
}

/// `fen` with the board flipped top to bottom and the colours swapped.
fn mirror(fen: &str) -> String {
    let pos = Position::from_fen(fen, false).unwrap();
    let mut flipped = Board::empty();
    for (square, piece) in pos.board().clone() {
        flipped.set_piece_at(
            square.flip_vertical(),
            Piece {
                color: !piece.color,
                role: piece.role,
            },
        );
    }
    let turn = if pos.turn() == Color::White { "b" } else { "w" };
    format!("{} {turn} - - 0 1", flipped.board_fen())
}

/// The evaluation of `fen` from the side to move, the same for its mirror.
fn eval_of(evaluation: Evaluation, fen: &str) -> i32 {
    let value = evaluation.evaluate(&Position::from_fen(fen, false).unwrap());
    let mirrored = evaluation.evaluate(&Position::from_fen(&mirror(fen), false).unwrap());
    assert_eq!(value, mirrored, "{fen} and its mirror {}", mirror(fen));
    value
}

/// The tables' verdict on `fen` for the side to move (skipped without tables).
fn assert_wdl(fen: &str, expected: AmbiguousWdl) {
    if let Some(tables) = tables() {
        let pos = Position::from_fen(fen, false).unwrap();
        assert_eq!(tables.probe_wdl(pos.chess()).unwrap(), expected, "{fen}");
    }
}

/// Plays `fen` (the defender to move) out: the engine at `nodes` per move for the strong
/// side, perfect defence from the tables (or the engine) for the bare king. Asserts that the
/// engine mates within `max_plies` and before the 50-move rule, announces the mate on the
/// way, and keeps each announced distance. Returns the plies to mate. `max_plies` is the
/// budget against the tables' defence; without the tables the engine defends, which leads the
/// attacker down other (not shorter) lines, and the budget doubles (the 50-move rule still
/// holds).
fn assert_mates(fen: &str, nodes: u64, max_plies: usize) -> usize {
    let tables = tables();
    let max_plies = if tables.is_some() {
        max_plies
    } else {
        2 * max_plies
    };
    let mut pos = Position::from_fen(fen, false).unwrap();
    let strong = !pos.turn();
    let config = SearchConfig::default();
    let tt = TranspositionTable::new(16);
    let mut history: Vec<u64> = Vec::new();
    let mut moves: Vec<String> = Vec::new();
    // The ply by which the first announced mate was due.
    let mut mate_due: Option<usize> = None;
    if let Some(tables) = &tables {
        assert_eq!(
            tables.probe_wdl(pos.chess()).unwrap(),
            AmbiguousWdl::Loss,
            "{fen}"
        );
    }
    for ply in 0.. {
        let line = || format!("{fen} moves {}", moves.join(" "));
        if pos.legal_moves().is_empty() {
            assert!(
                pos.is_check() && pos.turn() != strong,
                "stalemate: {}",
                line()
            );
            assert!(mate_due.is_some(), "mate never announced: {}", line());
            return ply;
        }
        assert!(pos.halfmoves() < 100, "50-move rule: {}", line());
        assert!(ply < max_plies, "no mate in {max_plies} plies: {}", line());
        assert!(!pos.is_insufficient_material(), "material lost: {}", line());
        let mv = match (&tables, pos.turn() == strong) {
            (Some(tables), false) => tables.best_move(pos.chess()).unwrap().unwrap().0,
            _ => {
                let control = SearchControl::default();
                control.begin(false);
                let limits = Limits {
                    nodes: Some(nodes),
                    ..Limits::default()
                };
                let result = Search {
                    position: &pos,
                    history: &history,
                    limits: &limits,
                    config: &config,
                    tt: &tt,
                    control: &control,
                    histories: None,
                }
                .run(&mut |_| {});
                if pos.turn() == strong && result.score >= MATE_BOUND {
                    let due = ply + (MATE - result.score) as usize;
                    mate_due = Some(mate_due.map_or(due, |d| d.min(due)));
                }
                result.best_move.expect("a legal move")
            }
        };
        if let Some(due) = mate_due {
            assert!(ply < due, "announced mate by ply {due} missed: {}", line());
        }
        history.push(pos.key());
        moves.push(Position::uci(mv, pos.castling_mode()));
        pos.play_in_place(mv);
    }
    unreachable!()
}

/// Each `(fen, optimum)`: mated within `slack` plies of the optimum (the tables' DTZ, which
/// is the distance to mate here) at `nodes` per move.
fn assert_all_mate(starts: &[(&str, usize)], nodes: u64, slack: usize) {
    for &(fen, optimum) in starts {
        let plies = assert_mates(fen, nodes, optimum + slack);
        println!("{fen}: mate in {plies} plies (optimum {optimum})");
    }
}

#[test]
fn queen_mates_the_bare_king() {
    assert_all_mate(
        &[
            ("8/8/8/3k4/8/8/8/K6Q b - - 0 1", 18),
            ("7Q/8/8/8/4k3/8/8/K7 b - - 0 1", 18),
            ("8/8/8/8/3K4/8/5k2/q7 w - - 0 1", 16),
        ],
        FEW_NODES,
        10,
    );
}

#[test]
fn rook_mates_the_bare_king() {
    assert_all_mate(
        &[
            ("8/8/8/3k4/8/8/8/K6R b - - 0 1", 30),
            ("R7/8/8/4k3/8/8/8/7K b - - 0 1", 32),
            ("8/8/8/2K5/8/4k3/8/r7 w - - 0 1", 24),
        ],
        FEW_NODES,
        10,
    );
}

#[test]
fn two_bishops_mate_the_bare_king() {
    assert_all_mate(
        &[
            ("8/8/8/3k4/8/8/8/KBB5 b - - 0 1", 33),
            ("8/8/8/8/4k3/8/8/B1K2B2 b - - 0 1", 31),
            ("b2b4/8/8/8/3k4/8/8/7K w - - 0 1", 17),
        ],
        NODES,
        20,
    );
}

#[test]
fn bishop_and_knight_mate_in_the_right_corner() {
    // Within the 50-move rule, whatever the optimum.
    assert_all_mate(
        &[
            // The dark-squared bishop mates in a1 or h8; the king starts in the centre.
            ("8/8/8/4k3/8/8/8/2B1KN2 b - - 0 1", 57),
            // The king in a wrong corner (a8 with a dark-squared bishop) must be driven across.
            ("k7/8/2K5/8/8/8/8/2B3N1 b - - 0 1", 45),
            // Black's light-squared bishop mates in a8 or h1; White's king in h8, wrong for it.
            ("7K/8/8/5k2/8/8/8/3b2n1 w - - 0 1", 47),
        ],
        NODES,
        100,
    );
}

#[test]
fn mate_scores_are_found_within_a_node_budget() {
    // Mates in 6 or 7 moves (11 to 13 plies by the tables' DTZ), within the horizon of one
    // search of 400,000 nodes (without the mop-up, the two bishops' needs more).
    for fen in [
        "8/1Q6/8/8/5k2/3K4/8/8 w - - 0 1",
        "8/8/3R4/8/8/3K4/8/5k2 w - - 0 1",
        "8/8/8/5K2/8/3B2Bk/8/8 w - - 0 1",
        "8/B3N3/8/8/8/3K4/8/k7 w - - 0 1",
    ] {
        let pos = Position::from_fen(fen, false).unwrap();
        let limits = Limits {
            nodes: Some(400_000),
            ..Limits::default()
        };
        let result = common::search_with(&pos, &[], &SearchConfig::default(), &limits);
        assert!(
            result.score >= MATE_BOUND,
            "{fen}: score {} at depth {}",
            result.score,
            result.depth
        );
    }
}

#[test]
fn a_bare_king_against_mating_material_is_a_known_win() {
    for fen in [
        "8/8/8/3k4/8/8/7Q/K7 w - - 0 1",
        "8/8/8/3k4/8/8/8/K6R w - - 0 1",
        "8/8/8/3k4/8/8/8/KBB5 w - - 0 1",
        "8/8/8/3k4/8/8/8/KBN5 w - - 0 1",
    ] {
        for evaluation in [Evaluation::Positional, Evaluation::Nnue] {
            let value = eval_of(evaluation, fen);
            assert!(value > KNOWN_WIN, "{fen}: {value}");
            assert!(value < MATE_BOUND - 1000, "{fen}: {value}");
        }
    }
    // The edge is better than the centre, and with bishop and knight the right corner (a1
    // or h8 for a dark-squared bishop) better than the wrong one.
    let centre = eval_of(Evaluation::Positional, "8/8/8/3k4/8/8/8/K6R w - - 0 1");
    let edge = eval_of(Evaluation::Positional, "3k4/8/8/8/8/8/8/K6R w - - 0 1");
    assert!(edge > centre, "{edge} {centre}");
    let right = eval_of(Evaluation::Positional, "7k/8/5K2/8/8/8/8/2B3N1 w - - 0 1");
    let wrong = eval_of(Evaluation::Positional, "k7/8/2K5/8/8/8/8/2B3N1 w - - 0 1");
    assert!(right > wrong + 500, "{right} {wrong}");
}

#[test]
fn no_mating_material_is_a_draw() {
    for fen in [
        "8/8/3k4/8/8/3K4/8/4N3 w - - 0 1",
        "8/8/3k4/8/8/3K4/8/4B3 w - - 0 1",
        "8/8/3k4/8/8/3K4/8/3NN3 w - - 0 1",
        "8/8/3k4/8/8/3K4/8/3NN3 b - - 0 1",
        // A minor piece against a minor piece.
        "8/8/3k1b2/8/8/3K4/8/3N4 w - - 0 1",
        "8/8/3k1n2/8/8/3KB3/8/8 b - - 0 1",
    ] {
        assert_wdl(fen, AmbiguousWdl::Draw);
        for evaluation in [Evaluation::Positional, Evaluation::Nnue] {
            let value = eval_of(evaluation, fen);
            assert!(value.abs() <= 5, "{} {fen}: {value}", evaluation.name());
        }
    }
}

#[test]
fn a_rook_against_a_minor_piece_is_nearly_a_draw() {
    for fen in [
        "8/8/3k1b2/8/8/3K4/8/3R4 w - - 0 1",
        "8/8/3k1n2/8/8/3K4/8/3R4 w - - 0 1",
    ] {
        assert_wdl(fen, AmbiguousWdl::Draw);
        let value = eval_of(Evaluation::Positional, fen);
        assert!((0..=30).contains(&value), "{fen}: {value}");
    }
}

#[test]
fn the_wrong_bishop_with_a_rook_pawn_is_a_draw() {
    // The a8 and h1 corners are light; a dark-squared bishop cannot drive the king out.
    for fen in [
        "k7/8/P7/8/8/4K3/8/2B5 w - - 0 1",
        "8/k7/8/P7/8/8/1K6/6B1 b - - 0 1",
        "1b6/8/4k3/8/7p/8/8/7K w - - 0 1",
    ] {
        assert_wdl(fen, AmbiguousWdl::Draw);
        for evaluation in [Evaluation::Positional, Evaluation::Nnue] {
            let value = eval_of(evaluation, fen);
            assert_eq!(value, 0, "{} {fen}", evaluation.name());
        }
    }
    // The right bishop wins, and so does the wrong one while the king is far from the corner.
    for fen in [
        "k7/8/P7/8/8/4K3/8/5B2 w - - 0 1",
        "8/8/8/P7/6k1/1K6/8/2B5 w - - 0 1",
    ] {
        assert_wdl(fen, AmbiguousWdl::Win);
        let value = eval_of(Evaluation::Positional, fen);
        assert!(value > 200, "{fen}: {value}");
    }
}

#[test]
fn opposite_coloured_bishops_are_scaled_down() {
    // The same position with Black's bishop on a light square (opposite) and on a dark one.
    for (opposite, same) in [
        (
            "8/4kp2/3b4/6P1/5P2/3B4/5K2/8 w - - 0 1",
            "8/4kp2/4b3/6P1/5P2/3B4/5K2/8 w - - 0 1",
        ),
        (
            "8/5k2/4b3/1p3P2/1P6/2B1K3/8/8 b - - 0 1",
            "8/5k2/5b2/1p3P2/1P6/2B1K3/8/8 b - - 0 1",
        ),
    ] {
        let scaled = eval_of(Evaluation::Positional, opposite);
        let plain = eval_of(Evaluation::Positional, same);
        assert!(
            scaled.abs() * 2 <= plain.abs() && plain.abs() >= 40,
            "{opposite}: {scaled}, {same}: {plain}"
        );
    }
}
