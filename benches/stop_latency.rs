//! Stop latency through the real binary: the time from writing `stop` to reading `bestmove`,
//! over 1,000 searches of each kind, and the time from writing `quit` mid-search to the
//! process's exit. Run with `cargo bench --bench stop_latency`.
//!
//! Three kinds of search are stopped: a search in progress (`go infinite`, stopped 1 to 10 ms
//! after its first iteration, so that `stop` lands at varied points of the tree), a search that
//! has finished and holds its `bestmove` (`go infinite depth 1`, parked until `stop`), and a
//! ponder search. The target is a worst case below 10 ms. As a baseline for what the pipe and
//! the operating system cost alone, the bench also times `isready` -> `readyok` during a
//! search (answered by the reader thread, no search involved): when the stop figures' tail
//! matches the baseline's, the tail is the machine's scheduling, not the engine. These
//! figures depend on the machine and its load; they are measured here and never asserted in
//! a test.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

/// Searches stopped per kind.
const SEARCHES: usize = 1000;
/// Engine processes started and quit mid-search.
const QUITS: usize = 50;

/// Middlegame positions, so that the searches are not all alike.
const FENS: [&str; 4] = [
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR b KQkq - 3 3",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
];

struct Engine {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    line: String,
}

impl Engine {
    fn start() -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_brudno"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start brudno");
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        let mut engine = Self {
            child,
            input,
            output,
            line: String::new(),
        };
        engine.send("uci");
        engine.wait_for(|l| l == "uciok");
        engine.send("isready");
        engine.wait_for(|l| l == "readyok");
        engine
    }

    fn send(&mut self, line: &str) {
        self.input.write_all(line.as_bytes()).unwrap();
        self.input.write_all(b"\n").unwrap();
        self.input.flush().unwrap();
    }

    /// Reads lines until one satisfies `done` and returns it.
    fn wait_for(&mut self, done: impl Fn(&str) -> bool) -> String {
        loop {
            self.line.clear();
            let read = self.output.read_line(&mut self.line).unwrap();
            assert!(read > 0, "the engine closed its output");
            let line = self.line.trim_end();
            if done(line) {
                return line.to_string();
            }
        }
    }

    /// Sends `stop` and returns the time until `bestmove` was read.
    fn stop_latency(&mut self) -> Duration {
        self.round_trip("stop", "bestmove")
    }

    /// Sends `command` and returns the time until a line starting with `answer` was read.
    fn round_trip(&mut self, command: &str, answer: &str) -> Duration {
        let written = Instant::now();
        self.send(command);
        self.wait_for(|l| l.starts_with(answer));
        written.elapsed()
    }
}

/// Median, 99th percentile, worst and mean of `samples`, in milliseconds.
fn summary(name: &str, samples: &mut [Duration]) {
    samples.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let mean = samples.iter().map(|&d| ms(d)).sum::<f64>() / samples.len() as f64;
    println!(
        "{name:<28} n={:<5} median {:>7.3} ms   p99 {:>7.3} ms   worst {:>7.3} ms   mean {:>7.3} ms",
        samples.len(),
        ms(samples[samples.len() / 2]),
        ms(samples[samples.len() * 99 / 100]),
        ms(samples[samples.len() - 1]),
        mean,
    );
}

fn main() {
    let mut engine = Engine::start();

    let mut searching = Vec::with_capacity(SEARCHES);
    for i in 0..SEARCHES {
        engine.send(&format!("position fen {}", FENS[i % FENS.len()]));
        engine.send("go infinite");
        engine.wait_for(|l| l.starts_with("info depth 1 "));
        std::thread::sleep(Duration::from_millis(1 + (i % 10) as u64));
        searching.push(engine.stop_latency());
    }

    let mut ready = Vec::with_capacity(SEARCHES);
    engine.send(&format!("position fen {}", FENS[0]));
    engine.send("go infinite");
    engine.wait_for(|l| l.starts_with("info depth 1 "));
    for i in 0..SEARCHES {
        std::thread::sleep(Duration::from_millis(1 + (i % 10) as u64));
        ready.push(engine.round_trip("isready", "readyok"));
    }
    engine.stop_latency();

    let mut holding = Vec::with_capacity(SEARCHES);
    for i in 0..SEARCHES {
        engine.send(&format!("position fen {}", FENS[i % FENS.len()]));
        engine.send("go infinite depth 1");
        engine.wait_for(|l| l.starts_with("info depth 1 "));
        // Past one park timeout of the holding search thread, and at varied points of the next.
        std::thread::sleep(Duration::from_millis(6 + (i % 5) as u64));
        holding.push(engine.stop_latency());
    }

    let mut pondering = Vec::with_capacity(SEARCHES);
    for i in 0..SEARCHES {
        engine.send(&format!("position fen {}", FENS[i % FENS.len()]));
        engine.send("go ponder wtime 10000 btime 10000");
        engine.wait_for(|l| l.starts_with("info depth 1 "));
        std::thread::sleep(Duration::from_millis(1 + (i % 10) as u64));
        pondering.push(engine.stop_latency());
    }
    engine.send("quit");
    let _ = engine.child.wait();

    let mut quitting = Vec::with_capacity(QUITS);
    for i in 0..QUITS {
        let mut engine = Engine::start();
        engine.send(&format!("position fen {}", FENS[i % FENS.len()]));
        engine.send("go infinite");
        engine.wait_for(|l| l.starts_with("info depth 2 "));
        let written = Instant::now();
        engine.send("quit");
        engine.child.wait().unwrap();
        quitting.push(written.elapsed());
    }

    let mut all: Vec<Duration> = searching
        .iter()
        .chain(&holding)
        .chain(&pondering)
        .copied()
        .collect();
    summary("stop -> bestmove, searching", &mut searching);
    summary("stop -> bestmove, holding", &mut holding);
    summary("stop -> bestmove, pondering", &mut pondering);
    summary("stop -> bestmove, all", &mut all);
    summary("quit -> exit, mid-search", &mut quitting);
    summary("baseline: isready, searching", &mut ready);
}
