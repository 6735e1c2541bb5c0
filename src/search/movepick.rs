//! The move picker: the moves of a node one at a time, in the order the search tries them,
//! each stage prepared only when the search gets to it. One picker serves every place that
//! loops over moves, in modes rather than copies:
//!
//! - **Main** (`MovePicker::main`, the interior nodes of `alphabeta.rs`, evasions included):
//!   the hash move first (its legality checked without generating the moves), then good
//!   captures and promotions by MVV-LVA (or MVV-LVA and capture history), static exchange
//!   evaluation only when a capture is reached, then the two killers, the countermove, the
//!   quiet moves by history (scored only when that stage is reached, and not at all when the
//!   search says to skip them, as late move pruning does), and last the captures that lose
//!   material.
//! - **Quiescence** (`MovePicker::quiescence`): captures and promotions by MVV-LVA, or every
//!   evasion when in check.
//! - **ProbCut** (`MovePicker::probcut`): captures whose static exchange clears a threshold.
//! - **Lab** (`MovePicker::lab`): the search lab's fixed orders (generation, worst, random)
//!   and the root's first order: every legal move scored at once, as the textbook algorithm
//!   generates them.
//!
//! Within a stage, equal scores keep the generation order (a stable order), so the order
//! never depends on how the moves were picked. The picker only orders and filters: it never
//! adds a move, yields a move twice, or yields an illegal one (property test in
//! `movepick/tests.rs`). It reads the histories and never changes them.

use arrayvec::ArrayVec;
use shakmaty::{Color, Move};

use super::features::Features;
use super::histories::Histories;
use super::history::{ContinuationHistory, from_to, piece_to};
use super::ordering::{self, MoveOrder, ScoredMove, ScoredMoves, is_tactical, pick_next};
use super::see;
use super::tt::{self, PackedMove};
use crate::eval::Value;
use crate::position::Position;

/// Capture ordering with capture history: MVV-LVA points weigh this much against it.
const MVV_LVA_WEIGHT: i32 = 1024;
/// Quiet moves picked by selection before the rest are sorted at once.
const SELECTION_PICKS: usize = 4;

/// Where the picker is: each stage prepares its moves when it is reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// Main: the hash move.
    Hash,
    /// Main: generate the moves, score the captures.
    Generate,
    /// Main: captures and promotions that do not lose material.
    GoodCaptures,
    /// Main: the first killer.
    FirstKiller,
    /// Main: the second killer.
    SecondKiller,
    /// Main: the countermove.
    Countermove,
    /// Main: score the quiet moves.
    ScoreQuiets,
    /// Main: the quiet moves by history.
    Quiets,
    /// Main: the captures that lose material.
    BadCaptures,
    /// Quiescence and ProbCut: generate the captures (or evasions) and score them.
    GenerateTactical,
    /// Quiescence and ProbCut: the captures by MVV-LVA.
    Tactical,
    /// Lab: every move scored at once, picked by score.
    Scored,
    /// Nothing left.
    Done,
}

/// What the picker needs to know of the search to order quiet moves and captures: the
/// switches, the histories, the side to move and the continuation rows of the moves one and
/// two plies before.
#[derive(Clone, Copy)]
pub struct OrderingContext<'a> {
    /// The selective-search switches (killers, countermove, histories, SEE).
    pub features: Features,
    /// The thread's learned tables.
    pub histories: &'a Histories,
    /// The continuation-history rows of the moves one and two plies before (0 for none), or
    /// `None` when the continuation history is off.
    pub continuation: Option<[usize; 2]>,
    /// The node's two killer moves, packed (0 for none).
    pub killers: [PackedMove; 2],
    /// The node's countermove, packed (0 for none).
    pub countermove: PackedMove,
}

impl OrderingContext<'_> {
    /// What the histories say of the quiet move `mv` by `side`: its butterfly history and
    /// its continuation history (0 where a switch is off), apart: ordering adds them, late
    /// move reductions weigh the continuation half.
    #[inline]
    pub fn quiet_histories(&self, side: Color, mv: Move) -> (i32, i32) {
        let butterfly = if self.features.history {
            self.histories.butterfly.get(side, from_to(mv))
        } else {
            0
        };
        let continuation = self.continuation.map_or(0, |rows| {
            let index = piece_to(side, mv);
            rows.iter()
                .filter(|&&row| row != 0)
                .map(|&row| self.histories.continuation.get(row, index))
                .sum()
        });
        (butterfly, continuation)
    }

    /// The ordering score of a capture or promotion: MVV-LVA, with capture history when on.
    #[inline]
    fn capture_score(&self, side: Color, mv: Move) -> i32 {
        let mvv_lva = ordering::mvv_lva_score(mv);
        if self.features.capture_history {
            mvv_lva * MVV_LVA_WEIGHT + self.histories.captures.get(side, mv) / 2
        } else {
            mvv_lva
        }
    }
}

