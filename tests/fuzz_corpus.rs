//! Every input the fuzzers kept, replayed on the stable toolchain: the minimised corpus of each
//! target (`fuzz/corpus/<target>/`) and every input that once crashed it
//! (`fuzz/regressions/<target>/`), through the same `brudno::fuzzing` function the libFuzzer
//! target calls. Each input must return, and the target's own invariants must hold for it
//! (a FEN's round trip, one `bestmove` per `go`, a book or network loaded or refused with a
//! message...; see `src/fuzzing/`). No nightly feature and no libFuzzer is needed, so CI
//! replays everything the fuzzers found on every run (docs/fuzzing.md).
//!
//! Built with `--release` there are no overflow checks, unlike the fuzz build: an arithmetic
//! overflow that the fuzzer reported is only caught here when it is also checked in the code.

mod common;
mod fuzz_seeds;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::time::Duration;

use brudno::eval::nnue::{Accumulator, Network, QA, QB, SCALE};
use brudno::fuzzing::{self, TARGETS};
use brudno::position::Position;
use common::Engine;

fn fuzz_folder() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz")
}

/// The files of `fuzz/<kind>/<target>/`, sorted.
fn files(kind: &str, target: &str) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(fuzz_folder().join(kind).join(target)) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

/// Runs `target` on each file; the files whose input panicked, with the message.
fn replay(target: &str, files: &[PathBuf]) -> Vec<String> {
    let run = fuzzing::target(target)
        .unwrap_or_else(|| panic!("no fuzz target {target}"))
        .run;
    let mut failures = Vec::new();
    for file in files {
        let data = std::fs::read(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        if let Err(panic) = catch_unwind(AssertUnwindSafe(|| run(&data))) {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            failures.push(format!("{}: {message}", file.display()));
        }
    }
    failures
}

/// Replays the corpus and the regressions of `target`.
fn replay_target(target: &str) {
    let corpus = files("corpus", target);
    assert!(!corpus.is_empty(), "fuzz/corpus/{target}/ is empty");
    let regressions = files("regressions", target);
    let mut failures = replay(target, &corpus);
    failures.extend(replay(target, &regressions));
    assert!(
        failures.is_empty(),
        "{} of {} inputs of {target} failed:\n{}",
        failures.len(),
        corpus.len() + regressions.len(),
        failures.join("\n")
    );
}

/// One test per target, so that a failure names it, and the list of the targets replayed.
macro_rules! replayed {
    ($($target:ident),* $(,)?) => {
        const REPLAYED: &[&str] = &[$(stringify!($target)),*];
        $(
            #[test]
            fn $target() {
                replay_target(stringify!($target));
            }
        )*
    };
}

replayed!(
    uci_line,
    uci_session,
    fen,
    moves,
    epd,
    book,
    network,
    syzygy_path,
    packed,
    trace_tree,
    lab_request,
);

/// Every target of the library has a libFuzzer wrapper in `fuzz/fuzz_targets/` and is
/// replayed here, and nothing else is there.
#[test]
fn every_target_is_fuzzed_and_replayed() {
    let mut wrappers: Vec<String> = std::fs::read_dir(fuzz_folder().join("fuzz_targets"))
        .expect("fuzz/fuzz_targets")
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.strip_suffix(".rs").map(str::to_string)
        })
        .collect();
    wrappers.sort();
    let mut names: Vec<String> = TARGETS.iter().map(|t| t.name.to_string()).collect();
    names.sort();
    let mut replayed: Vec<String> = REPLAYED.iter().map(|s| s.to_string()).collect();
    replayed.sort();
    assert_eq!(
        wrappers, names,
        "fuzz/fuzz_targets/ and brudno::fuzzing::TARGETS"
    );
    assert_eq!(replayed, names, "the targets replayed here and TARGETS");
    let manifest = std::fs::read_to_string(fuzz_folder().join("Cargo.toml")).expect("Cargo.toml");
    for name in &names {
        assert!(
            manifest.contains(&format!("name = \"{name}\"")),
            "{name} is not a [[bin]] of fuzz/Cargo.toml"
        );
    }
}

/// Writes the seed corpus (`fuzz_seeds`) into `fuzz/corpus/<target>/seed-*`. Not a check:
/// run it by name, with `--ignored`, to start a corpus afresh (docs/fuzzing.md).
#[test]
#[ignore = "writes the seed corpus; run by name with --ignored"]
fn seeds_are_written() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (target, seeds) in fuzz_seeds::seeds(root) {
        assert!(!seeds.is_empty(), "no seeds for {target}");
        let folder = fuzz_folder().join("corpus").join(target);
        std::fs::create_dir_all(&folder).expect("corpus folder");
        for (index, seed) in seeds.iter().enumerate() {
            std::fs::write(folder.join(format!("seed-{index:04}")), seed).expect("seed");
        }
        println!("{target}: {} seeds", seeds.len());
    }
}

