//! `brudno datagen` survives being stopped, and its data leaves in the field's format: a run
//! continued with `--append` writes the same bytes as one never stopped, a record cut in two
//! is cut away, the manifest says how the file was made, and `datadump --marlin` writes plain
//! marlinformat records.

use crate::common;

use std::path::{Path, PathBuf};

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("brudno-datagen-{}-{name}", std::process::id()))
}

fn datagen(output: &Path, positions: u32, append: bool) -> String {
    let output = output.to_str().unwrap();
    let positions = positions.to_string();
    let mut args = vec![
        "datagen",
        "--output",
        output,
        "--positions",
        &positions,
        "--nodes",
        "200",
        "--seed",
        "5",
        "--eval",
        "positional",
        "--quiet",
    ];
    if append {
        args.push("--append");
    }
    let (status, _, stderr) = common::run_brudno(&args);
    assert!(status.success(), "{stderr}");
    stderr
}

#[test]
fn a_stopped_run_continues_to_the_same_bytes_and_leaves_a_manifest() {
    let dir = temp("resume");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let whole = dir.join("whole.bin");
    datagen(&whole, 400, false);
    let expected = std::fs::read(&whole).unwrap();
    assert_eq!(expected.len(), 400 * 32);

    // Stopped at 150 positions, then killed while writing: 13 bytes of a record are left.
    let parts = dir.join("parts.bin");
    datagen(&parts, 150, false);
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(&parts)
        .unwrap();
    std::io::Write::write_all(&mut file, &expected[150 * 32..150 * 32 + 13]).unwrap();
    drop(file);
    // Without --append an existing file is refused, untouched.
    let (status, _, stderr) =
        common::run_brudno(&["datagen", "--output", parts.to_str().unwrap(), "--quiet"]);
    assert_eq!(status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--append"), "{stderr}");
    let stderr = datagen(&parts, 400, true);
    assert!(stderr.contains("cut back"), "{stderr}");
    assert!(stderr.contains("continuing"), "{stderr}");
    assert!(std::fs::read(&parts).unwrap() == expected);

    // Other settings than the progress file's are refused.
    let (status, _, stderr) = common::run_brudno(&[
        "datagen",
        "--output",
        parts.to_str().unwrap(),
        "--positions",
        "500",
        "--seed",
        "6",
        "--append",
        "--quiet",
    ]);
    assert_eq!(status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("other settings"), "{stderr}");

    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("parts.bin.json")).unwrap())
            .unwrap();
    assert_eq!(manifest["records"], 400);
    assert_eq!(manifest["seed"], 5);
    assert_eq!(manifest["file"], "parts.bin");
    let same: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("whole.bin.json")).unwrap())
            .unwrap();
    assert_eq!(manifest["checksum_fnv1a64"], same["checksum_fnv1a64"]);
    assert_eq!(manifest["games"], same["games"]);
    assert_eq!(manifest["commit"].as_str().unwrap().len(), 40);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn datadump_writes_plain_marlinformat() {
    let dir = temp("marlin");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("gen.bin");
    datagen(&data, 120, false);
    let marlin = dir.join("gen.marlin");
    let (status, stdout, stderr) = common::run_brudno(&[
        "datadump",
        data.to_str().unwrap(),
        "--marlin",
        marlin.to_str().unwrap(),
    ]);
    assert!(status.success(), "{stderr}");
    assert!(stdout.contains("120 records written"), "{stdout}");
    let ours = std::fs::read(&data).unwrap();
    let theirs = std::fs::read(&marlin).unwrap();
    assert_eq!(theirs.len(), ours.len());
    for (a, b) in ours.chunks(32).zip(theirs.chunks(32)) {
        assert_eq!(a[..31], b[..31], "the same record but the spare byte");
        assert_eq!(b[31], 0);
    }
    // The start position's rooks are castling rooks (type 6) in the first game's records.
    let (status, text, _) = common::run_brudno(&["datadump", marlin.to_str().unwrap()]);
    assert!(status.success());
    assert_eq!(text.lines().count(), 120);
    let _ = std::fs::remove_dir_all(&dir);
}
