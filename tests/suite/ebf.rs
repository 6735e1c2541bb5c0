//! The search lab (`brudno ebf`): alpha-beta in every pruning-exact configuration returns the
//! minimax value, minimax visits exactly the perft tree, better ordering examines fewer leaves,
//! runs repeat exactly, and the command line prints what it promises and refuses bad input
//! without panicking.

use std::path::PathBuf;
use std::process::{Command, Output};

use brudno::position::Position;
use brudno::tools::ebf::lab::{self, LabConfig, LabPosition, LabRun, value_differences};
use brudno::tools::ebf::{load_positions, summary};
use brudno::tools::perft::perft;

/// Quiet positions where no side is mated, stalemated or drawn within three plies, so the
/// minimax tree to depth 3 is exactly the perft tree.
const FULL_WIDTH_FENS: [&str; 4] = [
    "3r1k2/4npp1/1ppr3p/p6P/P2PPPP1/1NR5/5K2/2R5 w - - 0 1",
    "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 1",
    "8/3k4/2p2n2/1p1p4/1P1P4/2P1N3/4K3/8 w - - 0 1",
    "8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - 0 1",
];

fn positions(fens: &[&str]) -> Vec<LabPosition> {
    fens.iter()
        .map(|fen| LabPosition {
            id: fen.to_string(),
            position: Position::from_fen(fen, false).unwrap(),
        })
        .collect()
}

fn measure(positions: Vec<LabPosition>, configs: &[LabConfig], depth: u32) -> LabRun {
    lab::measure(positions, configs.to_vec(), depth, false, &mut |_| {})
}

fn config_index(run: &LabRun, config: LabConfig) -> usize {
    run.configs.iter().position(|&c| c == config).unwrap()
}

#[test]
fn pruning_exact_configurations_equal_minimax_on_the_default_set() {
    let (positions, _) = load_positions(None, &mut |w| panic!("{w}")).unwrap();
    let count = positions.len();
    let run = measure(positions, &LabConfig::ALL, 3);
    let minimax = config_index(&run, LabConfig::Minimax);
    for (index, config) in run.configs.iter().enumerate() {
        if !config.is_exact() {
            continue;
        }
        for depth in 1..=3 {
            for position in 0..count {
                assert_eq!(
                    run.sample(index, depth, position).score,
                    run.sample(minimax, depth, position).score,
                    "{} vs minimax at depth {depth} on {}",
                    config.name(),
                    run.positions[position].id
                );
            }
        }
    }
    assert!(value_differences(&run, LabConfig::is_exact).is_empty());
    // Pruning really prunes: every alpha-beta configuration scores fewer leaves at depth 3.
    let minimax_leaves: u64 = run
        .samples_at(minimax, 3)
        .iter()
        .map(|s| s.stats.leaves)
        .sum();
    for config in LabConfig::ALL
        .into_iter()
        .filter(|&c| c != LabConfig::Minimax)
    {
        let leaves: u64 = run
            .samples_at(config_index(&run, config), 3)
            .iter()
            .map(|s| s.stats.leaves)
            .sum();
        assert!(leaves < minimax_leaves, "{}: {leaves}", config.name());
    }
}

#[test]
fn minimax_visits_exactly_the_perft_tree() {
    let run = measure(positions(&FULL_WIDTH_FENS), &[LabConfig::Minimax], 3);
    for (index, lab_position) in run.positions.iter().enumerate() {
        let pos = &lab_position.position;
        let perfts: Vec<u64> = (0..=3).map(|d| perft(pos, d)).collect();
        for depth in 1..=3u32 {
            let stats = run.sample(0, depth, index).stats;
            let d = depth as usize;
            assert_eq!(stats.leaves, perfts[d], "leaves d{depth} {}", pos.fen());
            assert_eq!(
                stats.nodes,
                perfts[..=d].iter().sum::<u64>(),
                "nodes d{depth} {}",
                pos.fen()
            );
            assert_eq!(stats.interior, perfts[..d].iter().sum::<u64>());
            assert_eq!(stats.legal_moves, perfts[1..=d].iter().sum::<u64>());
            assert_eq!(stats.cutoffs, 0);
        }
    }
}

#[test]
fn ordered_configurations_examine_no_more_leaves_than_generation_order() {
    let configs = [
        LabConfig::Alphabeta,
        LabConfig::MvvLva,
        LabConfig::IdTt,
        LabConfig::AlphabetaWorst,
    ];
    let run = measure(positions(&FULL_WIDTH_FENS), &configs, 4);
    let rows = summary::summarize(&run);
    for depth in 2..=4 {
        let leaves = |config| summary::row(&rows, config, depth).unwrap().leaves;
        let generation = leaves(LabConfig::Alphabeta);
        for ordered in [LabConfig::MvvLva, LabConfig::IdTt] {
            assert!(
                leaves(ordered) <= generation,
                "{} examined {} leaves, generation order {generation}, depth {depth}",
                ordered.name(),
                leaves(ordered)
            );
        }
    }
    // The deliberately bad order is worse than the good one by a wide margin at depth 4.
    let at4 = |config| summary::row(&rows, config, 4).unwrap().leaves;
    assert!(at4(LabConfig::AlphabetaWorst) > 4 * at4(LabConfig::MvvLva));
}

