//! What a search is switched to: `SearchConfig` (the evaluation and its network, threads,
//! MultiPV, Move Overhead, the tablebases, the selective techniques, and the lab's switches
//! that turn the table, quiescence, pruning and the order of moves off), and `Switches`, the
//! lab's switches alone, which the engine as it plays compiles in (`Observer::READS_SWITCHES`).

use std::sync::Arc;
use std::time::Duration;

use super::features::Features;
use super::movepick::MoveOrder;
use super::tablebase::Syzygy;
use crate::eval::Evaluation;
use crate::eval::nnue::{self, Network};

/// The switches of the search. `SearchConfig::default()` is the engine as it plays; the search
/// lab turns parts off to measure what each one buys.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    /// Alpha-beta cut-offs; `false` is plain minimax (every move searched with a full window).
    pub pruning: bool,
    /// How moves are ordered after the hash move.
    pub order: MoveOrder,
    /// Use the table's best move to order moves (and store results at all).
    pub hash_move: bool,
    /// Return stored scores from the table when their depth and bound allow.
    pub tt_cutoffs: bool,
    /// Search depths 1, 2, ... up to the limit; `false` searches the final depth only.
    pub iterative_deepening: bool,
    /// Quiescence search at the horizon; `false` scores the horizon with the static evaluation.
    pub quiescence: bool,
    /// Selective-search techniques (pruning, reductions, extensions, move-ordering heuristics).
    pub features: Features,
    /// The evaluation function.
    pub eval: Evaluation,
    /// The network `Evaluation::Nnue` evaluates with (the embedded one by default; the front
    /// ends put `EvalFile`'s here).
    pub network: Arc<Network>,
    /// Threads searching (Lazy SMP: helper threads share the table with the main thread).
    pub threads: usize,
    /// Principal variations reported per iteration (MultiPV), best first.
    pub multipv: usize,
    /// Move Overhead: time kept back for the GUI and the network.
    pub move_overhead: Duration,
    /// Syzygy tablebases and how to probe them; `None` without tables.
    pub syzygy: Option<Syzygy>,
    /// Count every interior node's legal moves (`Stats::legal_moves`), generating them
    /// where the move picker would not (the search lab's branching factor); off in play.
    pub count_legal_moves: bool,
}

impl Default for SearchConfig {
    fn default() -> Self {
        Self {
            pruning: true,
            order: MoveOrder::Staged,
            hash_move: true,
            tt_cutoffs: true,
            iterative_deepening: true,
            quiescence: true,
            features: Features::ALL,
            eval: Evaluation::default(),
            network: nnue::embedded(),
            threads: 1,
            multipv: 1,
            move_overhead: Duration::from_millis(10),
            syzygy: None,
            count_legal_moves: false,
        }
    }
}

/// The lab's switches of a `SearchConfig`: what the search lab turns off to show what each
/// part buys. The engine as it plays has them at `PLAYING`, compiled in (`Observer::
/// READS_SWITCHES`); only a search watched by the lab or given other switches reads them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Switches {
    /// `SearchConfig::pruning`.
    pub pruning: bool,
    /// `SearchConfig::order`.
    pub order: MoveOrder,
    /// `SearchConfig::hash_move`.
    pub hash_move: bool,
    /// `SearchConfig::tt_cutoffs`.
    pub tt_cutoffs: bool,
    /// `SearchConfig::quiescence`.
    pub quiescence: bool,
    /// `SearchConfig::count_legal_moves`.
    pub count_legal_moves: bool,
}

impl Switches {
    /// The engine as it plays.
    pub const PLAYING: Switches = Switches {
        pruning: true,
        order: MoveOrder::Staged,
        hash_move: true,
        tt_cutoffs: true,
        quiescence: true,
        count_legal_moves: false,
    };
}

impl SearchConfig {
    /// The lab's switches of this configuration.
    pub(crate) fn switches(&self) -> Switches {
        Switches {
            pruning: self.pruning,
            order: self.order,
            hash_move: self.hash_move,
            tt_cutoffs: self.tt_cutoffs,
            quiescence: self.quiescence,
            count_legal_moves: self.count_legal_moves,
        }
    }

    /// The search lab's starting point: plain alpha-beta at a fixed depth in generation order,
    /// with no table, no iterative deepening, no quiescence, nothing selective and material
    /// evaluation, counting every node's legal moves. The lab switches parts on from here.
    pub fn lab_baseline() -> Self {
        Self {
            pruning: true,
            order: MoveOrder::Generation,
            hash_move: false,
            tt_cutoffs: false,
            iterative_deepening: false,
            quiescence: false,
            features: Features::NONE,
            eval: Evaluation::Material,
            count_legal_moves: true,
            ..Self::default()
        }
    }
}
