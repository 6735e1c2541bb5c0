//! The evaluation with the hidden layer's width compiled in: `Stack::evaluate` of a network
//! whose width is one of `FIXED_WIDTHS` (the embedded network's 256 among them), on a processor
//! with AVX2, runs here. The accumulators and weight rows are fixed-size arrays, so the loops
//! have no bounds checks, no length asserts and no calls through function pointers: the whole
//! evaluation, both perspectives' updates and the output layer, is one function compiled for
//! AVX2 and chosen once per call by a width match. Any other width, or a processor without
//! AVX2, takes the generic path of `accumulator.rs`, which stays the reference: the two give
//! equal evaluations (tests in `accumulator/tests.rs`, on random games).

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

use shakmaty::{Board, Color, Piece, Square};

use super::super::{Network, QA, QB, SCALE};
use super::{MAX_PENDING, Stack, side_index};
use crate::eval::Value;
use crate::position::Position;

/// Elements per AVX2 register.
const LANES: usize = 16;

impl Stack {
    /// The evaluation through the fixed-width path, when this network and processor have
    /// one; `None` otherwise.
    #[inline]
    pub(super) fn evaluate_fixed(
        &mut self,
        ply: usize,
        pos: &Position,
        network: &Network,
    ) -> Option<Value> {
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: `avx2` is set only when the processor has AVX2 and `popcnt` (`Stack::new`).
            return unsafe {
                match self.arch.hidden {
                    128 => Some(self.evaluate_avx2::<128>(ply, pos, network)),
                    256 => Some(self.evaluate_avx2::<256>(ply, pos, network)),
                    512 => Some(self.evaluate_avx2::<512>(ply, pos, network)),
                    _ => None,
                }
            };
        }
        let _ = (ply, pos, network);
        None
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,popcnt")]
    fn evaluate_avx2<const H: usize>(
        &mut self,
        ply: usize,
        pos: &Position,
        network: &Network,
    ) -> Value {
        let board = pos.board();
        for perspective in [Color::White, Color::Black] {
            self.up_to_date_avx2::<H>(ply, perspective, board, network);
        }
        let values = self.values.as_chunks::<H>().0;
        let (white, black) = (&values[ply * 2], &values[ply * 2 + 1]);
        let (us, them) = match pos.turn() {
            Color::White => (white, black),
            Color::Black => (black, white),
        };
        // The piece count by `popcnt` (this function has the feature) and the bucket from
        // a table: `output_bucket`'s two divisions by the bucket count cost more than the rest.
        let pieces = board.occupied().0.count_ones() as usize;
        let bucket = usize::from(self.output_bucket[pieces.min(64)]);
        let weights = network.w2.as_chunks::<H>().0;
        let sum = screlu_dot::<H>(us, &weights[bucket * 2])
            + screlu_dot::<H>(them, &weights[bucket * 2 + 1]);
        let out = (sum / i64::from(QA) + i64::from(network.b2[bucket])) * i64::from(SCALE)
            / i64::from(QA * QB);
        out.clamp(-20_000, 20_000) as Value
    }

