//! The `brudno` binary: with no arguments it speaks UCI on stdin/stdout; subcommands run the
//! tools. Each subcommand's arguments are declared next to the tool that implements it.

use std::io::{BufReader, Write, stderr, stdin, stdout};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use brudno::tools;
use brudno::uci::{self, Output};

/// Brudno, a UCI chess engine. Without a subcommand it speaks UCI on standard input/output.
#[derive(Parser)]
#[command(name = "brudno", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Tool>,
}

#[derive(Subcommand)]
enum Tool {
    /// Speak UCI on standard input and output (the default).
    Uci,
    /// Fixed-depth search of epd/bench.epd; the last line is "<N> nodes <M> nps".
    Bench {
        /// Search depth (default 13, about 8 seconds on one core of a 2-core machine).
        #[arg(value_parser = clap::value_parser!(u32).range(1..=64))]
        depth: Option<u32>,
        /// Search threads (1 gives the deterministic signature; more measures Lazy SMP).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
        threads: u32,
        /// Time to depth instead of the signature: each position searched with one thread and
        /// at once with --threads N (at least 2), this many rounds; prints the median speed-up
        /// and a bootstrap interval for it.
        #[arg(long, value_name = "ROUNDS", value_parser = clap::value_parser!(u32).range(1..=100))]
        speedup: Option<u32>,
        /// The evaluation (default: the engine's default).
        #[arg(long, value_parser = tools::cli::evaluation())]
        eval: Option<brudno::eval::Evaluation>,
    },
    /// Play Brudno against itself and write its games, every move with its score and the
    /// result (training data in viriformat).
    Datagen(tools::datagen::DatagenArgs),
    /// The data kept in the repository (`data/`): add a datagen run to it, or check every
    /// file against its manifest.
    Data(tools::datastore::DataArgs),
    /// Print training data written by datagen as text, a summary of it, or write it as
    /// plain marlinformat.
    Datadump(tools::datadump::DatadumpArgs),
    /// Training data from PGN games with scores in their comments (fastchess, cutechess,
    /// an OpenBench datagen workload), in datagen's format.
    PgnData(tools::pgndata::PgnDataArgs),
    /// Train the NNUE on datagen's positions (CPU) and write the network file.
    Train(tools::train::TrainArgs),
    /// Texel-tune the evaluation weights on self-play positions; writes a params.rs.
    Tune(tools::tune::TuneArgs),
    /// Run EPD test suites (bm, am, dm, STS points) and print a scorecard.
    Epd(tools::epd::EpdArgs),
    /// The search lab: effective branching factor against sqrt(b), alpha-beta against
    /// minimax, and what move ordering costs, on the engine's own search.
    Ebf(tools::ebf::EbfArgs),
    /// Alpha-beta step by step: a toy tree or a chess position searched by the engine's own
    /// alpha-beta, narrated, as JSON, or as an interactive HTML page.
    Trace(brudno::lab::trace::TraceArgs),
    /// The search lab as a live page: serves the step-through for any tree or position, with
    /// the explanations beside it, on http://127.0.0.1:1963/.
    Lab(brudno::lab::LabArgs),
    /// Count the leaves of the move tree of one position, or check an EPD suite of counts.
    Perft(tools::perft::PerftArgs),
    /// Print every search number (search/params.rs) in OpenBench's SPSA input format:
    /// `name, int, value, min, max, c_end, r_end`; a `--features tune` build takes each as a
    /// UCI spin option of the same name.
    Tunables,
    /// Describe a network file (or the embedded network) as JSON: its architecture, size and
    /// checksum.
    NnueInfo(tools::nnue_info::NnueInfoArgs),
}

fn main() -> ExitCode {
    // OpenBench's client: `brudno "genfens N seed S book <None|FILE> <extra>" "quit"`.
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args
        .first()
        .is_some_and(|a| a.split_whitespace().next() == Some("genfens"))
    {
        return command_lines(&args);
    }
    let cli = Cli::parse();
    match cli.command {
        None | Some(Tool::Uci) => {
            uci::run(BufReader::new(stdin()), Output::new(Box::new(stdout())));
            ExitCode::SUCCESS
        }
        Some(Tool::Bench {
            depth,
            threads,
            speedup: Some(rounds),
            ..
        }) => {
            if threads < 2 {
                let _ = writeln!(
                    stderr(),
                    "--speedup compares --threads N (N >= 2) with 1 thread"
                );
                return ExitCode::from(2);
            }
            let depth = depth.unwrap_or(tools::bench::DEFAULT_DEPTH);
            tools::bench::speedup(depth, threads as usize, rounds as usize, &mut print_line);
            ExitCode::SUCCESS
        }
        Some(Tool::Bench {
            depth,
            threads,
            eval,
            ..
        }) => {
            let depth = depth.unwrap_or(tools::bench::DEFAULT_DEPTH);
            let eval = eval.unwrap_or(brudno::search::SearchConfig::default().eval);
            let summary =
                tools::bench::totals(depth, threads as usize, eval, &mut print_line).summary();
            print_line(&summary);
            ExitCode::SUCCESS
        }
        Some(Tool::Datagen(args)) => tools::datagen::run(&args),
        Some(Tool::Data(args)) => tools::datastore::run(&args, &mut print_line),
        Some(Tool::Datadump(args)) => tools::datadump::dump(&args, &mut print_line),
        Some(Tool::PgnData(args)) => tools::pgndata::run(&args),
        Some(Tool::Train(args)) => tools::train::run(&args),
        Some(Tool::Tune(args)) => tools::tune::run(&args),
        Some(Tool::Epd(args)) => tools::epd::run(&args),
        Some(Tool::Ebf(args)) => {
            ExitCode::from(tools::ebf::run(&args, &mut |line| print_line(line)))
        }
        Some(Tool::Trace(args)) => {
            ExitCode::from(brudno::lab::trace::run(&args, &mut |line| print_line(line)))
        }
        Some(Tool::Tunables) => {
            print!("{}", brudno::search::params::openbench_input());
            ExitCode::SUCCESS
        }
        Some(Tool::Lab(args)) => brudno::lab::run(&args),
        Some(Tool::NnueInfo(args)) => tools::nnue_info::run(&args),
        Some(Tool::Perft(args)) => {
            let passed = tools::perft::run(&args, &mut print_line, &mut |line| {
                let _ = writeln!(stderr(), "{line}");
            });
            if passed {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
    }
}

/// Writes one line to standard output; a closed pipe (`brudno perft 6 | head`) is not an error
/// worth a panic, so write errors are ignored.
fn print_line(line: &str) {
    let _ = writeln!(stdout(), "{line}");
}

/// Runs commands given as arguments, one line each, as OpenBench gives them: `genfens ...`,
/// then `quit`.
fn command_lines(lines: &[String]) -> ExitCode {
    for line in lines {
        match line.split_whitespace().next() {
            Some("quit") => break,
            Some("genfens") => {
                let outcome = tools::genfens::parse(line)
                    .and_then(|request| tools::genfens::run(&request, &mut print_line));
                if let Err(why) = outcome {
                    let _ = writeln!(stderr(), "genfens: {why}");
                    return ExitCode::from(2);
                }
            }
            _ => {
                let _ = writeln!(stderr(), "'{line}': only genfens and quit are read here");
                return ExitCode::from(2);
            }
        }
    }
    ExitCode::SUCCESS
}
