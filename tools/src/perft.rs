//! Perft: counts the leaves of the legal move tree through Brudno's own `Position`, and the
//! `brudno perft` command that checks single positions and whole EPD suites with it.
//!
//! Going through `Position` (copy-make plus the incremental Zobrist key) means perft checks
//! what the search relies on, not only shakmaty; the children of a node are made one after
//! the other in one buffer (`Position::play_into`), which keeps up with shakmaty's own perft.
//! The last ply is bulk-counted (the number of legal moves, without playing them).
//! `perft_checked` plays every move instead and compares the incremental key with a full
//! recompute at each node, stopping at the first difference with the position and the move.
//! The command never panics on its input: an unreadable file, a bad FEN or a malformed EPD
//! line is reported (with its line number) and the rest of a suite still runs; any failure
//! makes the exit status 1.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use shakmaty::{CastlingMode, Move};

use crate::epd::{self, EpdRecord};
use brudno_engine::position::Position;

/// The standard start position.
const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Leaf count of the legal move tree `depth` plies deep.
pub fn perft(position: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => position.legal_moves().len() as u64,
        _ => {
            let mut total = 0;
            // One buffer for every child of this node; play_into overwrites all of it.
            let mut child = position.clone();
            for m in position.legal_moves() {
                position.play_into(m, &mut child);
                total += perft(&child, depth - 1);
            }
            total
        }
    }
}

/// Where the incremental key first differed from the full recompute.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HashMismatch {
    /// FEN of the position the move was played from.
    pub fen: String,
    /// The move, in UCI notation.
    pub mv: String,
    /// The incrementally updated key.
    pub incremental: u64,
    /// The key computed from scratch.
    pub full: u64,
}

impl std::fmt::Display for HashMismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "hash mismatch after {} from {}: incremental {:016x}, full {:016x}",
            self.mv, self.fen, self.incremental, self.full
        )
    }
}

/// Like `perft`, but every move is played (no bulk counting) and the key checked after each.
pub fn perft_checked(position: &Position, depth: u32) -> Result<u64, HashMismatch> {
    if depth == 0 {
        return Ok(1);
    }
    let mut total = 0;
    for m in position.legal_moves() {
        let child = checked_play(position, m)?;
        total += perft_checked(&child, depth - 1)?;
    }
    Ok(total)
}

/// Plays `m` and compares the child's incremental key with a full recompute.
fn checked_play(position: &Position, m: Move) -> Result<Position, HashMismatch> {
    let child = position.play(m);
    let full = child.full_key();
    if child.key() == full {
        Ok(child)
    } else {
        Err(HashMismatch {
            fen: position.fen(),
            mv: Position::uci(m, position.castling_mode()),
            incremental: child.key(),
            full,
        })
    }
}

/// Per-root-move counts, each with its move.
pub fn divide_counts(position: &Position, depth: u32) -> Vec<(Move, u64)> {
    position
        .legal_moves()
        .iter()
        .map(|&m| (m, perft(&position.play(m), depth.saturating_sub(1))))
        .collect()
}

/// Like `divide_counts`, with the key checked at every node (the root moves included).
pub fn divide_counts_checked(
    position: &Position,
    depth: u32,
) -> Result<Vec<(Move, u64)>, HashMismatch> {
    position
        .legal_moves()
        .iter()
        .map(|&m| {
            let child = checked_play(position, m)?;
            Ok((m, perft_checked(&child, depth.saturating_sub(1))?))
        })
        .collect()
}

/// Prints the Stockfish `go perft` layout: `e2e4: 9467` per root move, then the total.
pub fn divide(position: &Position, depth: u32, mode: CastlingMode, out: &mut dyn FnMut(&str)) {
    let depth = depth.max(1);
    let mut total = 0;
    for (m, count) in divide_counts(position, depth) {
        out(&format!("{}: {count}", Position::uci(m, mode)));
        total += count;
    }
    out("");
    out(&format!("Nodes searched: {total}"));
}

