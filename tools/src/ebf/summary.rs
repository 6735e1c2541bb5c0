//! Turns a lab run into numbers a reader can compare: one row per configuration and depth
//! (totals over the positions, branching factors, the Knuth-Moore minimal tree), and writes
//! them as the text tables, CSV and JSON of `brudno ebf`.
//!
//! Definitions, so the columns mean one thing everywhere:
//! - `b` is the mean number of legal moves at the interior nodes the configuration visited.
//! - The effective branching factor (EBF) is given two ways: nodes at depth d over nodes at
//!   depth d-1 (`EBF step`), and the d-th root of the mean node count per position (`EBF root`).
//! - The minimal tree is Knuth and Moore's (1975) leaf count of a perfectly ordered uniform
//!   tree, `b^ceil(d/2) + b^floor(d/2) - 1`, computed per position with that position's `b`
//!   and summed over the positions.
//!
//! Nothing here searches or measures time; it only reads the samples.

use serde::Serialize;

use super::lab::{LabConfig, LabRun, ValueDifference};
use brudno_engine::search::stats::Stats;

/// Totals and ratios of one configuration at one depth, over all positions.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    /// The configuration's name.
    pub config: &'static str,
    /// Whether it is held to the minimax value.
    pub exact: bool,
    /// The depth searched.
    pub depth: u32,
    /// Number of positions summed.
    pub positions: usize,
    /// Nodes entered (quiescence included).
    pub nodes: u64,
    /// Horizon and terminal nodes of the main search.
    pub leaves: u64,
    /// Nodes that generated moves.
    pub interior: u64,
    /// Legal moves summed over interior nodes.
    pub legal_moves: u64,
    /// Quiescence nodes (zero without `--qsearch`).
    pub qnodes: u64,
    /// Beta cut-offs.
    pub cutoffs: u64,
    /// Beta cut-offs by the first move tried.
    pub first_move_cutoffs: u64,
    /// Table probes that found an entry.
    pub tt_hits: u64,
    /// Nodes answered by the table.
    pub tt_cutoffs: u64,
    /// Mean legal moves at interior nodes, `b`.
    pub mean_branching: f64,
    /// `sqrt(b)`: the EBF of a perfectly ordered alpha-beta.
    pub sqrt_branching: f64,
    /// Nodes at this depth over nodes at the previous depth (none at depth 1).
    pub ebf_step: Option<f64>,
    /// The d-th root of the mean node count per position.
    pub ebf_root: f64,
    /// Knuth-Moore minimal leaf count, summed over the positions.
    pub minimal_leaves: f64,
    /// `leaves / minimal_leaves` (1.0 is a perfectly ordered search).
    pub leaves_over_minimal: f64,
    /// Share of cut-offs made by the first move (none without cut-offs).
    pub first_move_cutoff_share: Option<f64>,
    /// Wall time of the searches, in seconds.
    pub seconds: f64,
}

/// Knuth and Moore's minimal leaf count for a uniform tree of branching `b` and depth `d`:
/// `b^ceil(d/2) + b^floor(d/2) - 1`.
pub fn minimal_leaves(b: f64, depth: u32) -> f64 {
    let high = depth.div_ceil(2) as i32;
    let low = (depth / 2) as i32;
    b.powi(high) + b.powi(low) - 1.0
}

/// One row per configuration and depth, depth-major, configurations in run order.
pub fn summarize(run: &LabRun) -> Vec<Row> {
    let mut rows = Vec::with_capacity(run.max_depth as usize * run.configs.len());
    for depth in 1..=run.max_depth {
        for (index, &config) in run.configs.iter().enumerate() {
            let samples = run.samples_at(index, depth);
            let mut stats = Stats::default();
            let mut minimal = 0.0;
            let mut seconds = 0.0;
            for sample in samples {
                stats += sample.stats;
                minimal += minimal_leaves(sample.stats.mean_branching(), depth);
                seconds += sample.elapsed.as_secs_f64();
            }
            let previous_nodes: u64 = if depth > 1 {
                run.samples_at(index, depth - 1)
                    .iter()
                    .map(|s| s.stats.nodes)
                    .sum()
            } else {
                0
            };
            let positions = samples.len().max(1) as f64;
            let b = stats.mean_branching();
            rows.push(Row {
                config: config.name(),
                exact: config.is_exact(),
                depth,
                positions: samples.len(),
                nodes: stats.nodes,
                leaves: stats.leaves,
                interior: stats.interior,
                legal_moves: stats.legal_moves,
                qnodes: stats.qnodes,
                cutoffs: stats.cutoffs,
                first_move_cutoffs: stats.first_move_cutoffs,
                tt_hits: stats.tt_hits,
                tt_cutoffs: stats.tt_cutoffs,
                mean_branching: b,
                sqrt_branching: b.sqrt(),
                ebf_step: (previous_nodes > 0).then(|| stats.nodes as f64 / previous_nodes as f64),
                ebf_root: (stats.nodes as f64 / positions).powf(1.0 / f64::from(depth)),
                minimal_leaves: minimal,
                leaves_over_minimal: if minimal > 0.0 {
                    stats.leaves as f64 / minimal
                } else {
                    0.0
                },
                first_move_cutoff_share: (stats.cutoffs > 0)
                    .then(|| stats.first_move_cutoff_rate()),
                seconds,
            });
        }
    }
    rows
}

