//! Brudno: a UCI chess engine on shakmaty, named after Alexander Brudno, who published the
//! first analysis of alpha-beta in 1963.
//!
//! The flow is `stdin -> uci::command -> uci loop -> search -> info/bestmove`; the command-line
//! tools (bench, perft, epd, ebf) drive the very same `search::Search`.

#![warn(missing_docs)]

pub mod book;
pub mod eval;
#[doc(hidden)]
pub mod fuzzing;
pub mod position;
pub mod rng;
pub mod search;
pub mod tools;
pub mod uci;
