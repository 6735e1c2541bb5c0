//! Polyglot opening books: reading a `.bin` file, finding a position's entries and choosing a
//! move.
//!
//! A Polyglot book is a file of 16-byte entries, every integer big-endian: the position's key
//! (u64), a move (u16), a weight (u16) and a learn field (u32, ignored here), sorted by key so
//! that the first entry of a key is found by binary search. The key is Polyglot's Zobrist
//! hash, which is shakmaty's `Zobrist64` and so `Position::key()`, with one difference that
//! `polyglot_key` makes up for: Polyglot hashes the en-passant file when a pawn of the side to
//! move stands next to the pawn that just advanced two squares (a pseudo-legal capture), the
//! engine only when the capture is legal; lookups try Polyglot's key and then the engine's,
//! so books written either way are read. A move is `to file` (bits 0-2), `to rank` (3-5),
//! `from file` (6-8), `from rank` (9-11) and a promotion (12-14: none, knight, bishop, rook,
//! queen); castling is written as the king taking its own rook (`e1h1`, `e1a1`, `e8h8`,
//! `e8a8`, and in Chess960 books from the king's square to the rook's), which `decode_move`
//! turns into shakmaty's `Move::Castle`, printed in either castling notation by the caller.
//! An entry whose move is not legal in the position is skipped, and so is an entry of weight
//! 0 (Polyglot's mark for a move not to play). Loading refuses a file whose length is not a
//! multiple of 16 or whose keys are not in order, with a message saying why; nothing here
//! panics on any file.

use std::io::Read;

mod moves;

use shakmaty::Move;

use crate::position::Position;
use crate::rng::splitmix64;
pub use moves::{decode_move, encode_move, polyglot_key};

/// Bytes in one book entry.
pub const ENTRY_BYTES: usize = 16;

/// One book entry as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The position's Polyglot key.
    pub key: u64,
    /// The move, Polyglot-encoded (see `decode_move`).
    pub raw_move: u16,
    /// How often the move should be played, relative to the position's other entries.
    pub weight: u16,
    /// Polyglot's learning data, not used by the engine.
    pub learn: u32,
}

impl Entry {
    /// The entry's 16 bytes as written in a book file.
    pub fn to_bytes(&self) -> [u8; ENTRY_BYTES] {
        let mut bytes = [0; ENTRY_BYTES];
        bytes[0..8].copy_from_slice(&self.key.to_be_bytes());
        bytes[8..10].copy_from_slice(&self.raw_move.to_be_bytes());
        bytes[10..12].copy_from_slice(&self.weight.to_be_bytes());
        bytes[12..16].copy_from_slice(&self.learn.to_be_bytes());
        bytes
    }

    /// Reads an entry from its 16 bytes.
    pub fn from_bytes(bytes: &[u8; ENTRY_BYTES]) -> Self {
        Self {
            key: u64::from_be_bytes([
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
            ]),
            raw_move: u16::from_be_bytes([bytes[8], bytes[9]]),
            weight: u16::from_be_bytes([bytes[10], bytes[11]]),
            learn: u32::from_be_bytes([bytes[12], bytes[13], bytes[14], bytes[15]]),
        }
    }
}

/// The bytes of a book holding `entries`, sorted by key as Polyglot requires (entries of one
/// key keep their order). For tests and tools that write small books.
pub fn book_bytes(entries: &[Entry]) -> Vec<u8> {
    let mut sorted = entries.to_vec();
    sorted.sort_by_key(|e| e.key);
    sorted.iter().flat_map(Entry::to_bytes).collect()
}

/// Why a file was not taken as a book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookError {
    /// The file could not be opened or read (the system's message).
    Read(String),
    /// The length in bytes is not a multiple of 16.
    Length(u64),
    /// The key of entry `index` (counted from 0) is smaller than the one before it.
    Unsorted(usize),
    /// Not enough memory to hold the file (its length in bytes).
    Memory(u64),
}