/// The row of `config` at `depth`.
pub fn row(rows: &[Row], config: LabConfig, depth: u32) -> Option<&Row> {
    rows.iter()
        .find(|r| r.config == config.name() && r.depth == depth)
}

fn optional(value: Option<f64>, decimals: usize) -> String {
    value.map_or_else(|| "-".to_string(), |v| format!("{v:.decimals$}"))
}

/// The text report: configurations, the side-by-side leaf table, one table per depth and the
/// verdict on root values. `differences` are the exact configurations' root values that
/// differ from the reference; `full_differences` are `full`'s.
pub fn text(
    run: &LabRun,
    rows: &[Row],
    source: &str,
    differences: &[ValueDifference],
    full_differences: &[ValueDifference],
) -> Vec<String> {
    let mut out = Vec::new();
    let horizon = if run.quiescence {
        "quiescence search at the horizon in every configuration (--qsearch; it prunes \
         inside itself, minimax's included)"
    } else {
        "static evaluation at the horizon in every configuration (no quiescence)"
    };
    out.push(format!(
        "Brudno search lab: {} positions from {source}, fixed depths 1..{}, {horizon}, one thread",
        run.positions.len(),
        run.max_depth
    ));
    out.push(String::new());
    out.push("Configurations (switches of the one search):".to_string());
    for &config in &run.configs {
        let held = if config.is_exact() {
            "held to the minimax value"
        } else {
            "reported, NOT held to the minimax value"
        };
        out.push(format!(
            "  {:<17} {} [{held}]",
            config.name(),
            config.description()
        ));
    }
    out.push(String::new());
    side_by_side(run, rows, &mut out);
    for depth in 1..=run.max_depth {
        out.push(String::new());
        depth_table(rows, depth, &mut out);
    }
    out.push(String::new());
    out.push(
        "b: mean legal moves at interior nodes; EBF step: nodes(d) / nodes(d-1); EBF root: \
         (nodes per position)^(1/d); minimal: Knuth-Moore b^ceil(d/2) + b^floor(d/2) - 1 leaves \
         per position with its own b, summed; 1st cut: share of cut-offs by the first move."
            .to_string(),
    );
    out.push(String::new());
    verdict(run, differences, full_differences, &mut out);
    out
}

/// Leaves per configuration and depth, the heart of the lab: the same positions and depths,
/// only the order and the pruning differ.
fn side_by_side(run: &LabRun, rows: &[Row], out: &mut Vec<String>) {
    let depth = run.max_depth;
    out.push(format!(
        "Leaves scored, same positions, same depths (ratios at depth {depth}):"
    ));
    let mut header = format!("  {:<17}", "config");
    for d in 1..=depth {
        header.push_str(&format!(" {:>13}", format!("d={d}")));
    }
    header.push_str(&format!(
        " {:>10} {:>10} {:>8}",
        "/ minimax", "/ minimal", "EBF root"
    ));
    out.push(header);
    let minimax_leaves = row(rows, LabConfig::Minimax, depth).map(|r| r.leaves);
    for &config in &run.configs {
        let mut line = format!("  {:<17}", config.name());
        for d in 1..=depth {
            let leaves = row(rows, config, d).map_or(0, |r| r.leaves);
            line.push_str(&format!(" {leaves:>13}"));
        }
        if let Some(last) = row(rows, config, depth) {
            let share = minimax_leaves
                .filter(|&m| m > 0)
                .map(|m| last.leaves as f64 / m as f64);
            line.push_str(&format!(
                " {:>10} {:>10.2} {:>8.2}",
                optional(share, 4),
                last.leaves_over_minimal,
                last.ebf_root
            ));
        }
        out.push(line);
    }
}

