//! Fuzz target for Polyglot books (`book/`), and the small book its corpus starts from.
//!
//! A book either loads or is refused with a message. A loaded book is read as a game reads it:
//! from the start position (and from a position with castling), the moves it offers are
//! legal, each encodes back to an entry that decodes to it, both ways of choosing give one of
//! them, and the chosen move is played for the next probe. Every entry's bytes read back as
//! they were, and looking an entry's key up finds it.

use shakmaty::CastlingMode;

use crate::book::{
    Book, BookRng, ENTRY_BYTES, Entry, Pick, book_bytes, decode_move, encode_move, polyglot_key,
};
use crate::position::Position;

/// Plies a loaded book is followed from each start.
const PLIES: usize = 12;
/// Entries of a loaded book checked one by one.
const ENTRIES: usize = 64;
/// The positions a book is probed from: the start position, and one where both sides can
/// castle both ways (a king taking its rook is castling in Polyglot).
const STARTS: [&str; 2] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
];

/// Reads the input as a book file.
pub fn polyglot(data: &[u8]) {
    let book = match Book::from_bytes(data.to_vec()) {
        Ok(book) => book,
        Err(error) => {
            assert!(
                !error.to_string().is_empty(),
                "a book refused without a word"
            );
            return;
        }
    };
    assert_eq!(book.len(), data.len() / ENTRY_BYTES);
    for (index, chunk) in data.chunks_exact(ENTRY_BYTES).take(ENTRIES).enumerate() {
        let entry = book
            .entry(index)
            .unwrap_or_else(|| panic!("no entry {index}"));
        assert_eq!(entry.to_bytes().as_slice(), chunk);
        let found = book.entries(entry.key);
        assert!(found.contains(&entry), "entry {index} not found by its key");
        assert!(found.iter().all(|e| e.key == entry.key));
    }
    assert_eq!(book.entry(book.len()), None);
    for (seed, fen) in STARTS.iter().enumerate() {
        let Ok(mut position) = Position::from_fen(fen, false) else {
            panic!("{fen} is refused");
        };
        let mut rng = BookRng::new(seed as u64);
        for _ in 0..PLIES {
            if !follow(&book, &position, &mut rng) {
                break;
            }
            let Some((chosen, _)) = book.choose(&position, Pick::Weighted, &mut rng) else {
                break;
            };
            position.play_in_place(chosen.mv);
        }
    }
}

/// Checks the book's moves in `position`; false when it has none.
fn follow(book: &Book, position: &Position, rng: &mut BookRng) -> bool {
    let legal = position.legal_moves();
    let moves = book.moves(position);
    for offered in &moves {
        assert!(legal.contains(&offered.mv), "{:?} is not legal", offered.mv);
        assert!(offered.weight > 0, "a move of weight 0 is offered");
        let raw = encode_move(offered.mv);
        assert_eq!(decode_move(raw, position), Some(offered.mv));
        let _ = Position::uci(offered.mv, CastlingMode::Standard);
    }
    for pick in [Pick::Heaviest, Pick::Weighted] {
        let chosen = book.choose(position, pick, rng);
        assert_eq!(chosen.is_some(), !moves.is_empty());
        if let Some((chosen, total)) = chosen {
            assert!(moves.contains(&chosen), "{pick:?} chose a move not offered");
            assert!(chosen.weight <= total);
        }
    }
    !moves.is_empty()
}

/// A small hand-made book: a few moves from the start position and after 1. e4 (one of weight
/// 0, one illegal, one repeated), both castlings of `STARTS[1]` as the king taking its rook,
/// and a promotion. The corpus of `book` started from it.
pub fn seed_book() -> Vec<u8> {
    let mut entries = Vec::new();
    let mut add = |fen: &str, before: &[&str], moves: &[(&str, u16)]| {
        let Ok(mut position) = Position::from_fen(fen, false) else {
            return;
        };
        for m in before {
            if position.play_uci(m).is_err() {
                return;
            }
        }
        for &(text, weight) in moves {
            let raw = match position.parse_uci(text) {
                Ok(m) => encode_move(m),
                // An illegal move, written as the file would have it.
                Err(_) => 0o1234,
            };
            entries.push(Entry {
                key: polyglot_key(&position),
                raw_move: raw,
                weight,
                learn: 0,
            });
        }
    };
    let start = STARTS[0];
    add(start, &[], &[("e2e4", 100), ("d2d4", 60), ("g1f3", 0)]);
    add(
        start,
        &["e2e4"],
        &[("c7c5", 50), ("e7e5", 40), ("e7e5", 10)],
    );
    add(start, &["e2e4"], &[("a1a8", 5)]);
    add(start, &["e2e4", "e7e5"], &[("g1f3", 30)]);
    add(STARTS[1], &[], &[("e1h1", 10), ("e1a1", 5)]);
    add(STARTS[1], &["a2a3"], &[("e8h8", 8), ("e8a8", 8)]);
    add(
        "8/P6k/8/8/8/8/8/K7 w - - 0 1",
        &[],
        &[("a7a8q", 9), ("a7a8n", 1)],
    );
    book_bytes(&entries)
}
