//! Command-line tools built on the engine: bench, perft, EPD test suites, the search lab (`ebf`),
//! the step-by-step trace of a search (`trace`) and its live page (`lab`),
//! the board display, and the self-play data generator and the tuner that produce the
//! evaluation weights.

pub mod bench;
pub mod datadump;
pub mod datafile;
pub mod datagen;
pub mod dataset;
pub mod datastore;
pub mod display;
pub mod ebf;
pub mod epd;
pub mod genfens;
pub mod lab;
pub mod nnue_info;
pub mod packed;
pub mod perft;
pub mod pgndata;
pub mod trace;
pub mod train;
pub mod tune;
pub mod viriformat;