/// The full table of one depth: a row per configuration.
fn depth_table(rows: &[Row], depth: u32, out: &mut Vec<String>) {
    out.push(format!(
        "  depth {depth:<11} {:>13} {:>13} {:>6} {:>7} {:>8} {:>8} {:>14} {:>10} {:>7} {:>9}",
        "nodes",
        "leaves",
        "b",
        "sqrt(b)",
        "EBF step",
        "EBF root",
        "minimal",
        "/ minimal",
        "1st cut",
        "time s"
    ));
    for r in rows.iter().filter(|r| r.depth == depth) {
        out.push(format!(
            "  {:<17} {:>13} {:>13} {:>6.2} {:>7.2} {:>8} {:>8.2} {:>14.0} {:>10.2} {:>7} {:>9.2}",
            r.config,
            r.nodes,
            r.leaves,
            r.mean_branching,
            r.sqrt_branching,
            optional(r.ebf_step, 2),
            r.ebf_root,
            r.minimal_leaves,
            r.leaves_over_minimal,
            r.first_move_cutoff_share
                .map_or_else(|| "-".to_string(), |s| format!("{:.1}%", 100.0 * s)),
            r.seconds
        ));
    }
}

/// The root-value check: silent agreement in one line, any difference loudly.
fn verdict(
    run: &LabRun,
    differences: &[ValueDifference],
    full_differences: &[ValueDifference],
    out: &mut Vec<String>,
) {
    let searches = run.max_depth as usize * run.positions.len();
    match run.reference().map(|i| run.configs[i]) {
        None => out.push(
            "Root values: no pruning-exact configuration ran, so none was checked.".to_string(),
        ),
        Some(reference) => {
            let checked = run
                .configs
                .iter()
                .filter(|c| c.is_exact() && **c != reference)
                .count();
            if reference != LabConfig::Minimax {
                out.push(format!(
                    "Note: minimax did not run; the exact configurations are checked against {}.",
                    reference.name()
                ));
            }
            if differences.is_empty() {
                out.push(format!(
                    "Root values: all {} pruning-exact searches equal {} ({checked} configurations x {} depths x {} positions).",
                    checked * searches,
                    reference.name(),
                    run.max_depth,
                    run.positions.len()
                ));
            } else {
                out.push(
                    "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!".to_string(),
                );
                out.push(format!(
                    "!!! ROOT VALUE MISMATCH: {} of {} pruning-exact searches differ from {}:",
                    differences.len(),
                    checked * searches,
                    reference.name()
                ));
                for d in differences {
                    out.push(format!(
                        "!!!   {} depth {} position {} ({}): {} but {} says {}",
                        d.config.name(),
                        d.depth,
                        d.position + 1,
                        run.positions[d.position].id,
                        d.value,
                        d.reference.name(),
                        d.reference_value
                    ));
                }
                out.push("!!! Alpha-beta must return exactly the minimax value: this is a bug in the search.".to_string());
                out.push(
                    "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!".to_string(),
                );
            }
            if run.configs.contains(&LabConfig::Full) {
                out.push(format!(
                    "full is the engine as it plays (positional evaluation, selective search, table cut-offs): it is reported but NOT held to equality, and being selective it can score fewer leaves than the minimal full-width tree; its root value differs from {} in {} of {searches} searches.",
                    reference.name(),
                    full_differences.len()
                ));
            }
        }
    }
}

/// CSV: a header, then one line per configuration and depth.
pub fn csv(rows: &[Row]) -> String {
    let mut text = String::from(
        "config,exact,depth,positions,nodes,leaves,interior,legal_moves,qnodes,cutoffs,\
         first_move_cutoffs,tt_hits,tt_cutoffs,mean_branching,sqrt_branching,ebf_step,ebf_root,\
         minimal_leaves,leaves_over_minimal,first_move_cutoff_share,seconds\n",
    );
    for r in rows {
        text.push_str(&format!(
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{:.4},{:.4},{},{:.4},{:.1},{:.4},{},{:.3}\n",
            r.config,
            r.exact,
            r.depth,
            r.positions,
            r.nodes,
            r.leaves,
            r.interior,
            r.legal_moves,
            r.qnodes,
            r.cutoffs,
            r.first_move_cutoffs,
            r.tt_hits,
            r.tt_cutoffs,
            r.mean_branching,
            r.sqrt_branching,
            r.ebf_step.map_or_else(String::new, |v| format!("{v:.4}")),
            r.ebf_root,
            r.minimal_leaves,
            r.leaves_over_minimal,
            r.first_move_cutoff_share
                .map_or_else(String::new, |v| format!("{v:.4}")),
            r.seconds
        ));
    }
    text
}

