//! The network's two hot loops, compiled twice: for the x86-64 baseline (SSE2) and for AVX2,
//! chosen at run time, so one binary runs on any x86-64 and uses the wide registers where the
//! processor has them. Both versions are the same integer arithmetic, so they give identical
//! results (a unit test compares them); on other architectures only the portable one exists.
//!
//! The loops are written plainly and the compiler vectorises them; the AVX2 copy is the same
//! source compiled with `#[target_feature(enable = "avx2")]`.

use super::HIDDEN;

/// One accumulator row.
pub type Row = [i16; HIDDEN];

/// `sum(clamp(v, 0, qa)^2 * w)` over the hidden neurons (SCReLU, then the output weights).
/// `clamp(v) * w` fits an `i16` when `qa <= 255` and `|w| <= 127`; its product with the
/// clamped value is an `i32`.
#[inline]
pub fn screlu_dot(values: &Row, weights: &Row, qa: i16) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, checked just above.
        return unsafe { screlu_dot_avx2(values, weights, qa) };
    }
    screlu_dot_body(values, weights, qa)
}

/// `out = parent + sum(add) - sum(sub)`, element by element (wrapping `i16`), in one pass
/// for the shapes moves have: a quiet move (1, 1), a capture (1, 2), castling (2, 2).
#[inline]
pub fn update(out: &mut Row, parent: &Row, add: &[&Row], sub: &[&Row]) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, checked just above.
        return unsafe { update_avx2(out, parent, add, sub) };
    }
    update_body(out, parent, add, sub)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn screlu_dot_avx2(values: &Row, weights: &Row, qa: i16) -> i32 {
    screlu_dot_body(values, weights, qa)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn update_avx2(out: &mut Row, parent: &Row, add: &[&Row], sub: &[&Row]) {
    update_body(out, parent, add, sub)
}

#[inline(always)]
fn screlu_dot_body(values: &Row, weights: &Row, qa: i16) -> i32 {
    let mut sum = 0i32;
    for (&v, &w) in values.iter().zip(weights) {
        let a = v.clamp(0, qa);
        sum += i32::from(a.wrapping_mul(w)) * i32::from(a);
    }
    sum
}

#[inline(always)]
fn update_body(out: &mut Row, parent: &Row, add: &[&Row], sub: &[&Row]) {
    match (add, sub) {
        ([a], [s]) => {
            for i in 0..HIDDEN {
                out[i] = parent[i].wrapping_add(a[i]).wrapping_sub(s[i]);
            }
        }
        ([a], [s, t]) => {
            for i in 0..HIDDEN {
                out[i] = parent[i]
                    .wrapping_add(a[i])
                    .wrapping_sub(s[i])
                    .wrapping_sub(t[i]);
            }
        }
        ([a, b], [s, t]) => {
            for i in 0..HIDDEN {
                out[i] = parent[i]
                    .wrapping_add(a[i])
                    .wrapping_add(b[i])
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::splitmix64;

    fn row(seed: u64, spread: u64) -> Row {
        let mut row = [0; HIDDEN];
        let mut state = seed;
        for v in row.iter_mut() {
            state = splitmix64(state);
            *v = (state % (2 * spread + 1)) as i16 - spread as i16;
        }
        row
    }

    /// The dispatched versions (AVX2 where the processor has it) equal the portable loops,
    /// for every shape of update and for values past the clipping range.
    #[test]
    fn dispatched_loops_equal_the_portable_ones() {
        let rows: Vec<Row> = (0..5).map(|k| row(k + 1, 400)).collect();
        let weights = row(99, 127);
        for values in &rows {
            assert_eq!(
                screlu_dot(values, &weights, 255),
                screlu_dot_body(values, &weights, 255)
            );
        }
        let shapes: [(usize, usize); 6] = [(1, 1), (1, 2), (2, 2), (1, 0), (0, 0), (2, 1)];
        for (adds, subs) in shapes {
            let add: Vec<&Row> = rows[1..1 + adds].iter().collect();
            let sub: Vec<&Row> = rows[3..3 + subs].iter().collect();
            let mut fast = [0; HIDDEN];
            let mut plain = [0; HIDDEN];
            update(&mut fast, &rows[0], &add, &sub);
            update_body(&mut plain, &rows[0], &add, &sub);
            let mut reference = rows[0];
            for r in &add {
                for i in 0..HIDDEN {
                    reference[i] = reference[i].wrapping_add(r[i]);
                }
            }
            for r in &sub {
                for i in 0..HIDDEN {
                    reference[i] = reference[i].wrapping_sub(r[i]);
                }
            }
            assert_eq!(fast, reference, "{adds} added, {subs} removed");
            assert_eq!(plain, reference, "{adds} added, {subs} removed");
        }
    }
}
