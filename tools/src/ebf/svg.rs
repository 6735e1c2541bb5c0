//! The `--svg` plot of the search lab: mean leaves scored per position against depth on a log
//! scale, one line per configuration, with three references: `b^d` (minimax), Knuth and
//! Moore's exact minimal tree `b^ceil(d/2) + b^floor(d/2) - 1` (perfectly ordered
//! alpha-beta) and the `b^(d/2)` approximation of it. Hand-written SVG: a few dozen elements
//! do not justify a plotting crate.
//!
//! It only draws the rows it is given; it never searches or measures.

use std::fmt::Write as _;

use super::lab::{LabConfig, LabRun};
use super::summary::{Row, minimal_leaves, row};

const WIDTH: f64 = 900.0;
const HEIGHT: f64 = 540.0;
const LEFT: f64 = 80.0;
const RIGHT: f64 = 230.0;
const TOP: f64 = 80.0;
const BOTTOM: f64 = 60.0;

/// The colour of each configuration's line, in `LabConfig::ALL` order.
const COLOURS: [&str; 7] = [
    "#d62728", "#8c564b", "#ff7f0e", "#bcbd22", "#2ca02c", "#1f77b4", "#9467bd",
];

fn colour(config: LabConfig) -> &'static str {
    let index = LabConfig::ALL
        .iter()
        .position(|&c| c == config)
        .unwrap_or(0);
    COLOURS[index % COLOURS.len()]
}

/// Escapes text for use inside an SVG element or attribute.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A line to draw: its label, colour, dash pattern and (depth, value) points.
struct Series {
    label: String,
    colour: &'static str,
    dashed: bool,
    points: Vec<(u32, f64)>,
}

/// The plot of a run: leaves per position, the quantity the Knuth-Moore count is about.
/// The reference lines are the mean over the positions of `b^d`, of the exact minimal tree
/// `b^ceil(d/2) + b^floor(d/2) - 1` and of `b^(d/2)`, each position with its own `b`: the
/// mean legal moves at interior nodes under minimax at the deepest depth (or under the first
/// configuration if minimax did not run). Per-position `b` keeps the references comparable
/// with the summed Knuth-Moore counts of the tables; one pooled `b` would overstate `b^d`
/// for a mix of middlegames and endgames. `title` names the positions.
pub fn plot(run: &LabRun, rows: &[Row], title: &str) -> String {
    let (series, note) = lines(run, rows);
    draw(&series, run.max_depth, &[title.to_string(), note])
}

/// The lines of the plot (configurations, then the references) and the note on `b`.
fn lines(run: &LabRun, rows: &[Row]) -> (Vec<Series>, String) {
    let max_depth = run.max_depth;
    let reference = run
        .configs
        .iter()
        .position(|&c| c == LabConfig::Minimax)
        .unwrap_or(0);
    let branching: Vec<f64> = if run.configs.is_empty() || run.positions.is_empty() {
        Vec::new()
    } else {
        run.samples_at(reference, max_depth)
            .iter()
            .map(|s| s.stats.mean_branching())
            .collect()
    };
    let mean_of = |f: &dyn Fn(f64) -> f64| {
        branching.iter().map(|&b| f(b)).sum::<f64>() / branching.len().max(1) as f64
    };
    let mut series: Vec<Series> = run
        .configs
        .iter()
        .map(|&config| Series {
            label: config.name().to_string(),
            colour: colour(config),
            dashed: false,
            points: (1..=max_depth)
                .filter_map(|d| row(rows, config, d))
                .map(|r| (r.depth, r.leaves as f64 / r.positions.max(1) as f64))
                .collect(),
        })
        .collect();
    let pooled = run
        .configs
        .get(reference)
        .and_then(|&c| row(rows, c, max_depth))
        .map_or(0.0, |r| r.mean_branching);
    if !branching.is_empty() {
        let reference_line = |label: &str, colour, f: &dyn Fn(f64, u32) -> f64| Series {
            label: label.to_string(),
            colour,
            dashed: true,
            points: (1..=max_depth)
                .map(|d| (d, mean_of(&|b| f(b, d))))
                .collect(),
        };
        series.push(reference_line("b^d (minimax)", "#555555", &|b, d| {
            b.powi(d as i32)
        }));
        series.push(reference_line(
            "minimal tree (Knuth-Moore)",
            "#000000",
            &minimal_leaves,
        ));
        series.push(reference_line("b^(d/2)", "#aaaaaa", &|b, d| {
            b.powf(f64::from(d) / 2.0)
        }));
    }
    let note = format!(
        "dashed: mean over the positions of b^d, b^ceil(d/2) + b^floor(d/2) - 1 and b^(d/2), each position's own b from {} at depth {max_depth} (pooled b = {pooled:.1}, sqrt(b) = {:.2})",
        run.configs.get(reference).map_or("-", |c| c.name()),
        pooled.sqrt()
    );
    (series, note)
}

