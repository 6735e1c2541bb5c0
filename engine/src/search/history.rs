//! The tables in which the search learns from its own results: the butterfly history of
//! quiet moves, the countermoves, the continuation history and the capture history. Each
//! type owns its size, its indexing and its update rule (the *gravity* rule for the move
//! histories: values stay within `±limit`, and a bonus moves an entry less the nearer it
//! already is to the limit, so recent results weigh more than old ones).
//!
//! A leaf module: it knows moves and colours, nothing of the search. The search decides
//! what to reward and by how much (`heuristics.rs`, with the bonus from `params.rs`); the
//! tables only store. Entries are plain integers read and written by one thread.
//!
//! `Histories` bundles one thread's tables. They are kept from one search to the next when
//! the search has a `HistoryStore`, which hands each thread the tables its predecessor of the
//! same index left, as Stockfish keeps them between the moves of a game: the UCI loop keeps
//! one store and empties it at `ucinewgame`; `bench`, `epd`, `datagen` and the tests start
//! empty every time, so that a search depends only on its position, its limits and the
//! table.

use std::sync::Mutex;

use shakmaty::{Color, Move, Role};

use super::correction::CorrectionHistory;
use super::tt;

/// The butterfly index of a move: its from and to squares, `from + 64 * to` (the low twelve
/// bits of the table's packed move; a castle is the king's square and the rook's).
#[inline]
pub fn from_to(mv: Move) -> usize {
    usize::from(tt::pack_move(mv) & 0xfff)
}

/// Rows of the continuation and capture histories: 0 (no move) and 12 pieces x 64 squares.
pub const PIECE_TO: usize = 1 + 12 * 64;

/// The piece-to index of `mv` played by `us`: the moving piece and the target square,
/// 1..=768 (0 stands for no move).
#[inline]
pub fn piece_to(us: Color, mv: Move) -> u16 {
    // One match on the move (`role` and `to` are a match each).
    let (role, to) = match mv {
        Move::Normal { role, to, .. } | Move::Put { role, to } => (role, to),
        Move::EnPassant { to, .. } => (Role::Pawn, to),
        Move::Castle { rook, .. } => (Role::King, rook),
    };
    let piece = us as u16 * 6 + role as u16 - 1;
    1 + piece * 64 + to as u16
}

/// The gravity update: `entry` moves by `bonus`, less the nearer it is to `limit` in the
/// bonus's direction, and stays within `±limit` when `|bonus| <= limit`.
#[inline]
fn gravity(entry: i32, bonus: i32, limit: i32) -> i32 {
    entry + bonus - entry * bonus.abs() / limit
}

/// History of quiet moves by side and from-to squares.
#[derive(Clone)]
pub struct ButterflyHistory {
    table: Box<[[i32; 4096]; 2]>,
}

impl ButterflyHistory {
    /// Empty (all zero).
    pub fn new() -> Self {
        Self {
            table: Box::new([[0; 4096]; 2]),
        }
    }

    /// The history of the move with butterfly index `from_to` (see `from_to`) by `side`.
    #[inline]
    pub fn get(&self, side: Color, from_to: usize) -> i32 {
        self.table[side as usize][from_to & 0xfff]
    }

    /// Moves the entry by `bonus` (negative to punish), by the gravity rule within
    /// `±limit`.
    #[inline]
    pub fn update(&mut self, side: Color, from_to: usize, bonus: i32, limit: i32) {
        let entry = &mut self.table[side as usize][from_to & 0xfff];
        *entry = gravity(*entry, bonus, limit);
    }
}

impl Default for ButterflyHistory {
    fn default() -> Self {
        Self::new()
    }
}

/// The quiet move that last refuted each move, by the refuted move's from-to squares.
#[derive(Clone)]
pub struct Countermoves {
    table: Box<[u16; 4096]>,
}

impl Countermoves {
    /// Empty (no countermove anywhere: 0).
    pub fn new() -> Self {
        Self {
            table: Box::new([0; 4096]),
        }
    }

    /// The packed countermove of the previous move with butterfly index `previous` (0 for
    /// none).
    #[inline]
    pub fn get(&self, previous: usize) -> u16 {
        self.table[previous & 0xfff]
    }

    /// Remembers the packed move `reply` as the refutation of `previous`.
    #[inline]
    pub fn set(&mut self, previous: usize, reply: u16) {
        self.table[previous & 0xfff] = reply;
    }
}

impl Default for Countermoves {
    fn default() -> Self {
        Self::new()
    }
}

/// Continuation history: a quiet move (piece-to) after an earlier move (piece-to), for the
/// moves one and two plies before. Row 0 is "no earlier move" and is never read.
#[derive(Clone)]
pub struct ContinuationHistory {
    table: Vec<i16>,
}

impl ContinuationHistory {
    /// Empty (a zeroed allocation: pages come from the system as they are used).
    pub fn new() -> Self {
        Self {
            table: vec![0; PIECE_TO * PIECE_TO],
        }
    }

