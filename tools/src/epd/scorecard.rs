//! The scorecard: each position's record, the summary of a file, the table over files, and
//! the JSON and CSV files written for comparing versions.
//!
//! Everything here is formatting of results already computed; nothing searches and nothing
//! prints (the runner decides where lines go). The JSON holds every record, every invalid
//! line and the settings of the run; the CSV holds one row per searched position, in file
//! order, with the same fields.

use std::fmt::Write as _;

use serde::{Serialize, Serializer};

/// One searched position: what was expected, what the engine did and when it got it right.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PositionRecord {
    /// The file, as given on the command line.
    pub file: String,
    /// 1-based line number in the file.
    pub line: usize,
    /// The record's `id` (or `line N`).
    pub id: String,
    /// The position as a FEN.
    pub fen: String,
    /// What the record expects, moves in SAN: `bm Qg6; am Rd1; dm 3`.
    pub expected: String,
    /// The move chosen, in SAN (`None` when the side to move has no legal move).
    pub chosen: Option<String>,
    /// The move chosen, in UCI notation.
    pub chosen_uci: Option<String>,
    /// Whether the test was passed.
    pub solved: bool,
    /// STS points for the chosen move, where the record gives points.
    pub points: Option<u32>,
    /// The most points a move earns here, where the record gives points.
    pub max_points: Option<u32>,
    /// The score as UCI writes it: `cp 35` or `mate 3`.
    pub score: String,
    /// Deepest completed iteration.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time searched, in milliseconds.
    pub time_ms: f64,
    /// Depth of the iteration from which the answer was right and stayed right to the end.
    pub solution_depth: Option<u32>,
    /// Time at which that iteration finished, in milliseconds (the suite's "solution time").
    pub solution_time_ms: Option<f64>,
    /// The principal variation, in SAN.
    pub pv: String,
}

/// A line that could not be used, with why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct InvalidLine {
    /// The file.
    pub file: String,
    /// 1-based line number; `None` when the whole file could not be read.
    pub line: Option<usize>,
    /// What is wrong, for a user.
    pub message: String,
}

impl std::fmt::Display for InvalidLine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}: {}", self.file, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

/// Totals of a file (or of all files).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Summary {
    /// The file, or `total`.
    pub file: String,
    /// Positions searched.
    pub positions: usize,
    /// Positions solved.
    pub solved: usize,
    /// Lines counted invalid.
    pub invalid: usize,
    /// Records with perft counts only: not search tests, skipped.
    pub perft_records: usize,
    /// Records without any test operation, skipped.
    pub untested_records: usize,
    /// STS points earned, where the records give points.
    pub points: u32,
    /// The most STS points the searched positions offer (0 when none give points).
    pub max_points: u32,
    /// Time searched, in milliseconds.
    pub time_ms: f64,
    /// Nodes searched.
    pub nodes: u64,
    /// Sum of the completed depths (for the mean).
    pub depth_sum: u64,
}

/// A summary as the JSON shows it: the counts and the rates derived from them.
#[derive(Serialize)]
struct SummaryWithRates<'a> {
    #[serde(flatten)]
    summary: &'a Summary,
    percent: f64,
    points_percent: Option<f64>,
    nps: u64,
    mean_depth: f64,
}

fn serialize_summary<S: Serializer, T: std::borrow::Borrow<Summary>>(
    summary: &T,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let summary = summary.borrow();
    SummaryWithRates {
        summary,
        percent: summary.percent(),
        points_percent: (summary.max_points > 0).then(|| summary.points_percent()),
        nps: summary.nps(),
        mean_depth: summary.mean_depth(),
    }
    .serialize(serializer)
}

impl Summary {
    /// An empty summary named `file`.
    pub fn named(file: &str) -> Self {
        Self {
            file: file.to_string(),
            ..Self::default()
        }
    }

    /// Counts one searched position.
    pub fn add(&mut self, record: &PositionRecord) {
        self.positions += 1;
        self.solved += usize::from(record.solved);
        self.points += record.points.unwrap_or(0);
        self.max_points += record.max_points.unwrap_or(0);
        self.time_ms += record.time_ms;
        self.nodes += record.nodes;
        self.depth_sum += u64::from(record.depth);
    }

    /// Adds another summary's counts (for the total over files).
    pub fn merge(&mut self, other: &Summary) {
        self.positions += other.positions;
        self.solved += other.solved;
        self.invalid += other.invalid;
        self.perft_records += other.perft_records;
        self.untested_records += other.untested_records;
        self.points += other.points;
        self.max_points += other.max_points;
        self.time_ms += other.time_ms;
        self.nodes += other.nodes;
        self.depth_sum += other.depth_sum;
    }

    /// Solved positions in percent of those searched.
    pub fn percent(&self) -> f64 {
        percent(self.solved as f64, self.positions as f64)
    }

