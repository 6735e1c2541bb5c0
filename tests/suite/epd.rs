//! EPD suites: every operation form and the SAN that real suites write, the shipped mate file
//! checked by an exhaustive solver and by the engine, and `brudno epd` run as a user runs it
//! (mates solved, JSON and CSV written, bad input reported without stopping the run).

use crate::common;

use std::path::PathBuf;

use brudno::position::Position;
use brudno::search::Limits;
use brudno::search::score::mate_in_moves;
use brudno::tools::epd::expect::{Task, read_task};
use brudno::tools::epd::notation::{MoveError, parse_move};
use brudno::tools::epd::suite::from_text;
use brudno::tools::epd::{parse_line, parse_text};
use common::{MateSolver, engine_config, run_brudno, search_with};

const MATES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/epd/mates.epd");

/// A scratch path for this test process.
fn scratch(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("brudno-epd-test-{}-{name}", std::process::id()))
}

fn uci(fen: &str, text: &str) -> Result<String, MoveError> {
    let position = Position::from_fen(fen, false).unwrap();
    parse_move(&position, text).map(|m| Position::uci(m, position.castling_mode()))
}

#[test]
fn san_as_real_suites_write_it() {
    let scholar = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 0 4";
    for text in [
        "Qxf7#", "Qxf7+", "Qxf7", "Qxf7!", "Qxf7!!", "Qxf7?!", "Qh5xf7", "Qh5-f7",
    ] {
        assert_eq!(uci(scholar, text).as_deref(), Ok("h5f7"), "{text}");
    }
    // The capture sign forgotten (CCR13 writes `am Ne4` for the knight taking on e4).
    let ccr13 = "rnbq1b1r/ppp2kpp/3p1n2/8/3PP3/8/PPP2PPP/RNBQKB1R b KQ d3 0 1";
    assert_eq!(uci(ccr13, "Ne4").as_deref(), Ok("f6e4"));
    let castles = "r3k2r/pppq1ppp/8/8/8/8/PPPQ1PPP/R3K2R w KQkq - 0 1";
    for (text, expected) in [
        ("O-O", "e1g1"),
        ("0-0", "e1g1"),
        ("O-O+", "e1g1"),
        ("O-O-O", "e1c1"),
        ("0-0-0", "e1c1"),
        ("e1c1", "e1c1"),
    ] {
        assert_eq!(uci(castles, text).as_deref(), Ok(expected), "{text}");
    }
    let en_passant = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2";
    for text in ["exd6", "exd6e.p.", "exd6ep", "e5xd6", "e5d6"] {
        assert_eq!(uci(en_passant, text).as_deref(), Ok("e5d6"), "{text}");
    }
    let promotion = "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1";
    for (text, expected) in [
        ("a8=Q+", "a7a8q"),
        ("a8Q", "a7a8q"),
        ("axb8=N", "a7b8n"),
        ("axb8N", "a7b8n"),
        ("a7a8r", "a7a8r"),
    ] {
        assert_eq!(uci(promotion, text).as_deref(), Ok(expected), "{text}");
    }
    // What stays an error: unreadable, illegal, ambiguous.
    let knights = "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1";
    assert!(matches!(uci(knights, "Nd9"), Err(MoveError::Malformed(_))));
    assert!(matches!(uci(knights, "Nd3"), Err(MoveError::Illegal(_))));
    assert!(matches!(uci(knights, "O-O"), Err(MoveError::Illegal(_))));
    assert!(matches!(uci(knights, "Nd2"), Err(MoveError::Ambiguous(..))));
    assert_eq!(uci(knights, "Nbd2").as_deref(), Ok("b1d2"));
}

