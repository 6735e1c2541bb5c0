//! Search counters: what the search lab and the `info` lines report.
//!
//! Plain integers owned by one searching thread (no atomics on the hot path); a finished
//! search adds its threads' counters together. Counting never changes what the search does.

use std::ops::AddAssign;

/// Counters of one search (or the sum over several).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Every node entered, in the main search and in quiescence.
    pub nodes: u64,
    /// Nodes of the main search that had moves to search (not leaves).
    pub interior: u64,
    /// Legal moves summed over the interior nodes: all of them with
    /// `SearchConfig::count_legal_moves` (mean branching factor = this / interior), otherwise
    /// only those where the move picker generated every move.
    pub legal_moves: u64,
    /// Nodes at the horizon (depth 0: evaluated or handed to quiescence) and terminal nodes
    /// (mate, stalemate, draw) of the main search.
    pub leaves: u64,
    /// Nodes entered in quiescence, the horizon nodes included.
    pub qnodes: u64,
    /// Beta cut-offs in the main search.
    pub cutoffs: u64,
    /// Beta cut-offs produced by the first move tried.
    pub first_move_cutoffs: u64,
    /// Transposition table probes that found an entry.
    pub tt_hits: u64,
    /// Nodes answered from the table without searching.
    pub tt_cutoffs: u64,
    /// Moves put off because another thread was searching them (Lazy SMP, `abdada.rs`).
    pub deferred: u64,
    /// Iterations given up because another thread completed one at least as deep (Lazy SMP).
    pub superseded: u64,
    /// Tablebase probes in the tree that gave an answer.
    pub tb_hits: u64,
}

impl Stats {
    /// Mean number of legal moves at interior nodes.
    pub fn mean_branching(&self) -> f64 {
        if self.interior == 0 {
            0.0
        } else {
            self.legal_moves as f64 / self.interior as f64
        }
    }

    /// Share of cut-offs made by the first move (1.0 is perfect ordering).
    pub fn first_move_cutoff_rate(&self) -> f64 {
        if self.cutoffs == 0 {
            0.0
        } else {
            self.first_move_cutoffs as f64 / self.cutoffs as f64
        }
    }
}

impl AddAssign for Stats {
    fn add_assign(&mut self, other: Stats) {
        self.nodes += other.nodes;
        self.interior += other.interior;
        self.legal_moves += other.legal_moves;
        self.leaves += other.leaves;
        self.qnodes += other.qnodes;
        self.cutoffs += other.cutoffs;
        self.first_move_cutoffs += other.first_move_cutoffs;
        self.tt_hits += other.tt_hits;
        self.tt_cutoffs += other.tt_cutoffs;
        self.deferred += other.deferred;
        self.superseded += other.superseded;
        self.tb_hits += other.tb_hits;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_and_sums() {
        let mut a = Stats {
            interior: 2,
            legal_moves: 50,
            cutoffs: 4,
            first_move_cutoffs: 3,
            ..Stats::default()
        };
        assert_eq!(a.mean_branching(), 25.0);
        assert_eq!(a.first_move_cutoff_rate(), 0.75);
        a += a;
        assert_eq!(a.legal_moves, 100);
        assert_eq!(Stats::default().mean_branching(), 0.0);
    }
}
