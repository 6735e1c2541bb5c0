//! The `Recorder`: the one place where the steps of a search, their pseudocode lines and
//! their sentences are made, for the textbook algorithms on toy trees (`textbook.rs`) and the
//! engine's own search (`chess.rs`) alike, and the functions that read a finished recording
//! (`outcome`, `best_line`, `subtree_size`, and `assemble`, which makes a `Trace` of one).
//!
//! Every value and bound is in MAX's view; the sources convert. The recorder fills in the
//! counters (`visited`, `leaves`, `pruned`) at the end, when the size of every skipped subtree
//! is known. It never searches anything itself.

use super::model::{
    self, AlgorithmInfo, CutoffTest, Iteration, Node, Outcome, Pseudocode, Score, Step, StepKind,
    Totals, Trace, ValueFormat, ValuesInfo,
};

/// Writes the steps of a search as it runs: the one place where steps, their pseudocode
/// lines and their sentences are made, for toy trees and chess alike.
pub struct Recorder {
    /// The nodes (the sources add them) and the steps recorded so far.
    pub nodes: Vec<Node>,
    steps: Vec<Step>,
    iterations: Vec<Iteration>,
    code: Pseudocode,
    format: ValueFormat,
    cutoff_test: CutoffTest,
    /// The window at each node (by id), as last set.
    windows: Vec<(Option<Score>, Option<Score>)>,
    /// The best value so far at each node (by id).
    best: Vec<Option<Score>>,
    /// The iteration being recorded.
    current: Option<usize>,
}

impl Recorder {
    /// A recorder for an algorithm with pseudocode `code`, values written as `format`.
    pub fn new(code: Pseudocode, format: ValueFormat, cutoff_test: CutoffTest) -> Self {
        Self {
            nodes: Vec::new(),
            steps: Vec::new(),
            iterations: Vec::new(),
            code,
            format,
            cutoff_test,
            windows: Vec::new(),
            best: Vec::new(),
            current: None,
        }
    }

    /// How values are written.
    pub fn format(&self) -> ValueFormat {
        self.format
    }

    /// Adds a node (its id must be the next index) and links it to its parent.
    pub fn add_node(&mut self, mut node: Node) -> usize {
        let id = self.nodes.len();
        debug_assert_eq!(node.id, id);
        node.id = id;
        node.iteration = self.current.unwrap_or(0);
        if let Some(parent) = node.parent {
            self.nodes[parent].children.push(id);
        }
        self.nodes.push(node);
        self.windows.push((None, None));
        self.best.push(None);
        id
    }

    /// Starts an iteration of `depth` whose root is `root` and whose full-width tree is
    /// `totals`.
    pub fn begin_iteration(&mut self, depth: u32, root: usize, totals: Totals) {
        self.iterations.push(Iteration {
            depth,
            root,
            first_step: self.steps.len() + 1,
            last_step: self.steps.len(),
            totals,
        });
        self.current = Some(self.iterations.len() - 1);
    }

    /// Sets the full-width totals of iteration `index` (known only after the search, for
    /// chess).
    pub fn set_totals(&mut self, index: usize, totals: Totals) {
        self.iterations[index].totals = totals;
    }

    /// The number of iterations begun.
    pub fn iteration_count(&self) -> usize {
        self.iterations.len()
    }

    /// A name for a node in sentences: "MAX root", "MIN node 2.1", "MIN 1. e4".
    fn who(&self, node: usize) -> String {
        let n = &self.nodes[node];
        if n.parent.is_none() {
            format!("{} root", n.side())
        } else if n.path.is_some() {
            format!("{} ({} to move)", n.label, n.side())
        } else if n.leaf {
            format!("leaf {}", n.label)
        } else {
            format!("{} node {}", n.side(), n.label)
        }
    }

    fn window_text(&self, alpha: Option<Score>, beta: Option<Score>) -> String {
        match (alpha, beta) {
            (Some(a), Some(b)) => format!(
                " with α = {}, β = {}",
                self.format.show(a),
                self.format.show(b)
            ),
            _ => String::new(),
        }
    }

    fn push(&mut self, step: Step) {
        self.steps.push(step);
        if let Some(index) = self.current {
            self.iterations[index].last_step = self.steps.len();
        }
    }

    fn step(&self, kind: StepKind, node: usize, line: u32, value: Option<Score>) -> Step {
        let (alpha, beta) = self.windows[node];
        Step {
            kind,
            node,
            line,
            alpha,
            beta,
            value,
            improves: None,
            skipped: None,
            detail: None,
            technique: None,
            text: String::new(),
            visited: 0,
            leaves: 0,
            pruned: 0,
        }
    }

