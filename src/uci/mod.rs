//! The UCI protocol loop: reads commands, owns the game state, runs searches on their own thread.
//!
//! The main thread reads stdin and never waits for a search to finish on its own: `isready`
//! is answered at once even mid-search, `stop` raises the shared flag, `quit` (or the end of
//! input) stops and exits. Each `go` starts one search thread, which prints the `info` lines
//! and exactly one `bestmove`; under `infinite` or `ponder` it holds the `bestmove` until
//! `stop` or `ponderhit`. All output goes through one locked writer, a whole line at a time,
//! so lines never interleave. Wrong input is answered with an `info string` and changes
//! nothing: a bad `position` keeps the previous position.

pub mod command;
pub mod options;

use std::io::{BufRead, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use shakmaty::{CastlingMode, Color, Move};

use crate::position::Position;
use crate::search::score::UciScore;
use crate::search::tt::{Bound, TranspositionTable};
use crate::search::{Limits, Report, Search, SearchConfig, SearchControl};
use crate::tools;
use command::{Command, GoParams, StartPosition};
use options::{Effect, Options};

/// The engine's name as sent after `uci`.
pub const ENGINE_NAME: &str = concat!("Brudno ", env!("CARGO_PKG_VERSION"));
/// The engine's authors as sent after `uci`.
pub const ENGINE_AUTHOR: &str = "the Brudno developers";

/// A line-oriented, thread-safe writer: every call writes one whole line and flushes.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    /// Wraps a writer (stdout in the engine, a buffer in tests).
    pub fn new(writer: Box<dyn Write + Send>) -> Self {
        Self(Arc::new(Mutex::new(writer)))
    }

    /// Writes one line. A closed pipe is ignored: the reader decides when the engine quits.
    pub fn line(&self, text: &str) {
        let mut writer = self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let _ = writer.write_all(text.as_bytes());
        let _ = writer.write_all(b"\n");
        let _ = writer.flush();
    }

    /// Writes `info string <text>` (one line per line of text).
    pub fn info_string(&self, text: &str) {
        for line in text.lines() {
            self.line(&format!("info string {line}"));
        }
    }
}

/// The state the loop owns between commands.
struct Engine {
    out: Output,
    options: Options,
    position: Position,
    /// Keys of the positions before `position` in the game (for repetition detection).
    history: Vec<u64>,
    tt: Arc<TranspositionTable>,
    control: Arc<SearchControl>,
    search_thread: Option<JoinHandle<()>>,
    debug: bool,
}

/// Runs the protocol until `quit` or the end of input.
pub fn run(mut input: impl BufRead, out: Output) {
    let options = Options::default();
    let mut engine = Engine {
        out,
        tt: Arc::new(TranspositionTable::new(options.hash_mib)),
        options,
        position: Position::default(),
        history: Vec::new(),
        control: Arc::new(SearchControl::default()),
        search_thread: None,
        debug: false,
    };
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        match input.read_until(b'\n', &mut bytes) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let line = command::decode_line(&bytes);
        let parsed = command::parse(&line);
        for warning in &parsed.warnings {
            engine.out.info_string(warning);
        }
        if parsed.command == Command::Quit {
            break;
        }
        engine.handle(parsed.command);
    }
    engine.stop_search();
}

impl Engine {
    fn handle(&mut self, command: Command) {
        match command {
            Command::Uci => {
                self.out.line(&format!("id name {ENGINE_NAME}"));
                self.out.line(&format!("id author {ENGINE_AUTHOR}"));
                for declaration in Options::declarations() {
                    self.out.line(&declaration);
                }
                self.out.line("uciok");
            }
            Command::Debug(on) => self.debug = on,
            Command::IsReady => self.out.line("readyok"),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Register | Command::Empty | Command::Quit => {}
            Command::UciNewGame => {
                self.stop_search();
                self.tt.clear();
            }
            Command::Position { start, moves } => self.set_position(&start, &moves),
            Command::Go(params) => self.go(&params),
            Command::Stop => self.control.stop(),
            Command::PonderHit => {
                self.control.ponderhit();
                if let Some(thread) = &self.search_thread {
                    thread.thread().unpark();
                }
            }
            Command::Bench(depth) => {
                self.stop_search();
                let summary = tools::bench::run(depth, &mut |line| self.out.line(line));
                self.out.line(&summary);
            }
            Command::Display => {
                for line in tools::display::board(&self.position) {
                    self.out.line(&line);
                }
            }
            Command::Unknown(message) => self.out.info_string(&message),
        }
    }

