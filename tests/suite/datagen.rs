//! `brudno datagen` survives being stopped, and its data leaves in the field's format: a run
//! continued with `--append` writes the same bytes as one never stopped, a game cut in two is
//! cut away, the manifest says how the file was made, `brudno data add` puts the whole games
//! into a data folder that `brudno data check` verifies, and `datadump --marlin` writes plain
//! marlinformat records.

use crate::common;

use std::path::{Path, PathBuf};

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("brudno-datagen-{}-{name}", std::process::id()))
}

fn datagen(output: &Path, moves: u32, append: bool) -> String {
    let output = output.to_str().unwrap();
    let moves = moves.to_string();
    let mut args = vec![
        "datagen",
        "--output",
        output,
        "--moves",
        &moves,
        "--nodes",
        "200",
        "--hard-nodes",
        "2000",
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

/// The (games, moves) of a viriformat file, counted by its end markers.
fn counts(data: &[u8]) -> (u64, u64) {
    brudno::tools::viriformat::count(data).unwrap()
}

#[test]
fn a_stopped_run_continues_to_the_same_bytes_and_leaves_a_manifest() {
    let dir = temp("resume");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let whole = dir.join("whole.vf");
    datagen(&whole, 800, false);
    let expected = std::fs::read(&whole).unwrap();
    let (games, moves) = counts(&expected);
    assert!(moves >= 800 && games >= 2, "{games} games, {moves} moves");

    // Stopped after 300 moves, then killed while writing: 13 bytes of a game are left.
    let parts = dir.join("parts.vf");
    datagen(&parts, 300, false);
    let written = std::fs::metadata(&parts).unwrap().len() as usize;
    assert!(written < expected.len());
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(&parts)
        .unwrap();
    std::io::Write::write_all(&mut file, &expected[written..written + 13]).unwrap();
    drop(file);
    // Without --append an existing file is refused, untouched.
    let (status, _, stderr) =
        common::run_brudno(&["datagen", "--output", parts.to_str().unwrap(), "--quiet"]);
    assert_eq!(status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--append"), "{stderr}");
    let stderr = datagen(&parts, 800, true);
    assert!(stderr.contains("cut back"), "{stderr}");
    assert!(stderr.contains("continuing"), "{stderr}");
    assert!(std::fs::read(&parts).unwrap() == expected);

    // Other settings than the progress file's are refused.
    let (status, _, stderr) = common::run_brudno(&[
        "datagen",
        "--output",
        parts.to_str().unwrap(),
        "--moves",
        "900",
        "--seed",
        "6",
        "--append",
        "--quiet",
    ]);
    assert_eq!(status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("other settings"), "{stderr}");

    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("parts.vf.json")).unwrap()).unwrap();
    assert_eq!(manifest["moves"], moves);
    assert_eq!(manifest["games"], games);
    assert_eq!(manifest["seed"], 5);
    assert_eq!(manifest["format"], "viriformat");
    assert_eq!(manifest["file"], "parts.vf");
    let same: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("whole.vf.json")).unwrap()).unwrap();
    assert_eq!(manifest["checksum_fnv1a64"], same["checksum_fnv1a64"]);
    assert_eq!(manifest["commit"].as_str().unwrap().len(), 40);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_run_goes_into_the_data_folder_whole_games_only_and_is_checked() {
    let dir = temp("store");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let run = dir.join("run.vf");
    datagen(&run, 400, false);
    let whole = std::fs::read(&run).unwrap();
    // A run killed in the middle of a game: the piece after its last whole game stays out.
    let mut file = std::fs::OpenOptions::new().append(true).open(&run).unwrap();
    std::io::Write::write_all(&mut file, &whole[..40]).unwrap();
    drop(file);
    let (games, moves) = counts(&whole);
    let data = dir.join("data");
    let data_arg = data.to_str().unwrap();
    let (status, stdout, stderr) = common::run_brudno(&[
        "data",
        "add",
        run.to_str().unwrap(),
        "--dir",
        data_arg,
        "--name",
        "first",
    ]);
    assert!(status.success(), "{stderr}");
    assert!(stdout.contains("first.vf.zst"), "{stdout}");
    let stored = std::fs::read(data.join("first.vf.zst")).unwrap();
    assert!(stored.len() < whole.len(), "compressed");
    let manifest = std::fs::read_to_string(data.join("MANIFEST")).unwrap();
    assert!(
        manifest.contains(&format!("games={games} moves={moves}")),
        "{manifest}"
    );
    assert!(
        manifest.contains("seed=5") && manifest.contains("nodes=200"),
        "{manifest}"
    );
    // The same run again, with no new game, adds nothing.
    let (status, _, stderr) = common::run_brudno(&[
        "data",
        "add",
        run.to_str().unwrap(),
        "--dir",
        data_arg,
        "--name",
        "first",
    ]);
    assert_eq!(status.code(), Some(2));
    assert!(stderr.contains("all in"), "{stderr}");
    // The run goes on playing; the next add takes only its new games, as a new file.
    datagen(&run, 700, true);
    let (status, stdout, stderr) = common::run_brudno(&[
        "data",
        "add",
        run.to_str().unwrap(),
        "--dir",
        data_arg,
        "--name",
        "second",
    ]);
    assert!(status.success(), "{stderr}");
    assert!(stdout.contains("second.vf.zst"), "{stdout}");
    let manifest = std::fs::read_to_string(data.join("MANIFEST")).unwrap();
    assert!(
        manifest.contains(&format!("first-game={games} ")),
        "{manifest}"
    );
    let continued = std::fs::read(&run).unwrap();
    let (all_games, all_moves) = counts(&continued);
    let second =
        brudno::tools::datastore::decompress(&std::fs::read(data.join("second.vf.zst")).unwrap())
            .unwrap();
    assert_eq!(counts(&second), (all_games - games, all_moves - moves));
    assert!(continued.ends_with(&second));
    std::fs::remove_file(data.join("second.vf.zst")).unwrap();
    let first_line: String = manifest.lines().next().unwrap().to_string() + "\n";
    std::fs::write(data.join("MANIFEST"), first_line).unwrap();
    // check: the counts of the folder; a file the manifest does not name is refused, and so
    // is a named file whose bytes changed.
    let (status, stdout, stderr) = common::run_brudno(&["data", "check", "--dir", data_arg]);
    // (A tiny folder compresses worse than the 3.5 bytes a move real runs keep to.)
    let per_move = stored.len() as f64 / moves as f64;
    if per_move <= 3.5 {
        assert!(status.success(), "{stderr}");
        assert!(
            stdout.contains(&format!("{moves} recorded moves")),
            "{stdout}"
        );
    } else {
        assert!(stderr.contains("a move, more than 3.5"), "{stderr}");
    }
    std::fs::write(data.join("stray.vf.zst"), b"x").unwrap();
    let (status, _, stderr) = common::run_brudno(&["data", "check", "--dir", data_arg]);
    assert!(!status.success());
    assert!(stderr.contains("stray.vf.zst is in"), "{stderr}");
    std::fs::remove_file(data.join("stray.vf.zst")).unwrap();
    let mut changed = stored.clone();
    let last = changed.len() - 1;
    changed[last] ^= 1;
    std::fs::write(data.join("first.vf.zst"), &changed).unwrap();
    let (status, _, stderr) = common::run_brudno(&["data", "check", "--dir", data_arg]);
    assert!(!status.success());
    assert!(stderr.contains("checksum"), "{stderr}");
    // datadump reads the stored file as it reads the run.
    std::fs::write(data.join("first.vf.zst"), &stored).unwrap();
    let plain = dir.join("whole.vf");
    std::fs::write(&plain, &whole).unwrap();
    let (_, a, _) = common::run_brudno(&["datadump", "--summary", plain.to_str().unwrap()]);
    let path = data.join("first.vf.zst");
    let (status, b, _) = common::run_brudno(&["datadump", "--summary", path.to_str().unwrap()]);
    assert!(status.success());
    assert!(
        b.contains(&format!("{games} games, {moves} recorded moves")),
        "{b}"
    );
    assert_eq!(a.split(';').next(), b.split(';').next());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn datadump_writes_plain_marlinformat() {
    let dir = temp("marlin");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("gen.vf");
    datagen(&data, 300, false);
    let marlin = dir.join("gen.marlin");
    let (status, stdout, stderr) = common::run_brudno(&[
        "datadump",
        data.to_str().unwrap(),
        "--marlin",
        marlin.to_str().unwrap(),
    ]);
    assert!(status.success(), "{stderr}");
    let (_, text, _) = common::run_brudno(&["datadump", data.to_str().unwrap()]);
    let positions = text.lines().count();
    assert!(positions > 100, "{positions}");
    assert!(
        stdout.contains(&format!("{positions} records written")),
        "{stdout}"
    );
    let theirs = std::fs::read(&marlin).unwrap();
    assert_eq!(theirs.len(), positions * 32);
    assert!(theirs.chunks(32).all(|record| record[31] == 0));
    // The marlinformat file reads back as the same positions.
    let (status, again, _) = common::run_brudno(&["datadump", marlin.to_str().unwrap()]);
    assert!(status.success());
    assert_eq!(again, text);
    let _ = std::fs::remove_dir_all(&dir);
}
