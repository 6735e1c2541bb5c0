//! The tablebase probes inside the tree: at a node reached by a capture or a pawn move, with
//! few enough pieces, the tables know the result (step 5b of the search function,
//! `probe_tablebases` in `alphabeta.rs`), and the table keeps what they said. The tables
//! themselves, and the ranking of the root moves, are `tablebase/`.

use super::observer::Observer;
use super::params;
use super::score::{self, DRAW, MAX_PLY};
use super::tt::{Bound, TtEntry};
use super::worker::Worker;
use crate::eval::Value;
use crate::position::Position;

impl<O: Observer> Worker<'_, O> {
    /// Probes the tablebases at a node reached by a capture or a pawn move: with at most
    /// `tb_pieces` pieces, no castling rights, and (at exactly the piece limit) a remaining
    /// depth of at least `SyzygyProbeDepth`. Returns the tablebase score at `ply` and what it
    /// bounds. With `Syzygy50MoveRule`, a win the 50-move rule spoils (and a loss it saves)
    /// scores as a draw, nudged by 2 centipawns.
    #[cold]
    pub(super) fn probe_tablebase(
        &mut self,
        pos: &Position,
        depth: i32,
        ply: usize,
    ) -> Option<(Value, Bound)> {
        let syzygy = self.search.config.syzygy.as_ref()?;
        let pieces = pos.board().occupied().count();
        if pieces > self.tb_pieces || (pieces == self.tb_pieces && depth < syzygy.probe_depth) {
            return None;
        }
        let wdl = syzygy.tables.probe_wdl(pos.chess())? as i32;
        self.stats.tb_hits += 1;
        let draw = i32::from(syzygy.rule50);
        Some(if wdl < -draw {
            (score::tb_loss_in(ply), Bound::Upper)
        } else if wdl > draw {
            (score::tb_win_in(ply), Bound::Lower)
        } else {
            (DRAW + 2 * wdl * draw, Bound::Exact)
        })
    }

    /// Stores a tablebase result `value` with its `bound` for the node `pos` at `ply`,
    /// deeper than the node's `depth` by `tb_store_depth` (the tables know more than a
    /// search of that depth).
    #[cold]
    pub(super) fn store_tablebase_result(
        &mut self,
        pos: &Position,
        depth: i32,
        ply: usize,
        value: Value,
        bound: Bound,
    ) {
        let eval = if pos.is_check() {
            0
        } else {
            self.evaluate(pos, ply)
        };
        self.search.tt.store(
            pos.key(),
            TtEntry {
                mv: 0,
                score: score::to_tt(value, ply),
                eval,
                depth: (depth + params::tb_store_depth()).min(MAX_PLY as i32 - 1),
                bound,
            },
        );
    }
}