impl std::fmt::Display for BookError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Read(why) => write!(f, "cannot read it: {why}"),
            Self::Length(bytes) => write!(
                f,
                "{bytes} bytes is not a multiple of {ENTRY_BYTES}: not a Polyglot book"
            ),
            Self::Unsorted(index) => write!(
                f,
                "not sorted by key (entry {index} has a smaller key than entry {}): not a \
                 Polyglot book",
                index - 1
            ),
            Self::Memory(bytes) => write!(f, "not enough memory for its {bytes} bytes"),
        }
    }
}

impl std::error::Error for BookError {}

/// A move the book offers in a position, with its weight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The legal move.
    pub mv: Move,
    /// Its weight (the sum of the entries for this move, should the book repeat one).
    pub weight: u32,
}

/// How to choose among a position's book moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    /// At random, each move with probability weight / total weight.
    Weighted,
    /// Always the heaviest move (the first of the heaviest in the book's order on a tie).
    Heaviest,
}

/// A loaded Polyglot book, held in memory as the file's bytes.
#[derive(Clone, Debug, Default)]
pub struct Book {
    bytes: Vec<u8>,
}

impl Book {
    /// Reads and checks a book file.
    pub fn load(path: &std::path::Path) -> Result<Self, BookError> {
        let file = std::fs::File::open(path).map_err(|e| BookError::Read(e.to_string()))?;
        let metadata = file
            .metadata()
            .map_err(|e| BookError::Read(e.to_string()))?;
        if !metadata.is_file() {
            return Err(BookError::Read("not a regular file".to_string()));
        }
        let length = metadata.len();
        if !length.is_multiple_of(ENTRY_BYTES as u64) {
            return Err(BookError::Length(length));
        }
        let mut bytes = Vec::new();
        usize::try_from(length)
            .ok()
            .and_then(|n| bytes.try_reserve_exact(n).ok())
            .ok_or(BookError::Memory(length))?;
        // No more than the length checked, should the file grow meanwhile.
        file.take(length)
            .read_to_end(&mut bytes)
            .map_err(|e| BookError::Read(e.to_string()))?;
        Self::from_bytes(bytes)
    }

    /// Takes the bytes of a book file, checking the length and the order of the keys.
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Self, BookError> {
        if !bytes.len().is_multiple_of(ENTRY_BYTES) {
            return Err(BookError::Length(bytes.len() as u64));
        }
        let book = Self { bytes };
        if let Some(index) = (1..book.len()).find(|&i| book.key_at(i) < book.key_at(i - 1)) {
            return Err(BookError::Unsorted(index));
        }
        Ok(book)
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.bytes.len() / ENTRY_BYTES
    }

    /// Whether the book has no entries.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// Entry `index` (counted from 0), `None` past the end.
    pub fn entry(&self, index: usize) -> Option<Entry> {
        let start = index.checked_mul(ENTRY_BYTES)?;
        let bytes = self.bytes.get(start..start.checked_add(ENTRY_BYTES)?)?;
        Some(Entry::from_bytes(bytes.try_into().ok()?))
    }

    /// The key of entry `index`, which must be less than `len()` (every caller's is).
    fn key_at(&self, index: usize) -> u64 {
        let start = index * ENTRY_BYTES;
        let mut bytes = [0; 8];
        bytes.copy_from_slice(&self.bytes[start..start + 8]);
        u64::from_be_bytes(bytes)
    }

