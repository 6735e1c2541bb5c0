//! A small, repeatable pseudo-random generator for everything that needs one: the search lab's
//! random move order, self-play openings, training shuffles, random trace trees and tests.
//!
//! It sits below every other module (it depends on nothing), so that the position, the
//! evaluation and the search can all use it without importing from each other. It must never
//! read a clock or the operating system: the same seed gives the same numbers everywhere.

/// The SplitMix64 step: a small, good, repeatable pseudo-random generator.
#[inline]
pub fn splitmix64(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
