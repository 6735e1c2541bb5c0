//! Protocol hardening (issue 7), how input is read: whitespace and encoding, numbers.
//!
//! Each input is a conversation with the built `brudno` binary. For every input the engine
//! must not crash or hang, must keep answering `isready`, must send exactly one `bestmove` per
//! `go`, and where the input is wrong must say why in one `info string` without losing the
//! state it had. Grouped by the kind of input, so that a failing test names it.

use crate::common;

use std::time::Duration;

use common::hardening::*;
use common::{Engine, is_legal_after};

mod whitespace {
    use super::*;

    #[test]
    fn tabs_and_repeated_spaces() {
        let mut engine = Engine::start();
        engine.send("\tposition\t\tstartpos   moves\te2e4 \t  e7e5");
        expect_no_note(&mut engine);
        let fen = engine.fen();
        assert_eq!(
            fen,
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
        );
        engine.send("go\t\tdepth  \t 2");
        let mv = engine.bestmove(LONG);
        assert!(is_legal_after(Some(&fen), &[], &mv));
    }

    #[test]
    fn leading_and_trailing_spaces() {
        let mut engine = Engine::start();
        engine.send("   position startpos moves e2e4    ");
        engine.send("   isready   ");
        let lines = engine.read_until(LONG, |l| l == "readyok");
        assert!(notes(&lines).is_empty(), "{lines:?}");
        assert_eq!(engine.fen(), AFTER_E4);
    }

    #[test]
    fn crlf_line_ends() {
        let mut engine = Engine::start();
        engine.send_raw(b"uci\r\nposition startpos moves e2e4\r\nisready\r\n");
        let lines = engine.read_until(LONG, |l| l == "readyok");
        assert!(lines.iter().any(|l| l == "uciok"), "{lines:?}");
        assert!(notes(&lines).is_empty(), "{lines:?}");
        assert_eq!(engine.fen(), AFTER_E4);
        engine.send_raw(b"go depth 2\r\n");
        let mv = engine.bestmove(LONG);
        assert!(is_legal_after(Some(AFTER_E4), &[], &mv));
    }

    #[test]
    fn utf8_byte_order_mark() {
        let mut engine = Engine::start();
        engine.send_raw("\u{feff}uci\n".as_bytes());
        engine.read_until(LONG, |l| l == "uciok");
        // A BOM in front of a later line (a second file concatenated) is tolerated too.
        engine.send_raw("\u{feff}position startpos moves e2e4\n".as_bytes());
        expect_no_note(&mut engine);
        assert_eq!(engine.fen(), AFTER_E4);
    }

    #[test]
    fn empty_and_blank_lines() {
        let mut engine = Engine::start();
        engine.send_raw(b"\n\n\r\n   \n\t\n");
        expect_no_note(&mut engine);
        expect_legal_search(&mut engine, START_FEN);
    }

    #[test]
    fn non_utf8_bytes() {
        let mut engine = Engine::start();
        engine.send("position startpos moves e2e4");
        // A command made of invalid bytes, invalid bytes after a command, and a move list
        // ending in invalid bytes: each is reported once and changes nothing.
        engine.send_raw(b"\xff\xfe\xc3\x28\n");
        expect_one_note(&mut engine, "unknown command");
        engine.send_raw(b"position startpos moves d2d4 \xff\xfe\n");
        expect_one_note(&mut engine, "position unchanged");
        assert_eq!(engine.fen(), AFTER_E4);
        // Glued to a command, invalid bytes make an unknown word, not that command.
        engine.send_raw(b"isready\xff\n");
        expect_one_note(&mut engine, "unknown command");
        engine.send_raw(b"go depth 2 \x80\x81\n");
        let mv = engine.bestmove(LONG);
        assert!(is_legal_after(Some(AFTER_E4), &[], &mv));
        expect_clean_quit(&mut engine);
    }

    #[test]
    fn control_characters_are_not_echoed_raw() {
        let mut engine = Engine::start();
        engine.send_raw(b"hello\x1b[31m\x00\x07 world\n");
        let note = expect_one_note(&mut engine, "unknown command");
        assert!(!note.chars().any(char::is_control), "{note:?}");
    }
}

mod numbers {
    use super::*;

    /// Sends `go`, stops it after a moment if it has not answered, and checks that exactly
    /// one legal bestmove came and that the line drew exactly `expected_notes` info strings.
    fn go_and_check(go: &str, expected_notes: usize) {
        let mut engine = Engine::start();
        engine.send(go);
        let mut lines = engine.drain(Duration::from_millis(150));
        engine.send("stop");
        if bestmoves(&lines) == 0 {
            lines.extend(engine.read_until(LONG, |l| l.starts_with("bestmove")));
        }
        lines.extend(engine.sync());
        assert_eq!(bestmoves(&lines), 1, "{go}: {lines:?}");
        let mv = lines.iter().find(|l| l.starts_with("bestmove")).unwrap();
        let mv = mv.split_whitespace().nth(1).unwrap();
        assert!(is_legal_after(None, &[], mv), "{go}: {mv}");
        assert_eq!(notes(&lines).len(), expected_notes, "{go}: {lines:?}");
        expect_clean_quit(&mut engine);
    }

    #[test]
    fn negative_clocks_are_taken_as_zero() {
        go_and_check("go wtime -1000 btime -1000 winc -5 binc -5", 1);
        go_and_check("go movetime -1", 1);
    }

    #[test]
    fn zero_time() {
        go_and_check("go wtime 0 btime 0", 0);
        go_and_check("go wtime 0 btime 0 winc 0 binc 0 movestogo 1", 0);
        go_and_check("go movetime 0", 0);
    }

    #[test]
    fn two_to_the_63_and_beyond() {
        go_and_check("go wtime 9223372036854775808 btime 9223372036854775808", 0);
        go_and_check(
            "go wtime 18446744073709551616 btime 1 winc 99999999999999999999999999999999999999999999999999 movestogo 1",
            1,
        );
        go_and_check("go movetime 99999999999999999999", 1);
        go_and_check("go nodes 18446744073709551615", 0);
        go_and_check("go depth 9223372036854775808", 1);
    }

    #[test]
    fn depth_zero_searches_one_ply() {
        go_and_check("go depth 0", 1);
    }

    #[test]
    fn depth_ten_thousand() {
        go_and_check("go depth 10000", 0);
    }

    #[test]
    fn movestogo_zero_and_one() {
        go_and_check("go wtime 1000 btime 1000 movestogo 0", 0);
        go_and_check("go wtime 1000 btime 1000 movestogo 1", 0);
    }

    #[test]
    fn nodes_zero() {
        go_and_check("go nodes 0", 0);
    }

    #[test]
    fn mate_zero_searches_for_mate_in_one() {
        go_and_check("go mate 0", 1);
        let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3";
        let mut engine = Engine::start();
        engine.send(&format!("position fen {fen}"));
        engine.send("go mate 0");
        assert_eq!(engine.bestmove(LONG), "f3f7");
    }

    #[test]
    fn numbers_that_are_not_numbers() {
        for text in ["abc", "1.5", "0x10", "1e3", "--5", "+-5", "12abc", "٣"] {
            go_and_check(&format!("go depth {text}"), 1);
        }
        go_and_check("go wtime x btime y winc z binc w movestogo q nodes n", 1);
        go_and_check("go depth", 1);
    }
}
