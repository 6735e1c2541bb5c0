//! A weaker, human-like level for `UCI_LimitStrength` and `UCI_Elo`: the engine searches
//! fewer nodes, and sometimes plays a plausible second-best move, never a random blunder.
//!
//! Two knobs follow from the Elo asked for. The node budget falls with the Elo (fewer nodes:
//! shallower sight, as a weaker player), between calibration points. The
//! choice among the best `LINES` root moves (searched as MultiPV lines) adds a random push of
//! 0 to `noise` centipawns to each line's score and plays the highest: at the bottom of the
//! range a move up to a pawn worse than the best can be chosen, never one worse than that;
//! at the top of the range the best move is always played.
//! The constants were calibrated against Stockfish 15.1's `UCI_Elo` ladder at 10+0.1
//! (docs/levels.md), with the positional evaluation, which a level therefore always plays
//! with (`EVALUATION`): the NNUE sees more in the same nodes and would lift every level.

use shakmaty::Move;

use super::report::Report;
use super::score::is_decisive;
use crate::eval::{Evaluation, Value};
use crate::rng::splitmix64;

/// The lowest `UCI_Elo` offered (the bottom of the calibrated range).
pub const MIN_ELO: u32 = 1350;
/// The highest `UCI_Elo` offered: about the engine at full strength at 10+0.1.
pub const MAX_ELO: u32 = 2100;
/// Root moves compared when choosing (MultiPV lines searched).
pub const LINES: usize = 4;
/// The calibration points: (Elo, nodes per move), ascending, from `MIN_ELO` to `MAX_ELO`;
/// measured against Stockfish 15.1 `UCI_Elo` at 10+0.1 (docs/levels.md).
const NODES: [(u32, u64); 5] = [
    (MIN_ELO, 560),
    (1400, 800),
    (1700, 5_000),
    (2000, 64_000),
    (MAX_ELO, 156_000),
];

/// The evaluation the levels were calibrated with, used whatever `Evaluation` says.
pub const EVALUATION: Evaluation = Evaluation::Positional;

/// The random push at `MIN_ELO`, in centipawns.
const MAX_NOISE: Value = 100;

/// A playing level: the Elo asked for, clamped to the range offered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    elo: u32,
}

impl Level {
    /// The level for `UCI_Elo` `elo` (clamped to `MIN_ELO..=MAX_ELO`).
    pub fn new(elo: u32) -> Self {
        Self {
            elo: elo.clamp(MIN_ELO, MAX_ELO),
        }
    }

    /// Nodes per move: interpolated between the calibration points of `NODES`, evenly in
    /// the logarithm (each step of Elo multiplies the budget by the same factor).
    pub fn nodes(self) -> u64 {
        let elo = f64::from(self.elo);
        let upper = NODES
            .iter()
            .position(|&(e, _)| f64::from(e) >= elo)
            .unwrap_or(NODES.len() - 1)
            .max(1);
        let (e0, n0) = NODES[upper - 1];
        let (e1, n1) = NODES[upper];
        let t = (elo - f64::from(e0)) / f64::from(e1 - e0);
        let log = (n0 as f64).log2() * (1.0 - t) + (n1 as f64).log2() * t;
        log.exp2().round() as u64
    }

    /// The largest random push, in centipawns, added to each line's score before the best
    /// is taken: 0 at the top of the range, `MAX_NOISE` at the bottom. A line more than this
    /// below the best is never played.
    pub fn noise(self) -> Value {
        let span = f64::from(MAX_ELO - MIN_ELO);
        (f64::from(MAX_NOISE) * f64::from(MAX_ELO - self.elo) / span).round() as Value
    }

    /// Chooses the move to play among `lines` (best first, as the search reports them), with
    /// `seed` for the random push; `None` without lines. A mate or tablebase win is never
    /// traded away, and a line that loses one is never chosen.
    pub fn choose(self, lines: &[Report], seed: u64) -> Option<Move> {
        let best = lines.first()?;
        let noise = self.noise();
        if noise == 0 || lines.len() < 2 || is_decisive(best.score) {
            return best.pv.first().copied();
        }
        let mut chosen = best.pv.first().copied();
        let mut chosen_value = Value::MIN;
        for (i, line) in lines.iter().enumerate() {
            let Some(&mv) = line.pv.first() else { continue };
            if is_decisive(line.score) {
                continue;
            }
            let push = (splitmix64(seed.wrapping_add(i as u64)) % (noise as u64 + 1)) as Value;
            if line.score + push > chosen_value {
                chosen_value = line.score + push;
                chosen = Some(mv);
            }
        }
        chosen
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::tt::Bound;
    use shakmaty::{Role, Square};
    use std::time::Duration;

    fn line(score: Value, to: Square) -> Report {
        Report {
            depth: 8,
            seldepth: 8,
            multipv: 1,
            score,
            bound: Bound::Exact,
            nodes: 1,
            elapsed: Duration::ZERO,
            hashfull: 0,
            tbhits: None,
            pv: vec![Move::Normal {
                role: Role::Pawn,
                from: Square::E2,
                capture: None,
                to,
                promotion: None,
            }],
        }
    }

    #[test]
    fn nodes_fall_with_the_elo_and_stay_above_the_floor() {
        for (elo, nodes) in NODES {
            assert_eq!(Level::new(elo).nodes(), nodes);
        }
        let mut previous = 0;
        for elo in MIN_ELO..=MAX_ELO {
            let nodes = Level::new(elo).nodes();
            assert!(nodes >= previous, "{elo}");
            previous = nodes;
        }
        assert_eq!(Level::new(100), Level::new(MIN_ELO));
        assert_eq!(Level::new(9999), Level::new(MAX_ELO));
    }

    #[test]
    fn the_top_level_always_plays_the_best_line() {
        let lines = [line(30, Square::E4), line(25, Square::E3)];
        for seed in 0..100 {
            assert_eq!(
                Level::new(MAX_ELO).choose(&lines, seed),
                Some(lines[0].pv[0])
            );
        }
    }

    #[test]
    fn low_levels_sometimes_play_a_close_second_but_never_a_blunder() {
        let close = [line(30, Square::E4), line(10, Square::E3)];
        let level = Level::new(MIN_ELO);
        let seconds = (0..1000)
            .filter(|&seed| level.choose(&close, seed) == Some(close[1].pv[0]))
            .count();
        assert!(seconds > 50 && seconds < 950, "{seconds}");

        // More than a pawn worse: never chosen, however weak.
        let blunder = [line(30, Square::E4), line(-75, Square::E3)];
        assert!((0..1000).all(|seed| level.choose(&blunder, seed) == Some(blunder[0].pv[0])));
    }

    #[test]
    fn a_mate_is_never_traded_away() {
        let lines = [
            line(super::super::score::MATE - 5, Square::E4),
            line(0, Square::E3),
        ];
        assert!(
            (0..200).all(|seed| Level::new(MIN_ELO).choose(&lines, seed) == Some(lines[0].pv[0]))
        );
    }
}
