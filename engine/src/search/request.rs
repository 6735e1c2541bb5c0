//! What one search is given: the root and the game before it, the limits, the configuration,
//! the shared table, the stop flag and clock, and the histories kept between searches
//! (`Search`). Running it is `Search::run` (`mod.rs`).

use super::config::SearchConfig;
use super::history;
use super::limits::{Limits, SearchControl};
use super::tt::TranspositionTable;
use crate::position::Position;

/// A search of one position: the single entry point of every front end.
pub struct Search<'a> {
    /// The root position.
    pub position: &'a Position,
    /// Keys of the game's earlier positions, oldest first, excluding the root (repetitions).
    pub history: &'a [u64],
    /// When to stop.
    pub limits: &'a Limits,
    /// Which parts of the search are switched on.
    pub config: &'a SearchConfig,
    /// The shared transposition table.
    pub tt: &'a TranspositionTable,
    /// Stop flag and clock.
    pub control: &'a SearchControl,
    /// Where the threads find the histories of the previous search and leave theirs; `None`
    /// starts every search with empty ones.
    pub histories: Option<&'a history::HistoryStore>,
}
