//! Command-line tools built on the engine core: bench, perft, EPD test suites, the search lab
//! (`ebf`), the board display, the self-play data generator with its data (`datagen`,
//! `viriformat`, `dataset`, `datastore`), and the trainer and the tuner that make the
//! evaluation from it. Each tool searches with the engine's own `search::Search`. The
//! step-by-step trace and its live page are the `brudno-lab` crate, built on these.

#![warn(missing_docs)]

pub mod bench;
pub mod cli;
pub mod datadump;
pub mod datafile;
pub mod datagen;
pub mod dataset;
pub mod datastore;
pub mod display;
pub mod ebf;
pub mod epd;
pub mod evalfile;
pub mod genfens;
pub mod nnue_info;
pub mod packed;
pub mod perft;
pub mod pgndata;
pub mod train;
pub mod tune;
pub mod viriformat;
