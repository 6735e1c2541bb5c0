//! A small efficiently updatable neural network (NNUE) evaluation, learnt from Brudno's own
//! games (`brudno datagen`, then `brudno train`).
//!
//! The shape (`Architecture`, read from the network file): 768 inputs (a piece of a colour
//! and role on a square, seen from one side: the board flipped for Black) per *king bucket*,
//! the bucket chosen by that side's king square, the board mirrored left to right when that
//! king stands on files e-h (so the king is always on the queen side); one hidden layer of
//! `hidden` neurons computed once for each side's perspective with the same weights (the
//! *accumulators*); the side to move's and the other side's accumulators, squared-clipped
//! (SCReLU), feed one output chosen among the *output buckets* by the number of pieces on
//! the board. One king bucket, no mirroring and one output bucket is the plain 768 -> H x 2
//! -> 1 network. Everything is integer: the accumulators are `i16` with weights scaled by
//! `QA`, the output weights by `QB`; a move changes the accumulators by a few rows of weights
//! (`accumulator.rs`), so a node costs a few hundred additions, not a full pass. The network
//! file (`network.rs`) is embedded in the binary (`embedded`); a search may be given another
//! (`SearchConfig::network`, which the front ends fill from `EvalFile`).
//!
//! The evaluation is from the side to move's point of view, in centipawns, and symmetric: a
//! position and its colour-flipped mirror score the same for their sides to move.

pub mod accumulator;
pub mod network;
pub mod simd;

use std::sync::{Arc, LazyLock};

use shakmaty::{Board, Color, File, Piece, Square};

pub use accumulator::Accumulator;
pub use network::Network;

use crate::eval::Value;
use crate::position::Position;

/// Inputs per king bucket and perspective: 2 colours x 6 roles x 64 squares.
pub const INPUTS: usize = 768;
/// Scale of the accumulator weights and of the clipped activation (1.0 = `QA`).
pub const QA: i32 = 255;
/// Scale of the output weights.
pub const QB: i32 = 64;
/// Output units to centipawns.
pub const SCALE: i32 = 400;
/// The widest hidden layer a file may declare.
pub const MAX_HIDDEN: usize = 4096;
/// The most king buckets a file may declare.
pub const MAX_KING_BUCKETS: usize = 32;
/// The most output buckets a file may declare.
pub const MAX_OUTPUT_BUCKETS: usize = 32;

/// The shape of a network: its king buckets, hidden layer and output buckets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Architecture {
    /// How many king buckets (input weight sets) there are.
    pub king_buckets: usize,
    /// The king bucket of each king square, seen from the side whose king it is (the board
    /// flipped for Black and, when `mirrored`, mirrored so the king is on files a-d).
    pub bucket_of: [u8; 64],
    /// Whether a king on files e-h mirrors the board left to right for its side.
    pub mirrored: bool,
    /// Hidden neurons per perspective (a multiple of `simd::LANES`).
    pub hidden: usize,
    /// How many output buckets there are, chosen by the number of pieces on the board.
    pub output_buckets: usize,
}

/// What a perspective's king square decides: the king bucket and whether the board is
/// mirrored. Two positions with the same key use the same input weights for that side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct KingKey {
    /// The king bucket.
    pub bucket: u8,
    /// Whether the board is mirrored left to right.
    pub mirror: bool,
}

impl KingKey {
    /// A small index of the key: `bucket * 2 + mirror`.
    #[inline]
    pub fn index(self) -> usize {
        usize::from(self.bucket) * 2 + usize::from(self.mirror)
    }
}

impl Architecture {
    /// The plain network: one king bucket, no mirroring, one output bucket.
    pub const fn plain(hidden: usize) -> Architecture {
        Architecture {
            king_buckets: 1,
            bucket_of: [0; 64],
            mirrored: false,
            hidden,
            output_buckets: 1,
        }
    }

    /// Inputs per perspective over all king buckets.
    #[inline]
    pub fn inputs(&self) -> usize {
        self.king_buckets * INPUTS
    }

    /// The key of `perspective` whose king stands on `king`.
    #[inline]
    pub fn king_key(&self, perspective: Color, king: Square) -> KingKey {
        let relative = relative(perspective, king);
        let mirror = self.mirrored && relative.file() >= File::E;
        let square = if mirror {
            flip_file(relative)
        } else {
            relative
        };
        KingKey {
            bucket: self.bucket_of[square as usize],
            mirror,
        }
    }

    /// The key of `perspective` on `board` (the bucket 0 key when that side has no king,
    /// which only a hand-made board can lack).
    #[inline]
    pub fn board_key(&self, perspective: Color, board: &Board) -> KingKey {
        board
            .king_of(perspective)
            .map_or_else(KingKey::default, |king| self.king_key(perspective, king))
    }