    /// The search enters `node` with the window `(alpha, beta)` (none for minimax and
    /// negamax).
    pub fn enter(&mut self, node: usize, alpha: Option<Score>, beta: Option<Score>) {
        self.windows[node] = (alpha, beta);
        self.best[node] = None;
        let mut step = self.step(StepKind::Enter, node, self.code.enter, None);
        step.text = format!("Enter {}{}.", self.who(node), self.window_text(alpha, beta));
        self.push(step);
    }

    /// `node`, just entered, is a leaf scored `value`; `why` says how (for chess: "static
    /// evaluation", "checkmate", ...). The enter step becomes the leaf step.
    pub fn leaf(&mut self, node: usize, value: Score, line: u32, why: Option<&str>) {
        self.nodes[node].leaf = true;
        // The enter step becomes the leaf step; a technique that caused the enter (a null
        // move searched straight into quiescence) stays on it, and its sentence first.
        let mut flagged = None;
        if self
            .steps
            .last()
            .is_some_and(|s| s.kind == StepKind::Enter && s.node == node)
            && let Some(enter) = self.steps.pop()
            && let Some(technique) = enter.technique
        {
            flagged = Some((technique, enter.text));
        }
        let mut step = self.step(StepKind::Leaf, node, line, Some(value));
        let shown = self.format.show(value);
        step.text = match why {
            Some(why) => format!("Leaf {}: {why}, {shown}.", self.label_of(node)),
            None => format!("Leaf {} scores {shown}.", self.label_of(node)),
        };
        if let Some((technique, text)) = flagged {
            step.technique = Some(technique);
            step.text = format!("{text} {}", step.text);
        }
        // Not better than what the parent has: say so (an improvement is said by `improves`).
        if let Some(parent) = self.nodes[node].parent
            && let Some(best) = self.best[parent]
            && !self.better(parent, value, best)
        {
            step.text = format!(
                "{} No better for {} than {}.",
                step.text,
                self.who(parent),
                self.format.show(best)
            );
        }
        step.detail = why.map(str::to_string);
        self.push(step);
    }

    fn label_of(&self, node: usize) -> String {
        let n = &self.nodes[node];
        n.path.clone().unwrap_or_else(|| n.label.clone())
    }

    /// The pseudocode line of a plain leaf.
    pub fn leaf_line(&self) -> u32 {
        self.code.leaf
    }

    /// The pseudocode lines of chess leaves: (horizon, no legal move, draw by rule).
    pub fn chess_leaf_lines(&self) -> (u32, u32, u32) {
        (self.code.leaf, self.code.no_moves, self.code.draw)
    }

    /// `node` returns `value` to its parent. (A leaf's score is its return: no step.)
    pub fn ret(&mut self, node: usize, value: Score) {
        if self
            .steps
            .last()
            .is_some_and(|s| s.kind == StepKind::Leaf && s.node == node)
        {
            return;
        }
        let n = &self.nodes[node];
        let line = if n.max {
            self.code.return_max
        } else {
            self.code.return_min
        };
        let mut step = self.step(StepKind::Return, node, line, Some(value));
        let shown = self.format.show(value);
        step.text = match n.parent {
            None => format!("{} returns {shown}: the value of the tree.", self.who(node)),
            Some(parent) => match self.best[parent] {
                Some(best) if !self.better(parent, value, best) => format!(
                    "{} returns {shown} to {}: no better than its best so far, {}.",
                    self.who(node),
                    self.who(parent),
                    self.format.show(best)
                ),
                _ => format!(
                    "{} returns {shown} to {}.",
                    self.who(node),
                    self.who(parent)
                ),
            },
        };
        self.push(step);
    }

    /// Whether `value` is better than `best` for the side to move at `node`.
    fn better(&self, node: usize, value: Score, best: Score) -> bool {
        if self.nodes[node].max {
            value > best
        } else {
            value < best
        }
    }

    /// The child that just returned (or was scored as a leaf) is `node`'s best so far, with
    /// `value`.
    pub fn improves(&mut self, node: usize, value: Score) {
        self.best[node] = Some(value);
        let parent_name = self.who(node);
        let shown = self.format.show(value);
        let Some(child) = self.steps.last().map(|s| s.node) else {
            return;
        };
        let child_name = self.who(child);
        let Some(last) = self.steps.last_mut() else {
            return;
        };
        debug_assert!(matches!(last.kind, StepKind::Return | StepKind::Leaf));
        debug_assert_eq!(self.nodes[last.node].parent, Some(node));
        if last.kind == StepKind::Return {
            last.improves = Some(true);
            last.text = format!("{child_name} returns {shown} to {parent_name}: its best so far.");
        } else {
            last.improves = Some(true);
            last.text = format!("{} Best so far for {parent_name}.", last.text);
        }
    }