/// Arguments of `brudno perft`: one position (`<depth>`, `--fen`, `--divide`, `--chess960`) or
/// an EPD suite (`--suite`, `--max-depth`, `--max-nodes`); `--check-hash` applies to both.
#[derive(clap::Args, Clone, Debug, Default, PartialEq, Eq)]
#[command(
    override_usage = "brudno perft <DEPTH> [--fen <FEN>] [--divide] [--chess960] [--check-hash]
       brudno perft --suite <FILE> [--max-depth <N>] [--max-nodes <N>] [--check-hash]"
)]
pub struct PerftArgs {
    /// Depth in plies (not with --suite).
    #[arg(
        required_unless_present = "suite",
        conflicts_with = "suite",
        value_parser = clap::value_parser!(u32).range(1..=32)
    )]
    pub depth: Option<u32>,
    /// The position to count from (default: the start position).
    #[arg(long, value_name = "FEN", conflicts_with = "suite")]
    pub fen: Option<String>,
    /// Print every root move with its count (`e2e4: 9467`), then `Nodes searched: N`.
    #[arg(long, conflicts_with = "suite")]
    pub divide: bool,
    /// Chess960 castling: read the FEN that way and write castling as king takes rook. Shredder
    /// or X-FEN castling letters select it without this flag.
    #[arg(long)]
    pub chess960: bool,
    /// Check every position of an EPD file carrying `;D1 n ;D2 n ...` counts.
    #[arg(long, value_name = "FILE")]
    pub suite: Option<PathBuf>,
    /// With --suite: skip depths above N.
    #[arg(long, value_name = "N", requires = "suite", conflicts_with = "depth")]
    pub max_depth: Option<u32>,
    /// With --suite: skip depths whose expected count is above N.
    #[arg(long, value_name = "N", requires = "suite", conflicts_with = "depth")]
    pub max_nodes: Option<u64>,
    /// Compare the incremental key with a full recompute after every move and stop at the
    /// first difference (plays the last ply too, so it is much slower).
    #[arg(long)]
    pub check_hash: bool,
}

/// Runs `brudno perft` as `args` asks, writing the report through `out` and problems with the
/// command's own input (a bad FEN, an unreadable file) through `err`. Returns whether
/// everything passed: the exit status is 1 otherwise.
pub fn run(args: &PerftArgs, out: &mut dyn FnMut(&str), err: &mut dyn FnMut(&str)) -> bool {
    match &args.suite {
        Some(path) => match std::fs::read(path) {
            Ok(bytes) => {
                let summary = run_suite(&String::from_utf8_lossy(&bytes), args, out);
                summary.all_passed()
            }
            Err(error) => {
                err(&format!("cannot read {}: {error}", path.display()));
                false
            }
        },
        None => run_single(args, out, err),
    }
}

/// One position: the total (or the divide) with the time taken and the node rate.
fn run_single(args: &PerftArgs, out: &mut dyn FnMut(&str), err: &mut dyn FnMut(&str)) -> bool {
    let fen = args.fen.as_deref().unwrap_or(START_FEN);
    let position = match Position::from_fen_for_perft(fen, args.chess960) {
        Ok(position) => position,
        Err(error) => {
            err(&error.to_string());
            return false;
        }
    };
    let depth = args.depth.unwrap_or(1);
    let started = Instant::now();
    let counted = if args.divide {
        let per_move = if args.check_hash {
            divide_counts_checked(&position, depth)
        } else {
            Ok(divide_counts(&position, depth))
        };
        per_move.map(|per_move| {
            let total = per_move.iter().map(|(_, count)| count).sum();
            (per_move, total)
        })
    } else if args.check_hash {
        perft_checked(&position, depth).map(|total| (Vec::new(), total))
    } else {
        Ok((Vec::new(), perft(&position, depth)))
    };
    let elapsed = started.elapsed();
    let (per_move, total) = match counted {
        Ok(counted) => counted,
        Err(mismatch) => {
            out(&mismatch.to_string());
            return false;
        }
    };
    if args.divide {
        let mode = position.castling_mode();
        for (m, count) in per_move {
            out(&format!("{}: {count}", Position::uci(m, mode)));
        }
        out("");
    }
    out(&format!("Nodes searched: {total}"));
    out(&format!("Time (ms)     : {}", elapsed.as_millis()));
    out(&format!(
        "Nodes/second  : {}",
        nodes_per_second(total, elapsed)
    ));
    true
}