#[derive(Serialize)]
struct JsonPosition<'a> {
    id: &'a str,
    fen: String,
}

#[derive(Serialize)]
struct JsonConfig {
    name: &'static str,
    description: &'static str,
    exact: bool,
}

#[derive(Serialize)]
struct JsonSearch {
    config: &'static str,
    depth: u32,
    position: usize,
    score: i32,
    nodes: u64,
    leaves: u64,
    interior: u64,
    legal_moves: u64,
    qnodes: u64,
    cutoffs: u64,
    first_move_cutoffs: u64,
    tt_hits: u64,
    tt_cutoffs: u64,
    micros: u128,
}

#[derive(Serialize)]
struct JsonDifference {
    config: &'static str,
    reference: &'static str,
    depth: u32,
    position: usize,
    value: i32,
    reference_value: i32,
}

impl From<&ValueDifference> for JsonDifference {
    fn from(d: &ValueDifference) -> Self {
        Self {
            config: d.config.name(),
            reference: d.reference.name(),
            depth: d.depth,
            position: d.position,
            value: d.value,
            reference_value: d.reference_value,
        }
    }
}

#[derive(Serialize)]
struct JsonReport<'a> {
    source: &'a str,
    max_depth: u32,
    quiescence: bool,
    positions: Vec<JsonPosition<'a>>,
    configs: Vec<JsonConfig>,
    rows: &'a [Row],
    searches: Vec<JsonSearch>,
    value_differences: Vec<JsonDifference>,
    full_value_differences: Vec<JsonDifference>,
}

/// JSON: the positions, the configurations, the rows, every single search (position numbers
/// are 0-based indices into `positions`) and the root values that differ.
pub fn json(
    run: &LabRun,
    rows: &[Row],
    source: &str,
    differences: &[ValueDifference],
    full_differences: &[ValueDifference],
) -> String {
    let mut searches = Vec::with_capacity(run.samples.len());
    for depth in 1..=run.max_depth {
        for (index, &config) in run.configs.iter().enumerate() {
            for (position, sample) in run.samples_at(index, depth).iter().enumerate() {
                let s = sample.stats;
                searches.push(JsonSearch {
                    config: config.name(),
                    depth,
                    position,
                    score: sample.score,
                    nodes: s.nodes,
                    leaves: s.leaves,
                    interior: s.interior,
                    legal_moves: s.legal_moves,
                    qnodes: s.qnodes,
                    cutoffs: s.cutoffs,
                    first_move_cutoffs: s.first_move_cutoffs,
                    tt_hits: s.tt_hits,
                    tt_cutoffs: s.tt_cutoffs,
                    micros: sample.elapsed.as_micros(),
                });
            }
        }
    }
    let report = JsonReport {
        source,
        max_depth: run.max_depth,
        quiescence: run.quiescence,
        positions: run
            .positions
            .iter()
            .map(|p| JsonPosition {
                id: &p.id,
                fen: p.position.fen(),
            })
            .collect(),
        configs: run
            .configs
            .iter()
            .map(|&c| JsonConfig {
                name: c.name(),
                description: c.description(),
                exact: c.is_exact(),
            })
            .collect(),
        rows,
        searches,
        value_differences: differences.iter().map(JsonDifference::from).collect(),
        full_value_differences: full_differences.iter().map(JsonDifference::from).collect(),
    };
    // Serialising plain structs of numbers and strings cannot fail; NaN cannot occur either
    // (every ratio guards its divisor), but stay total rather than panic.
    serde_json::to_string_pretty(&report).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knuth_moore_minimal_tree() {
        // The textbook tree: b = 3, d = 4 has 81 leaves, the minimal tree 9 + 9 - 1 = 17.
        assert_eq!(minimal_leaves(3.0, 4), 17.0);
        assert_eq!(minimal_leaves(3.0, 3), 9.0 + 3.0 - 1.0);
        // Depth 1: every root move is a leaf; depth 2: 2b - 1.
        assert_eq!(minimal_leaves(20.0, 1), 20.0);
        assert_eq!(minimal_leaves(20.0, 2), 39.0);
    }
}
