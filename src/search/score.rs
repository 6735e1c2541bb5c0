//! Scores: centipawns, mate scores by distance, and their conversions.
//!
//! A mate score is `MATE - plies` from the root for the side that mates and its negation for
//! the side that is mated, so the shortest mate has the largest score. In the transposition
//! table a mate score is stored relative to the node (distance from the node) and restored
//! relative to the root on probe; anything else would make a stored mate wrong when the same
//! position is reached at another ply.

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

/// Whether a score announces a forced mate for either side.
#[inline]
pub fn is_mate(score: Value) -> bool {
    score.abs() >= MATE_BOUND
}

/// Root-relative score to node-relative, for storing in the table.
#[inline]
pub fn to_tt(score: Value, ply: usize) -> Value {
    if score >= MATE_BOUND {
        score + ply as Value
    } else if score <= -MATE_BOUND {
        score - ply as Value
    } else {
        score
    }
}

/// Node-relative score from the table back to root-relative.
#[inline]
pub fn from_tt(score: Value, ply: usize) -> Value {
    if score >= MATE_BOUND {
        score - ply as Value
    } else if score <= -MATE_BOUND {
        score + ply as Value
    } else {
        score
    }
}

/// A score as the UCI protocol writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UciScore {
    /// Centipawns from the engine's point of view.
    Centipawns(Value),
    /// Mate in this many moves (negative: the engine is being mated).
    Mate(i32),
}

impl UciScore {
    /// Converts a search score.
    pub fn from_value(score: Value) -> Self {
        if score >= MATE_BOUND {
            UciScore::Mate((MATE - score + 1) / 2)
        } else if score <= -MATE_BOUND {
            UciScore::Mate(-(MATE + score) / 2)
        } else {
            UciScore::Centipawns(score)
        }
    }
}

impl std::fmt::Display for UciScore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            UciScore::Centipawns(cp) => write!(f, "cp {cp}"),
            UciScore::Mate(moves) => write!(f, "mate {moves}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_in_moves() {
        assert_eq!(UciScore::from_value(mate_in(1)), UciScore::Mate(1));
        assert_eq!(UciScore::from_value(mate_in(3)), UciScore::Mate(2));
        assert_eq!(UciScore::from_value(mated_in(0)), UciScore::Mate(0));
        assert_eq!(UciScore::from_value(mated_in(2)), UciScore::Mate(-1));
        assert_eq!(UciScore::from_value(mated_in(4)), UciScore::Mate(-2));
        assert_eq!(UciScore::from_value(57), UciScore::Centipawns(57));
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
}
