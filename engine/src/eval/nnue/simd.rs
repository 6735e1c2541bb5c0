//! The network's hot loops: the accumulator update and the output's squared-clipped dot
//! product, each in a portable version and, on x86-64, an AVX2 version written with the
//! processor's intrinsics. `Kernels::detect` chooses once, when a network is made or loaded,
//! and the network keeps the choice: nothing asks the processor again per evaluation. Both
//! versions are the same integer arithmetic (wrapping `i16` sums; the output's products in
//! `i32`, summed without overflow into an `i64` for any hidden size the format allows), so
//! they give identical results; a unit test compares them.
//!
//! Rows are slices of `i16` whose length is a multiple of `LANES` (the hidden layer's width
//! is, by construction of the file format).

/// Elements per SIMD register (AVX2: sixteen `i16`); rows are a multiple of it.
pub const LANES: usize = 16;

/// `out = parent + sum(add) - sum(sub)`.
pub type UpdateFn = fn(out: &mut [i16], parent: &[i16], add: &[&[i16]], sub: &[&[i16]]);
/// `values += sum(add) - sum(sub)`, any number of rows.
pub type ApplyFn = fn(values: &mut [i16], add: &[&[i16]], sub: &[&[i16]]);
/// `sum(clamp(v, 0, qa)^2 * w)`.
pub type DotFn = fn(values: &[i16], weights: &[i16], qa: i16) -> i64;

/// The loops a network runs with, chosen once for the processor.
#[derive(Clone, Copy)]
pub struct Kernels {
    /// The accumulator update.
    pub update: UpdateFn,
    /// The in-place update of a refresh.
    pub apply: ApplyFn,
    /// The output layer's squared-clipped dot product.
    pub screlu_dot: DotFn,
    /// The name of the chosen version (`avx2` or `portable`).
    pub name: &'static str,
}

impl Kernels {
    /// The fastest version this processor runs.
    pub fn detect() -> Kernels {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            return Kernels {
                update: avx2::update,
                apply: avx2::apply,
                screlu_dot: avx2::screlu_dot,
                name: "avx2",
            };
        }
        Kernels::portable()
    }

    /// The portable version (any processor; the reference the others are tested against).
    pub fn portable() -> Kernels {
        Kernels {
            update: portable::update,
            apply: portable::apply,
            screlu_dot: portable::screlu_dot,
            name: "portable",
        }
    }
}

impl std::fmt::Debug for Kernels {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Kernels({})", self.name)
    }
}

mod portable {
    /// `out = parent + sum(add) - sum(sub)`, element by element (wrapping).
    pub fn update(out: &mut [i16], parent: &[i16], add: &[&[i16]], sub: &[&[i16]]) {
        match (add, sub) {
            ([a], [s]) => {
                for i in 0..out.len() {
                    out[i] = parent[i].wrapping_add(a[i]).wrapping_sub(s[i]);
                }
            }
            ([a], [s, t]) => {
                for i in 0..out.len() {
                    out[i] = parent[i]
                        .wrapping_add(a[i])
                        .wrapping_sub(s[i])
                        .wrapping_sub(t[i]);
                }
            }
            _ => {
                out.copy_from_slice(parent);
                for row in add {
                    for (v, w) in out.iter_mut().zip(row.iter()) {
                        *v = v.wrapping_add(*w);
                    }
                }
                for row in sub {
                    for (v, w) in out.iter_mut().zip(row.iter()) {
                        *v = v.wrapping_sub(*w);
                    }
                }
            }
        }
    }

    /// `values += sum(add) - sum(sub)`, element by element (wrapping).
    pub fn apply(values: &mut [i16], add: &[&[i16]], sub: &[&[i16]]) {
        for row in add {
            for (v, w) in values.iter_mut().zip(row.iter()) {
                *v = v.wrapping_add(*w);
            }
        }
        for row in sub {
            for (v, w) in values.iter_mut().zip(row.iter()) {
                *v = v.wrapping_sub(*w);
            }
        }
    }

