//! The NNUE evaluation as a GUI and the tools use it: `Evaluation NNUE` searches with the
//! network, `EvalFile` loads another network and refuses a wrong, corrupt or truncated file
//! with a message while the network in use stays, and the search with the network plays
//! legal moves. Network-level properties (incremental updates, quantisation, symmetry, file
//! checks) are unit tests in `engine/src/eval/nnue` and `tools/src/train.rs`.

use crate::common;

use std::time::Duration;

use brudno::eval::nnue::{self, Network};
use common::{Engine, is_legal_after};

const LONG: Duration = Duration::from_secs(30);

fn temp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("brudno-nnue-{}-{name}", std::process::id()))
}

#[test]
fn the_option_is_declared_and_the_network_searches() {
    let mut engine = Engine::start();
    let lines = engine.handshake();
    assert!(lines.iter().any(
        |l| l.starts_with("option name Evaluation type combo default NNUE")
            && l.contains("var NNUE")
            && l.contains("var Positional")
            && l.contains("var Material")
    ));
    assert!(
        lines
            .iter()
            .any(|l| l == "option name EvalFile type string default <embedded>")
    );
    engine.send("setoption name Evaluation value NNUE");
    engine.send("position startpos moves e2e4 e7e5");
    engine.send("go depth 6");
    let mv = engine.bestmove(LONG);
    assert!(is_legal_after(None, &["e2e4", "e7e5"], &mv), "{mv}");
}

#[test]
fn eval_file_loads_good_networks_and_refuses_bad_ones() {
    let good = temp("good.nnue");
    let network = nnue::embedded();
    std::fs::write(&good, network.to_bytes()).unwrap();
    let bytes = network.to_bytes();
    let truncated = temp("truncated.nnue");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    let corrupt = temp("corrupt.nnue");
    let mut flipped = bytes.clone();
    flipped[5000] ^= 0x40;
    std::fs::write(&corrupt, &flipped).unwrap();

    let mut engine = Engine::start();
    let cases = [
        (good.display().to_string(), "loaded"),
        ("/no/such/file.nnue".to_string(), "cannot read"),
        (truncated.display().to_string(), "truncated"),
        (corrupt.display().to_string(), "checksum"),
        ("<embedded>".to_string(), "embedded network"),
    ];
    for (path, expected) in cases {
        engine.send(&format!("setoption name EvalFile value {path}"));
        let lines = engine.sync();
        let message = lines
            .iter()
            .find(|l| l.starts_with("info string EvalFile"))
            .unwrap_or_else(|| panic!("no message for {path}: {lines:?}"));
        assert!(message.contains(expected), "{path}: {message}");
        if expected != "loaded" && expected != "embedded network" {
            assert!(message.contains("the network in use stays"), "{message}");
        }
        // The engine still searches with a network after every attempt.
        engine.send("setoption name Evaluation value NNUE");
        engine.send("position startpos");
        engine.send("go depth 4");
        let mv = engine.bestmove(LONG);
        assert!(is_legal_after(None, &[], &mv), "{mv}");
    }
    for path in [good, truncated, corrupt] {
        let _ = std::fs::remove_file(path);
    }
}

#[test]
fn the_embedded_network_round_trips_and_evaluates_symmetrically() {
    let network = nnue::embedded();
    assert_eq!(Network::parse(&network.to_bytes()).unwrap(), *network);
    let pos = brudno::position::Position::from_fen(
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        false,
    )
    .unwrap();
    let mirror = brudno::position::Position::from_fen(
        "rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 2 3",
        false,
    )
    .unwrap();
    let network = nnue::embedded();
    assert_eq!(
        nnue::evaluate(&pos, &network),
        nnue::evaluate(&mirror, &network)
    );
}

/// `brudno nnue-info ARGS`, which must succeed, as JSON.
fn nnue_info(args: &[&str]) -> serde_json::Value {
    let mut command = vec!["nnue-info"];
    command.extend_from_slice(args);
    let (status, out, stderr) = common::run_brudno(&command);
    assert!(status.success(), "{stderr}");
    serde_json::from_str(out.trim()).unwrap()
}

