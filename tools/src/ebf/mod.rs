//! `brudno ebf`, the search lab: measures the effective branching factor of the engine's own
//! search under several configurations, checks that alpha-beta returns exactly the minimax
//! value, and shows how much move ordering decides the cost.
//!
//! The tool reads positions (epd/ebf.epd, compiled in, or a file), runs every configuration at
//! every depth 1..D on every position (`lab`), sums the counters into one row per
//! configuration and depth (`summary`), prints the tables on stdout, writes the CSV, JSON and
//! SVG (`svg`) files that were asked for, and reports progress on stderr. Every search goes
//! through `search::Search`: the configurations are switches of that search, never copies of
//! it. Bad input (a missing file, unreadable lines, no usable position, an unwritable output)
//! is a message and a non-zero exit status, never a panic. The exit status is 1 when a
//! pruning-exact configuration's root value differs from minimax, 2 for bad input.

pub mod lab;
pub mod summary;
pub mod svg;

use std::fs;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::epd;
use lab::{LabConfig, LabPosition, LabRun, Progress, value_differences};

/// The default positions, shipped with the engine.
pub const EBF_EPD: &str = include_str!("../../../epd/ebf.epd");
/// Depth used when none is given.
pub const DEFAULT_DEPTH: u32 = 4;
/// The deepest depth accepted (minimax is hopeless far before it).
pub const MAX_DEPTH: u32 = 12;
/// Exit status when a pruning-exact configuration's root value differs from minimax.
pub const EXIT_MISMATCH: u8 = 1;
/// Exit status for bad input or an output that cannot be written.
pub const EXIT_BAD_INPUT: u8 = 2;

/// The command line of `brudno ebf`.
#[derive(clap::Args, Clone, Debug)]
pub struct EbfArgs {
    /// EPD file of positions (default: epd/ebf.epd, built into the binary).
    pub file: Option<PathBuf>,
    /// Search every depth from 1 to this.
    #[arg(long, default_value_t = DEFAULT_DEPTH,
          value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_DEPTH)))]
    pub depth: u32,
    /// Configurations to run, comma separated (default: all, in this order).
    #[arg(long, value_enum, value_delimiter = ',')]
    pub configs: Vec<LabConfig>,
    /// Write one line per configuration and depth to this CSV file.
    #[arg(long, value_name = "PATH")]
    pub csv: Option<PathBuf>,
    /// Plot nodes against depth (log scale) into this SVG file.
    #[arg(long, value_name = "PATH")]
    pub svg: Option<PathBuf>,
    /// Write rows, every single search and the value check to this JSON file.
    #[arg(long, value_name = "PATH")]
    pub json: Option<PathBuf>,
    /// Resolve the horizon with quiescence search in every configuration (off by default, so
    /// the trees compared are exactly the fixed-depth trees).
    #[arg(long)]
    pub qsearch: bool,
}

/// Reads the positions: the built-in set or `file`. Unreadable lines and positions where the
/// game is over are reported through `warn` and skipped; no usable position is an error.
/// Returns the positions and a name for their source.
pub fn load_positions(
    file: Option<&Path>,
    warn: &mut dyn FnMut(&str),
) -> Result<(Vec<LabPosition>, String), String> {
    let (text, source) = match file {
        None => (EBF_EPD.to_string(), "epd/ebf.epd (built in)".to_string()),
        Some(path) => {
            let bytes =
                fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            (
                String::from_utf8_lossy(&bytes).into_owned(),
                path.display().to_string(),
            )
        }
    };
    let (records, errors) = epd::parse_text(&text);
    for error in &errors {
        warn(&format!("{source}: {error}; skipped"));
    }
    let mut positions = Vec::with_capacity(records.len());
    for record in records {
        match record.position() {
            Err(e) => warn(&format!("{source}: line {}: {e}; skipped", record.line)),
            Ok(position) if position.legal_moves().is_empty() => warn(&format!(
                "{source}: line {}: the game is over (no legal move); skipped",
                record.line
            )),
            Ok(position) => positions.push(LabPosition {
                id: record.id(),
                position,
            }),
        }
    }
    if positions.is_empty() {
        return Err(format!("{source}: no position to search"));
    }
    Ok((positions, source))
}