/// The continuation-history rows for a node whose previous two moves had the piece-to
/// indices `previous` (one ply before) and `before` (two plies before), 0 for none.
pub fn continuation_rows(previous: u16, before: u16) -> [usize; 2] {
    [
        ContinuationHistory::row(previous),
        ContinuationHistory::row(before),
    ]
}

/// The moves of one node, one at a time (see the module's description).
pub struct MovePicker {
    stage: Stage,
    /// The hash move, legal here.
    hash_move: Option<Move>,
    /// A move left out altogether (the singular-extension test), packed; 0 for none.
    excluded: PackedMove,
    killers: [PackedMove; 2],
    countermove: PackedMove,
    /// ProbCut: the least static exchange gain a capture must have.
    see_threshold: Option<Value>,
    /// The moves of the current stage (captures, quiets, or everything in the lab), scored.
    moves: ScoredMoves,
    /// The quiet moves, set aside while the captures are picked (main mode).
    quiets: ScoredMoves,
    /// Captures that lose material, in the order they were met (best MVV-LVA first).
    bad_captures: ArrayVec<Move, 64>,
    /// The next index to pick in `moves`.
    next: usize,
    /// Moves generated at this node (0 until the moves are generated).
    generated: usize,
    /// Whether the moves have been generated (none generated then means none legal).
    has_generated: bool,
    /// Whether the search asked to skip the remaining quiet moves.
    skip_quiets: bool,
}

impl MovePicker {
    fn new(stage: Stage) -> Self {
        Self {
            stage,
            hash_move: None,
            excluded: 0,
            killers: [0; 2],
            countermove: 0,
            see_threshold: None,
            moves: ScoredMoves::new(),
            quiets: ScoredMoves::new(),
            bad_captures: ArrayVec::new(),
            next: 0,
            generated: 0,
            has_generated: false,
            skip_quiets: false,
        }
    }

    /// The picker of an interior node: the hash move (checked legal here, by
    /// `tt::legal_move_from_packed`) and `excluded`, a move never to yield (0 for none). The
    /// killers and the countermove are read from the context when the moves are generated.
    pub fn main(hash_move: Option<Move>, excluded: PackedMove) -> Self {
        let mut picker = Self::new(Stage::Hash);
        picker.hash_move = hash_move.filter(|&m| tt::pack_move(m) != excluded);
        picker.excluded = excluded;
        picker
    }

    /// The picker of a quiescence node: captures and promotions, or every evasion in check.
    pub fn quiescence() -> Self {
        Self::new(Stage::GenerateTactical)
    }

    /// The picker of ProbCut: captures and promotions whose static exchange gains at least
    /// `threshold`.
    pub fn probcut(threshold: Value) -> Self {
        let mut picker = Self::new(Stage::GenerateTactical);
        picker.see_threshold = Some(threshold);
        picker
    }

    /// The picker of the search lab's fixed orders: `moves` (all legal, or the root's
    /// candidates) scored at once by `order`, the move packed as `hash_move` first when it
    /// is among them, the move packed as `excluded` left out (0 for none).
    pub fn lab(
        moves: &[Move],
        order: MoveOrder,
        hash_move: PackedMove,
        key: u64,
        excluded: PackedMove,
    ) -> Self {
        let mut picker = Self::new(Stage::Scored);
        picker.moves = ordering::score_moves(moves, order, hash_move, key, |_| 0);
        if excluded != 0 {
            picker.moves.retain(|m| tt::pack_move(m.mv) != excluded);
        }
        picker.generated = moves.len();
        picker.has_generated = true;
        picker
    }

    /// The whole order of a lab picker (the root's first order), best first.
    pub fn into_order(mut self) -> Vec<Move> {
        debug_assert_eq!(self.stage, Stage::Scored);
        (0..self.moves.len())
            .map(|index| pick_next(&mut self.moves, index))
            .collect()
    }

    /// The search will not try any more quiet moves (late move pruning): the picker skips
    /// what is left of them (killers and countermove included) and goes on with the losing
    /// captures.
    pub fn skip_quiets(&mut self) {
        self.skip_quiets = true;
    }

    /// Whether the node's moves have been generated, and how many there were (0: no legal
    /// move, when generated).
    pub fn generated(&self) -> Option<usize> {
        self.has_generated.then_some(self.generated)
    }

