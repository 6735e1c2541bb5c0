//! Fuzz target for the toy trees of `brudno trace --tree` (`tools/trace/tree.rs`) and the
//! traces made of them.
//!
//! A text is read as a tree or refused with an error inside the text (or just past its end).
//! A tree that is read writes back a nested list that reads as the same tree. It is then
//! traced as `brudno trace --tree TEXT --compare` does (with `--orderings` when the root has
//! few children), with every textbook algorithm, through the narration, the tables, the JSON
//! and the page; every algorithm finds the root's minimax value, computed here on its own.

use super::common::text;
use crate::eval::Evaluation;
use crate::lab::trace::model::Score;
use crate::lab::trace::textbook::Algorithm;
use crate::lab::trace::tree::{self, Tree};
use crate::lab::trace::{self, TraceArgs};

/// Root children up to which `--orderings` is traced too (5! = 120 orders).
const ORDERINGS_UP_TO: usize = 5;

/// Reads the input as a `--tree` value and traces it.
pub fn trace(data: &[u8]) {
    let text = text(data);
    let tree = match tree::parse(&text) {
        Ok(tree) => tree,
        Err(error) => {
            assert!(
                error.position >= 1 && error.position <= text.len() + 1,
                "{error}"
            );
            assert!(!error.message.is_empty());
            return;
        }
    };
    assert!(tree.nodes.len() <= tree::MAX_NODES);
    let written = tree.to_text(Tree::ROOT);
    match tree::parse(&written) {
        Ok(again) => assert!(again == tree, "'{written}' reads as another tree"),
        Err(error) => panic!("'{written}', written back, is refused: {error}"),
    }
    let value = minimax(&tree, Tree::ROOT);
    for row in trace::compare_tree(&tree) {
        if let Some(score) = row.value {
            assert_eq!(score, Score::Value(value), "{} on {written}", row.algorithm);
        }
    }
    let orderings = tree.nodes[Tree::ROOT].children.len() <= ORDERINGS_UP_TO;
    for algorithm in Algorithm::ALL {
        let args = TraceArgs {
            tree: Some(text.to_string()),
            random: false,
            branching: None,
            depth: None,
            seed: None,
            fen: None,
            startpos: false,
            moves: Vec::new(),
            algorithm: Some(algorithm.name().to_string()),
            eval: Evaluation::Material,
            orderings,
            compare: true,
            json: None,
            html: None,
            quiet: false,
        };
        let mut lines = 0usize;
        let status = trace::run(&args, &mut |_| lines += 1);
        assert_eq!(status, 0, "trace refused a tree it read: {written}");
        assert!(lines > 0);
        let request = trace::request(&args).unwrap_or_else(|e| panic!("{e}"));
        let traced = trace::build(&args, &request).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(traced.result.value, Some(Score::Value(value)), "{written}");
        assert!(!trace::html::page(&traced).is_empty());
    }
}

/// The minimax value of `node` (MAX to move at even depths), computed without the trace.
fn minimax(tree: &Tree, node: usize) -> i64 {
    let n = &tree.nodes[node];
    if let Some(value) = n.value {
        return value;
    }
    let values = n.children.iter().map(|&child| minimax(tree, child));
    let best = if tree.is_max(node) {
        values.max()
    } else {
        values.min()
    };
    // A parsed interior node has children (an empty list is refused).
    best.unwrap_or_default()
}