    /// The input index of `piece` on `square` seen from `perspective`, whose king key is
    /// `key`: own pieces first, the board flipped vertically for Black and mirrored when the
    /// key says so.
    #[inline]
    pub fn feature(&self, perspective: Color, key: KingKey, piece: Piece, square: Square) -> usize {
        // Without branches: Black's view flips the ranks (square ^ 56), a mirrored key the
        // files (square ^ 7). Called with one perspective and key for a whole update, the
        // flip and the bucket's offset are computed once.
        let flip = (usize::from(perspective == Color::Black) * 56) ^ (usize::from(key.mirror) * 7);
        let side = usize::from(piece.color != perspective);
        usize::from(key.bucket) * INPUTS
            + (side * 6 + (piece.role as usize - 1)) * 64
            + (square as usize ^ flip)
    }

    /// The output bucket of a board with `pieces` pieces (kings included).
    #[inline]
    pub fn output_bucket(&self, pieces: usize) -> usize {
        let per_bucket = 32usize.div_ceil(self.output_buckets);
        (pieces.saturating_sub(2) / per_bucket).min(self.output_buckets - 1)
    }

    /// Checks what a file declared: the limits, and every king square mapped to a bucket.
    pub fn check(&self) -> Result<(), String> {
        if self.hidden == 0 || !self.hidden.is_multiple_of(simd::LANES) || self.hidden > MAX_HIDDEN
        {
            return Err(format!(
                "hidden layer of {} neurons; it must be a multiple of {} up to {MAX_HIDDEN}",
                self.hidden,
                simd::LANES
            ));
        }
        if !(1..=MAX_KING_BUCKETS).contains(&self.king_buckets) {
            return Err(format!(
                "{} king buckets; 1 to {MAX_KING_BUCKETS} are allowed",
                self.king_buckets
            ));
        }
        if !(1..=MAX_OUTPUT_BUCKETS).contains(&self.output_buckets) {
            return Err(format!(
                "{} output buckets; 1 to {MAX_OUTPUT_BUCKETS} are allowed",
                self.output_buckets
            ));
        }
        if let Some(square) = self
            .bucket_of
            .iter()
            .position(|&b| usize::from(b) >= self.king_buckets)
        {
            return Err(format!(
                "king square {square} is mapped to bucket {}, beyond the {} buckets",
                self.bucket_of[square], self.king_buckets
            ));
        }
        Ok(())
    }
}

/// `square` seen from `perspective`: flipped vertically for Black.
#[inline]
fn relative(perspective: Color, square: Square) -> Square {
    match perspective {
        Color::White => square,
        Color::Black => square.flip_vertical(),
    }
}

/// `square` mirrored left to right (file a <-> h).
#[inline]
fn flip_file(square: Square) -> Square {
    square.flip_horizontal()
}

/// The network compiled into the binary: `nets/default.nnue`, or the file of `make
/// EVALFILE=...` (`build.rs`).
static EMBEDDED_BYTES: &[u8] = include_bytes!(env!("BRUDNO_NET"));

/// The embedded network, parsed once.
pub fn embedded() -> Arc<Network> {
    static EMBEDDED: LazyLock<Arc<Network>> = LazyLock::new(|| {
        Arc::new(Network::parse(EMBEDDED_BYTES).expect("the embedded network is valid"))
    });
    Arc::clone(&EMBEDDED)
}

/// Reads and checks the network file at `path`, or says why it cannot be used.
pub fn read_file(path: &str) -> Result<Network, String> {
    let cannot = |error: std::io::Error| format!("cannot read '{path}': {error}");
    // A FIFO, a device or a file larger than any network is refused before it is read.
    let metadata = std::fs::metadata(path).map_err(cannot)?;
    if !metadata.is_file() {
        return Err(format!("'{path}' is not a regular file"));
    }
    if metadata.len() > network::MAX_FILE_BYTES as u64 {
        return Err(format!(
            "'{path}' is {} bytes, larger than any network ({} at most)",
            metadata.len(),
            network::MAX_FILE_BYTES
        ));
    }
    let bytes = std::fs::read(path).map_err(cannot)?;
    Network::parse(&bytes).map_err(|why| format!("'{path}' refused: {why}"))
}

/// The evaluation of `pos` by `network` from scratch (no accumulator kept): the slow path
/// for tools and tests; the search updates its accumulators move by move.
pub fn evaluate(pos: &Position, network: &Network) -> Value {
    let accumulator = Accumulator::refreshed(pos.board(), network);
    network.output(&accumulator, pos.board(), pos.turn())
}
