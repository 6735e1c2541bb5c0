//! What the search learns about moves and evaluations, kept from one search to the next: the
//! tables of `history.rs` (quiet moves, countermoves, continuation, captures, corrections),
//! one set per thread (how each is used is in `heuristics.rs`).
//!
//! A search starts with empty tables unless it is given a `HistoryStore`, which hands each
//! thread the tables its predecessor of the same index left, as Stockfish keeps them between
//! the moves of a game. The UCI loop keeps one store and empties it at `ucinewgame`; `bench`,
//! `epd`, `datagen` and the tests start empty every time, so that a search depends only on
//! its position, its limits and the table.

use std::sync::Mutex;

use super::history::{
    ButterflyHistory, CaptureHistory, ContinuationHistory, CorrectionHistory, Countermoves,
};

/// The learned tables of one thread.
#[derive(Clone, Default)]
pub struct Histories {
    /// History of quiet moves by side and from-to squares.
    pub(super) butterfly: ButterflyHistory,
    /// Quiet move that refuted each previous move.
    pub(super) countermoves: Countermoves,
    /// Continuation history: a quiet move after the move one or two plies earlier.
    pub(super) continuation: ContinuationHistory,
    /// Capture history: a capture by piece, target square and victim.
    pub(super) captures: CaptureHistory,
    /// Correction history: the static evaluation's error by side and pawn structure.
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
