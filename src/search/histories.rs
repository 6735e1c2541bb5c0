//! What the search learns about moves and evaluations, kept from one search to the next: the
//! history of quiet moves, the countermoves, the continuation and capture histories and the
//! correction history (how each is used is in `heuristics.rs`).
//!
//! A search starts with empty tables unless it is given a `HistoryStore`, which hands each
//! thread the tables its predecessor of the same index left, as Stockfish keeps them between
//! the moves of a game. The UCI loop keeps one store and empties it at `ucinewgame`; `bench`,
//! `epd`, `datagen` and the tests start empty every time, so that a search depends only on
//! its position, its limits and the table.

use std::sync::Mutex;

use super::heuristics::{CORRECTION_SIZE, PIECE_TO};
use super::tt::PackedMove;

/// The learned tables of one thread.
pub struct Histories {
    /// History of quiet moves: `[side][from * 64 + to]`.
    pub(super) history: Vec<[i32; 4096]>,
    /// Quiet move that refuted each previous move: `[previous from * 64 + to]`.
    pub(super) countermoves: Vec<PackedMove>,
    /// Continuation history: `[earlier piece-to][piece-to]` for the move one or two plies
    /// earlier and the quiet move now.
    pub(super) continuation: Vec<i16>,
    /// Capture history: `[piece-to][captured role]`.
    pub(super) captures: Vec<i16>,
    /// Correction history: `[side][pawn-structure hash]`, in 1/256 centipawn.
    pub(super) correction: Vec<i32>,
}

impl Histories {
    /// Empty tables (zeroed allocations: the pages come from the system as they are used).
    pub fn new() -> Box<Self> {
        Box::new(Self {
            history: vec![[0; 4096]; 2],
            countermoves: vec![0; 4096],
            continuation: vec![0; PIECE_TO * PIECE_TO],
            captures: vec![0; PIECE_TO * 8],
            correction: vec![0; 2 * CORRECTION_SIZE],
        })
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
            .unwrap_or_else(Histories::new)
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
        first.captures[5] = 42;
        store.put(1, first);
        assert_eq!(store.take(0).captures[5], 0);
        let again = store.take(1);
        assert_eq!(again.captures[5], 42);
        // Taken means gone until it is put back.
        assert_eq!(store.take(1).captures[5], 0);
        store.put(1, again);
        store.clear();
        assert_eq!(store.take(1).captures[5], 0);
    }
}