    fn is_searching(&self) -> bool {
        self.search_thread
            .as_ref()
            .is_some_and(|thread| !thread.is_finished())
    }

    /// Stops the running search, if any, and waits for its `bestmove`.
    fn stop_search(&mut self) {
        if let Some(thread) = self.search_thread.take() {
            self.control.stop();
            thread.thread().unpark();
            let _ = thread.join();
        }
    }

    fn castling_mode(&self) -> CastlingMode {
        if self.options.chess960 {
            CastlingMode::Chess960
        } else {
            self.position.castling_mode()
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let resource = ["hash", "clear hash", "threads"]
            .iter()
            .any(|n| n.eq_ignore_ascii_case(name.trim()));
        if resource && self.is_searching() {
            self.out.info_string(&format!(
                "option {name} not changed: a search is running (send stop first)"
            ));
            return;
        }
        self.stop_search();
        match self.options.set(name, value) {
            Err(message) => self.out.info_string(&message),
            Ok(change) => {
                for message in &change.messages {
                    self.out.info_string(message);
                }
                match change.effect {
                    Effect::None => {}
                    Effect::ClearHash => self.tt.clear(),
                    Effect::ResizeHash => self.resize_hash(),
                }
            }
        }
    }

    fn resize_hash(&mut self) {
        let wanted = self.options.hash_mib;
        // No search runs (checked by the caller), so this is the only owner of the table.
        let Some(tt) = Arc::get_mut(&mut self.tt) else {
            self.out
                .info_string("option Hash not changed: the table is in use");
            return;
        };
        let got = tt.resize(wanted);
        if got != wanted {
            self.out.info_string(&format!(
                "option Hash: could not allocate {wanted} MiB, using {got} MiB"
            ));
            self.options.hash_mib = got;
        }
    }

    fn set_position(&mut self, start: &StartPosition, moves: &[String]) {
        let mut position = match start {
            StartPosition::StartPos => {
                if self.options.chess960 {
                    Position::from_fen(
                        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                        true,
                    )
                    .unwrap_or_default()
                } else {
                    Position::default()
                }
            }
            StartPosition::Fen(fen) => match Position::from_fen(fen, self.options.chess960) {
                Ok(position) => position,
                Err(error) => {
                    self.out
                        .info_string(&format!("{error}; position unchanged"));
                    return;
                }
            },
        };
        let mut history = Vec::with_capacity(moves.len());
        for (index, text) in moves.iter().enumerate() {
            history.push(position.key());
            if let Err(error) = position.play_uci(text) {
                self.out.info_string(&format!(
                    "{error} (move {} of the list); position unchanged",
                    index + 1
                ));
                return;
            }
        }
        self.position = position;
        self.history = history;
    }

    fn limits(&self, params: &GoParams) -> Limits {
        let (ours, theirs, increment) = match self.position.turn() {
            Color::White => (params.wtime, params.btime, params.winc),
            Color::Black => (params.btime, params.wtime, params.binc),
        };
        let mut searchmoves = Vec::new();
        for text in &params.searchmoves {
            match self.position.parse_uci(text) {
                Ok(m) => searchmoves.push(m),
                Err(error) => self
                    .out
                    .info_string(&format!("searchmoves: {error}; ignored")),
            }
        }
        Limits {
            depth: params.depth,
            nodes: params.nodes,
            movetime: params.movetime.map(Duration::from_millis),
            // A GUI that sends only the other side's clock still gets a timed search.
            time: ours.or(theirs).map(Duration::from_millis),
            increment: Duration::from_millis(increment.unwrap_or(0)),
            movestogo: params.movestogo,
            mate: params.mate,
            infinite: params.infinite,
            searchmoves,
        }
    }

    fn go(&mut self, params: &GoParams) {
        // A go during a search ends that search first: every go gets its own bestmove.
        self.stop_search();
        if let Some(depth) = params.perft {
            let mode = self.castling_mode();
            tools::perft::divide(&self.position, depth, mode, &mut |line| self.out.line(line));
            return;
        }
        let limits = self.limits(params);
        let config = SearchConfig {
            features: self.options.features,
            eval: self.options.evaluation,
            threads: self.options.threads,
            move_overhead: Duration::from_millis(self.options.move_overhead_ms),
            ..SearchConfig::default()
        };
        let job = SearchJob {
            position: self.position.clone(),
            history: self.history.clone(),
            limits,
            config,
            tt: Arc::clone(&self.tt),
            control: Arc::clone(&self.control),
            out: self.out.clone(),
            mode: self.castling_mode(),
            hold: params.infinite || params.ponder,
        };
        self.control.begin(params.ponder);
        let spawned = std::thread::Builder::new()
            .name("search".into())
            .stack_size(8 << 20)
            .spawn(move || job.run());
        match spawned {
            Ok(handle) => self.search_thread = Some(handle),
            Err(error) => {
                // No thread: still answer, with the first legal move.
                self.out
                    .info_string(&format!("could not start the search thread: {error}"));
                let first = self.position.legal_moves().first().copied();
                self.out
                    .line(&bestmove_line(first, None, self.castling_mode()));
            }
        }
    }
}

/// Everything a search thread needs, moved into it.
struct SearchJob {
    position: Position,
    history: Vec<u64>,
    limits: Limits,
    config: SearchConfig,
    tt: Arc<TranspositionTable>,
    control: Arc<SearchControl>,
    out: Output,
    mode: CastlingMode,
    /// `go infinite` or `go ponder`: bestmove waits for stop or ponderhit.
    hold: bool,
}

impl SearchJob {
    fn run(self) {
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            let search = Search {
                position: &self.position,
                history: &self.history,
                limits: &self.limits,
                config: &self.config,
                tt: &self.tt,
                control: &self.control,
            };
            search.run(&mut |report| self.out.line(&info_line(report, self.mode)))
        }));
        if self.hold {
            while !self.control.is_stopped()
                && (self.limits.infinite || self.control.is_pondering())
            {
                std::thread::park_timeout(Duration::from_millis(5));
            }
        }
        match outcome {
            Ok(result) => {
                self.out.line(&info_line(&result.report, self.mode));
                self.out.line(&bestmove_line(
                    result.best_move,
                    result.ponder_move,
                    self.mode,
                ));
            }
            Err(_) => {
                self.out
                    .info_string("internal error in the search; playing the first legal move");
                let first = self.position.legal_moves().first().copied();
                self.out.line(&bestmove_line(first, None, self.mode));
            }
        }
    }
}

