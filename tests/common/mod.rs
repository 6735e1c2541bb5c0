//! Helpers shared by the integration tests: searching a position with a chosen configuration,
//! generating varied positions from fixed-seed random playouts, exhaustive mate solvers, and
//! running the binary.

#![allow(dead_code)]

pub mod hardening;

use brudno::position::Position;
use brudno::rng::splitmix64;
use brudno::search::MoveOrder;
use brudno::search::tt::TranspositionTable;
use brudno::search::{Limits, Search, SearchConfig, SearchControl, SearchResult};

/// Searches `position` (after `history`) with `config` and `limits` on a fresh table.
pub fn search_with(
    position: &Position,
    history: &[u64],
    config: &SearchConfig,
    limits: &Limits,
) -> SearchResult {
    let tt = TranspositionTable::new(16);
    let control = SearchControl::default();
    control.begin(false);
    Search {
        position,
        history,
        limits,
        config,
        tt: &tt,
        control: &control,
        histories: None,
    }
    .run(&mut |_| {})
}

/// The engine as it plays.
pub fn engine_config() -> SearchConfig {
    SearchConfig::default()
}

/// A bare fixed-depth search: no table, no quiescence, no iterative deepening.
pub fn bare_config(pruning: bool, order: MoveOrder) -> SearchConfig {
    SearchConfig {
        pruning,
        order,
        ..SearchConfig::lab_baseline()
    }
}

/// `count` positions reached by random legal playouts of 8 to 80 plies from the start
/// position (fixed seed), skipping positions where the game is over.
pub fn random_positions(count: usize, seed: u64) -> Vec<Position> {
    let mut state = seed;
    let mut positions = Vec::with_capacity(count);
    while positions.len() < count {
        state = splitmix64(state);
        let plies = 8 + (state % 73) as usize;
        let mut pos = Position::default();
        let mut ok = true;
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.is_insufficient_material() {
                ok = false;
                break;
            }
            state = splitmix64(state);
            pos = pos.play(moves[(state % moves.len() as u64) as usize]);
        }
        if ok && !pos.legal_moves().is_empty() {
            positions.push(pos);
        }
    }
    positions
}

/// An exhaustive mate solver, independent of the search: whether the side to move can force
/// mate in at most `moves` moves.
pub fn has_mate_in(pos: &Position, moves: u32) -> bool {
    moves > 0
        && pos
            .legal_moves()
            .iter()
            .any(|&m| is_mated_within(&pos.play(m), moves - 1))
}

/// Whether the side to move is checkmated now or within `moves` more moves of the opponent,
/// whatever it plays.
pub fn is_mated_within(pos: &Position, moves: u32) -> bool {
    let legal = pos.legal_moves();
    if legal.is_empty() {
        return pos.is_check();
    }
    moves > 0 && legal.iter().all(|&m| has_mate_in(&pos.play(m), moves))
}

/// The exhaustive mate solver with a memory of proven positions, for mates too deep for
/// `has_mate_in` (a mate in 5 is 9 plies of every move). Independent of the search: it only
/// makes legal moves and looks for checkmate.
#[derive(Default)]
pub struct MateSolver {
    /// (key, moves) -> whether the side to move there mates in at most that many moves.
    known: std::collections::HashMap<(u64, u32), bool>,
}

impl MateSolver {
    /// Whether the side to move can force mate in at most `moves` moves.
    pub fn has_mate_in(&mut self, pos: &Position, moves: u32) -> bool {
        if moves == 0 {
            return false;
        }
        if let Some(&known) = self.known.get(&(pos.key(), moves)) {
            return known;
        }
        let found = pos
            .legal_moves()
            .iter()
            .any(|&m| self.is_mated_within(&pos.play(m), moves - 1));
        self.known.insert((pos.key(), moves), found);
        found
    }

    /// Whether the side to move is mated now or within `moves` more moves of the opponent.
    pub fn is_mated_within(&mut self, pos: &Position, moves: u32) -> bool {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            return pos.is_check();
        }
        moves > 0 && legal.iter().all(|&m| self.has_mate_in(&pos.play(m), moves))
    }
}

/// Runs the `brudno` binary with `args` and returns its exit status, stdout and stderr.
pub fn run_brudno(args: &[&str]) -> (std::process::ExitStatus, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_brudno"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run brudno");
    (
        output.status,
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A running `brudno` process spoken to over UCI.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every line received so far.
    pub transcript: Vec<String>,
}

impl Engine {
    /// Starts the engine binary built by cargo for these tests.
    pub fn start() -> Self {
        Self::spawn(Command::new(env!("CARGO_BIN_EXE_brudno")))
    }

