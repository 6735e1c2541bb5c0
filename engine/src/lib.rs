//! Brudno's engine core: the position (`position`, shakmaty's board with the incremental
//! Zobrist key), the evaluation (`eval`: material, positional, NNUE), the search (`search`:
//! negamax alpha-beta with iterative deepening, the transposition table, the move picker,
//! time management, Lazy SMP, Syzygy probing), the opening book (`book`) and the generator
//! of random numbers they share (`rng`).
//!
//! It knows nothing of its front ends: no UCI text, no command line, no JSON, no HTTP. The UCI
//! loop (`brudno-uci`), the tools (`brudno-tools`) and the lab (`brudno-lab`) all drive the
//! same `search::Search`.

#![warn(missing_docs)]

pub mod book;
pub mod eval;
pub mod position;
pub mod rng;
pub mod search;
