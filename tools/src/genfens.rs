//! `genfens`: opening positions for OpenBench's distributed data generation and testing.
//!
//! OpenBench's client runs `./brudno "genfens N seed S book <None|FILE> <extra>" "quit"` once
//! per worker thread and reads every line that starts with `info string genfens ` as a FEN
//! (its `Client/genfens.py`). Brudno answers with exactly `N` lines, the same for the same
//! seed on every machine: position `i` is drawn as datagen draws game `i`'s opening
//! (`datagen::draw_opening`, seeded by `S` and `i`): a start position (the start position, or a
//! line of the EPD book) and random legal plies, drawn again while the game is over or a
//! quick search scores it beyond 4 pawns for either side. The random plies are 8 without a
//! book and 4 after a book position, or the number given as `plies P` in the extra text.

use std::fmt::Write as _;

use crate::datagen::{RandomPlies, draw_opening, game_seed};
use crate::epd;
use brudno_engine::eval::Evaluation;
use brudno_engine::position::Position;
use brudno_engine::search::tt::TranspositionTable;
use brudno_engine::search::{Limits, Search, SearchConfig, SearchControl};

/// Random plies from the start position when there is no book.
pub const PLIES_WITHOUT_BOOK: usize = 8;
/// Random plies after a book position.
pub const PLIES_AFTER_BOOK: usize = 4;
/// Nodes of the quick search that vets a position.
const VET_NODES: u64 = 2000;
/// The most positions one request may ask for.
pub const MAX_COUNT: u64 = 1_000_000;

/// A `genfens` request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// Positions to write.
    pub count: u64,
    /// The seed.
    pub seed: u64,
    /// The EPD book, or none.
    pub book: Option<String>,
    /// Random plies.
    pub plies: usize,
}

/// Reads `genfens N seed S book <None|FILE> [plies P] ...`; other extra words are ignored (as
/// OpenBench's extra text may carry options for other engines).
pub fn parse(line: &str) -> Result<Request, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let [name, count, seed_word, seed, book_word, book, extra @ ..] = words.as_slice() else {
        return Err("expected: genfens N seed S book <None|FILE> [plies P]".to_string());
    };
    if *name != "genfens" || *seed_word != "seed" || *book_word != "book" {
        return Err("expected: genfens N seed S book <None|FILE> [plies P]".to_string());
    }
    let count: u64 = count
        .parse()
        .ok()
        .filter(|n| (1..=MAX_COUNT).contains(n))
        .ok_or_else(|| format!("N must be a count from 1 to {MAX_COUNT}, not '{count}'"))?;
    let seed: u64 = seed
        .parse()
        .map_err(|_| format!("the seed must be a whole number, not '{seed}'"))?;
    let book = (!book.eq_ignore_ascii_case("none")).then(|| book.to_string());
    let mut plies = if book.is_some() {
        PLIES_AFTER_BOOK
    } else {
        PLIES_WITHOUT_BOOK
    };
    if let Some(at) = extra.iter().position(|w| *w == "plies") {
        plies = extra
            .get(at + 1)
            .and_then(|p| p.parse().ok())
            .filter(|p| *p <= 40)
            .ok_or("plies P takes a number from 0 to 40")?;
    }
    Ok(Request {
        count,
        seed,
        book,
        plies,
    })
}

/// The start positions of a request: the book's positions, or the start position.
fn start_positions(request: &Request) -> Result<Vec<Position>, String> {
    let Some(path) = &request.book else {
        return Ok(vec![Position::default()]);
    };
    let text =
        std::fs::read_to_string(path).map_err(|error| format!("cannot read {path}: {error}"))?;
    let (records, _) = epd::parse_text(&text);
    let positions: Vec<Position> = records.iter().filter_map(|r| r.position().ok()).collect();
    if positions.is_empty() {
        return Err(format!("no usable position in {path}"));
    }
    Ok(positions)
}

/// Writes the request's positions, one `info string genfens <FEN>` line each, through `out`.
pub fn run(request: &Request, out: &mut dyn FnMut(&str)) -> Result<(), String> {
    let openings = start_positions(request)?;
    let tt = TranspositionTable::new(1);
    let config = SearchConfig {
        threads: 1,
        eval: Evaluation::default(),
        ..SearchConfig::default()
    };
    let limits = Limits {
        nodes: Some(VET_NODES),
        ..Limits::default()
    };
    let vet = |pos: &Position, history: &[u64]| {
        let control = SearchControl::default();
        control.begin(false);
        tt.clear(1);
        Search {
            position: pos,
            history,
            limits: &limits,
            config: &config,
            tt: &tt,
            control: &control,
            histories: None,
        }
        .run(&mut |_| {})
        .score
    };
    let mut line = String::new();
    for index in 0..request.count {
        let state = game_seed(request.seed, index);
        let (position, _) = draw_opening(
            &openings,
            RandomPlies {
                least: request.plies,
                most: request.plies,
            },
            state,
            vet,
        );
        line.clear();
        let _ = write!(line, "info string genfens {}", position.fen());
        out(&line);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_read_as_openbench_writes_them() {
        assert_eq!(
            parse("genfens 16 seed 12345 book None"),
            Ok(Request {
                count: 16,
                seed: 12345,
                book: None,
                plies: PLIES_WITHOUT_BOOK
            })
        );
        let request = parse("genfens 2 seed 7 book Books/UHO.epd plies 6 nodes 5000").unwrap();
        assert_eq!(request.book.as_deref(), Some("Books/UHO.epd"));
        assert_eq!(request.plies, 6);
        for bad in [
            "genfens",
            "genfens 0 seed 1 book None",
            "genfens x seed 1 book None",
            "genfens 4 seed -1 book None",
            "genfens 4 sed 1 book None",
            "genfens 4 seed 1 book None plies 99",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn positions_are_legal_balanced_and_the_same_for_a_seed() {
        let request = parse("genfens 6 seed 99 book None").unwrap();
        let mut lines = Vec::new();
        run(&request, &mut |l| lines.push(l.to_string())).unwrap();
        assert_eq!(lines.len(), 6);
        let mut again = Vec::new();
        run(&request, &mut |l| again.push(l.to_string())).unwrap();
        assert_eq!(lines, again);
        for line in &lines {
            let fen = line.strip_prefix("info string genfens ").unwrap();
            let position = Position::from_fen(fen, false).unwrap();
            assert!(!position.legal_moves().is_empty());
            assert_eq!(
                position.fen().split(' ').nth(5),
                Some("5"),
                "8 plies: move 5"
            );
        }
        let other = parse("genfens 6 seed 100 book None").unwrap();
        let mut third = Vec::new();
        run(&other, &mut |l| third.push(l.to_string())).unwrap();
        assert_ne!(lines, third);
    }
}
