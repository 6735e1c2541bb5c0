//! The search: one negamax alpha-beta function (fail-soft) for the root, PV and non-PV
//! nodes, run by one `Worker` per thread.
//!
//! Bounds go down, values come up: a node is searched with a window `(alpha, beta)`, each
//! child with the negated window `(-beta, -alpha)`, and its value comes back negated. A move
//! whose value reaches `beta` refutes the opponent's previous move (`score >= beta` is the
//! cut-off) and the rest of the moves are skipped. Fail-soft: the returned value may lie
//! outside the window, which tells the table more than the bound would.
//!
//! `Worker::node` is that function. Its const parameter `ROOT` picks the root's steps (its
//! moves are the iteration's root moves with their scores and lines, and it prunes nothing);
//! a PV node is one with an open window (`beta - alpha > 1`). Its steps are numbered here and
//! each is a function a reader sees on one screen: the node's entry (this file), the
//! whole-node pruning (`pruning.rs`), the move loop with its per-move pruning and the search
//! of one move (`moves.rs`), and the store. Each selective step is guarded by its switch in
//! `Features`, so that with `Features::NONE` this is plain alpha-beta (the search lab and
//! the alpha-beta = minimax tests rely on that). Nothing here allocates per node: move lists
//! and PV lines live in fixed-size arrays.

use shakmaty::{Color, Move};

use super::correction::CorrectionKeys;
use super::observer::{LeafKind, Observer, Technique};
use super::score::{self, DRAW, INFINITY, MAX_PLY, mate_in, mated_in};
use super::tt::{Bound, PackedMove, TtEntry};
use super::worker::Worker;
use crate::eval::Value;
use crate::position::Position;

/// What one node knows once entered: its window and place, then what the table and the
/// static evaluation told it. Every stage reads it; the entry stages fill it in.
#[derive(Clone, Copy)]
pub(super) struct Node {
    /// Plies left to search.
    pub depth: i32,
    /// The window's lower bound, raised by the moves.
    pub alpha: Value,
    /// The window's upper bound.
    pub beta: Value,
    /// Alpha as the node was entered (after mate-distance pruning): the store's bound.
    pub original_alpha: Value,
    /// Distance from the root.
    pub ply: usize,
    /// Expected to fail high (the null-window child of a move searched first elsewhere).
    pub cut_node: bool,
    /// An open window: a node on the principal variation.
    pub pv_node: bool,
    /// The side to move.
    pub turn: Color,
    /// The side to move is in check (read after the entry stages).
    pub in_check: bool,
    /// The move left out by the singular-extension test (0: none).
    pub excluded: PackedMove,
    /// The table's move (0: none).
    pub hash_move: PackedMove,
    /// The table's entry, when it holds the node.
    pub tt_entry: Option<TtEntry>,
    /// The evaluation the table keeps (uncorrected).
    pub raw_eval: Value,
    /// The corrected evaluation the pruning reads (`-INFINITY` in check).
    pub static_eval: Value,
    /// The static evaluation beats the one of two plies ago.
    pub improving: bool,
    /// The correction history's keys (none in check or with the switch off).
    pub correction_keys: Option<CorrectionKeys>,
    /// The best value so far (a tablebase win at a PV node starts it).
    pub best: Value,
    /// A tablebase loss caps the value of a PV node.
    pub max_value: Value,
    /// The hash move's extension by the singular test: 1, 0 or -1.
    pub singular_extension: i32,
    /// The hash move, legal here, for the staged picker.
    pub staged_hash: Option<Move>,
}