    /// `bring_up_to_date` with the width compiled in: the nearest computed ancestor with the
    /// same king key, then one fused pass per move from there; a refresh otherwise.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,popcnt")]
    fn up_to_date_avx2<const H: usize>(
        &mut self,
        ply: usize,
        perspective: Color,
        board: &Board,
        network: &Network,
    ) {
        let side = side_index(perspective);
        if self.plies[ply].computed[side] {
            return;
        }
        let mut start = None;
        let mut at = ply;
        while !self.plies[at].key_changed[side] && at > 0 && ply - at < MAX_PENDING {
            at -= 1;
            if self.plies[at].computed[side] {
                start = Some(at);
                break;
            }
        }
        let Some(start) = start else {
            self.refresh(ply, perspective, board, network);
            return;
        };
        let key = self.plies[ply].keys[side];
        let arch = self.arch;
        let rows = network.w1.as_chunks::<H>().0;
        let row = |&(piece, square): &(Piece, Square)| -> &[i16; H] {
            &rows[arch.feature(perspective, key, piece, square)]
        };
        let values = self.values.as_chunks_mut::<H>().0;
        for p in start + 1..=ply {
            let changes = self.plies[p].changes;
            let (before, after) = values.split_at_mut(p * 2);
            let parent = &before[(p - 1) * 2 + side];
            let out = &mut after[side];
            // The common cases from the counts (no slices, no length checks).
            let (counts, a, [s, t]) = changes.parts();
            match counts {
                (1, 1) => update_1_1::<H>(out, parent, row(&a), row(&s)),
                (1, 2) => update_1_2::<H>(out, parent, row(&a), row(&s), row(&t)),
                _ => {
                    let (added, removed) = (changes.added(), changes.removed());
                    *out = *parent;
                    for change in added {
                        add_into::<H>(out, row(change));
                    }
                    for change in removed {
                        sub_from::<H>(out, row(change));
                    }
                }
            }
            self.plies[p].computed[side] = true;
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn load<const H: usize>(row: &[i16; H], at: usize) -> __m256i {
    debug_assert!(at + LANES <= H);
    // SAFETY: the callers step `at` by LANES below H, a multiple of LANES.
    unsafe { _mm256_loadu_si256(row.as_ptr().add(at).cast()) }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn store<const H: usize>(row: &mut [i16; H], at: usize, value: __m256i) {
    debug_assert!(at + LANES <= H);
    // SAFETY: as in `load`.
    unsafe { _mm256_storeu_si256(row.as_mut_ptr().add(at).cast(), value) }
}

/// `out = parent + a - s`: a quiet move.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn update_1_1<const H: usize>(out: &mut [i16; H], parent: &[i16; H], a: &[i16; H], s: &[i16; H]) {
    for at in (0..H).step_by(LANES) {
        let v = _mm256_add_epi16(load(parent, at), load(a, at));
        store(out, at, _mm256_sub_epi16(v, load(s, at)));
    }
}

/// `out = parent + a - s - t`: a capture.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn update_1_2<const H: usize>(
    out: &mut [i16; H],
    parent: &[i16; H],
    a: &[i16; H],
    s: &[i16; H],
    t: &[i16; H],
) {
    for at in (0..H).step_by(LANES) {
        let v = _mm256_add_epi16(load(parent, at), load(a, at));
        let v = _mm256_sub_epi16(v, load(s, at));
        store(out, at, _mm256_sub_epi16(v, load(t, at)));
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn add_into<const H: usize>(out: &mut [i16; H], row: &[i16; H]) {
    for at in (0..H).step_by(LANES) {
        store(out, at, _mm256_add_epi16(load(out, at), load(row, at)));
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn sub_from<const H: usize>(out: &mut [i16; H], row: &[i16; H]) {
    for at in (0..H).step_by(LANES) {
        store(out, at, _mm256_sub_epi16(load(out, at), load(row, at)));
    }
}

/// `sum(clamp(v, 0, QA)^2 * w)`, as `simd::screlu_dot`: `clamp(v) * w` in `i16`, its product
/// with the clamped value summed in the 32-bit lanes (at most 32 rows of LANES for the widths
/// here, each adding at most `2 x 255² x 128`: below 2^31), then widened once.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn screlu_dot<const H: usize>(values: &[i16; H], weights: &[i16; H]) -> i64 {
    const { assert!(H <= 64 * LANES) };
    let zero = _mm256_setzero_si256();
    let top = _mm256_set1_epi16(QA as i16);
    let mut sum = _mm256_setzero_si256();
    for at in (0..H).step_by(LANES) {
        let clipped = _mm256_min_epi16(_mm256_max_epi16(load(values, at), zero), top);
        let weighted = _mm256_mullo_epi16(clipped, load(weights, at));
        sum = _mm256_add_epi32(sum, _mm256_madd_epi16(weighted, clipped));
    }
    let low = _mm256_cvtepi32_epi64(_mm256_castsi256_si128(sum));
    let high = _mm256_cvtepi32_epi64(_mm256_extracti128_si256::<1>(sum));
    let wide = _mm256_add_epi64(low, high);
    let half = _mm_add_epi64(
        _mm256_castsi256_si128(wide),
        _mm256_extracti128_si256::<1>(wide),
    );
    _mm_cvtsi128_si64(half) + _mm_extract_epi64::<1>(half)
}
