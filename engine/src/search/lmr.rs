//! Late move reductions: how many plies shorter a late quiet move is searched. The amount is
//! decided here, in 1024ths of a ply until the last step, so that every number of it is a
//! tunable that SPSA can move by less than a ply: the table's `lmr_base + ln(depth)
//! ln(move number) / lmr_divisor`, then more at expected cut nodes and where the position is
//! not improving, less at PV nodes, for killers and for a good history (`params.rs`).
//!
//! The table is computed once per process from the tunables; in a tuning build it is computed
//! again after a tunable changed, and the old one is freed when the last search using it ends
//! (`Arc`), so a long SPSA run does not grow.

use std::sync::Arc;

use super::params;
use super::score::MAX_PLY;

/// A ply, in the units of the reductions.
pub const PLY: i32 = 1024;

/// Moves numbered in the table; later moves read its last column.
const MOVES: usize = 64;

/// The table's part of the reduction by `[depth][move number]`, in 1024ths of a ply.
pub type Table = [[i32; MOVES]; MAX_PLY + 1];

/// The table from the tunables `lmr_base` and `lmr_divisor`.
fn compute() -> Arc<Table> {
    let mut table = Arc::new([[0; MOVES]; MAX_PLY + 1]);
    let cells = Arc::make_mut(&mut table);
    for (depth, row) in cells.iter_mut().enumerate().skip(1) {
        for (number, cell) in row.iter_mut().enumerate().skip(1) {
            *cell = params::lmr_table_entry(depth, number);
        }
    }
    table
}

/// The table, computed once.
#[cfg(not(feature = "tune"))]
pub fn table() -> Arc<Table> {
    static TABLE: std::sync::OnceLock<Arc<Table>> = std::sync::OnceLock::new();
    Arc::clone(TABLE.get_or_init(compute))
}

/// The table, computed again after a tunable changed (a tuning build).
#[cfg(feature = "tune")]
pub fn table() -> Arc<Table> {
    use std::sync::Mutex;
    use std::sync::atomic::Ordering;
    static TABLE: Mutex<Option<(u64, Arc<Table>)>> = Mutex::new(None);
    let generation = params::GENERATION.load(Ordering::Relaxed);
    let mut slot = TABLE.lock().unwrap_or_else(|p| p.into_inner());
    match &*slot {
        Some((built, table)) if *built == generation => Arc::clone(table),
        _ => {
            let table = compute();
            *slot = Some((generation, Arc::clone(&table)));
            table
        }
    }
}

/// What decides the reduction of one late quiet move.
pub(super) struct LateMove {
    pub depth: i32,
    /// Moves searched before it at this node.
    pub searched: usize,
    pub pv_node: bool,
    pub improving: bool,
    pub cut_node: bool,
    /// One of this ply's killers.
    pub killer: bool,
    /// Its butterfly history.
    pub butterfly: i32,
    /// Its continuation history (the sum over the rows).
    pub continuation: i32,
}

/// The reduction for a late quiet move, in whole plies (it may be negative: the caller keeps
/// it between 0 and the depth left).
pub(super) fn reduction(table: &Table, late: &LateMove) -> i32 {
    let depth = (late.depth as usize).min(MAX_PLY);
    let mut reduction = table[depth][late.searched.min(MOVES - 1)];
    if late.pv_node {
        reduction -= params::lmr_pv_node();
    }
    if !late.improving {
        reduction += params::lmr_not_improving();
    }
    if late.cut_node {
        reduction += params::lmr_cut_node();
    }
    if late.killer {
        reduction -= params::lmr_killer();
    }
    let history = late.butterfly + late.continuation * params::lmr_continuation_percent() / 100;
    reduction -= history * PLY / params::lmr_history_divisor();
    reduction / PLY
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table grows with the depth and the move number, from nothing at the first move.
    #[test]
    fn the_table_grows_with_depth_and_move_number() {
        let table = table();
        assert_eq!(table[1][1], params::lmr_table_entry(1, 1));
        assert!(table[10][10] > table[5][10] && table[10][10] > table[10][5]);
        assert!(table[MAX_PLY][MOVES - 1] > 4 * PLY);
        // Not whole plies: the fraction is kept.
        assert!(table.iter().flatten().any(|&r| r % PLY != 0));
    }
}
