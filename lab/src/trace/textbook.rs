//! The textbook algorithms on toy trees, written to be read: minimax, negamax, alpha-beta
//! (cut-off `>=`), alpha-beta with the strict cut-off (`>`: the same value, less pruning)
//! and alpha-beta with the children in best-first order (the Knuth-Moore best case).
//!
//! Toy trees are not chess positions, so they cannot go through the engine's search; these
//! few lines stand beside it and the tests hold both to the same answers (the value of a
//! tree, the leaves examined). Each function tells the `Recorder` what it does as it does
//! it; the recorder's calls are the only lines that are not the algorithm itself.

use super::model::{CutoffTest, Pseudocode, Score, Totals, ValueFormat};
use super::recorder::Recorder;
use super::tree::Tree;

/// The toy-tree algorithms.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Every leaf, no window.
    Minimax,
    /// Minimax in negamax form: `max(-negamax(child))`, values from the side to move.
    Negamax,
    /// Alpha-beta, cut-off when `v >= beta` (MAX) or `v <= alpha` (MIN): the default.
    #[default]
    AlphaBeta,
    /// Alpha-beta with the strict cut-off `v > beta` / `v < alpha`.
    AlphaBetaStrict,
    /// Alpha-beta with every node's children in best-first order.
    AlphaBetaOrdered,
}

impl Algorithm {
    /// All of them, in the order the comparison lists them.
    pub const ALL: [Algorithm; 5] = [
        Algorithm::Minimax,
        Algorithm::Negamax,
        Algorithm::AlphaBeta,
        Algorithm::AlphaBetaStrict,
        Algorithm::AlphaBetaOrdered,
    ];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Minimax => "minimax",
            Algorithm::Negamax => "negamax",
            Algorithm::AlphaBeta => "alphabeta",
            Algorithm::AlphaBetaStrict => "alphabeta-strict",
            Algorithm::AlphaBetaOrdered => "alphabeta-ordered",
        }
    }

    /// One line about it.
    pub fn description(self) -> &'static str {
        match self {
            Algorithm::Minimax => {
                "minimax: every leaf is scored, MAX takes the largest value, MIN the smallest"
            }
            Algorithm::Negamax => {
                "negamax: minimax written once, max over the children of -negamax(child); values from the side to move"
            }
            Algorithm::AlphaBeta => {
                "alpha-beta (fail-soft): cut-off when v ≥ β at MAX or v ≤ α at MIN"
            }
            Algorithm::AlphaBetaStrict => {
                "alpha-beta with the strict cut-off v > β at MAX or v < α at MIN: the same value, less pruning"
            }
            Algorithm::AlphaBetaOrdered => {
                "alpha-beta with each node's children in best-first order (an oracle): the Knuth-Moore best case"
            }
        }
    }

    /// Its pseudocode, with the line each kind of step executes.
    pub fn pseudocode(self) -> Pseudocode {
        match self {
            Algorithm::Minimax => MINIMAX,
            Algorithm::Negamax => NEGAMAX,
            Algorithm::AlphaBeta | Algorithm::AlphaBetaStrict | Algorithm::AlphaBetaOrdered => {
                let mut code = ALPHABETA;
                code.lines = match self {
                    Algorithm::AlphaBetaStrict => ALPHABETA_STRICT_LINES,
                    Algorithm::AlphaBetaOrdered => ALPHABETA_ORDERED_LINES,
                    _ => ALPHABETA_LINES,
                };
                code
            }
        }
    }

    /// The cut-off test.
    pub fn cutoff_test(self) -> CutoffTest {
        if self == Algorithm::AlphaBetaStrict {
            CutoffTest::Strict
        } else {
            CutoffTest::Inclusive
        }
    }
}

const MINIMAX: Pseudocode = Pseudocode {
    lines: &[
        "function minimax(node)",
        "  if node is a leaf: return its value",
        "  if MAX is to move at node:",
        "    v ← −∞",
        "    for each child of node: v ← max(v, minimax(child))",
        "    return v",
        "  else:",
        "    v ← +∞",
        "    for each child of node: v ← min(v, minimax(child))",
        "    return v",
    ],
    enter: 1,
    leaf: 2,
    no_moves: 2,
    draw: 2,
    return_max: 6,
    return_min: 10,
    alpha: 5,
    beta: 9,
    cutoff_max: 5,
    cutoff_min: 9,
};

