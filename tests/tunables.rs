//! The tuning build: built with `--features tune`, each of the search's numbers
//! (`search/params.rs`) is a UCI option that changes what the engine does
//! (`cargo test --release --features tune --test tunables`, which `.ci/run` runs).
//!
//! Cargo.toml gives this target `required-features = ["tune"]`, so the plain
//! `cargo test --release` does not link one more test binary with the engine under fat LTO.
//! What `brudno tunables` prints is tested in the suite (`tests/suite/tunables.rs`).

/// A tuning build: every tunable is a UCI spin option, and setting it to either end of its
/// range changes what the engine does: the nodes of fixed-depth searches, or for the time
/// numbers the deadlines and the time scaling.
mod tuning_build {
    use std::time::Duration;

    use brudno::eval::Evaluation;
    use brudno::position::Position;
    use brudno::search::features::Features;
    use brudno::search::history::HistoryStore;
    use brudno::search::params::{self, TUNABLES};
    use brudno::search::time::{Scaling, deadlines};
    use brudno::search::tt::TranspositionTable;
    use brudno::search::{Limits, Search, SearchConfig, SearchControl};

    const FENS: [&str; 4] = [
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "2r3k1/pp3ppp/4p3/3pP3/3P2Q1/2q5/P4PPP/5RK1 w - - 0 24",
        "8/5pk1/6p1/3R4/7P/6P1/r4PK1/8 b - - 3 41",
    ];

    /// Nodes of depth-9 searches of `FENS`, one after the other as in a game, with every
    /// technique on (the switches that are off by default too, so their numbers act), with
    /// the NNUE and with the positional evaluation (lazy evaluation acts only there); then
    /// what time management decides.
    fn fingerprint() -> Vec<u64> {
        let mut out = Vec::new();
        // The histories carry over from search to search, as in a game.
        let store = HistoryStore::default();
        let features = Features::ALL;
        for eval in [Evaluation::Nnue, Evaluation::Positional] {
            for fen in FENS {
                let position = Position::from_fen(fen, false).unwrap();
                let limits = Limits::depth(9);
                let config = SearchConfig {
                    features,
                    eval,
                    ..SearchConfig::default()
                };
                let tt = TranspositionTable::new(8);
                let control = SearchControl::default();
                control.begin(false);
                let search = Search {
                    position: &position,
                    history: &[],
                    limits: &limits,
                    config: &config,
                    tt: &tt,
                    control: &control,
                    histories: Some(&store),
                };
                out.push(search.run(&mut |_| {}).stats.nodes);
            }
        }
        let clock = Limits {
            time: Some(Duration::from_millis(60_000)),
            increment: Duration::from_millis(600),
            ..Limits::default()
        };
        // A plain clock; one whose increment dwarfs it (the ceilings bind); the last move
        // before the control; a movetime that Move Overhead would swallow.
        let ceilings = Limits {
            time: Some(Duration::from_millis(1_000)),
            increment: Duration::from_millis(2_000),
            ..Limits::default()
        };
        let last = Limits {
            time: Some(Duration::from_millis(10_000)),
            movestogo: Some(1),
            ..Limits::default()
        };
        let movetime = Limits {
            movetime: Some(Duration::from_millis(100)),
            ..Limits::default()
        };
        for (limits, overhead) in [(&clock, 10), (&ceilings, 10), (&last, 10), (&movetime, 500)] {
            let d = deadlines(limits, Duration::from_millis(overhead));
            out.push(d.soft.unwrap().as_micros() as u64);
            out.push(d.hard.unwrap().as_micros() as u64);
        }
        let start = Position::default();
        let moves = start.legal_moves();
        let mut scaling = Scaling::default();
        for (i, score) in [30, 10, -60, -60, -60, -60, 20].into_iter().enumerate() {
            let best = moves[usize::from(i == 1)];
            let factor = scaling.update(best, score, 600 + 50 * i as u64, 1000);
            out.push((factor * 1e6) as u64);
        }
        out
    }

    /// Numbers that act only where a fingerprint cannot look: with several threads (whose
    /// node counts are not repeatable) and with tablebases. Each is read where it acts
    /// (`params::abdada_defer_depth` in `alphabeta.rs` and `root.rs`,
    /// `params::tb_store_depth` in `alphabeta.rs`).
    const ACT_ELSEWHERE: [&str; 2] = ["abdada_defer_depth", "tb_store_depth"];

    #[test]
    fn every_tunable_is_an_option_that_changes_the_engine() {
        let declared = brudno::uci::options::Options::declarations();
        let base = fingerprint();
        let mut inert = Vec::new();
        for tunable in TUNABLES {
            let line = format!(
                "option name {} type spin default {} min {} max {}",
                tunable.name, tunable.default, tunable.min, tunable.max
            );
            assert!(declared.contains(&line), "{line}");
            let mut options = brudno::uci::options::Options::default();
            let mut changed = false;
            for end in [tunable.min, tunable.max] {
                options
                    .set(tunable.name, Some(&end.to_string()))
                    .expect("a tunable is an option");
                changed |= fingerprint() != base;
            }
            params::set(tunable.name, tunable.default);
            if !changed && !ACT_ELSEWHERE.contains(&tunable.name) {
                inert.push(tunable.name);
            }
        }
        assert_eq!(fingerprint(), base, "defaults restored");
        assert!(inert.is_empty(), "no effect at either end: {inert:?}");
    }
}
