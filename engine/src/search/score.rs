//! Scores: centipawns, mate scores by distance, and their conversions.
//!
//! A mate score is `MATE - plies` from the root for the side that mates and its negation for
//! the side that is mated, so the shortest mate has the largest score. In the transposition
//! table a mate score is stored relative to the node (distance from the node) and restored
//! relative to the root on probe; anything else would make a stored mate wrong when the same
//! position is reached at another ply.
//!
//! A tablebase win (`tablebase.rs`) is `TB_WIN - plies`: below every mate, above every
//! evaluation, and stored relative to the node in the same way. Without tables no score ever
//! falls between `TB_WIN_BOUND` and `MATE_BOUND`.

use crate::eval::Value;

/// Larger than any score; the initial window is `(-INFINITY, INFINITY)`.
pub const INFINITY: Value = 32_001;
/// The score of giving mate right now (mate in 0 plies).
pub const MATE: Value = 32_000;
/// The deepest ply the search will ever reach.
pub const MAX_PLY: usize = 128;
/// Scores at or above this are mates (for the side to move).
pub const MATE_BOUND: Value = MATE - MAX_PLY as Value;
/// The score of a draw.
pub const DRAW: Value = 0;
/// The score of a tablebase win right here (0 plies from the node that was probed): one below
/// the longest mate.
pub const TB_WIN: Value = MATE_BOUND - 1;
/// Scores at or above this are tablebase wins or mates (for the side to move); evaluations
/// stay far below (the network clamps at 20,000).
pub const TB_WIN_BOUND: Value = TB_WIN - MAX_PLY as Value;

/// The score of being mated at `ply` plies from the root.
#[inline]
pub fn mated_in(ply: usize) -> Value {
    -MATE + ply as Value
}

/// The score of mating at `ply` plies from the root.
#[inline]
pub fn mate_in(ply: usize) -> Value {
    MATE - ply as Value
}

/// The score of a tablebase win found at `ply` plies from the root.
#[inline]
pub fn tb_win_in(ply: usize) -> Value {
    TB_WIN - ply as Value
}

/// The score of a tablebase loss found at `ply` plies from the root.
#[inline]
pub fn tb_loss_in(ply: usize) -> Value {
    -TB_WIN + ply as Value
}

/// Whether a score announces a forced mate for either side.
#[inline]
pub fn is_mate(score: Value) -> bool {
    score.abs() >= MATE_BOUND
}

/// Whether a score announces a decided game for either side: a mate or a tablebase result.
/// The pruning margins leave such scores alone.
#[inline]
pub fn is_decisive(score: Value) -> bool {
    score.abs() >= TB_WIN_BOUND
}

/// Root-relative score to node-relative, for storing in the table (mates and tablebase
/// results; other scores are the same everywhere).
#[inline]
pub fn to_tt(score: Value, ply: usize) -> Value {
    if score >= TB_WIN_BOUND {
        score + ply as Value
    } else if score <= -TB_WIN_BOUND {
        score - ply as Value
    } else {
        score
    }
}

/// Node-relative score from the table back to root-relative.
#[inline]
pub fn from_tt(score: Value, ply: usize) -> Value {
    if score >= TB_WIN_BOUND {
        score - ply as Value
    } else if score <= -TB_WIN_BOUND {
        score + ply as Value
    } else {
        score
    }
}

/// Moves until mate for a mate score (negative: the side to move is being mated; 0: it is
/// mated now), `None` for any other score.
pub fn mate_in_moves(score: Value) -> Option<i32> {
    if score >= MATE_BOUND {
        Some((MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        Some(-(MATE + score) / 2)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_in_moves() {
        assert_eq!(mate_in_moves(mate_in(1)), Some(1));
        assert_eq!(mate_in_moves(mate_in(3)), Some(2));
        assert_eq!(mate_in_moves(mated_in(0)), Some(0));
        assert_eq!(mate_in_moves(mated_in(2)), Some(-1));
        assert_eq!(mate_in_moves(mated_in(4)), Some(-2));
        assert_eq!(mate_in_moves(57), None);
    }

    #[test]
    fn tt_round_trip_relative_to_node() {
        // A mate in 5 plies from the root, seen at ply 3, is a mate in 2 plies from the node.
        let at_root = mate_in(5);
        let stored = to_tt(at_root, 3);
        assert_eq!(stored, mate_in(2));
        // Found again at ply 7 it is a mate in 9 plies from the root.
        assert_eq!(from_tt(stored, 7), mate_in(9));
        assert_eq!(from_tt(to_tt(mated_in(6), 2), 2), mated_in(6));
        assert_eq!(from_tt(to_tt(-120, 9), 4), -120);
    }

    #[test]
    fn tablebase_scores_sit_between_evaluations_and_mates() {
        assert!(tb_win_in(0) < mate_in(MAX_PLY));
        assert!(tb_win_in(MAX_PLY) > 20_000);
        assert!(is_decisive(tb_win_in(7)) && !is_mate(tb_win_in(7)));
        assert!(is_decisive(tb_loss_in(7)) && !is_decisive(20_000));
        assert_eq!(from_tt(to_tt(tb_win_in(5), 3), 3), tb_win_in(5));
        assert_eq!(from_tt(to_tt(tb_loss_in(5), 3), 9), tb_loss_in(11));
        assert_eq!(mate_in_moves(tb_win_in(2)), None);
    }
}