    /// The next move to try, or `None` when there is none left.
    pub fn next(&mut self, pos: &Position, context: &OrderingContext) -> Option<Move> {
        loop {
            match self.stage {
                Stage::Hash => {
                    self.stage = Stage::Generate;
                    if let Some(mv) = self.hash_move {
                        return Some(mv);
                    }
                }
                Stage::Generate => {
                    self.generate_main(pos, context);
                    self.stage = Stage::GoodCaptures;
                }
                Stage::GoodCaptures => {
                    while self.next < self.moves.len() {
                        let mv = pick_next(&mut self.moves, self.next);
                        self.next += 1;
                        if !context.features.see || see::see_non_negative(pos, mv) {
                            return Some(mv);
                        }
                        let _ = self.bad_captures.try_push(mv);
                    }
                    self.stage = Stage::FirstKiller;
                }
                Stage::FirstKiller | Stage::SecondKiller | Stage::Countermove => {
                    let (candidate, next) = match self.stage {
                        Stage::FirstKiller => (self.killers[0], Stage::SecondKiller),
                        Stage::SecondKiller => (self.killers[1], Stage::Countermove),
                        _ => (self.countermove, Stage::ScoreQuiets),
                    };
                    self.stage = next;
                    if self.skip_quiets || candidate == 0 {
                        continue;
                    }
                    if let Some(index) = self
                        .quiets
                        .iter()
                        .position(|m| tt::pack_move(m.mv) == candidate)
                    {
                        return Some(self.quiets.remove(index).mv);
                    }
                }
                Stage::ScoreQuiets => {
                    self.moves = std::mem::take(&mut self.quiets);
                    self.next = 0;
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    if !self.skip_quiets && self.next < self.moves.len() {
                        let index = self.next;
                        self.next += 1;
                        return Some(if index < SELECTION_PICKS {
                            pick_next(&mut self.moves, index)
                        } else {
                            if index == SELECTION_PICKS {
                                self.moves[index..].sort_by_key(|m| std::cmp::Reverse(m.score));
                            }
                            self.moves[index].mv
                        });
                    }
                    self.next = 0;
                    self.stage = Stage::BadCaptures;
                }
                Stage::BadCaptures => {
                    if self.next < self.bad_captures.len() {
                        self.next += 1;
                        return Some(self.bad_captures[self.next - 1]);
                    }
                    self.stage = Stage::Done;
                }
                Stage::GenerateTactical => {
                    let tactical = pos.tactical_moves();
                    self.has_generated = true;
                    self.generated = tactical.len();
                    for &mv in &tactical {
                        let score = ordering::mvv_lva_score(mv);
                        self.moves.push(ScoredMove { mv, score });
                    }
                    self.stage = Stage::Tactical;
                }
                Stage::Tactical => {
                    while self.next < self.moves.len() {
                        let mv = pick_next(&mut self.moves, self.next);
                        self.next += 1;
                        match self.see_threshold {
                            Some(threshold) if !see::see_ge(pos, mv, threshold) => {}
                            _ => return Some(mv),
                        }
                    }
                    self.stage = Stage::Done;
                }
                Stage::Scored => {
                    if self.next < self.moves.len() {
                        let index = self.next;
                        self.next += 1;
                        return Some(pick_next(&mut self.moves, index));
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }

    /// Generates the legal moves of an interior node: captures and promotions into `moves`
    /// with their scores, quiet moves aside into `quiets` (scored later, if reached), the
    /// hash move and the excluded move left out.
    fn generate_main(&mut self, pos: &Position, context: &OrderingContext) {
        let legal = pos.legal_moves();
        self.has_generated = true;
        self.generated = legal.len();
        let hash = self.hash_move.map_or(0, tt::pack_move);
        let us = pos.turn();
        for &mv in &legal {
            let packed = tt::pack_move(mv);
            if packed == hash || packed == self.excluded {
                continue;
            }
            if is_tactical(mv) {
                let score = context.capture_score(us, mv);
                self.moves.push(ScoredMove { mv, score });
            } else {
                let (butterfly, continuation) = context.quiet_histories(us, mv);
                let score = butterfly + continuation;
                self.quiets.push(ScoredMove { mv, score });
            }
        }
        // Killers and the countermove are quiet moves by definition (a capture stored as
        // one is tried with the captures): without their switches, they are not special.
        self.killers = if context.features.killers {
            context.killers
        } else {
            [0; 2]
        };
        self.countermove = context.countermove;
        if self.killers[1] == self.killers[0] {
            self.killers[1] = 0;
        }
        if self.killers.contains(&self.countermove) {
            self.countermove = 0;
        }
    }
}

#[cfg(test)]
mod tests;
