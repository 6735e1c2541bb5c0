//! The search's tunable numbers in one place: margins, reductions and depth limits.
//!
//! Each value sits next to the technique it belongs to; the measured effect of every technique
//! is in docs/STRENGTH.md.

use crate::eval::Value;

/// Aspiration: first half-width of the window around the previous score.
pub const ASPIRATION_WINDOW: Value = 20;
/// Aspiration windows start at this depth.
pub const ASPIRATION_MIN_DEPTH: i32 = 4;

/// Reverse futility: deepest remaining depth at which it applies.
pub const RFP_MAX_DEPTH: i32 = 6;
/// Reverse futility: margin per ply of depth.
pub const RFP_MARGIN: Value = 100;

/// Null move: shallowest depth at which it is tried.
pub const NMP_MIN_DEPTH: i32 = 3;
/// Null move: base reduction.
pub const NMP_BASE_REDUCTION: i32 = 3;
/// Null move: extra reduction per this many plies of depth.
pub const NMP_DEPTH_DIVISOR: i32 = 4;
/// Null move: extra reduction per this many centipawns of eval above beta (at most 3).
pub const NMP_EVAL_DIVISOR: Value = 200;

/// Internal iterative reduction: shallowest depth at which a missing hash move reduces.
pub const IIR_MIN_DEPTH: i32 = 4;

/// Futility pruning: deepest remaining depth at which quiet moves are pruned.
pub const FUTILITY_MAX_DEPTH: i32 = 6;
/// Futility pruning: margin base and margin per ply.
pub const FUTILITY_BASE: Value = 80;
/// Futility pruning: margin per ply.
pub const FUTILITY_PER_DEPTH: Value = 90;
/// Delta pruning in quiescence: margin above the captured piece's value.
pub const DELTA_MARGIN: Value = 200;

/// Lazy evaluation: material alone this far above beta stands pat without the full evaluation.
pub const LAZY_EVAL_MARGIN: Value = 400;

/// Singular extensions: shallowest depth at which the hash move is tested.
pub const SE_MIN_DEPTH: i32 = 8;
/// Singular extensions: the hash move's stored depth may be this much less than the node's.
pub const SE_TT_DEPTH_MARGIN: i32 = 3;
/// Singular extensions: the test's bound lies this many centipawns per ply below the stored
/// score.
pub const SE_MARGIN_PER_DEPTH: Value = 2;

/// ProbCut: shallowest depth at which it is tried.
pub const PROBCUT_MIN_DEPTH: i32 = 5;
/// ProbCut: how far above beta a capture's reduced search must land.
pub const PROBCUT_MARGIN: Value = 200;
/// ProbCut: the margin is this much smaller when the position is improving.
pub const PROBCUT_IMPROVING: Value = 50;
/// ProbCut: the reduced search is this much shallower than the node.
pub const PROBCUT_REDUCTION: i32 = 4;

/// History pruning: deepest remaining depth at which quiet moves are pruned by history.
pub const HISTORY_PRUNE_MAX_DEPTH: i32 = 4;
/// History pruning: a quiet move whose history is below minus this much per ply is skipped.
pub const HISTORY_PRUNE_PER_DEPTH: i32 = 4_000;

/// Late move pruning: deepest remaining depth at which late quiet moves are skipped.
pub const LMP_MAX_DEPTH: i32 = 6;

/// Late move reductions: shallowest depth.
pub const LMR_MIN_DEPTH: i32 = 3;
/// Late move reductions: base of the log formula.
pub const LMR_BASE: f64 = 0.75;
/// Late move reductions: divisor of the log formula.
pub const LMR_DIVISOR: f64 = 2.25;
/// Late move reductions: history points per ply of reduction removed or added.
pub const LMR_HISTORY_DIVISOR: i32 = 8192;

/// History: largest bonus for one cut-off.
pub const HISTORY_MAX_BONUS: i32 = 1_200;

/// Late move pruning threshold: quiet moves tried before the rest are skipped.
#[inline]
pub fn lmp_threshold(depth: i32, improving: bool) -> usize {
    let base = 3 + depth * depth;
    (if improving { base } else { base / 2 + 1 }) as usize
}

/// History bonus for a cut-off at `depth`.
#[inline]
pub fn history_bonus(depth: i32) -> i32 {
    (16 * depth * depth + 32 * depth).min(HISTORY_MAX_BONUS)
}