    /// The row of the earlier move `earlier` (a piece-to index, 0 for none).
    #[inline]
    pub fn row(earlier: u16) -> usize {
        usize::from(earlier) * PIECE_TO
    }

    /// The entry of the move `piece_to` in the row `row` (from `row`).
    #[inline]
    pub fn get(&self, row: usize, piece_to: u16) -> i32 {
        i32::from(self.table[row + usize::from(piece_to)])
    }

    /// Moves the entry by `bonus`, by the gravity rule within `±limit` (at most `i16`'s
    /// range). Row 0 (no earlier move) stays zero, so that reading it needs no test.
    #[inline]
    pub fn update(&mut self, row: usize, piece_to: u16, bonus: i32, limit: i32) {
        if row == 0 {
            return;
        }
        let entry = &mut self.table[row + usize::from(piece_to)];
        *entry = gravity(i32::from(*entry), bonus, limit.min(i32::from(i16::MAX))) as i16;
    }
}

impl Default for ContinuationHistory {
    fn default() -> Self {
        Self::new()
    }
}

/// Victims of the capture history: none (a promotion that captures nothing) and pawn to
/// queen (a king is never captured).
const VICTIMS: usize = 6;

/// The capture-history index of the capture or promotion `mv` by `us`: the moving piece,
/// the target square and the captured piece (0 for none).
#[inline]
pub fn capture_index(us: Color, mv: Move) -> usize {
    let victim = match mv {
        Move::Normal { capture, .. } => capture.map_or(0, |role| role as usize),
        Move::EnPassant { .. } => Role::Pawn as usize,
        Move::Castle { .. } | Move::Put { .. } => 0,
    };
    usize::from(piece_to(us, mv)) * VICTIMS + victim.min(VICTIMS - 1)
}

/// Capture history: how often a capture or promotion (moving piece, target square,
/// captured piece) caused a cut-off, by the gravity rule. It orders captures of the same
/// victim and moves the line between the good and the bad ones.
#[derive(Clone)]
pub struct CaptureHistory {
    table: Vec<i16>,
}

impl CaptureHistory {
    /// Empty (all zero).
    pub fn new() -> Self {
        Self {
            table: vec![0; PIECE_TO * VICTIMS],
        }
    }

    /// The entry of the capture with index `index` (see `capture_index`).
    #[inline]
    pub fn get(&self, index: usize) -> i32 {
        i32::from(self.table[index])
    }

    /// Moves the entry by `bonus`, by the gravity rule within `±limit` (at most `i16`'s
    /// range).
    #[inline]
    pub fn update(&mut self, index: usize, bonus: i32, limit: i32) {
        let entry = &mut self.table[index];
        *entry = gravity(i32::from(*entry), bonus, limit.min(i32::from(i16::MAX))) as i16;
    }
}

impl Default for CaptureHistory {
    fn default() -> Self {
        Self::new()
    }
}

/// The learned tables of one thread.
#[derive(Clone, Default)]
pub struct Histories {
    /// History of quiet moves by side and from-to squares.
    pub(super) butterfly: ButterflyHistory,
    /// Quiet move that refuted each previous move.
    pub(super) countermoves: Countermoves,
    /// Continuation history: a quiet move after the move one or two plies earlier.
    pub(super) continuation: ContinuationHistory,
    /// Capture history: captures and promotions by piece, target and victim.
    pub(super) capture: CaptureHistory,
    /// Correction history: the static evaluation's learnt error by pawns, pieces and the
    /// last two moves.
    pub(super) correction: CorrectionHistory,
}

impl Histories {
    /// Empty tables (zeroed allocations: the pages come from the system as they are used).
    pub fn new() -> Box<Self> {
        Box::default()
    }
}

/// The tables of every thread, between searches.
#[derive(Default)]
pub struct HistoryStore {
    slots: Mutex<Vec<Option<Box<Histories>>>>,
}

impl HistoryStore {
    /// The tables thread `index` left, or empty ones.
    pub(super) fn take(&self, index: usize) -> Box<Histories> {
        let mut slots = self.slots.lock().unwrap_or_else(|p| p.into_inner());
        slots
            .get_mut(index)
            .and_then(Option::take)
            .unwrap_or_default()
    }

    /// Keeps thread `index`'s tables for the next search.
    pub(super) fn put(&self, index: usize, histories: Box<Histories>) {
        let mut slots = self.slots.lock().unwrap_or_else(|p| p.into_inner());
        if slots.len() <= index {
            slots.resize_with(index + 1, || None);
        }
        slots[index] = Some(histories);
    }

    /// Forgets everything (a new game).
    pub fn clear(&self) {
        self.slots.lock().unwrap_or_else(|p| p.into_inner()).clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Role, Square};

