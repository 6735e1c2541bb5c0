//! Toy game trees for the trace: the textbook tree, any nested list of integers, and seeded
//! random uniform trees. A tree is an arena of nodes; node 0 is the root, MAX is to move at
//! the root and the sides alternate, leaves carry their value in MAX's view.
//!
//! Parsing never panics: malformed text is an error naming the byte position (1-based) and
//! what was expected there.

use brudno_engine::rng::splitmix64;

/// The textbook tree: three MIN nodes under a MAX root, value 3.
pub const STANDING: &str = "[[3,12,8],[2,4,6],[14,5,2]]";
/// Values of random leaves are `0..RANDOM_VALUES`.
pub const RANDOM_VALUES: u64 = 100;
/// The most nodes a tree may have (a trace of a bigger one is unreadable anyway).
pub const MAX_NODES: usize = 100_000;
/// The deepest nesting accepted.
pub const MAX_DEPTH: usize = 64;
/// The largest leaf value accepted, in absolute value.
pub const MAX_VALUE: i64 = 1_000_000_000_000;

/// One node: a leaf with a value, or an interior node with children.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeNode {
    /// Children, left to right (empty for a leaf).
    pub children: Vec<usize>,
    /// A leaf's value, in MAX's view.
    pub value: Option<i64>,
    /// The node's parent.
    pub parent: Option<usize>,
    /// Plies from the root.
    pub depth: u32,
    /// The path of 1-based child numbers: "root", "2", "2.1".
    pub label: String,
}

/// A game tree with MAX to move at the root (node 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tree {
    /// The nodes; the root is node 0 and every node comes after its parent.
    pub nodes: Vec<TreeNode>,
}

/// A parse error: what went wrong and at which byte (1-based).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based byte position in the text.
    pub position: usize,
    /// What was wrong.
    pub message: String,
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "at character {}: {}", self.position, self.message)
    }
}

impl Tree {
    /// The root.
    pub const ROOT: usize = 0;

    /// Whether MAX is to move at `node`.
    pub fn is_max(&self, node: usize) -> bool {
        self.nodes[node].depth.is_multiple_of(2)
    }

    /// The leaves, left to right.
    pub fn leaves(&self) -> Vec<usize> {
        let mut leaves = Vec::new();
        let mut pending = vec![Self::ROOT];
        while let Some(node) = pending.pop() {
            let children = &self.nodes[node].children;
            if children.is_empty() {
                leaves.push(node);
            }
            pending.extend(children.iter().rev());
        }
        leaves
    }

    /// The depth of the deepest leaf.
    pub fn depth(&self) -> u32 {
        self.nodes.iter().map(|n| n.depth).max().unwrap_or(0)
    }

    /// `(b, d)` when every interior node has `b` children and every leaf is at depth `d`.
    pub fn uniform(&self) -> Option<(u64, u32)> {
        let depth = self.depth();
        let branching = self.nodes[Self::ROOT].children.len();
        self.nodes
            .iter()
            .all(|n| {
                if n.children.is_empty() {
                    n.depth == depth
                } else {
                    n.children.len() == branching
                }
            })
            .then_some((branching as u64, depth))
    }

    /// The tree as a nested list (the text `parse` reads).
    pub fn to_text(&self, node: usize) -> String {
        let n = &self.nodes[node];
        match n.value {
            Some(v) => v.to_string(),
            None => {
                let items: Vec<String> = n.children.iter().map(|&c| self.to_text(c)).collect();
                format!("[{}]", items.join(","))
            }
        }
    }

    /// A copy whose root children come in `order` (indices into the root's children); the
    /// labels stay those of the original tree.
    pub fn with_root_order(&self, order: &[usize]) -> Tree {
        let mut tree = self.clone();
        let children = &self.nodes[Self::ROOT].children;
        tree.nodes[Self::ROOT].children = order.iter().map(|&i| children[i]).collect();
        tree
    }