const EVERY_FORM: &str = r#"
# bm with several moves, an id with spaces
2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6 Qh3!; id "WAC 1";
3r2k1/1p3ppp/2pq4/p1n5/P6P/1P6/1PB2QP1/1K2R3 w - - am Rd1; id "Kaufman.03";
r3k2r/pppq1ppp/8/8/8/8/PPPQ1PPP/R3K2R w KQkq - 0 12 bm 0-0-0; am O-O; id "both";
4k3/8/8/3pP3/8/8/8/4K3 w - d6 bm exd6 e.p.; id "ep";
6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - dm 1; id "dm";
1kr5/3n4/q3p2p/p2n2p1/PppB1P2/5BP1/1P2Q2P/3R2K1 w - - bm f5; id "sts"; c0 "f5=10, Be5+=2, Bf2=3, Bg4=2";
r1bq1r1k/p1pnbpp1/1p2p3/6p1/3PB3/5N2/PPPQ1PPP/2KR3R w - - bm g4; id "arasan"; c0 "J. Polgar-Berkes, Budapest 2003";
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - ;D1 20 ;D2 400 ;D3 8902
8/8/8/8/8/8/8/K6k w - - id "no test";
8/8/8/8/8/8/8/K6k w
4k3/8/8/8/8/8/8/1N2KN2 w - - bm Nd2; id "ambiguous";
4k3/8/8/8/8/8/8/1N2KN2 w - - bm Qd2; id "illegal";
4k3/8/8/8/8/8/8/4K3 w - - dm three; id "bad dm";
"#;

#[test]
fn every_operation_form_is_read() {
    let suite = from_text("forms.epd", EVERY_FORM, &[]);
    let ids: Vec<String> = suite.tests.iter().map(|t| t.record.id()).collect();
    assert_eq!(
        ids,
        ["WAC 1", "Kaufman.03", "both", "ep", "dm", "sts", "arasan"]
    );
    let by_id = |id: &str| suite.tests.iter().find(|t| t.record.id() == id).unwrap();
    let describe = |id: &str| {
        let test = by_id(id);
        test.expectation.describe(&test.position)
    };
    assert_eq!(describe("WAC 1"), "bm Qg6 Qh3");
    assert_eq!(describe("Kaufman.03"), "am Rd1");
    assert_eq!(describe("both"), "bm O-O-O; am O-O");
    assert_eq!(describe("ep"), "bm exd6");
    assert_eq!(describe("dm"), "dm 1");
    assert_eq!(
        by_id("both").record.fen(),
        "r3k2r/pppq1ppp/8/8/8/8/PPPQ1PPP/R3K2R w KQkq - 0 12"
    );
    let sts = &by_id("sts").expectation;
    assert_eq!((sts.points.len(), sts.max_points()), (4, 10));
    assert!(by_id("arasan").expectation.points.is_empty());
    assert_eq!(suite.perft_records, 1);
    assert_eq!(suite.untested_records, 1);
    let invalid: Vec<(Option<usize>, &str)> = suite
        .invalid
        .iter()
        .map(|i| (i.line, i.message.as_str()))
        .collect();
    assert_eq!(invalid.len(), 4, "{invalid:?}");
    assert_eq!(invalid[0].0, Some(12));
    assert!(invalid[0].1.contains("4 position fields"), "{invalid:?}");
    assert_eq!(invalid[1].0, Some(13));
    assert!(invalid[1].1.contains("ambiguous move 'Nd2'"), "{invalid:?}");
    assert_eq!(invalid[2].0, Some(14));
    assert!(invalid[2].1.contains("illegal move 'Qd2'"), "{invalid:?}");
    assert_eq!(invalid[3].0, Some(15));
    assert!(invalid[3].1.starts_with("dm:"), "{invalid:?}");
    // The line-level parser agrees on which lines are records at all.
    let (records, errors) = parse_text(EVERY_FORM);
    assert_eq!((records.len(), errors.len()), (12, 1));
    assert!(parse_line("rnbqkbnr/8/8/8/8/8/8/RNBQKBNR w KQkq - id \"open", 1).is_err());
}

