//! Protocol hardening (issue 7), the session: commands at odd times, options, stress.
//!
//! Each input is a conversation with the built `brudno` binary. For every input the engine
//! must not crash or hang, must keep answering `isready`, must send exactly one `bestmove` per
//! `go`, and where the input is wrong must say why in one `info string` without losing the
//! state it had. Grouped by the kind of input, so that a failing test names it.

use crate::common;

use std::time::Duration;

use brudno::position::Position;
use common::hardening::*;
use common::{Engine, is_legal_after};

mod order {
    use super::*;

    #[test]
    fn go_before_any_position_searches_the_start_position() {
        let mut engine = Engine::start();
        engine.send("go depth 3");
        let mv = engine.bestmove(LONG);
        assert!(is_legal_after(None, &[], &mv));
    }

    #[test]
    fn stop_when_idle_is_silent_and_leaves_no_stop_behind() {
        let mut engine = Engine::start();
        engine.send("stop");
        engine.send("stop");
        expect_no_note(&mut engine);
        // A stop left raised would cut the next search short before depth 4.
        engine.send("go depth 4");
        let lines = engine.read_until(LONG, |l| l.starts_with("bestmove"));
        assert!(
            lines.iter().any(|l| l.starts_with("info depth 4 ")),
            "{lines:?}"
        );
        assert_eq!(bestmoves(&engine.sync()), 0);
    }

    #[test]
    fn ponderhit_when_idle_is_reported_and_ignored() {
        let mut engine = Engine::start();
        engine.send("ponderhit");
        expect_one_note(&mut engine, "ponderhit ignored");
        // Just after a search, and during a normal search (whose clock it must not restart),
        // ponderhit is refused the same way.
        engine.send("go depth 2");
        engine.send("ponderhit");
        let mut lines = engine.read_until(LONG, |l| l.starts_with("bestmove"));
        engine.send("go wtime 3000 btime 3000");
        engine.send("ponderhit");
        lines.extend(engine.read_until(LONG, |l| l.starts_with("bestmove")));
        lines.extend(engine.sync());
        assert_eq!(bestmoves(&lines), 2, "{lines:?}");
        let refused = lines
            .iter()
            .filter(|l| *l == "info string ponderhit ignored: no search is pondering")
            .count();
        assert_eq!(refused, 2, "{lines:?}");
    }

    #[test]
    fn position_while_searching_applies_to_the_next_go() {
        let next = "4k3/8/8/8/8/8/8/R3K3 b Q - 0 1";
        let mut engine = Engine::start();
        engine.send("position startpos");
        engine.send("go infinite");
        engine.send(&format!("position fen {next}"));
        expect_no_note(&mut engine);
        assert_eq!(engine.fen(), next);
        engine.send("stop");
        // The running search kept its own position: a White move from the start.
        let mv = engine.bestmove(LONG);
        assert!(is_legal_after(None, &[], &mv), "{mv}");
        expect_legal_search(&mut engine, next);
    }

    #[test]
    fn setoption_while_searching_is_refused_or_kept_for_the_next_search() {
        let mut engine = Engine::start();
        engine.send("go infinite");
        for option in ["Hash value 32", "Clear Hash", "Threads value 2"] {
            engine.send(&format!("setoption name {option}"));
            expect_one_note(&mut engine, "a search is running");
        }
        // Options only the next search reads are stored without touching this one.
        engine.send("setoption name Move Overhead value 50");
        engine.send("setoption name UCI_Chess960 value true");
        let lines = engine.sync();
        assert!(notes(&lines).is_empty(), "{lines:?}");
        assert_eq!(bestmoves(&lines), 0, "setoption ended the search");
        engine.send("stop");
        engine.bestmove(LONG);
        // Now idle: the refused options are accepted.
        engine.send("setoption name Hash value 32");
        engine.send("setoption name Clear Hash");
        expect_no_note(&mut engine);
        // And UCI_Chess960 took effect for the next search.
        engine.send("position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1");
        engine.send("go searchmoves e1g1 depth 1");
        assert_eq!(engine.bestmove(LONG), "e1h1");
    }

    #[test]
    fn go_while_searching_answers_both() {
        let mut engine = Engine::start();
        engine.send("go infinite");
        engine.send("position startpos moves e2e4");
        engine.send("go depth 2");
        let first = engine.bestmove(LONG);
        let second = engine.bestmove(LONG);
        assert!(is_legal_after(None, &[], &first), "{first}");
        assert!(is_legal_after(None, &["e2e4"], &second), "{second}");
        engine.send("stop");
        assert_eq!(bestmoves(&engine.sync()), 0);
        assert_eq!(bestmoves(&engine.drain(Duration::from_millis(100))), 0);
    }

