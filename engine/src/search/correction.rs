//! Correction history: tables that learn, from the search's own results, how far the static
//! evaluation tends to be off in positions that share a feature, and correct it by that much.
//!
//! Three features key the tables: the pawn structure (both sides' pawns), each side's other
//! pieces (its non-pawn material with the king, one table per colour), and the two moves
//! that led to the node (the continuation: the piece-to index of the move two plies back and
//! of the last move). After a node is searched, the difference between its searched value
//! and its corrected evaluation moves each entry by a bonus scaled by the depth (the gravity
//! rule of the move histories, within `±LIMIT`); the correction is the weighted sum of the
//! entries.
//!
//! A leaf module: it reads the board's bitboards and nothing of the search. The search
//! decides when a result teaches (`alphabeta.rs`, step 12) and the weights come from
//! `params.rs`. The transposition table keeps the raw evaluation, so that a stored entry
//! stays true whatever the tables learn later.

use shakmaty::{Board, Color};

use crate::eval::Value;

/// Piece-to indices: 0 (no move) and 12 pieces x 64 squares (`history::PIECE_TO`; not
/// imported, so that this module stays a leaf beneath the histories that hold it).
pub const PIECE_TO: usize = 1 + 12 * 64;

/// Entries of the pawn and non-pawn tables, per side to move (a power of two).
const ENTRIES: usize = 1 << 14;

/// An entry stays within plus or minus this.
pub const LIMIT: i32 = 1024;

/// The weighted sum of the entries is divided by this to give centipawns.
const SCALE: i32 = 2048;

/// What keys a node's entries: its pawn structure, each side's other pieces, and the
/// piece-to indices of the two moves before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CorrectionKeys {
    side: usize,
    pawn: usize,
    non_pawn: [usize; 2],
    continuation: usize,
}

/// Multiplies a bitboard into a key (Fibonacci hashing: the high bits of the product depend
/// on every bit of the input).
const MIX: u64 = 0x9e37_79b9_7f4a_7c15;
const MIX_2: u64 = 0xc2b2_ae3d_27d4_eb4f;

/// The table index of a 64-bit hash: its top fourteen bits.
#[inline]
fn index(hash: u64) -> usize {
    (hash >> (64 - 14)) as usize
}

impl CorrectionKeys {
    /// The keys of a node with `board`, `side` to move, reached by the moves with piece-to
    /// indices `two_back` and `last` (`history::piece_to`, 0 for none).
    #[inline]
    pub fn new(board: &Board, side: Color, two_back: u16, last: u16) -> Self {
        let white = board.white().0;
        let black = board.black().0;
        let pawns = board.pawns().0;
        let pawn = index(
            (pawns & white)
                .wrapping_mul(MIX)
                .wrapping_add(pawns & black)
                .wrapping_mul(MIX_2),
        );
        let non_pawn = |colour: u64| {
            let mut hash = 0u64;
            for pieces in [
                board.knights().0,
                board.bishops().0,
                board.rooks().0,
                board.queens().0,
                board.kings().0,
            ] {
                hash = hash.wrapping_add(pieces & colour).wrapping_mul(MIX);
            }
            index(hash.wrapping_mul(MIX_2))
        };
        Self {
            side: side as usize,
            pawn,
            non_pawn: [non_pawn(black), non_pawn(white)],
            continuation: usize::from(two_back) * PIECE_TO + usize::from(last),
        }
    }
}

/// The weights of the tables, in 2048ths of an entry per centipawn.
#[derive(Clone, Copy, Debug)]
pub struct Weights {
    /// The pawn structure's table.
    pub pawn: i32,
    /// Each side's non-pawn table.
    pub non_pawn: i32,
    /// The continuation table.
    pub continuation: i32,
}

/// One thread's correction tables.
#[derive(Clone)]
pub struct CorrectionHistory {
    /// By side to move and pawn key.
    pawn: Vec<i16>,
    /// By side to move, colour of the pieces and that colour's non-pawn key.
    non_pawn: Vec<i16>,
    /// By the piece-to indices of the two moves before the node.
    continuation: Vec<i16>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        Self::new()
    }
}

impl CorrectionHistory {
    /// Empty tables (zeroed allocations: the pages come from the system as they are used).
    pub fn new() -> Self {
        Self {
            pawn: vec![0; 2 * ENTRIES],
            non_pawn: vec![0; 4 * ENTRIES],
            continuation: vec![0; PIECE_TO * PIECE_TO],
        }
    }