#[test]
fn numbers_are_identical_between_runs() {
    let fens = &FULL_WIDTH_FENS[..2];
    let first = measure(positions(fens), &LabConfig::ALL, 3);
    let second = measure(positions(fens), &LabConfig::ALL, 3);
    assert_eq!(first.samples.len(), second.samples.len());
    for (a, b) in first.samples.iter().zip(&second.samples) {
        assert_eq!((a.score, a.stats), (b.score, b.stats));
    }
    let without_time = |run: &LabRun| {
        let mut rows = summary::summarize(run);
        for row in &mut rows {
            row.seconds = 0.0;
        }
        summary::csv(&rows)
    };
    assert_eq!(without_time(&first), without_time(&second));
}

/// A file in the temporary directory, unique to this test process and `name`.
fn temp_path(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("brudno-ebf-{}-{name}", std::process::id()))
}

fn brudno(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_brudno"))
        .args(args)
        .output()
        .expect("run brudno")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn command_line_prints_the_tables_and_writes_the_files() {
    let epd = temp_path("shape.epd");
    std::fs::write(
        &epd,
        format!(
            "# three positions\n{} id \"one\";\nnot a position\n{};\n{};\n",
            &FULL_WIDTH_FENS[0][..FULL_WIDTH_FENS[0].len() - 4],
            &FULL_WIDTH_FENS[2][..FULL_WIDTH_FENS[2].len() - 4],
            &FULL_WIDTH_FENS[3][..FULL_WIDTH_FENS[3].len() - 4],
        ),
    )
    .unwrap();
    let (csv, svg, json) = (
        temp_path("out.csv"),
        temp_path("out.svg"),
        temp_path("out.json"),
    );
    let output = brudno(&[
        "ebf",
        epd.to_str().unwrap(),
        "--depth",
        "2",
        "--configs",
        "minimax,alphabeta,mvv-lva,full",
        "--csv",
        csv.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ]);
    let stdout = text(&output.stdout);
    let stderr = text(&output.stderr);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    // The bad line is reported with its number; progress goes to stderr.
    assert!(stderr.contains("line 3"), "{stderr}");
    assert!(stderr.contains("depth 2 minimax"), "{stderr}");
    assert!(
        stdout.starts_with("Brudno search lab: 3 positions"),
        "{stdout}"
    );
    assert!(stdout.contains("Leaves scored"), "{stdout}");
    // One line per configuration in the legend, the side-by-side table and each depth's table.
    for name in ["minimax", "alphabeta", "mvv-lva", "full"] {
        let rows = stdout
            .lines()
            .filter(|l| l.starts_with(&format!("  {name} ")))
            .count();
        assert_eq!(rows, 1 + 1 + 2, "{name}: {stdout}");
    }
    assert!(stdout.contains("depth 1 ") && stdout.contains("depth 2 "));
    assert!(stdout.contains("Root values: all 12 pruning-exact searches equal minimax"));
    assert!(
        stdout.contains("full is the engine as it plays"),
        "{stdout}"
    );
    assert!(stdout.contains("NOT held to equality"), "{stdout}");

    let csv_text = std::fs::read_to_string(&csv).unwrap();
    let csv_lines: Vec<&str> = csv_text.lines().collect();
    assert_eq!(csv_lines.len(), 1 + 4 * 2, "{csv_text}");
    let columns = csv_lines[0].split(',').count();
    assert!(csv_lines.iter().all(|l| l.split(',').count() == columns));
    assert!(csv_lines[1].starts_with("minimax,true,1,3,"));

    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(report["max_depth"], 2);
    assert_eq!(report["positions"].as_array().unwrap().len(), 3);
    assert_eq!(report["positions"][0]["id"], "one");
    assert_eq!(report["rows"].as_array().unwrap().len(), 8);
    assert_eq!(report["searches"].as_array().unwrap().len(), 4 * 2 * 3);
    assert_eq!(report["value_differences"].as_array().unwrap().len(), 0);

    let svg_text = std::fs::read_to_string(&svg).unwrap();
    assert!(svg_text.starts_with("<svg") && svg_text.trim_end().ends_with("</svg>"));
    // One line per configuration plus the b^d, minimal tree and b^(d/2) references.
    assert_eq!(svg_text.matches("<polyline").count(), 7, "{svg_text}");
    assert!(svg_text.contains("data-label=\"mvv-lva\""));
    assert!(svg_text.contains("b^(d/2)"));
    assert!(svg_text.contains("data-label=\"minimal tree (Knuth-Moore)\""));
    assert!(svg_text.contains("Leaves scored per position"));

    for path in [epd, csv, svg, json] {
        let _ = std::fs::remove_file(path);
    }
}

#[test]
fn bad_input_is_refused_with_a_message() {
    let refused = |args: &[&str], needle: &str| {
        let output = brudno(args);
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    };
    refused(&["ebf", "/nonexistent/positions.epd"], "cannot read");
    refused(&["ebf", "--configs", "minimax,bogus"], "alphabeta-worst");
    refused(&["ebf", "--depth", "0"], "--depth");
    refused(&["ebf", "--depth", "many"], "--depth");

    let junk = temp_path("junk.epd");
    std::fs::write(&junk, b"\xff\xfe garbage\n8/8/8 w\n").unwrap();
    refused(&["ebf", junk.to_str().unwrap()], "no position");
    let _ = std::fs::remove_file(&junk);

    let epd = temp_path("one.epd");
    std::fs::write(&epd, format!("{}\n", FULL_WIDTH_FENS[3])).unwrap();
    refused(
        &[
            "ebf",
            epd.to_str().unwrap(),
            "--depth",
            "1",
            "--csv",
            "/nonexistent/dir/out.csv",
        ],
        "cannot write",
    );
    let _ = std::fs::remove_file(&epd);
}
