//! The sentences of an engine trace: what the observer (`observe/mod.rs`) says about the steps a
//! technique caused, the re-searches and aspiration fails it recognises, and the flags of the
//! children it enters. Values are shown in MAX's view, bounds by their names at the node
//! (β at MAX, α at MIN for the bound that cuts). Only words: nothing here records a node.

use shakmaty::{Color, Move};

use super::{ChessObserver, Frame, NodeKind};
use crate::trace::model::Score;
use crate::trace::techniques::{self as tech, Info};
use brudno_engine::eval::Value;
use brudno_engine::search::observer::Technique;
use brudno_tools::epd::notation::san;

impl ChessObserver {
    /// The root entered again within its iteration: an aspiration window failed (as the
    /// search said, or as the root's last value shows).
    pub(super) fn root_again(&mut self, depth: i32, alpha: Value, beta: Value) {
        let previous = self.entries[self.root];
        let (was_alpha, was_beta, value) = match self.take_pending(0) {
            Some(Technique::AspirationFailed { alpha, beta, value }) => (alpha, beta, value),
            _ => match previous.value {
                Some(value) => (previous.alpha, previous.beta, value),
                None => return,
            },
        };
        let low = value <= was_alpha;
        if !low && value < was_beta {
            return;
        }
        let info = if low {
            tech::ASPIRATION_FAIL_LOW
        } else {
            tech::ASPIRATION_FAIL_HIGH
        };
        let (was, now) = (
            self.window_text(0, was_alpha, was_beta),
            self.window_text(0, alpha, beta),
        );
        let text = format!(
            "Aspiration {}: depth {depth} in the window {was} returned {}, {} the window, so the root is searched again in {now}.",
            if low { "fail low" } else { "fail high" },
            self.show(0, value),
            if low { "below" } else { "above" },
        );
        self.rec.flag_last(info.name, text, self.line(info));
    }

    /// Flags the enter step of a child (`node`, at `ply`, under the open node `parent`) with
    /// what caused it, if anything did.
    pub(super) fn flag_child(
        &mut self,
        node: usize,
        ply: usize,
        parent: usize,
        depth: i32,
        alpha: Value,
        beta: Value,
    ) {
        let kind = self.kinds[node];
        let (parent_node, parent_depth, parent_ply) = {
            let f = &self.stack[parent];
            (f.node, f.depth, f.ply)
        };
        let parent_entry = self.entries[parent_node];
        let name = match kind {
            NodeKind::Move(mv) => san(&self.stack[parent].pos, mv),
            _ => String::new(),
        };
        let flag = match kind {
            NodeKind::NullMove => {
                let side = tech::side((parent_ply % 2 == 0) == (self.root_turn == Color::White));
                let reduction = parent_depth - 1 - depth;
                Some((
                    tech::NULL_MOVE,
                    format!(
                        "Null move: {side} passes, and the reply is searched {} shallower ({} left) with a null window at {}: if {side} holds it even so, the node is cut.",
                        tech::plies(reduction.max(0)),
                        tech::plies(depth.max(0)),
                        self.far_bound(parent_ply, parent_entry.beta)
                    ),
                ))
            }
            NodeKind::SingularTest => Some((
                tech::SINGULAR_TEST,
                format!(
                    "Singular test: the same position is searched again without the hash move, {} deep, against {}: if every other move stays below it, the hash move is the only good one.",
                    tech::plies(depth.max(0)),
                    self.near_bound(ply, alpha)
                ),
            )),
            NodeKind::Move(mv) => self.flag_move(parent, mv, &name, depth, alpha, beta),
            NodeKind::Other => None,
        };
        if let Some((info, text)) = flag {
            self.rec.flag_last(info.name, text, self.line(info));
        }
    }

    /// The flag of a child reached by `mv`: a re-search, a reduction or a null window.
    fn flag_move(
        &mut self,
        parent: usize,
        mv: Move,
        name: &str,
        depth: i32,
        alpha: Value,
        beta: Value,
    ) -> Option<(Info, String)> {
        let (parent_node, parent_ply) = (self.stack[parent].node, self.stack[parent].ply);
        let parent_entry = self.entries[parent_node];
        let siblings = &self.rec.nodes[parent_node].children;
        let previous = siblings
            .len()
            .checked_sub(2)
            .map(|i| siblings[i])
            .filter(|&p| self.kinds[p] == NodeKind::Move(mv));
        let announced = self.take_pending(parent_ply);
        if let Some(previous) = previous {
            let before = self.entries[previous];
            let wider = (beta - alpha) > (before.beta - before.alpha);
            let pvs = match announced {
                Some(Technique::PvsResearch { .. }) => true,
                Some(Technique::ReducedResearch { .. }) => false,
                _ if wider => true,
                _ if depth > before.depth => false,
                _ => return None,
            };
            let scored = before
                .value
                .map(|v| self.show(parent_ply + 1, v))
                .unwrap_or_else(|| "?".to_string());
            return Some(if pvs {
                (
                    tech::PVS_RESEARCH,
                    format!(
                        "PVS re-search: {name} scored {scored} in its null window, inside the window {}: it may be the new best move, so it is searched again with the full window.",
                        self.current_window(parent_node)
                    ),
                )
            } else {
                (
                    tech::LMR_RESEARCH,
                    format!(
                        "LMR re-search: the reduced search of {name} ({} left) scored {scored}, better than {}: it is searched again at full depth ({} left).",
                        tech::plies(before.depth.max(0)),
                        self.current_near(parent_node),
                        tech::plies(depth.max(0))
                    ),
                )
            });
        }
        if let Some(Technique::Reduced { reduction, .. }) = announced {
            return Some((
                tech::LMR,
                format!(
                    "Late move reduction: {name} is a late quiet move, searched {} shallower ({} left) with a null window.",
                    tech::plies(reduction),
                    tech::plies(depth.max(0))
                ),
            ));
        }
        if let Some(Technique::CheckExtension { .. }) = announced {
            return Some((
                tech::CHECK_EXTENSION,
                format!(
                    "Check extension: {name} gives check, so it is searched a ply deeper ({} left).",
                    tech::plies(depth.max(0))
                ),
            ));
        }
        let null_window = beta - alpha == 1;
        let parent_is_pv = parent_entry.beta - parent_entry.alpha > 1;
        if self.engine && null_window && parent_is_pv {
            return Some((
                tech::NULL_WINDOW,
                format!(
                    "PVS: {name} is searched with a null window at {}, only to prove that it is no better than the best move so far.",
                    self.current_near(parent_node)
                ),
            ));
        }
        None
    }