    /// Starts the engine with its address space limited to `kib` KiB (`ulimit -v`), so that
    /// memory limits can be tested without using the machine's memory.
    pub fn start_with_address_space_limit(kib: u64) -> Self {
        let mut command = Command::new("sh");
        command
            .arg("-c")
            .arg(format!("ulimit -v {kib} && exec \"$0\""))
            .arg(env!("CARGO_BIN_EXE_brudno"));
        Self::spawn(command)
    }

    fn spawn(mut command: Command) -> Self {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start brudno");
        let stdout = child.stdout.take().unwrap();
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Self {
            child,
            stdin,
            lines,
            transcript: Vec::new(),
        }
    }

    /// Sends raw bytes (no newline added).
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        self.send_raw(format!("{line}\n").as_bytes());
    }

    /// Closes the engine's input (end of file).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// The next line, waiting at most `timeout`.
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => {
                self.transcript.push(line.clone());
                Some(line)
            }
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Reads lines until one satisfies `done`; returns all of them (the last one included).
    /// Panics with the transcript if none does within `timeout`.
    pub fn read_until(&mut self, timeout: Duration, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some(line) => {
                    let finished = done(&line);
                    seen.push(line);
                    if finished {
                        return seen;
                    }
                }
                None => panic!(
                    "no expected line within {timeout:?}; transcript:\n{}",
                    self.transcript.join("\n")
                ),
            }
        }
    }

    /// Reads until `bestmove` and returns that line's move.
    pub fn bestmove(&mut self, timeout: Duration) -> String {
        self.search_lines(timeout).1
    }

    /// Reads until `bestmove`; returns every line read (the `bestmove` line last) and the
    /// move of the `bestmove` line.
    pub fn search_lines(&mut self, timeout: Duration) -> (Vec<String>, String) {
        let lines = self.read_until(timeout, |l| l.starts_with("bestmove"));
        let best = lines
            .last()
            .unwrap()
            .split_whitespace()
            .nth(1)
            .unwrap_or_default()
            .to_string();
        (lines, best)
    }

    /// Sends `uci` and returns the lines up to and including `uciok`.
    pub fn handshake(&mut self) -> Vec<String> {
        self.send("uci");
        self.read_until(Duration::from_secs(10), |l| l == "uciok")
    }

    /// All lines that arrive within `wait`.
    pub fn drain(&mut self, wait: Duration) -> Vec<String> {
        let mut lines = Vec::new();
        while let Some(line) = self.next_line(wait) {
            lines.push(line);
        }
        lines
    }

    /// Sends `isready` and waits for `readyok`, returning the lines before it.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        self.read_until(Duration::from_secs(10), |l| l == "readyok")
    }

    /// Waits for the process to exit; returns whether it did within `timeout`.
    pub fn wait_exit(&mut self, timeout: Duration) -> bool {
        self.exit_status(timeout).is_some()
    }

    /// Waits for the process to exit; its exit status, or `None` if it still runs after
    /// `timeout`.
    pub fn exit_status(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        None
    }

    /// Sends `d` and returns the FEN of the engine's current position.
    pub fn fen(&mut self) -> String {
        self.send("d");
        let lines = self.read_until(Duration::from_secs(10), |l| l.starts_with("Fen: "));
        lines.last().unwrap()["Fen: ".len()..].to_string()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Whether `uci_move` is legal after `position startpos moves ...` / `position fen ...`.
pub fn is_legal_after(fen: Option<&str>, moves: &[&str], uci_move: &str) -> bool {
    let mut pos = match fen {
        Some(fen) => Position::from_fen(fen, false).unwrap(),
        None => Position::default(),
    };
    for m in moves {
        pos.play_uci(m).unwrap();
    }
    pos.parse_uci(uci_move).is_ok()
}

/// A writer into a buffer shared with the test, for the in-process UCI loop.
#[derive(Clone, Default)]
pub struct SharedBuffer(pub Arc<Mutex<Vec<u8>>>);

impl Write for SharedBuffer {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl SharedBuffer {
    /// The lines written so far.
    pub fn lines(&self) -> Vec<String> {
        String::from_utf8_lossy(&self.0.lock().unwrap())
            .lines()
            .map(str::to_string)
            .collect()
    }
}

/// Runs the UCI loop in this process over `input` until its end and returns what it wrote.
/// A search still running at the end of input is stopped; if its thread has not written its
/// `bestmove` when the loop returns (a slow machine), this waits for up to `expected_bestmoves`
/// of them for a few seconds.
pub fn run_in_process(input: &[u8], expected_bestmoves: usize) -> Vec<String> {
    let buffer = SharedBuffer::default();
    brudno::uci::run(input, brudno::uci::Output::new(Box::new(buffer.clone())));
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let lines = buffer.lines();
        let bestmoves = lines.iter().filter(|l| l.starts_with("bestmove")).count();
        if bestmoves >= expected_bestmoves || Instant::now() > deadline {
            return lines;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}
