//! A suite file read into tests: every line parsed, every position and move checked, before
//! anything is searched.
//!
//! Reading never fails as a whole: an unreadable file, a line that does not parse, a position
//! that is not legal and a move that is illegal or ambiguous each become an `InvalidLine`
//! with the file and line number, and the rest of the file is used. Bytes that are not UTF-8
//! are decoded lossily (a player's name in a comment must not cost the line). Records that
//! are perft tests or carry no test at all are counted, not searched.

use std::path::Path;

use super::expect::{Expectation, Task, read_task};
use super::record::{EpdRecord, parse_line};
use super::scorecard::InvalidLine;
use brudno_engine::position::Position;

/// One search test, ready to run.
#[derive(Clone, Debug)]
pub struct Test {
    /// The record as read.
    pub record: EpdRecord,
    /// Its position.
    pub position: Position,
    /// What it expects.
    pub expectation: Expectation,
}

/// A file's tests and what could not be used.
#[derive(Clone, Debug, Default)]
pub struct Suite {
    /// The file as named on the command line.
    pub name: String,
    /// The search tests, in file order (after `--only`).
    pub tests: Vec<Test>,
    /// Lines that could not be used.
    pub invalid: Vec<InvalidLine>,
    /// Records with perft counts and no search test.
    pub perft_records: usize,
    /// Records with no test operation.
    pub untested_records: usize,
}

/// Reads a suite file. `only`, when not empty, keeps the tests whose `id` is listed (invalid
/// lines are still reported when their `id` is listed or cannot be known).
pub fn load(path: &Path, only: &[String]) -> Suite {
    let name = path.display().to_string();
    match std::fs::read(path) {
        Ok(bytes) => from_text(&name, &String::from_utf8_lossy(&bytes), only),
        Err(error) => Suite {
            invalid: vec![InvalidLine {
                file: name.clone(),
                line: None,
                message: format!("cannot read the file: {error}"),
            }],
            name,
            ..Suite::default()
        },
    }
}

/// Reads a suite from its text; `name` is used in messages.
pub fn from_text(name: &str, text: &str, only: &[String]) -> Suite {
    let mut suite = Suite {
        name: name.to_string(),
        ..Suite::default()
    };
    let selected = |id: &str| only.is_empty() || only.iter().any(|wanted| wanted == id);
    for (index, line) in text.lines().enumerate() {
        let line_number = index + 1;
        let invalid = |message: String| InvalidLine {
            file: name.to_string(),
            line: Some(line_number),
            message,
        };
        let record = match parse_line(line, line_number) {
            Ok(Some(record)) => record,
            Ok(None) => continue,
            Err(message) => {
                suite.invalid.push(invalid(message));
                continue;
            }
        };
        if !selected(&record.id()) {
            continue;
        }
        // Perft records are not searched, so their position is not needed here (perftsuite
        // has a position shakmaty refuses, with an impossible check, that perft still defines).
        if is_perft_only(&record) {
            suite.perft_records += 1;
            continue;
        }
        let position = match record.position() {
            Ok(position) => position,
            Err(message) => {
                suite.invalid.push(invalid(message));
                continue;
            }
        };
        match read_task(&record, &position) {
            Ok(Task::Search(expectation)) => suite.tests.push(Test {
                record,
                position,
                expectation,
            }),
            Ok(Task::Perft(_)) => suite.perft_records += 1,
            Ok(Task::Nothing) => suite.untested_records += 1,
            Err(message) => suite.invalid.push(invalid(message)),
        }
    }
    suite
}

/// Whether a record carries perft counts (`D1`..`Dn`) and no search operation.
fn is_perft_only(record: &EpdRecord) -> bool {
    let is_depth = |opcode: &str| {
        opcode
            .strip_prefix('D')
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    };
    record.operations.iter().any(|op| is_depth(&op.opcode))
        && ["bm", "am", "dm", "c0"]
            .iter()
            .all(|opcode| record.operands(opcode).is_none())
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "\
# a comment
6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - dm 1; id \"m1\";
6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - bm Rd7 Rd8; id \"two\";
6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - bm Rd9; id \"bad move\";
not epd
8/8/8/8/8/8/8/K6k w - - ;D1 3
B6b/8/8/8/2K5/5k2/8/b6B b - - ;D1 8 ;D2 88
8/8/8/8/8/8/8/K6K w - - bm Kb2; id \"two white kings\";
8/8/8/8/8/8/8/K6k w - - id \"nothing\";
";

    #[test]
    fn every_line_is_used_counted_or_reported() {
        let suite = from_text("t.epd", TEXT, &[]);
        let ids: Vec<String> = suite.tests.iter().map(|t| t.record.id()).collect();
        assert_eq!(ids, ["m1", "two"]);
        assert_eq!(suite.tests[1].expectation.best.len(), 2);
        let lines: Vec<Option<usize>> = suite.invalid.iter().map(|i| i.line).collect();
        assert_eq!(lines, [Some(4), Some(5), Some(8)]);
        assert!(suite.invalid[0].to_string().starts_with("t.epd:4: bm:"));
        // The second perft record has an impossible check: still a perft record, not invalid.
        assert_eq!((suite.perft_records, suite.untested_records), (2, 1));
    }

    #[test]
    fn only_selects_by_id() {
        let suite = from_text("t.epd", TEXT, &["two".to_string(), "bad move".to_string()]);
        assert_eq!(suite.tests.len(), 1);
        assert_eq!(suite.tests[0].record.id(), "two");
        // The unparsable line cannot be matched by id and is still reported.
        assert_eq!(suite.invalid.len(), 2);
    }

    #[test]
    fn unreadable_file_is_one_invalid_entry() {
        let suite = load(Path::new("/nonexistent/brudno/suite.epd"), &[]);
        assert!(suite.tests.is_empty());
        assert_eq!(suite.invalid.len(), 1);
        assert_eq!(suite.invalid[0].line, None);
    }
}