#[test]
fn mates_file_is_exact_by_exhaustive_solver() {
    let (records, errors) = parse_text(&std::fs::read_to_string(MATES).unwrap());
    assert!(errors.is_empty(), "{errors:?}");
    let mut distances = Vec::new();
    for record in &records {
        let position = record.position().unwrap();
        let Ok(Task::Search(expectation)) = read_task(record, &position) else {
            panic!("{}: not a search test", record.id());
        };
        let moves = expectation.mate.expect("every record has dm");
        let mut solver = MateSolver::default();
        assert!(solver.has_mate_in(&position, moves), "{}", record.id());
        assert!(!solver.has_mate_in(&position, moves - 1), "{}", record.id());
        // bm, where given, lists exactly the first moves that mate in time.
        if !expectation.best.is_empty() {
            let mut mating: Vec<_> = position
                .legal_moves()
                .iter()
                .copied()
                .filter(|&m| solver.is_mated_within(&position.play(m), moves - 1))
                .collect();
            let mut best = expectation.best.clone();
            mating.sort_by_key(|m| m.to_string());
            best.sort_by_key(|m| m.to_string());
            assert_eq!(best, mating, "{}", record.id());
        }
        distances.push(moves);
    }
    for moves in 1..=5 {
        assert!(distances.contains(&moves), "no mate in {moves}");
    }
}

#[test]
fn engine_finds_every_mate_in_the_file() {
    let (records, _) = parse_text(&std::fs::read_to_string(MATES).unwrap());
    for record in &records {
        let position = record.position().unwrap();
        let Ok(Task::Search(expectation)) = read_task(record, &position) else {
            panic!("{}: not a search test", record.id());
        };
        let moves = expectation.mate.unwrap();
        // The engine reduces and prunes, so a mate in N can need more than 2N - 1 plies of
        // nominal depth; the mate limit stops the search once it is found.
        let limits = Limits {
            depth: Some(20),
            mate: Some(moves),
            ..Limits::default()
        };
        let result = search_with(&position, &[], &engine_config(), &limits);
        assert_eq!(
            mate_in_moves(result.score),
            Some(moves as i32),
            "{}",
            record.id()
        );
        assert!(
            expectation.judge(result.best_move, result.score).solved,
            "{}: {:?}",
            record.id(),
            result.best_move
        );
    }
}

