//! The network file and the output layer.
//!
//! A network file, format version 2, little-endian:
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | magic `BRUDNNUE` |
//! | 8..12 | format version (2) |
//! | 12..16 | inputs per king bucket (768) |
//! | 16..20 | king buckets `N` |
//! | 20..24 | 1 when a king on files e-h mirrors the board, else 0 |
//! | 24..88 | the king bucket of each king square (64 bytes, a1 = 0 ... h8 = 63, seen from the king's side) |
//! | 88..92 | hidden neurons `H` (a multiple of 16) |
//! | 92..96 | output buckets `K` (by the number of pieces) |
//! | 96..100, 100..104, 104..108 | `QA`, `QB`, `SCALE` |
//! | 108..112 | activation (1: SCReLU) |
//! | 112..128 | reserved, zero |
//! | then | input weights, `i16`, `N x 768` rows of `H` (row = input) |
//! | then | hidden biases, `H` x `i16` |
//! | then | output weights, `K` buckets of `2 x H` x `i16` (side to move's half first) |
//! | then | output biases, `K` x `i32` |
//! | last 8 | FNV-1a 64 checksum of every byte before it |
//!
//! Parsing checks the length, the magic, the version, the architecture, the scales and the
//! checksum, and says which one is wrong: a truncated or corrupt file is refused, never
//! half-loaded. Version 1 (768 -> 256 x 2 -> 1, a 32-byte header) is refused with its
//! version named; `brudno nnue-info` describes any file.

use shakmaty::{Board, Color};

use super::simd::Kernels;
use super::{Accumulator, Architecture, INPUTS, MAX_HIDDEN, QA, QB, SCALE};
use crate::eval::Value;

/// The magic bytes at the start of a network file.
pub const MAGIC: &[u8; 8] = b"BRUDNNUE";
/// The format version this build reads and writes.
pub const VERSION: u32 = 2;
/// Bytes before the weights.
pub const HEADER_BYTES: usize = 128;
/// The largest output weight magnitude the SCReLU kernel's 16-bit product holds
/// (`QA x 128 < 2^15`).
pub const MAX_OUTPUT_WEIGHT: u16 = 128;
/// The activation code of SCReLU.
const SCRELU: u32 = 1;

/// The quantised network.
#[derive(Clone)]
pub struct Network {
    /// The shape.
    pub arch: Architecture,
    /// Input weights: `arch.inputs()` rows of `arch.hidden`, row after row.
    pub w1: Vec<i16>,
    /// Hidden biases (`arch.hidden`).
    pub b1: Vec<i16>,
    /// Output weights: per output bucket, the side to move's half then the other side's.
    pub w2: Vec<i16>,
    /// Output biases, one per output bucket, scaled by `QA * QB`.
    pub b2: Vec<i32>,
    /// The loops this processor runs the network with, chosen once.
    kernels: Kernels,
}

impl PartialEq for Network {
    fn eq(&self, other: &Self) -> bool {
        self.arch == other.arch
            && self.w1 == other.w1
            && self.b1 == other.b1
            && self.w2 == other.w2
            && self.b2 == other.b2
    }
}

impl Eq for Network {}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Network({}, checksum {:016x})",
            self.describe(),
            self.checksum()
        )
    }
}

/// FNV-1a, 64 bits.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// The size of the file of a network of shape `arch`.
pub fn file_bytes(arch: &Architecture) -> usize {
    let hidden = arch.hidden;
    HEADER_BYTES
        + 2 * (arch.inputs() * hidden + hidden + arch.output_buckets * 2 * hidden)
        + 4 * arch.output_buckets
        + 8
}

