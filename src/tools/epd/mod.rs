//! EPD test suites: reading records, reading the moves suites write, judging answers, and
//! `brudno epd`, which runs WAC, ECM, Arasan, STS or any EPD file through the engine's own
//! search and prints a scorecard.
//!
//! `record` splits a line into position fields and operations. Nothing here has its own
//! search: every position goes through `search::Search`, as in UCI play.

pub mod record;

pub use record::{EpdRecord, Operation, parse_line, parse_text};
