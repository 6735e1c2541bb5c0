//! Perft: counts the leaves of the legal move tree through Brudno's own `Position`.
//!
//! Going through `Position::play` (copy-make plus the incremental Zobrist key) means perft
//! checks what the search relies on, not only shakmaty. The last ply is bulk-counted (the
//! number of legal moves, without playing them). `perft_checked` also compares the incremental
//! key with a full recompute at every node and reports the first difference.

use shakmaty::{CastlingMode, Move};

use crate::position::Position;

/// Leaf count of the legal move tree `depth` plies deep.
pub fn perft(position: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => position.legal_moves().len() as u64,
        _ => position
            .legal_moves()
            .iter()
            .map(|&m| perft(&position.play(m), depth - 1))
            .sum(),
    }
}

/// Where the incremental key first differed from the full recompute.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HashMismatch {
    /// FEN of the position the move was played from.
    pub fen: String,
    /// The move, in UCI notation.
    pub mv: String,
    /// The incrementally updated key.
    pub incremental: u64,
    /// The key computed from scratch.
    pub full: u64,
}

impl std::fmt::Display for HashMismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "hash mismatch after {} from {}: incremental {:016x}, full {:016x}",
            self.mv, self.fen, self.incremental, self.full
        )
    }
}

/// Like `perft`, but every move is played (no bulk counting) and the key checked after each.
pub fn perft_checked(position: &Position, depth: u32) -> Result<u64, HashMismatch> {
    if depth == 0 {
        return Ok(1);
    }
    let mut total = 0;
    for m in position.legal_moves() {
        let child = position.play(m);
        let full = child.full_key();
        if child.key() != full {
            return Err(HashMismatch {
                fen: position.fen(),
                mv: Position::uci(m, position.castling_mode()),
                incremental: child.key(),
                full,
            });
        }
        total += perft_checked(&child, depth - 1)?;
    }
    Ok(total)
}

/// Per-root-move counts, each with its move.
pub fn divide_counts(position: &Position, depth: u32) -> Vec<(Move, u64)> {
    position
        .legal_moves()
        .iter()
        .map(|&m| (m, perft(&position.play(m), depth.saturating_sub(1))))
        .collect()
}

/// Prints the Stockfish `go perft` layout: `e2e4: 9467` per root move, then the total.
pub fn divide(position: &Position, depth: u32, mode: CastlingMode, out: &mut dyn FnMut(&str)) {
    let depth = depth.max(1);
    let mut total = 0;
    for (m, count) in divide_counts(position, depth) {
        out(&format!("{}: {count}", Position::uci(m, mode)));
        total += count;
    }
    out("");
    out(&format!("Nodes searched: {total}"));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_counts() {
        let pos = Position::default();
        assert_eq!(perft(&pos, 1), 20);
        assert_eq!(perft(&pos, 3), 8902);
        assert_eq!(perft_checked(&pos, 3), Ok(8902));
    }

    #[test]
    fn divide_sums_to_perft() {
        let pos = Position::default();
        let mut lines = Vec::new();
        divide(&pos, 2, CastlingMode::Standard, &mut |l| {
            lines.push(l.to_string())
        });
        assert!(lines.contains(&"e2e4: 20".to_string()));
        assert_eq!(lines.last().unwrap(), "Nodes searched: 400");
    }
}