    fn push(&mut self, parent: Option<usize>, value: Option<i64>) -> usize {
        let id = self.nodes.len();
        let (depth, label) = match parent {
            None => (0, "root".to_string()),
            Some(p) => {
                let number = self.nodes[p].children.len() + 1;
                let parent_node = &self.nodes[p];
                let label = if parent_node.parent.is_none() {
                    number.to_string()
                } else {
                    format!("{}.{number}", parent_node.label)
                };
                (parent_node.depth + 1, label)
            }
        };
        self.nodes.push(TreeNode {
            children: Vec::new(),
            value,
            parent,
            depth,
            label,
        });
        if let Some(p) = parent {
            self.nodes[p].children.push(id);
        }
        id
    }
}

/// The textbook tree: `[[3,12,8],[2,4,6],[14,5,2]]`.
pub fn standing() -> Tree {
    parse(STANDING).expect("the standing tree parses")
}

/// A uniform tree of branching `b` and depth `d` whose leaves, left to right, take the
/// values of the SplitMix64 generator seeded with `seed` modulo 100: leaf `i` (0-based) gets
/// output `i + 1` of the standard generator (`state += 0x9e3779b97f4a7c15`, then the
/// SplitMix64 mix). Errors when the tree would be too big.
pub fn random(branching: u64, depth: u32, seed: u64) -> Result<Tree, String> {
    if branching == 0 || depth == 0 {
        return Err("a random tree needs --branching and --depth of at least 1".to_string());
    }
    let mut nodes: u64 = 1;
    let mut level: u64 = 1;
    for _ in 0..depth {
        level = level.saturating_mul(branching);
        nodes = nodes.saturating_add(level);
    }
    if nodes > MAX_NODES as u64 {
        let size = if nodes == u64::MAX {
            "more than 10^19".to_string()
        } else {
            nodes.to_string()
        };
        return Err(format!(
            "a random tree of branching {branching} and depth {depth} has {size} nodes; at most {MAX_NODES} are traced"
        ));
    }
    let mut tree = Tree { nodes: Vec::new() };
    let mut next_leaf: u64 = 0;
    fn grow(
        tree: &mut Tree,
        parent: Option<usize>,
        left: u32,
        branching: u64,
        seed: u64,
        next_leaf: &mut u64,
    ) {
        if left == 0 {
            let output =
                splitmix64(seed.wrapping_add(next_leaf.wrapping_mul(0x9e37_79b9_7f4a_7c15)));
            *next_leaf += 1;
            tree.push(parent, Some((output % RANDOM_VALUES) as i64));
            return;
        }
        let node = tree.push(parent, None);
        for _ in 0..branching {
            grow(tree, Some(node), left - 1, branching, seed, next_leaf);
        }
    }
    grow(&mut tree, None, depth, branching, seed, &mut next_leaf);
    Ok(tree)
}

/// Reads a nested list such as `[[3,12,8],[2,4,6],[14,5,2]]`: lists of lists or integers,
/// whitespace anywhere between items. The root must be a non-empty list.
pub fn parse(text: &str) -> Result<Tree, ParseError> {
    let mut parser = Parser {
        bytes: text.as_bytes(),
        at: 0,
        tree: Tree { nodes: Vec::new() },
    };
    parser.skip_space();
    if parser.peek() != Some(b'[') {
        return Err(parser.error("expected '[' to open the root list"));
    }
    parser.list(None, 0)?;
    parser.skip_space();
    if parser.at < parser.bytes.len() {
        return Err(parser.error("unexpected text after the tree"));
    }
    Ok(parser.tree)
}