    /// The one-match indices agree with shakmaty's accessors (`from`, `to`, `role`,
    /// `promotion`: a match each) on every kind of move: castling in both notations and in
    /// Chess960, en passant, promotions, captures.
    #[test]
    fn move_indices_agree_with_the_move_accessors() {
        use crate::position::Position;
        for (fen, chess960) in [
            (
                "r3k2r/pPppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/P1PBBPPP/R3K2R w KQkq - 0 1",
                false,
            ),
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/Pp2P3/2N2Q1p/1PPBBPPP/R3K2R b KQkq a3 0 1",
                false,
            ),
            ("8/PPPk4/8/8/8/8/4Kppp/8 b - - 0 1", false),
            ("1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1", true),
        ] {
            let pos = Position::from_fen(fen, chess960).unwrap();
            for mv in pos.legal_moves() {
                let from = mv.from().map_or(0, |sq| sq as u16);
                let to = mv.to() as u16;
                let promotion = mv.promotion().map_or(0, |role| role as u16);
                assert_eq!(tt::pack_move(mv), from | to << 6 | promotion << 12, "{mv}");
                assert_eq!(from_to(mv), usize::from(from | to << 6), "{mv}");
                let piece = pos.turn() as u16 * 6 + mv.role() as u16 - 1;
                assert_eq!(piece_to(pos.turn(), mv), 1 + piece * 64 + to, "{mv}");
            }
        }
    }

    fn quiet(from: Square, to: Square) -> Move {
        Move::Normal {
            role: Role::Knight,
            from,
            capture: None,
            to,
            promotion: None,
        }
    }

    /// The limit the search gives (`params::history_limit`'s default).
    const LIMIT: i32 = 16_384;

    #[test]
    fn gravity_keeps_entries_within_the_limit_and_decays() {
        let mut table = ButterflyHistory::new();
        let index = from_to(quiet(Square::G1, Square::F3));
        for _ in 0..1000 {
            table.update(Color::White, index, 1200, LIMIT);
        }
        let high = table.get(Color::White, index);
        assert!(high > 15_000 && high <= LIMIT, "{high}");
        // The other side and other moves are untouched.
        assert_eq!(table.get(Color::Black, index), 0);
        // A punishment moves a saturated entry more than a reward does.
        table.update(Color::White, index, -1200, LIMIT);
        assert!(high - table.get(Color::White, index) > 1200);
        let mut fresh = ContinuationHistory::new();
        let row = ContinuationHistory::row(5);
        for _ in 0..1000 {
            fresh.update(row, 9, -1200, LIMIT);
        }
        let low = fresh.get(row, 9);
        assert!((-LIMIT..-15_000).contains(&low), "{low}");
        assert_eq!(fresh.get(ContinuationHistory::row(6), 9), 0);
    }

    #[test]
    fn the_correction_history_indexes_moves_as_the_histories_do() {
        assert_eq!(crate::search::correction::PIECE_TO, PIECE_TO);
    }

    #[test]
    fn indices_distinguish_pieces_squares_and_victims() {
        let a = quiet(Square::G1, Square::F3);
        assert_eq!(from_to(a), 6 | (21 << 6));
        assert_ne!(piece_to(Color::White, a), piece_to(Color::Black, a));
        let takes = |capture| Move::Normal {
            role: Role::Knight,
            from: Square::G1,
            capture: Some(capture),
            to: Square::F3,
            promotion: None,
        };
        let mut seen = std::collections::HashSet::new();
        for victim in [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
        ] {
            for side in [Color::White, Color::Black] {
                let index = capture_index(side, takes(victim));
                assert!(index < PIECE_TO * VICTIMS);
                assert!(seen.insert(index), "{victim:?} {side:?}");
            }
        }
        // A promotion that takes nothing has its own entry, apart from the captures.
        let promotion = Move::Normal {
            role: Role::Pawn,
            from: Square::A7,
            capture: None,
            to: Square::A8,
            promotion: Some(Role::Queen),
        };
        assert!(seen.insert(capture_index(Color::White, promotion)));
        let en_passant = Move::EnPassant {
            from: Square::E5,
            to: Square::D6,
        };
        let pawn_takes_pawn = Move::Normal {
            role: Role::Pawn,
            from: Square::E5,
            capture: Some(Role::Pawn),
            to: Square::D6,
            promotion: None,
        };
        assert_eq!(
            capture_index(Color::White, en_passant),
            capture_index(Color::White, pawn_takes_pawn)
        );
    }

    #[test]
    fn tables_come_back_to_their_thread_until_cleared() {
        let store = HistoryStore::default();
        let mut first = store.take(1);
        first.countermoves.set(5, 42);
        store.put(1, first);
        assert_eq!(store.take(0).countermoves.get(5), 0);
        let again = store.take(1);
        assert_eq!(again.countermoves.get(5), 42);
        // Taken means gone until it is put back.
        assert_eq!(store.take(1).countermoves.get(5), 0);
        store.put(1, again);
        store.clear();
        assert_eq!(store.take(1).countermoves.get(5), 0);
    }
}
