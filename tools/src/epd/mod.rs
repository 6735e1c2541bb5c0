//! EPD test suites: reading records, reading the moves suites write, judging answers, and
//! `brudno epd`, which runs WAC, ECM, Arasan, STS or any EPD file through the engine's own
//! search and prints a scorecard.
//!
//! The pieces, in the order data flows through them: `record` splits a line into position
//! fields and operations; `notation` reads moves leniently (SAN as real suites write it,
//! coordinates) and strictly checks them against the position; `expect` turns a record into
//! a test (`bm`, `am`, `dm`, STS points) and judges a move; `suite` reads a whole file,
//! reporting bad lines; `runner` searches each test; `scorecard` formats the records, the
//! summaries and the JSON/CSV. `options` is the command line. Nothing here has its own
//! search: every position goes through `search::Search`, as in UCI play.

pub mod expect;
pub mod notation;
pub mod options;
pub mod record;
pub mod runner;
pub mod scorecard;
pub mod suite;

pub use options::EpdArgs;
pub use record::{EpdRecord, Operation, parse_line, parse_text};
pub use runner::run;
