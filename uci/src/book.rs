//! The opening book as the UCI loop uses it: loading on `setoption OwnBook`/`BookFile` and
//! answering a `go` from the book.
//!
//! The book is loaded when OwnBook is true and BookFile names a file (whichever of the two is
//! set last), and read again whenever BookFile is set; a file that cannot be used is reported
//! in one `info string` and the engine plays on without a book. A `go` is answered from the
//! book, at once and without a search thread, when the book has a playable move for the
//! position and the go is one a game would send: not `infinite`, `ponder`, `mate` or
//! `searchmoves`, not with MultiPV above 1 (those ask for analysis), and not once BookDepth
//! plies of the game have been played. Otherwise the search runs as always.

use shakmaty::{CastlingMode, Color, Position as _};

use super::command::GoParams;
use super::options::Options;
use brudno_engine::book::{Book, BookRng, Pick};
use brudno_engine::position::Position;

/// The loaded book, if any, and the random numbers for its weighted choice.
pub(super) struct OpeningBook {
    /// The book and the path it was read from.
    loaded: Option<(Book, String)>,
    rng: BookRng,
}

impl OpeningBook {
    /// No book yet; the random choice seeded from the clock.
    pub(super) fn new() -> Self {
        Self {
            loaded: None,
            rng: BookRng::from_time(),
        }
    }

    /// Brings the loaded book in line with the options after OwnBook or BookFile was set:
    /// `reload` reads the file even if it is the one loaded. Returns what to tell the user.
    pub(super) fn update(&mut self, options: &Options, reload: bool) -> Option<String> {
        if !options.own_book {
            return self
                .loaded
                .take()
                .map(|(_, path)| format!("book: off (OwnBook is false), '{path}' unloaded"));
        }
        let path = options.book_file.as_str();
        if path.is_empty() {
            self.loaded = None;
            return Some("book: OwnBook is on but BookFile is empty: no book".to_string());
        }
        if !reload
            && self
                .loaded
                .as_ref()
                .is_some_and(|(_, loaded)| loaded == path)
        {
            return None;
        }
        self.loaded = None;
        Some(match Book::load(std::path::Path::new(path)) {
            Ok(book) => {
                let message = format!("book: {} entries from {path}", book.len());
                self.loaded = Some((book, path.to_string()));
                message
            }
            Err(error) => format!("book: '{path}': {error}; playing without a book"),
        })
    }

    /// The `info string` text and the move for a `go` answered from the book, or `None` when
    /// the book does not apply (see the module's description) or has no move here.
    pub(super) fn probe(
        &mut self,
        options: &Options,
        position: &Position,
        params: &GoParams,
        mode: CastlingMode,
    ) -> Option<(String, String)> {
        let (book, _) = self.loaded.as_ref().filter(|_| options.own_book)?;
        let analysis = params.infinite
            || params.ponder
            || params.mate.is_some()
            || !params.searchmoves.is_empty()
            || options.multipv > 1;
        if analysis || game_ply(position) >= u64::from(options.book_depth) {
            return None;
        }
        let pick = if options.book_best_move {
            Pick::Heaviest
        } else {
            Pick::Weighted
        };
        let (chosen, total) = book.choose(position, pick, &mut self.rng)?;
        let text = Position::uci(chosen.mv, mode);
        Some((
            format!("book move {text} (weight {} of {total})", chosen.weight),
            text,
        ))
    }
}

/// Plies played since the start of the game, from the position's move number and side to
/// move (a FEN's move number counts).
fn game_ply(position: &Position) -> u64 {
    let moves = u64::from(position.chess().fullmoves().get());
    (moves - 1) * 2 + u64::from(position.turn() == Color::Black)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_plies_count_from_the_move_number() {
        assert_eq!(game_ply(&Position::default()), 0);
        let mut position = Position::default();
        position.play_uci("e2e4").unwrap();
        assert_eq!(game_ply(&position), 1);
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 10";
        assert_eq!(game_ply(&Position::from_fen(fen, false).unwrap()), 19);
    }

    #[test]
    fn no_book_without_own_book_or_file() {
        let mut book = OpeningBook::new();
        let mut options = Options::default();
        assert_eq!(book.update(&options, true), None);
        options.own_book = true;
        let message = book.update(&options, false).unwrap();
        assert!(message.contains("BookFile is empty"), "{message}");
        options.book_file = "/no/such/book.bin".to_string();
        let message = book.update(&options, true).unwrap();
        assert!(message.ends_with("playing without a book"), "{message}");
        let params = GoParams::default();
        let probe = book.probe(
            &options,
            &Position::default(),
            &params,
            CastlingMode::Standard,
        );
        assert_eq!(probe, None);
    }
}
