//! Transposition table: a lockless, shared cache of search results keyed by Zobrist key.
//!
//! Each entry is two `AtomicU64`: the packed data and the key XOR the data (the "lockless
//! hashing" of Hyatt and Mann). A reader recomputes `check ^ data` and accepts the entry only
//! when that equals its own key, so an entry torn by two threads writing at once reads as a
//! miss, never as a wrong hit. Entries live in buckets of four (one 64-byte cache line); a store
//! replaces the entry of the same key, else the emptiest, oldest and shallowest one.
//!
//! Stored data: best move, score (node-relative for mates, see `score::to_tt`), static eval,
//! depth, bound type and the age of the search that wrote it. The table never validates moves:
//! a hash move must be found among the legal moves before it is played.

use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};

use shakmaty::{Move, Role, Square};

use crate::eval::Value;
use crate::search::table_memory::{Pages, Zeroable, ZeroedBuffer};

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is exact (it was inside the window).
    Exact,
    /// The true value is at least the score (the search failed high: a beta cut-off).
    Lower,
    /// The true value is at most the score (the search failed low: no move raised alpha).
    Upper,
}

impl Bound {
    /// The bound of a fail-soft result `best` of a node entered with the window
    /// `(alpha, beta)`: failing high gives a lower bound, failing low an upper bound,
    /// anything inside the window is exact.
    #[inline]
    pub fn of(best: Value, alpha: Value, beta: Value) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }

    /// Whether a value `value` of this bound answers a node searched with the window
    /// `(alpha, beta)`: an exact value always, a lower bound at or above beta, an upper
    /// bound at or below alpha.
    #[inline]
    pub fn cuts(self, value: Value, alpha: Value, beta: Value) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => value >= beta,
            Bound::Upper => value <= alpha,
        }
    }

    fn to_bits(self) -> u64 {
        match self {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        }
    }

    fn from_bits(bits: u64) -> Option<Self> {
        match bits {
            1 => Some(Bound::Exact),
            2 => Some(Bound::Lower),
            3 => Some(Bound::Upper),
            _ => None,
        }
    }
}

/// A move in 16 bits: from (6), to (6; the rook's square for castling), promotion role (3).
/// Zero means "no move" (a1a1 is never a move). Unique among the legal moves of a position.
pub type PackedMove = u16;

/// Packs a move for the table.
#[inline]
pub fn pack_move(m: Move) -> PackedMove {
    // One match on the move (`from`, `to` and `promotion` are a match each).
    let (from, to, promotion) = match m {
        Move::Normal {
            from,
            to,
            promotion,
            ..
        } => (
            from as u16,
            to as u16,
            promotion.map_or(0, |role| role as u16),
        ),
        Move::EnPassant { from, to } => (from as u16, to as u16, 0),
        Move::Castle { king, rook } => (king as u16, rook as u16, 0),
        Move::Put { to, .. } => (0, to as u16, 0),
    };
    from | to << 6 | promotion << 12
}

/// Finds the legal move a packed move stands for, if any.
#[inline]
pub fn unpack_move(packed: PackedMove, legal: &[Move]) -> Option<Move> {
    if packed == 0 {
        return None;
    }
    legal.iter().copied().find(|&m| pack_move(m) == packed)
}

/// The legal move a packed move stands for in `pos`, found without generating every move
/// (shakmaty checks only the candidates for the target square). `None` when the packed move
/// is not legal there, as a move from another position sharing a bucket may be.
pub fn legal_move_from_packed(packed: PackedMove, pos: &crate::position::Position) -> Option<Move> {
    if packed == 0 {
        return None;
    }
    let from = Square::new(u32::from(packed & 63));
    let to = Square::new(u32::from((packed >> 6) & 63));
    let promotion = packed_promotion(packed);
    let board = pos.board();
    let piece = board.piece_at(from)?;
    if piece.color != pos.turn() {
        return None;
    }
    let target = board.piece_at(to);
    let candidate = match (piece.role, target) {
        (Role::King, Some(rook)) if rook.color == piece.color && rook.role == Role::Rook => {
            Move::Castle {
                king: from,
                rook: to,
            }
        }
        (Role::Pawn, None) if from.file() != to.file() => Move::EnPassant { from, to },
        (role, target) => Move::Normal {
            role,
            from,
            capture: target.map(|t| t.role),
            to,
            promotion,
        },
    };
    (pack_move(candidate) == packed && pos.is_legal(candidate)).then_some(candidate)
}

