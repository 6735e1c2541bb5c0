//! Fuzz target for EPD files as `brudno epd` reads them (`tools/epd`).
//!
//! The input is a whole file. Every line is used, counted or reported: the tests, perft and
//! untested records and invalid lines add up to the records `parse_text` finds plus the lines
//! it refuses. Every move a test expects is legal in its position, the expectation can be
//! written back in SAN, and judging any legal move gives an answer.

use super::common::text;
use crate::tools::epd::expect::mates_within;
use crate::tools::epd::{parse_text, suite};

/// Reads the input as an EPD file.
pub fn suite(data: &[u8]) {
    let text = text(data);
    let (records, errors) = parse_text(&text);
    for record in &records {
        let _ = (record.id(), record.fen());
    }
    let suite = suite::from_text("fuzz.epd", &text, &[]);
    let used = suite.tests.len() + suite.perft_records + suite.untested_records;
    assert_eq!(
        used + suite.invalid.len(),
        records.len() + errors.len(),
        "a line was neither used, counted nor reported"
    );
    for invalid in &suite.invalid {
        assert!(!invalid.to_string().is_empty());
    }
    for test in &suite.tests {
        let legal = test.position.legal_moves();
        let expectation = &test.expectation;
        let expected = expectation
            .best
            .iter()
            .chain(&expectation.avoid)
            .chain(expectation.points.iter().map(|(m, _)| m));
        for m in expected {
            assert!(
                legal.contains(m),
                "{}: {m:?} is not legal",
                test.record.id()
            );
        }
        assert!(!expectation.describe(&test.position).is_empty());
        for &m in legal.iter().take(8) {
            let verdict = expectation.judge(Some(m), 0);
            assert!(verdict.points.is_none_or(|p| p <= expectation.max_points()));
        }
        let _ = expectation.judge(None, 0);
        if let Some(moves) = expectation.mate {
            let _ = mates_within(0, moves);
        }
    }
}
