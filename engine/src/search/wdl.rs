//! Win/draw/loss from a score, for `info ... wdl W D L` (`UCI_ShowWDL`): the chances, per
//! mille, that the side to move wins, draws or loses from a position with this score and
//! this much material, as Brudno's own games say.
//!
//! The model is Stockfish's form: P(win) = 1 / (1 + exp((a - s) / b)) and
//! P(loss) = 1 / (1 + exp((a + s) / b)), draw the rest, with `a` (the score that wins half
//! the time) and `b` (how fast the chance grows) quadratic in m = material / 58 (pawn 1,
//! knight and bishop 3, rook 5, queen 9, both sides, clamped to 17..78; 78 at the start).
//! The six coefficients were fitted by maximum likelihood on 1,458,462 positions of
//! `brudno datagen` self-play (5,000 nodes a move, the games' results, scores from the side
//! to move, |score| <= 2000) by `scripts/fit_wdl.py`; docs/wdl.md has the method and the
//! check by score bucket.

use super::score::is_decisive;
use crate::eval::Value;
use crate::position::Position;

/// `a(m) = A[0] + A[1] m + A[2] m^2`: the score (centipawns) that wins half the games.
const A: [f64; 3] = [413.44, -672.08, 317.87];
/// `b(m) = B[0] + B[1] m + B[2] m^2`: the spread of the logistic.
const B: [f64; 3] = [178.40, -170.88, 125.58];

/// Material on the board for the model: pawns 1, minors 3, rooks 5, queens 9, both sides.
pub fn material(pos: &Position) -> i32 {
    let board = pos.board();
    let count = |bb: shakmaty::Bitboard| bb.count() as i32;
    count(board.pawns())
        + 3 * count(board.knights() | board.bishops())
        + 5 * count(board.rooks())
        + 9 * count(board.queens())
}

/// Win, draw and loss per mille (summing to 1000) for the side to move, from `score` and
/// `material` (see `material`). Mate and tablebase scores are certain.
pub fn wdl(score: Value, material: i32) -> (u32, u32, u32) {
    if is_decisive(score) {
        return if score > 0 {
            (1000, 0, 0)
        } else {
            (0, 0, 1000)
        };
    }
    let m = f64::from(material.clamp(17, 78)) / 58.0;
    let a = A[0] + A[1] * m + A[2] * m * m;
    let b = (B[0] + B[1] * m + B[2] * m * m).max(1.0);
    let s = f64::from(score);
    let win = (1000.0 / (1.0 + ((a - s) / b).exp())).round() as u32;
    let loss = (1000.0 / (1.0 + ((a + s) / b).exp())).round() as u32;
    let win = win.min(1000);
    let loss = loss.min(1000 - win);
    (win, 1000 - win - loss, loss)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::MATE;

    #[test]
    fn the_chances_sum_to_a_thousand_and_mirror() {
        for material in [0, 17, 40, 58, 78, 100] {
            for score in (-1500..=1500).step_by(37) {
                let (w, d, l) = wdl(score, material);
                assert_eq!(w + d + l, 1000);
                let (w2, _, l2) = wdl(-score, material);
                assert!(
                    w.abs_diff(l2) <= 1 && l.abs_diff(w2) <= 1,
                    "{score} {material}"
                );
            }
        }
    }

    #[test]
    fn a_better_score_wins_more_and_loses_less() {
        let mut previous = wdl(-2000, 40);
        for score in (-1990..=2000).step_by(10) {
            let now = wdl(score, 40);
            assert!(now.0 >= previous.0 && now.2 <= previous.2, "{score}");
            previous = now;
        }
        let (w, d, l) = wdl(0, 78);
        assert!(w < 400 && l < 400 && d > 200, "{w} {d} {l}");
    }

    #[test]
    fn mates_are_certain() {
        assert_eq!(wdl(MATE - 3, 30), (1000, 0, 0));
        assert_eq!(wdl(-MATE + 4, 30), (0, 0, 1000));
    }

    #[test]
    fn material_counts_both_sides() {
        assert_eq!(material(&Position::default()), 78);
    }
}