/// `brudno nnue-info`: the embedded network's architecture as JSON, the same for its file,
/// and a corrupt file or one of the older format refused with the reason.
#[test]
fn nnue_info_describes_networks_and_refuses_bad_files() {
    let info = nnue_info(&[]);
    let network = nnue::embedded();
    assert_eq!(info["inputs"], 768);
    assert_eq!(info["king_buckets"], network.arch.king_buckets);
    assert_eq!(info["hidden"], network.arch.hidden);
    assert_eq!(info["output_buckets"], network.arch.output_buckets);
    assert_eq!(info["format_version"], 2);
    assert_eq!(info["checksum"], format!("{:016x}", network.checksum()));
    assert_eq!(info["bytes"], network.to_bytes().len());
    // The embedded network's training record (nets/default.json) names it by its checksum.
    assert_eq!(info["training"]["network_checksum"], info["checksum"]);
    assert!(info["training"]["positions"].as_u64().unwrap() > 1_000_000);

    let good = temp("info.nnue");
    std::fs::write(&good, network.to_bytes()).unwrap();
    let from_file = nnue_info(&[&good.display().to_string()]);
    assert_eq!(from_file["checksum"], info["checksum"]);
    // A copy of the embedded network has the embedded network's record.
    assert_eq!(from_file["training"], info["training"]);
    // Another network without its record beside it says so.
    let mut other = (*network).clone();
    other.b2[0] += 1;
    let other_file = temp("other.nnue");
    std::fs::write(&other_file, other.to_bytes()).unwrap();
    let from_other = nnue_info(&[&other_file.display().to_string()]);
    assert_ne!(from_other["checksum"], info["checksum"]);
    assert!(
        from_other["training"]
            .as_str()
            .unwrap()
            .contains("no training record")
    );

    let mut corrupt = network.to_bytes();
    corrupt[4000] ^= 1;
    let mut version_one = network.to_bytes();
    version_one[8] = 1;
    for (name, bytes, reason) in [
        ("info-corrupt.nnue", corrupt, "checksum"),
        ("info-v1.nnue", version_one, "version 1"),
        ("info-empty.nnue", Vec::new(), "magic"),
    ] {
        let path = temp(name);
        std::fs::write(&path, bytes).unwrap();
        let (status, _, err) = common::run_brudno(&["nnue-info", &path.display().to_string()]);
        assert_eq!(status.code(), Some(2), "{name}");
        assert!(err.contains(reason), "{name}: {err}");
        let _ = std::fs::remove_file(path);
    }
    let _ = std::fs::remove_file(good);
}

