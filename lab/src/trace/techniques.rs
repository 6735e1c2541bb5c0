//! The selective techniques an engine trace flags: their names (as steps carry them in the
//! JSON), labels, one-line descriptions, the line of the engine's pseudocode each one lights,
//! and the one-sentence explanation of a step each one caused.
//!
//! Some are seen by the trace's observer in the shape of the search itself (the null-move
//! search and the singular test as children of a node, a move searched again, the root
//! searched again within an iteration, a null window); the others arrive through
//! `Observer::technique` (`search/observer.rs`). This module only names and explains: it never
//! decides whether a technique acted.

use brudno_engine::search::observer::Technique;

/// One technique as the trace shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Info {
    /// The name steps carry (`null-move-cutoff`).
    pub name: &'static str,
    /// A short label (`null-move cut-off`).
    pub label: &'static str,
    /// One sentence on what it does.
    pub description: &'static str,
    /// The line of `ENGINE_PSEUDOCODE` it lights (1-based).
    pub line: u32,
}

const fn info(
    name: &'static str,
    label: &'static str,
    line: u32,
    description: &'static str,
) -> Info {
    Info {
        name,
        label,
        description,
        line,
    }
}

/// The aspiration re-search after a fail low.
pub const ASPIRATION_FAIL_LOW: Info = info(
    "aspiration-fail-low",
    "aspiration fail low",
    3,
    "the root's narrow window around the last score was too high: widened and searched again",
);
/// The aspiration re-search after a fail high.
pub const ASPIRATION_FAIL_HIGH: Info = info(
    "aspiration-fail-high",
    "aspiration fail high",
    3,
    "the root's narrow window around the last score was too low: widened and searched again",
);
/// Mate-distance pruning.
pub const MATE_DISTANCE: Info = info(
    "mate-distance",
    "mate distance",
    6,
    "a mate already found nearer the root beats anything below: the node returns at once",
);
/// Quiescence at the horizon.
pub const QUIESCENCE: Info = info(
    "quiescence",
    "quiescence",
    7,
    "at the horizon, captures are searched until the position is quiet, so no exchange is cut in half",
);
/// A transposition-table cut-off.
pub const TT_CUTOFF: Info = info(
    "tt-cutoff",
    "TT cut-off",
    8,
    "the position was searched before, deep enough: its stored bound answers the window",
);
/// Reverse futility pruning.
pub const REVERSE_FUTILITY: Info = info(
    "reverse-futility",
    "reverse futility",
    9,
    "near the leaves, a static evaluation far above beta is taken as a cut-off",
);
/// The null-move search entered.
pub const NULL_MOVE: Info = info(
    "null-move",
    "null move",
    10,
    "the side to move passes; a reduced null-window search tests whether it still holds beta",
);
/// The null-move cut-off.
pub const NULL_MOVE_CUTOFF: Info = info(
    "null-move-cutoff",
    "null-move cut-off",
    11,
    "even after passing the side to move holds beta: the node is cut without searching its moves",
);
/// ProbCut.
pub const PROBCUT: Info = info(
    "probcut",
    "ProbCut",
    12,
    "a good capture beats beta by a margin in a shallower search: the node is cut",
);
/// The null-move search fell below beta: the moves are searched after all.
pub const NULL_MOVE_FAILED: Info = info(
    "null-move-failed",
    "null move failed",
    10,
    "passing fell below beta: the threat is real, so the moves are searched",
);
/// Internal iterative reduction.
pub const IIR: Info = info(
    "iir",
    "internal iterative reduction",
    13,
    "a node with no hash move was never searched before: it is searched a ply shallower",
);
/// A check extension.
pub const CHECK_EXTENSION: Info = info(
    "check-extension",
    "check extension",
    15,
    "a move that gives check is searched a ply deeper",
);
/// The singular test entered.
pub const SINGULAR_TEST: Info = info(
    "singular-test",
    "singular test",
    13,
    "every move but the hash move is searched, reduced, against a bound below the hash move's score",
);
/// A singular extension decided.
pub const SINGULAR_EXTENSION: Info = info(
    "singular-extension",
    "singular extension",
    13,
    "only the hash move holds: it is searched a ply deeper (or shallower when others hold too)",
);
/// Multi-cut.
pub const MULTI_CUT: Info = info(
    "multi-cut",
    "multi-cut",
    13,
    "the singular test found several moves above beta: the node is cut",
);
/// Late move pruning.
pub const LATE_MOVE_PRUNING: Info = info(
    "late-move-pruning",
    "late move pruning",
    16,
    "near the leaves, quiet moves that come late are not searched",
);
/// Futility pruning.
pub const FUTILITY: Info = info(
    "futility",
    "futility",
    16,
    "near the leaves, a quiet move that cannot lift the evaluation plus a margin to alpha is skipped",
);
/// SEE pruning.
pub const SEE_PRUNING: Info = info(
    "see-pruning",
    "SEE pruning",
    16,
    "near the leaves, a move whose exchange of pieces on its square loses more than a margin is skipped",
);
/// A PVS null-window search.
pub const NULL_WINDOW: Info = info(
    "null-window",
    "PVS null window",
    18,
    "after the first move, a move is searched with the window (α, α + 1) only to prove it is no better",
);
/// A late move reduction.
pub const LMR: Info = info(
    "lmr",
    "late move reduction",
    18,
    "a late quiet move is searched shallower first",
);
/// The LMR re-search.
pub const LMR_RESEARCH: Info = info(
    "lmr-research",
    "LMR re-search",
    19,
    "the reduced search beat alpha: the move is searched again at full depth",
);
/// The PVS re-search.
pub const PVS_RESEARCH: Info = info(
    "pvs-research",
    "PVS re-search",
    20,
    "the null-window search landed inside the window: the move is searched again with the full window",
);