const NEGAMAX: Pseudocode = Pseudocode {
    lines: &[
        "function negamax(node, color)  ▹ color: +1 at MAX, −1 at MIN",
        "  if node is a leaf: return color × value(node)",
        "  v ← −∞",
        "  for each child of node:",
        "    v ← max(v, −negamax(child, −color))",
        "  return v  ▹ from the side to move",
    ],
    enter: 1,
    leaf: 2,
    no_moves: 2,
    draw: 2,
    return_max: 6,
    return_min: 6,
    alpha: 5,
    beta: 5,
    cutoff_max: 5,
    cutoff_min: 5,
};

const ALPHABETA: Pseudocode = Pseudocode {
    lines: ALPHABETA_LINES,
    enter: 1,
    leaf: 2,
    no_moves: 2,
    draw: 2,
    return_max: 9,
    return_min: 16,
    alpha: 8,
    beta: 15,
    cutoff_max: 7,
    cutoff_min: 14,
};

const ALPHABETA_LINES: &[&str] = &[
    "function alphabeta(node, α, β)",
    "  if node is a leaf: return its value",
    "  if MAX is to move at node:",
    "    v ← −∞",
    "    for each child of node:",
    "      v ← max(v, alphabeta(child, α, β))",
    "      if v ≥ β: break  ▹ β cut-off",
    "      α ← max(α, v)",
    "    return v",
    "  else:",
    "    v ← +∞",
    "    for each child of node:",
    "      v ← min(v, alphabeta(child, α, β))",
    "      if v ≤ α: break  ▹ α cut-off",
    "      β ← min(β, v)",
    "    return v",
];

const ALPHABETA_STRICT_LINES: &[&str] = &[
    "function alphabeta(node, α, β)",
    "  if node is a leaf: return its value",
    "  if MAX is to move at node:",
    "    v ← −∞",
    "    for each child of node:",
    "      v ← max(v, alphabeta(child, α, β))",
    "      if v > β: break  ▹ strict β cut-off",
    "      α ← max(α, v)",
    "    return v",
    "  else:",
    "    v ← +∞",
    "    for each child of node:",
    "      v ← min(v, alphabeta(child, α, β))",
    "      if v < α: break  ▹ strict α cut-off",
    "      β ← min(β, v)",
    "    return v",
];

const ALPHABETA_ORDERED_LINES: &[&str] = &[
    "function alphabeta(node, α, β)",
    "  if node is a leaf: return its value",
    "  if MAX is to move at node:",
    "    v ← −∞",
    "    for each child of node, highest value first:",
    "      v ← max(v, alphabeta(child, α, β))",
    "      if v ≥ β: break  ▹ β cut-off",
    "      α ← max(α, v)",
    "    return v",
    "  else:",
    "    v ← +∞",
    "    for each child of node, lowest value first:",
    "      v ← min(v, alphabeta(child, α, β))",
    "      if v ≤ α: break  ▹ α cut-off",
    "      β ← min(β, v)",
    "    return v",
];

/// A search of a toy tree, recording its steps.
struct Searcher<'a> {
    tree: &'a Tree,
    test: CutoffTest,
    /// With the ordered algorithm: each node's minimax value, to sort children by.
    oracle: Option<Vec<i64>>,
    rec: &'a mut Recorder,
}

/// Runs `algorithm` on `tree` and records it. The recorder's nodes must be the tree's nodes
/// (same ids), as `recorder_for` makes them.
pub fn search(tree: &Tree, algorithm: Algorithm, rec: &mut Recorder) -> i64 {
    let totals = Totals {
        nodes: tree.nodes.len() as u64,
        leaves: tree.leaves().len() as u64,
    };
    rec.begin_iteration(tree.depth(), Tree::ROOT, totals);
    let mut searcher = Searcher {
        tree,
        test: algorithm.cutoff_test(),
        oracle: (algorithm == Algorithm::AlphaBetaOrdered).then(|| minimax_values(tree)),
        rec,
    };
    match algorithm {
        Algorithm::Minimax => searcher.minimax(Tree::ROOT),
        Algorithm::Negamax => searcher.negamax(Tree::ROOT, 1),
        _ => searcher.alphabeta(Tree::ROOT, Score::NegInf, Score::PosInf),
    }
}

