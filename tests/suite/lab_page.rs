//! The lab's page in a real browser: `tests/browser/lab_page.mjs` drives Debian's Chromium
//! through Playwright (playwright-core from npm, no browser download) on a running `brudno
//! lab`. It opens the lab, changes the depth and the random seed, types a FEN, clicks a move
//! on the board and steps with the keys, and records what the page shows after each action;
//! here every record must agree with the API's trace of the page's own address: the step
//! count, the counters of step N, its sentence, the lit pseudocode line, and `#step=N`.
//!
//! It needs node, `tests/browser/node_modules` (`npm ci --prefix tests/browser`) and
//! `/usr/bin/chromium` (or `BRUDNO_CHROMIUM`); `.ci/run` installs them. Without them the test
//! says so and passes, unless `BRUDNO_REQUIRE_BROWSER=1` (set by `.ci/run`). With
//! `BRUDNO_LAB_SCREENSHOT=PATH` it also takes the screenshot of the lab in docs/.

use crate::lab_common;

use std::path::{Path, PathBuf};
use std::process::Command;

use lab_common::Lab;
use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Whether node, playwright-core and Chromium are all here.
fn tools_or_skip() -> bool {
    let chromium = std::env::var_os("BRUDNO_CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));
    let node = Command::new("node").arg("--version").output().is_ok();
    let playwright = root()
        .join("tests/browser/node_modules/playwright-core")
        .is_dir();
    let found = node && playwright && chromium.is_file();
    if !found {
        assert!(
            std::env::var("BRUDNO_REQUIRE_BROWSER").as_deref() != Ok("1"),
            "BRUDNO_REQUIRE_BROWSER=1 but node ({node}), playwright-core ({playwright}) or {} is missing: see .ci/run",
            chromium.display()
        );
        eprintln!(
            "lab_page: node, playwright-core or chromium missing; the lab is not tested in a browser"
        );
    }
    found
}

/// A bound as the page writes it for a toy tree (integers, ±∞, — for none).
fn plain_bound(value: &Value) -> String {
    match value {
        Value::Null => "—".to_string(),
        Value::String(s) if s == "-inf" => "−∞".to_string(),
        Value::String(s) if s == "+inf" => "+∞".to_string(),
        other => other.to_string(),
    }
}

/// One record of the page against the trace the API gives for the page's address.
fn check(lab: &Lab, record: &Value) {
    let action = record["action"].as_str().unwrap();
    let search = record["search"].as_str().unwrap();
    let (status, trace) = lab.json(&format!("/api/trace?{search}"));
    assert_eq!(status, 200, "{action}: {trace}");
    let steps = trace["steps"].as_array().unwrap();
    let step = record["step"].as_u64().unwrap() as usize;
    assert_eq!(record["steps"], steps.len(), "{action}: step count");
    let hash = record["hash"].as_str().unwrap();
    if step == 0 {
        assert!(
            !hash.contains("step=") || hash == "#step=0",
            "{action}: {hash}"
        );
        assert!(record["lit"].as_array().unwrap().is_empty(), "{action}");
        assert_eq!(record["sentence"], "", "{action}");
        return;
    }
    assert_eq!(
        hash,
        format!("#step={step}"),
        "{action}: the address keeps the step"
    );
    let expected = &steps[step - 1];
    let iteration = trace["iterations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| {
            let first = i["first_step"].as_u64().unwrap() as usize;
            let last = i["last_step"].as_u64().unwrap() as usize;
            (first..=last).contains(&step)
        })
        .expect("the step belongs to an iteration");
    let totals = &iteration["totals"];
    assert_eq!(
        record["visited"],
        format!("{} / {}", expected["visited"], totals["nodes"]),
        "{action}"
    );
    assert_eq!(
        record["leaves"],
        format!("{} / {}", expected["leaves"], totals["leaves"]),
        "{action}"
    );
    assert_eq!(record["pruned"], expected["pruned"].to_string(), "{action}");
    assert_eq!(record["sentence"], expected["text"], "{action}");
    assert_eq!(
        record["lit"],
        serde_json::json!([expected["line"]]),
        "{action}"
    );
    if trace["values"]["unit"] == "" {
        assert_eq!(record["alpha"], plain_bound(&expected["alpha"]), "{action}");
        assert_eq!(record["beta"], plain_bound(&expected["beta"]), "{action}");
    }
}

#[test]
fn the_lab_page_follows_its_address_through_every_control() {
    if !tools_or_skip() {
        return;
    }
    let lab = Lab::start(&[]);
    let out = std::env::temp_dir().join(format!("brudno-lab-page-{}.json", std::process::id()));
    let mut command = Command::new("node");
    command
        .arg(root().join("tests/browser/lab_page.mjs"))
        .arg(lab.url())
        .arg(&out);
    if let Some(shot) = std::env::var_os("BRUDNO_LAB_SCREENSHOT") {
        command.arg(Path::new(&shot));
    }
    let run = command.output().expect("node runs");
    assert!(
        run.status.success(),
        "lab_page.mjs failed: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    let result: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    std::fs::remove_file(&out).ok();
    let failures = result["failures"].as_array().unwrap();
    assert!(failures.is_empty(), "in the browser: {failures:?}");
    let records = result["records"].as_array().unwrap();
    assert_eq!(records.len(), 8, "every action recorded");
    for record in records {
        check(&lab, record);
    }
    // The address says what each action changed.
    let search = |i: usize| records[i]["search"].as_str().unwrap().to_string();
    assert!(search(0).contains("tree=standing"), "{}", search(0));
    assert!(search(2).contains("random=1") && search(2).contains("depth=4"));
    assert_ne!(search(2), search(3), "a new seed is a new address");
    assert!(search(3).contains("seed="));
    assert!(search(4).starts_with("fen=rnb1kbnr/pppp1ppp/8/4q3/4P3/5N2/PPPP1PPP/RNBQKB1R+w"));
    assert!(search(4).contains("depth=2"));
    assert!(search(5).contains("moves=f3e5"), "{}", search(5));
    assert!(search(6).contains("algorithm=engine"));
    // After Nxe5 the board shows one piece fewer (the queen is gone).
    assert_eq!(records[4]["pieces"], 31);
    assert_eq!(records[5]["pieces"], 30);
    // The keys moved the step: 6 right, 9 right, End, 12 right, 5 right 2 left, End, Home 3.
    let steps: Vec<u64> = records
        .iter()
        .map(|r| r["step"].as_u64().unwrap())
        .collect();
    assert_eq!(steps[1], 6);
    assert_eq!(steps[2], 9);
    assert_eq!(steps[3], records[3]["steps"].as_u64().unwrap());
    assert_eq!(steps[4], 12);
    assert_eq!(steps[5], 3);
    assert_eq!(steps[7], 3);
}