    /// At a MAX node alpha rises to `bound`; at a MIN node beta falls to it.
    pub fn tighten(&mut self, node: usize, bound: Score) {
        let max = self.nodes[node].max;
        let (alpha, beta) = &mut self.windows[node];
        if max {
            *alpha = Some(bound);
        } else {
            *beta = Some(bound);
        }
        let (kind, line, name) = if max {
            (StepKind::Alpha, self.code.alpha, "raises α")
        } else {
            (StepKind::Beta, self.code.beta, "lowers β")
        };
        let mut step = self.step(kind, node, line, Some(bound));
        step.text = format!("{} {name} to {}.", self.who(node), self.format.show(bound));
        self.push(step);
    }

    /// The window at `node` closed on `value`: the children in `skipped` are never visited.
    pub fn cutoff(&mut self, node: usize, value: Score, skipped: Vec<usize>) {
        let max = self.nodes[node].max;
        let (alpha, beta) = self.windows[node];
        let (sign, bound_name, bound) = match (max, self.cutoff_test) {
            (true, CutoffTest::Inclusive) => ("≥", "β", beta),
            (true, CutoffTest::Strict) => (">", "β", beta),
            (false, CutoffTest::Inclusive) => ("≤", "α", alpha),
            (false, CutoffTest::Strict) => ("<", "α", alpha),
        };
        let line = if max {
            self.code.cutoff_max
        } else {
            self.code.cutoff_min
        };
        let mut step = self.step(StepKind::Cutoff, node, line, Some(value));
        let skipped_count: u64 = skipped
            .iter()
            .map(|&s| self.nodes[s].stub.map_or(1, |stub| stub.moves))
            .sum();
        let noun = if self.nodes[node].path.is_some() {
            ("move", "moves")
        } else {
            ("sibling", "siblings")
        };
        let rest = match skipped_count {
            0 => format!("no {} left to skip", noun.1),
            1 => format!("the remaining {} is skipped", noun.0),
            n => format!("the remaining {n} {} are skipped", noun.1),
        };
        step.text = format!(
            "{} has {} {sign} {bound_name} {}: {rest}.",
            self.who(node),
            self.format.show(value),
            self.format.show_opt(bound)
        );
        step.skipped = Some(skipped);
        self.push(step);
    }

    /// The last step runs pseudocode line `line` (a chess root's enter, which the engine's
    /// pseudocode gives a line of its own).
    pub fn set_last_line(&mut self, line: u32) {
        if let Some(last) = self.steps.last_mut() {
            last.line = line;
        }
    }

    /// The last step was caused by `technique`: flag it and say so in `text` (which replaces
    /// its sentence) and, when given, on pseudocode line `line`.
    pub fn flag_last(&mut self, technique: &'static str, text: String, line: Option<u32>) {
        if let Some(last) = self.steps.last_mut() {
            last.technique = Some(technique);
            last.text = text;
            if let Some(line) = line {
                last.line = line;
            }
        }
    }

