//! The gauntlet script (`scripts/gauntlet.py`): its rating fit gives the known answers, and
//! a ladder with a rung missing is refused before any game, saying what to build.

use std::process::Command;

fn gauntlet(args: &[&str]) -> std::process::Output {
    Command::new("python3")
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/gauntlet.py"))
        .args(args)
        .output()
        .expect("python3 runs")
}

#[test]
fn the_performance_fit_gives_the_known_answers() {
    let output = gauntlet(&["--self-test"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && stdout.contains("self-test: ok"),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn a_missing_rung_is_refused_with_what_to_build() {
    let empty = std::env::temp_dir().join(format!("brudno-empty-ladder-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    let output = gauntlet(&[
        "--check",
        "--ladder",
        empty.to_str().unwrap(),
        "--only",
        "carp-2.0.0",
        "carp-3.0.1",
    ]);
    std::fs::remove_dir_all(&empty).ok();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("carp-2.0.0 is missing") && stderr.contains("v.2.0.0"),
        "{stderr}"
    );
    assert!(
        stderr.contains("carp-3.0.1 is missing") && stderr.contains("v3.0.1"),
        "{stderr}"
    );
}