#[test]
fn command_solves_mates_and_writes_json() {
    let json_path = scratch("mates.json");
    let ids = "mate1.smothered,mate2.knight-sacrifice,mate3.quiet-queen,mate4.queen";
    let (status, stdout, stderr) = run_brudno(&[
        "epd",
        MATES,
        "--depth",
        "30",
        "--quiet",
        "--only",
        ids,
        "--json",
        json_path.to_str().unwrap(),
    ]);
    assert!(status.success(), "{stderr}");
    assert!(
        stdout.contains("mates.epd: solved 4/4 (100.0%)"),
        "{stdout}"
    );
    assert!(stderr.is_empty(), "{stderr}");
    let text = std::fs::read_to_string(&json_path).unwrap();
    let _ = std::fs::remove_file(&json_path);
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(json["settings"]["depth"], 30);
    assert_eq!(json["settings"]["movetime_ms"], serde_json::Value::Null);
    let file = &json["files"][0];
    assert_eq!(file["summary"]["solved"], 4);
    assert_eq!(file["summary"]["positions"], 4);
    assert_eq!(file["summary"]["percent"], 100.0);
    assert_eq!(json["total"]["solved"], 4);
    let positions = file["positions"].as_array().unwrap();
    let got: Vec<(&str, &str, &str)> = positions
        .iter()
        .map(|p| {
            (
                p["id"].as_str().unwrap(),
                p["chosen"].as_str().unwrap(),
                p["score"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("mate1.smothered", "Nf7#", "mate 1"),
            ("mate2.knight-sacrifice", "Nf6+", "mate 2"),
            ("mate3.quiet-queen", "Qe6", "mate 3"),
            ("mate4.queen", "Qg2", "mate 4"),
        ]
    );
    for position in positions {
        assert_eq!(position["solved"], true);
        // The mate limit of `dm` ends each search once the mate is proven.
        assert!(
            (1..=30).contains(&position["depth"].as_u64().unwrap()),
            "{position}"
        );
        assert!(position["nodes"].as_u64().unwrap() > 0);
        // The solution is found at an iteration no deeper than the search went, and the
        // principal variation starts with the move chosen.
        let found = position["solution_depth"].as_u64().unwrap();
        assert!(found <= position["depth"].as_u64().unwrap(), "{position}");
        let pv = position["pv"].as_str().unwrap();
        assert!(pv.starts_with(position["chosen"].as_str().unwrap()));
        assert!(pv.ends_with('#'), "{pv}");
    }
}

#[test]
fn command_reports_bad_input_and_finishes_the_run() {
    let suite_path = scratch("bad.epd");
    let csv_path = scratch("bad.csv");
    std::fs::write(
        &suite_path,
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - bm Rd8#; id \"good\";\n\
         this line is not EPD;\n\
         6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - bm Rd9; id \"bad move\";\n\
         6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - am Rd1d8; id \"avoid the mate\";\n",
    )
    .unwrap();
    let missing = scratch("missing.epd");
    let (status, stdout, stderr) = run_brudno(&[
        "epd",
        suite_path.to_str().unwrap(),
        missing.to_str().unwrap(),
        "--depth",
        "2",
        "--quiet",
        "--csv",
        csv_path.to_str().unwrap(),
    ]);
    let csv = std::fs::read_to_string(&csv_path).unwrap_or_default();
    let _ = std::fs::remove_file(&suite_path);
    let _ = std::fs::remove_file(&csv_path);
    assert!(status.success(), "{stderr}");
    let suite_name = suite_path.display().to_string();
    assert!(stderr.contains(&format!("{suite_name}:2: ")), "{stderr}");
    assert!(
        stderr.contains(&format!("{suite_name}:3: bm: unreadable move 'Rd9'")),
        "{stderr}"
    );
    assert!(stderr.contains("cannot read the file"), "{stderr}");
    // The good line and the am line are searched: the mate is found, so `am Rd8` fails.
    assert!(stdout.contains("solved 1/2 (50.0%)"), "{stdout}");
    assert!(stdout.contains("invalid lines: 2"), "{stdout}");
    // Two files: the table over files with its total row.
    let total = stdout.lines().find(|l| l.starts_with("total")).unwrap();
    let columns: Vec<&str> = total.split_whitespace().collect();
    assert_eq!(&columns[1..4], ["1", "2", "50.0"], "{total}");
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows.len(), 3, "{csv}");
    assert!(rows[0].starts_with("file,line,id,"));
    assert!(rows[1].contains(",good,"), "{csv}");
    assert!(rows[2].contains(",avoid the mate,"), "{csv}");
    assert!(rows[2].contains(",false,"), "{csv}");
}

#[test]
fn command_line_mistakes_are_refused_by_clap() {
    let (status, _, stderr) = run_brudno(&["epd", MATES, "--depth", "3", "--nodes", "100"]);
    assert!(!status.success());
    assert!(stderr.contains("cannot be used with"), "{stderr}");
    let (status, _, _) = run_brudno(&["epd"]);
    assert!(!status.success());
}

#[test]
fn an_eval_file_is_loaded_or_refused_with_the_reason() {
    let net = concat!(env!("CARGO_MANIFEST_DIR"), "/nets/default.nnue");
    let missing = scratch("missing.nnue");
    for (file, expected) in [
        (net, "EvalFile: loaded"),
        (missing.to_str().unwrap(), "the network in use stays"),
    ] {
        let (status, stdout, stderr) = run_brudno(&[
            "epd",
            MATES,
            "--depth",
            "6",
            "--quiet",
            "--only",
            "mate1.smothered",
            "--evaluation",
            "NNUE",
            "--eval-file",
            file,
        ]);
        assert!(status.success(), "{stderr}");
        let all = format!("{stdout}{stderr}");
        assert!(all.contains(expected), "{file}: {all}");
        assert!(stdout.contains("solved 1/1"), "{file}: {stdout}");
    }
}