/// Whether a packed move is a promotion to this role (used by tests and debugging).
pub fn packed_promotion(packed: PackedMove) -> Option<Role> {
    match packed >> 12 {
        2 => Some(Role::Knight),
        3 => Some(Role::Bishop),
        4 => Some(Role::Rook),
        5 => Some(Role::Queen),
        _ => None,
    }
}

/// What a probe returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// The best (or refuting) move found, packed; 0 when none.
    pub mv: PackedMove,
    /// The score, node-relative (convert with `score::from_tt`).
    pub score: Value,
    /// The static evaluation of the position.
    pub eval: Value,
    /// The remaining depth the score was searched to.
    pub depth: i32,
    /// How the score relates to the true value.
    pub bound: Bound,
}

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

#[derive(Default)]
#[repr(align(64))]
struct Bucket {
    slots: [Slot; 4],
}

// SAFETY: a bucket is eight atomic integers, valid all-zero (zero data reads as empty).
unsafe impl Zeroable for Bucket {
    fn reset(&self) {
        for slot in &self.slots {
            slot.data.store(0, Ordering::Relaxed);
            slot.check.store(0, Ordering::Relaxed);
        }
    }
}

const AGE_BITS: u64 = 6;
const AGE_MASK: u8 = (1 << AGE_BITS) - 1;

#[inline]
fn encode(entry: &TtEntry, age: u8) -> u64 {
    u64::from(entry.mv)
        | u64::from(entry.score as i16 as u16) << 16
        | u64::from(entry.eval as i16 as u16) << 32
        | (entry.depth.clamp(0, 255) as u64) << 48
        | entry.bound.to_bits() << 56
        | u64::from(age & AGE_MASK) << 58
}

#[inline]
fn decode(data: u64) -> Option<TtEntry> {
    Some(TtEntry {
        mv: data as u16,
        score: Value::from((data >> 16) as u16 as i16),
        eval: Value::from((data >> 32) as u16 as i16),
        depth: ((data >> 48) & 0xff) as i32,
        bound: Bound::from_bits((data >> 56) & 3)?,
    })
}

#[inline]
fn age_of(data: u64) -> u8 {
    (data >> 58) as u8 & AGE_MASK
}

#[inline]
fn depth_of(data: u64) -> i32 {
    ((data >> 48) & 0xff) as i32
}

/// The shared transposition table.
pub struct TranspositionTable {
    buckets: ZeroedBuffer<Bucket>,
    pages: Pages,
    age: AtomicU8,
    /// Whether anything was stored since the table was allocated or cleared: clearing a
    /// clean table (a `ucinewgame` right after `setoption name Hash`) is then free.
    dirty: AtomicBool,
}

/// Bytes per bucket (four entries of 16 bytes).
pub const BUCKET_BYTES: usize = std::mem::size_of::<Bucket>();

impl TranspositionTable {
    /// The largest size accepted, in MiB (larger requests are clamped).
    pub const MAX_MIB: usize = 1 << 20;

    /// A table of about `mib` MiB (at least one bucket) on transparent huge pages where the
    /// system offers them. If the memory cannot be had, the size is halved until it can;
    /// `size_mib` tells what was allocated.
    pub fn new(mib: usize) -> Self {
        Self::with_pages(mib, Pages::Huge)
    }

    /// A table of about `mib` MiB on the pages asked for (`Pages::Normal` to measure what huge
    /// pages bring).
    pub fn with_pages(mib: usize, pages: Pages) -> Self {
        let mut table = Self {
            buckets: ZeroedBuffer::empty(),
            pages,
            age: AtomicU8::new(0),
            dirty: AtomicBool::new(false),
        };
        table.resize(mib);
        table
    }

