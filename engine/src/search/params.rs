//! Every number of the search in one table: margins, depth limits, reductions, the late-move
//! reduction table's coefficients, history bonuses, the aspiration window, the singular and
//! ProbCut margins and the time-management factors, each declared once with its default,
//! its range and its SPSA step.
//!
//! In a normal build each is a `const fn` returning its default, so reading one costs
//! nothing. Built with `--features tune`, each is also a process-wide value that the UCI
//! option of the same name sets (`setoption name rfp_margin value 90`), so that an SPSA
//! tuner (OpenBench, or `scripts/spsa.py`) can play games with other values without
//! recompiling. `brudno tunables` prints the table in OpenBench's SPSA input format. Ratios
//! are integers in hundredths (`lmr_base` 75 is 0.75), as SPSA works on integers.
//!
//! A new number goes here, never as a literal in the search: one line in `tunables!`, then
//! `params::name()` where it acts.

/// One tunable number: its name (also its UCI option under `--features tune`), its default,
/// its range and its SPSA step (`c_end`, the perturbation at the end of a run).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tunable {
    /// The name, as in `params::name()` and the UCI option.
    pub name: &'static str,
    /// The value of a normal build.
    pub default: i32,
    /// Smallest value a tuner may try.
    pub min: i32,
    /// Largest value a tuner may try.
    pub max: i32,
    /// The SPSA step at the end of a run (OpenBench's `c_end`).
    pub step: f64,
}

/// The SPSA learning rate at the end of a run (OpenBench's `r_end`), the same for all.
pub const SPSA_R_END: f64 = 0.002;

impl Tunable {
    /// The line of OpenBench's SPSA input: `name, int, value, min, max, c_end, r_end`.
    pub fn openbench_line(&self) -> String {
        format!(
            "{}, int, {}, {}, {}, {}, {}",
            self.name, self.default, self.min, self.max, self.step, SPSA_R_END
        )
    }
}

/// The SPSA input OpenBench reads: one `Tunable::openbench_line` per tunable.
pub fn openbench_input() -> String {
    TUNABLES.iter().map(|t| t.openbench_line() + "\n").collect()
}