    /// The entries with `key`, in the book's order: a binary search for the first, then the
    /// run that follows it.
    pub fn entries(&self, key: u64) -> Vec<Entry> {
        let (mut low, mut high) = (0, self.len());
        while low < high {
            let middle = low + (high - low) / 2;
            if self.key_at(middle) < key {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        (low..self.len())
            .take_while(|&i| self.key_at(i) == key)
            .filter_map(|i| self.entry(i))
            .collect()
    }

    /// The moves the book offers in `position`: the legal moves of its entries with a weight
    /// above 0, a move repeated in the book once with the weights added, in the book's order.
    /// Looks under Polyglot's key first and under the engine's key if that differs and has
    /// nothing.
    pub fn moves(&self, position: &Position) -> Vec<BookMove> {
        let polyglot = polyglot_key(position);
        let mut entries = self.entries(polyglot);
        if entries.is_empty() && position.key() != polyglot {
            entries = self.entries(position.key());
        }
        let mut moves: Vec<BookMove> = Vec::new();
        for entry in entries.iter().filter(|e| e.weight > 0) {
            let Some(mv) = decode_move(entry.raw_move, position) else {
                continue;
            };
            match moves.iter_mut().find(|m| m.mv == mv) {
                Some(known) => known.weight = known.weight.saturating_add(u32::from(entry.weight)),
                None => moves.push(BookMove {
                    mv,
                    weight: u32::from(entry.weight),
                }),
            }
        }
        moves
    }

    /// A book move for `position` chosen as `pick` says (`rng` is used only for
    /// `Pick::Weighted`), with the total weight of the moves it was chosen from; `None` when
    /// the book has no playable move there.
    pub fn choose(
        &self,
        position: &Position,
        pick: Pick,
        rng: &mut BookRng,
    ) -> Option<(BookMove, u32)> {
        let moves = self.moves(position);
        let total = moves
            .iter()
            .fold(0u32, |sum, m| sum.saturating_add(m.weight));
        let chosen = match pick {
            // `max_by_key` keeps the last of equal maxima; the reverse makes it the first.
            Pick::Heaviest => moves.iter().rev().max_by_key(|m| m.weight).copied(),
            Pick::Weighted => {
                let mut ticket = rng.below(total);
                moves.iter().copied().find(|m| {
                    if ticket < m.weight {
                        true
                    } else {
                        ticket -= m.weight;
                        false
                    }
                })
            }
        };
        chosen.map(|m| (m, total))
    }
}

/// The random numbers for `Pick::Weighted`: SplitMix64, seedable so that a choice can be
/// repeated, seeded from the clock by `from_time` so that games vary.
#[derive(Clone, Debug)]
pub struct BookRng(u64);

impl BookRng {
    /// A generator with a fixed seed.
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// A generator seeded from the system clock and the process id.
    pub fn from_time() -> Self {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        Self(nanos ^ u64::from(std::process::id()).rotate_left(32))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let bits = splitmix64(self.0);
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        bits
    }

    /// A number in `0..bound` (0 when `bound` is 0), by multiply-shift (a bias of at most
    /// `bound` / 2^32, nothing for book weights).
    pub fn below(&mut self, bound: u32) -> u32 {
        (((self.next_u64() >> 32) * u64::from(bound)) >> 32) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;

    fn entry(position: &Position, uci: &str, weight: u16) -> Entry {
        Entry {
            key: polyglot_key(position),
            raw_move: encode_move(position.parse_uci(uci).unwrap()),
            weight,
            learn: 0,
        }
    }

    fn book(entries: &[Entry]) -> Book {
        Book::from_bytes(book_bytes(entries)).unwrap()
    }

    fn after(moves: &[&str]) -> Position {
        let mut position = Position::default();
        for m in moves {
            position.play_uci(m).unwrap();
        }
        position
    }

    #[test]
    fn entries_round_trip_big_endian() {
        let e = Entry {
            key: 0x0102_0304_0506_0708,
            raw_move: 0x090a,
            weight: 0x0b0c,
            learn: 0x0d0e_0f10,
        };
        let bytes = e.to_bytes();
        assert_eq!(bytes.to_vec(), (1..=16).collect::<Vec<u8>>());
        assert_eq!(Entry::from_bytes(&bytes), e);
    }

    #[test]
    fn bad_files_are_refused_with_the_reason() {
        assert_eq!(
            Book::from_bytes(vec![0; 17]).unwrap_err(),
            BookError::Length(17)
        );
        let low = Entry {
            key: 1,
            raw_move: 0,
            weight: 1,
            learn: 0,
        };
        let high = Entry { key: 2, ..low };
        let mut bytes = high.to_bytes().to_vec();
        bytes.extend(low.to_bytes());
        let error = Book::from_bytes(bytes).unwrap_err();
        assert_eq!(error, BookError::Unsorted(1));
        assert!(error.to_string().contains("not sorted"), "{error}");
        let missing = Book::load(std::path::Path::new("/no/such/book.bin")).unwrap_err();
        assert!(matches!(missing, BookError::Read(_)), "{missing}");
        for special in ["/", "/dev/zero"] {
            let error = Book::load(std::path::Path::new(special)).unwrap_err();
            assert_eq!(error, BookError::Read("not a regular file".to_string()));
        }
        assert!(Book::from_bytes(Vec::new()).unwrap().is_empty());
    }

    #[test]
    fn binary_search_finds_every_entry_of_a_key() {
        let mut entries = Vec::new();
        for key in [5u64, 1, 9, 5, 3, 5, 9, 0, u64::MAX] {
            entries.push(Entry {
                key,
                raw_move: entries.len() as u16,
                weight: 1,
                learn: 0,
            });
        }
        let book = book(&entries);
        assert_eq!(book.len(), 9);
        assert_eq!(book.entry(8).map(|e| e.key), Some(u64::MAX));
        assert_eq!(book.entry(9), None);
        assert_eq!(book.entry(usize::MAX), None);
        let moves = |key| {
            book.entries(key)
                .iter()
                .map(|e| e.raw_move)
                .collect::<Vec<_>>()
        };
        assert_eq!(moves(5), vec![0, 3, 5]);
        assert_eq!(moves(9), vec![2, 6]);
        assert_eq!(moves(0), vec![7]);
        assert_eq!(moves(u64::MAX), vec![8]);
        assert!(moves(4).is_empty() && moves(10).is_empty());
    }

    #[test]
    fn choice_follows_the_weights() {
        let start = Position::default();
        let e2e4_position = after(&["e2e4"]);
        let book = book(&[
            entry(&start, "e2e4", 30),
            entry(&start, "d2d4", 60),
            entry(&start, "g1f3", 10),
            entry(&start, "b1c3", 0),
            entry(&start, "d2d4", 10),
            // Not legal in the start position: skipped.
            Entry {
                raw_move: 12 << 6 | 36,
                ..entry(&start, "e2e4", 500)
            },
            entry(&e2e4_position, "c7c5", 1),
        ]);
        let moves = book.moves(&start);
        let shown: Vec<(String, u32)> = moves
            .iter()
            .map(|m| (Position::uci(m.mv, CastlingMode::Standard), m.weight))
            .collect();
        assert_eq!(
            shown,
            [
                ("e2e4".into(), 30),
                ("d2d4".into(), 70),
                ("g1f3".into(), 10)
            ]
        );
        let mut rng = BookRng::new(1963);
        let (best, total) = book.choose(&start, Pick::Heaviest, &mut rng).unwrap();
        assert_eq!((best.weight, total), (70, 110));
        let mut counts = [0u32; 3];
        for _ in 0..11_000 {
            let (m, _) = book.choose(&start, Pick::Weighted, &mut rng).unwrap();
            counts[moves.iter().position(|k| k.mv == m.mv).unwrap()] += 1;
        }
        // Expected 3000, 7000 and 1000.
        assert!((2700..3300).contains(&counts[0]), "{counts:?}");
        assert!((6600..7400).contains(&counts[1]), "{counts:?}");
        assert!((850..1150).contains(&counts[2]), "{counts:?}");
        // A position without entries, or only with weight 0, has no book move.
        assert_eq!(
            book.choose(&after(&["d2d4"]), Pick::Weighted, &mut rng),
            None
        );
        let zero = self::book(&[entry(&start, "e2e4", 0)]);
        assert_eq!(zero.choose(&start, Pick::Heaviest, &mut rng), None);
    }

    #[test]
    fn the_seed_repeats_the_choice() {
        let start = Position::default();
        let book = book(&[entry(&start, "e2e4", 1), entry(&start, "d2d4", 1)]);
        let picks = |seed| {
            let mut rng = BookRng::new(seed);
            (0..32)
                .map(|_| book.choose(&start, Pick::Weighted, &mut rng).unwrap().0.mv)
                .collect::<Vec<_>>()
        };
        assert_eq!(picks(7), picks(7));
        assert_ne!(picks(7), picks(8));
    }
}
