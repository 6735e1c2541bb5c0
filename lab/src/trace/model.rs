//! The trace: a tree of nodes and the steps of one search over it, as `docs/trace.md`
//! specifies it (the JSON written by `--json` and embedded in the `--html` page is this
//! structure serialised). The `Recorder` that both sources of steps write into (the textbook
//! algorithms on toy trees, `textbook.rs`, and the engine's own search, `chess.rs`) is in
//! `recorder.rs`.
//!
//! Every value and bound here is in MAX's view (the side to move at the root). This module
//! only describes: it never searches or records anything itself.

use std::fmt;

use serde::{Serialize, Serializer};

/// A value or a bound in MAX's view; the infinities are the initial window.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Score {
    /// Minus infinity.
    NegInf,
    /// A finite value.
    Value(i64),
    /// Plus infinity.
    PosInf,
}

impl Score {
    /// The finite value, if it is one.
    pub fn finite(self) -> Option<i64> {
        match self {
            Score::Value(v) => Some(v),
            _ => None,
        }
    }

    /// The value seen from the other side.
    pub fn negate(self) -> Score {
        match self {
            Score::NegInf => Score::PosInf,
            Score::Value(v) => Score::Value(-v),
            Score::PosInf => Score::NegInf,
        }
    }
}

impl Serialize for Score {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Score::NegInf => serializer.serialize_str("-inf"),
            Score::Value(v) => serializer.serialize_i64(*v),
            Score::PosInf => serializer.serialize_str("+inf"),
        }
    }
}

/// How values are written: plain integers (toy trees) or centipawns as pawns with mates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueFormat {
    /// Integers as they are.
    Plain,
    /// Centipawns, written as pawns (`+0.35`); at or beyond `mate_bound`, a mate (`#3`).
    Centipawns {
        /// The score of mating at once.
        mate: i64,
        /// Scores at or above this are mates.
        mate_bound: i64,
    },
}

impl ValueFormat {
    /// The text of a value or bound.
    pub fn show(self, score: Score) -> String {
        match (self, score) {
            (_, Score::NegInf) => "−∞".to_string(),
            (_, Score::PosInf) => "+∞".to_string(),
            (ValueFormat::Plain, Score::Value(v)) => v.to_string(),
            (ValueFormat::Centipawns { mate, mate_bound }, Score::Value(v)) => {
                if v.abs() >= mate_bound {
                    let plies = mate - v.abs();
                    let moves = (plies + 1) / 2;
                    if v > 0 {
                        format!("#{moves}")
                    } else {
                        format!("#-{moves}")
                    }
                } else {
                    format!("{:+.2}", v as f64 / 100.0)
                }
            }
        }
    }

    /// The text of an optional value (`—` for none).
    pub fn show_opt(self, score: Option<Score>) -> String {
        score.map_or_else(|| "—".to_string(), |s| self.show(s))
    }
}

/// Moves a cut-off skipped in a chess trace, drawn as one node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Stub {
    /// How many sibling moves were skipped.
    pub moves: u64,
    /// Nodes of the full-width tree under them.
    pub nodes: u64,
}

/// A node of the traced tree.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Node {
    /// Its index in `Trace::nodes`.
    pub id: usize,
    /// Its parent (none for a root).
    pub parent: Option<usize>,
    /// Its children, in the order the tree lists them (toy trees) or were searched (chess).
    pub children: Vec<usize>,
    /// Toy trees: the path of 1-based child numbers ("root" for the root); chess: the move
    /// in SAN with its number (`1. e4`, `1... e5`).
    pub label: String,
    /// Chess: the line from the root in SAN.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// Plies from the root.
    pub depth: u32,
    /// Whether MAX (the root player) is to move here.
    pub max: bool,
    /// A node without children (toy trees) or scored as a leaf (chess).
    pub leaf: bool,
    /// Toy trees: a leaf's value in MAX's view.
    #[serde(rename = "static")]
    pub static_value: Option<i64>,
    /// The iteration whose tree it belongs to.
    pub iteration: usize,
    /// Chess: the skipped moves this node stands for.
    pub stub: Option<Stub>,
}

impl Node {
    /// A node with no children yet.
    pub fn new(id: usize, parent: Option<usize>, label: String, depth: u32, max: bool) -> Self {
        Self {
            id,
            parent,
            children: Vec::new(),
            label,
            path: None,
            depth,
            max,
            leaf: false,
            static_value: None,
            iteration: 0,
            stub: None,
        }
    }

