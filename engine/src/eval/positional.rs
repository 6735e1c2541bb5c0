//! The positional evaluation: tapered material and piece-square tables, mobility, pawn
//! structure, bishop pair, rooks on open files, king shelter and king attacks.
//!
//! Every term is a weight (a middlegame/endgame pair: the type in `weights.rs`, the values in
//! `params.rs`) times a count, summed
//! for White minus Black and blended by game phase. The same code records, on request, which
//! weights it used and how often (a `Trace`), which is what the Texel tuner needs; with
//! `NoTrace` the recording compiles away. The evaluation reads the board only: it knows
//! nothing of legality, repetition or mate.

use shakmaty::attacks::{
    bishop_attacks, king_attacks, knight_attacks, queen_attacks, rook_attacks,
};
use shakmaty::{Bitboard, Board, Color, Role};

use super::Value;
use super::pawn_cache::PawnCache;
use super::weights::{S, Weights, index};

/// Records which weights an evaluation used: `add(index, count)` with White's uses positive
/// and Black's negative.
pub trait Trace {
    /// Notes that weight `index` was used `count` times (negative for Black).
    fn add(&mut self, index: usize, count: i32);
    /// Notes the game phase (0 = bare kings, 24 = all pieces).
    fn phase(&mut self, phase: i32);
}

/// The trace that records nothing (the engine's evaluation).
pub struct NoTrace;

impl Trace for NoTrace {
    #[inline(always)]
    fn add(&mut self, _: usize, _: i32) {}
    #[inline(always)]
    fn phase(&mut self, _: i32) {}
}

/// Total phase weight of the starting material: knights and bishops 1, rooks 2, queens 4.
pub const MAX_PHASE: i32 = 24;

const FILE_A: u64 = 0x0101_0101_0101_0101;

/// Mask of the files adjacent to each file.
const ADJACENT_FILES: [u64; 8] = {
    let mut masks = [0u64; 8];
    let mut file = 0;
    while file < 8 {
        let mut mask = 0;
        if file > 0 {
            mask |= FILE_A << (file - 1);
        }
        if file < 7 {
            mask |= FILE_A << (file + 1);
        }
        masks[file] = mask;
        file += 1;
    }
    masks
};

/// Squares in front of a pawn on its own and adjacent files, for each colour and square:
/// a pawn is passed when no enemy pawn stands there.
const PASSED_SPAN: [[u64; 64]; 2] = {
    let mut spans = [[0u64; 64]; 2];
    let mut square = 0;
    while square < 64 {
        let file = square % 8;
        let rank = square / 8;
        let files = (FILE_A << file) | ADJACENT_FILES[file];
        // White: ranks above; Black: ranks below.
        let above = if rank == 7 {
            0
        } else {
            !0u64 << ((rank + 1) * 8)
        };
        let below = if rank == 0 {
            0
        } else {
            !0u64 >> ((8 - rank) * 8)
        };
        spans[0][square] = files & above;
        spans[1][square] = files & below;
        square += 1;
    }
    spans
};

#[derive(Default)]
struct Accumulator {
    mg: i32,
    eg: i32,
}

impl Accumulator {
    #[inline(always)]
    fn add<T: Trace>(&mut self, trace: &mut T, weight: S, index: usize, count: i32) {
        self.mg += weight.0 * count;
        self.eg += weight.1 * count;
        trace.add(index, count);
    }
}

/// Evaluates from the side to move's point of view.
#[inline]
pub fn evaluate(board: &Board, turn: Color, weights: &Weights) -> Value {
    evaluate_traced(board, turn, weights, &mut NoTrace)
}

/// Evaluates from the side to move's point of view, recording the weights used in `trace`.
/// This is the reference: the search's `evaluate_incremental` must give the same value.
pub fn evaluate_traced<T: Trace>(
    board: &Board,
    turn: Color,
    weights: &Weights,
    trace: &mut T,
) -> Value {
    let mut acc = Accumulator::default();
    add_placement(board, weights, trace, &mut acc);
    add_pawn_structure(
        board.pawns() & board.white(),
        board.pawns() & board.black(),
        weights,
        trace,
        &mut acc,
    );
    add_activity(board, weights, trace, &mut acc);
    blend(acc, turn, game_phase(board), weights, trace)
}

/// The material and piece-square part of an evaluation, White minus Black, with the game
/// phase: what one move changes by a few table entries, so the search keeps it up to date
/// move by move (`eval::incremental`) instead of summing it at every evaluation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Placement {
    /// Middlegame centipawns.
    pub mg: i32,
    /// Endgame centipawns.
    pub eg: i32,
    /// Phase weight of the pieces (knights and bishops 1, rooks 2, queens 4), not capped at
    /// `MAX_PHASE` (promotions can pass it).
    pub phase: i32,
}

