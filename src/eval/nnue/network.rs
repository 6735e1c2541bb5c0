//! The network file and the output layer.
//!
//! A network file, little-endian:
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | magic `BRUDNNUE` |
//! | 8..12 | format version (1) |
//! | 12..16 | inputs (768) |
//! | 16..20 | hidden neurons (`HIDDEN`) |
//! | 20..24, 24..28, 28..32 | `QA`, `QB`, `SCALE` |
//! | then | input weights, `i16`, 768 rows of `HIDDEN` (row = input) |
//! | then | hidden biases, `HIDDEN` x `i16` |
//! | then | output weights, `2 x HIDDEN` x `i16` (side to move's half first) |
//! | then | output bias, `i32` |
//! | last 8 | FNV-1a 64 checksum of every byte before it |
//!
//! Parsing checks the length, the magic, the version, the shape, the scales and the checksum,
//! and says which one is wrong: a truncated or corrupt file is refused, never half-loaded.

use shakmaty::Color;

use super::{Accumulator, HIDDEN, INPUTS, QA, QB, SCALE, simd};
use crate::eval::Value;

/// The magic bytes at the start of a network file.
pub const MAGIC: &[u8; 8] = b"BRUDNNUE";
/// The format version this build reads and writes.
pub const VERSION: u32 = 1;
/// Bytes before the weights.
const HEADER_BYTES: usize = 32;

/// The quantised network.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// Input weights: one row of `HIDDEN` per input.
    pub w1: Box<[[i16; HIDDEN]]>,
    /// Hidden biases.
    pub b1: [i16; HIDDEN],
    /// Output weights: the side to move's half, then the other side's.
    pub w2: [[i16; HIDDEN]; 2],
    /// Output bias, scaled by `QA * QB`.
    pub b2: i32,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Network({INPUTS}x{HIDDEN}x2 -> 1, checksum {:016x})",
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

/// The size of a network file of this build's shape.
pub const fn file_bytes() -> usize {
    HEADER_BYTES + 2 * (INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN) + 4 + 8
}

impl Network {
    /// A network with every weight zero (scores everything 0).
    pub fn zeroed() -> Self {
        Self {
            w1: vec![[0; HIDDEN]; INPUTS].into_boxed_slice(),
            b1: [0; HIDDEN],
            w2: [[0; HIDDEN]; 2],
            b2: 0,
        }
    }

    /// Reads a network file, or says what is wrong with it.
    pub fn parse(bytes: &[u8]) -> Result<Network, String> {
        if bytes.len() < HEADER_BYTES || &bytes[..8] != MAGIC {
            return Err("not a Brudno network file (no BRUDNNUE magic)".to_string());
        }
        let word = |at: usize| {
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
        };
        let version = word(8);
        if version != VERSION {
            return Err(format!(
                "network format version {version}; this build reads {VERSION}"
            ));
        }
        let shape = (word(12) as usize, word(16) as usize);
        if shape != (INPUTS, HIDDEN) {
            return Err(format!(
                "network shape {}x{}; this build uses {INPUTS}x{HIDDEN}",
                shape.0, shape.1
            ));
        }
        let scales = (word(20) as i32, word(24) as i32, word(28) as i32);
        if scales != (QA, QB, SCALE) {
            return Err(format!(
                "network scales QA {} QB {} SCALE {}; this build uses {QA} {QB} {SCALE}",
                scales.0, scales.1, scales.2
            ));
        }
        if bytes.len() != file_bytes() {
            return Err(format!(
                "network file is {} bytes; a {INPUTS}x{HIDDEN} network has {} (truncated or padded)",
                bytes.len(),
                file_bytes()
            ));
        }
        let body = &bytes[..bytes.len() - 8];
        let stored = u64::from_le_bytes(bytes[bytes.len() - 8..].try_into().unwrap_or([0; 8]));
        if fnv1a(body) != stored {
            return Err("network checksum does not match: the file is corrupt".to_string());
        }
        let mut at = HEADER_BYTES;
        let mut next_i16 = || {
            let v = i16::from_le_bytes([bytes[at], bytes[at + 1]]);
            at += 2;
            v
        };
        let mut network = Network::zeroed();
        for row in network.w1.iter_mut() {
            for w in row.iter_mut() {
                *w = next_i16();
            }
        }
        for b in network.b1.iter_mut() {
            *b = next_i16();
        }
        for half in network.w2.iter_mut() {
            for w in half.iter_mut() {
                *w = next_i16();
            }
        }
        network.b2 = i32::from_le_bytes(bytes[at..at + 4].try_into().unwrap_or([0; 4]));
        Ok(network)
    }