    /// "MAX" or "MIN".
    pub fn side(&self) -> &'static str {
        if self.max { "MAX" } else { "MIN" }
    }
}

/// What a step does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum StepKind {
    /// A node entered with its window.
    Enter,
    /// A leaf entered and scored.
    Leaf,
    /// A node's value handed to its parent.
    Return,
    /// Alpha of a MAX node rises.
    Alpha,
    /// Beta of a MIN node falls.
    Beta,
    /// The window closed: the remaining children are skipped (with `technique`: a selective
    /// step cut the node, e.g. a null-move or table cut-off).
    Cutoff,
    /// A selective step skipped one move (futility, late move pruning).
    Prune,
    /// A selective step that neither enters nor skips (a singular extension decided).
    Technique,
}

/// One step of the search.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Step {
    /// What happened.
    pub kind: StepKind,
    /// The node it happened at.
    pub node: usize,
    /// The pseudocode line it executes (1-based).
    pub line: u32,
    /// Alpha at `node` after the step (none for algorithms without a window).
    pub alpha: Option<Score>,
    /// Beta at `node` after the step.
    pub beta: Option<Score>,
    /// Leaf: its score; return: the value; alpha/beta: the new bound; cut-off: its cause.
    pub value: Option<Score>,
    /// Return only: the value is the parent's best so far.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub improves: Option<bool>,
    /// Cut-off only: the children of `node` never visited.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skipped: Option<Vec<usize>>,
    /// Chess leaves only: how the leaf was scored ("material evaluation", "checkmate",
    /// "stalemate", "draw by rule").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// Engine traces: the selective technique that caused the step (`techniques::ALL`
    /// names), whose one-sentence explanation is `text`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub technique: Option<&'static str>,
    /// One sentence saying what the step did.
    pub text: String,
    /// Nodes entered so far in this iteration.
    pub visited: u64,
    /// Leaves scored so far in this iteration.
    pub leaves: u64,
    /// Nodes of the full tree under the cut-offs so far in this iteration.
    pub pruned: u64,
}

/// The size of the full-width tree of an iteration.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Totals {
    /// Nodes minimax visits.
    pub nodes: u64,
    /// Leaves minimax scores.
    pub leaves: u64,
}

/// One root searched: toy trees and fixed-depth chess searches have one, iterative
/// deepening one per depth.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Iteration {
    /// The depth searched.
    pub depth: u32,
    /// The root node of its tree.
    pub root: usize,
    /// Its first step (1-based).
    pub first_step: usize,
    /// Its last step (1-based, inclusive).
    pub last_step: usize,
    /// The full-width tree of its depth.
    pub totals: Totals,
}

/// What the search found, over the whole trace.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Outcome {
    /// The root value of the last iteration.
    pub value: Option<Score>,
    /// Leaves scored, over all iterations.
    pub leaves: u64,
    /// Nodes entered, over all iterations.
    pub visited: u64,
    /// Nodes never visited because of cut-offs, in the last iteration.
    pub pruned: u64,
    /// Minimax's leaf count for the last iteration's tree.
    pub minimax_leaves: u64,
    /// Toy trees: the leaves never scored; chess: the stubs (of the last iteration).
    pub never_examined: Vec<usize>,
    /// The best line of the last iteration, as node ids from its root.
    pub best_line: Vec<usize>,
}

/// One row of the comparison of algorithms on the same tree.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CompareRow {
    /// The algorithm (or the best-case formula).
    pub algorithm: String,
    /// The root value it returned.
    pub value: Option<Score>,
    /// Leaves it scored.
    pub leaves: u64,
}

/// The root's children in one order, searched by the traced algorithm.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OrderingRow {
    /// The labels of the root's children, in the order searched.
    pub order: Vec<String>,
    /// The root value.
    pub value: Option<Score>,
    /// Leaves scored.
    pub leaves: u64,
    /// Leaves of the tree.
    pub of: u64,
}

/// The algorithm traced.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AlgorithmInfo {
    /// Its name on the command line.
    pub name: String,
    /// One line about it.
    pub description: String,
}

