//! The measurements of the search lab: which configurations exist, how each is built from the
//! one `Search`, and the loop that runs every configuration at every depth on every position.
//!
//! A configuration is nothing but a `SearchConfig`: every one starts from
//! `SearchConfig::lab_baseline()` and toggles fields, except `full`, which is the engine's own
//! `SearchConfig::default()`. There is no second searcher here and there must never be one:
//! the point of the lab is that it measures the search the engine plays with. The results are
//! plain data (root value, counters, wall time per search); turning them into tables and plots
//! is `summary`'s and `svg`'s business, and comparing root values is `value_differences`'s.

use std::time::{Duration, Instant};

use brudno_engine::eval::Value;
use brudno_engine::position::Position;
use brudno_engine::search::MoveOrder;
use brudno_engine::search::stats::Stats;
use brudno_engine::search::tt::TranspositionTable;
use brudno_engine::search::{Limits, Search, SearchConfig, SearchControl};

/// Seed of the `alphabeta-random` order (the year Brudno published alpha-beta).
pub const RANDOM_ORDER_SEED: u64 = 1963;
/// Transposition table size, in MiB, for the configurations that use the table. The table is
/// cleared before each of their searches so that every search starts alike.
pub const HASH_MIB: usize = 16;

/// One configuration of the search lab: a set of switches of the engine's search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum LabConfig {
    /// No cut-offs: every legal move searched to the full depth with a full window.
    Minimax,
    /// Alpha-beta with quiet moves first and captures by reversed MVV-LVA: a bad order.
    AlphabetaWorst,
    /// Alpha-beta with a fixed-seed random order.
    AlphabetaRandom,
    /// Alpha-beta with moves in generation order.
    Alphabeta,
    /// Alpha-beta with captures first by MVV-LVA.
    MvvLva,
    /// MVV-LVA plus iterative deepening with the hash move first (no cut-offs from the table).
    IdTt,
    /// The engine as it plays: `SearchConfig::default()`, table cut-offs included.
    Full,
}

impl LabConfig {
    /// Every configuration, from no pruning to the full engine.
    pub const ALL: [LabConfig; 7] = [
        LabConfig::Minimax,
        LabConfig::AlphabetaWorst,
        LabConfig::AlphabetaRandom,
        LabConfig::Alphabeta,
        LabConfig::MvvLva,
        LabConfig::IdTt,
        LabConfig::Full,
    ];

    /// The name used on the command line and in every output.
    pub fn name(self) -> &'static str {
        match self {
            LabConfig::Minimax => "minimax",
            LabConfig::AlphabetaWorst => "alphabeta-worst",
            LabConfig::AlphabetaRandom => "alphabeta-random",
            LabConfig::Alphabeta => "alphabeta",
            LabConfig::MvvLva => "mvv-lva",
            LabConfig::IdTt => "id-tt",
            LabConfig::Full => "full",
        }
    }

    /// One line saying which switches are on.
    pub fn description(self) -> &'static str {
        match self {
            LabConfig::Minimax => "no cut-offs, generation order",
            LabConfig::AlphabetaWorst => "alpha-beta, quiet moves first, captures reversed MVV-LVA",
            LabConfig::AlphabetaRandom => "alpha-beta, fixed-seed random order",
            LabConfig::Alphabeta => "alpha-beta, generation order",
            LabConfig::MvvLva => "alpha-beta, MVV-LVA captures first",
            LabConfig::IdTt => {
                "MVV-LVA + iterative deepening + hash move first (no table cut-offs)"
            }
            LabConfig::Full => {
                "the engine as it plays: SearchConfig::default(), its default evaluation, selective search, table cut-offs"
            }
        }
    }

    /// Whether this configuration must return exactly the minimax value. Only `full` may
    /// differ: it uses the engine's evaluation, prunes selectively (null move, reductions,
    /// futility), and a table cut-off returns a value stored by another path.
    pub fn is_exact(self) -> bool {
        self != LabConfig::Full
    }

    /// The search's switches for this configuration; `quiescence` applies to every one of them
    /// alike (the lab compares fixed-depth trees, so it is off unless asked for).
    pub fn search_config(self, quiescence: bool) -> SearchConfig {
        let baseline = SearchConfig {
            quiescence,
            threads: 1,
            ..SearchConfig::lab_baseline()
        };
        match self {
            LabConfig::Minimax => SearchConfig {
                pruning: false,
                ..baseline
            },
            LabConfig::AlphabetaWorst => SearchConfig {
                order: MoveOrder::Worst,
                ..baseline
            },
            LabConfig::AlphabetaRandom => SearchConfig {
                order: MoveOrder::Random(RANDOM_ORDER_SEED),
                ..baseline
            },
            LabConfig::Alphabeta => baseline,
            LabConfig::MvvLva => SearchConfig {
                order: MoveOrder::Staged,
                ..baseline
            },
            LabConfig::IdTt => SearchConfig {
                order: MoveOrder::Staged,
                hash_move: true,
                iterative_deepening: true,
                ..baseline
            },
            LabConfig::Full => SearchConfig {
                quiescence,
                threads: 1,
                count_legal_moves: true,
                ..SearchConfig::default()
            },
        }
    }
}

