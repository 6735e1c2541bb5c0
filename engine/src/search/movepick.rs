//! The move picker: the moves of a node one at a time, in the order the search tries them,
//! each stage prepared only when the search gets to it. One picker serves every place that
//! loops over moves, in modes rather than copies:
//!
//! - **Main** (`MovePicker::main`, the interior nodes of `alphabeta.rs`, evasions included):
//!   the hash move first (its legality checked without generating the moves), then good
//!   captures and promotions by MVV-LVA and capture history (good: the static exchange,
//!   evaluated only when a capture is reached, clears a threshold that the capture history
//!   moves), then the two killers, the countermove, the
//!   quiet moves by history (scored only when that stage is reached, and not at all when the
//!   search says to skip them, as late move pruning does), and last the captures that lose
//!   material.
//! - **Quiescence** (`MovePicker::quiescence`): captures and promotions by MVV-LVA and
//!   capture history, or every evasion when in check.
//! - **ProbCut** (`MovePicker::probcut`): captures whose static exchange clears a threshold.
//!   (The root's first order comes from the main mode, with the histories kept from the
//!   previous search: `worker.rs`.)
//! - **Lab** (`MovePicker::lab`, `movepick/fixed.rs`): the search lab's fixed orders
//!   (generation, worst, random): every legal move scored at once, as the textbook
//!   algorithm generates them.
//!
//! Within a stage, equal scores keep the generation order (a stable order), so the order
//! never depends on how the moves were picked. The picker only orders and filters: it never
//! adds a move, yields a move twice, or yields an illegal one (property test in
//! `movepick/tests.rs`). It reads the histories and never changes them.

use arrayvec::ArrayVec;
use shakmaty::{Color, Move, Role};

use super::features::Features;
use super::history::Histories;
use super::history::{capture_index, from_to, piece_to};
use super::params;
use super::see;
use super::tt::{self, PackedMove};
use crate::eval::Value;
use crate::position::{CheckInfo, Position, is_tactical};

mod fixed;

pub use fixed::MoveOrder;

/// Quiet moves picked by selection before the rest are sorted at once.
const SELECTION_PICKS: usize = 4;

/// A move with its ordering score (higher is tried earlier).
#[derive(Clone, Copy, Debug)]
pub struct ScoredMove {
    /// The move.
    pub mv: Move,
    /// Its ordering score.
    pub score: i32,
}

/// The moves of one node with their scores; lives on the stack.
pub type ScoredMoves = ArrayVec<ScoredMove, 256>;

/// MVV-LVA value of a capture or promotion, on the search's piece values (`see::value`): the
/// victim's value dominates (a promotion adds the promoted piece as if it were captured), the
/// cheaper attacker wins ties (its value, at most a queen's, counts a sixty-fourth: less than
/// the smallest difference between two victims, 16 x 10).
#[inline]
pub fn mvv_lva_score(m: Move) -> i32 {
    let victim = m.capture().map_or(0, see::value);
    let promotion = m.promotion().map_or(0, see::value);
    let attacker = see::value(m.role()).min(see::value(Role::Queen));
    16 * (victim + promotion) - attacker / 64
}

/// Moves the best-scored move among `moves[index..]` to `index` and returns it (selection
/// sort, one step at a time: a cut-off early saves sorting the rest). Among equal scores the
/// earliest wins, and the moves it passes keep their order (they shift up by one rather
/// than swap), so picking one by one gives exactly a stable sort, best first.
#[inline]
pub fn pick_next(moves: &mut [ScoredMove], index: usize) -> Move {
    let rest = &mut moves[index..];
    let mut best = 0;
    let mut best_score = rest[0].score;
    for (i, scored) in rest.iter().enumerate().skip(1) {
        if scored.score > best_score {
            (best, best_score) = (i, scored.score);
        }
    }
    // The shift by hand: `rotate_right` calls `memmove`, dearer than the few moves passed.
    let picked = rest[best];
    for i in (0..best).rev() {
        rest[i + 1] = rest[i];
    }
    rest[0] = picked;
    picked.mv
}

