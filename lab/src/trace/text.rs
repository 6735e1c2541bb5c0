//! The trace as text: an indented narration of the search (a line per node entered, leaf
//! scored, value returned and cut-off, with the bound each one moved), the summary, and the
//! tables of `--orderings` and `--compare`. It only reads a `Trace`.

use super::model::{CompareRow, OrderingRow, Score, StepKind, Trace, ValueFormat};

/// How many skipped siblings a cut-off line names before it only counts them.
const NAMED_SKIPS: usize = 6;

fn format_of(trace: &Trace) -> ValueFormat {
    match (trace.values.mate, trace.values.mate_bound) {
        (Some(mate), Some(mate_bound)) => ValueFormat::Centipawns { mate, mate_bound },
        _ => ValueFormat::Plain,
    }
}

/// Groups digits by thousands: 1234567 -> "1,234,567".
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// One line per node entered, leaf scored, value returned and cut-off, indented by depth;
/// a bound that moves is shown at the end of the line that moved it (`α → 3`).
pub fn narration(trace: &Trace) -> Vec<String> {
    let format = format_of(trace);
    let show = |s: Score| format.show(s);
    let mut lines: Vec<String> = Vec::new();
    for (index, iteration) in trace.iterations.iter().enumerate() {
        if trace.iterations.len() > 1 {
            if index > 0 {
                lines.push(String::new());
            }
            lines.push(format!(
                "iteration {} of {}: depth {}",
                index + 1,
                trace.iterations.len(),
                iteration.depth
            ));
        }
        for step in trace.iteration_steps(iteration) {
            let node = &trace.nodes[step.node];
            let indent = "  ".repeat(node.depth as usize);
            let name = if node.parent.is_none() {
                format!("{} root", node.side())
            } else if node.path.is_some() {
                // Chess: the node is labelled by the move that leads to it.
                node.label.clone()
            } else {
                format!("{} {}", node.side(), node.label)
            };
            let to_move = if node.path.is_some() && node.parent.is_some() {
                format!(" ({} to move)", node.side())
            } else {
                String::new()
            };
            match step.kind {
                StepKind::Enter => {
                    let window = match (step.alpha, step.beta) {
                        (Some(a), Some(b)) => format!("  α {}  β {}", show(a), show(b)),
                        _ => String::new(),
                    };
                    let flag = step
                        .technique
                        .map(|t| format!("  [{t}]"))
                        .unwrap_or_default();
                    lines.push(format!("{indent}{name}{to_move}{window}{flag}"));
                }
                StepKind::Leaf => {
                    let value = step.value.map(show).unwrap_or_default();
                    let why = match step.detail.as_deref() {
                        Some(detail) if !detail.ends_with("evaluation") => format!(" ({detail})"),
                        _ => String::new(),
                    };
                    let best = if step.alpha.is_none() && step.improves == Some(true) {
                        "  (best so far)"
                    } else {
                        ""
                    };
                    lines.push(format!("{indent}leaf {} = {value}{why}{best}", node.label));
                }
                StepKind::Return => {
                    let value = step.value.map(show).unwrap_or_default();
                    let best = if step.alpha.is_none() && step.improves == Some(true) {
                        "  (best so far)"
                    } else {
                        ""
                    };
                    lines.push(format!("{indent}{name} returns {value}{best}"));
                }
                StepKind::Alpha | StepKind::Beta => {
                    let bound = if step.kind == StepKind::Alpha {
                        "α"
                    } else {
                        "β"
                    };
                    let value = step.value.map(show).unwrap_or_default();
                    if let Some(last) = lines.last_mut() {
                        last.push_str(&format!("   {bound} → {value}"));
                    }
                }
                StepKind::Cutoff | StepKind::Prune | StepKind::Technique
                    if step.technique.is_some() =>
                {
                    let child_indent = "  ".repeat(node.depth as usize + 1);
                    lines.push(format!("{child_indent}{}", step.text));
                }
                StepKind::Prune | StepKind::Technique => {}
                StepKind::Cutoff => {
                    let child_indent = "  ".repeat(node.depth as usize + 1);
                    let (sign, bound) = if node.max {
                        (
                            if trace.pseudocode_is_strict() {
                                ">"
                            } else {
                                "≥"
                            },
                            step.beta,
                        )
                    } else {
                        (
                            if trace.pseudocode_is_strict() {
                                "<"
                            } else {
                                "≤"
                            },
                            step.alpha,
                        )
                    };
                    let bound_name = if node.max { "β" } else { "α" };
                    let value = step.value.map(show).unwrap_or_default();
                    let skipped = step.skipped.as_deref().unwrap_or(&[]);
                    let what = skipped_text(trace, skipped);
                    lines.push(format!(
                        "{child_indent}cut-off: {value} {sign} {bound_name} {}{what}",
                        format.show_opt(bound)
                    ));
                }
            }
        }
    }
    lines
}

/// What a cut-off skipped: the siblings by name (toy trees) or the moves counted (chess).
fn skipped_text(trace: &Trace, skipped: &[usize]) -> String {
    if skipped.is_empty() {
        return ", nothing left to skip".to_string();
    }
    if let Some(stub) = skipped.iter().find_map(|&s| trace.nodes[s].stub) {
        let noun = if stub.moves == 1 { "move" } else { "moves" };
        let nodes = if stub.nodes == 1 { "node" } else { "nodes" };
        return format!(
            ", skips {} {noun} ({} {nodes} of the full tree)",
            stub.moves,
            thousands(stub.nodes)
        );
    }
    let names: Vec<&str> = skipped
        .iter()
        .take(NAMED_SKIPS)
        .map(|&s| trace.nodes[s].label.as_str())
        .collect();
    let more = if skipped.len() > NAMED_SKIPS {
        ", …"
    } else {
        ""
    };
    let noun = if skipped.len() == 1 {
        "sibling"
    } else {
        "siblings"
    };
    format!(
        ", skips {}{more} ({} {noun})",
        names.join(", "),
        skipped.len()
    )
}

