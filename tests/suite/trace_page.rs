//! The `--html` page of `brudno trace`, tested in a real browser: headless Chromium opens the
//! generated file at several `#step=N` and the rendered DOM must show the counters, the
//! window, the sentence and the lit pseudocode line of step N of the JSON trace written by
//! the same run.
//!
//! Chromium is Debian's `chromium` package (`.ci/run` installs it). On a machine without it
//! the test says so and passes, unless `BRUDNO_REQUIRE_BROWSER=1` (set by `.ci/run`), which
//! makes a missing browser a failure.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::run_brudno;
use serde_json::Value;

/// The browser: `BRUDNO_CHROMIUM`, or `chromium` / `chromium-browser` on the PATH.
fn chromium() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("BRUDNO_CHROMIUM") {
        return Some(PathBuf::from(path));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|dir| ["chromium", "chromium-browser"].map(|name| dir.join(name)))
        .find(|candidate| candidate.is_file())
}

fn browser_or_skip() -> Option<PathBuf> {
    let found = chromium();
    if found.is_none() {
        assert!(
            std::env::var("BRUDNO_REQUIRE_BROWSER").as_deref() != Ok("1"),
            "BRUDNO_REQUIRE_BROWSER=1 but no chromium on the PATH (apt-get install chromium)"
        );
        eprintln!("trace_page: no chromium on the PATH; the page is not tested in a browser");
    }
    found
}

/// The DOM of `page` at `#step=N` after its scripts ran.
fn dump_dom(browser: &Path, page: &Path, step: usize) -> String {
    let profile = std::env::temp_dir().join(format!(
        "brudno-chromium-{}-{step}-{}",
        std::process::id(),
        page.file_stem().unwrap().to_string_lossy()
    ));
    let url = format!("file://{}#step={step}", page.display());
    let output = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--virtual-time-budget=3000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("--dump-dom")
        .arg(&url)
        .output()
        .expect("chromium runs");
    let _ = std::fs::remove_dir_all(&profile);
    let dom = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        dom.contains("</html>"),
        "chromium gave no DOM for {url}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    dom
}

fn unescape(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&nbsp;", "\u{a0}")
        .replace("&amp;", "&")
}

/// The text inside the element with `id` (no nested elements expected).
fn text_of(dom: &str, id: &str) -> String {
    let marker = format!("id=\"{id}\"");
    let at = dom
        .find(&marker)
        .unwrap_or_else(|| panic!("no element #{id} in the page"));
    let open_end = at + dom[at..].find('>').unwrap() + 1;
    let close = open_end + dom[open_end..].find("</").unwrap();
    unescape(&dom[open_end..close])
}

/// The `data-line` of every pseudocode line with the class `lit`.
fn lit_lines(dom: &str) -> Vec<u64> {
    let mut lit = Vec::new();
    for (at, _) in dom.match_indices("<div") {
        let tag = &dom[at..at + dom[at..].find('>').unwrap()];
        let Some(class_at) = tag.find("class=\"") else {
            continue;
        };
        let class = &tag[class_at + 7..];
        let class = &class[..class.find('"').unwrap()];
        let classes: Vec<&str> = class.split_whitespace().collect();
        if !classes.contains(&"code-line") || !classes.contains(&"lit") {
            continue;
        }
        let line_at = tag.find("data-line=\"").expect("a code line has data-line") + 11;
        let line = &tag[line_at..];
        lit.push(line[..line.find('"').unwrap()].parse().unwrap());
    }
    lit
}

/// How the page writes a bound: integers as they are, infinities as −∞ / +∞, none as —.
fn plain_bound(value: &Value) -> String {
    match value {
        Value::Null => "—".to_string(),
        Value::String(s) if s == "-inf" => "−∞".to_string(),
        Value::String(s) if s == "+inf" => "+∞".to_string(),
        other => other.to_string(),
    }
}