/// The placement of `board`, summed from scratch (the reference for the incremental one).
pub fn placement(board: &Board, weights: &Weights) -> Placement {
    let mut acc = Accumulator::default();
    add_placement(board, weights, &mut NoTrace, &mut acc);
    Placement {
        mg: acc.mg,
        eg: acc.eg,
        phase: phase_weight(board),
    }
}

/// The pawn-structure terms (passed, doubled and isolated pawns), White minus Black: they
/// depend on the pawns alone, so the search keeps them in a cache keyed by the pawns.
pub fn pawn_structure(white_pawns: Bitboard, black_pawns: Bitboard, weights: &Weights) -> S {
    let mut acc = Accumulator::default();
    add_pawn_structure(white_pawns, black_pawns, weights, &mut NoTrace, &mut acc);
    S(acc.mg, acc.eg)
}

/// The same value as `evaluate`, from the parts the search keeps: `placement` of the board
/// (kept move by move) and the pawn-structure terms from `pawns`, which computes them on a
/// miss. Only the terms that depend on the whole board are computed here. Always inlined, so
/// that a caller compiled for more instructions (`popcnt`) compiles it with them.
#[inline(always)]
pub fn evaluate_incremental(
    board: &Board,
    turn: Color,
    weights: &Weights,
    placement: Placement,
    pawns: &mut PawnCache,
) -> Value {
    let white_pawns = board.pawns() & board.white();
    let black_pawns = board.pawns() & board.black();
    let structure = pawns.get_or_insert_with(white_pawns, black_pawns, || {
        pawn_structure(white_pawns, black_pawns, weights)
    });
    let mut acc = Accumulator {
        mg: placement.mg + structure.0,
        eg: placement.eg + structure.1,
    };
    add_activity(board, weights, &mut NoTrace, &mut acc);
    blend(
        acc,
        turn,
        placement.phase.min(MAX_PHASE),
        weights,
        &mut NoTrace,
    )
}

/// Adds material and the piece-square tables of every piece.
#[inline(always)]
fn add_placement<T: Trace>(board: &Board, weights: &Weights, trace: &mut T, acc: &mut Accumulator) {
    for color in Color::ALL {
        let sign = if color == Color::White { 1 } else { -1 };
        let us = board.by_color(color);
        let flip = if color == Color::White { 56 } else { 0 };
        for (role_index, role) in [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
        ]
        .into_iter()
        .enumerate()
        {
            let pieces = board.by_role(role) & us;
            if pieces.is_empty() {
                continue;
            }
            acc.add(
                trace,
                weights.material[role_index],
                index::MATERIAL + role_index,
                sign * pieces.count() as i32,
            );
            for square in pieces {
                let table_square = square as usize ^ flip;
                acc.add(
                    trace,
                    weights.pst[role_index][table_square],
                    index::PST + role_index * 64 + table_square,
                    sign,
                );
            }
        }
        if let Some(king) = board.king_of(color) {
            let table_square = king as usize ^ flip;
            acc.add(
                trace,
                weights.pst[5][table_square],
                index::PST + 5 * 64 + table_square,
                sign,
            );
        }
    }
}

/// Adds passed, doubled and isolated pawns.
#[inline(always)]
fn add_pawn_structure<T: Trace>(
    white_pawns: Bitboard,
    black_pawns: Bitboard,
    weights: &Weights,
    trace: &mut T,
    acc: &mut Accumulator,
) {
    for color in Color::ALL {
        let sign = if color == Color::White { 1 } else { -1 };
        let (our_pawns, their_pawns) = if color == Color::White {
            (white_pawns, black_pawns)
        } else {
            (black_pawns, white_pawns)
        };
        let color_index = color as usize ^ 1; // shakmaty: Black = 0, White = 1.
        for square in our_pawns {
            if their_pawns.0 & PASSED_SPAN[color_index][square as usize] == 0 {
                let rank = color.relative_rank(square.rank()) as usize;
                acc.add(
                    trace,
                    weights.passed_pawn[rank],
                    index::PASSED_PAWN + rank,
                    sign,
                );
            }
        }
        let files = occupied_files(our_pawns.0);
        let doubled = our_pawns.count() as i32 - files.count_ones() as i32;
        if doubled > 0 {
            acc.add(
                trace,
                weights.doubled_pawn,
                index::DOUBLED_PAWN,
                sign * doubled,
            );
        }
        let isolated_files = files & !((files << 1) | (files >> 1));
        if isolated_files != 0 {
            let isolated = (our_pawns.0 & (u64::from(isolated_files) * FILE_A)).count_ones();
            acc.add(
                trace,
                weights.isolated_pawn,
                index::ISOLATED_PAWN,
                sign * isolated as i32,
            );
        }
    }
}