/// The README's pipeline end to end, small: datagen into a folder that does not exist yet,
/// datadump, tune and train on what it wrote, and the trained network loads.
#[test]
fn the_pipeline_runs_from_datagen_to_a_loadable_network() {
    let dir = temp("pipeline");
    let _ = std::fs::remove_dir_all(&dir);
    let data = dir.join("data").join("gen.vf");
    let data = data.to_str().unwrap();
    let (status, _, stderr) = common::run_brudno(&[
        "datagen",
        "--output",
        data,
        "--moves",
        "600",
        "--nodes",
        "300",
        "--seed",
        "3",
        "--eval",
        "positional",
        "--quiet",
    ]);
    assert!(status.success(), "{stderr}");
    let (status, stdout, stderr) = common::run_brudno(&["datadump", data, "--summary"]);
    assert!(status.success(), "{stderr}");
    assert!(stdout.contains("0 bad records"), "{stdout}");
    let params = dir.join("params.rs");
    let (status, _, stderr) = common::run_brudno(&[
        "tune",
        data,
        "--output",
        params.to_str().unwrap(),
        "--epochs",
        "5",
        "--min-count",
        "1",
    ]);
    assert!(status.success(), "{stderr}");
    assert!(
        std::fs::read_to_string(&params)
            .unwrap()
            .contains("pub const WEIGHTS")
    );
    let net = dir.join("net.nnue");
    let (status, _, stderr) = common::run_brudno(&[
        "train",
        data,
        "--output",
        net.to_str().unwrap(),
        "--epochs",
        "2",
        "--batch",
        "64",
        "--mirror",
    ]);
    assert!(status.success(), "{stderr}");
    assert!(stderr.contains("is kept (lowest held-out loss"), "{stderr}");
    // Parsed, not loaded: loading would change the network the other tests here search with.
    let bytes = std::fs::read(&net).unwrap();
    assert!(Network::parse(&bytes).is_ok());
    // The training record beside it, and in nnue-info: what the network learned from.
    let info = nnue_info(&[net.to_str().unwrap()]);
    let record = &info["training"];
    assert!(record["positions"].as_u64().unwrap() > 100, "{record}");
    assert_eq!(record["data"][0]["file"], "gen.vf");
    assert_eq!(record["epochs"], 2);
    assert_eq!(record["network_checksum"], info["checksum"]);
    assert!(record["started_from"].is_null());
    // A warm start from it says so.
    let warm = dir.join("warm.nnue");
    let (status, _, stderr) = common::run_brudno(&[
        "train",
        data,
        "--output",
        warm.to_str().unwrap(),
        "--epochs",
        "1",
        "--batch",
        "64",
        "--init",
        net.to_str().unwrap(),
    ]);
    assert!(status.success(), "{stderr}");
    let warm_info = nnue_info(&[warm.to_str().unwrap()]);
    assert_eq!(warm_info["training"]["started_from"], info["checksum"]);
    // Another shape: 32 hidden neurons, eight output buckets; a width the format cannot
    // hold is refused before any training.
    let wide = dir.join("bucketed.nnue");
    let (status, _, stderr) = common::run_brudno(&[
        "train",
        data,
        "--output",
        wide.to_str().unwrap(),
        "--epochs",
        "1",
        "--batch",
        "64",
        "--hidden",
        "32",
        "--output-buckets",
        "8",
    ]);
    assert!(status.success(), "{stderr}");
    let (status, info, _) = common::run_brudno(&["nnue-info", wide.to_str().unwrap()]);
    assert!(status.success());
    let info: serde_json::Value = serde_json::from_str(&info).unwrap();
    assert_eq!(
        (info["hidden"].as_u64(), info["output_buckets"].as_u64()),
        (Some(32), Some(8))
    );
    let (status, _, stderr) = common::run_brudno(&[
        "train",
        data,
        "--output",
        wide.to_str().unwrap(),
        "--hidden",
        "30",
    ]);
    assert_eq!(status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("hidden layer of 30"), "{stderr}");
    // The next generation plays with the trained network, read from its file.
    let next = dir.join("data").join("gen2.vf");
    let (status, _, stderr) = common::run_brudno(&[
        "datagen",
        "--output",
        next.to_str().unwrap(),
        "--moves",
        "50",
        "--nodes",
        "300",
        "--eval",
        "nnue",
        "--eval-file",
        net.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(status.success(), "{stderr}");
    assert!(stderr.contains("EvalFile: loaded"), "{stderr}");
    let written = std::fs::read(&next).unwrap();
    assert!(brudno::tools::viriformat::count(&written).unwrap().1 >= 50);
    // A network file that cannot be read stops datagen before any game.
    let refused = dir.join("data").join("refused.vf");
    let (status, _, stderr) = common::run_brudno(&[
        "datagen",
        "--output",
        refused.to_str().unwrap(),
        "--eval-file",
        "/no/such/net.nnue",
        "--quiet",
    ]);
    assert_eq!(status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("cannot read '/no/such/net.nnue'"),
        "{stderr}"
    );
    assert!(!refused.exists());
    let _ = std::fs::remove_dir_all(&dir);
}
