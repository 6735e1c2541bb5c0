//! Fuzz target for network files: `Network::parse` and the `EvalFile` path that reads a file
//! into the network a search is given (`tools::evalfile::load`).
//!
//! A file either loads or is refused with a message; parsing and loading agree; a network
//! that loads writes back the very bytes it was read from, and evaluates positions to scores
//! within the evaluation's bounds. A network file is checksummed, so random bytes rarely get
//! past the checksum; the first input byte therefore chooses between the input taken as the
//! file itself and the input taken as patches to the embedded network (optionally with the
//! checksum recomputed), so that the fuzzer reaches the weights as easily as the header.

use std::borrow::Cow;
use std::sync::OnceLock;

use super::common::scratch;
use crate::eval::nnue::network::{HEADER_BYTES, fnv1a};
use crate::eval::nnue::{self, Network};
use crate::position::Position;

/// The bytes of the embedded network, written by this build.
fn embedded_bytes() -> &'static [u8] {
    static BYTES: OnceLock<Vec<u8>> = OnceLock::new();
    BYTES.get_or_init(|| nnue::embedded().to_bytes())
}

/// The parts of the embedded network's file, as `(start, length)`: header (the architecture),
/// input weights, hidden biases, output weights, output biases, checksum.
fn regions() -> [(usize, usize); 6] {
    let arch = nnue::embedded().arch;
    let hidden = arch.hidden;
    let w1 = 2 * arch.inputs() * hidden;
    let b1 = 2 * hidden;
    let w2 = 2 * arch.output_buckets * 2 * hidden;
    let b2 = 4 * arch.output_buckets;
    let header = HEADER_BYTES;
    [
        (0, header),
        (header, w1),
        (header + w1, b1),
        (header + w1 + b1, w2),
        (header + w1 + b1 + w2, b2),
        (header + w1 + b1 + w2 + b2, 8),
    ]
}

/// The file an input stands for. First byte even: the rest of the input is the file. Odd:
/// the embedded network with the rest read as 4-byte patches (a part of the file, a 16-bit
/// offset into it, a byte to write there); with bit 1 set the checksum is then recomputed.
pub fn file_bytes(data: &[u8]) -> Cow<'_, [u8]> {
    let Some((&mode, rest)) = data.split_first() else {
        return Cow::Borrowed(data);
    };
    if mode & 1 == 0 {
        return Cow::Borrowed(rest);
    }
    let mut bytes = embedded_bytes().to_vec();
    let regions = regions();
    for patch in rest.chunks_exact(4) {
        let (start, length) = regions[usize::from(patch[0]) % regions.len()];
        let offset = usize::from(u16::from_le_bytes([patch[1], patch[2]])) % length;
        if let Some(byte) = bytes.get_mut(start + offset) {
            *byte = patch[3];
        }
    }
    if mode & 2 != 0 && bytes.len() >= 8 {
        let body = bytes.len() - 8;
        let checksum = fnv1a(&bytes[..body]);
        bytes[body..].copy_from_slice(&checksum.to_le_bytes());
    }
    Cow::Owned(bytes)
}

/// Positions a loaded network evaluates.
pub const POSITIONS: [&str; 4] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1",
    "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
];

/// Reads the input as a network file (see `file_bytes`), by `Network::parse` and through the
/// `EvalFile` path.
pub fn file(data: &[u8]) {
    let bytes = file_bytes(data);
    let parsed = Network::parse(&bytes);
    match &parsed {
        Ok(network) => assert!(
            network.to_bytes() == *bytes,
            "a network does not write back the bytes it was read from"
        ),
        Err(why) => assert!(!why.is_empty(), "a network file refused without a word"),
    }
    // A file of this process, removed once read: two processes never share it.
    let path = scratch().join(format!("network-{}.nnue", std::process::id()));
    if let Err(error) = std::fs::write(&path, &bytes) {
        panic!("cannot write {}: {error}", path.display());
    }
    let path_text = path.to_string_lossy();
    let loaded = crate::tools::evalfile::load(&path_text);
    let _ = std::fs::remove_file(&path);
    assert_eq!(
        loaded.is_ok(),
        parsed.is_ok(),
        "EvalFile and parse disagree"
    );
    let message = match &loaded {
        Ok((_, message)) | Err(message) => message,
    };
    assert!(
        message.contains(&*path_text),
        "the message does not name the file"
    );
    if let Ok((network, _)) = &loaded {
        for fen in POSITIONS {
            let Ok(position) = Position::from_fen(fen, false) else {
                panic!("{fen} is refused");
            };
            let score = nnue::evaluate(&position, network);
            assert!(score.abs() <= 20_000, "{fen}: score {score}");
        }
    }
}