/// How values are written, for the page.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ValuesInfo {
    /// `""` for plain integers, `"cp"` for centipawns.
    pub unit: &'static str,
    /// The score of mating at once (chess).
    pub mate: Option<i64>,
    /// Scores at or beyond this are mates (chess).
    pub mate_bound: Option<i64>,
}

impl From<ValueFormat> for ValuesInfo {
    fn from(format: ValueFormat) -> Self {
        match format {
            ValueFormat::Plain => ValuesInfo {
                unit: "",
                mate: None,
                mate_bound: None,
            },
            ValueFormat::Centipawns { mate, mate_bound } => ValuesInfo {
                unit: "cp",
                mate: Some(mate),
                mate_bound: Some(mate_bound),
            },
        }
    }
}

/// How often one technique acted in a trace, for the page's filter.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TechniqueCount {
    /// Its name, as steps carry it (`null-move-cutoff`).
    pub name: &'static str,
    /// A short label for people (`null-move cut-off`).
    pub label: &'static str,
    /// One sentence on what it does.
    pub description: &'static str,
    /// Steps flagged with it.
    pub count: u64,
}

/// The format version written: 2 adds `techniques`, the step kinds `prune` and `technique`
/// and each step's optional `technique` to version 1 (docs/trace.md).
pub const FORMAT_VERSION: u32 = 2;

/// A whole trace, as written to JSON.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Trace {
    /// Always "brudno-trace".
    pub format: &'static str,
    /// The format's version.
    pub version: u32,
    /// What was traced, in a few words.
    pub title: String,
    /// One line for the page's header.
    pub header: String,
    /// The algorithm.
    pub algorithm: AlgorithmInfo,
    /// Where the tree came from (free-form details).
    pub source: serde_json::Value,
    /// How values are written.
    pub values: ValuesInfo,
    /// The algorithm's pseudocode, line n at index n - 1.
    pub pseudocode: Vec<&'static str>,
    /// Every node, indexed by id.
    pub nodes: Vec<Node>,
    /// The roots searched.
    pub iterations: Vec<Iteration>,
    /// Every step, in order.
    pub steps: Vec<Step>,
    /// What the search found.
    pub result: Outcome,
    /// Engine traces: every technique with the steps it flagged (empty for the others).
    pub techniques: Vec<TechniqueCount>,
    /// The comparison of algorithms (`--compare`).
    pub compare: Option<Vec<CompareRow>>,
    /// The root's children in every order (`--orderings`).
    pub orderings: Option<Vec<OrderingRow>>,
}

impl Trace {
    /// The steps of one iteration.
    pub fn iteration_steps(&self, iteration: &Iteration) -> &[Step] {
        &self.steps[iteration.first_step - 1..iteration.last_step]
    }
}

/// Which pseudocode line each kind of step executes, for one algorithm.
#[derive(Clone, Copy, Debug)]
pub struct Pseudocode {
    /// The lines.
    pub lines: &'static [&'static str],
    /// Entering a node.
    pub enter: u32,
    /// Scoring a leaf (a toy leaf, or a chess node at the horizon).
    pub leaf: u32,
    /// Scoring a chess node with no legal move (mate or stalemate).
    pub no_moves: u32,
    /// Scoring a chess node drawn by rule.
    pub draw: u32,
    /// A MAX node returning.
    pub return_max: u32,
    /// A MIN node returning.
    pub return_min: u32,
    /// Alpha rising at a MAX node.
    pub alpha: u32,
    /// Beta falling at a MIN node.
    pub beta: u32,
    /// A cut-off at a MAX node.
    pub cutoff_max: u32,
    /// A cut-off at a MIN node.
    pub cutoff_min: u32,
}

/// Whether the cut-off test is `>=` (the usual one) or `>` (strict: same value, less
/// pruning).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CutoffTest {
    /// `value >= beta` at MAX, `value <= alpha` at MIN.
    Inclusive,
    /// `value > beta` at MAX, `value < alpha` at MIN.
    Strict,
}

impl fmt::Display for StepKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            StepKind::Enter => "enter",
            StepKind::Leaf => "leaf",
            StepKind::Return => "return",
            StepKind::Alpha => "alpha",
            StepKind::Beta => "beta",
            StepKind::Cutoff => "cutoff",
            StepKind::Prune => "prune",
            StepKind::Technique => "technique",
        };
        f.write_str(name)
    }
}
