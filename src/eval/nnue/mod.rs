//! A small efficiently updatable neural network (NNUE) evaluation, learnt from Brudno's own
//! games (`brudno datagen`, then `brudno train`).
//!
//! The shape: 768 inputs (a piece of a colour and role on a square, seen from one side: the
//! board flipped for Black) feed one hidden layer of `HIDDEN` neurons, computed once for each
//! side's perspective with the same weights (the *accumulators*); the side to move's and the
//! other side's accumulators, squared-clipped (SCReLU), feed one output. Everything is integer:
//! the accumulators are `i16` with weights scaled by `QA`, the output weights by `QB`; the
//! accumulators change with each move by a few rows of weights (`accumulator.rs`), so a node
//! costs a few hundred additions, not a full pass. The network file (`network.rs`) is embedded
//! in the binary and can be replaced at run time (`EvalFile`).
//!
//! The evaluation is from the side to move's point of view, in centipawns, and symmetric: a
//! position and its colour-flipped mirror score the same for their sides to move.

pub mod accumulator;
pub mod network;
pub mod simd;

use std::sync::{Arc, LazyLock, RwLock};

use shakmaty::{Color, Piece, Square};

pub use accumulator::Accumulator;
pub use network::Network;

use crate::eval::Value;
use crate::position::Position;

/// Inputs per perspective: 2 colours x 6 roles x 64 squares.
pub const INPUTS: usize = 768;
/// Hidden neurons per perspective.
pub const HIDDEN: usize = 256;
/// Scale of the accumulator weights and of the clipped activation (1.0 = `QA`).
pub const QA: i32 = 255;
/// Scale of the output weights.
pub const QB: i32 = 64;
/// Output units to centipawns.
pub const SCALE: i32 = 400;

/// The network compiled into the binary.
static EMBEDDED_BYTES: &[u8] = include_bytes!("../../../nets/default.nnue");

/// The embedded network, parsed once.
pub fn embedded() -> Arc<Network> {
    static EMBEDDED: LazyLock<Arc<Network>> = LazyLock::new(|| {
        Arc::new(Network::parse(EMBEDDED_BYTES).expect("the embedded network is valid"))
    });
    Arc::clone(&EMBEDDED)
}

static ACTIVE: LazyLock<RwLock<Arc<Network>>> = LazyLock::new(|| RwLock::new(embedded()));

/// The network searches use: the embedded one unless `EvalFile` loaded another.
pub fn active() -> Arc<Network> {
    Arc::clone(&ACTIVE.read().unwrap_or_else(|p| p.into_inner()))
}

/// Makes `network` the one searches use from now on.
pub fn set_active(network: Arc<Network>) {
    *ACTIVE.write().unwrap_or_else(|p| p.into_inner()) = network;
}

/// Makes the network in the file at `path` the active one (`<embedded>` or an empty path:
/// the embedded network). Returns the message for the user: what was loaded, or why not,
/// in which case the network in use stays.
pub fn load(path: &str) -> String {
    try_load(path).unwrap_or_else(|why| why)
}

/// As `load`, with a refused file as the error.
pub fn try_load(path: &str) -> Result<String, String> {
    if path.is_empty() || path == "<embedded>" {
        let network = embedded();
        let checksum = network.checksum();
        set_active(network);
        return Ok(format!(
            "EvalFile: using the embedded network (checksum {checksum:016x})"
        ));
    }
    let bytes = std::fs::read(path).map_err(|error| {
        format!("EvalFile: cannot read '{path}': {error}; the network in use stays")
    })?;
    match Network::parse(&bytes) {
        Ok(network) => {
            let checksum = network.checksum();
            set_active(Arc::new(network));
            Ok(format!(
                "EvalFile: loaded '{path}' (checksum {checksum:016x})"
            ))
        }
        Err(why) => Err(format!(
            "EvalFile: '{path}' refused: {why}; the network in use stays"
        )),
    }
}

/// The input index of `piece` on `square` seen from `perspective`: own pieces first, the
/// board flipped vertically for Black.
#[inline]
pub fn feature(perspective: Color, piece: Piece, square: Square) -> usize {
    let relative_square = match perspective {
        Color::White => square as usize,
        Color::Black => square as usize ^ 56,
    };
    let side = usize::from(piece.color != perspective);
    (side * 6 + (piece.role as usize - 1)) * 64 + relative_square
}

/// The evaluation of `pos` from scratch (no accumulator kept): the slow path for tools and
/// tests; the search updates its accumulators move by move.
pub fn evaluate(pos: &Position) -> Value {
    let network = active();
    let accumulator = Accumulator::refreshed(pos.board(), &network);
    network.output(&accumulator, pos.turn())
}
