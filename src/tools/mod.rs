//! Command-line tools built on the engine: bench, perft, EPD test suites, the search lab (`ebf`),
//! the step-by-step trace of a search (`trace`),
//! the board display, and the self-play and tuning tools that produce the evaluation weights.

pub mod bench;
pub mod display;
pub mod ebf;
pub mod epd;
pub mod perft;
pub mod selfplay;
pub mod trace;
pub mod tune;