    #[inline]
    fn non_pawn_slot(keys: &CorrectionKeys, colour: usize) -> usize {
        (keys.side * 2 + colour) * ENTRIES + keys.non_pawn[colour]
    }

    /// The correction in centipawns for the node with `keys`.
    #[inline]
    pub fn correction(&self, keys: &CorrectionKeys, weights: Weights) -> Value {
        let pawn = i32::from(self.pawn[keys.side * ENTRIES + keys.pawn]);
        let non_pawn = i32::from(self.non_pawn[Self::non_pawn_slot(keys, 0)])
            + i32::from(self.non_pawn[Self::non_pawn_slot(keys, 1)]);
        let continuation = i32::from(self.continuation[keys.continuation]);
        (weights.pawn * pawn + weights.non_pawn * non_pawn + weights.continuation * continuation)
            / SCALE
    }

    /// Moves every entry of the node with `keys` by `bonus` (clamped to `±LIMIT`), by the
    /// gravity rule.
    #[inline]
    pub fn update(&mut self, keys: &CorrectionKeys, bonus: i32) {
        let bonus = bonus.clamp(-LIMIT, LIMIT);
        let gravity = |entry: &mut i16| {
            let value = i32::from(*entry);
            *entry = (value + bonus - value * bonus.abs() / LIMIT) as i16;
        };
        gravity(&mut self.pawn[keys.side * ENTRIES + keys.pawn]);
        gravity(&mut self.non_pawn[Self::non_pawn_slot(keys, 0)]);
        gravity(&mut self.non_pawn[Self::non_pawn_slot(keys, 1)]);
        gravity(&mut self.continuation[keys.continuation]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    const WEIGHTS: Weights = Weights {
        pawn: 128,
        non_pawn: 128,
        continuation: 128,
    };

    fn keys(fen: &str) -> CorrectionKeys {
        let pos = Position::from_fen(fen, false).unwrap();
        CorrectionKeys::new(pos.board(), pos.turn(), 0, 0)
    }

    /// Positions that share their pawns share the pawn entry, and not the non-pawn entry of
    /// the side whose pieces differ; the side to move has its own entries.
    #[test]
    fn keys_follow_the_features_they_name() {
        let start = keys("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let knight_out = keys("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 1");
        assert_eq!(start.pawn, knight_out.pawn);
        assert_ne!(start.non_pawn[1], knight_out.non_pawn[1]);
        assert_eq!(start.non_pawn[0], knight_out.non_pawn[0]);
        let pawn_moved = keys("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1");
        assert_ne!(start.pawn, pawn_moved.pawn);
        assert_eq!(start.non_pawn, pawn_moved.non_pawn);
        // A white pawn and a black pawn on the same square are different structures.
        let white = keys("4k3/8/8/8/4P3/8/8/4K3 w - - 0 1");
        let black = keys("4k3/8/8/8/4p3/8/8/4K3 w - - 0 1");
        assert_ne!(white.pawn, black.pawn);
    }

    /// A correction learnt from positive errors is positive and bounded, and it is its
    /// node's alone: another pawn structure, pieces and moves read nothing of it.
    #[test]
    fn updates_move_the_correction_toward_the_error_and_stay_bounded() {
        let mut tables = CorrectionHistory::new();
        let pos = Position::from_fen("4k3/pp6/8/8/8/8/PP6/4K2R w - - 0 1", false).unwrap();
        let here = CorrectionKeys::new(pos.board(), pos.turn(), 100, 200);
        assert_eq!(tables.correction(&here, WEIGHTS), 0);
        for _ in 0..1000 {
            tables.update(&here, 300);
        }
        let high = tables.correction(&here, WEIGHTS);
        // Four entries near the limit, each weighted 128 / 2048.
        assert!(high > 200 && high <= 4 * LIMIT * 128 / SCALE, "{high}");
        let other = Position::from_fen("4k3/p7/8/8/8/8/P7/3QK3 b - - 0 1", false).unwrap();
        let there = CorrectionKeys::new(other.board(), other.turn(), 101, 201);
        assert_eq!(tables.correction(&there, WEIGHTS), 0);
        // Negative errors bring it back down.
        for _ in 0..1000 {
            tables.update(&here, -300);
        }
        assert!(tables.correction(&here, WEIGHTS) < -200);
    }
}
