//! The command line of `brudno epd`, and how it becomes search limits and a configuration.
//!
//! One limit per position: `--movetime`, `--depth` or `--nodes` (one second of movetime when
//! none is given). Hash and threads are checked by the same code as the UCI options
//! (`search::resources`, with the same ranges and messages), so the same values are accepted
//! and clamped the same way. No Move Overhead is kept back: there is
//! no GUI between the runner and the search.

use std::path::PathBuf;
use std::time::Duration;

use clap::{ArgGroup, Args};

use brudno_engine::eval::Evaluation;
use brudno_engine::search::features::Features;
use brudno_engine::search::resources::{
    MAX_HASH_MIB, MAX_THREADS, clamp_hash_to_memory, warn_if_oversubscribed,
};
use brudno_engine::search::{Limits, SearchConfig};

/// Milliseconds per position when no limit is given.
pub const DEFAULT_MOVETIME_MS: u64 = 1000;

/// Arguments of `brudno epd`.
#[derive(Args, Clone, Debug, PartialEq, Eq)]
#[command(group(ArgGroup::new("limit").args(["movetime", "depth", "nodes"])))]
pub struct EpdArgs {
    /// EPD files to run, in this order.
    #[arg(required = true, value_name = "FILE.epd")]
    pub files: Vec<PathBuf>,
    /// Milliseconds of search per position (default 1000 when no limit is given).
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    pub movetime: Option<u64>,
    /// Search every position to this depth.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=127))]
    pub depth: Option<u32>,
    /// Search every position for this many nodes.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Transposition table size in MiB.
    #[arg(long, value_name = "MiB", default_value_t = 16)]
    pub hash: u64,
    /// Search threads.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub threads: u64,
    /// Write every position's record, the invalid lines and the summaries as JSON here.
    #[arg(long, value_name = "PATH")]
    pub json: Option<PathBuf>,
    /// Write every position's record as CSV here.
    #[arg(long, value_name = "PATH")]
    pub csv: Option<PathBuf>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
    /// Run only the positions with these ids (comma separated).
    #[arg(long, value_name = "ID,...", value_delimiter = ',')]
    pub only: Vec<String>,
    /// Keep the hash table from one position to the next instead of clearing it.
    #[arg(long)]
    pub keep_hash: bool,
    /// Selective-search techniques, as the UCI option `Dev Features` takes them (e.g. `-lmr`).
    #[arg(long, value_name = "LIST", default_value = "all")]
    pub features: String,
    /// Evaluation: `NNUE` (the default), `Positional` or `Material`.
    #[arg(long, value_name = "NAME", default_value = "NNUE")]
    pub evaluation: String,
    /// The NNUE's network file, as the UCI option `EvalFile` takes it (default: the embedded
    /// network); a file that cannot be read or checked is reported and the embedded one used.
    #[arg(long, value_name = "FILE")]
    pub eval_file: Option<String>,
}

impl EpdArgs {
    /// The limits of every search.
    pub fn limits(&self) -> Limits {
        if let Some(depth) = self.depth {
            Limits::depth(depth)
        } else if let Some(nodes) = self.nodes {
            Limits {
                nodes: Some(nodes),
                ..Limits::default()
            }
        } else {
            Limits {
                movetime: Some(Duration::from_millis(self.movetime_ms().unwrap_or(0))),
                ..Limits::default()
            }
        }
    }

    /// Milliseconds per position when the run is timed.
    pub fn movetime_ms(&self) -> Option<u64> {
        match (self.depth, self.nodes) {
            (None, None) => Some(self.movetime.unwrap_or(DEFAULT_MOVETIME_MS)),
            _ => None,
        }
    }