/// The configurations asked for, without repeats; all of them when none was named.
pub fn chosen_configs(asked: &[LabConfig]) -> Vec<LabConfig> {
    if asked.is_empty() {
        return LabConfig::ALL.to_vec();
    }
    let mut configs = Vec::with_capacity(asked.len());
    for &config in asked {
        if !configs.contains(&config) {
            configs.push(config);
        }
    }
    configs
}

/// Runs the lab as the command line says: tables through `out`, progress and errors on
/// stderr. Returns the exit status.
pub fn run(args: &EbfArgs, out: &mut dyn FnMut(&str)) -> u8 {
    let (positions, source) =
        match load_positions(args.file.as_deref(), &mut |w| eprintln!("ebf: {w}")) {
            Ok(loaded) => loaded,
            Err(message) => {
                eprintln!("ebf: {message}");
                return EXIT_BAD_INPUT;
            }
        };
    let configs = chosen_configs(&args.configs);
    let run = measure_with_progress(positions, configs, args.depth, args.qsearch);

    let rows = summary::summarize(&run);
    let differences = value_differences(&run, LabConfig::is_exact);
    let full_differences = value_differences(&run, |c| c == LabConfig::Full);
    for line in summary::text(&run, &rows, &source, &differences, &full_differences) {
        out(&line);
    }

    let mut status = 0;
    let title = format!("{} positions from {source}", run.positions.len());
    let outputs = [
        (args.csv.as_ref(), summary::csv(&rows)),
        (
            args.json.as_ref(),
            summary::json(&run, &rows, &source, &differences, &full_differences),
        ),
        (args.svg.as_ref(), svg::plot(&run, &rows, &title)),
    ];
    for (path, content) in outputs {
        let Some(path) = path else { continue };
        if let Err(e) = fs::write(path, content) {
            eprintln!("ebf: cannot write {}: {e}", path.display());
            status = EXIT_BAD_INPUT;
        }
    }
    if !differences.is_empty() {
        eprintln!(
            "ebf: ROOT VALUE MISMATCH: {} pruning-exact searches differ from minimax (see the report)",
            differences.len()
        );
        status = EXIT_MISMATCH;
    }
    status
}

/// `lab::measure` with a progress bar on a terminal and a line per configuration and depth on
/// stderr either way.
fn measure_with_progress(
    positions: Vec<LabPosition>,
    configs: Vec<LabConfig>,
    depth: u32,
    quiescence: bool,
) -> LabRun {
    let total = depth as u64 * configs.len() as u64 * positions.len() as u64;
    let bar = if std::io::stderr().is_terminal() {
        ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr())
    } else {
        ProgressBar::hidden()
    };
    if let Ok(style) = ProgressStyle::with_template("{bar:30} {pos}/{len} searches {msg}") {
        bar.set_style(style);
    }
    let mut batch_nodes = 0u64;
    let mut batch_time = Duration::ZERO;
    let run = lab::measure(positions, configs, depth, quiescence, &mut |p: Progress| {
        bar.inc(1);
        bar.set_message(format!("depth {} {}", p.depth, p.config.name()));
        batch_nodes += p.sample.stats.nodes;
        batch_time += p.sample.elapsed;
        if p.position + 1 == p.positions {
            bar.suspend(|| {
                eprintln!(
                    "ebf: depth {} {:<17} {:>13} nodes {:>9.2} s",
                    p.depth,
                    p.config.name(),
                    batch_nodes,
                    batch_time.as_secs_f64()
                );
            });
            batch_nodes = 0;
            batch_time = Duration::ZERO;
        }
    });
    bar.finish_and_clear();
    run
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_default_position_is_usable() {
        let mut warnings = Vec::new();
        let (positions, _) = load_positions(None, &mut |w| warnings.push(w.to_string())).unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        assert!(positions.len() >= 24, "{}", positions.len());
    }

    #[test]
    fn repeated_configs_count_once_and_none_means_all() {
        assert_eq!(chosen_configs(&[]), LabConfig::ALL.to_vec());
        assert_eq!(
            chosen_configs(&[LabConfig::Full, LabConfig::Minimax, LabConfig::Full]),
            vec![LabConfig::Full, LabConfig::Minimax]
        );
    }

    #[test]
    fn a_missing_file_is_an_error_not_a_panic() {
        let result = load_positions(Some(Path::new("/nonexistent/ebf.epd")), &mut |_| {});
        assert!(result.unwrap_err().contains("cannot read"));
    }
}
