//! The suite runner: one fresh search per position with the engine's own `Search`, the
//! judgement of each answer, the solution time, the progress bar and the output.
//!
//! Every file is read and checked first, so the progress bar knows the whole count and a bad
//! line is reported before the long part begins. Each position is then searched with the
//! same limits on the same table (cleared in between unless `--keep-hash`). The solution
//! time is taken from the iterations the search reports: the first iteration from which the
//! answer was right and stayed right up to the move finally chosen. Results go to standard
//! output, problems with the input to standard error, the progress bar to standard error
//! only when it is a terminal. Nothing here ends the run early: a bad file or line is
//! counted and the rest goes on.

use std::io::{IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use shakmaty::Move;

use super::expect::Expectation;
use super::notation;
use super::options::EpdArgs;
use super::scorecard::{self, FileReport, PositionRecord, RunReport, Settings, Summary};
use super::suite::{self, Suite, Test};
use brudno_engine::eval::Value;
use brudno_engine::position::Position;
use brudno_engine::search::tt::TranspositionTable;
use brudno_engine::search::{Limits, Report, Search, SearchConfig, SearchControl};

/// Runs `brudno epd` with its arguments. The exit status is a failure only when a JSON or CSV
/// file that was asked for could not be written; bad input is reported and counted instead.
pub fn run(args: &EpdArgs) -> ExitCode {
    let (options, messages) = args.engine_options();
    for message in messages {
        eprintln!("epd: {message}");
    }
    let suites: Vec<Suite> = args
        .files
        .iter()
        .map(|path| suite::load(path, &args.only))
        .collect();
    let total_tests: usize = suites.iter().map(|s| s.tests.len()).sum();
    let progress = progress_bar(total_tests as u64, args.quiet);
    let out = Output {
        progress: &progress,
    };
    for invalid in suites.iter().flat_map(|s| &s.invalid) {
        out.error(&format!("invalid: {invalid}"));
    }
    for wanted in &args.only {
        let found = suites
            .iter()
            .flat_map(|s| &s.tests)
            .any(|test| test.record.id() == *wanted);
        if !found {
            out.error(&format!(
                "epd: --only: no search test has the id '{wanted}'"
            ));
        }
    }

    let settings = Settings {
        engine: format!("Brudno {}", env!("CARGO_PKG_VERSION")),
        movetime_ms: args.movetime_ms(),
        depth: args.depth,
        nodes: args.nodes,
        hash_mib: options.hash_mib,
        threads: options.threads,
        keep_hash: args.keep_hash,
    };
    let runner = Runner {
        limits: args.limits(),
        config: args.config(&options),
        tt: TranspositionTable::new(options.hash_mib),
        keep_hash: args.keep_hash,
    };
    let mut solved_so_far = 0;
    let mut files = Vec::with_capacity(suites.len());
    for suite in &suites {
        progress.set_prefix(short_name(&suite.name));
        let mut summary = Summary::named(&suite.name);
        summary.invalid = suite.invalid.len();
        summary.perft_records = suite.perft_records;
        summary.untested_records = suite.untested_records;
        let mut positions = Vec::with_capacity(suite.tests.len());
        for (index, test) in suite.tests.iter().enumerate() {
            let record = runner.run_test(&suite.name, test);
            summary.add(&record);
            solved_so_far += usize::from(record.solved);
            out.line(&scorecard::position_line(
                index + 1,
                suite.tests.len(),
                &record,
            ));
            progress.set_message(format!("solved {solved_so_far}"));
            progress.inc(1);
            positions.push(record);
        }
        for line in summary.lines() {
            out.line(&line);
        }
        out.line("");
        files.push(FileReport {
            summary,
            positions,
            invalid: suite.invalid.clone(),
        });
    }
    progress.finish_and_clear();

    let mut total = Summary::named("total");
    for file in &files {
        total.merge(&file.summary);
    }
    if files.len() > 1 {
        let summaries: Vec<Summary> = files.iter().map(|f| f.summary.clone()).collect();
        for line in scorecard::table(&summaries, &total) {
            out.line(&line);
        }
    }
    let mut status = ExitCode::SUCCESS;
    if let Some(path) = &args.json {
        let report = RunReport {
            settings: &settings,
            files: &files,
            total: &total,
        };
        if let Err(message) = write_file(path, &scorecard::to_json(&report)) {
            eprintln!("epd: {message}");
            status = ExitCode::FAILURE;
        }
    }
    if let Some(path) = &args.csv
        && let Err(message) = write_file(path, &scorecard::to_csv(&files))
    {
        eprintln!("epd: {message}");
        status = ExitCode::FAILURE;
    }
    status
}

/// The search set-up shared by every position of a run.
struct Runner {
    limits: Limits,
    config: SearchConfig,
    tt: TranspositionTable,
    keep_hash: bool,
}

/// What an iteration said, as far as the judgement needs it.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Iteration {
    depth: u32,
    elapsed: Duration,
    best: Option<Move>,
    score: Value,
}

impl Iteration {
    fn from_report(report: &Report) -> Self {
        Self {
            depth: report.depth,
            elapsed: report.elapsed,
            best: report.pv.first().copied(),
            score: report.score,
        }
    }
}