/// Adds the terms that depend on the whole board: mobility, attacks on the enemy king's zone,
/// rooks on open files, the bishop pair and the king's pawn shelter.
#[inline(always)]
fn add_activity<T: Trace>(board: &Board, weights: &Weights, trace: &mut T, acc: &mut Accumulator) {
    let occupied = board.occupied();
    let pawns = board.pawns();
    let white_pawns = pawns & board.white();
    let black_pawns = pawns & board.black();
    let pawn_attacks = [
        pawn_attacks_of(black_pawns, Color::Black),
        pawn_attacks_of(white_pawns, Color::White),
    ];
    for color in Color::ALL {
        let sign = if color == Color::White { 1 } else { -1 };
        let us = board.by_color(color);
        let our_pawns = if color == Color::White {
            white_pawns
        } else {
            black_pawns
        };
        let mobility_area = !(us | pawn_attacks[!color as usize]);
        let their_king_zone = board
            .king_of(!color)
            .map_or(Bitboard(0), |k| king_attacks(k) | Bitboard::from_square(k));

        // Pieces: mobility, attacks on the enemy king's zone, rooks on open files.
        for (slot, role) in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
            .into_iter()
            .enumerate()
        {
            let pieces = board.by_role(role) & us;
            if pieces.is_empty() {
                continue;
            }
            let (mobility_table, mobility_index): (&[S], usize) = match role {
                Role::Knight => (&weights.mobility_knight, index::MOBILITY_KNIGHT),
                Role::Bishop => (&weights.mobility_bishop, index::MOBILITY_BISHOP),
                Role::Rook => (&weights.mobility_rook, index::MOBILITY_ROOK),
                _ => (&weights.mobility_queen, index::MOBILITY_QUEEN),
            };
            let mut zone_hits = 0;
            for square in pieces {
                let attacks = match role {
                    Role::Knight => knight_attacks(square),
                    Role::Bishop => bishop_attacks(square, occupied),
                    Role::Rook => {
                        let file = FILE_A << (square as u32 % 8);
                        if file & pawns.0 == 0 {
                            acc.add(trace, weights.rook_open_file, index::ROOK_OPEN_FILE, sign);
                        } else if file & our_pawns.0 == 0 {
                            acc.add(
                                trace,
                                weights.rook_semi_open_file,
                                index::ROOK_SEMI_OPEN_FILE,
                                sign,
                            );
                        }
                        rook_attacks(square, occupied)
                    }
                    _ => queen_attacks(square, occupied),
                };
                let mobility = (attacks & mobility_area)
                    .count()
                    .min(mobility_table.len() - 1);
                acc.add(
                    trace,
                    mobility_table[mobility],
                    mobility_index + mobility,
                    sign,
                );
                zone_hits += (attacks & their_king_zone).count() as i32;
            }
            if zone_hits > 0 {
                acc.add(
                    trace,
                    weights.king_attack[slot],
                    index::KING_ATTACK + slot,
                    sign * zone_hits,
                );
            }
        }
        if (board.bishops() & us).more_than_one() {
            acc.add(trace, weights.bishop_pair, index::BISHOP_PAIR, sign);
        }

        // King: the pawn shelter one and two ranks ahead on its file and the adjacent ones.
        if let Some(king) = board.king_of(color) {
            let file = king as usize % 8;
            let files = (FILE_A << file) | ADJACENT_FILES[file];
            let rank = king as usize / 8;
            for (distance, slot) in [(1usize, 0usize), (2, 1)] {
                let target_rank = if color == Color::White {
                    rank + distance
                } else {
                    rank.wrapping_sub(distance)
                };
                if target_rank < 8 {
                    let shield =
                        (our_pawns.0 & files & (0xffu64 << (target_rank * 8))).count_ones() as i32;
                    if shield > 0 {
                        acc.add(
                            trace,
                            weights.king_shield[slot],
                            index::KING_SHIELD + slot,
                            sign * shield,
                        );
                    }
                }
            }
        }
    }
}