/// What became of one EPD line of a suite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every depth checked gave its expected count.
    Passed {
        /// The deepest depth checked.
        depth: u32,
        /// Leaves counted at that depth.
        nodes: u64,
    },
    /// A depth gave the wrong count.
    WrongCount {
        /// The first depth that failed.
        depth: u32,
        /// The count the file gives.
        expected: u64,
        /// The count perft found.
        found: u64,
    },
    /// The incremental key differed from the full recompute.
    HashMismatch {
        /// The depth being counted when it happened.
        depth: u32,
        /// Where it happened.
        mismatch: HashMismatch,
    },
    /// Every depth was above `--max-depth` or `--max-nodes`.
    Skipped,
    /// The line could not be used (bad EPD, bad FEN, bad or missing counts).
    Malformed(String),
}

/// Totals of a suite run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SuiteSummary {
    /// Positions whose every checked depth was right.
    pub passed: usize,
    /// Positions with a wrong count or a hash mismatch.
    pub failed: usize,
    /// Lines that could not be used.
    pub malformed: usize,
    /// Positions with no depth inside the limits.
    pub skipped: usize,
    /// Leaves counted over every depth of every position.
    pub nodes: u64,
    /// Time spent counting.
    pub elapsed: Duration,
}

impl SuiteSummary {
    /// Whether nothing failed and no line was malformed.
    pub fn all_passed(&self) -> bool {
        self.failed == 0 && self.malformed == 0
    }
}

/// Runs every position of the EPD `text`, printing a line per position and a summary.
pub fn run_suite(text: &str, args: &PerftArgs, out: &mut dyn FnMut(&str)) -> SuiteSummary {
    let mut summary = SuiteSummary::default();
    for (index, line) in text.lines().enumerate() {
        let line_number = index + 1;
        let record = match epd::parse_line(line, line_number) {
            Ok(Some(record)) => record,
            Ok(None) => continue,
            Err(message) => {
                summary.malformed += 1;
                out(&format!("error line {line_number}: {message}"));
                continue;
            }
        };
        let started = Instant::now();
        let (outcome, nodes) = check_record(&record, args);
        summary.elapsed += started.elapsed();
        summary.nodes += nodes;
        let name = record.first("id").unwrap_or(&record.fields).to_string();
        let report = match outcome {
            Outcome::Passed { depth, nodes } => {
                summary.passed += 1;
                format!("ok    line {line_number}: D{depth} {nodes}  {name}")
            }
            Outcome::WrongCount {
                depth,
                expected,
                found,
            } => {
                summary.failed += 1;
                format!(
                    "FAIL  line {line_number}: D{depth} expected {expected}, found {found}  {name}"
                )
            }
            Outcome::HashMismatch { depth, mismatch } => {
                summary.failed += 1;
                format!("FAIL  line {line_number}: D{depth} {mismatch}")
            }
            Outcome::Skipped => {
                summary.skipped += 1;
                format!("skip  line {line_number}: no depth within the limits  {name}")
            }
            Outcome::Malformed(message) => {
                summary.malformed += 1;
                format!("error line {line_number}: {message}")
            }
        };
        out(&report);
    }
    out("");
    out(&format!(
        "{} positions: {} passed, {} failed, {} malformed, {} skipped",
        summary.passed + summary.failed + summary.malformed + summary.skipped,
        summary.passed,
        summary.failed,
        summary.malformed,
        summary.skipped
    ));
    out(&format!("Nodes searched: {}", summary.nodes));
    out(&format!("Time (ms)     : {}", summary.elapsed.as_millis()));
    out(&format!(
        "Nodes/second  : {}",
        nodes_per_second(summary.nodes, summary.elapsed)
    ));
    summary
}