impl Runner {
    /// Searches one test position and judges the result.
    fn run_test(&self, file: &str, test: &Test) -> PositionRecord {
        if !self.keep_hash {
            self.tt.clear(self.config.threads);
        }
        let control = SearchControl::default();
        control.begin(false);
        let mut iterations = Vec::new();
        // A `dm N` test is over once a mate in N or fewer is proven.
        let limits = Limits {
            mate: test.expectation.mate.or(self.limits.mate),
            ..self.limits.clone()
        };
        let result = Search {
            position: &test.position,
            history: &[],
            limits: &limits,
            config: &self.config,
            tt: &self.tt,
            control: &control,
            histories: None,
        }
        .run(&mut |report| iterations.push(Iteration::from_report(report)));
        // The final answer may come from an iteration cut short, which reports nothing.
        let last = Iteration::from_report(&result.report);
        let reported_last = iterations.last().map(|i| (i.depth, i.best, i.score));
        if reported_last != Some((last.depth, last.best, last.score)) {
            iterations.push(last);
        }
        let verdict = test.expectation.judge(result.best_move, result.score);
        let solution = if verdict.solved {
            solution_iteration(&iterations, &test.expectation)
        } else {
            None
        };
        let position = &test.position;
        PositionRecord {
            file: file.to_string(),
            line: test.record.line,
            id: test.record.id(),
            fen: position.fen(),
            expected: test.expectation.describe(position),
            chosen: result.best_move.map(|m| notation::san(position, m)),
            chosen_uci: result
                .best_move
                .map(|m| Position::uci(m, position.castling_mode())),
            solved: verdict.solved,
            points: verdict.points,
            max_points: verdict.points.map(|_| test.expectation.max_points()),
            score: crate::display::score_text(result.score),
            depth: result.depth,
            seldepth: result.report.seldepth.max(result.depth),
            nodes: result.stats.nodes,
            time_ms: millis(result.report.elapsed),
            solution_depth: solution.map(|i| i.depth),
            solution_time_ms: solution.map(|i| millis(i.elapsed)),
            pv: san_line(position, &result.report.pv),
        }
    }
}

/// The first iteration from which every iteration, the last included, solves the test.
fn solution_iteration(iterations: &[Iteration], expectation: &Expectation) -> Option<Iteration> {
    let solves = |i: &Iteration| expectation.judge(i.best, i.score).solved;
    let unsolved_after = iterations.iter().rposition(|i| !solves(i));
    let first_kept = unsolved_after.map_or(0, |index| index + 1);
    iterations.get(first_kept).copied()
}

/// Milliseconds, to the microsecond.
fn millis(duration: Duration) -> f64 {
    duration.as_micros() as f64 / 1000.0
}

/// A line of moves in SAN, each written in the position it is played from.
fn san_line(position: &Position, moves: &[Move]) -> String {
    let mut current = position.clone();
    let mut words = Vec::with_capacity(moves.len());
    for &m in moves {
        if !current.legal_moves().contains(&m) {
            break;
        }
        words.push(notation::san(&current, m));
        current = current.play(m);
    }
    words.join(" ")
}

/// The file name without its directories, for the progress bar.
fn short_name(name: &str) -> String {
    Path::new(name)
        .file_name()
        .map_or_else(|| name.to_string(), |n| n.to_string_lossy().into_owned())
}

fn progress_bar(length: u64, quiet: bool) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let style = ProgressStyle::with_template(
        "{prefix} [{bar:30}] {pos}/{len} {msg}  elapsed {elapsed_precise}  ETA {eta_precise}",
    )
    .unwrap_or_else(|_| ProgressStyle::default_bar())
    .progress_chars("=> ");
    let bar = ProgressBar::with_draw_target(Some(length), ProgressDrawTarget::stderr());
    bar.set_style(style);
    bar.set_message("solved 0");
    bar.enable_steady_tick(Duration::from_millis(500));
    bar
}

/// Output that keeps the progress bar out of the way of the lines.
struct Output<'a> {
    progress: &'a ProgressBar,
}

impl Output<'_> {
    /// A result line on standard output (write errors, such as a closed pipe, are ignored).
    fn line(&self, text: &str) {
        self.progress.suspend(|| {
            let _ = writeln!(std::io::stdout().lock(), "{text}");
        });
    }

    /// A problem with the input, on standard error.
    fn error(&self, text: &str) {
        self.progress.suspend(|| {
            let _ = writeln!(std::io::stderr().lock(), "{text}");
        });
    }
}

fn write_file(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::epd::suite::from_text;
    use brudno_engine::search::score::mate_in;

    fn iteration(depth: u32, best: Move, score: Value) -> Iteration {
        Iteration {
            depth,
            elapsed: Duration::from_millis(u64::from(depth) * 10),
            best: Some(best),
            score,
        }
    }

    #[test]
    fn solution_is_the_first_iteration_kept_to_the_end() {
        let suite = from_text(
            "t",
            "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - bm Rd8; id \"x\";",
            &[],
        );
        let test = &suite.tests[0];
        let right = test.expectation.best[0];
        let wrong = notation::parse_move(&test.position, "Kf1").unwrap();
        let iterations = [
            iteration(1, right, 0),
            iteration(2, wrong, 0),
            iteration(3, right, mate_in(1)),
            iteration(4, right, mate_in(1)),
        ];
        let found = solution_iteration(&iterations, &test.expectation).unwrap();
        assert_eq!(found.depth, 3);
        assert_eq!(
            solution_iteration(&iterations[..2], &test.expectation),
            None
        );
    }

    #[test]
    fn a_search_through_the_runner_solves_a_mate() {
        let suite = from_text(
            "t",
            "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - dm 1; id \"back rank\";",
            &[],
        );
        let runner = Runner {
            limits: Limits::depth(3),
            config: SearchConfig::default(),
            tt: TranspositionTable::new(1),
            keep_hash: false,
        };
        let record = runner.run_test("t", &suite.tests[0]);
        assert!(record.solved);
        assert_eq!(record.chosen.as_deref(), Some("Rd8#"));
        assert_eq!(record.chosen_uci.as_deref(), Some("d1d8"));
        assert_eq!(record.score, "mate 1");
        assert_eq!(record.solution_depth, Some(1));
        assert!(record.pv.starts_with("Rd8#"));
    }
}