fn draw(series: &[Series], max_depth: u32, subtitles: &[String]) -> String {
    let values = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.1))
        .filter(|v| *v > 0.0);
    let (low, high) = values.fold((f64::MAX, f64::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let (low_decade, high_decade) = if low > high {
        (0, 1)
    } else {
        let lo = low.log10().floor() as i32;
        (lo, (high.log10().ceil() as i32).max(lo + 1))
    };
    let plot_width = WIDTH - LEFT - RIGHT;
    let plot_height = HEIGHT - TOP - BOTTOM;
    let x = |depth: u32| {
        if max_depth <= 1 {
            LEFT + plot_width / 2.0
        } else {
            LEFT + plot_width * f64::from(depth - 1) / f64::from(max_depth - 1)
        }
    };
    let y = |value: f64| {
        let fraction =
            (value.log10() - f64::from(low_decade)) / f64::from(high_decade - low_decade);
        TOP + plot_height * (1.0 - fraction)
    };

    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(
        svg,
        r#"<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>"#
    );
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="24" text-anchor="middle" font-size="15">Leaves scored per position against depth (log scale)</text>"#,
        WIDTH / 2.0
    );
    for (index, line) in subtitles.iter().enumerate() {
        let _ = writeln!(
            svg,
            r##"<text x="{}" y="{}" text-anchor="middle" font-size="11" fill="#555555">{}</text>"##,
            WIDTH / 2.0,
            44 + 16 * index,
            escape(line)
        );
    }
    // Decade grid lines and labels.
    for decade in low_decade..=high_decade {
        let gy = y(10f64.powi(decade));
        let _ = writeln!(
            svg,
            r##"<line x1="{LEFT}" y1="{gy:.1}" x2="{:.1}" y2="{gy:.1}" stroke="#e5e5e5"/>"##,
            LEFT + plot_width
        );
        let _ = writeln!(
            svg,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="end">10<tspan dy="-6" font-size="9">{decade}</tspan></text>"#,
            LEFT - 8.0,
            gy + 4.0
        );
    }
    // Depth ticks.
    for depth in 1..=max_depth {
        let gx = x(depth);
        let _ = writeln!(
            svg,
            r##"<line x1="{gx:.1}" y1="{TOP}" x2="{gx:.1}" y2="{:.1}" stroke="#f0f0f0"/>"##,
            TOP + plot_height
        );
        let _ = writeln!(
            svg,
            r#"<text x="{gx:.1}" y="{:.1}" text-anchor="middle">{depth}</text>"#,
            TOP + plot_height + 18.0
        );
    }
    let _ = writeln!(
        svg,
        r#"<rect x="{LEFT}" y="{TOP}" width="{plot_width}" height="{plot_height}" fill="none" stroke="black"/>"#
    );
    let _ = writeln!(
        svg,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">depth (plies)</text>"#,
        LEFT + plot_width / 2.0,
        HEIGHT - 16.0
    );
    let _ = writeln!(
        svg,
        r#"<text transform="translate(20 {:.1}) rotate(-90)" text-anchor="middle">leaves per position</text>"#,
        TOP + plot_height / 2.0
    );
    // The lines, then the legend.
    for (index, s) in series.iter().enumerate() {
        let dash = if s.dashed {
            r#" stroke-dasharray="6 4""#
        } else {
            ""
        };
        let points: Vec<String> = s
            .points
            .iter()
            .filter(|p| p.1 > 0.0)
            .map(|&(d, v)| format!("{:.1},{:.1}", x(d), y(v)))
            .collect();
        let _ = writeln!(
            svg,
            r#"<polyline class="series" data-label="{}" fill="none" stroke="{}" stroke-width="2"{dash} points="{}"/>"#,
            escape(&s.label),
            s.colour,
            points.join(" ")
        );
        if !s.dashed {
            for point in &points {
                let (px, py) = point.split_once(',').unwrap_or(("0", "0"));
                let _ = writeln!(
                    svg,
                    r#"<circle cx="{px}" cy="{py}" r="3" fill="{}"/>"#,
                    s.colour
                );
            }
        }
        let ly = TOP + 10.0 + 20.0 * index as f64;
        let lx = WIDTH - RIGHT + 20.0;
        let _ = writeln!(
            svg,
            r#"<line x1="{lx}" y1="{ly}" x2="{}" y2="{ly}" stroke="{}" stroke-width="2"{dash}/>"#,
            lx + 24.0,
            s.colour
        );
        let _ = writeln!(
            svg,
            r#"<text x="{}" y="{}">{}</text>"#,
            lx + 30.0,
            ly + 4.0,
            escape(&s.label)
        );
    }
    svg.push_str("</svg>\n");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup() {
        assert_eq!(escape(r#"a<b & "c">"#), "a&lt;b &amp; &quot;c&quot;&gt;");
    }

    #[test]
    fn the_references_use_each_positions_own_b() {
        use crate::ebf::lab::{LabPosition, Sample};
        use crate::ebf::summary::summarize;
        use brudno_engine::position::Position;
        use brudno_engine::search::stats::Stats;
        // Two positions under minimax at depths 1 and 2, with b = 4 and b = 9.
        let sample = |b: u64, depth: u32| Sample {
            score: 0,
            stats: Stats {
                nodes: 1 + b.pow(depth),
                leaves: b.pow(depth),
                interior: 1,
                legal_moves: b,
                ..Stats::default()
            },
            elapsed: std::time::Duration::ZERO,
        };
        let run = LabRun {
            positions: (0..2)
                .map(|i| LabPosition {
                    id: i.to_string(),
                    position: Position::default(),
                })
                .collect(),
            configs: vec![LabConfig::Minimax],
            max_depth: 2,
            quiescence: false,
            samples: vec![sample(4, 1), sample(9, 1), sample(4, 2), sample(9, 2)],
        };
        let (series, _) = lines(&run, &summarize(&run));
        let at = |label: &str, depth: u32| {
            let s = series.iter().find(|s| s.label == label).unwrap();
            s.points.iter().find(|p| p.0 == depth).unwrap().1
        };
        // Leaves per position: (16 + 81) / 2 at depth 2.
        assert_eq!(at("minimax", 2), 48.5);
        assert_eq!(at("b^d (minimax)", 2), 48.5);
        // Knuth-Moore at depth 2: b + b - 1, so (7 + 17) / 2; b^(d/2) = (4 + 9) / 2.
        assert_eq!(at("minimal tree (Knuth-Moore)", 2), 12.0);
        assert_eq!(at("b^(d/2)", 2), 6.5);
        assert_eq!(at("minimal tree (Knuth-Moore)", 1), 6.5);
    }

    #[test]
    fn an_empty_plot_is_still_a_document() {
        let run = LabRun {
            positions: Vec::new(),
            configs: vec![LabConfig::Minimax],
            max_depth: 1,
            quiescence: false,
            samples: Vec::new(),
        };
        let svg = plot(&run, &[], "nothing <here>");
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
        assert!(svg.contains("nothing &lt;here&gt;"));
        assert!(!svg.contains("NaN") && !svg.contains("inf"));
    }
}