/// Writes the page and the JSON of one trace into a fresh folder.
fn write_trace(name: &str, args: &[&str]) -> (PathBuf, Value) {
    let dir = std::env::temp_dir().join(format!("brudno-trace-page-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join(format!("{name}.html"));
    let json = dir.join(format!("{name}.json"));
    let mut all = vec!["trace", "--quiet"];
    all.extend_from_slice(args);
    all.extend_from_slice(&[
        "--html",
        page.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ]);
    let (status, _, err) = run_brudno(&all);
    assert!(status.success(), "{err}");
    let trace = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    (page, trace)
}

/// Checks the page at `#step=N` against step N of the trace (step 0: before any step).
fn check_step(browser: &Path, page: &Path, trace: &Value, step: usize, exact_bounds: bool) {
    let dom = dump_dom(browser, page, step);
    let steps = trace["steps"].as_array().unwrap();
    assert_eq!(text_of(&dom, "step-number"), step.to_string());
    assert_eq!(text_of(&dom, "step-count"), steps.len().to_string());
    if step == 0 {
        assert_eq!(text_of(&dom, "step-text").trim(), "");
        assert!(
            lit_lines(&dom).is_empty(),
            "no line is lit before the first step"
        );
        assert_eq!(text_of(&dom, "leaves").split(" / ").next(), Some("0"));
        return;
    }
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
        text_of(&dom, "visited"),
        format!("{} / {}", expected["visited"], totals["nodes"]),
        "step {step}"
    );
    assert_eq!(
        text_of(&dom, "leaves"),
        format!("{} / {}", expected["leaves"], totals["leaves"]),
        "step {step}"
    );
    assert_eq!(
        text_of(&dom, "pruned"),
        expected["pruned"].to_string(),
        "step {step}"
    );
    if exact_bounds {
        assert_eq!(
            text_of(&dom, "alpha"),
            plain_bound(&expected["alpha"]),
            "step {step}"
        );
        assert_eq!(
            text_of(&dom, "beta"),
            plain_bound(&expected["beta"]),
            "step {step}"
        );
    }
    assert_eq!(
        text_of(&dom, "step-text"),
        expected["text"].as_str().unwrap(),
        "step {step}"
    );
    assert_eq!(
        lit_lines(&dom),
        [expected["line"].as_u64().unwrap()],
        "step {step}"
    );
    // The node of the step is drawn as the current one.
    let node = expected["node"].as_u64().unwrap();
    let marker = format!("data-node=\"{node}\"");
    let at = dom
        .find(&marker)
        .unwrap_or_else(|| panic!("node {node} is not drawn"));
    let tag = &dom[dom[..at].rfind('<').unwrap()..at + dom[at..].find('>').unwrap()];
    assert!(tag.contains("data-state=\"current\""), "step {step}: {tag}");
}

#[test]
fn the_standing_tree_page_shows_each_step() {
    let Some(browser) = browser_or_skip() else {
        return;
    };
    let (page, trace) = write_trace(
        "standing",
        &["--tree", "standing", "--compare", "--orderings"],
    );
    let count = trace["steps"].as_array().unwrap().len();
    // Before the first step, the first leaf, the cut-off in the second branch, the end.
    let cutoff = trace["steps"]
        .as_array()
        .unwrap()
        .iter()
        .position(|s| s["kind"] == "cutoff")
        .unwrap()
        + 1;
    for step in [0, 3, cutoff, count] {
        check_step(&browser, &page, &trace, step, true);
    }
    // The sentence of the cut-off is the textbook's.
    let dom = dump_dom(&browser, &page, cutoff);
    assert_eq!(
        text_of(&dom, "step-text"),
        "MIN node 2 has 2 ≤ α 3: the remaining 2 siblings are skipped."
    );
    // The two skipped leaves are drawn as pruned; nothing is pruned before the cut-off.
    for label_node in [7, 8] {
        let marker = format!("data-node=\"{label_node}\"");
        let at = dom.find(&marker).unwrap();
        let tag = &dom[dom[..at].rfind('<').unwrap()..at + dom[at..].find('>').unwrap()];
        assert!(tag.contains("data-state=\"pruned\""), "{tag}");
    }
    let before = dump_dom(&browser, &page, cutoff - 1);
    assert!(!before.contains("data-state=\"pruned\""));
    // The comparison and orderings tables are on the page.
    assert!(dom.contains("alphabeta-ordered"));
    assert!(dom.contains("best case"));
    std::fs::remove_dir_all(page.parent().unwrap()).ok();
}

#[test]
fn a_chess_page_shows_each_step() {
    let Some(browser) = browser_or_skip() else {
        return;
    };
    let (page, trace) = write_trace(
        "chess",
        &[
            "--startpos",
            "--moves",
            "e2e4",
            "e7e5",
            "--depth",
            "2",
            "--algorithm",
            "id-tt",
        ],
    );
    let steps = trace["steps"].as_array().unwrap();
    let cutoff = steps.iter().rposition(|s| s["kind"] == "cutoff").unwrap() + 1;
    for step in [1, steps.len() / 2, cutoff, steps.len()] {
        check_step(&browser, &page, &trace, step, false);
    }
    // Moves are shown in SAN, and a cut-off's skipped moves as one stub.
    let dom = dump_dom(&browser, &page, steps.len());
    assert!(dom.contains("Nf3"), "SAN moves on the page");
    assert!(dom.contains("skipped"), "a stub for the skipped moves");
    std::fs::remove_dir_all(page.parent().unwrap()).ok();
}