/// An `EvalFile` that is not a regular file must be refused like any other bad file, and the
/// engine must go on answering. Found reading the `EvalFile` path while writing the `network`
/// target (which loads only scratch files, so that no fuzz input picks a file to read): the
/// loader reads whatever the path names, to its end. A FIFO blocks the reader thread for good
/// (`isready` is never answered); `/dev/zero` is read until the memory runs out (here the
/// 1 GiB the engine is given; without a limit, all the machine has). Now the network loader,
/// like the book's (`Book::load`), checks for a regular file of a plausible length first.
#[test]
fn an_eval_file_that_is_not_a_file_is_refused() {
    let mut engine = Engine::start_with_address_space_limit(1 << 20);
    engine.send("setoption name EvalFile value /dev/zero");
    engine.send("isready");
    let lines = engine.read_until(Duration::from_secs(60), |line| line == "readyok");
    let note = lines.iter().find(|l| l.starts_with("info string EvalFile"));
    assert!(
        note.is_some_and(|n| !n.contains("memory")),
        "/dev/zero read until the memory ran out: {lines:?}"
    );
    let fifo = std::env::temp_dir().join(format!("brudno-fifo-{}.nnue", std::process::id()));
    let _ = std::fs::remove_file(&fifo);
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    engine.send(&format!("setoption name EvalFile value {}", fifo.display()));
    engine.send("isready");
    let lines = engine.read_until(Duration::from_secs(10), |line| line == "readyok");
    let _ = std::fs::remove_file(&fifo);
    assert!(
        lines.iter().any(|l| l == "readyok"),
        "a FIFO as EvalFile blocks the engine: {lines:?}"
    );
}

/// `fuzz/regressions/network/output-bias-overflow*`, found by the `network` target (the first
/// in two minutes): the embedded network with its output bias patched to near -2^31 and the
/// checksum resealed, which `Network::output` turned into `sum / QA + b2` overflowing `i32`
/// (a panic with overflow checks, a wrong score without a word in release). Output weights
/// beyond ±128 did the same to the kernel's 16-bit product. Now the bias is added in 64 bits,
/// and a file whose output weights could overflow the kernel is refused with a message.
#[test]
fn a_network_whose_output_could_overflow_is_refused_or_scored_in_range() {
    let embedded = brudno::eval::nnue::embedded();
    let resealed = |change: &dyn Fn(&mut Network)| {
        let mut network = (*embedded).clone();
        change(&mut network);
        Network::parse(&network.to_bytes())
    };
    // A weight the 16-bit product cannot hold.
    let refused = resealed(&|n| n.w2[3] = 200);
    let why = refused.expect_err("an output weight of 200 is refused");
    assert!(why.contains("output weight 200"), "{why}");
    // Every output weight at the limit (the sum of the products would overflow 32 bits), and
    // the output biases at the ends of i32: taken, and scored within the evaluation's
    // bounds, equal to the same arithmetic done in 64 bits.
    let cases = [
        (None, i32::MIN),
        (None, i32::MAX),
        (Some(128), 0),
        (Some(-128), i32::MAX),
    ];
    for (weight, bias) in cases {
        let network = resealed(&|n| {
            n.b2.iter_mut().for_each(|b| *b = bias);
            if let Some(weight) = weight {
                n.w2.iter_mut().for_each(|w| *w = weight);
            }
        })
        .expect("weights within ±128 and any output bias are taken");
        for fen in fuzzing::network::POSITIONS {
            let position = Position::from_fen(fen, false).expect("a legal position");
            let accumulator = Accumulator::refreshed(position.board(), &network);
            let score = network.output(&accumulator, position.board(), position.turn());
            let turn = position.turn();
            let hidden = network.arch.hidden;
            let bucket = network
                .arch
                .output_bucket(position.board().occupied().count());
            let weights = &network.w2[bucket * 2 * hidden..(bucket + 1) * 2 * hidden];
            let values = accumulator.side(turn).iter().chain(accumulator.side(!turn));
            let sum: i64 = values
                .zip(weights)
                .map(|(&v, &w)| {
                    let a = i64::from(v.clamp(0, QA as i16));
                    a * a * i64::from(w)
                })
                .sum();
            let expected = ((sum / i64::from(QA) + i64::from(network.b2[bucket]))
                * i64::from(SCALE)
                / i64::from(QA * QB))
            .clamp(-20_000, 20_000);
            assert_eq!(
                i64::from(score),
                expected,
                "weight {weight:?}, bias {bias}, {fen}"
            );
        }
    }
}