/// Reads a little-endian `u32` at `at`.
fn word(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

/// The architecture a version-2 header declares (unchecked).
fn read_architecture(bytes: &[u8]) -> Architecture {
    let mut bucket_of = [0u8; 64];
    bucket_of.copy_from_slice(&bytes[24..88]);
    Architecture {
        king_buckets: word(bytes, 16) as usize,
        bucket_of,
        mirrored: word(bytes, 20) != 0,
        hidden: word(bytes, 88) as usize,
        output_buckets: word(bytes, 92) as usize,
    }
}

impl Network {
    /// A network of shape `arch` with every weight zero (scores everything 0).
    pub fn zeroed(arch: Architecture) -> Self {
        Self {
            arch,
            w1: vec![0; arch.inputs() * arch.hidden],
            b1: vec![0; arch.hidden],
            w2: vec![0; arch.output_buckets * 2 * arch.hidden],
            b2: vec![0; arch.output_buckets],
            kernels: Kernels::detect(),
        }
    }

    /// The loops this network runs with.
    #[inline]
    pub fn kernels(&self) -> &Kernels {
        &self.kernels
    }

    /// The input weights of input `feature`.
    #[inline]
    pub fn row(&self, feature: usize) -> &[i16] {
        let hidden = self.arch.hidden;
        &self.w1[feature * hidden..(feature + 1) * hidden]
    }

    /// The output weights of output bucket `bucket`: the side to move's half, then the
    /// other side's.
    #[inline]
    pub(super) fn output_weights(&self, bucket: usize) -> (&[i16], &[i16]) {
        let hidden = self.arch.hidden;
        let start = bucket * 2 * hidden;
        self.w2[start..start + 2 * hidden].split_at(hidden)
    }

    /// Reads a network file, or says what is wrong with it.
    pub fn parse(bytes: &[u8]) -> Result<Network, String> {
        if bytes.len() < 12 || &bytes[..8] != MAGIC {
            return Err("not a Brudno network file (no BRUDNNUE magic)".to_string());
        }
        let version = word(bytes, 8);
        if version != VERSION {
            return Err(format!(
                "network format version {version}; this build reads version {VERSION} \
                 (a file with an architecture header: king buckets, hidden size, output buckets)"
            ));
        }
        if bytes.len() < HEADER_BYTES {
            return Err(format!(
                "network file is {} bytes, shorter than its {HEADER_BYTES}-byte header",
                bytes.len()
            ));
        }
        if word(bytes, 12) as usize != INPUTS {
            return Err(format!(
                "{} inputs per king bucket; this build uses {INPUTS}",
                word(bytes, 12)
            ));
        }
        if word(bytes, 20) > 1 {
            return Err(format!(
                "mirroring flag {}; 0 (no) or 1 (yes) expected",
                word(bytes, 20)
            ));
        }
        if bytes[112..HEADER_BYTES].iter().any(|&b| b != 0) {
            return Err("the header's reserved bytes (112 to 127) are not zero".to_string());
        }
        let arch = read_architecture(bytes);
        arch.check()?;
        let scales = (
            word(bytes, 96) as i32,
            word(bytes, 100) as i32,
            word(bytes, 104) as i32,
        );
        if scales != (QA, QB, SCALE) {
            return Err(format!(
                "network scales QA {} QB {} SCALE {}; this build uses {QA} {QB} {SCALE}",
                scales.0, scales.1, scales.2
            ));
        }
        if word(bytes, 108) != SCRELU {
            return Err(format!(
                "activation {}; this build knows 1 (SCReLU)",
                word(bytes, 108)
            ));
        }
        if bytes.len() != file_bytes(&arch) {
            return Err(format!(
                "network file is {} bytes; its header declares {} (truncated or padded)",
                bytes.len(),
                file_bytes(&arch)
            ));
        }
        let body = &bytes[..bytes.len() - 8];
        let stored = u64::from_le_bytes(bytes[bytes.len() - 8..].try_into().unwrap_or([0; 8]));
        if fnv1a(body) != stored {
            return Err("network checksum does not match: the file is corrupt".to_string());
        }
        let mut network = Network::zeroed(arch);
        let mut at = HEADER_BYTES;
        let mut fill = |values: &mut [i16]| {
            for (v, pair) in values.iter_mut().zip(bytes[at..].chunks_exact(2)) {
                *v = i16::from_le_bytes([pair[0], pair[1]]);
            }
            at += 2 * values.len();
        };
        fill(&mut network.w1);
        fill(&mut network.b1);
        fill(&mut network.w2);
        for (bias, chunk) in network.b2.iter_mut().zip(bytes[at..].chunks_exact(4)) {
            *bias = i32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
        }
        network.check_output_range()?;
        Ok(network)
    }

    /// The output layer's arithmetic stays in range for every accumulator: the SCReLU kernel
    /// multiplies a clipped activation (at most `QA`) by an output weight in 16 bits, so each
    /// weight must be within `±MAX_OUTPUT_WEIGHT` (its sums are 64-bit and cannot overflow).
    /// A file that could overflow is refused here rather than scored wrongly in play.
    fn check_output_range(&self) -> Result<(), String> {
        if let Some((index, w)) = self
            .w2
            .iter()
            .enumerate()
            .find(|(_, w)| w.unsigned_abs() > MAX_OUTPUT_WEIGHT)
        {
            return Err(format!(
                "output weight {w} (index {index}) is beyond ±{MAX_OUTPUT_WEIGHT}: \
                 the 16-bit product with an activation of up to {QA} would overflow"
            ));
        }
        Ok(())
    }

    /// The file of this network.
    pub fn to_bytes(&self) -> Vec<u8> {
        let arch = &self.arch;
        let mut bytes = Vec::with_capacity(file_bytes(arch));
        bytes.extend_from_slice(MAGIC);
        for value in [
            VERSION,
            INPUTS as u32,
            arch.king_buckets as u32,
            u32::from(arch.mirrored),
        ] {
            bytes.extend_from_slice(&value.to_le_bytes());
        }
        bytes.extend_from_slice(&arch.bucket_of);
        for value in [
            arch.hidden as u32,
            arch.output_buckets as u32,
            QA as u32,
            QB as u32,
            SCALE as u32,
            SCRELU,
        ] {
            bytes.extend_from_slice(&value.to_le_bytes());
        }
        bytes.resize(HEADER_BYTES, 0);
        for w in self.w1.iter().chain(&self.b1).chain(&self.w2) {
            bytes.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.b2 {
            bytes.extend_from_slice(&b.to_le_bytes());
        }
        let checksum = fnv1a(&bytes);
        bytes.extend_from_slice(&checksum.to_le_bytes());
        bytes
    }

    /// The checksum the file of this network carries.
    pub fn checksum(&self) -> u64 {
        let bytes = self.to_bytes();
        u64::from_le_bytes(bytes[bytes.len() - 8..].try_into().unwrap_or([0; 8]))
    }

    /// The shape in words: `768x4 -> 512x2 -> 1x8, mirrored`.
    pub fn describe(&self) -> String {
        let arch = &self.arch;
        format!(
            "{INPUTS}x{} -> {}x2 -> 1x{}{}",
            arch.king_buckets,
            arch.hidden,
            arch.output_buckets,
            if arch.mirrored { ", mirrored" } else { "" }
        )
    }

    /// The name of the loops this processor runs the network with (`avx2`, `portable`).
    pub fn simd_name(&self) -> &'static str {
        self.kernels.name
    }

    /// Weights and biases in all.
    pub fn parameters(&self) -> usize {
        self.w1.len() + self.b1.len() + self.w2.len() + self.b2.len()
    }

    /// The output for the side to move `turn` on `board`, in centipawns: SCReLU of both
    /// accumulators (the mover's first) times the output weights of the board's output
    /// bucket.
    #[inline]
    pub fn output(&self, accumulator: &Accumulator, board: &Board, turn: Color) -> Value {
        let bucket = self.arch.output_bucket(board.occupied().count());
        self.output_of(accumulator.side(turn), accumulator.side(!turn), bucket)
    }

    /// The output from the mover's accumulator `us` and the other side's `them`, with the
    /// weights of output bucket `bucket`.
    #[inline]
    pub fn output_of(&self, us: &[i16], them: &[i16], bucket: usize) -> Value {
        let (w_us, w_them) = self.output_weights(bucket);
        let dot = self.kernels.screlu_dot;
        let sum = dot(us, w_us, QA as i16) + dot(them, w_them, QA as i16);
        self.output_from(sum, bucket)
    }

    /// The output in centipawns from the sum of both halves' SCReLU dot products (scaled by
    /// `QA * QA * QB`) in output bucket `bucket`.
    #[inline(always)]
    pub(super) fn output_from(&self, sum: i64, bucket: usize) -> Value {
        let out = (sum / i64::from(QA) + i64::from(self.b2[bucket])) * i64::from(SCALE)
            / i64::from(QA * QB);
        out.clamp(-20_000, 20_000) as Value
    }
}

/// The largest file a valid header can declare: what a reader may allocate for.
pub const MAX_FILE_BYTES: usize = HEADER_BYTES
    + 2 * (super::MAX_KING_BUCKETS * INPUTS * MAX_HIDDEN
        + MAX_HIDDEN
        + super::MAX_OUTPUT_BUCKETS * 2 * MAX_HIDDEN)
    + 4 * super::MAX_OUTPUT_BUCKETS
    + 8;

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(arch: Architecture) -> Network {
        let mut network = Network::zeroed(arch);
        for (i, w) in network.w1.iter_mut().enumerate() {
            *w = ((i * 31 + i / 7) % 61) as i16 - 30;
        }
        network.b1[3] = 7;
        network.w2[5] = -12;
        let last = network.w2.len() - 1;
        network.w2[last] = 99;
        network.b2[0] = -1234;
        network
    }

    fn bucketed() -> Architecture {
        let mut bucket_of = [0u8; 64];
        for (square, bucket) in bucket_of.iter_mut().enumerate() {
            *bucket = u8::from(square >= 16);
        }
        Architecture {
            king_buckets: 2,
            bucket_of,
            mirrored: true,
            hidden: 32,
            output_buckets: 8,
        }
    }

    #[test]
    fn files_round_trip() {
        for arch in [Architecture::plain(32), bucketed()] {
            let network = sample(arch);
            let bytes = network.to_bytes();
            assert_eq!(bytes.len(), file_bytes(&arch));
            assert_eq!(Network::parse(&bytes).unwrap(), network);
        }
    }

    #[test]
    fn bad_files_are_refused_with_the_reason() {
        let bytes = sample(bucketed()).to_bytes();
        let with = |at: usize, value: u8| {
            let mut b = bytes.clone();
            b[at] = value;
            b
        };
        let mut version_one = bytes.clone();
        version_one[8] = 1;
        let cases: Vec<(Vec<u8>, &str)> = vec![
            (b"not a net".to_vec(), "magic"),
            (bytes[..bytes.len() - 100].to_vec(), "truncated"),
            (bytes[..60].to_vec(), "header"),
            (with(1000, bytes[1000] ^ 1), "checksum"),
            (version_one, "version 1"),
            (with(8, 9), "version 9"),
            (with(12, 7), "inputs"),
            (with(16, 0), "king buckets"),
            (with(30, 5), "mapped to bucket 5"),
            (with(88, 33), "multiple of 16"),
            (with(92, 0), "output buckets"),
            (with(96, 1), "scales"),
            (with(108, 2), "activation 2"),
        ];
        for (data, why) in cases {
            let error = Network::parse(&data).unwrap_err();
            assert!(error.contains(why), "{why}: {error}");
        }
    }

    #[test]
    fn output_buckets_follow_the_piece_count() {
        let arch = bucketed();
        assert_eq!(arch.output_bucket(2), 0);
        assert_eq!(arch.output_bucket(5), 0);
        assert_eq!(arch.output_bucket(6), 1);
        assert_eq!(arch.output_bucket(32), 7);
        assert_eq!(Architecture::plain(32).output_bucket(32), 0);
    }
}
