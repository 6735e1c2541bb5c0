//! Between the trainer's float network and the engine's quantised one: `quantise` scales the
//! hidden weights by `QA` and the output weights by `QB` (the output biases by both), as
//! `nnue::network` reads them, and `FloatNetwork::dequantised` is its inverse, the warm start
//! of `train --init` (`FloatNetwork::with_output_buckets` gives a one-bucket start more
//! output buckets).

use brudno_engine::eval::nnue::{Network, QA, QB};

use super::FloatNetwork;

/// The quantised network of a float network.
pub fn quantise(float: &FloatNetwork) -> Network {
    let q = |w: f32, scale: i32| (w * scale as f32).round().clamp(-32767.0, 32767.0) as i16;
    let mut network = Network::zeroed(float.arch);
    for (w, f) in network.w1.iter_mut().zip(&float.w1) {
        *w = q(*f, QA);
    }
    for (w, f) in network.b1.iter_mut().zip(&float.b1) {
        *w = q(*f, QA);
    }
    for (w, f) in network.w2.iter_mut().zip(&float.w2) {
        *w = q(*f, QB);
    }
    for (b, f) in network.b2.iter_mut().zip(&float.b2) {
        *b = (f * (QA * QB) as f32).round() as i32;
    }
    network
}

impl FloatNetwork {
    /// The weights of a quantised network, as floats (a warm start: `quantise` gives the
    /// network back).
    pub fn dequantised(network: &Network) -> Self {
        let f = |w: i16, scale: i32| f32::from(w) / scale as f32;
        FloatNetwork {
            arch: network.arch,
            w1: network.w1.iter().map(|&w| f(w, QA)).collect(),
            b1: network.b1.iter().map(|&w| f(w, QA)).collect(),
            w2: network.w2.iter().map(|&w| f(w, QB)).collect(),
            b2: network
                .b2
                .iter()
                .map(|&b| b as f32 / (QA * QB) as f32)
                .collect(),
        }
    }

    /// The same network with `buckets` output buckets, each a copy of this one-bucket
    /// network's output layer: it evaluates every position as before, and training lets the
    /// buckets part. `None` unless this network has one output bucket.
    pub fn with_output_buckets(self, buckets: usize) -> Option<Self> {
        if self.arch.output_buckets != 1 || buckets == 0 {
            return None;
        }
        let mut arch = self.arch;
        arch.output_buckets = buckets;
        Some(FloatNetwork {
            arch,
            w2: self.w2.repeat(buckets),
            b2: self.b2.repeat(buckets),
            ..self
        })
    }
}