    /// STS points in percent of the maximum.
    pub fn points_percent(&self) -> f64 {
        percent(f64::from(self.points), f64::from(self.max_points))
    }

    /// Nodes per second over the whole file.
    pub fn nps(&self) -> u64 {
        if self.time_ms <= 0.0 {
            0
        } else {
            (self.nodes as f64 * 1000.0 / self.time_ms) as u64
        }
    }

    /// Mean completed depth.
    pub fn mean_depth(&self) -> f64 {
        if self.positions == 0 {
            0.0
        } else {
            self.depth_sum as f64 / self.positions as f64
        }
    }

    /// The summary as a few lines of text.
    pub fn lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        if self.positions == 0 {
            lines.push(format!("{}: no search tests", self.file));
        } else {
            lines.extend(self.result_lines());
        }
        if self.invalid > 0 {
            lines.push(format!("  invalid lines: {}", self.invalid));
        }
        if self.perft_records > 0 {
            lines.push(format!(
                "  perft records (D1..Dn), not search tests, skipped: {}",
                self.perft_records
            ));
        }
        if self.untested_records > 0 {
            lines.push(format!(
                "  records without bm/am/dm/c0 points, skipped: {}",
                self.untested_records
            ));
        }
        lines
    }

    /// Solved, points, time, nodes and depth.
    fn result_lines(&self) -> Vec<String> {
        let mut lines = vec![format!(
            "{}: solved {}/{} ({:.1}%)",
            self.file,
            self.solved,
            self.positions,
            self.percent()
        )];
        if self.max_points > 0 {
            lines.push(format!(
                "  STS points {}/{} ({:.1}%)",
                self.points,
                self.max_points,
                self.points_percent()
            ));
        }
        lines.push(format!(
            "  time {:.1} s, nodes {}, {} nps, mean depth {:.1}",
            self.time_ms / 1000.0,
            self.nodes,
            self.nps(),
            self.mean_depth()
        ));
        lines
    }
}

fn percent(part: f64, whole: f64) -> f64 {
    if whole > 0.0 {
        part * 100.0 / whole
    } else {
        0.0
    }
}

/// The table over several files, with a total row.
pub fn table(summaries: &[Summary], total: &Summary) -> Vec<String> {
    let width = summaries
        .iter()
        .map(|s| s.file.chars().count())
        .max()
        .unwrap_or(0)
        .max(5);
    let mut lines = vec![format!(
        "{:<width$}  {:>6} {:>6} {:>6}  {:>7} {:>7} {:>6}  {:>7} {:>9} {:>13} {:>9} {:>6}",
        "file",
        "solved",
        "total",
        "%",
        "points",
        "max",
        "%",
        "invalid",
        "time s",
        "nodes",
        "nps",
        "depth"
    )];
    for summary in summaries.iter().chain(std::iter::once(total)) {
        let (points, max, points_percent) = if summary.max_points > 0 {
            (
                summary.points.to_string(),
                summary.max_points.to_string(),
                format!("{:.1}", summary.points_percent()),
            )
        } else {
            ("-".to_string(), "-".to_string(), "-".to_string())
        };
        let mut line = String::new();
        let _ = write!(
            line,
            "{:<width$}  {:>6} {:>6} {:>6.1}  {:>7} {:>7} {:>6}  {:>7} {:>9.1} {:>13} {:>9} {:>6.1}",
            summary.file,
            summary.solved,
            summary.positions,
            summary.percent(),
            points,
            max,
            points_percent,
            summary.invalid,
            summary.time_ms / 1000.0,
            summary.nodes,
            summary.nps(),
            summary.mean_depth()
        );
        lines.push(line);
    }
    lines
}

/// One position as a line of text.
pub fn position_line(index: usize, count: usize, record: &PositionRecord) -> String {
    let mut line = format!(
        "{:>w$}/{count} {:<16} {:<8} {:<9} {}",
        index,
        record.id,
        if record.solved { "solved" } else { "-" },
        record.chosen.as_deref().unwrap_or("(none)"),
        record.expected,
        w = count.to_string().len(),
    );
    if let (Some(points), Some(max)) = (record.points, record.max_points) {
        let _ = write!(line, "  points {points}/{max}");
    }
    let _ = write!(
        line,
        "  {}  depth {}  nodes {}  {:.3} s",
        record.score,
        record.depth,
        record.nodes,
        record.time_ms / 1000.0
    );
    if let (Some(depth), Some(time)) = (record.solution_depth, record.solution_time_ms) {
        let _ = write!(line, "  found at depth {depth}, {:.3} s", time / 1000.0);
    }
    line
}