    #[test]
    fn ucinewgame_mid_search_ends_it_with_a_bestmove() {
        let mut engine = Engine::start();
        engine.send("go infinite");
        engine.send("ucinewgame");
        let mv = engine.bestmove(LONG);
        assert!(is_legal_after(None, &[], &mv));
        expect_no_note(&mut engine);
        expect_legal_search(&mut engine, START_FEN);
    }

    #[test]
    fn quit_mid_search_exits_at_once() {
        let mut engine = Engine::start();
        engine.send("go infinite");
        engine.read_until(LONG, |l| l.starts_with("info depth 2 "));
        engine.send("quit");
        // The precise latency is measured by `cargo bench --bench stop_latency`.
        let status = engine.exit_status(Duration::from_secs(2)).expect("no exit");
        assert!(status.success(), "{status:?}");
    }

    #[test]
    fn end_of_input_mid_search_exits_cleanly_with_a_bestmove() {
        let mut engine = Engine::start();
        engine.send("go infinite");
        engine.read_until(LONG, |l| l.starts_with("info depth 2 "));
        engine.close_input();
        let status = engine.exit_status(Duration::from_secs(2)).expect("no exit");
        assert!(status.success(), "{status:?}");
        engine.read_until(LONG, |l| l.starts_with("bestmove"));
        let later = engine.drain(Duration::from_millis(100));
        assert_eq!(bestmoves(&later), 0, "{later:?}");
    }
}

mod options {
    use super::*;

    /// Whether castling comes out as king takes rook, which shows UCI_Chess960's value.
    fn castles_as_king_takes_rook(engine: &mut Engine) -> bool {
        engine.send("position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1");
        engine.send("go searchmoves e1g1 depth 1");
        match engine.bestmove(LONG).as_str() {
            "e1h1" => true,
            "e1g1" => false,
            other => panic!("not a castle: {other}"),
        }
    }

    #[test]
    fn unknown_name() {
        let mut engine = Engine::start();
        engine.send("setoption name NoSuchOption value 3");
        expect_one_note(&mut engine, "unknown option 'NoSuchOption'");
        engine.send("setoption name");
        expect_one_note(&mut engine, "without an option name");
        engine.send("setoption Hash 32");
        expect_one_note(&mut engine, "setoption expects");
    }

    #[test]
    fn missing_value() {
        let mut engine = Engine::start();
        for line in [
            "setoption name Hash",
            "setoption name Hash value",
            "setoption name Move Overhead value   ",
            "setoption name UCI_Chess960",
        ] {
            engine.send(line);
            expect_one_note(&mut engine, "needs");
        }
        assert!(!castles_as_king_takes_rook(&mut engine));
    }

    #[test]
    fn bad_value_keeps_the_previous_value() {
        let mut engine = Engine::start();
        engine.send("setoption name UCI_Chess960 value true");
        expect_no_note(&mut engine);
        for value in ["maybe", "1", "yes", "true false"] {
            engine.send(&format!("setoption name UCI_Chess960 value {value}"));
            expect_one_note(&mut engine, "unchanged");
        }
        assert!(castles_as_king_takes_rook(&mut engine));
        for value in ["lots", "1.5", "0x10", "-"] {
            engine.send(&format!("setoption name Hash value {value}"));
            expect_one_note(&mut engine, "not a number");
        }
    }

    #[test]
    fn names_and_keywords_in_another_case() {
        let mut engine = Engine::start();
        engine.send("SETOPTION NAME uci_chess960 VALUE TRUE");
        engine.send("setoption name MOVE overhead value 100");
        engine.send("setoption name clear hash");
        expect_no_note(&mut engine);
        assert!(castles_as_king_takes_rook(&mut engine));
    }

    #[test]
    fn hash_zero_is_clamped_with_a_message() {
        let mut engine = Engine::start();
        engine.send("setoption name Hash value 0");
        expect_one_note(&mut engine, "using 1");
        expect_legal_search(&mut engine, START_FEN);
        engine.send("setoption name Threads value 0");
        expect_one_note(&mut engine, "using 1");
        engine.send("setoption name Move Overhead value -5");
        expect_one_note(&mut engine, "using 0");
    }

