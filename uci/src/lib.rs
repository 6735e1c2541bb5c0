//! The UCI protocol loop: reads commands, owns the game state, runs searches on their own thread.
//!
//! The main thread reads stdin and never waits for a search to finish on its own: `isready`
//! is answered at once even mid-search, `stop` raises the shared flag, `quit` (or the end of
//! input) stops and exits. Each `go` starts one search thread, which prints the `info` lines
//! and exactly one `bestmove`; under `infinite` or `ponder` it holds the `bestmove` until
//! `stop` or `ponderhit`. All output goes through one locked writer, a whole line at a time,
//! so lines never interleave. Wrong input is answered with at most one `info string` per
//! input line and changes nothing: a bad `position` keeps the previous position, a refused
//! `setoption` keeps the previous value. Commands that arrive during a search never
//! half-apply: `position` and most options take effect at the next `go` (the running search
//! works on its own copies), options that touch the shared table are refused until the
//! search is over, and `go` or `ucinewgame` end the running search first (it still gets its
//! `bestmove`). This module never panics on input and never blocks the reader on the search,
//! except where a command needs the search to be over.

#![warn(missing_docs)]

mod book;
pub mod command;
pub mod currmove;
mod io;
mod job;
pub mod options;
pub mod report;

use std::io::BufRead;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use shakmaty::{CastlingMode, Color};

use book::OpeningBook;
use brudno_engine::eval::nnue::Network;
use brudno_engine::position::Position;
use brudno_engine::search::history::HistoryStore;
use brudno_engine::search::level::{self, Level};
use brudno_engine::search::tablebase::{Syzygy, Tablebases};
use brudno_engine::search::tt::TranspositionTable;
use brudno_engine::search::wdl;
use brudno_engine::search::{Limits, SearchConfig, SearchControl};
use brudno_tools as tools;
use command::{Command, GoParams, StartPosition};
pub use io::Output;
use io::{LineRead, read_line};
use job::{Answer, RunningSearch, SearchJob};
use options::{Effect, Options};
use report::bestmove_line;

/// The engine's name as sent after `uci`.
pub const ENGINE_NAME: &str = concat!("Brudno ", env!("CARGO_PKG_VERSION"));
/// The engine's authors as sent after `uci`.
pub const ENGINE_AUTHOR: &str = "the Brudno developers";

pub use io::{MAX_INFO_STRING_CHARS, MAX_LINE_BYTES};

/// How long `quit` waits for the running search to write its `bestmove` before the engine
/// exits anyway (a GUI that sent `quit` wants the engine gone, not the move).
const QUIT_GRACE: Duration = Duration::from_millis(50);

/// How long the end of input waits for the running search to write its `bestmove`: longer,
/// since a script piping commands in may well read the answer.
const END_OF_INPUT_GRACE: Duration = Duration::from_secs(1);

/// The state the loop owns between commands.
struct Engine {
    out: Output,
    options: Options,
    position: Position,
    /// Keys of the positions before `position` in the game (for repetition detection).
    history: Vec<u64>,
    tt: Arc<TranspositionTable>,
    /// What the searches of this game learnt about moves (`search::histories`).
    histories: Arc<HistoryStore>,
    control: Arc<SearchControl>,
    search: Option<RunningSearch>,
    /// The Syzygy tables of `SyzygyPath`, if any were found.
    tablebases: Option<Arc<Tablebases>>,
    /// The network searches evaluate with (`EvalFile`; the embedded one by default).
    network: Arc<Network>,
    /// What was wrong with the current input line, sent as one `info string`.
    notes: Vec<String>,
    debug: bool,
    book: OpeningBook,
}