impl<O: Observer> Worker<'_, O> {
    /// The search of one node below the root, as its observer sees it: entered with its
    /// window, left with its value.
    #[inline(always)]
    pub(super) fn negamax(
        &mut self,
        pos: &Position,
        depth: i32,
        alpha: Value,
        beta: Value,
        ply: usize,
        cut_node: bool,
    ) -> Value {
        self.observer.enter(pos, ply, depth, alpha, beta);
        let value = self.node::<false>(pos, depth, alpha, beta, ply, cut_node);
        self.observer.leave(ply, value);
        value
    }

    /// Searches the root moves from `pv_index` on to `depth` within `(alpha, beta)`; a move
    /// that raises alpha moves to `pv_index`, so the next iteration searches it first. The
    /// observer sees the root entered with its window and left with its value.
    #[inline(always)]
    pub(super) fn search_root(
        &mut self,
        depth: i32,
        pv_index: usize,
        alpha: Value,
        beta: Value,
    ) -> Value {
        let root = self.search.position;
        self.pv_index = pv_index;
        self.observer.enter(root, 0, depth, alpha, beta);
        let value = self.node::<true>(root, depth, alpha, beta, 0, false);
        self.observer.leave(0, value);
        value
    }

    /// The search function: the steps of a node, root or not.
    fn node<const ROOT: bool>(
        &mut self,
        pos: &Position,
        depth: i32,
        alpha: Value,
        beta: Value,
        ply: usize,
        cut_node: bool,
    ) -> Value {
        // Every node below the root is at ply 1 to MAX_PLY - 1 (the horizon below stops
        // at MAX_PLY - 1): saying so once lets the compiler drop the bounds checks of the
        // per-ply arrays.
        debug_assert!(ROOT || (1..MAX_PLY).contains(&ply), "ply {ply}");
        let ply = if ROOT { 0 } else { ply.clamp(1, MAX_PLY - 1) };
        let mut node = Node {
            depth,
            alpha,
            beta,
            original_alpha: alpha,
            ply,
            cut_node,
            pv_node: beta - alpha > 1,
            turn: pos.turn(),
            in_check: false,
            excluded: 0,
            hash_move: 0,
            tt_entry: None,
            raw_eval: -INFINITY,
            static_eval: -INFINITY,
            improving: false,
            correction_keys: None,
            best: -INFINITY,
            max_value: INFINITY,
            singular_extension: 0,
            staged_hash: None,
        };

        // Step 1. Count the node; below the root, poll the clock and the stop flag.
        self.stats.nodes += 1;
        if ROOT {
            // The root counts as interior at once, with its legal moves.
            self.stats.interior += 1;
            self.stats.legal_moves += self.root_moves.len() as u64;
        } else {
            // Steps 2 to 5b: draws, mate distance, the horizon, the table, the tablebases.
            if let Some(value) = self.enter_node(pos, &mut node) {
                return value;
            }
        }

        // Read once the node is not answered at its entry: most nodes that end there never
        // ask.
        node.in_check = pos.is_check();

        // Step 6. Static evaluation (from the table when stored) and whether it improved on
        // our position two plies ago.
        self.static_evaluation::<ROOT>(pos, &mut node);

        if !ROOT {
            // Steps 7 to 8b. Whole-node pruning: reverse futility, null move, ProbCut.
            if let Some(value) = self.prune_node(pos, &node) {
                return value;
            }
            // Steps 9 to 10b. Internal iterative reduction, the hash move, the singular test.
            if let Some(value) = self.shape_node(pos, &mut node) {
                return value;
            }
        }

        // Step 11. Search the moves (a node without any is mate or stalemate).
        let best_move = match self.search_moves::<ROOT>(pos, &mut node) {
            Ok(best_move) => best_move,
            Err(value) => return value,
        };
        if self.aborted {
            return if ROOT { node.best } else { DRAW };
        }

        // Step 12. Store the result; below the root, the correction history learns.
        if ROOT {
            self.store_root(&node);
            node.best
        } else {
            self.finish_node(pos, &node, best_move)
        }
    }

    /// Steps 2 to 5b of a node below the root: the value when one of them answers it.
    #[inline(always)]
    fn enter_node(&mut self, pos: &Position, node: &mut Node) -> Option<Value> {
        let ply = node.ply;
        self.pv[ply].clear();
        self.seldepth = self.seldepth.max(ply);
        if self.poll_abort() {
            return Some(DRAW);
        }

        // Step 2. Draws: fifty-move rule, repetition, insufficient material. A mate on the
        // hundredth half-move still counts as a mate.
        if (pos.halfmoves() >= 100 && !(pos.is_check() && pos.legal_moves().is_empty()))
            || self.is_repetition(pos)
            || pos.is_insufficient_material()
        {
            self.stats.leaves += 1;
            self.observer.leaf(ply, DRAW, LeafKind::Draw);
            return Some(DRAW);
        }

        // Step 3. Mate-distance pruning: no line from here can beat a mate already found
        // closer to the root.
        if self.features.mate_distance {
            node.alpha = node.alpha.max(mated_in(ply));
            node.beta = node.beta.min(mate_in(ply + 1));
            if node.alpha >= node.beta {
                self.observer.technique(ply, Technique::MateDistance);
                return Some(node.alpha);
            }
        }
        node.original_alpha = node.alpha;

        // Step 4. At the horizon, resolve captures (quiescence) or take the static evaluation.
        if node.depth <= 0 || ply >= MAX_PLY - 1 {
            return Some(self.horizon(pos, node));
        }

        // Step 5. The transposition table; step 5b, the tablebases.
        self.probe_table(pos, node)
            .or_else(|| self.probe_tablebases(pos, node))
    }

    /// Step 4: the value at the horizon, from quiescence or the static evaluation.
    #[inline(always)]
    fn horizon(&mut self, pos: &Position, node: &Node) -> Value {
        let ply = node.ply;
        self.stats.leaves += 1;
        let value = if self.switches().quiescence && ply < MAX_PLY - 1 {
            let before = self.stats.qnodes;
            let value = self.quiesce_node(pos, node.alpha, node.beta, ply);
            let nodes = self.stats.qnodes - before;
            self.observer
                .technique(ply, Technique::Quiescence { nodes });
            value
        } else {
            self.evaluate(pos, ply)
        };
        self.observer.leaf(ply, value, LeafKind::Horizon);
        value
    }

    /// Step 5. Transposition table: a deep enough stored bound may answer the node outright
    /// (not at PV nodes when PVS is on, to keep the PV whole); otherwise its move goes first.
    /// A node searched without one move (the singular-extension test) neither stops at a
    /// stored bound nor stores its own: the table's entry is about all the moves.
    #[inline(always)]
    fn probe_table(&mut self, pos: &Position, node: &mut Node) -> Option<Value> {
        let switches = self.switches();
        node.excluded = self.plies[node.ply].excluded;
        if !switches.hash_move {
            return None;
        }
        let entry = self.search.tt.probe(pos.key())?;
        self.stats.tt_hits += 1;
        node.hash_move = entry.mv;
        node.tt_entry = Some(entry);
        if switches.tt_cutoffs
            && node.excluded == 0
            && entry.depth >= node.depth
            && !(self.features.pvs && node.pv_node)
        {
            let stored = score::from_tt(entry.score, node.ply);
            if entry.bound.cuts(stored, node.alpha, node.beta) {
                self.stats.tt_cutoffs += 1;
                self.observer.technique(
                    node.ply,
                    Technique::TableCutoff {
                        value: stored,
                        stored_depth: entry.depth,
                    },
                );
                return Some(stored);
            }
        }
        None
    }

    /// Step 5b. Tablebases: right after a capture or pawn move, with few enough pieces, the
    /// tables know the result. A draw is exact; a win is a lower bound and a loss an upper
    /// bound (a mate may be quicker or slower), returned when the window allows it.
    #[inline(always)]
    fn probe_tablebases(&mut self, pos: &Position, node: &mut Node) -> Option<Value> {
        if self.tb_pieces == 0 || node.excluded != 0 || pos.halfmoves() != 0 {
            return None;
        }
        let (value, bound) = self.probe_tablebase(pos, node.depth, node.ply)?;
        if bound.cuts(value, node.alpha, node.beta) {
            if self.switches().hash_move {
                self.store_tablebase_result(pos, node.depth, node.ply, value, bound);
            }
            return Some(value);
        }
        if node.pv_node {
            if bound == Bound::Lower {
                node.best = value;
                node.alpha = node.alpha.max(value);
            } else {
                node.max_value = value;
            }
        }
        None
    }

    /// Step 6. The static evaluation: from the table when stored, then corrected by the
    /// correction history (the table and the history keep the raw one; the corrected one
    /// drives the pruning), and whether it improved on our position two plies ago. The root
    /// takes the raw evaluation.
    #[inline(always)]
    fn static_evaluation<const ROOT: bool>(&mut self, pos: &Position, node: &mut Node) {
        let ply = node.ply;
        if ROOT {
            if !node.in_check {
                node.static_eval = self.evaluate(pos, 0);
            }
            self.plies[0].static_eval = node.static_eval;
            return;
        }
        if !node.in_check {
            node.correction_keys = self.correction_keys(pos, ply);
            node.raw_eval = match node.tt_entry {
                Some(entry) => entry.eval,
                None => self.evaluate(pos, ply),
            };
            node.static_eval = self.corrected_eval(node.raw_eval, node.correction_keys.as_ref());
        }
        self.plies[ply].static_eval = node.static_eval;
        self.plies[ply + 2].killers = [0, 0];
        node.improving = !node.in_check
            && ply >= 2
            && (self.plies[ply - 2].static_eval == -INFINITY
                || node.static_eval > self.plies[ply - 2].static_eval);
    }

    /// Step 12 below the root: the result is stored with its bound type (failing high gives
    /// a lower bound, failing low an upper bound, anything inside the window is exact; a
    /// tablebase loss caps the value of a PV node), and the correction history learns.
    #[inline(always)]
    fn finish_node(&mut self, pos: &Position, node: &Node, best_move: Option<Move>) -> Value {
        let ply = node.ply;
        let best = node.best.min(node.max_value);
        let bound = Bound::of(best, node.original_alpha, node.beta);
        if self.switches().hash_move && node.excluded == 0 {
            self.search.tt.store(
                pos.key(),
                TtEntry {
                    mv: best_move.map_or(0, super::tt::pack_move),
                    score: score::to_tt(best, ply),
                    eval: if node.in_check { 0 } else { node.raw_eval },
                    depth: node.depth,
                    bound,
                },
            );
        }
        // Step 13. The correction history learns where the result says more than the static
        // evaluation: not in check (no evaluation), not when a capture or promotion decided
        // the node, and only in the direction its bound allows.
        if node.excluded == 0
            && let Some(keys) = &node.correction_keys
            && (bound == Bound::Upper
                || best_move.is_none_or(|mv| !crate::position::is_tactical(mv)))
            && !(bound == Bound::Lower && best <= node.static_eval)
            && !(bound == Bound::Upper && best >= node.static_eval)
        {
            self.update_correction(keys, node.depth, node.static_eval, best);
        }
        best
    }

    /// Step 12 at the root: the first line's best move and score go into the table, with
    /// the bound the window gives it (an aspiration window that failed low or high leaves
    /// only a bound, not the exact value).
    fn store_root(&mut self, node: &Node) {
        if self.switches().hash_move && self.pv_index == 0 {
            let root = self.search.position;
            self.search.tt.store(
                root.key(),
                TtEntry {
                    mv: super::tt::pack_move(self.root_moves[0].mv),
                    score: score::to_tt(node.best, 0),
                    eval: 0,
                    depth: node.depth,
                    bound: Bound::of(node.best, node.original_alpha, node.beta),
                },
            );
        }
    }
}