    /// Reallocates to about `mib` MiB, every entry empty. Returns the size obtained in MiB
    /// (smaller than asked for only when the memory was not available). The new memory comes
    /// zeroed from the system, page by page as it is first used, so this returns at once
    /// whatever the size.
    pub fn resize(&mut self, mib: usize) -> usize {
        let mut mib = mib.clamp(1, Self::MAX_MIB);
        // The old table goes first, so that its memory can serve the new one.
        self.buckets = ZeroedBuffer::empty();
        self.age.store(0, Ordering::Relaxed);
        self.dirty.store(false, Ordering::Relaxed);
        loop {
            let count = (mib << 20) / BUCKET_BYTES;
            if let Some(buckets) = ZeroedBuffer::new(count, self.pages) {
                self.buckets = buckets;
                return mib;
            }
            if mib == 1 {
                // Even 1 MiB failed: keep a minimal table rather than none.
                self.buckets = ZeroedBuffer::new(16, Pages::Normal)
                    .expect("sixteen buckets (1 KiB) of memory");
                return 0;
            }
            mib /= 2;
        }
    }

    /// Size in MiB.
    pub fn size_mib(&self) -> usize {
        (self.buckets.len() * BUCKET_BYTES) >> 20
    }

    /// Empties the table with `threads` threads, each clearing its own part. Free when nothing
    /// was stored since the table was made or last cleared.
    pub fn clear(&self, threads: usize) {
        if self.dirty.swap(false, Ordering::Relaxed) {
            self.buckets.zero(threads);
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: entries written from now on are newer than all that exist.
    pub fn new_search(&self) {
        let age = self.age.load(Ordering::Relaxed).wrapping_add(1) & AGE_MASK;
        self.age.store(age, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        // Multiply-shift maps the key onto any table length without a power-of-two size.
        let index = ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
    }

    /// Hints the CPU to load the bucket of `key` (call before the probe is needed).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let ptr = self.bucket(key) as *const Bucket as *const i8;
            // SAFETY: prefetching is a hint; any address is allowed, and this one is valid.
            unsafe { std::arch::x86_64::_mm_prefetch(ptr, std::arch::x86_64::_MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry for `key`, if one is stored (and not torn).
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        for slot in &self.bucket(key).slots {
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.check.load(Ordering::Relaxed);
            if data != 0 && check ^ data == key {
                return decode(data);
            }
        }
        None
    }

    /// Stores a result. Replaces the entry of the same key unless that one is deeper and from
    /// this search (keeping its move when the new result has none); otherwise replaces the
    /// entry that is empty, or else the one with the least depth after ageing.
    pub fn store(&self, key: u64, entry: TtEntry) {
        if !self.dirty.load(Ordering::Relaxed) {
            self.dirty.store(true, Ordering::Relaxed);
        }
        let age = self.age.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
        let mut victim = &bucket.slots[0];
        let mut victim_worth = i32::MAX;
        for slot in &bucket.slots {
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.check.load(Ordering::Relaxed);
            if data != 0 && check ^ data == key {
                let old_depth = depth_of(data);
                if entry.bound != Bound::Exact && age_of(data) == age && old_depth > entry.depth + 2
                {
                    return;
                }
                let mut entry = entry;
                if entry.mv == 0 {
                    entry.mv = data as u16;
                }
                write(slot, key, encode(&entry, age));
                return;
            }
            let worth = if data == 0 {
                i32::MIN
            } else {
                let staleness = i32::from(age.wrapping_sub(age_of(data)) & AGE_MASK);
                depth_of(data) - 8 * staleness
            };
            if worth < victim_worth {
                victim_worth = worth;
                victim = slot;
            }
        }
        write(victim, key, encode(&entry, age));
    }

    /// Permille of entries written by the current search, sampled over the first 1000.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed);
        let mut used: u32 = 0;
        let mut seen: u32 = 0;
        'outer: for bucket in self.buckets.iter() {
            for slot in &bucket.slots {
                let data = slot.data.load(Ordering::Relaxed);
                if data != 0 && age_of(data) == age {
                    used += 1;
                }
                seen += 1;
                if seen == 1000 {
                    break 'outer;
                }
            }
        }
        (used * 1000).checked_div(seen).unwrap_or(0)
    }
}

#[inline]
fn write(slot: &Slot, key: u64, data: u64) {
    slot.data.store(data, Ordering::Relaxed);
    slot.check.store(key ^ data, Ordering::Relaxed);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    fn entry(depth: i32, score: Value, bound: Bound, mv: PackedMove) -> TtEntry {
        TtEntry {
            mv,
            score,
            eval: -7,
            depth,
            bound,
        }
    }

    #[test]
    fn store_then_probe_round_trips() {
        let tt = TranspositionTable::new(1);
        let e = entry(7, -31_990, Bound::Lower, 0x1234);
        tt.store(42, e);
        assert_eq!(tt.probe(42), Some(e));
        assert_eq!(tt.probe(43), None);
    }

    #[test]
    fn deeper_entry_of_this_search_is_kept() {
        let tt = TranspositionTable::new(1);
        tt.store(5, entry(10, 50, Bound::Lower, 0x0101));
        tt.store(5, entry(2, 10, Bound::Upper, 0));
        assert_eq!(tt.probe(5).unwrap().depth, 10);
        // An exact result always replaces, and keeps the old move when it has none.
        tt.store(5, entry(2, 10, Bound::Exact, 0));
        let got = tt.probe(5).unwrap();
        assert_eq!((got.depth, got.bound, got.mv), (2, Bound::Exact, 0x0101));
    }

    #[test]
    fn newer_search_replaces_old_entries_first() {
        let tt = TranspositionTable::new(1);
        // Five keys that land in the same bucket: the multiply-shift index uses the top bits.
        let keys: Vec<u64> = (0..5).map(|i| 0x8000_0000_0000_0000 | i).collect();
        for &k in &keys[..4] {
            tt.store(k, entry(20, 0, Bound::Exact, 0));
        }
        tt.new_search();
        tt.store(keys[4], entry(1, 0, Bound::Exact, 0));
        assert!(tt.probe(keys[4]).is_some());
        assert_eq!(
            keys[..4].iter().filter(|k| tt.probe(**k).is_some()).count(),
            3
        );
    }

    #[test]
    fn torn_entry_reads_as_a_miss() {
        let tt = TranspositionTable::new(1);
        tt.store(99, entry(3, 1, Bound::Exact, 0));
        let slot = tt
            .bucket(99)
            .slots
            .iter()
            .find(|s| s.data.load(Ordering::Relaxed) != 0);
        // Another thread's half-finished write: data changed, check not yet.
        slot.unwrap().data.fetch_xor(1 << 20, Ordering::Relaxed);
        assert_eq!(tt.probe(99), None);
    }

    #[test]
    fn packed_moves_are_unique_among_legal_moves() {
        let pos = Position::from_fen(
            "r3k2r/pPppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/P1PBBPPP/R3K2R w KQkq - 0 1",
            false,
        )
        .unwrap();
        let legal = pos.legal_moves();
        for &m in &legal {
            assert_eq!(unpack_move(pack_move(m), &legal), Some(m));
        }
        let promotions: Vec<_> = legal
            .iter()
            .filter_map(|&m| packed_promotion(pack_move(m)))
            .collect();
        assert_eq!(promotions.len(), 8);
    }

    #[test]
    fn packed_moves_are_recovered_without_generating_all_moves() {
        for fen in [
            "r3k2r/pPppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/P1PBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/Pp2P3/2N2Q1p/1PPBBPPP/R3K2R b KQkq a3 0 1",
        ] {
            let pos = Position::from_fen(fen, false).unwrap();
            let legal = pos.legal_moves();
            for &m in &legal {
                assert_eq!(legal_move_from_packed(pack_move(m), &pos), Some(m), "{m}");
            }
            // Every other from/to pair is refused.
            let mut accepted = 0;
            for packed in 1..4096u16 {
                if legal_move_from_packed(packed, &pos).is_some() {
                    accepted += 1;
                }
            }
            let non_promotions = legal.iter().filter(|m| m.promotion().is_none()).count();
            assert_eq!(accepted, non_promotions);
        }
    }

    #[test]
    fn hashfull_counts_this_search_only() {
        let tt = TranspositionTable::new(1);
        assert_eq!(tt.hashfull(), 0);
        for key in 0..200_000u64 {
            tt.store(
                key.wrapping_mul(0x9e37_79b9_7f4a_7c15),
                entry(1, 0, Bound::Exact, 0),
            );
        }
        assert!(tt.hashfull() > 900);
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
    }
}