    /// The sentence of a technique the search reported at the open node `frame` (at `ply`,
    /// entered with the negamax window `window`).
    pub(super) fn sentence(
        &self,
        ply: usize,
        technique: Technique,
        frame: &Frame,
        beta: Value,
    ) -> String {
        let moves = tech::moves(frame.pos.legal_moves().len());
        let side = tech::side(frame.pos.turn() == Color::White);
        let cp = |v: Value| self.rec.format().show(Score::Value(i64::from(v)));
        let mv = |m: shakmaty::Move| san(&frame.pos, m);
        let near = self.current_near(frame.node);
        match technique {
            Technique::TableCutoff {
                value,
                stored_depth,
            } => format!(
                "Transposition table: this position was searched before to depth {stored_depth}; its stored {} answers the window, so none of its {moves} is searched.",
                self.show(ply, value)
            ),
            Technique::MateDistance => {
                "Mate distance: a mate found nearer the root beats anything here; the node returns at once."
                    .to_string()
            }
            Technique::ReverseFutility { eval, margin } => format!(
                "Reverse futility: the static evaluation {} stays beyond {} by more than the margin {} with {} left, so the node returns at once, without searching its {moves}.",
                self.show(ply, eval),
                self.far_bound(ply, beta),
                cp(margin),
                tech::plies(frame.depth)
            ),
            Technique::NullMoveCutoff { value, reduction } => format!(
                "Null-move cut-off: even passing, {side} holds {} against {} in a search {} shallower, so the node is cut without searching its {moves}.",
                self.show(ply, value),
                self.far_bound(ply, beta),
                tech::plies(reduction + 1)
            ),
            Technique::NullMoveFailed { value } => format!(
                "Null move failed: passing, {side} gets only {} against {}: the threat is real, so the moves are searched.",
                self.show(ply, value),
                self.far_bound(ply, beta)
            ),
            Technique::ProbCut { mv: m, value, bound } => format!(
                "ProbCut: the capture {} scores {} against the raised bound {} in a shallower search, so the node is cut without searching its {moves}.",
                mv(m),
                self.show(ply, value),
                self.show(ply, bound)
            ),
            Technique::InternalReduction => format!(
                "Internal iterative reduction: no hash move, this node was never searched before: it is searched a ply shallower ({} left).",
                tech::plies((frame.depth - 1).max(0))
            ),
            Technique::SingularExtension { mv: m } => format!(
                "Singular extension: every other move failed low in the singular test, so the hash move {} is searched a ply deeper.",
                mv(m)
            ),
            Technique::MultiCut { value } => format!(
                "Multi-cut: even without the hash move the node reaches {}, beyond {}: the node is cut.",
                self.show(ply, value),
                self.far_bound(ply, beta)
            ),
            Technique::LateMovePruning { mv: m, tried } => format!(
                "Late move pruning: {} is quiet and comes after {tried} quiet moves with {} left; it is skipped.",
                mv(m),
                tech::plies(frame.depth)
            ),
            Technique::Futility { mv: m, eval, margin } => format!(
                "Futility: the quiet move {} cannot lift the static evaluation {} plus the margin {} past {near}; it is skipped.",
                mv(m),
                self.show(ply, eval),
                cp(margin)
            ),
            Technique::SeePruning { mv: m, threshold } => format!(
                "SEE pruning: the exchange on the square of {} loses more than {} with {} left; it is skipped.",
                mv(m),
                cp(-threshold),
                tech::plies(frame.depth)
            ),
            Technique::CheckExtension { .. }
            | Technique::Reduced { .. }
            | Technique::ReducedResearch { .. }
            | Technique::PvsResearch { .. }
            | Technique::AspirationFailed { .. }
            | Technique::Quiescence { .. } => tech::of(technique).description.to_string(),
        }
    }
}