struct Parser<'a> {
    bytes: &'a [u8],
    at: usize,
    tree: Tree,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
            self.at += 1;
        }
    }

    fn error(&self, message: &str) -> ParseError {
        let found = match self.peek() {
            None => "the end of the text".to_string(),
            Some(_) => {
                let rest = String::from_utf8_lossy(&self.bytes[self.at..]);
                let shown: String = rest.chars().take(12).collect();
                format!("'{shown}'")
            }
        };
        ParseError {
            position: self.at + 1,
            message: format!("{message}, found {found}"),
        }
    }

    /// A list starting at `[`, as a child of `parent`.
    fn list(&mut self, parent: Option<usize>, depth: usize) -> Result<(), ParseError> {
        if depth >= MAX_DEPTH {
            return Err(self.error(&format!("lists nested deeper than {MAX_DEPTH}")));
        }
        if self.tree.nodes.len() >= MAX_NODES {
            return Err(self.error(&format!("more than {MAX_NODES} nodes")));
        }
        let node = self.tree.push(parent, None);
        self.at += 1; // '['
        self.skip_space();
        if self.peek() == Some(b']') {
            return Err(self.error("an empty list has no value"));
        }
        loop {
            self.skip_space();
            match self.peek() {
                Some(b'[') => self.list(Some(node), depth + 1)?,
                Some(b'-' | b'+' | b'0'..=b'9') => self.integer(node)?,
                _ => return Err(self.error("expected a list or an integer")),
            }
            self.skip_space();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    return Ok(());
                }
                _ => return Err(self.error("expected ',' or ']'")),
            }
        }
    }

    fn integer(&mut self, parent: usize) -> Result<(), ParseError> {
        if self.tree.nodes.len() >= MAX_NODES {
            return Err(self.error(&format!("more than {MAX_NODES} nodes")));
        }
        let start = self.at;
        if matches!(self.peek(), Some(b'-' | b'+')) {
            self.at += 1;
        }
        let digits = self.at;
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.at += 1;
        }
        if self.at == digits {
            return Err(self.error("expected digits"));
        }
        let text = std::str::from_utf8(&self.bytes[start..self.at]).unwrap_or("");
        let value = text
            .parse::<i64>()
            .ok()
            .filter(|v| v.abs() <= MAX_VALUE)
            .ok_or_else(|| ParseError {
                position: start + 1,
                message: format!("'{text}' is beyond the range of leaf values (±{MAX_VALUE})"),
            })?;
        self.tree.push(Some(parent), Some(value));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_standing_tree() {
        let tree = standing();
        assert_eq!(tree.nodes.len(), 13);
        assert_eq!(tree.uniform(), Some((3, 2)));
        let values: Vec<i64> = tree
            .leaves()
            .iter()
            .map(|&l| tree.nodes[l].value.unwrap())
            .collect();
        assert_eq!(values, [3, 12, 8, 2, 4, 6, 14, 5, 2]);
        assert_eq!(tree.nodes[tree.leaves()[4]].label, "2.2");
        assert_eq!(tree.to_text(Tree::ROOT), STANDING);
    }

    #[test]
    fn errors_name_the_position() {
        let cases = [
            ("", 1, "expected '['"),
            ("[1,2", 5, "expected ',' or ']'"),
            ("[1,,2]", 4, "expected a list or an integer"),
            ("[[1],[]]", 7, "empty list"),
            ("[1] x", 5, "unexpected text"),
            ("[1, 2x]", 6, "expected ',' or ']'"),
            ("[-]", 3, "expected digits"),
            ("[99999999999999999999]", 2, "beyond the range"),
            ("3", 1, "expected '['"),
        ];
        for (text, position, message) in cases {
            let error = parse(text).unwrap_err();
            assert_eq!(error.position, position, "{text}: {error}");
            assert!(error.message.contains(message), "{text}: {error}");
        }
        let deep = "[".repeat(MAX_DEPTH + 1) + "1" + &"]".repeat(MAX_DEPTH + 1);
        assert!(parse(&deep).unwrap_err().message.contains("nested deeper"));
    }

    #[test]
    fn whitespace_and_signs() {
        let tree = parse(" [ [ -3 , +4 ] ,\n 7 ] ").unwrap();
        assert_eq!(tree.to_text(Tree::ROOT), "[[-3,4],7]");
        assert_eq!(tree.uniform(), None);
    }

    #[test]
    fn random_trees_are_seeded_and_documented() {
        let tree = random(3, 3, 7).unwrap();
        assert_eq!(tree.uniform(), Some((3, 3)));
        assert_eq!(tree.leaves().len(), 27);
        assert_eq!(tree, random(3, 3, 7).unwrap());
        assert_ne!(tree, random(3, 3, 8).unwrap());
        // The first leaf is the standard SplitMix64's first output for the seed, modulo 100:
        // state = seed + 0x9e3779b97f4a7c15, then the mix.
        let mut z = 7u64.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        let first = tree.leaves()[0];
        assert_eq!(tree.nodes[first].value, Some((z % 100) as i64));
        assert!(random(10, 7, 1).is_err());
        assert!(random(0, 3, 1).is_err());
    }
}