impl Trace {
    /// Whether the traced algorithm cuts only on `>` (its pseudocode says so).
    pub fn pseudocode_is_strict(&self) -> bool {
        self.algorithm.name == "alphabeta-strict"
    }
}

/// The summary: the value, leaves examined against minimax's, nodes visited and pruned,
/// the leaves never looked at, the best line.
pub fn summary(trace: &Trace) -> Vec<String> {
    let format = format_of(trace);
    let result = &trace.result;
    let mut lines = Vec::new();
    let Some(last) = trace.iterations.last() else {
        return lines;
    };
    let chess = trace.values.unit == "cp";
    lines.push(format!("{}: {}", trace.title, trace.header));
    let whose = if chess {
        " (for the side to move at the root, MAX)"
    } else {
        ""
    };
    lines.push(format!("value {}{whose}", format.show_opt(result.value)));
    let line: Vec<&str> = result.best_line[1..]
        .iter()
        .map(|&n| trace.nodes[n].label.as_str())
        .collect();
    if !line.is_empty() {
        let line_text = if chess {
            trace.nodes[*result.best_line.last().unwrap_or(&0)]
                .path
                .clone()
                .unwrap_or_default()
        } else {
            line.join(" → ")
        };
        lines.push(format!("best line: {line_text}"));
    }
    for (index, iteration) in trace.iterations.iter().enumerate() {
        let Some(step) = trace.iteration_steps(iteration).last() else {
            continue;
        };
        let prefix = if trace.iterations.len() > 1 {
            format!("iteration {} (depth {}): ", index + 1, iteration.depth)
        } else {
            String::new()
        };
        lines.push(format!(
            "{prefix}leaves examined {} of {} (minimax scores {}); nodes visited {} of {}, pruned {}",
            thousands(step.leaves),
            thousands(iteration.totals.leaves),
            thousands(iteration.totals.leaves),
            thousands(step.visited),
            thousands(iteration.totals.nodes),
            thousands(step.pruned)
        ));
    }
    if trace.iterations.len() > 1 {
        lines.push(format!(
            "over all {} iterations: leaves examined {}, nodes visited {}",
            trace.iterations.len(),
            thousands(result.leaves),
            thousands(result.visited)
        ));
    }
    if !chess {
        let last_steps = trace.iteration_steps(last);
        let scored: Vec<String> = last_steps
            .iter()
            .filter(|s| s.kind == StepKind::Leaf)
            .filter_map(|s| s.value.map(|v| format.show(v)))
            .collect();
        lines.push(format!("leaves examined, in order: {}", scored.join(" ")));
        let never: Vec<String> = result
            .never_examined
            .iter()
            .map(|&n| {
                let node = &trace.nodes[n];
                match node.static_value {
                    Some(v) => format!("{} ({v})", node.label),
                    None => node.label.clone(),
                }
            })
            .collect();
        lines.push(if never.is_empty() {
            "leaves never looked at: none".to_string()
        } else {
            format!(
                "leaves never looked at ({}): {}",
                never.len(),
                never.join(", ")
            )
        });
    } else if !result.never_examined.is_empty() {
        let moves: u64 = result
            .never_examined
            .iter()
            .filter_map(|&n| trace.nodes[n].stub)
            .map(|s| s.moves)
            .sum();
        lines.push(format!(
            "moves never searched: {} in {} cut-offs",
            thousands(moves),
            thousands(result.never_examined.len() as u64)
        ));
    }
    lines.push(format!("steps: {}", thousands(trace.steps.len() as u64)));
    lines
}

/// The `--orderings` table.
pub fn orderings_table(trace: &Trace, rows: &[OrderingRow]) -> Vec<String> {
    let format = format_of(trace);
    let width = rows
        .iter()
        .map(|r| r.order.join(" ").chars().count())
        .max()
        .unwrap_or(0)
        .max("root children".len());
    let mut lines = vec![format!(
        "{:<width$}  {:>6}  {:>10}",
        "root children", "value", "leaves"
    )];
    for row in rows {
        lines.push(format!(
            "{:<width$}  {:>6}  {:>10}",
            row.order.join(" "),
            format.show_opt(row.value),
            format!("{} of {}", row.leaves, row.of)
        ));
    }
    lines.insert(
        0,
        format!(
            "The root's children in every order ({}):",
            trace.algorithm.name
        ),
    );
    lines
}

/// The `--compare` table.
pub fn compare_table(trace: &Trace, rows: &[CompareRow]) -> Vec<String> {
    let format = format_of(trace);
    let width = rows
        .iter()
        .map(|r| r.algorithm.chars().count())
        .max()
        .unwrap_or(0);
    let mut lines = vec![
        "Leaves scored on the same tree:".to_string(),
        format!("{:<width$}  {:>8}  {:>10}", "algorithm", "value", "leaves"),
    ];
    for row in rows {
        lines.push(format!(
            "{:<width$}  {:>8}  {:>10}",
            row.algorithm,
            format.show_opt(row.value).replace('—', ""),
            thousands(row.leaves)
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_groups_digits() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1234567), "1,234,567");
    }
}
