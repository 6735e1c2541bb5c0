//! Brudno: a UCI chess engine on shakmaty, named after Alexander Brudno, who published the
//! first analysis of alpha-beta in 1963.
//!
//! The flow is `stdin -> uci::command -> uci loop -> search -> info/bestmove`; the command-line
//! tools (bench, perft, epd, ebf) drive the very same `search::Search`. This crate holds the
//! `brudno` binary and names the workspace's crates in one place: the engine core's modules
//! (`brudno-engine`), the UCI front end (`uci`), the tools (`tools`) and the lab (`lab`), for
//! the integration tests, the benches and the fuzz targets (`fuzzing`).

#![warn(missing_docs)]

pub use brudno_engine::{book, eval, position, rng, search};
pub use brudno_lab as lab;
pub use brudno_tools as tools;
pub use brudno_uci as uci;

#[doc(hidden)]
pub mod fuzzing;