/// A position of the lab with the name the outputs use for it.
#[derive(Clone, Debug)]
pub struct LabPosition {
    /// The EPD `id`, or `line N` when there is none.
    pub id: String,
    /// The position.
    pub position: Position,
}

/// What one search (one configuration, one depth, one position) returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The root value, from the side to move.
    pub score: Value,
    /// The search's counters.
    pub stats: Stats,
    /// Wall time of the search (not counted in equality: it differs between runs).
    pub elapsed: Duration,
}

/// Every sample of a lab run, addressed by configuration, depth and position.
#[derive(Clone, Debug)]
pub struct LabRun {
    /// The positions, in file order.
    pub positions: Vec<LabPosition>,
    /// The configurations, in the order asked for.
    pub configs: Vec<LabConfig>,
    /// Depths 1..=max_depth were searched.
    pub max_depth: u32,
    /// Whether the horizon was resolved by quiescence search.
    pub quiescence: bool,
    /// Samples, depth-major, then configuration, then position (see `sample`).
    pub samples: Vec<Sample>,
}

impl LabRun {
    /// The index of a sample in `samples`.
    fn index(&self, config: usize, depth: u32, position: usize) -> usize {
        ((depth as usize - 1) * self.configs.len() + config) * self.positions.len() + position
    }

    /// The sample of configuration number `config` at `depth` (1-based) on position number
    /// `position`. Panics, like slice indexing, if any of them is out of range.
    pub fn sample(&self, config: usize, depth: u32, position: usize) -> &Sample {
        &self.samples[self.index(config, depth, position)]
    }

    /// The samples of configuration number `config` at `depth`, one per position (panics if
    /// out of range).
    pub fn samples_at(&self, config: usize, depth: u32) -> &[Sample] {
        let start = self.index(config, depth, 0);
        &self.samples[start..start + self.positions.len()]
    }

    /// The configuration whose root values the exact configurations are held to: minimax if it
    /// ran, otherwise the first exact configuration; `None` if no exact one ran.
    pub fn reference(&self) -> Option<usize> {
        self.configs
            .iter()
            .position(|&c| c == LabConfig::Minimax)
            .or_else(|| self.configs.iter().position(|c| c.is_exact()))
    }
}

/// A root value that differs from the reference configuration's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueDifference {
    /// The configuration that differs.
    pub config: LabConfig,
    /// The reference it was compared with.
    pub reference: LabConfig,
    /// The depth.
    pub depth: u32,
    /// Index of the position in the run.
    pub position: usize,
    /// The configuration's root value.
    pub value: Value,
    /// The reference's root value.
    pub reference_value: Value,
}

/// Every root value of the configurations chosen by `which` that differs from the reference
/// configuration's at the same depth and position.
pub fn value_differences(run: &LabRun, which: impl Fn(LabConfig) -> bool) -> Vec<ValueDifference> {
    let Some(reference) = run.reference() else {
        return Vec::new();
    };
    let mut differences = Vec::new();
    for depth in 1..=run.max_depth {
        for (config_index, &config) in run.configs.iter().enumerate() {
            if config_index == reference || !which(config) {
                continue;
            }
            for position in 0..run.positions.len() {
                let value = run.sample(config_index, depth, position).score;
                let reference_value = run.sample(reference, depth, position).score;
                if value != reference_value {
                    differences.push(ValueDifference {
                        config,
                        reference: run.configs[reference],
                        depth,
                        position,
                        value,
                        reference_value,
                    });
                }
            }
        }
    }
    differences
}

/// Where a run stands, for progress reports: the search just finished.
#[derive(Clone, Copy, Debug)]
pub struct Progress<'a> {
    /// Its configuration.
    pub config: LabConfig,
    /// Its depth.
    pub depth: u32,
    /// Index of its position.
    pub position: usize,
    /// Number of positions per configuration and depth.
    pub positions: usize,
    /// What it returned.
    pub sample: &'a Sample,
}

