//! Which positions the threads of a Lazy SMP search are searching right now, so that a thread
//! can put off a move another thread is already busy with (the deferral of ABDADA, in the
//! simplified form of Tom Kerrigan: a small table of keys, no change to the hash table).
//!
//! A thread marks the child it is about to search as a later move (not the first, which every
//! thread searches: it sets the bound for the rest), deep enough nodes only, and unmarks it
//! when it comes back, or as soon as its null-window search shows it beats the best move so
//! far: a new best move is worth every thread's help in its full-window search (note 5.2 of
//! Kerrigan's pseudocode). Another thread reaching the same child as a later move of a node
//! puts it at the end of that node's move list: by the time it comes back to it, the first
//! thread has usually stored the result in the shared table. The threads spread over
//! different subtrees instead of searching the same one side by side, which is the cost of
//! plain Lazy SMP.
//! The table is only a hint: a lost mark (full slot, overwritten slot) costs a little
//! duplicated work, never a wrong result. With one thread it is empty and nothing is deferred,
//! so single-threaded search (and the bench signature) is unchanged.

use std::sync::atomic::{AtomicU64, Ordering};

/// Sets per thread: a thread marks at most one position per ply of its path, so this leaves
/// most sets empty and a full set (a lost mark) rare.
const SETS_PER_THREAD: usize = 64;
/// Keys per set.
const WAYS: usize = 4;

/// The keys of the positions being searched, in sets of `WAYS`; 0 is an empty slot.
#[derive(Default)]
pub(super) struct Searching {
    slots: Vec<AtomicU64>,
    /// Sets minus one (the number of sets is a power of two).
    set_mask: usize,
}

/// A mark to remove when the search of its position is done.
#[derive(Clone, Copy)]
pub(super) struct Mark {
    slot: usize,
    key: u64,
}

/// What to do with a move, by `Searching::claim`.
pub(super) enum Claim {
    /// Another thread is searching its position: put it off.
    Defer,
    /// Search it now, with the position marked as this thread's (if there was room).
    Search(Option<Mark>),
}

impl Searching {
    /// A table for `threads` threads; with one thread it stays empty and does nothing.
    pub(super) fn new(threads: usize) -> Self {
        if threads <= 1 {
            return Self::default();
        }
        let sets = (threads * SETS_PER_THREAD).next_power_of_two();
        Self {
            slots: (0..sets * WAYS).map(|_| AtomicU64::new(0)).collect(),
            set_mask: sets - 1,
        }
    }

    fn set(&self, key: u64) -> std::ops::Range<usize> {
        let start = (key as usize & self.set_mask) * WAYS;
        start..start + WAYS
    }

    /// Whether the table is in use (more than one thread).
    pub(super) fn is_on(&self) -> bool {
        !self.slots.is_empty()
    }

    /// Whether another thread is searching the position with this key.
    #[inline]
    pub(super) fn is_busy(&self, key: u64) -> bool {
        !self.slots.is_empty()
            && self.slots[self.set(key)]
                .iter()
                .any(|slot| slot.load(Ordering::Relaxed) == key)
    }

    /// Marks the position as being searched; `None` when the table is off or the set is full.
    #[inline]
    pub(super) fn mark(&self, key: u64) -> Option<Mark> {
        if self.slots.is_empty() || key == 0 {
            return None;
        }
        self.set(key).find_map(|slot| {
            self.slots[slot]
                .compare_exchange(0, key, Ordering::Relaxed, Ordering::Relaxed)
                .ok()
                .map(|_| Mark { slot, key })
        })
    }

    /// A thread is about to search the position with this key: it defers it when it may
    /// (`may_defer`) and another thread is searching it, else marks it as its own.
    #[inline]
    pub(super) fn claim(&self, key: u64, may_defer: bool) -> Claim {
        if may_defer && self.is_busy(key) {
            Claim::Defer
        } else {
            Claim::Search(self.mark(key))
        }
    }

    /// Removes a mark (only if it is still there).
    #[inline]
    pub(super) fn unmark(&self, mark: Option<Mark>) {
        if let Some(Mark { slot, key }) = mark {
            let _ = self.slots[slot].compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
        }
    }
    /// The keys marked now, in slot order (tests check what a search leaves behind).
    #[cfg(test)]
    pub(super) fn marked_keys(&self) -> Vec<u64> {
        self.slots
            .iter()
            .map(|slot| slot.load(Ordering::Relaxed))
            .filter(|&key| key != 0)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_thread_marks_nothing() {
        let table = Searching::new(1);
        assert!(table.mark(42).is_none());
        assert!(!table.is_busy(42));
    }

    #[test]
    fn a_marked_position_is_busy_until_unmarked() {
        let table = Searching::new(2);
        let key = 0x1234_5678_9abc_def0;
        assert!(!table.is_busy(key));
        let mark = table.mark(key);
        assert!(mark.is_some());
        assert!(table.is_busy(key));
        table.unmark(mark);
        assert!(!table.is_busy(key));
    }

    #[test]
    fn a_full_set_drops_the_mark_and_keeps_the_others() {
        let table = Searching::new(2);
        // Keys of the same set differ only above the set bits.
        let keys: Vec<u64> = (1..=WAYS as u64 + 1).map(|i| i << 40 | 7).collect();
        let marks: Vec<_> = keys.iter().map(|&k| table.mark(k)).collect();
        assert!(marks[..WAYS].iter().all(Option::is_some));
        assert!(marks[WAYS].is_none());
        assert!(!table.is_busy(keys[WAYS]));
        // The same key twice (two threads on one position) takes two slots.
        table.unmark(marks[0]);
        let again = [table.mark(keys[1]), table.mark(keys[1])];
        assert!(again[0].is_some() && again[1].is_none());
        table.unmark(again[0]);
        assert!(
            table.is_busy(keys[1]),
            "the first mark of keys[1] is still there"
        );
    }
}