/// Formats an `info` line for a report.
pub fn info_line(report: &Report, mode: CastlingMode) -> String {
    let mut line = format!(
        "info depth {} seldepth {} multipv 1 score {}",
        report.depth,
        report.seldepth.max(report.depth),
        UciScore::from_value(report.score)
    );
    match report.bound {
        Bound::Lower => line.push_str(" lowerbound"),
        Bound::Upper if report.depth > 0 => line.push_str(" upperbound"),
        _ => {}
    }
    line.push_str(&format!(
        " nodes {} nps {} hashfull {} time {}",
        report.nodes,
        report.nps(),
        report.hashfull,
        report.elapsed.as_millis()
    ));
    if !report.pv.is_empty() {
        line.push_str(" pv");
        for &m in &report.pv {
            line.push(' ');
            line.push_str(&Position::uci(m, mode));
        }
    }
    line
}

/// Formats `bestmove <move> [ponder <move>]`, or `bestmove 0000` without a legal move.
pub fn bestmove_line(best: Option<Move>, ponder: Option<Move>, mode: CastlingMode) -> String {
    match (best, ponder) {
        (None, _) => "bestmove 0000".to_string(),
        (Some(best), None) => format!("bestmove {}", Position::uci(best, mode)),
        (Some(best), Some(ponder)) => format!(
            "bestmove {} ponder {}",
            Position::uci(best, mode),
            Position::uci(ponder, mode)
        ),
    }
}
