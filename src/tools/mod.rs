//! Command-line tools built on the engine: bench, perft, EPD test suites and the board display.

pub mod bench;
pub mod display;
pub mod epd;
pub mod perft;
