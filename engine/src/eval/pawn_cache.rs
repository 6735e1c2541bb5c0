//! A per-thread cache of the pawn-structure terms, keyed by the pawns themselves.
//!
//! Passed, doubled and isolated pawns depend on the two sides' pawns alone, and a search
//! meets few pawn structures: most of its moves leave the pawns where they are. An entry holds
//! both pawn bitboards and the terms' (middlegame, endgame) sum, so a hit is exact (no hash
//! collision can return another structure's value) and the cache never changes an evaluation.
//! It holds no weights: what it stores is computed by its caller, and it must never be shared
//! between threads (no locking on the hot path).

use shakmaty::Bitboard;

use super::weights::S;

/// Entries of the cache (a power of two): 4096 of 24 bytes, 96 KiB.
pub const PAWN_CACHE_SIZE: usize = 1 << 12;

/// One pawn structure and its terms. The all-zero entry, what a new cache holds, is right as
/// it stands: no pawns, no pawn-structure terms.
#[derive(Clone, Copy, Default)]
struct Entry {
    white: u64,
    black: u64,
    mg: i32,
    eg: i32,
}

/// The pawn-structure cache of one searching thread.
pub struct PawnCache {
    entries: Vec<Entry>,
}

impl Default for PawnCache {
    fn default() -> Self {
        Self::new()
    }
}

impl PawnCache {
    /// An empty cache.
    pub fn new() -> Self {
        Self {
            entries: vec![Entry::default(); PAWN_CACHE_SIZE],
        }
    }

    /// The terms of the structure `white` and `black` pawns make: from the cache, or from
    /// `compute` (then kept, replacing whatever shared its slot).
    #[inline]
    pub fn get_or_insert_with(
        &mut self,
        white: Bitboard,
        black: Bitboard,
        compute: impl FnOnce() -> S,
    ) -> S {
        let (white, black) = (white.0, black.0);
        let hash = (white ^ black.rotate_left(32)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let slot = &mut self.entries[(hash >> (64 - PAWN_CACHE_SIZE.trailing_zeros())) as usize];
        if slot.white == white && slot.black == black {
            return S(slot.mg, slot.eg);
        }
        let terms = compute();
        *slot = Entry {
            white,
            black,
            mg: terms.0,
            eg: terms.1,
        };
        terms
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hit_returns_what_was_stored_and_a_new_structure_is_computed() {
        let mut cache = PawnCache::new();
        let (a, b) = (Bitboard(0xff00), Bitboard(0x00ff_0000_0000_0000));
        assert_eq!(cache.get_or_insert_with(a, b, || S(3, 4)), S(3, 4));
        assert_eq!(cache.get_or_insert_with(a, b, || unreachable!()), S(3, 4));
        // The sides swapped are another structure.
        assert_eq!(cache.get_or_insert_with(b, a, || S(-3, -4)), S(-3, -4));
        // No pawns: the empty cache already holds the right (zero) terms.
        assert_eq!(
            PawnCache::new().get_or_insert_with(Bitboard(0), Bitboard(0), || unreachable!()),
            S(0, 0)
        );
    }
}