/// The `(depth, count)` pairs of a record's `D<depth> <count>` operations, by depth.
pub fn expected_counts(record: &EpdRecord) -> Result<Vec<(u32, u64)>, String> {
    let mut counts = Vec::new();
    for operation in &record.operations {
        let Some(digits) = operation.opcode.strip_prefix('D') else {
            continue;
        };
        let depth = match digits.parse::<u32>() {
            Ok(depth @ 1..=32) => depth,
            _ => return Err(format!("'{}' is not a depth D1..D32", operation.opcode)),
        };
        let count = match operation.operands.as_slice() {
            [count] => count.parse::<u64>().ok(),
            _ => None,
        };
        let Some(count) = count else {
            return Err(format!(
                "{} needs one node count, found '{}'",
                operation.opcode,
                operation.operands.join(" ")
            ));
        };
        counts.push((depth, count));
    }
    if counts.is_empty() {
        return Err("no perft counts (;D1 n ;D2 n ...)".to_string());
    }
    counts.sort_unstable();
    Ok(counts)
}

/// Checks one record at every depth within the limits, shallowest first, stopping at the first
/// failure. Returns the outcome and the leaves counted.
fn check_record(record: &EpdRecord, args: &PerftArgs) -> (Outcome, u64) {
    let counts = match expected_counts(record) {
        Ok(counts) => counts,
        Err(message) => return (Outcome::Malformed(message), 0),
    };
    let position = match Position::from_fen_for_perft(&record.fen(), args.chess960) {
        Ok(position) => position,
        Err(error) => return (Outcome::Malformed(error.to_string()), 0),
    };
    let within_limits = |&&(depth, expected): &&(u32, u64)| {
        args.max_depth.is_none_or(|max| depth <= max)
            && args.max_nodes.is_none_or(|max| expected <= max)
    };
    let mut outcome = Outcome::Skipped;
    let mut counted = 0;
    for &(depth, expected) in counts.iter().filter(within_limits) {
        let found = if args.check_hash {
            match perft_checked(&position, depth) {
                Ok(found) => found,
                Err(mismatch) => return (Outcome::HashMismatch { depth, mismatch }, counted),
            }
        } else {
            perft(&position, depth)
        };
        counted += found;
        if found != expected {
            let wrong = Outcome::WrongCount {
                depth,
                expected,
                found,
            };
            return (wrong, counted);
        }
        outcome = Outcome::Passed {
            depth,
            nodes: found,
        };
    }
    (outcome, counted)
}