/// Where the picker is: each stage prepares its moves when it is reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// Main: the hash move.
    Hash,
    /// Main: generate the captures and promotions (in check: every evasion) and score them.
    Generate,
    /// Main: captures and promotions that do not lose material.
    GoodCaptures,
    /// Main: the first killer.
    FirstKiller,
    /// Main: the second killer.
    SecondKiller,
    /// Main: the countermove.
    Countermove,
    /// Main: generate the quiet moves (unless in check, where they already are) and score
    /// them.
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
        // Row 0 (no earlier move) reads zero.
        let continuation = match self.continuation {
            Some([previous, before]) => {
                let index = piece_to(side, mv);
                let table = &self.histories.continuation;
                table.get(previous, index) + table.get(before, index)
            }
            None => 0,
        };
        (butterfly, continuation)
    }

    /// The capture history of the capture or promotion `mv` by `side` (0 when the switch is
    /// off).
    #[inline]
    pub fn capture_history(&self, side: Color, mv: Move) -> i32 {
        if self.features.capture_history {
            self.histories.capture.get(capture_index(side, mv))
        } else {
            0
        }
    }

    /// The ordering score of the capture or promotion `mv` by `side`: MVV-LVA, plus its
    /// capture history scaled down (`params::capture_order_divisor`), which can lift a
    /// capture above one of a slightly more valuable victim but rarely above two pawns more.
    #[inline]
    pub fn capture_score(&self, side: Color, mv: Move) -> i32 {
        mvv_lva_score(mv) + self.capture_history(side, mv) / params::capture_order_divisor()
    }
}

