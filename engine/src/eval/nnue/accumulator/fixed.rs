//! The arithmetic with the hidden layer's width compiled in: a network whose width is one of
//! 128, 256, 384 and 512 (the embedded network's 256 among them), on a processor with AVX2, is
//! evaluated by `Stack::evaluate_with`, the one evaluation path, compiled here for AVX2 with
//! `Avx2<H>` as its arithmetic. The rows are fixed-size arrays, so the loops have no bounds
//! checks and no calls through function pointers; the common updates (a quiet move, a
//! capture) are fused into one pass. Any other width, or a processor without AVX2, runs the
//! same path with the network's run-time kernels, the reference: the two give equal
//! evaluations (tests in `accumulator/tests.rs`, on random games).

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

#[cfg(target_arch = "x86_64")]
use shakmaty::{Piece, Square};

use super::super::Network;
#[cfg(target_arch = "x86_64")]
use super::super::QA;
#[cfg(target_arch = "x86_64")]
use super::Arithmetic;
use super::Stack;
use crate::eval::Value;
#[cfg(target_arch = "x86_64")]
use crate::position::PieceChanges;
use crate::position::Position;

/// Elements per AVX2 register.
#[cfg(target_arch = "x86_64")]
const LANES: usize = 16;

impl Stack {
    /// The evaluation with the fixed-width arithmetic, when this network and processor have
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
                    384 => Some(self.evaluate_avx2::<384>(ply, pos, network)),
                    512 => Some(self.evaluate_avx2::<512>(ply, pos, network)),
                    _ => None,
                }
            };
        }
        let _ = (ply, pos, network);
        None
    }

    /// `evaluate_with` compiled for AVX2 and `popcnt`, with width `H`.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,popcnt")]
    fn evaluate_avx2<const H: usize>(
        &mut self,
        ply: usize,
        pos: &Position,
        network: &Network,
    ) -> Value {
        self.evaluate_with(&Avx2::<H>(()), ply, pos, network)
    }
}

/// The AVX2 arithmetic of width `H`. Only `evaluate_avx2` makes one (its private field), so a
/// value of it proves the processor has AVX2 and the network has width `H`.
#[cfg(target_arch = "x86_64")]
struct Avx2<const H: usize>(());

/// `row` as an array of the compiled width.
///
/// # Safety
/// `row` has `H` values: every row and accumulator of a network of width `H` has, and an
/// `Avx2<H>` is made only for a network of width `H` (`evaluate_fixed`).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn fixed<const H: usize>(row: &[i16]) -> &[i16; H] {
    debug_assert_eq!(row.len(), H);
    // SAFETY: the caller's.
    unsafe { &*row.as_ptr().cast::<[i16; H]>() }
}

/// `fixed` for a row written to.
///
/// # Safety
/// As `fixed`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn fixed_mut<const H: usize>(row: &mut [i16]) -> &mut [i16; H] {
    debug_assert_eq!(row.len(), H);
    // SAFETY: the caller's.
    unsafe { &mut *row.as_mut_ptr().cast::<[i16; H]>() }
}

#[cfg(target_arch = "x86_64")]
impl<const H: usize> Arithmetic for Avx2<H> {
    #[inline(always)]
    fn width(&self, hidden: usize) -> usize {
        debug_assert_eq!(hidden, H);
        H
    }

    #[inline(always)]
    fn row<'n>(&self, rows: &'n [i16], _: usize, index: usize) -> &'n [i16] {
        &rows.as_chunks::<H>().0[index]
    }

    #[inline(always)]
    fn update<'n>(
        &self,
        out: &mut [i16],
        parent: &[i16],
        changes: &PieceChanges,
        row: impl Fn(&(Piece, Square)) -> &'n [i16],
    ) {
        // SAFETY: a value of `Avx2<H>` exists only for a network of width `H` on a processor
        // with AVX2 (`evaluate_fixed`), and the accumulators and rows have that width.
        unsafe {
            let out = fixed_mut::<H>(out);
            let parent = fixed::<H>(parent);
            let row = |change| fixed::<H>(row(change));
            // The common cases from the counts (no slices, no length checks).
            let (counts, a, [s, t]) = changes.parts();
            match counts {
                (1, 1) => update_1_1::<H>(out, parent, row(&a), row(&s)),
                (1, 2) => update_1_2::<H>(out, parent, row(&a), row(&s), row(&t)),
                _ => {
                    *out = *parent;
                    for change in changes.added() {
                        add_into::<H>(out, row(change));
                    }
                    for change in changes.removed() {
                        sub_from::<H>(out, row(change));
                    }
                }
            }
        }
    }

    #[inline(always)]
    fn screlu_dot(&self, values: &[i16], weights: &[i16]) -> i64 {
        // SAFETY: as in `update`: the accumulators and the output layer's halves of a network
        // of width `H` have `H` values.
        unsafe { screlu_dot::<H>(fixed(values), fixed(weights)) }
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