/// Every technique, in the order of the pseudocode.
pub const ALL: [Info; 22] = [
    ASPIRATION_FAIL_LOW,
    ASPIRATION_FAIL_HIGH,
    MATE_DISTANCE,
    QUIESCENCE,
    TT_CUTOFF,
    REVERSE_FUTILITY,
    NULL_MOVE,
    NULL_MOVE_CUTOFF,
    NULL_MOVE_FAILED,
    PROBCUT,
    IIR,
    SINGULAR_TEST,
    SINGULAR_EXTENSION,
    MULTI_CUT,
    CHECK_EXTENSION,
    LATE_MOVE_PRUNING,
    FUTILITY,
    SEE_PRUNING,
    NULL_WINDOW,
    LMR,
    LMR_RESEARCH,
    PVS_RESEARCH,
];

/// The trace's description of a technique the search reports (an aspiration fail is low or
/// high by its value, which the observer decides).
pub fn of(technique: Technique) -> Info {
    match technique {
        Technique::TableCutoff { .. } => TT_CUTOFF,
        Technique::MateDistance => MATE_DISTANCE,
        Technique::ReverseFutility { .. } => REVERSE_FUTILITY,
        Technique::NullMoveCutoff { .. } => NULL_MOVE_CUTOFF,
        Technique::NullMoveFailed { .. } => NULL_MOVE_FAILED,
        Technique::ProbCut { .. } => PROBCUT,
        Technique::InternalReduction => IIR,
        Technique::SingularExtension { .. } => SINGULAR_EXTENSION,
        Technique::MultiCut { .. } => MULTI_CUT,
        Technique::CheckExtension { .. } => CHECK_EXTENSION,
        Technique::LateMovePruning { .. } => LATE_MOVE_PRUNING,
        Technique::Futility { .. } => FUTILITY,
        Technique::SeePruning { .. } => SEE_PRUNING,
        Technique::Reduced { .. } => LMR,
        Technique::ReducedResearch { .. } => LMR_RESEARCH,
        Technique::PvsResearch { .. } => PVS_RESEARCH,
        Technique::AspirationFailed { value, alpha, .. } if value <= alpha => ASPIRATION_FAIL_LOW,
        Technique::AspirationFailed { .. } => ASPIRATION_FAIL_HIGH,
        Technique::Quiescence { .. } => QUIESCENCE,
    }
}

/// What a technique does to the trace: ends its node, skips one move, is a decision shown
/// as a step of its own, or announces the next node entered (or the next leaf).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// The node returns at once: its unsearched moves are skipped.
    CutsTheNode,
    /// One move is skipped.
    SkipsAMove,
    /// A step of its own at the node.
    Decides,
    /// Flags the next step: the next child entered, the root entered again, the next leaf.
    Announces,
}