    /// The hash size, thread count, features and evaluation through the UCI option rules,
    /// with any messages about clamping or values that could not be read (which keep the
    /// default).
    pub fn engine_options(&self) -> (EngineOptions, Vec<String>) {
        let mut messages = Vec::new();
        let hash = clamp_spin("Hash", self.hash, 1, MAX_HASH_MIB, &mut messages);
        let hash_mib = clamp_hash_to_memory(hash as usize, &mut messages);
        let threads = clamp_spin("Threads", self.threads, 1, MAX_THREADS, &mut messages) as usize;
        warn_if_oversubscribed(threads, &mut messages);
        let features = Features::parse(&self.features).unwrap_or_else(|e| {
            messages.push(format!("option Dev Features: {e}, unchanged"));
            Features::ALL
        });
        let text = self.evaluation.trim();
        let evaluation = text.parse::<Evaluation>().unwrap_or_else(|_| {
            messages.push(format!(
                "option Evaluation: '{text}' is not one of NNUE, Positional, Material, unchanged"
            ));
            Evaluation::default()
        });
        let mut network = brudno_engine::eval::nnue::embedded();
        if let Some(path) = &self.eval_file {
            match crate::evalfile::load(path) {
                Ok((loaded, message)) => {
                    network = loaded;
                    messages.push(message);
                }
                Err(why) => messages.push(why),
            }
        }
        let options = EngineOptions {
            hash_mib,
            threads,
            features,
            evaluation,
            network,
        };
        (options, messages)
    }

    /// The search configuration: the engine as it plays (or with the chosen features and
    /// evaluation), with `threads` and no Move Overhead.
    pub fn config(&self, options: &EngineOptions) -> SearchConfig {
        SearchConfig {
            threads: options.threads,
            features: options.features,
            eval: options.evaluation,
            network: std::sync::Arc::clone(&options.network),
            move_overhead: Duration::ZERO,
            ..SearchConfig::default()
        }
    }
}

/// The engine settings of an EPD run, checked as the UCI options check them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// Transposition table size in MiB.
    pub hash_mib: usize,
    /// Search threads.
    pub threads: usize,
    /// Which selective-search techniques are on.
    pub features: Features,
    /// The evaluation function.
    pub evaluation: Evaluation,
    /// The network of `--eval-file` (the embedded one without it).
    pub network: std::sync::Arc<brudno_engine::eval::nnue::Network>,
}

/// `value` clamped to `min..=max`, with the UCI option's message when it was out of range.
fn clamp_spin(name: &str, value: u64, min: i64, max: i64, messages: &mut Vec<String>) -> i64 {
    let parsed = i64::try_from(value).unwrap_or(i64::MAX);
    let clamped = parsed.clamp(min, max);
    if clamped != parsed {
        messages.push(format!(
            "option {name}: {value} is out of range {min}..{max}, using {clamped}"
        ));
    }
    clamped
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: EpdArgs,
    }

    fn parse(line: &str) -> Result<EpdArgs, clap::Error> {
        Cli::try_parse_from(std::iter::once("epd").chain(line.split_whitespace()))
            .map(|cli| cli.args)
    }

    #[test]
    fn limits_and_defaults() {
        let args = parse("a.epd b.epd").unwrap();
        assert_eq!(args.files.len(), 2);
        assert_eq!(args.movetime_ms(), Some(DEFAULT_MOVETIME_MS));
        assert_eq!(
            args.limits().movetime,
            Some(Duration::from_millis(DEFAULT_MOVETIME_MS))
        );
        let args = parse("a.epd --depth 7 --only WAC.001,WAC.002 --keep-hash").unwrap();
        assert_eq!(args.limits(), Limits::depth(7));
        assert_eq!(args.movetime_ms(), None);
        assert_eq!(args.only, ["WAC.001", "WAC.002"]);
        assert!(args.keep_hash);
        assert_eq!(
            parse("a.epd --nodes 5000").unwrap().limits().nodes,
            Some(5000)
        );
    }

    #[test]
    fn bad_command_lines_are_refused() {
        assert!(parse("").is_err());
        assert!(parse("a.epd --depth 5 --movetime 100").is_err());
        assert!(parse("a.epd --depth 0").is_err());
        assert!(parse("a.epd --movetime fast").is_err());
    }

    #[test]
    fn threads_and_hash_follow_the_uci_rules() {
        let args = parse("a.epd --threads 4 --hash 32").unwrap();
        let (options, messages) = args.engine_options();
        assert_eq!((options.threads, options.hash_mib), (4, 32));
        // The only thing said about valid values: more threads than this machine's CPUs.
        assert!(
            messages.iter().all(|m| m.contains("logical CPUs")),
            "{messages:?}"
        );
        assert_eq!(args.config(&options).threads, 4);
        let (options, messages) = parse("a.epd --threads 0").unwrap().engine_options();
        assert_eq!(options.threads, 1);
        assert_eq!(messages.len(), 1);
    }
}