/// Runs the protocol over `input` until `quit` or the end of input, writing to `out`. Returns
/// once the last search has written its `bestmove` (or, if it cannot, after a short grace:
/// 50 ms after `quit`, 1 s after the end of input); that search's thread may still be ending.
pub fn run(mut input: impl BufRead, out: Output) {
    let options = Options::default();
    let mut engine = Engine {
        out,
        tt: Arc::new(TranspositionTable::new(options.hash_mib)),
        histories: Arc::default(),
        options,
        position: Position::default(),
        history: Vec::new(),
        control: Arc::new(SearchControl::default()),
        search: None,
        tablebases: None,
        network: brudno_engine::eval::nnue::embedded(),
        notes: Vec::new(),
        debug: false,
        book: OpeningBook::new(),
    };
    let mut bytes = Vec::new();
    loop {
        match read_line(&mut input, &mut bytes) {
            LineRead::End => break,
            LineRead::TooLong(length) => {
                engine.out.info_string(&format!(
                    "line of {length} bytes ignored: the limit is {MAX_LINE_BYTES} bytes"
                ));
                continue;
            }
            LineRead::Line => {}
        }
        let line = command::decode_line(&bytes);
        let parsed = command::parse(&line);
        engine.notes = parsed.warnings;
        if parsed.command == Command::Quit {
            engine.flush_notes();
            engine.finish_search_before_exit(QUIT_GRACE);
            return;
        }
        engine.handle(parsed.command);
        engine.flush_notes();
    }
    engine.finish_search_before_exit(END_OF_INPUT_GRACE);
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
                self.tt.clear(self.options.threads);
                self.histories.clear();
            }
            Command::Position { start, moves } => self.set_position(&start, &moves),
            Command::Go(params) => self.go(&params),
            // A stop with no search running is the usual race with a bestmove just sent.
            Command::Stop => self.wake_search(|control| control.stop()),
            Command::PonderHit => {
                // Only a pondering search may be turned into a timed one: a stray ponderhit
                // must not restart the clock of a normal search.
                if self.is_searching() && self.control.is_pondering() {
                    self.wake_search(|control| control.ponderhit());
                } else {
                    self.notes
                        .push("ponderhit ignored: no search is pondering".to_string());
                }
            }
            Command::Bench(depth) => {
                self.stop_search();
                let summary = tools::bench::run(depth, self.options.evaluation, &mut |line| {
                    self.out.line(line)
                });
                self.out.line(&summary);
            }
            Command::Display => {
                for line in tools::display::board(&self.position) {
                    self.out.line(&line);
                }
            }
            Command::Unknown(message) => self.notes.push(message),
        }
    }

    /// Sends what was wrong with the current line as one `info string`, if anything was: how
    /// many problems and the first few.
    fn flush_notes(&mut self) {
        const SHOWN: usize = 3;
        if self.notes.is_empty() {
            return;
        }
        let shown = self.notes[..self.notes.len().min(SHOWN)].join("; ");
        if self.notes.len() > SHOWN {
            // The count goes first so that cutting a long line cannot hide it.
            let count = self.notes.len();
            self.out
                .info_string(&format!("{count} problems, the first {SHOWN}: {shown}"));
        } else {
            self.out.info_string(&shown);
        }
        self.notes.clear();
    }

    /// Whether a search runs whose `bestmove` has not been written yet.
    fn is_searching(&self) -> bool {
        self.search
            .as_ref()
            .is_some_and(|search| !search.answer.due.load(Ordering::SeqCst))
    }

    /// Applies `signal` to the search control and wakes the search thread if it holds its
    /// `bestmove` (it parks between checks).
    fn wake_search(&self, signal: impl FnOnce(&SearchControl)) {
        signal(&self.control);
        if let Some(search) = &self.search {
            search.handle.thread().unpark();
        }
    }

    /// Stops the running search, if any, and waits for its `bestmove`.
    fn stop_search(&mut self) {
        if let Some(search) = self.search.take() {
            self.control.stop();
            search.handle.thread().unpark();
            let _ = search.handle.join();
        }
    }

    /// On `quit` or the end of input: stops the search and gives it `grace` to write its
    /// `bestmove`. The thread is not joined: once its answer is out, or the grace is over (its
    /// output blocked by a GUI that no longer reads), it ends with the process.
    fn finish_search_before_exit(&mut self, grace: Duration) {
        let Some(search) = self.search.take() else {
            return;
        };
        self.control.stop();
        search.handle.thread().unpark();
        let deadline = Instant::now() + grace;
        while !search.answer.written.load(Ordering::SeqCst) {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return;
            }
            // The search thread unparks this one once it has written its answer.
            std::thread::park_timeout(left);
        }
    }

    fn castling_mode(&self) -> CastlingMode {
        if self.options.chess960 {
            CastlingMode::Chess960
        } else {
            self.position.castling_mode()
        }
    }

    /// `setoption`. During a search, options that only the next search reads (Move Overhead,
    /// Ponder, UCI_Chess960, the Syzygy options: a running search keeps its tables) are stored
    /// at once; options that would change the table under the running search (Hash, Clear
    /// Hash, Threads) are refused with a message.
    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let resource = ["hash", "clear hash", "threads"]
            .iter()
            .any(|n| n.eq_ignore_ascii_case(name.trim()));
        if resource && self.is_searching() {
            self.notes.push(format!(
                "option {name} not changed: a search is running (send stop first)"
            ));
            return;
        }
        match self.options.set(name, value) {
            Err(message) => self.notes.push(message),
            Ok(change) => {
                self.notes.extend(change.messages);
                match change.effect {
                    Effect::None => {}
                    Effect::Threads => {
                        // Parked helpers beyond the new count end.
                        brudno_engine::search::pool::retain(self.options.threads - 1);
                    }
                    Effect::ClearHash => {
                        // The last search has answered; let its thread end before the table
                        // is emptied.
                        self.stop_search();
                        self.tt.clear(self.options.threads);
                    }
                    Effect::ResizeHash => self.resize_hash(),
                    Effect::LoadNetwork => {
                        let message = match tools::evalfile::load(&self.options.eval_file) {
                            Ok((network, message)) => {
                                self.network = network;
                                message
                            }
                            Err(why) => why,
                        };
                        self.notes.push(message);
                    }
                    Effect::LoadSyzygy => {
                        // A running search keeps the tables it started with.
                        let (tables, messages) = Tablebases::load(&self.options.syzygy_path);
                        self.tablebases = tables;
                        for message in messages {
                            self.out.info_string(&message);
                        }
                    }
                    Effect::LoadBook | Effect::UseBook => {
                        let reload = change.effect == Effect::LoadBook;
                        self.notes.extend(self.book.update(&self.options, reload));
                    }
                }
            }
        }
    }

    fn resize_hash(&mut self) {
        // The last search has answered (checked by the caller); join its thread so that this
        // is the only owner of the table.
        self.stop_search();
        let wanted = self.options.hash_mib;
        let Some(tt) = Arc::get_mut(&mut self.tt) else {
            self.notes
                .push("option Hash not changed: the table is in use".to_string());
            return;
        };
        let got = tt.resize(wanted);
        if got != wanted {
            self.notes.push(format!(
                "option Hash: could not allocate {wanted} MiB, using {got} MiB"
            ));
            self.options.hash_mib = got;
        }
    }

    /// `position`: builds the new position and history aside and replaces the current ones
    /// only when every part was valid.
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
                    self.notes.push(format!("{error}; position unchanged"));
                    return;
                }
            },
        };
        let mut history = Vec::with_capacity(moves.len());
        for (index, text) in moves.iter().enumerate() {
            history.push(position.key());
            if let Err(error) = position.play_uci(text) {
                self.notes.push(format!(
                    "{error} (move {} of the list); position unchanged",
                    index + 1
                ));
                return;
            }
        }
        self.position = position;
        self.history = history;
    }

    fn limits(&mut self, params: &GoParams) -> Limits {
        let (ours, theirs, increment) = match self.position.turn() {
            Color::White => (params.wtime, params.btime, params.winc),
            Color::Black => (params.btime, params.wtime, params.binc),
        };
        let mut searchmoves = Vec::new();
        let mut refused = Vec::new();
        for text in &params.searchmoves {
            match self.position.parse_uci(text) {
                Ok(m) => searchmoves.push(m),
                Err(_) => refused.push(text.as_str()),
            }
        }
        if !refused.is_empty() {
            let shown: Vec<&str> = refused.iter().take(5).copied().collect();
            let more = refused.len() - shown.len();
            self.notes.push(format!(
                "searchmoves: {} not legal here, ignored{}{}",
                shown.join(" "),
                if more > 0 {
                    format!(" (and {more} more)")
                } else {
                    String::new()
                },
                if searchmoves.is_empty() {
                    "; searching every move"
                } else {
                    ""
                }
            ));
        }
        Limits {
            depth: params.depth,
            nodes: params.nodes,
            soft_nodes: None,
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
            self.flush_notes();
            let mode = self.castling_mode();
            tools::perft::divide(&self.position, depth, mode, &mut |line| self.out.line(line));
            return;
        }
        let limits = self.limits(params);
        // The warnings about this go come before its search's output.
        self.flush_notes();
        let mode = self.castling_mode();
        if let Some((info, mv)) = self.book.probe(&self.options, &self.position, params, mode) {
            self.out.info_string(&info);
            self.out.line(&format!("bestmove {mv}"));
            return;
        }
        // A weaker level: fewer nodes, and the move chosen among several lines.
        let mut limits = limits;
        let level = self
            .options
            .limit_strength
            .then(|| Level::new(self.options.elo));
        if let Some(level) = level {
            limits.nodes = Some(limits.nodes.map_or(level.nodes(), |n| n.min(level.nodes())));
        }
        let multipv = match level {
            Some(_) => self.options.multipv.max(level::LINES),
            None => self.options.multipv,
        };
        let config = SearchConfig {
            features: self.options.features,
            eval: match level {
                Some(_) => level::EVALUATION,
                None => self.options.evaluation,
            },
            network: Arc::clone(&self.network),
            threads: self.options.threads,
            multipv,
            move_overhead: Duration::from_millis(self.options.move_overhead_ms),
            syzygy: self.tablebases.as_ref().map(|tables| Syzygy {
                tables: Arc::clone(tables),
                probe_depth: self.options.syzygy_probe_depth,
                probe_limit: self.options.syzygy_probe_limit,
                rule50: self.options.syzygy_50_move_rule,
            }),
            ..SearchConfig::default()
        };
        let answer = Arc::new(Answer::default());
        let job = SearchJob {
            position: self.position.clone(),
            history: self.history.clone(),
            limits,
            config,
            tt: Arc::clone(&self.tt),
            control: Arc::clone(&self.control),
            histories: Arc::clone(&self.histories),
            out: self.out.clone(),
            mode: self.castling_mode(),
            hold: params.infinite || params.ponder,
            level,
            wdl_material: self.options.show_wdl.then(|| wdl::material(&self.position)),
            answer: Arc::clone(&answer),
            reader: std::thread::current(),
        };
        self.control.begin(params.ponder);
        let spawned = std::thread::Builder::new()
            .name("search".into())
            .stack_size(8 << 20)
            .spawn(move || job.run());
        match spawned {
            Ok(handle) => self.search = Some(RunningSearch { handle, answer }),
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
