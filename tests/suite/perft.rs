//! Perft as users run it: our suite at depths that keep the test run quick, hash checking at
//! shallow depths, Chess960, and the `brudno perft` command line with good and bad input.

use crate::common;

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use brudno::tools::perft::{PerftArgs, run_suite};
use common::Engine;

/// The suite we ship.
const SUITE: &str = include_str!("../../epd/perft.epd");
/// Positions in it.
const SUITE_POSITIONS: usize = 35;

/// Runs the built binary; returns its exit code, standard output and standard error.
fn brudno(args: &[&str]) -> (Option<i32>, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_brudno"))
        .args(args)
        .output()
        .expect("run brudno");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// An EPD file in the temporary directory, removed when dropped.
struct TempEpd(PathBuf);

impl TempEpd {
    fn new(name: &str, text: &str) -> Self {
        let path =
            std::env::temp_dir().join(format!("brudno-perft-{}-{name}.epd", std::process::id()));
        std::fs::write(&path, text).expect("write temporary EPD");
        Self(path)
    }

    fn path(&self) -> &str {
        self.0.to_str().expect("UTF-8 temporary path")
    }
}

impl Drop for TempEpd {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn suite_lines(args: &PerftArgs) -> (brudno::tools::perft::SuiteSummary, Vec<String>) {
    let mut lines = Vec::new();
    let summary = run_suite(SUITE, args, &mut |line| lines.push(line.to_string()));
    (summary, lines)
}

#[test]
fn shipped_suite_passes_up_to_five_million_nodes_per_depth() {
    let args = PerftArgs {
        max_nodes: Some(5_000_000),
        ..PerftArgs::default()
    };
    let (summary, lines) = suite_lines(&args);
    assert_eq!(summary.passed, SUITE_POSITIONS, "{lines:#?}");
    assert!(summary.all_passed(), "{lines:#?}");
    assert_eq!(summary.skipped, 0);
    // Every position is checked to depth 3 at least (all D3 counts are below the limit).
    for line in lines.iter().filter(|l| l.starts_with("ok")) {
        let depth: u32 = line
            .split(": D")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .and_then(|d| d.parse().ok())
            .unwrap_or(0);
        assert!(depth >= 3, "{line}");
    }
}

#[test]
fn shipped_suite_keeps_the_incremental_key_exact() {
    let args = PerftArgs {
        max_nodes: Some(150_000),
        check_hash: true,
        ..PerftArgs::default()
    };
    let (summary, lines) = suite_lines(&args);
    assert_eq!(summary.passed, SUITE_POSITIONS, "{lines:#?}");
    assert!(summary.all_passed(), "{lines:#?}");
}

#[test]
fn wrong_count_fails_with_depth_expected_and_found_and_exit_status_1() {
    let epd = TempEpd::new(
        "wrong",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - ;D1 20 ;D2 400 ;D3 8903\n\
         4k3/8/8/8/8/8/8/4K2R w K - ;D1 15 ;D2 66\n",
    );
    let (code, out, _) = brudno(&["perft", "--suite", epd.path()]);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("FAIL  line 1: D3 expected 8903, found 8902"),
        "{out}"
    );
    assert!(out.contains("ok    line 2: D2 66"), "{out}");
    assert!(
        out.contains("2 positions: 1 passed, 1 failed, 0 malformed, 0 skipped"),
        "{out}"
    );
}

#[test]
fn malformed_lines_are_reported_and_the_rest_still_runs() {
    let epd = TempEpd::new(
        "malformed",
        "4k3/8/8/8/8/8/8/4K2R w K - ;D1 15 ;D2 66\n\
         this is not EPD\n\
         4k3/8/8/8/8/8/8/4K2X w K - ;D1 15\n\
         4k3/8/8/8/8/8/8/4K2R w K - ;D2 sixty-six\n\
         \n\
         4k3/8/8/8/8/8/8/R3K3 w Q - ;D1 16 ;D2 71\n",
    );
    let (code, out, _) = brudno(&["perft", "--suite", epd.path()]);
    assert_eq!(code, Some(1), "{out}");
    for line in [2, 3, 4] {
        assert!(out.contains(&format!("error line {line}: ")), "{out}");
    }
    assert!(out.contains("ok    line 1: D2 66"), "{out}");
    assert!(out.contains("ok    line 6: D2 71"), "{out}");
    assert!(
        out.contains("5 positions: 2 passed, 0 failed, 3 malformed, 0 skipped"),
        "{out}"
    );
}

#[test]
fn unreadable_suite_file_is_an_error_not_a_panic() {
    let missing = std::env::temp_dir().join("brudno-perft-no-such-file.epd");
    let (code, out, err) = brudno(&["perft", "--suite", missing.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(err.contains("cannot read"), "{err}");
}

#[test]
fn suite_with_limits_and_hash_check_passes_on_the_command_line() {
    let (code, out, _) = brudno(&[
        "perft",
        "--suite",
        concat!(env!("CARGO_MANIFEST_DIR"), "/epd/perft.epd"),
        "--max-depth",
        "2",
        "--check-hash",
    ]);
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains(&format!(
            "{SUITE_POSITIONS} positions: {SUITE_POSITIONS} passed, 0 failed"
        )),
        "{out}"
    );
}

#[test]
fn divide_prints_stockfish_layout_with_time_and_rate() {
    let (code, out, _) = brudno(&["perft", "3", "--divide"]);
    assert_eq!(code, Some(0), "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 20 + 1 + 3, "{out}");
    assert!(lines.contains(&"e2e4: 600"), "{out}");
    assert!(lines.contains(&"g1f3: 440"), "{out}");
    let sum: u64 = lines[..20]
        .iter()
        .map(|l| l.split(": ").nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 8902);
    assert_eq!(lines[20], "");
    assert_eq!(lines[21], "Nodes searched: 8902");
    assert!(lines[22].starts_with("Time (ms)"), "{out}");
    assert!(lines[23].starts_with("Nodes/second"), "{out}");
}

#[test]
fn single_position_with_fen_and_hash_check() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let (code, out, _) = brudno(&["perft", "3", "--fen", fen, "--check-hash"]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.starts_with("Nodes searched: 97862\n"), "{out}");
}

#[test]
fn chess960_castling_letters_select_chess960_and_castling_is_king_takes_rook() {
    // King f1, rook g1: castling is legal at once, and king and rook trade squares.
    let shredder = "qnrbbkrn/pppppppp/8/8/8/8/PPPPPPPP/QNRBBKRN w GCgc - 0 1";
    let (code, out, _) = brudno(&["perft", "3", "--fen", shredder, "--divide"]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.lines().any(|l| l.starts_with("f1g1: ")), "{out}");
    assert!(out.contains("Nodes searched: 8900"), "{out}");
    // X-FEN letters with the king off the e-file select Chess960 too.
    let xfen = "qnrbbkrn/pppppppp/8/8/8/8/PPPPPPPP/QNRBBKRN w KQkq - 0 1";
    let (code, out, _) = brudno(&["perft", "3", "--fen", xfen]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("Nodes searched: 8900"), "{out}");
}

#[test]
fn chess960_flag_writes_standard_castling_as_king_takes_rook() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let (_, standard, _) = brudno(&["perft", "1", "--fen", fen, "--divide"]);
    let (code, chess960, _) = brudno(&["perft", "1", "--fen", fen, "--divide", "--chess960"]);
    assert_eq!(code, Some(0));
    assert!(standard.contains("e1g1: 1") && standard.contains("e1c1: 1"));
    assert!(chess960.contains("e1h1: 1") && chess960.contains("e1a1: 1"));
    assert!(standard.contains("Nodes searched: 26") && chess960.contains("Nodes searched: 26"));
}

#[test]
fn bad_fen_and_bad_arguments_fail_without_panicking() {
    let (code, _, err) = brudno(&["perft", "2", "--fen", "rnbqkbnr/pppppppp/8 w KQkq"]);
    assert_eq!(code, Some(1));
    assert!(err.contains("bad FEN"), "{err}");
    let (code, _, err) = brudno(&["perft", "2", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"]);
    assert_eq!(code, Some(1));
    assert!(err.contains("illegal position"), "{err}");
    // clap's usage errors exit with 2.
    for args in [
        &["perft"][..],
        &["perft", "0"],
        &["perft", "x"],
        &["perft", "3", "--max-depth", "2"],
        &["perft", "--suite", "a.epd", "--divide"],
    ] {
        let (code, _, err) = brudno(args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
    }
}

#[test]
fn uci_go_perft_prints_divide_in_stockfish_layout() {
    let mut engine = Engine::start();
    engine.send("position startpos moves e2e4");
    engine.send("go perft 2");
    let lines = engine.read_until(Duration::from_secs(30), |l| l.starts_with("Nodes searched"));
    assert_eq!(lines.last().unwrap(), "Nodes searched: 600");
    assert_eq!(lines.len(), 20 + 2, "{lines:?}");
    assert!(lines.contains(&"e7e5: 29".to_string()), "{lines:?}");
    engine.sync();
}
