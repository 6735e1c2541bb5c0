//! Time management: turns the `go` limits into a soft and a hard deadline.
//!
//! The soft deadline is when no new iteration is started (a finished iteration is the natural
//! moment to stop); the hard deadline aborts the search wherever it is, and the best move of
//! the last completed work is played. Both are durations from the start of the search (or from
//! `ponderhit`). The deadlines keep back Move Overhead plus a safety margin for every move
//! still to play, so the clock keeps a buffer against a slow pipe or a busy machine; this
//! module never lets the engine plan to use the whole clock.
//!
//! Between iterations `Scaling` stretches or cuts the soft deadline (never past the hard one):
//! a best move that keeps changing, a score that falls and a best move that took a small share
//! of the nodes ask for more time; a best move that has held for several iterations and took
//! most of the nodes asks for less.

use std::time::Duration;

use super::limits::Limits;
use super::params;

/// When to stop.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Deadlines {
    /// No new iteration after this.
    pub soft: Option<Duration>,
    /// Abort the search at this point.
    pub hard: Option<Duration>,
}

/// Latency kept back per move even with Move Overhead 0 (pipes, scheduling on a busy machine):
/// `tm_safety_ms`.
fn safety_per_move() -> Duration {
    Duration::from_millis(params::tm_safety_ms().max(0) as u64)
}

/// Computes the deadlines for one search. `move_overhead` is subtracted from the clock (and
/// from movetime) to cover the GUI's and the network's delays.
pub fn deadlines(limits: &Limits, move_overhead: Duration) -> Deadlines {
    let mut result = Deadlines::default();
    if let Some(time) = limits.time {
        let (soft, hard) = clock_deadlines(
            time,
            limits.increment,
            // `movestogo 0` means nothing (the control is never 0 moves away): read it as
            // not given rather than as "last move", which would spend half the clock.
            limits
                .movestogo
                .filter(|&moves| moves > 0)
                .unwrap_or(params::tm_moves_to_go().max(1) as u32),
            move_overhead,
        );
        result.soft = Some(soft);
        result.hard = Some(hard);
    }
    if let Some(movetime) = limits.movetime {
        // A huge overhead must not leave nothing at all: keep at least a tenth of movetime.
        let floor = movetime * params::tm_movetime_floor().max(1) as u32 / 1000;
        let budget = movetime
            .saturating_sub(move_overhead)
            .max(floor)
            .saturating_sub(safety_per_move().min(floor));
        result.soft = Some(result.soft.map_or(budget, |soft| soft.min(budget)));
        result.hard = Some(result.hard.map_or(budget, |hard| hard.min(budget)));
    }
    result
}

/// Spreads the clock over the moves to go, keeping back Move Overhead plus a safety margin for
/// every one of them (and two more), so that the clock never runs down to the latency of a
/// single move: on a loaded machine a move can take tens of milliseconds longer than planned.
fn clock_deadlines(
    time: Duration,
    increment: Duration,
    moves_to_go: u32,
    move_overhead: Duration,
) -> (Duration, Duration) {
    let moves_to_go = moves_to_go.clamp(1, params::tm_moves_to_go_max().max(1) as u32);
    let reserve_per_move = move_overhead + safety_per_move();
    // The reserve never takes more than half the clock: with 0.5 s left and 40 moves assumed
    // to go, a full reserve (40 x 20 ms) would leave nothing and the engine would play every
    // move at depth 2. The ceiling below still keeps each move well inside the clock.
    let extra = params::tm_reserve_extra_moves().max(0) as u32;
    let reserve = (reserve_per_move * (moves_to_go + extra)).min(time / 2);
    let available = (time + increment * (moves_to_go - 1))
        .saturating_sub(reserve)
        .max(Duration::from_millis(1));
    // Whatever the plan, never more than a share of what is really on the clock.
    let ceiling = time.saturating_sub(reserve_per_move).max(time / 10);
    if moves_to_go == 1 {
        // Last move before the time control: the clock is refilled after it.
        let soft = (available / 2).min(ceiling / 2);
        return (
            soft,
            (available.mul_f64(f64::from(params::tm_last_move_available()) / 100.0))
                .min(ceiling.mul_f64(f64::from(params::tm_last_move_ceiling()) / 100.0))
                .max(soft),
        );
    }
    let optimum = available / moves_to_go;
    let soft = optimum.min(ceiling / params::tm_soft_ceiling_divisor().max(1) as u32);
    let hard = (optimum * params::tm_hard_factor() as u32)
        .min(ceiling / params::tm_hard_ceiling_divisor().max(1) as u32)
        .max(soft);
    (soft, hard)
}

/// What time management remembers from one iteration to the next.
#[derive(Clone, Copy, Debug, Default)]
pub struct Scaling {
    best: Option<shakmaty::Move>,
    stable_iterations: u32,
    previous_score: Option<i32>,
}

