//! The lab's API through a real `brudno lab` on 127.0.0.1: every source and algorithm gives the
//! trace `brudno trace --json` gives for the same arguments; bad parameters get a 400 whose
//! JSON names the parameter; a burst of concurrent requests is all answered; a request past
//! its time limit is answered (503) and the server goes on serving. The page itself is tested
//! in a browser in `lab_page.rs`.
//!
//! Time bounds here are generous on purpose (a slow, loaded machine must pass): a request
//! under `--time-limit 1` must be answered within 40 seconds.

use crate::common;
use crate::lab_common;

use std::time::{Duration, Instant};

use common::run_brudno;
use lab_common::{Lab, encode};
use serde_json::Value;

/// What `brudno trace --json` writes for `args`.
fn cli_trace(args: &[&str]) -> Value {
    let path = std::env::temp_dir().join(format!(
        "brudno-lab-cli-{}-{}.json",
        std::process::id(),
        args.join("_").replace(['/', ' ', '[', ']', ','], "-")
    ));
    let mut all = vec!["trace", "--quiet", "--json", path.to_str().unwrap()];
    all.extend_from_slice(args);
    let (status, _, err) = run_brudno(&all);
    assert!(status.success(), "{args:?}: {err}");
    let json = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    std::fs::remove_file(&path).ok();
    json
}

const HANGING: &str = "rnb1kbnr/pppp1ppp/8/4q3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 3";

#[test]
fn every_source_and_algorithm_gives_the_command_line_trace() {
    let lab = Lab::start(&[]);
    let tree = "[[1,[2,3]],[[4,5],6],7]";
    let fen = encode(HANGING);
    let mut cases: Vec<(String, Vec<String>)> = Vec::new();
    for algorithm in [
        "minimax",
        "negamax",
        "alphabeta",
        "alphabeta-strict",
        "alphabeta-ordered",
    ] {
        cases.push((
            format!("tree=standing&algorithm={algorithm}&compare=1&orderings=1"),
            vec![
                "--tree",
                "standing",
                "--algorithm",
                algorithm,
                "--compare",
                "--orderings",
            ]
            .into_iter()
            .map(String::from)
            .collect(),
        ));
    }
    cases.push((
        format!("tree={}&algorithm=alphabeta", encode(tree)),
        ["--tree", tree, "--algorithm", "alphabeta"]
            .map(String::from)
            .to_vec(),
    ));
    cases.push((
        "random=1&branching=3&depth=4&seed=7&algorithm=alphabeta-ordered&compare=1".to_string(),
        [
            "--random",
            "--branching",
            "3",
            "--depth",
            "4",
            "--seed",
            "7",
            "--algorithm",
            "alphabeta-ordered",
            "--compare",
        ]
        .map(String::from)
        .to_vec(),
    ));
    for algorithm in ["minimax", "alphabeta", "mvv-lva", "id-tt", "engine"] {
        cases.push((
            format!("startpos=1&moves=e2e4+e7e5&depth=2&algorithm={algorithm}"),
            [
                "--startpos",
                "--moves",
                "e2e4",
                "e7e5",
                "--depth",
                "2",
                "--algorithm",
                algorithm,
            ]
            .map(String::from)
            .to_vec(),
        ));
    }
    cases.push((
        format!("fen={fen}&moves=Nxe5&depth=3&algorithm=engine&eval=positional&compare=1"),
        [
            "--fen",
            HANGING,
            "--moves",
            "Nxe5",
            "--depth",
            "3",
            "--algorithm",
            "engine",
            "--eval",
            "positional",
            "--compare",
        ]
        .map(String::from)
        .to_vec(),
    ));
    for (query, args) in cases {
        let (status, api) = lab.json(&format!("/api/trace?{query}"));
        assert_eq!(status, 200, "{query}: {api}");
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let cli = cli_trace(&args);
        assert_eq!(api["result"]["value"], cli["result"]["value"], "{query}");
        assert!(api["result"]["value"].is_number(), "{query}");
        // Not only the value: the whole trace is the command line's.
        assert_eq!(api, cli, "{query}");
    }
}

#[test]
fn bad_parameters_get_400_naming_them() {
    let lab = Lab::start(&[]);
    let cases = [
        (
            "tree=standing&algorithm=quicksort",
            "algorithm",
            "unknown algorithm",
        ),
        (
            "startpos=1&algorithm=negamax",
            "algorithm",
            "unknown algorithm",
        ),
        ("startpos=1&depth=0", "depth", "at least 1"),
        ("startpos=1&depth=99", "depth", "out of range"),
        ("random=1&branching=3&depth=99", "depth", "at most"),
        ("random=1&branching=3&depth=0", "depth", "at least 1"),
        ("tree=%5B1%2C%5D", "tree", "character 4"),
        ("tree=%5B%5B1%5D", "tree", "expected"),
        ("fen=not+a+fen", "fen", "illegal FEN"),
        (
            "fen=8%2F8%2F8%2F8%2F8%2F8%2F8%2F8+w+-+-+0+1",
            "fen",
            "illegal FEN",
        ),
        ("startpos=1&moves=e2e5", "moves", "illegal"),
        ("startpos=1&moves=e2e4+e2e4", "moves", "move 2"),
        ("startpos=1&eval=psychic", "eval", "unknown evaluation"),
        ("random=1&branching=3&depth=2&seed=minus", "seed", "integer"),
        ("tree=standing&colour=blue", "colour", "unknown parameter"),
        ("tree=standing&tree=standing", "tree", "twice"),
        ("startpos=1&orderings=1", "orderings", "orderings"),
    ];
    for (query, parameter, words) in cases {
        let (status, body) = lab.json(&format!("/api/trace?{query}"));
        assert_eq!(status, 400, "{query}: {body}");
        assert_eq!(body["parameter"], parameter, "{query}: {body}");
        let message = body["error"].as_str().unwrap_or_default();
        assert!(message.contains(words), "{query}: {message}");
    }
    for (target, status) in [
        ("/api/ebf?startpos=1&depth=9", 400),
        ("/api/ebf?set=ebf&depth=4", 400),
        ("/api/ebf?fen=xx", 400),
        ("/api/ebf?startpos=1&configs=fastest", 400),
        ("/api/position?moves=e2e5", 400),
        ("/nowhere", 404),
    ] {
        let (got, body) = lab.json(target);
        assert_eq!(got, status, "{target}: {body}");
        assert!(body["error"].as_str().is_some_and(|e| !e.is_empty()));
    }
}