/// The settings of a run, as the JSON records them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Settings {
    /// `name version` of the engine.
    pub engine: String,
    /// Milliseconds per position, when the run is timed.
    pub movetime_ms: Option<u64>,
    /// Depth per position, when fixed.
    pub depth: Option<u32>,
    /// Nodes per position, when fixed.
    pub nodes: Option<u64>,
    /// Transposition table size in MiB.
    pub hash_mib: usize,
    /// Search threads.
    pub threads: usize,
    /// Whether the table was kept from one position to the next.
    pub keep_hash: bool,
}

/// One file's part of the JSON.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FileReport {
    /// Totals of the file.
    #[serde(serialize_with = "serialize_summary")]
    pub summary: Summary,
    /// Every searched position.
    pub positions: Vec<PositionRecord>,
    /// Every invalid line.
    pub invalid: Vec<InvalidLine>,
}

/// The whole JSON document.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunReport<'a> {
    /// How the run was made.
    pub settings: &'a Settings,
    /// One entry per file, in command-line order.
    pub files: &'a [FileReport],
    /// Totals over all files.
    #[serde(serialize_with = "serialize_summary")]
    pub total: &'a Summary,
}

/// The JSON text of a run.
pub fn to_json(report: &RunReport) -> String {
    serde_json::to_string_pretty(report).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}

/// The column names of the CSV.
pub const CSV_HEADER: &str = "file,line,id,fen,expected,chosen,chosen_uci,solved,points,\
max_points,score,depth,seldepth,nodes,time_ms,solution_depth,solution_time_ms,pv";

/// The CSV text: a header and one row per searched position.
pub fn to_csv(files: &[FileReport]) -> String {
    let mut text = String::from(CSV_HEADER);
    text.push('\n');
    for record in files.iter().flat_map(|f| &f.positions) {
        let fields = [
            csv_field(&record.file),
            record.line.to_string(),
            csv_field(&record.id),
            csv_field(&record.fen),
            csv_field(&record.expected),
            csv_field(record.chosen.as_deref().unwrap_or("")),
            csv_field(record.chosen_uci.as_deref().unwrap_or("")),
            record.solved.to_string(),
            optional(record.points),
            optional(record.max_points),
            csv_field(&record.score),
            record.depth.to_string(),
            record.seldepth.to_string(),
            record.nodes.to_string(),
            format!("{:.3}", record.time_ms),
            optional(record.solution_depth),
            record
                .solution_time_ms
                .map_or(String::new(), |t| format!("{t:.3}")),
            csv_field(&record.pv),
        ];
        text.push_str(&fields.join(","));
        text.push('\n');
    }
    text
}

fn optional<T: ToString>(value: Option<T>) -> String {
    value.map_or(String::new(), |v| v.to_string())
}

/// Quotes a CSV field when it holds a comma, a quote or a line break (RFC 4180).
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(solved: bool, points: Option<u32>) -> PositionRecord {
        PositionRecord {
            file: "a.epd".to_string(),
            line: 3,
            id: "x, \"y\"".to_string(),
            fen: "8/8/8/8/8/8/8/K6k w - - 0 1".to_string(),
            expected: "bm Kb2".to_string(),
            chosen: Some("Kb2".to_string()),
            chosen_uci: Some("a1b2".to_string()),
            solved,
            points,
            max_points: points.map(|_| 10),
            score: "cp 0".to_string(),
            depth: 6,
            seldepth: 8,
            nodes: 2000,
            time_ms: 500.0,
            solution_depth: solved.then_some(2),
            solution_time_ms: solved.then_some(1.5),
            pv: "Kb2 Kg2".to_string(),
        }
    }

    #[test]
    fn summary_counts_and_rates() {
        let mut summary = Summary::named("a.epd");
        summary.add(&record(true, Some(10)));
        summary.add(&record(false, Some(4)));
        assert_eq!((summary.solved, summary.positions), (1, 2));
        assert_eq!((summary.points, summary.max_points), (14, 20));
        assert_eq!(summary.percent(), 50.0);
        assert_eq!(summary.nps(), 4000);
        assert_eq!(summary.mean_depth(), 6.0);
        assert!(summary.lines()[1].contains("STS points 14/20 (70.0%)"));
        let mut total = Summary::named("total");
        total.merge(&summary);
        total.merge(&summary);
        assert_eq!((total.solved, total.positions, total.points), (2, 4, 28));
        let table = table(&[summary.clone(), summary], &total);
        assert_eq!(table.len(), 4);
        assert!(table[3].starts_with("total"));
    }

    #[test]
    fn csv_quotes_what_needs_quoting() {
        let files = [FileReport {
            summary: Summary::named("a.epd"),
            positions: vec![record(true, None)],
            invalid: Vec::new(),
        }];
        let csv = to_csv(&files);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(
            lines[0].split(',').count(),
            lines[1]
                .replace("\"x, \"\"y\"\"\"", "id")
                .split(',')
                .count()
        );
        assert!(lines[1].starts_with("a.epd,3,\"x, \"\"y\"\"\","));
    }
}