/// The effect of `technique` on the trace.
pub fn effect(technique: Technique) -> Effect {
    match technique {
        Technique::TableCutoff { .. }
        | Technique::MateDistance
        | Technique::ReverseFutility { .. }
        | Technique::NullMoveCutoff { .. }
        | Technique::ProbCut { .. }
        | Technique::MultiCut { .. } => Effect::CutsTheNode,
        Technique::LateMovePruning { .. }
        | Technique::Futility { .. }
        | Technique::SeePruning { .. } => Effect::SkipsAMove,
        Technique::NullMoveFailed { .. }
        | Technique::InternalReduction
        | Technique::SingularExtension { .. } => Effect::Decides,
        Technique::CheckExtension { .. }
        | Technique::Reduced { .. }
        | Technique::ReducedResearch { .. }
        | Technique::PvsResearch { .. }
        | Technique::AspirationFailed { .. }
        | Technique::Quiescence { .. } => Effect::Announces,
    }
}

/// The engine as it plays, in pseudocode: the lines each step and technique light.
pub const ENGINE_PSEUDOCODE: &[&str] = &[
    "function root(depth)  ▹ iterative deepening: depth 1, 2, …",
    "  (α, β) ← (s − δ, s + δ)  ▹ aspiration window around the last score s",
    "  v ← search(root, depth, α, β); on a fail, widen and search again",
    "function search(pos, depth, α, β)  ▹ negamax: the side to move's view",
    "  if pos is drawn by rule: return 0  ▹ 50 moves, repetition",
    "  if a mate nearer the root beats anything here: return α  ▹ mate distance",
    "  if depth ≤ 0: return quiescence(pos, α, β)  ▹ captures until quiet",
    "  if the table holds pos, deep enough, with a usable bound: return it",
    "  e ← evaluate(pos); if not PV and e − margin ≥ β: return e  ▹ reverse futility",
    "  if not PV and e ≥ β: v ← −search(pass, depth − 1 − R, −β, −β + 1)  ▹ null move",
    "    if v ≥ β: return v  ▹ null-move cut-off",
    "  if a good capture beats β + margin, reduced: return it  ▹ ProbCut",
    "  if no hash move: depth − 1; if only it holds: extend it  ▹ IIR, singular",
    "  best ← −∞",
    "  for each move m (hash, captures, killers, history; +1 ply if it checks):",
    "    if m is quiet, late, near the leaves or futile, or loses by SEE: skip m  ▹ LMP, futility, SEE",
    "    if m is the first: v ← −search(pos + m, depth − 1, −β, −α)",
    "    else: v ← −search(pos + m, depth − 1 − R, −α − 1, −α)  ▹ null window, LMR",
    "      if v > α and R > 0: v ← −search(pos + m, depth − 1, −α − 1, −α)  ▹ LMR re-search",
    "      if α < v < β: v ← −search(pos + m, depth − 1, −β, −α)  ▹ PVS re-search",
    "    if v > best: best ← v",
    "    if v > α: α ← v  ▹ at MIN: β falls (MAX's view)",
    "    if v ≥ β: break  ▹ cut-off: skip the rest",
    "  if no moves: return in check ? −MATE + ply : 0",
    "  store best and its bound in the table; return best",
];

/// The line of `ENGINE_PSEUDOCODE` where the root is entered.
pub const ROOT_LINE: u32 = 3;

/// The words of one side: "White" or "Black".
pub fn side(white: bool) -> &'static str {
    if white { "White" } else { "Black" }
}

/// "≥ β" at a MAX node, "≤ α" at a MIN node: how a value beats the node's far bound, in
/// MAX's view.
pub fn beats(max: bool) -> &'static str {
    if max { "≥ β" } else { "≤ α" }
}

/// "α" at a MAX node, "β" at a MIN node: the bound a move must pass to improve the node.
pub fn near_bound(max: bool) -> &'static str {
    if max { "α" } else { "β" }
}

/// "1 move" or "27 moves".
pub fn moves(count: usize) -> String {
    if count == 1 {
        "1 move".to_string()
    } else {
        format!("{count} moves")
    }
}

/// "1 ply" or "3 plies".
pub fn plies(count: i32) -> String {
    if count.abs() == 1 {
        format!("{count} ply")
    } else {
        format!("{count} plies")
    }
}