#[test]
fn the_board_and_the_search_lab_figures() {
    let lab = Lab::start(&[]);
    let (status, position) = lab.json("/api/position?startpos=1&moves=e2e4+Nf6");
    assert_eq!(status, 200, "{position}");
    assert_eq!(position["moves_san"], serde_json::json!(["e4", "Nf6"]));
    assert_eq!(position["moves_uci"], serde_json::json!(["e2e4", "g8f6"]));
    assert_eq!(position["white_to_move"], true);
    // 15 pawn moves, 5 knight, 5 bishop, 4 queen and 1 king move.
    assert_eq!(position["legal"].as_array().unwrap().len(), 30);
    let (status, ebf) = lab.json("/api/ebf?startpos=1&depth=2&configs=minimax,alphabeta");
    assert_eq!(status, 200, "{ebf}");
    let rows = ebf["rows"].as_array().unwrap();
    let minimax = rows
        .iter()
        .find(|r| r["config"] == "minimax" && r["depth"] == 2)
        .unwrap();
    // 20 moves, 20 replies each: minimax scores 400 leaves at depth 2.
    assert_eq!(minimax["leaves"], 400);
    assert!(rows.iter().any(|r| r["config"] == "alphabeta"));
}

#[test]
fn a_burst_of_concurrent_requests_is_all_answered() {
    let lab = Lab::start(&["--workers", "4"]);
    let queries: Vec<String> = (0..20)
        .map(|i| match i % 4 {
            0 => format!("random=1&branching=3&depth=5&seed={i}"),
            1 => format!("startpos=1&depth={}&algorithm=id-tt", 1 + i % 3),
            2 => "startpos=1&moves=d2d4&depth=3&algorithm=engine".to_string(),
            _ => "tree=standing&compare=1&orderings=1".to_string(),
        })
        .collect();
    let expected: Vec<Value> = queries
        .iter()
        .map(|q| lab.json(&format!("/api/trace?{q}")).1["result"]["value"].clone())
        .collect();
    let address = lab.address.clone();
    let answers: Vec<(u16, Value)> = std::thread::scope(|scope| {
        let handles: Vec<_> = queries
            .iter()
            .map(|q| {
                let address = address.clone();
                scope.spawn(move || {
                    let (status, body) = lab_common::get(&address, &format!("/api/trace?{q}"));
                    let json: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
                    (status, json["result"]["value"].clone())
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for ((query, (status, value)), expected) in queries.iter().zip(answers).zip(expected) {
        assert_eq!(status, 200, "{query}");
        assert_eq!(value, expected, "{query}");
    }
}

#[test]
fn a_request_past_its_time_limit_is_answered_and_the_lab_goes_on() {
    let lab = Lab::start(&["--time-limit", "1"]);
    // Mate in 2 with 54 moves at the root: the comparison alone searches minimax's 4.7 million
    // leaves, far more than a second's work here.
    let fen = encode("r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 1");
    let started = Instant::now();
    let (status, body) = lab.json(&format!(
        "/api/trace?fen={fen}&depth=4&algorithm=id-tt&compare=1"
    ));
    let took = started.elapsed();
    assert!(took < Duration::from_secs(40), "answered after {took:?}");
    assert!(status == 503 || status == 200, "{status}: {body}");
    if status == 503 {
        assert!(body["error"].as_str().unwrap().contains("time limit"));
    }
    // A trace of more nodes than a page can play is refused, not recorded.
    let (status, body) = lab.json(&format!("/api/trace?fen={fen}&depth=4&algorithm=minimax"));
    assert!(status == 400 || status == 503, "{status}: {body}");
    // Garbage, another method, a long query: answered, and the lab still serves.
    let (status, _) = lab.get("/api/trace?%ZZ=%");
    assert_eq!(status, 400);
    let long = format!("/api/trace?tree={}", "[".repeat(5000));
    assert_eq!(lab.get(&long).0, 400);
    let (status, body) = lab.json("/api/trace?tree=standing");
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["result"]["value"], 3);
    let (status, page) = lab.get("/");
    assert_eq!(status, 200);
    assert!(page.contains("lab-config") && !page.contains("__LAB_JSON__"));
}