    /// The engine runs with 512 MiB of address space, so "beyond memory" is cheap to reach
    /// and the test cannot take the machine's memory.
    #[cfg(target_os = "linux")]
    #[test]
    fn hash_beyond_memory_is_clamped_with_a_message() {
        let mut engine = Engine::start_with_address_space_limit(512 * 1024);
        engine.send("setoption name Hash value 1048576");
        let note = expect_one_note(&mut engine, "more than half the available memory");
        let using: usize = note
            .rsplit("using ")
            .next()
            .and_then(|tail| tail.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no size in {note}"));
        assert!((1..256).contains(&using), "{note}");
        expect_legal_search(&mut engine, START_FEN);
        // Beyond the declared maximum too: both limits named in the one line.
        engine.send("setoption name Hash value 99999999999999999999");
        let note = expect_one_note(&mut engine, "out of range");
        assert!(note.contains("available memory"), "{note}");
        expect_legal_search(&mut engine, START_FEN);
        expect_clean_quit(&mut engine);
    }

    /// Sends `command` and `isready`; the time until `readyok`, which must come within `limit`.
    fn time_to_readyok(engine: &mut Engine, command: &str, limit: Duration) -> Duration {
        let started = std::time::Instant::now();
        engine.send(command);
        engine.send("isready");
        let lines = engine.read_until(limit, |l| l == "readyok");
        let took = started.elapsed();
        assert_eq!(
            lines.last().map(String::as_str),
            Some("readyok"),
            "{lines:?}"
        );
        assert!(took < limit, "{command}: readyok after {took:?}");
        took
    }

    /// A GUI waits a few seconds for `readyok`. A large table (and an absurd request, clamped
    /// to half the available memory: gigabytes on any machine this runs on) must be ready
    /// within that, and so must clearing it after a search has used it. The old table wrote
    /// every byte first: 4 GiB took 9 s, the clamped absurd value about half a minute.
    #[cfg(target_os = "linux")]
    #[test]
    fn large_and_absurd_hash_values_are_ready_at_once() {
        const LIMIT: Duration = Duration::from_secs(3);
        let mut engine = Engine::start();
        engine.handshake();
        for command in [
            "setoption name Hash value 4096",
            "setoption name Hash value 999999999999",
        ] {
            time_to_readyok(&mut engine, command, LIMIT);
            engine.send("position startpos");
            engine.send("go depth 9");
            let mv = engine.bestmove(LONG);
            assert!(is_legal_after(Some(START_FEN), &[], &mv), "{mv}");
            time_to_readyok(&mut engine, "ucinewgame", LIMIT);
            time_to_readyok(&mut engine, "setoption name Clear Hash", LIMIT);
        }
        engine.send("setoption name Hash value 999999999999");
        let note = expect_one_note(&mut engine, "out of range");
        assert!(note.contains("using"), "{note}");
        expect_legal_search(&mut engine, START_FEN);
        expect_clean_quit(&mut engine);
    }
}

mod stress {
    use super::*;

    #[test]
    fn a_thousand_rapid_go_stop_pairs() {
        const PAIRS: usize = 1000;
        let positions = common::random_positions(50, 7);
        let gos = [
            "go infinite",
            "go",
            "go ponder",
            "go wtime 20 btime 20",
            "go depth 30",
        ];
        let mut script = String::new();
        let mut searched: Vec<&Position> = Vec::with_capacity(PAIRS);
        for i in 0..PAIRS {
            let position = &positions[i % positions.len()];
            script.push_str(&format!("position fen {}\n", position.fen()));
            script.push_str(gos[i % gos.len()]);
            script.push_str("\nstop\n");
            searched.push(position);
        }
        let mut engine = Engine::start();
        engine.send_raw(script.as_bytes());
        let mut answers = Vec::with_capacity(PAIRS);
        while answers.len() < PAIRS {
            let line = engine.read_until(LONG, |l| l.starts_with("bestmove"));
            answers.push(line.last().unwrap().clone());
        }
        for (i, (answer, position)) in answers.iter().zip(&searched).enumerate() {
            let mv = answer.split_whitespace().nth(1).unwrap();
            assert!(
                position.parse_uci(mv).is_ok(),
                "pair {i}: {answer} in {}",
                position.fen()
            );
        }
        let later = engine.sync();
        assert_eq!(bestmoves(&later), 0, "{later:?}");
        assert_eq!(bestmoves(&engine.drain(Duration::from_millis(100))), 0);
        expect_clean_quit(&mut engine);
    }

    #[test]
    fn isready_spam_during_a_search() {
        const SPAM: usize = 1000;
        let mut engine = Engine::start();
        engine.send("go infinite");
        engine.send_raw("isready\n".repeat(SPAM).as_bytes());
        let mut ready = 0;
        while ready < SPAM {
            let line = engine.next_line(LONG).expect("engine went silent");
            assert!(!line.starts_with("bestmove"), "bestmove before stop");
            ready += usize::from(line == "readyok");
        }
        engine.send("stop");
        let mv = engine.bestmove(LONG);
        assert!(is_legal_after(None, &[], &mv));
        assert_eq!(bestmoves(&engine.sync()), 0);
    }
}