fn nodes_per_second(nodes: u64, elapsed: Duration) -> u64 {
    (u128::from(nodes) * 1_000_000 / elapsed.as_micros().max(1)) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_counts() {
        let pos = Position::default();
        assert_eq!(perft(&pos, 1), 20);
        assert_eq!(perft(&pos, 3), 8902);
        assert_eq!(perft_checked(&pos, 3), Ok(8902));
    }

    #[test]
    fn divide_sums_to_perft() {
        let pos = Position::default();
        let mut lines = Vec::new();
        divide(&pos, 2, CastlingMode::Standard, &mut |l| {
            lines.push(l.to_string())
        });
        assert!(lines.contains(&"e2e4: 20".to_string()));
        assert_eq!(lines.last().unwrap(), "Nodes searched: 400");
    }

    #[test]
    fn checked_divide_matches_plain_divide() {
        let pos = Position::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            false,
        )
        .unwrap();
        assert_eq!(
            divide_counts_checked(&pos, 2).unwrap(),
            divide_counts(&pos, 2)
        );
    }

    fn suite(text: &str, args: &PerftArgs) -> (SuiteSummary, Vec<String>) {
        let mut lines = Vec::new();
        let summary = run_suite(text, args, &mut |l| lines.push(l.to_string()));
        (summary, lines)
    }

    #[test]
    fn suite_reports_first_wrong_depth_and_keeps_going() {
        let text = "\
4k3/8/8/8/8/8/8/4K2R w K - ;D1 15 ;D2 66 ;D3 1197
4k3/8/8/8/8/8/8/4K2R w K - ;D1 15 ;D2 67 ;D3 1198
4k3/8/8/8/8/8/8/R3K3 w Q - ;D1 16 ;D2 71
";
        let (summary, lines) = suite(text, &PerftArgs::default());
        assert_eq!((summary.passed, summary.failed), (2, 1));
        assert!(!summary.all_passed());
        assert!(lines[0].starts_with("ok    line 1: D3 1197"), "{lines:?}");
        assert!(
            lines[1].starts_with("FAIL  line 2: D2 expected 67, found 66"),
            "{lines:?}"
        );
        assert!(lines[2].starts_with("ok    line 3: D2 71"), "{lines:?}");
    }

    #[test]
    fn suite_limits_skip_deep_or_large_counts() {
        let text = "4k3/8/8/8/8/8/8/4K2R w K - ;D1 15 ;D2 66 ;D3 1197 ;D4 7059\n";
        let args = PerftArgs {
            max_depth: Some(3),
            max_nodes: Some(100),
            ..PerftArgs::default()
        };
        let (summary, lines) = suite(text, &args);
        assert_eq!(summary.passed, 1);
        assert!(lines[0].starts_with("ok    line 1: D2 66"), "{lines:?}");
        let args = PerftArgs {
            max_nodes: Some(10),
            ..PerftArgs::default()
        };
        let (summary, _) = suite(text, &args);
        assert_eq!((summary.skipped, summary.passed), (1, 0));
        assert!(summary.all_passed());
    }

    #[test]
    fn malformed_lines_are_reported_with_their_line_number() {
        let text = "\
# a comment, then a good line
4k3/8/8/8/8/8/8/4K2R w K - ;D1 15
4k3/8/8/8/8/8/8/4K2R w K
4k3/8/8/8/8/8/8/4K2Z w K - ;D1 15
4k3/8/8/8/8/8/8/4K2R w K - ;D1 fifteen
4k3/8/8/8/8/8/8/4K2R w K - ;Dx 15
4k3/8/8/8/8/8/8/4K2R w K - id \"no counts\";
8/8/8/8/8/8/8/8 w - - ;D1 0
4k3/8/8/8/8/8/8/R3K3 w Q - ;D1 16
";
        let (summary, lines) = suite(text, &PerftArgs::default());
        assert_eq!((summary.passed, summary.malformed), (2, 6), "{lines:?}");
        for number in 3..=8 {
            assert!(
                lines
                    .iter()
                    .any(|l| l.starts_with(&format!("error line {number}: "))),
                "line {number}: {lines:?}"
            );
        }
        assert!(lines.iter().any(|l| l.starts_with("ok    line 9:")));
    }

    #[test]
    fn suite_hash_check_counts_the_same() {
        let text = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - ;D1 26 ;D2 568 ;D3 13744\n";
        let args = PerftArgs {
            check_hash: true,
            ..PerftArgs::default()
        };
        let (summary, lines) = suite(text, &args);
        assert_eq!(summary.passed, 1, "{lines:?}");
        assert_eq!(summary.nodes, 26 + 568 + 13744);
    }

    #[test]
    fn single_position_reports_nodes_and_rejects_bad_fens() {
        let mut out = Vec::new();
        let mut err = Vec::new();
        let args = PerftArgs {
            depth: Some(3),
            fen: Some("4k3/8/8/8/8/8/8/4K2R w K - 0 1".to_string()),
            ..PerftArgs::default()
        };
        assert!(run(&args, &mut |l| out.push(l.to_string()), &mut |l| err
            .push(l.to_string())));
        assert_eq!(out[0], "Nodes searched: 1197");
        let bad = PerftArgs {
            fen: Some("not a fen".to_string()),
            ..args
        };
        assert!(!run(&bad, &mut |l| out.push(l.to_string()), &mut |l| err
            .push(l.to_string())));
        assert!(err[0].contains("not a fen"), "{err:?}");
    }
}