impl Scaling {
    /// Records a completed iteration (its best move and score, the nodes the best move took
    /// and the iteration's nodes) and returns the factor for the soft deadline.
    pub fn update(&mut self, best: shakmaty::Move, score: i32, best_nodes: u64, nodes: u64) -> f64 {
        if self.best == Some(best) {
            self.stable_iterations += 1;
        } else {
            self.best = Some(best);
            self.stable_iterations = 0;
        }
        let hundredths = |value: i32| f64::from(value) / 100.0;
        let stability = hundredths(match self.stable_iterations {
            0 => params::tm_stability_0(),
            1 => params::tm_stability_1(),
            2 => params::tm_stability_2(),
            3 => params::tm_stability_3(),
            _ => params::tm_stability_4(),
        });
        let drop = self.previous_score.map_or(0, |previous| previous - score);
        self.previous_score = Some(score);
        let falling = 1.0
            + f64::from(drop.clamp(0, params::tm_falling_max()))
                / f64::from(params::tm_falling_scale());
        let share = if nodes == 0 {
            0.5
        } else {
            best_nodes as f64 / nodes as f64
        };
        let effort = ((hundredths(params::tm_effort_base()) - share)
            * hundredths(params::tm_effort_scale()))
        .clamp(
            hundredths(params::tm_effort_min()),
            hundredths(params::tm_effort_max()),
        );
        (stability * falling * effort).clamp(
            hundredths(params::tm_scale_min()),
            hundredths(params::tm_scale_max()),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(ms: u64, inc: u64, mtg: Option<u32>) -> Limits {
        Limits {
            time: Some(Duration::from_millis(ms)),
            increment: Duration::from_millis(inc),
            movestogo: mtg,
            ..Limits::default()
        }
    }

    #[test]
    fn movetime_is_respected_minus_overhead() {
        let limits = Limits {
            movetime: Some(Duration::from_millis(1000)),
            ..Limits::default()
        };
        let d = deadlines(&limits, Duration::from_millis(50));
        let hard = d.hard.unwrap();
        assert!(hard <= Duration::from_millis(950) && hard >= Duration::from_millis(900));
        assert_eq!(d.soft, d.hard);
    }

    #[test]
    fn no_clock_no_deadline() {
        assert_eq!(
            deadlines(&Limits::default(), Duration::ZERO),
            Deadlines::default()
        );
    }

    #[test]
    fn a_short_clock_still_gets_thinking_time() {
        // 0.5 s + 5 ms with the default overhead: the reserve for 40 moves would exceed the
        // clock, but half the clock is still spread over the moves to go.
        let d = deadlines(&clock(500, 5, None), Duration::from_millis(10));
        let soft = d.soft.unwrap();
        assert!(soft >= Duration::from_millis(8), "{soft:?}");
        assert!(d.hard.unwrap() <= Duration::from_millis(160));
    }

    #[test]
    fn deadlines_never_reach_the_clock() {
        for ms in [0, 1, 5, 20, 50, 99, 100, 500, 2_000, 60_000, 10_000_000] {
            for inc in [0, 10, 1000] {
                for mtg in [None, Some(1), Some(2), Some(40)] {
                    for overhead in [0, 10, 100, 10_000] {
                        let d = deadlines(&clock(ms, inc, mtg), Duration::from_millis(overhead));
                        let (soft, hard) = (d.soft.unwrap(), d.hard.unwrap());
                        let clock = Duration::from_millis(ms);
                        assert!(soft <= hard, "{ms} {inc} {mtg:?} {overhead}");
                        assert!(hard <= clock.mul_f64(0.8), "{ms} {inc} {mtg:?} {overhead}");
                    }
                }
            }
        }
    }

    #[test]
    fn more_time_per_move_with_fewer_moves_to_go_and_increments() {
        let base = deadlines(&clock(60_000, 0, Some(40)), Duration::ZERO);
        let fewer = deadlines(&clock(60_000, 0, Some(10)), Duration::ZERO);
        let with_inc = deadlines(&clock(60_000, 1_000, Some(40)), Duration::ZERO);
        assert!(fewer.soft > base.soft);
        assert!(with_inc.soft > base.soft);
        let last = deadlines(&clock(60_000, 0, Some(1)), Duration::ZERO);
        assert!(last.soft > fewer.soft);
    }

    #[test]
    fn movestogo_zero_is_read_as_sudden_death() {
        let zero = deadlines(&clock(60_000, 0, Some(0)), Duration::ZERO);
        let none = deadlines(&clock(60_000, 0, None), Duration::ZERO);
        let last = deadlines(&clock(60_000, 0, Some(1)), Duration::ZERO);
        assert_eq!(zero, none);
        assert!(zero.hard < last.hard);
    }

    #[test]
    fn huge_clocks_and_increments_do_not_overflow() {
        for (ms, inc, mtg) in [
            (u64::MAX, u64::MAX, None),
            (u64::MAX, 0, Some(1)),
            (1, u64::MAX, Some(10_000)),
            (u64::MAX / 3, u64::MAX / 7, Some(2)),
        ] {
            let d = deadlines(&clock(ms, inc, mtg), Duration::from_millis(u64::MAX));
            assert!(d.soft.unwrap() <= d.hard.unwrap());
            assert!(d.hard.unwrap() <= Duration::from_millis(ms));
        }
        let movetime = Limits {
            movetime: Some(Duration::from_millis(u64::MAX)),
            ..clock(u64::MAX, u64::MAX, Some(1))
        };
        assert!(deadlines(&movetime, Duration::ZERO).hard.is_some());
    }

    #[test]
    fn scaling_asks_more_for_unstable_falling_searches() {
        let e2e4 = shakmaty::Move::Normal {
            role: shakmaty::Role::Pawn,
            from: shakmaty::Square::E2,
            capture: None,
            to: shakmaty::Square::E4,
            promotion: None,
        };
        let d2d4 = shakmaty::Move::Normal {
            role: shakmaty::Role::Pawn,
            from: shakmaty::Square::D2,
            capture: None,
            to: shakmaty::Square::D4,
            promotion: None,
        };
        // The same move for many iterations with most of the nodes: less time.
        let mut calm = Scaling::default();
        let mut factor = 1.0;
        for _ in 0..6 {
            factor = calm.update(e2e4, 30, 90, 100);
        }
        assert!(factor < 0.8, "{factor}");
        // A new best move after a score drop, with a small share of the nodes: more time.
        let worried = calm.update(d2d4, -60, 30, 100);
        assert!(worried > 2.0, "{worried}");
        assert!(worried <= 3.0);
    }
}
