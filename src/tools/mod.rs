//! Command-line tools built on the engine: bench, perft, EPD records, the board display and
//! the search lab (`ebf`).

pub mod bench;
pub mod display;
pub mod ebf;
pub mod epd;
pub mod perft;