/// The least static exchange gain at which the capture `mv`, scored `score` by
/// `OrderingContext::capture_score`, counts as good: 0 moved down by its history's share of
/// the score (a capture that often cut may lose a little), up by a bad history.
#[inline]
fn good_capture_threshold(mv: Move, score: i32) -> i32 {
    -(score - mvv_lva_score(mv)) / params::capture_see_divisor()
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
    /// The moves, scored: in the main mode the captures first, then (from `quiet_start`)
    /// the quiet moves once generated; in the other modes all of them.
    moves: ScoredMoves,
    /// Where the quiet moves start in `moves` (main mode).
    quiet_start: usize,
    /// Captures and promotions generated (the hash and excluded moves included).
    captures_generated: usize,
    /// Whether the quiet moves are generated (in check they come with the captures).
    quiets_generated: bool,
    /// Whether the side to move is in check (main mode: the evasions are generated at once).
    in_check: bool,
    /// Killers and countermove yielded before the quiet moves were generated, packed (0 for
    /// none; no move packs to 0): the quiet stage leaves them out.
    early: [PackedMove; 3],
    /// Moves yielded so far.
    yielded: usize,
    /// Captures that lose material, in the order they were met (best MVV-LVA first).
    bad_captures: ArrayVec<Move, 64>,
    /// The next index to pick in `moves`.
    next: usize,
    /// The number of legal moves, once every move has been generated.
    legal: Option<usize>,
    /// Whether the search asked to skip the remaining quiet moves.
    skip_quiets: bool,
    /// Whether losing captures wait until the end (the SEE switch, read from the context
    /// when the moves are generated).
    see: bool,
    /// Set by `quiets_giving_check_only`: the quiet stage keeps only the moves that give
    /// check (judged with these check squares).
    checks_only: Option<CheckInfo>,
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
            quiet_start: 0,
            captures_generated: 0,
            bad_captures: ArrayVec::new(),
            quiets_generated: false,
            in_check: false,
            early: [0; 3],
            yielded: 0,
            next: 0,
            legal: None,
            skip_quiets: false,
            see: false,
            checks_only: None,
        }
    }

    /// The picker of an interior node: the hash move (checked legal here, by
    /// `tt::legal_move_from_packed`), `excluded`, a move never to yield (0 for none), and
    /// whether the side to move is in check. The killers and the countermove are read from
    /// the context when the captures are generated.
    pub fn main(hash_move: Option<Move>, excluded: PackedMove, in_check: bool) -> Self {
        let mut picker = Self::new(Stage::Hash);
        picker.hash_move = hash_move.filter(|&m| tt::pack_move(m) != excluded);
        picker.excluded = excluded;
        picker.in_check = in_check;
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
        picker.moves = fixed::score(moves, order, hash_move, key);
        if excluded != 0 {
            picker.moves.retain(|m| tt::pack_move(m.mv) != excluded);
        }
        picker.legal = Some(moves.len());
        picker
    }

    /// The whole order of a lab picker (the root's first order in a lab order), best first.
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

    /// The search will prune every quiet move that does not give check (futility pruning
    /// at a null-window node, where alpha cannot move, once a move was searched): if the
    /// quiet stage is not reached yet, it generates the quiet moves but keeps only those
    /// that give check (with `info`, this position's check squares) or are tactical,
    /// unscored otherwise. The moves yielded are then exactly the ones the search would
    /// have kept, in the same order (the sort is stable: a subset keeps its order).
    pub fn quiets_giving_check_only(&mut self, info: CheckInfo) {
        if matches!(
            self.stage,
            Stage::Hash
                | Stage::Generate
                | Stage::GoodCaptures
                | Stage::FirstKiller
                | Stage::SecondKiller
                | Stage::Countermove
        ) && !self.quiets_generated
        {
            self.checks_only = Some(info);
        }
    }

    /// The number of legal moves, when every move has been generated (the quiet moves are
    /// generated only when the search reaches them).
    pub fn legal(&self) -> Option<usize> {
        self.legal
    }

    /// How many moves the picker has yielded: none once it is exhausted means the position
    /// has no legal move (in the main and lab modes) or no capture (in quiescence).
    pub fn yielded(&self) -> usize {
        self.yielded
    }

    /// The next move to try, or `None` when there is none left.
    pub fn next(&mut self, pos: &Position, context: &OrderingContext) -> Option<Move> {
        self.next_lazy(pos, || *context)
    }

    /// `next`, with the context made by `context` only when a stage needs it (generating the
    /// captures or evasions, scoring the quiet moves): the search makes it from its tables
    /// at each call, which cost more than picking a scored move.
    #[inline]
    pub fn next_lazy<'c>(
        &mut self,
        pos: &Position,
        context: impl Fn() -> OrderingContext<'c>,
    ) -> Option<Move> {
        let next = self.advance(pos, &context);
        self.yielded += usize::from(next.is_some());
        next
    }

    /// The stages that hand out moves already scored are here; those that generate or score
    /// are functions of their own, kept out of line: inlined, their set-up (board masks,
    /// attack tables) was hoisted into this function's entry and paid at every call, about
    /// 80 instructions each time a scored move was merely picked.
    #[inline]
    fn advance<'c>(
        &mut self,
        pos: &Position,
        context: &impl Fn() -> OrderingContext<'c>,
    ) -> Option<Move> {
        loop {
            match self.stage {
                Stage::Hash => {
                    self.stage = Stage::Generate;
                    if let Some(mv) = self.hash_move {
                        return Some(mv);
                    }
                }
                Stage::Generate => {
                    if self.in_check {
                        self.generate_evasions(pos, &context());
                    } else {
                        self.generate_captures(pos, &context());
                    }
                    self.stage = Stage::GoodCaptures;
                }
                Stage::GoodCaptures => {
                    while self.next < self.quiet_start {
                        let mv = pick_next(&mut self.moves[..self.quiet_start], self.next);
                        let threshold = good_capture_threshold(mv, self.moves[self.next].score);
                        self.next += 1;
                        if !self.see
                            || (threshold <= 0 && see::is_safe_capture(mv))
                            || see::see_ge(pos, mv, threshold)
                        {
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
                    if self.quiets_generated {
                        if let Some(offset) = self.moves[self.quiet_start..]
                            .iter()
                            .position(|m| tt::pack_move(m.mv) == candidate)
                        {
                            return Some(self.moves.remove(self.quiet_start + offset).mv);
                        }
                    } else if candidate != self.excluded
                        && Some(candidate) != self.hash_move.map(tt::pack_move)
                        && let Some(mv) = tt::legal_move_from_packed(candidate, pos)
                        && !is_tactical(mv)
                    {
                        self.early[self.early.iter().take_while(|&&e| e != 0).count()] = candidate;
                        return Some(mv);
                    }
                }
                Stage::ScoreQuiets => {
                    if !self.skip_quiets {
                        self.score_quiets(pos, &context());
                    }
                    self.next = self.quiet_start;
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    if !self.skip_quiets && self.next < self.moves.len() {
                        let index = self.next;
                        self.next += 1;
                        let picked = index - self.quiet_start;
                        return Some(if picked < SELECTION_PICKS {
                            pick_next(&mut self.moves, index)
                        } else {
                            if picked == SELECTION_PICKS {
                                insertion_sort(&mut self.moves[index..]);
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
                    self.generate_tactical(pos, &context());
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

    /// The killers and countermove of the node, from the context (without their switches,
    /// they are not special).
    fn take_killers(&mut self, context: &OrderingContext) {
        self.see = context.features.see;
        self.killers = if context.features.killers {
            context.killers
        } else {
            [0; 2]
        };
        if self.killers[1] == self.killers[0] {
            self.killers[1] = 0;
        }
        self.countermove = context.countermove;
        if self.killers.contains(&self.countermove) {
            self.countermove = 0;
        }
    }

    /// Whether `packed` is the hash move or the excluded move (neither comes from a stage).
    #[inline]
    fn left_out(&self, packed: PackedMove) -> bool {
        packed == self.excluded || Some(packed) == self.hash_move.map(tt::pack_move)
    }

    /// Quiescence and ProbCut: the captures and promotions by MVV-LVA and capture history,
    /// or every evasion in check.
    #[inline(never)]
    fn generate_tactical(&mut self, pos: &Position, context: &OrderingContext) {
        let us = pos.turn();
        let moves = &mut self.moves;
        let push = |mv| {
            let score = context.capture_score(us, mv);
            moves.push(ScoredMove { mv, score });
        };
        if pos.is_check() {
            pos.legal_moves().into_iter().for_each(push);
        } else {
            pos.generate_captures(push);
        }
    }

    /// The quiet stage: the quiet moves generated (unless they came with the evasions) and
    /// scored by their histories.
    #[inline(never)]
    fn score_quiets(&mut self, pos: &Position, context: &OrderingContext) {
        let us = pos.turn();
        if self.quiets_generated {
            for scored in &mut self.moves[self.quiet_start..] {
                let (butterfly, continuation) = context.quiet_histories(us, scored.mv);
                scored.score = butterfly + continuation;
            }
        } else {
            self.generate_quiets(pos, |mv| {
                let (butterfly, continuation) = context.quiet_histories(us, mv);
                butterfly + continuation
            });
        }
    }

    /// Not in check: the captures and promotions (generated without the quiet moves), scored.
    #[inline(never)]
    fn generate_captures(&mut self, pos: &Position, context: &OrderingContext) {
        let hash = self.hash_move.map_or(0, tt::pack_move);
        let excluded = self.excluded;
        let us = pos.turn();
        let moves = &mut self.moves;
        let mut generated = 0;
        pos.generate_captures(|mv| {
            generated += 1;
            let packed = tt::pack_move(mv);
            if packed != hash && packed != excluded {
                let score = context.capture_score(us, mv);
                moves.push(ScoredMove { mv, score });
            }
        });
        self.captures_generated = generated;
        self.quiet_start = self.moves.len();
        self.take_killers(context);
    }

    /// In check: every evasion at once, the captures scored first in `moves`, the quiet
    /// moves after them (scored when reached); the killers and countermove are looked up
    /// among them.
    #[inline(never)]
    fn generate_evasions(&mut self, pos: &Position, context: &OrderingContext) {
        let legal = pos.legal_moves();
        self.legal = Some(legal.len());
        for tactical in [true, false] {
            for &mv in legal.iter().filter(|m| is_tactical(**m) == tactical) {
                if self.left_out(tt::pack_move(mv)) {
                    continue;
                }
                let score = if tactical {
                    context.capture_score(pos.turn(), mv)
                } else {
                    0
                };
                self.moves.push(ScoredMove { mv, score });
            }
            if tactical {
                self.quiet_start = self.moves.len();
            }
        }
        self.quiets_generated = true;
        self.take_killers(context);
    }

    /// Not in check, at the quiet stage: the quiet moves after the captures (all picked by
    /// now; the losing ones are kept apart), less the hash move, the excluded move and the
    /// killers and countermove already tried, each scored by `score` as it is generated
    /// (inlined there, the score reads the move the generator just built).
    #[inline(always)]
    fn generate_quiets(&mut self, pos: &Position, score: impl Fn(Move) -> i32) {
        self.moves.truncate(self.quiet_start);
        let hash = self.hash_move.map_or(0, tt::pack_move);
        let excluded = self.excluded;
        let early = self.early;
        let checks_only = self.checks_only;
        let moves = &mut self.moves;
        let mut generated = 0;
        pos.generate_quiets(|mv| {
            generated += 1;
            let packed = tt::pack_move(mv);
            // Compared one by one: `contains` was a call per quiet move.
            if packed != hash
                && packed != excluded
                && packed != early[0]
                && packed != early[1]
                && packed != early[2]
                && checks_only
                    .as_ref()
                    .is_none_or(|info| is_tactical(mv) || pos.gives_check(mv, info))
            {
                moves.push(ScoredMove {
                    mv,
                    score: score(mv),
                });
            }
        });
        self.legal = Some(self.captures_generated + generated);
        self.quiets_generated = true;
    }
}

/// Sorts `moves` by score, best first, keeping equal scores in their order (an insertion
/// sort: the lists are short).
fn insertion_sort(moves: &mut [ScoredMove]) {
    for i in 1..moves.len() {
        let current = moves[i];
        let mut j = i;
        while j > 0 && moves[j - 1].score < current.score {
            moves[j] = moves[j - 1];
            j -= 1;
        }
        moves[j] = current;
    }
}

#[cfg(test)]
mod tests;