/// Declares the tunables: for each, a reader `name()` and a row of `TUNABLES`.
macro_rules! tunables {
    ($( $(#[doc = $doc:expr])* $name:ident = $default:expr, $min:expr, $max:expr, $step:expr; )*) => {
        /// Every tunable number, in declaration order.
        pub const TUNABLES: &[Tunable] = &[
            $( Tunable { name: stringify!($name), default: $default, min: $min, max: $max, step: $step }, )*
        ];

        $(
            $(#[doc = $doc])*
            #[cfg(not(feature = "tune"))]
            #[inline(always)]
            pub const fn $name() -> i32 {
                $default
            }

            $(#[doc = $doc])*
            #[cfg(feature = "tune")]
            #[inline(always)]
            pub fn $name() -> i32 {
                values::$name.load(std::sync::atomic::Ordering::Relaxed)
            }
        )*

        /// The run-time values of a tuning build.
        #[cfg(feature = "tune")]
        #[allow(non_upper_case_globals)]
        mod values {
            use std::sync::atomic::AtomicI32;
            $( pub static $name: AtomicI32 = AtomicI32::new($default); )*
        }

        /// Sets the tunable `name` (case-insensitive) to `value`, clamped to its range, and
        /// returns the value set; `None` for an unknown name. Only a tuning build has
        /// run-time values.
        #[cfg(feature = "tune")]
        pub fn set(name: &str, value: i32) -> Option<i32> {
            use std::sync::atomic::Ordering;
            let tunable = TUNABLES.iter().find(|t| t.name.eq_ignore_ascii_case(name))?;
            let value = value.clamp(tunable.min, tunable.max);
            $( if tunable.name == stringify!($name) { values::$name.store(value, Ordering::Relaxed); } )*
            GENERATION.fetch_add(1, Ordering::Relaxed);
            Some(value)
        }
    };
}

/// Counts `set` calls, so that tables computed from the tunables (the late-move reductions)
/// know when to be computed again.
#[cfg(feature = "tune")]
pub static GENERATION: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

tunables! {
    /// Aspiration: first half-width of the window around the previous score.
    aspiration_window = 20, 5, 60, 3.0;
    /// Aspiration windows start at this depth.
    aspiration_min_depth = 4, 2, 8, 0.5;
    /// Aspiration: a failed window widens by this many hundredths of its half-width.
    aspiration_widening = 50, 20, 200, 10.0;
    /// Aspiration: past this half-width the window opens fully.
    aspiration_max_delta = 1000, 20, 3000, 100.0;
    /// Aspiration: on a fail low, beta moves to this many hundredths of the way from alpha
    /// to beta (50: halfway).
    aspiration_fail_low_beta = 50, 0, 100, 5.0;

    /// Reverse futility: deepest remaining depth at which it applies.
    rfp_max_depth = 6, 3, 10, 0.5;
    /// Reverse futility: margin per ply of depth.
    rfp_margin = 100, 40, 200, 8.0;

    /// Null move: shallowest depth at which it is tried.
    nmp_min_depth = 3, 1, 6, 0.5;
    /// Null move: base reduction.
    nmp_base_reduction = 3, 1, 6, 0.5;
    /// Null move: one more ply of reduction per this many plies of depth.
    nmp_depth_divisor = 4, 2, 8, 0.5;
    /// Null move: one more ply of reduction per this many centipawns of eval above beta.
    nmp_eval_divisor = 200, 80, 400, 15.0;
    /// Null move: most plies of reduction the eval adds.
    nmp_eval_max = 3, 1, 6, 0.5;

    /// Internal iterative reduction: shallowest depth at which a missing hash move reduces.
    iir_min_depth = 4, 2, 8, 0.5;

    /// Futility pruning: deepest remaining depth at which quiet moves are pruned.
    futility_max_depth = 6, 3, 10, 0.5;
    /// Futility pruning: margin base.
    futility_base = 80, 20, 200, 8.0;
    /// Futility pruning: margin per ply.
    futility_per_depth = 90, 40, 180, 8.0;
    /// SEE pruning: deepest remaining depth at which moves that lose material are pruned.
    see_prune_max_depth = 8, 3, 12, 0.5;
    /// SEE pruning: a quiet move is pruned when its exchange loses more than this per ply.
    see_quiet_margin = 64, 20, 160, 6.0;
    /// SEE pruning: a capture is pruned when its exchange loses more than this per ply
    /// squared.
    see_noisy_margin = 20, 5, 60, 2.0;
    /// Delta pruning in quiescence: margin above the captured piece's value.
    delta_margin = 200, 50, 400, 15.0;

    /// Lazy evaluation (positional evaluation only): material alone this far above beta
    /// stands pat.
    lazy_eval_margin = 400, 200, 800, 30.0;

    /// Singular extensions: shallowest depth at which the hash move is tested.
    se_min_depth = 8, 5, 12, 0.5;
    /// Singular extensions: the hash move's stored depth may be this much less than the
    /// node's.
    se_tt_depth_margin = 3, 1, 5, 0.5;
    /// Singular extensions: the test's bound lies this many centipawns per ply below the
    /// stored score.
    se_margin_per_depth = 2, 1, 6, 0.5;
    /// Singular extensions: the test searches to (depth - 1) / this.
    se_depth_divisor = 2, 1, 4, 0.5;

    /// ProbCut: shallowest depth at which it is tried.
    probcut_min_depth = 5, 3, 8, 0.5;
    /// ProbCut: how far above beta a capture's reduced search must land.
    probcut_margin = 200, 80, 400, 15.0;
    /// ProbCut: the margin is this much smaller when the position is improving.
    probcut_improving = 50, 0, 150, 8.0;
    /// ProbCut: the reduced search is this much shallower than the node.
    probcut_reduction = 4, 2, 6, 0.5;
    /// ProbCut: a cut is stored this many plies deeper than the reduced search that found it.
    probcut_store_depth = 1, 0, 3, 0.5;

    /// Tablebases: a probed result is stored this many plies deeper than its node.
    tb_store_depth = 6, 0, 20, 1.0;

    /// Lazy SMP: from this remaining depth, a move another thread is searching is put off.
    abdada_defer_depth = 3, 1, 8, 0.5;

    /// Late move pruning: deepest remaining depth at which late quiet moves are skipped.
    lmp_max_depth = 6, 3, 10, 0.5;
    /// Late move pruning: quiet moves tried before the rest are skipped, beyond depth
    /// squared (halved when not improving).
    lmp_base = 3, 1, 8, 0.5;

    /// Late move reductions: shallowest depth.
    lmr_min_depth = 3, 2, 5, 0.5;
    /// Late move reductions: the table's constant term, in hundredths of a ply.
    lmr_base = 75, 0, 200, 8.0;
    /// Late move reductions: the table's divisor of ln(depth) ln(move number), in
    /// hundredths.
    lmr_divisor = 225, 120, 400, 12.0;
    /// Late move reductions: 1024ths of a ply less at PV nodes.
    lmr_pv_node = 1024, 0, 3072, 128.0;
    /// Late move reductions: 1024ths of a ply more when the position is not improving.
    lmr_not_improving = 1024, 0, 3072, 128.0;
    /// Late move reductions: 1024ths of a ply more at expected cut nodes.
    lmr_cut_node = 1024, 0, 3072, 128.0;
    /// Late move reductions: 1024ths of a ply less for a killer move.
    lmr_killer = 1024, 0, 3072, 128.0;
    /// Late move reductions: history points per ply of reduction removed or added.
    lmr_history_divisor = 8192, 2048, 16384, 600.0;
    /// Late move reductions: the continuation history counts this many hundredths beside the
    /// butterfly history.
    lmr_continuation_percent = 50, 0, 100, 5.0;

    /// History: bonus per depth squared for a cut-off.
    history_bonus_quadratic = 16, 4, 40, 2.0;
    /// History: bonus per ply of depth for a cut-off.
    history_bonus_linear = 32, 0, 100, 5.0;
    /// History: largest bonus for one cut-off.
    history_bonus_max = 1200, 400, 3000, 100.0;
    /// History: the butterfly history's entries stay within plus or minus this.
    history_limit = 16384, 4096, 32000, 1000.0;
    /// History: the continuation history's entries stay within plus or minus this.
    continuation_limit = 16384, 4096, 32000, 1000.0;

    /// Capture history: the entries stay within plus or minus this.
    capture_history_limit = 16384, 4096, 32000, 1000.0;
    /// Capture history: an entry is divided by this in a capture's ordering score (MVV-LVA
    /// counts 16 a centipawn of the victim).
    capture_order_divisor = 8, 2, 32, 1.0;
    /// Capture history: the history's share of the ordering score is divided by this to give
    /// the centipawns by which a capture's static exchange may fall short of 0 and still
    /// count as good.
    capture_see_divisor = 8, 2, 64, 1.0;

    /// Correction history: the pawn table's weight, in 2048ths of an entry per centipawn.
    corr_pawn_weight = 128, 0, 512, 16.0;
    /// Correction history: each side's non-pawn table's weight.
    corr_non_pawn_weight = 128, 0, 512, 16.0;
    /// Correction history: the continuation table's weight.
    corr_continuation_weight = 128, 0, 512, 16.0;
    /// Correction history: the error times the depth is divided by this to give the bonus.
    corr_bonus_divisor = 8, 2, 32, 1.0;
    /// Correction history: the largest bonus of one update (the entries stay within 1024).
    corr_bonus_max = 256, 32, 1024, 24.0;

    /// Time: the soft deadline's factor when the best move just changed, in hundredths.
    tm_stability_0 = 140, 100, 200, 5.0;
    /// Time: the factor after one iteration with the same best move.
    tm_stability_1 = 115, 80, 160, 5.0;
    /// Time: the factor after two.
    tm_stability_2 = 100, 70, 130, 5.0;
    /// Time: the factor after three.
    tm_stability_3 = 90, 60, 120, 5.0;
    /// Time: the factor after four or more.
    tm_stability_4 = 80, 50, 110, 5.0;
    /// Time: a score drop counts up to this many centipawns.
    tm_falling_max = 150, 50, 300, 10.0;
    /// Time: a drop of this many centipawns doubles the time (linearly in between).
    tm_falling_scale = 250, 100, 500, 20.0;
    /// Time: the node-share factor is (this - share) x `tm_effort_scale`, in hundredths.
    tm_effort_base = 150, 110, 200, 5.0;
    /// Time: the node-share factor's slope, in hundredths.
    tm_effort_scale = 135, 80, 200, 6.0;
    /// Time: the hard deadline is this many times the planned time per move (at most a
    /// third of the clock).
    tm_hard_factor = 4, 2, 8, 0.5;
    /// Time: moves assumed to remain when the GUI does not say (sudden death).
    tm_moves_to_go = 40, 15, 60, 2.0;
    /// Time: the most moves to go a plan spreads the clock over.
    tm_moves_to_go_max = 50, 20, 80, 3.0;
    /// Time: milliseconds kept back per move beside Move Overhead (pipes, a busy machine).
    tm_safety_ms = 10, 0, 50, 2.0;
    /// Time: the reserve covers the moves to go and this many more.
    tm_reserve_extra_moves = 2, 0, 10, 1.0;
    /// Time: the soft deadline is at most the clock's ceiling divided by this.
    tm_soft_ceiling_divisor = 4, 2, 8, 0.5;
    /// Time: the hard deadline is at most the clock's ceiling divided by this.
    tm_hard_ceiling_divisor = 3, 2, 6, 0.5;
    /// Time: before the time control, the hard deadline is this many hundredths of what is
    /// available...
    tm_last_move_available = 80, 50, 95, 3.0;
    /// Time: ...and of the ceiling.
    tm_last_move_ceiling = 75, 50, 95, 3.0;
    /// Time: with `go movetime`, at least this many thousandths of it are kept whatever
    /// Move Overhead asks.
    tm_movetime_floor = 100, 20, 300, 10.0;
    /// Time: the node-share factor's least value, in hundredths.
    tm_effort_min = 50, 20, 90, 3.0;
    /// Time: the node-share factor's largest value, in hundredths.
    tm_effort_max = 200, 120, 300, 8.0;
    /// Time: the whole scaling's least value, in hundredths.
    tm_scale_min = 35, 10, 80, 3.0;
    /// Time: the whole scaling's largest value, in hundredths.
    tm_scale_max = 300, 150, 500, 15.0;
}

/// Late move pruning threshold: quiet moves tried before the rest are skipped.
#[inline]
pub fn lmp_threshold(depth: i32, improving: bool) -> usize {
    let base = lmp_base() + depth * depth;
    (if improving { base } else { base / 2 + 1 }) as usize
}

/// Futility pruning: the margin above the static evaluation at `depth`.
#[inline]
pub fn futility_margin(depth: i32) -> i32 {
    futility_base() + futility_per_depth() * depth
}

/// SEE pruning: the least exchange gain a quiet move (`quiet`) or a capture keeps at
/// `depth` (negative: the loss allowed).
#[inline]
pub fn see_prune_threshold(quiet: bool, depth: i32) -> i32 {
    if quiet {
        -see_quiet_margin() * depth
    } else {
        -see_noisy_margin() * depth * depth
    }
}

/// History bonus for a cut-off at `depth`.
#[inline]
pub fn history_bonus(depth: i32) -> i32 {
    (history_bonus_quadratic() * depth * depth + history_bonus_linear() * depth)
        .min(history_bonus_max())
}

/// The late-move reduction table's entry for `depth` and move `number` (both from 1), in
/// 1024ths of a ply: `lmr_base + ln(depth) ln(number) / lmr_divisor`.
pub fn lmr_table_entry(depth: usize, number: usize) -> i32 {
    let r = f64::from(lmr_base()) / 100.0
        + (depth as f64).ln() * (number as f64).ln() / (f64::from(lmr_divisor()) / 100.0);
    (r.max(0.0) * 1024.0) as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tunable_is_in_range_and_named_once() {
        for (i, t) in TUNABLES.iter().enumerate() {
            assert!(t.min <= t.default && t.default <= t.max, "{}", t.name);
            assert!(t.step > 0.0, "{}", t.name);
            assert!(
                TUNABLES[i + 1..].iter().all(|u| u.name != t.name),
                "{} twice",
                t.name
            );
        }
        assert_eq!(
            TUNABLES[0].openbench_line(),
            "aspiration_window, int, 20, 5, 60, 3, 0.002"
        );
    }

    /// The readers give the declared defaults (in a tuning build, until set).
    #[test]
    #[cfg(not(feature = "tune"))]
    fn readers_give_the_defaults() {
        let find = |name: &str| TUNABLES.iter().find(|t| t.name == name).unwrap().default;
        assert_eq!(rfp_margin(), find("rfp_margin"));
        assert_eq!(tm_hard_factor(), find("tm_hard_factor"));
        assert_eq!(history_bonus(3), 16 * 9 + 32 * 3);
        assert_eq!(history_bonus(20), 1200);
        assert_eq!(lmr_table_entry(1, 1), 768);
        assert_eq!(lmr_table_entry(10, 10) / 1024, 3);
    }

    #[test]
    #[cfg(feature = "tune")]
    fn a_tuning_build_sets_values_in_range() {
        assert_eq!(set("RFP_margin", 120), Some(120));
        assert_eq!(rfp_margin(), 120);
        assert_eq!(set("rfp_margin", 100_000), Some(200));
        assert_eq!(set("no_such_number", 1), None);
        assert_eq!(set("rfp_margin", 100), Some(100));
    }
}