/// Runs every configuration at depths 1..=`max_depth` on every position (shallow depths
/// first, so a long run has finished the cheap part before the expensive one), calling
/// `progress` after each search. One thread; the table is cleared before each search that
/// uses it, so the counters are the same from run to run.
pub fn measure(
    positions: Vec<LabPosition>,
    configs: Vec<LabConfig>,
    max_depth: u32,
    quiescence: bool,
    progress: &mut dyn FnMut(Progress),
) -> LabRun {
    let tt = TranspositionTable::new(HASH_MIB);
    let search_configs: Vec<SearchConfig> = configs
        .iter()
        .map(|c| c.search_config(quiescence))
        .collect();
    let mut samples = Vec::with_capacity(max_depth as usize * configs.len() * positions.len());
    for depth in 1..=max_depth {
        let limits = Limits::depth(depth);
        for (&config, search_config) in configs.iter().zip(&search_configs) {
            for (index, lab_position) in positions.iter().enumerate() {
                if search_config.hash_move {
                    tt.clear(1);
                }
                let control = SearchControl::default();
                control.begin(false);
                let started = Instant::now();
                let result = Search {
                    position: &lab_position.position,
                    history: &[],
                    limits: &limits,
                    config: search_config,
                    tt: &tt,
                    control: &control,
                    histories: None,
                }
                .run(&mut |_| {});
                let sample = Sample {
                    score: result.score,
                    stats: result.stats,
                    elapsed: started.elapsed(),
                };
                progress(Progress {
                    config,
                    depth,
                    position: index,
                    positions: positions.len(),
                    sample: &sample,
                });
                samples.push(sample);
            }
        }
    }
    LabRun {
        positions,
        configs,
        max_depth,
        quiescence,
        samples,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::ValueEnum;

    #[test]
    fn names_match_the_command_line_values() {
        for config in LabConfig::ALL {
            let parsed = LabConfig::from_str(config.name(), false).unwrap();
            assert_eq!(parsed, config);
        }
    }

    #[test]
    fn configurations_are_switches_of_the_baseline() {
        let baseline = SearchConfig::lab_baseline();
        for config in LabConfig::ALL {
            let switches = config.search_config(false);
            assert!(!switches.quiescence, "{}", config.name());
            assert!(config.search_config(true).quiescence, "{}", config.name());
            assert_eq!(switches.pruning, config != LabConfig::Minimax);
            assert_eq!(switches.tt_cutoffs, config == LabConfig::Full);
            if config == LabConfig::Full {
                // The engine as it plays, counting the legal moves the picker would skip.
                let default = SearchConfig::default();
                assert!(switches.count_legal_moves);
                assert_eq!(
                    SearchConfig {
                        quiescence: default.quiescence,
                        count_legal_moves: false,
                        ..switches
                    },
                    default
                );
            } else {
                // Only the four lab switches may differ from the baseline.
                let toggled_back = SearchConfig {
                    pruning: baseline.pruning,
                    order: baseline.order,
                    hash_move: baseline.hash_move,
                    iterative_deepening: baseline.iterative_deepening,
                    ..switches
                };
                assert_eq!(toggled_back, baseline, "{}", config.name());
            }
        }
    }

    fn fake_run(scores: &[[Value; 2]]) -> LabRun {
        // Two configurations (minimax, alphabeta) at depth 1 on as many positions as rows.
        let positions = (0..scores.len())
            .map(|i| LabPosition {
                id: format!("p{i}"),
                position: Position::default(),
            })
            .collect();
        let sample = |score| Sample {
            score,
            stats: Stats::default(),
            elapsed: Duration::ZERO,
        };
        let mut samples: Vec<Sample> = scores.iter().map(|s| sample(s[0])).collect();
        samples.extend(scores.iter().map(|s| sample(s[1])));
        LabRun {
            positions,
            configs: vec![LabConfig::Minimax, LabConfig::Alphabeta],
            max_depth: 1,
            quiescence: false,
            samples,
        }
    }

    #[test]
    fn a_different_root_value_is_found() {
        let run = fake_run(&[[10, 10], [-5, 7], [0, 0]]);
        let differences = value_differences(&run, LabConfig::is_exact);
        assert_eq!(
            differences,
            vec![ValueDifference {
                config: LabConfig::Alphabeta,
                reference: LabConfig::Minimax,
                depth: 1,
                position: 1,
                value: 7,
                reference_value: -5,
            }]
        );
        assert!(value_differences(&fake_run(&[[3, 3]]), LabConfig::is_exact).is_empty());
    }
}
