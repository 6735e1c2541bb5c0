//! Every relative link in README.md and docs/*.md leads somewhere: the file exists, and a
//! `#anchor` names a heading of the file it points to, by GitHub's rule for heading anchors
//! (lower case; letters, digits, spaces, hyphens and underscores kept; spaces become hyphens;
//! a repeated heading gets `-1`, `-2`, ...), or an explicit `<a id="...">` in it. Links inside
//! code (fenced blocks, `inline`) are text, not links.

use std::collections::{BTreeSet, HashMap};
use std::fs;
use std::path::{Path, PathBuf};

/// The anchor GitHub gives a heading's text.
fn slug(heading: &str) -> String {
    let text = strip_link_targets(heading);
    text.trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// `[text](target)` becomes `text`: a heading's anchor is made from what it shows.
fn strip_link_targets(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(close) = rest.find("](") {
        let Some(end) = rest[close..].find(')') else {
            break;
        };
        out.push_str(&rest[..close]);
        rest = &rest[close + end + 1..];
    }
    out.push_str(rest);
    out
}

/// The lines of a Markdown file outside fenced code blocks, with their numbers.
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut fenced = false;
    let mut lines = Vec::new();
    for (number, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced {
            lines.push((number + 1, line));
        }
    }
    lines
}

/// The anchors of a Markdown file: its headings' and its explicit `<a id="...">`.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut anchors = BTreeSet::new();
    for (_, line) in prose_lines(text) {
        for part in line.split("<a id=\"").skip(1) {
            if let Some(end) = part.find('"') {
                anchors.insert(part[..end].to_string());
            }
        }
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if hashes == 0 || hashes > 6 || !line[hashes..].starts_with(' ') {
            continue;
        }
        let base = slug(&line[hashes..]);
        let count = seen.entry(base.clone()).or_insert(0);
        anchors.insert(if *count == 0 {
            base.clone()
        } else {
            format!("{base}-{count}")
        });
        *count += 1;
    }
    anchors
}

/// The targets of the inline links `[text](target)` of a line, outside inline code.
fn link_targets(line: &str) -> Vec<String> {
    // Inline code is text: drop what lies between backticks.
    let prose: String = line
        .split('`')
        .enumerate()
        .filter(|(i, _)| i % 2 == 0)
        .map(|(_, part)| part)
        .collect::<Vec<_>>()
        .join(" ");
    let mut targets = Vec::new();
    let mut rest = prose.as_str();
    while let Some(open) = rest.find("](") {
        let after = &rest[open + 2..];
        let Some(end) = after.find(')') else {
            break;
        };
        // A title after the target (`(file "title")`) is not part of it.
        let target = after[..end].split_whitespace().next().unwrap_or("");
        targets.push(target.to_string());
        rest = &after[end + 1..];
    }
    targets
}

/// The Markdown files whose links are checked: README.md and docs/*.md.
fn documents(root: &Path) -> Vec<PathBuf> {
    let mut files = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = fs::read_dir(root.join("docs"))
        .expect("docs/ exists")
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

/// Every broken relative link of the documents, as `file:line: target (why)`.
fn broken_links(root: &Path) -> Vec<String> {
    let mut broken = Vec::new();
    for file in documents(root) {
        let text = fs::read_to_string(&file).unwrap();
        let name = file.strip_prefix(root).unwrap().display().to_string();
        for (number, line) in prose_lines(&text) {
            for target in link_targets(line) {
                if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                    continue;
                }
                let (path, anchor) = match target.split_once('#') {
                    Some((path, anchor)) => (path, Some(anchor)),
                    None => (target.as_str(), None),
                };
                let linked = if path.is_empty() {
                    file.clone()
                } else {
                    file.parent().unwrap().join(path)
                };
                if !linked.exists() {
                    broken.push(format!("{name}:{number}: {target} (no such file)"));
                    continue;
                }
                if let Some(anchor) = anchor
                    && linked.extension().is_some_and(|e| e == "md")
                {
                    let linked_text = fs::read_to_string(&linked).unwrap();
                    if !anchors(&linked_text).contains(anchor) {
                        broken.push(format!("{name}:{number}: {target} (no such heading)"));
                    }
                }
            }
        }
    }
    broken
}

#[test]
fn anchors_follow_githubs_rule() {
    assert_eq!(slug(" Strength and speed"), "strength-and-speed");
    assert_eq!(
        slug(" The search core (issue 32), measured"),
        "the-search-core-issue-32-measured"
    );
    assert_eq!(
        slug(" Long runs: `fastchess`, 10+0.1"),
        "long-runs-fastchess-1001"
    );
    assert_eq!(slug(" See [bench](docs/bench.md) here"), "see-bench-here");
    let text = "# A\n## Notes\n```\n## Not a heading\n```\n## Notes\n<a id=\"here\"></a>**Bold**\n";
    let found = anchors(text);
    assert!(
        found.contains("notes") && found.contains("notes-1"),
        "{found:?}"
    );
    assert!(found.contains("here"), "{found:?}");
    assert!(!found.contains("not-a-heading"));
}

#[test]
fn links_outside_code_are_found() {
    assert_eq!(
        link_targets("see [a](docs/a.md#x) and `[b](c.md)` and [d](https://e.org)"),
        vec!["docs/a.md#x", "https://e.org"]
    );
}

#[test]
fn every_relative_link_and_anchor_of_the_documents_resolves() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let broken = broken_links(root);
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}