    /// A selective step at `node`, flagged and explained by `flag` (the technique's name and
    /// one sentence): a cut-off of
    /// the node (`StepKind::Cutoff`), one move skipped (`StepKind::Prune`) or a decision
    /// (`StepKind::Technique`). `skipped` lists the stubs of what it skipped.
    pub fn technique(
        &mut self,
        kind: StepKind,
        node: usize,
        line: u32,
        value: Option<Score>,
        flag: (&'static str, String),
        skipped: Vec<usize>,
    ) {
        let (technique, text) = flag;
        let mut step = self.step(kind, node, line, value);
        step.technique = Some(technique);
        step.text = text;
        if kind != StepKind::Technique {
            step.skipped = Some(skipped);
        }
        self.push(step);
    }

    /// The steps recorded so far.
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// The best value so far at `node`, if any child has returned one.
    pub fn best_of(&self, node: usize) -> Option<Score> {
        self.best[node]
    }

    /// The window at `node`, as last set (MAX's view).
    pub fn window_of(&self, node: usize) -> (Option<Score>, Option<Score>) {
        self.windows[node]
    }

    /// Ends the recording: fills in the counters of every step and returns the nodes, the
    /// steps and the iterations.
    pub fn finish(self) -> (Vec<Node>, Vec<Step>, Vec<Iteration>) {
        let Recorder {
            nodes,
            mut steps,
            iterations,
            ..
        } = self;
        for iteration in &iterations {
            let (mut visited, mut leaves, mut pruned) = (0, 0, 0);
            for step in &mut steps[iteration.first_step - 1..iteration.last_step] {
                match step.kind {
                    StepKind::Enter => visited += 1,
                    StepKind::Leaf => {
                        visited += 1;
                        leaves += 1;
                    }
                    StepKind::Cutoff | StepKind::Prune => {
                        for &s in step.skipped.iter().flatten() {
                            pruned += subtree_size(&nodes, s);
                        }
                    }
                    _ => {}
                }
                step.visited = visited;
                step.leaves = leaves;
                step.pruned = pruned;
            }
        }
        (nodes, steps, iterations)
    }
}

/// Nodes of the subtree under `node`, itself included; a stub counts the nodes it stands
/// for.
pub fn subtree_size(nodes: &[Node], node: usize) -> u64 {
    let mut size = 0;
    let mut pending = vec![node];
    while let Some(n) = pending.pop() {
        let node = &nodes[n];
        match node.stub {
            Some(stub) => size += stub.nodes,
            None => {
                size += 1;
                pending.extend(&node.children);
            }
        }
    }
    size
}

/// The result of a recording, with the fields only the whole trace knows.
pub fn outcome(nodes: &[Node], steps: &[Step], iterations: &[Iteration]) -> Outcome {
    let Some(last) = iterations.last() else {
        return Outcome::default();
    };
    let last_steps = &steps[last.first_step - 1..last.last_step];
    let value = last_steps
        .iter()
        .rev()
        .find(|s| s.node == last.root && matches!(s.kind, StepKind::Return | StepKind::Leaf))
        .and_then(|s| s.value);
    let visited = iterations
        .iter()
        .filter_map(|i| steps.get(i.last_step.wrapping_sub(1)))
        .map(|s| s.visited)
        .sum();
    let leaves = iterations
        .iter()
        .filter_map(|i| steps.get(i.last_step.wrapping_sub(1)))
        .map(|s| s.leaves)
        .sum();
    let pruned = last_steps.last().map_or(0, |s| s.pruned);
    // Leaves never scored: those of the last iteration's tree with no leaf step (toy trees),
    // and the stubs (chess).
    let mut scored = vec![false; nodes.len()];
    for step in last_steps {
        if step.kind == StepKind::Leaf {
            scored[step.node] = true;
        }
    }
    let never_examined = nodes
        .iter()
        .filter(|n| n.iteration == iterations.len() - 1)
        .filter(|n| n.stub.is_some() || (n.children.is_empty() && n.leaf && !scored[n.id]))
        .map(|n| n.id)
        .collect();
    Outcome {
        value,
        leaves,
        visited,
        pruned,
        minimax_leaves: last.totals.leaves,
        never_examined,
        best_line: best_line(nodes, last_steps, last.root, usize::MAX),
    }
}

/// The best line after the steps `steps[..upto]` of an iteration rooted at `root`: from the
/// root, at each node the child whose latest improving return came last.
pub fn best_line(nodes: &[Node], steps: &[Step], root: usize, upto: usize) -> Vec<usize> {
    let mut improved_at = std::collections::HashMap::new();
    for (index, step) in steps.iter().enumerate().take(upto) {
        if step.improves == Some(true) {
            improved_at.insert(step.node, index);
        }
    }
    let mut line = vec![root];
    let mut node = root;
    while let Some(&best) = nodes[node]
        .children
        .iter()
        .filter(|c| improved_at.contains_key(c))
        .max_by_key(|c| improved_at[c])
    {
        line.push(best);
        node = best;
    }
    line
}

/// A trace from its recorded parts, with the result filled in; the caller names it.
pub fn assemble(
    nodes: Vec<Node>,
    steps: Vec<Step>,
    iterations: Vec<Iteration>,
    code: Pseudocode,
    format: ValueFormat,
) -> Trace {
    let result = outcome(&nodes, &steps, &iterations);
    Trace {
        format: "brudno-trace",
        version: model::FORMAT_VERSION,
        title: String::new(),
        header: String::new(),
        algorithm: AlgorithmInfo {
            name: String::new(),
            description: String::new(),
        },
        source: serde_json::Value::Null,
        values: ValuesInfo::from(format),
        pseudocode: code.lines.to_vec(),
        nodes,
        iterations,
        steps,
        result,
        techniques: Vec::new(),
        compare: None,
        orderings: None,
    }
}