/// A recorder holding the tree's nodes, for `algorithm`.
pub fn recorder_for(tree: &Tree, algorithm: Algorithm) -> Recorder {
    let mut rec = Recorder::new(
        algorithm.pseudocode(),
        ValueFormat::Plain,
        algorithm.cutoff_test(),
    );
    for (id, n) in tree.nodes.iter().enumerate() {
        let mut node =
            super::model::Node::new(id, n.parent, n.label.clone(), n.depth, tree.is_max(id));
        node.leaf = n.children.is_empty();
        node.static_value = n.value;
        rec.add_node(node);
    }
    rec
}

/// The minimax value of every node.
pub fn minimax_values(tree: &Tree) -> Vec<i64> {
    let mut values = vec![0; tree.nodes.len()];
    // Children come after their parents: fill from the last node back.
    for id in (0..tree.nodes.len()).rev() {
        let node = &tree.nodes[id];
        values[id] = match node.value {
            Some(v) => v,
            None => {
                let children = node.children.iter().map(|&c| values[c]);
                if tree.is_max(id) {
                    children.max().unwrap_or(0)
                } else {
                    children.min().unwrap_or(0)
                }
            }
        };
    }
    values
}

impl Searcher<'_> {
    fn leaf_value(&mut self, node: usize) -> Option<i64> {
        let value = self.tree.nodes[node].value?;
        let line = self.rec.leaf_line();
        self.rec.leaf(node, Score::Value(value), line, None);
        Some(value)
    }

    fn minimax(&mut self, node: usize) -> i64 {
        self.rec.enter(node, None, None);
        if let Some(value) = self.leaf_value(node) {
            return value;
        }
        let max = self.tree.is_max(node);
        let mut v: Option<i64> = None;
        for &child in &self.tree.nodes[node].children {
            let child_value = self.minimax(child);
            if v.is_none_or(|v| {
                if max {
                    child_value > v
                } else {
                    child_value < v
                }
            }) {
                v = Some(child_value);
                self.rec.improves(node, Score::Value(child_value));
            }
        }
        let v = v.unwrap_or(0);
        self.rec.ret(node, Score::Value(v));
        v
    }

    /// Negamax: `color` is +1 where MAX is to move, −1 where MIN is; the value returned is
    /// from the side to move (the recorder is told it in MAX's view, `color × value`).
    fn negamax(&mut self, node: usize, color: i64) -> i64 {
        self.rec.enter(node, None, None);
        if let Some(value) = self.leaf_value(node) {
            return color * value;
        }
        let mut v: Option<i64> = None;
        for &child in &self.tree.nodes[node].children {
            let child_value = -self.negamax(child, -color);
            if v.is_none_or(|v| child_value > v) {
                v = Some(child_value);
                self.rec.improves(node, Score::Value(color * child_value));
            }
        }
        let v = v.unwrap_or(0);
        self.rec.ret(node, Score::Value(color * v));
        v
    }

    /// The children of `node` in the order searched: as listed, or best first (ordered).
    fn children(&self, node: usize) -> Vec<usize> {
        let mut children = self.tree.nodes[node].children.clone();
        if let Some(values) = &self.oracle {
            if self.tree.is_max(node) {
                children.sort_by_key(|&c| std::cmp::Reverse(values[c]));
            } else {
                children.sort_by_key(|&c| values[c]);
            }
        }
        children
    }

    fn alphabeta(&mut self, node: usize, mut alpha: Score, mut beta: Score) -> i64 {
        self.rec.enter(node, Some(alpha), Some(beta));
        if let Some(value) = self.leaf_value(node) {
            return value;
        }
        let children = self.children(node);
        let max = self.tree.is_max(node);
        let mut v = if max { Score::NegInf } else { Score::PosInf };
        for (index, &child) in children.iter().enumerate() {
            let child_value = Score::Value(self.alphabeta(child, alpha, beta));
            if (max && child_value > v) || (!max && child_value < v) {
                v = child_value;
                self.rec.improves(node, v);
            }
            let cut = match (max, self.test) {
                (true, CutoffTest::Inclusive) => v >= beta,
                (true, CutoffTest::Strict) => v > beta,
                (false, CutoffTest::Inclusive) => v <= alpha,
                (false, CutoffTest::Strict) => v < alpha,
            };
            if cut {
                self.rec.cutoff(node, v, children[index + 1..].to_vec());
                break;
            }
            if max && v > alpha {
                alpha = v;
                self.rec.tighten(node, alpha);
            }
            if !max && v < beta {
                beta = v;
                self.rec.tighten(node, beta);
            }
        }
        let v = v.finite().unwrap_or(0);
        self.rec.ret(node, Score::Value(v));
        v
    }
}