    /// The file of this network.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(file_bytes());
        bytes.extend_from_slice(MAGIC);
        for word in [
            VERSION,
            INPUTS as u32,
            HIDDEN as u32,
            QA as u32,
            QB as u32,
            SCALE as u32,
        ] {
            bytes.extend_from_slice(&word.to_le_bytes());
        }
        let rows = self
            .w1
            .iter()
            .chain(std::iter::once(&self.b1))
            .chain(&self.w2);
        for row in rows {
            for w in row {
                bytes.extend_from_slice(&w.to_le_bytes());
            }
        }
        bytes.extend_from_slice(&self.b2.to_le_bytes());
        let checksum = fnv1a(&bytes);
        bytes.extend_from_slice(&checksum.to_le_bytes());
        bytes
    }

    /// The checksum the file of this network carries.
    pub fn checksum(&self) -> u64 {
        let bytes = self.to_bytes();
        u64::from_le_bytes(bytes[bytes.len() - 8..].try_into().unwrap_or([0; 8]))
    }

    /// The output for the side to move `turn`, in centipawns: SCReLU of both accumulators
    /// (the mover's first) times the output weights. Integer arithmetic that vectorises:
    /// `a * w` fits an `i16` (a <= 255, |w| <= 127), its product with `a` an `i32`.
    #[inline]
    pub fn output(&self, accumulator: &Accumulator, turn: Color) -> Value {
        let (us, them) = match turn {
            Color::White => (&accumulator.values[0], &accumulator.values[1]),
            Color::Black => (&accumulator.values[1], &accumulator.values[0]),
        };
        let sum = simd::screlu_dot(us, &self.w2[0], QA as i16)
            + simd::screlu_dot(them, &self.w2[1], QA as i16);
        let out = (sum / QA + self.b2) as i64 * i64::from(SCALE) / i64::from(QA * QB);
        out.clamp(-20_000, 20_000) as Value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Network {
        let mut network = Network::zeroed();
        for (i, row) in network.w1.iter_mut().enumerate() {
            for (j, w) in row.iter_mut().enumerate() {
                *w = ((i * 31 + j * 17) % 61) as i16 - 30;
            }
        }
        network.b1[3] = 7;
        network.w2[0][5] = -12;
        network.w2[1][7] = 99;
        network.b2 = -1234;
        network
    }

    #[test]
    fn files_round_trip() {
        let network = sample();
        let bytes = network.to_bytes();
        assert_eq!(bytes.len(), file_bytes());
        assert_eq!(Network::parse(&bytes).unwrap(), network);
    }

    #[test]
    fn bad_files_are_refused_with_the_reason() {
        let bytes = sample().to_bytes();
        let cases: Vec<(Vec<u8>, &str)> = vec![
            (b"not a net".to_vec(), "magic"),
            (bytes[..bytes.len() - 100].to_vec(), "truncated"),
            (
                {
                    let mut b = bytes.clone();
                    b[1000] ^= 1;
                    b
                },
                "checksum",
            ),
            (
                {
                    let mut b = bytes.clone();
                    b[8] = 9;
                    b
                },
                "version 9",
            ),
            (
                {
                    let mut b = bytes.clone();
                    b[16] = 7;
                    b
                },
                "shape",
            ),
            (
                {
                    let mut b = bytes.clone();
                    b[20] = 1;
                    b
                },
                "scales",
            ),
        ];
        for (data, why) in cases {
            let error = Network::parse(&data).unwrap_err();
            assert!(error.contains(why), "{why}: {error}");
        }
    }
}
