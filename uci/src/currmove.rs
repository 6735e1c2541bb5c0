//! `info currmove <move> currmovenumber <n>`: which root move the search is on, as GUIs show
//! it. Silent for the first second of a search (as Stockfish does), so short searches and
//! fast games carry no extra lines. An observer of the search (`search/observer.rs`): it only
//! sees the root moves of the main thread, so it costs nothing in the tree.

use std::time::Duration;

use shakmaty::{CastlingMode, Move};

use crate::io::Output;
use brudno_engine::search::SearchControl;
use brudno_engine::search::observer::Observer;

/// How long a search runs before the root moves are announced.
pub const ANNOUNCE_AFTER: Duration = Duration::from_secs(1);

/// Writes `info depth D currmove M currmovenumber N` for each root move once the search has
/// run for `ANNOUNCE_AFTER`.
pub struct CurrentMove<'a> {
    out: &'a Output,
    control: &'a SearchControl,
    mode: CastlingMode,
}

impl<'a> CurrentMove<'a> {
    /// Announces on `out`, timed by `control`'s clock, moves written for `mode`.
    pub fn new(out: &'a Output, control: &'a SearchControl, mode: CastlingMode) -> Self {
        Self { out, control, mode }
    }
}

impl Observer for CurrentMove<'_> {
    const SEES_EVERY_PRUNED_MOVE: bool = false;
    // UCI plays with the lab's switches at their defaults (none is an option).
    const READS_SWITCHES: bool = false;

    fn root_move(&mut self, depth: i32, mv: Move, number: usize) {
        if self.control.elapsed() >= ANNOUNCE_AFTER {
            self.out.line(&format!(
                "info depth {depth} currmove {} currmovenumber {number}",
                mv.to_uci(self.mode)
            ));
        }
    }
}