    /// `sum(clamp(v, 0, qa)^2 * w)`: `clamp(v) * w` wraps in `i16` (it fits when
    /// `qa <= 255` and `|w| <= 128`), its product with the clamped value is an `i32`, and
    /// the sum an `i64`.
    pub fn screlu_dot(values: &[i16], weights: &[i16], qa: i16) -> i64 {
        let mut sum = 0i64;
        for (&v, &w) in values.iter().zip(weights) {
            let a = v.clamp(0, qa);
            sum += i64::from(i32::from(a.wrapping_mul(w)) * i32::from(a));
        }
        sum
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    use super::LANES;

    /// The AVX2 update; callable only once `Kernels::detect` found AVX2.
    pub fn update(out: &mut [i16], parent: &[i16], add: &[&[i16]], sub: &[&[i16]]) {
        // SAFETY: chosen by `Kernels::detect` only when the processor has AVX2.
        unsafe { update_avx2(out, parent, add, sub) }
    }

    /// The AVX2 in-place update; callable only once `Kernels::detect` found AVX2.
    pub fn apply(values: &mut [i16], add: &[&[i16]], sub: &[&[i16]]) {
        // SAFETY: chosen by `Kernels::detect` only when the processor has AVX2.
        unsafe { apply_avx2(values, add, sub) }
    }

    /// The AVX2 dot product; callable only once `Kernels::detect` found AVX2.
    pub fn screlu_dot(values: &[i16], weights: &[i16], qa: i16) -> i64 {
        // SAFETY: chosen by `Kernels::detect` only when the processor has AVX2.
        unsafe { screlu_dot_avx2(values, weights, qa) }
    }

    #[target_feature(enable = "avx2")]
    fn load(row: &[i16], at: usize) -> __m256i {
        debug_assert!(at + LANES <= row.len());
        // SAFETY: `at + LANES <= row.len()`: the sixteen elements are inside the slice.
        unsafe { _mm256_loadu_si256(row.as_ptr().add(at).cast()) }
    }

    #[target_feature(enable = "avx2")]
    fn store(row: &mut [i16], at: usize, value: __m256i) {
        debug_assert!(at + LANES <= row.len());
        // SAFETY: as in `load`.
        unsafe { _mm256_storeu_si256(row.as_mut_ptr().add(at).cast(), value) }
    }

    #[target_feature(enable = "avx2")]
    fn update_avx2(out: &mut [i16], parent: &[i16], add: &[&[i16]], sub: &[&[i16]]) {
        let n = out.len();
        assert!(n.is_multiple_of(LANES) && parent.len() == n);
        assert!(add.iter().chain(sub).all(|row| row.len() == n));
        // The shapes moves have, each in one pass: a quiet move, a capture, castling.
        match (add, sub) {
            ([a], [s]) => {
                for at in (0..n).step_by(LANES) {
                    let v = _mm256_add_epi16(load(parent, at), load(a, at));
                    store(out, at, _mm256_sub_epi16(v, load(s, at)));
                }
            }
            ([a], [s, t]) => {
                for at in (0..n).step_by(LANES) {
                    let v = _mm256_add_epi16(load(parent, at), load(a, at));
                    let v = _mm256_sub_epi16(v, load(s, at));
                    store(out, at, _mm256_sub_epi16(v, load(t, at)));
                }
            }
            ([a, b], [s, t]) => {
                for at in (0..n).step_by(LANES) {
                    let v = _mm256_add_epi16(load(parent, at), load(a, at));
                    let v = _mm256_add_epi16(v, load(b, at));
                    let v = _mm256_sub_epi16(v, load(s, at));
                    store(out, at, _mm256_sub_epi16(v, load(t, at)));
                }
            }
            _ => {
                out.copy_from_slice(parent);
                apply_avx2(out, add, sub);
            }
        }
    }

    #[target_feature(enable = "avx2")]
    fn apply_avx2(values: &mut [i16], add: &[&[i16]], sub: &[&[i16]]) {
        let n = values.len();
        assert!(n.is_multiple_of(LANES));
        assert!(add.iter().chain(sub).all(|row| row.len() == n));
        let mut at = 0;
        while at < n {
            let mut v = load(values, at);
            for row in add {
                v = _mm256_add_epi16(v, load(row, at));
            }
            for row in sub {
                v = _mm256_sub_epi16(v, load(row, at));
            }
            store(values, at, v);
            at += LANES;
        }
    }

    /// Rows of `LANES` summed in the 32-bit lanes before they are widened: each adds at
    /// most `2 x 255² x 128` (about 1.7e7) to a lane, so 64 of them stay below 2^31.
    const BLOCK: usize = 64 * LANES;

    #[target_feature(enable = "avx2")]
    fn screlu_dot_avx2(values: &[i16], weights: &[i16], qa: i16) -> i64 {
        let n = values.len();
        assert!(n.is_multiple_of(LANES) && weights.len() == n);
        let zero = _mm256_setzero_si256();
        let top = _mm256_set1_epi16(qa);
        let mut wide = _mm256_setzero_si256();
        let mut start = 0;
        while start < n {
            let end = (start + BLOCK).min(n);
            let mut sum = _mm256_setzero_si256();
            let mut at = start;
            while at < end {
                let clipped = _mm256_min_epi16(_mm256_max_epi16(load(values, at), zero), top);
                let weighted = _mm256_mullo_epi16(clipped, load(weights, at));
                sum = _mm256_add_epi32(sum, _mm256_madd_epi16(weighted, clipped));
                at += LANES;
            }
            let low = _mm256_cvtepi32_epi64(_mm256_castsi256_si128(sum));
            let high = _mm256_cvtepi32_epi64(_mm256_extracti128_si256::<1>(sum));
            wide = _mm256_add_epi64(wide, _mm256_add_epi64(low, high));
            start = end;
        }
        let half = _mm_add_epi64(
            _mm256_castsi256_si128(wide),
            _mm256_extracti128_si256::<1>(wide),
        );
        _mm_cvtsi128_si64(half) + _mm_extract_epi64::<1>(half)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::splitmix64;

    fn row(seed: u64, spread: u64, n: usize) -> Vec<i16> {
        let mut state = seed;
        (0..n)
            .map(|_| {
                state = splitmix64(state);
                (state % (2 * spread + 1)) as i16 - spread as i16
            })
            .collect()
    }

    /// The chosen version (AVX2 where the processor has it) equals the portable one, for
    /// every shape of update, rows of several widths and values past the clipping range.
    #[test]
    fn the_chosen_kernels_equal_the_portable_ones() {
        let fast = Kernels::detect();
        let plain = Kernels::portable();
        for n in [16, 256, 512, 1024, 4096] {
            let rows: Vec<Vec<i16>> = (0..5).map(|k| row(k + 1, 400, n)).collect();
            let weights = row(99, 127, n);
            // Every activation saturated and every weight at the limit: the sum is far past
            // 32 bits, and must still be exact.
            let saturated = (vec![255i16; n], vec![128i16; n]);
            let cases = rows
                .iter()
                .map(|values| (values, &weights))
                .chain(std::iter::once((&saturated.0, &saturated.1)));
            for (values, weights) in cases {
                let expected = (plain.screlu_dot)(values, weights, 255);
                assert_eq!((fast.screlu_dot)(values, weights, 255), expected);
                let mut reference = 0i64;
                for (&v, &w) in values.iter().zip(weights) {
                    let a = i64::from(v.clamp(0, 255));
                    reference += a * a * i64::from(w);
                }
                assert_eq!(expected, reference);
            }
            let shapes: [(usize, usize); 6] = [(1, 1), (1, 2), (2, 2), (1, 0), (0, 0), (2, 1)];
            for (adds, subs) in shapes {
                let add: Vec<&[i16]> = rows[1..1 + adds].iter().map(Vec::as_slice).collect();
                let sub: Vec<&[i16]> = rows[3..3 + subs].iter().map(Vec::as_slice).collect();
                let mut a = vec![0; n];
                let mut b = vec![0; n];
                (fast.update)(&mut a, &rows[0], &add, &sub);
                (plain.update)(&mut b, &rows[0], &add, &sub);
                let mut reference = rows[0].clone();
                for r in &add {
                    for i in 0..n {
                        reference[i] = reference[i].wrapping_add(r[i]);
                    }
                }
                for r in &sub {
                    for i in 0..n {
                        reference[i] = reference[i].wrapping_sub(r[i]);
                    }
                }
                assert_eq!(a, reference, "{adds} added, {subs} removed");
                assert_eq!(b, reference, "{adds} added, {subs} removed");
                for kernels in [fast, plain] {
                    let mut c = rows[0].clone();
                    (kernels.apply)(&mut c, &add, &sub);
                    assert_eq!(c, reference, "{} in place", kernels.name);
                }
            }
        }
    }
}