/// Adds the tempo and blends middlegame and endgame by `phase`, from the side to move.
#[inline(always)]
fn blend<T: Trace>(
    mut acc: Accumulator,
    turn: Color,
    phase: i32,
    weights: &Weights,
    trace: &mut T,
) -> Value {
    let side = if turn == Color::White { 1 } else { -1 };
    acc.add(trace, weights.tempo, index::TEMPO, side);
    trace.phase(phase);
    let white = (acc.mg * phase + acc.eg * (MAX_PHASE - phase)) / MAX_PHASE;
    if turn == Color::White { white } else { -white }
}

/// The files (bit 0 = a-file) on which `pawns` has at least one pawn.
#[inline]
fn occupied_files(pawns: u64) -> u8 {
    let mut x = pawns | (pawns >> 32);
    x |= x >> 16;
    x |= x >> 8;
    x as u8
}

/// Game phase from the remaining pieces: 24 with all pieces, 0 with pawns and kings only.
#[inline]
pub fn game_phase(board: &Board) -> i32 {
    phase_weight(board).min(MAX_PHASE)
}

/// The phase weight of the pieces, uncapped: knights and bishops 1, rooks 2, queens 4.
#[inline]
fn phase_weight(board: &Board) -> i32 {
    let minors = (board.knights() | board.bishops()).count() as i32;
    let rooks = board.rooks().count() as i32;
    let queens = board.queens().count() as i32;
    minors + 2 * rooks + 4 * queens
}

/// Squares attacked by the given pawns of `color`.
#[inline]
fn pawn_attacks_of(pawns: Bitboard, color: Color) -> Bitboard {
    const NOT_A: u64 = !FILE_A;
    const NOT_H: u64 = !(FILE_A << 7);
    let p = pawns.0;
    Bitboard(match color {
        Color::White => ((p & NOT_A) << 7) | ((p & NOT_H) << 9),
        Color::Black => ((p & NOT_A) >> 9) | ((p & NOT_H) >> 7),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::params::WEIGHTS;
    use crate::position::Position;

    fn eval(fen: &str) -> Value {
        let pos = Position::from_fen(fen, false).unwrap();
        evaluate(pos.board(), pos.turn(), &WEIGHTS)
    }

    /// The evaluation of a position and of its colour-flipped mirror must be equal.
    #[test]
    fn symmetric_under_colour_flip() {
        for (fen, mirrored) in [
            (
                "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
                "rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N5/PPPP1PPP/R1BQKBNR w KQkq - 3 3",
            ),
            (
                "8/5pk1/6p1/8/2P5/8/5PPP/6K1 w - - 0 1",
                "6k1/5ppp/8/2p5/8/6P1/5PK1/8 b - - 0 1",
            ),
        ] {
            assert_eq!(eval(fen), eval(mirrored), "{fen}");
        }
    }

    #[test]
    fn sensible_preferences() {
        // A passed pawn on the seventh is worth more than one on the third.
        assert!(eval("4k3/P7/8/8/8/8/8/4K3 w - - 0 1") > eval("4k3/8/8/8/8/P7/8/4K3 w - - 0 1"));
        // A centralised knight beats a knight in the corner.
        assert!(eval("4k3/8/8/3N4/8/8/8/4K3 w - - 0 1") > eval("4k3/8/8/8/8/8/8/N3K3 w - - 0 1"));
        // Material still dominates.
        assert!(eval("4k3/8/8/8/8/8/8/Q3K3 w - - 0 1") > 500);
    }

    #[test]
    fn flat_round_trip() {
        let flat = WEIGHTS.to_flat();
        assert_eq!(flat.len(), index::COUNT);
        assert_eq!(Weights::from_flat(&flat), WEIGHTS);
    }

    struct Recorder(Vec<(usize, i32)>, i32);
    impl Trace for Recorder {
        fn add(&mut self, index: usize, count: i32) {
            self.0.push((index, count));
        }
        fn phase(&mut self, phase: i32) {
            self.1 = phase;
        }
    }

    /// The trace reproduces the evaluation exactly: the tuner's model is the engine's.
    #[test]
    fn trace_reproduces_evaluation() {
        let pos = Position::from_fen(
            "r2q1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 b - - 0 10",
            false,
        )
        .unwrap();
        let mut recorder = Recorder(Vec::new(), 0);
        let value = evaluate_traced(pos.board(), pos.turn(), &WEIGHTS, &mut recorder);
        let flat = WEIGHTS.to_flat();
        let (mut mg, mut eg) = (0, 0);
        for &(i, count) in &recorder.0 {
            mg += flat[i].0 * count;
            eg += flat[i].1 * count;
        }
        let phase = recorder.1;
        let white = (mg * phase + eg * (MAX_PHASE - phase)) / MAX_PHASE;
        assert_eq!(value, -white);
    }
}