/// What one algorithm does on a tree, without keeping the steps: (value, leaves scored).
pub fn count(tree: &Tree, algorithm: Algorithm) -> (i64, u64) {
    let mut rec = recorder_for(tree, algorithm);
    let value = search(tree, algorithm, &mut rec);
    let (_, steps, _) = rec.finish();
    (value, steps.last().map_or(0, |s| s.leaves))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::model::{Step, StepKind};
    use crate::trace::trace_tree;
    use crate::trace::tree::{self, standing};
    use brudno_tools::ebf::summary::minimal_leaves;
    use proptest::prelude::*;

    fn leaf_values(tree: &Tree, steps: &[Step]) -> Vec<i64> {
        steps
            .iter()
            .filter(|s| s.kind == StepKind::Leaf)
            .map(|s| tree.nodes[s.node].value.unwrap())
            .collect()
    }

    #[test]
    fn alphabeta_on_the_standing_tree() {
        let tree = standing();
        let trace = trace_tree(&tree, Algorithm::AlphaBeta);
        assert_eq!(trace.result.value, Some(Score::Value(3)));
        assert_eq!(leaf_values(&tree, &trace.steps), [3, 12, 8, 2, 14, 5, 2]);
        // The cut-off in the second branch, right after its first leaf, skips 2 siblings.
        let cutoffs: Vec<&Step> = trace
            .steps
            .iter()
            .filter(|s| s.kind == StepKind::Cutoff)
            .collect();
        let second = &cutoffs[0];
        assert_eq!(tree.nodes[second.node].label, "2");
        let skipped: Vec<&str> = second
            .skipped
            .as_ref()
            .unwrap()
            .iter()
            .map(|&s| tree.nodes[s].label.as_str())
            .collect();
        assert_eq!(skipped, ["2.2", "2.3"]);
        assert_eq!(
            second.text,
            "MIN node 2 has 2 ≤ α 3: the remaining 2 siblings are skipped."
        );
        let position = trace
            .steps
            .iter()
            .position(|s| std::ptr::eq(s, *second))
            .unwrap();
        let before = &trace.steps[position - 1];
        assert_eq!(before.kind, StepKind::Leaf);
        assert_eq!(tree.nodes[before.node].label, "2.1");
        assert_eq!(trace.result.leaves, 7);
        assert_eq!(trace.result.minimax_leaves, 9);
        assert_eq!(trace.result.pruned, 2);
        let never: Vec<i64> = trace
            .result
            .never_examined
            .iter()
            .map(|&n| tree.nodes[n].value.unwrap())
            .collect();
        assert_eq!(never, [4, 6]);
    }

    #[test]
    fn orderings_of_the_standing_tree() {
        let rows = crate::trace::orderings(&standing(), Algorithm::AlphaBeta).unwrap();
        let leaves: Vec<u64> = rows.iter().map(|r| r.leaves).collect();
        assert_eq!(leaves, [7, 7, 9, 9, 7, 7]);
        assert!(
            rows.iter()
                .all(|r| r.value == Some(Score::Value(3)) && r.of == 9)
        );
        assert_eq!(rows[2].order, ["2", "1", "3"]);
    }

    #[test]
    fn strict_cutoff_same_value_more_leaves() {
        // Ties make the difference: with 3 = alpha, MIN's 3 cuts under >= but not under >.
        let tree = tree::parse("[[3,5],[3,1],[4,3,9]]").unwrap();
        let (value, leaves) = count(&tree, Algorithm::AlphaBeta);
        let (strict_value, strict_leaves) = count(&tree, Algorithm::AlphaBetaStrict);
        assert_eq!(value, strict_value);
        assert_eq!((leaves, strict_leaves), (5, 7));
        for text in [
            tree::STANDING,
            "[[1,1],[1,1]]",
            "[[[2,2],[2,2]],[[2,2],[2,2]]]",
        ] {
            let tree = tree::parse(text).unwrap();
            let (v, l) = count(&tree, Algorithm::AlphaBeta);
            let (sv, sl) = count(&tree, Algorithm::AlphaBetaStrict);
            assert_eq!(v, sv, "{text}");
            assert!(sl >= l, "{text}: strict {sl} < {l}");
        }
    }

    #[test]
    fn compare_on_a_uniform_tree_of_depth_four() {
        let tree = tree::random(3, 4, 7).unwrap();
        let rows = crate::trace::compare_tree(&tree);
        let leaves = |name: &str| rows.iter().find(|r| r.algorithm == name).unwrap().leaves;
        assert_eq!(leaves("minimax"), 81);
        assert_eq!(leaves("negamax"), 81);
        assert_eq!(leaves("alphabeta-ordered"), 17);
        assert_eq!(rows.last().unwrap().leaves, 17);
        assert!(rows.last().unwrap().algorithm.starts_with("best case"));
    }

    #[test]
    fn minimax_and_negamax_give_every_node_its_value() {
        let tree = tree::random(3, 3, 11).unwrap();
        let values = minimax_values(&tree);
        for algorithm in [Algorithm::Minimax, Algorithm::Negamax] {
            let trace = trace_tree(&tree, algorithm);
            for step in &trace.steps {
                if matches!(step.kind, StepKind::Return | StepKind::Leaf) {
                    assert_eq!(step.value, Some(Score::Value(values[step.node])));
                }
            }
            assert!(
                trace
                    .steps
                    .iter()
                    .all(|s| s.alpha.is_none() && s.beta.is_none())
            );
        }
    }

    /// A tree as nested lists: depth 1 to 4, 1 to 4 children, small values (many ties).
    fn arbitrary_tree() -> impl Strategy<Value = String> {
        let leaf = (-5i64..=5).prop_map(|v| v.to_string());
        leaf.prop_recursive(4, 200, 4, |inner| {
            prop::collection::vec(inner, 1..=4).prop_map(|items| format!("[{}]", items.join(",")))
        })
        .prop_map(|t| {
            if t.starts_with('[') {
                t
            } else {
                format!("[{t}]")
            }
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn alphabeta_returns_the_minimax_value(text in arbitrary_tree()) {
            let tree = tree::parse(&text).unwrap();
            let (minimax, all) = count(&tree, Algorithm::Minimax);
            prop_assert_eq!(all, tree.leaves().len() as u64);
            for algorithm in Algorithm::ALL {
                let (value, leaves) = count(&tree, algorithm);
                prop_assert_eq!(value, minimax, "{} on {}", algorithm.name(), &text);
                prop_assert!(leaves <= all);
            }
            let (_, inclusive) = count(&tree, Algorithm::AlphaBeta);
            let (_, strict) = count(&tree, Algorithm::AlphaBetaStrict);
            prop_assert!(strict >= inclusive);
        }

        #[test]
        fn ordered_search_examines_the_minimal_tree(
            branching in 1u64..=5, depth in 1u32..=5, seed in any::<u64>()
        ) {
            prop_assume!(branching.pow(depth) <= 3200);
            let tree = tree::random(branching, depth, seed).unwrap();
            let (_, leaves) = count(&tree, Algorithm::AlphaBetaOrdered);
            prop_assert_eq!(leaves as f64, minimal_leaves(branching as f64, depth));
        }

        #[test]
        fn counters_agree_with_the_steps(
            branching in 1u64..=4, depth in 1u32..=4, seed in any::<u64>(),
            which in 0usize..5
        ) {
            let tree = tree::random(branching, depth, seed).unwrap();
            let trace = trace_tree(&tree, Algorithm::ALL[which]);
            let (mut visited, mut leaves, mut pruned) = (0, 0, 0);
            let mut entered = vec![false; tree.nodes.len()];
            for step in &trace.steps {
                match step.kind {
                    StepKind::Enter | StepKind::Leaf => {
                        prop_assert!(!entered[step.node], "a node entered twice");
                        entered[step.node] = true;
                        visited += 1;
                        leaves += u64::from(step.kind == StepKind::Leaf);
                    }
                    StepKind::Cutoff => {
                        for &s in step.skipped.as_ref().unwrap() {
                            pruned += crate::trace::recorder::subtree_size(&trace.nodes, s);
                        }
                    }
                    _ => {}
                }
                prop_assert_eq!((step.visited, step.leaves, step.pruned), (visited, leaves, pruned));
            }
            // Every node of the tree is either visited or under a cut-off, never both.
            prop_assert_eq!(visited + pruned, tree.nodes.len() as u64);
            prop_assert_eq!(trace.result.leaves, leaves);
            let never = trace.result.never_examined.len() as u64;
            prop_assert_eq!(leaves + never, tree.leaves().len() as u64);
        }
    }
}
