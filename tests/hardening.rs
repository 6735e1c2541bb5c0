//! Protocol hardening (issue 7): every odd or hostile input a GUI, a script or a person can
//! send, each as a conversation with the built `brudno` binary. Grouped by the kind of input
//! (whitespace, order, numbers, FEN, moves, options, stress) so that a failing test names
//! the input. For every input the engine must not crash or hang, must keep answering
//! `isready`, must send exactly one `bestmove` per `go`, and where the input is wrong must
//! say why in one `info string` without losing the state it had.

mod common;

use std::time::Duration;

use brudno::position::Position;
use common::{Engine, is_legal_after};

/// Generous bound for anything that should take milliseconds: only a hang fails it.
const LONG: Duration = Duration::from_secs(30);

const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const AFTER_E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";

/// The `info string` lines among `lines`.
fn notes(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info string"))
        .collect()
}

fn bestmoves(lines: &[String]) -> usize {
    lines.iter().filter(|l| l.starts_with("bestmove")).count()
}

/// Syncs and checks that exactly one `info string` came back and that it mentions `why`.
fn expect_one_note(engine: &mut Engine, why: &str) -> String {
    let lines = engine.sync();
    let found = notes(&lines);
    assert_eq!(found.len(), 1, "expected one info string: {lines:?}");
    assert!(
        found[0].to_lowercase().contains(&why.to_lowercase()),
        "info string does not say '{why}': {}",
        found[0]
    );
    found[0].clone()
}

/// Syncs and checks that nothing was reported.
fn expect_no_note(engine: &mut Engine) {
    let lines = engine.sync();
    assert!(
        notes(&lines).is_empty(),
        "unexpected info string: {lines:?}"
    );
}

/// Searches the current position (given as FEN) briefly and checks the move is legal there.
fn expect_legal_search(engine: &mut Engine, fen: &str) {
    engine.send("go depth 2");
    let mv = engine.bestmove(LONG);
    assert!(is_legal_after(Some(fen), &[], &mv), "{mv} in {fen}");
}

/// `quit` ends the engine with success.
fn expect_clean_quit(engine: &mut Engine) {
    engine.send("quit");
    let status = engine.exit_status(LONG).expect("engine did not exit");
    assert!(status.success(), "{status:?}");
}

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

mod fen {
    use super::*;

    /// `position fen <fen>` after `position startpos moves e2e4`: one info string that says
    /// `why`, the previous position kept, and a search still legal in it.
    fn expect_refused(fen: &str, why: &str) {
        let mut engine = Engine::start();
        engine.send("position startpos moves e2e4");
        engine.send(&format!("position fen {fen}"));
        let note = expect_one_note(&mut engine, why);
        assert!(note.contains("position unchanged"), "{note}");
        assert_eq!(engine.fen(), AFTER_E4, "after refusing {fen}");
        expect_legal_search(&mut engine, AFTER_E4);
        // The same FEN followed by moves is refused the same way.
        engine.send(&format!("position fen {fen} moves e2e4"));
        expect_one_note(&mut engine, why);
        assert_eq!(engine.fen(), AFTER_E4);
    }

    macro_rules! refused {
        ($($name:ident: $fen:expr => $why:expr;)*) => {
            $(
                #[test]
                fn $name() {
                    expect_refused($fen, $why);
                }
            )*
        };
    }

    refused! {
        too_few_ranks: "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" => "7 ranks";
        too_many_ranks: "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" => "9 ranks";
        too_few_squares: "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" => "rank 7 has 7 squares";
        too_many_squares: "rnbqkbnr/pppppppp/72/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" => "rank 6 has 9 squares";
        nine_empty_squares: "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" => "rank 6 has '9'";
        too_many_pieces_in_a_rank: "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" => "rank 7 has 9 squares";
        unknown_piece: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKXNR w KQkq - 0 1" => "rank 1 has 'X', neither a piece";
        missing_side_to_move: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR" => "side to move";
        too_many_fields: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 40" => "7 fields";
        bad_side_to_move: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1" => "turn";
        bad_castling_letter: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkz - 0 1" => "castling";
        castling_without_rooks: "4k3/8/8/8/8/8/8/4K3 w KQ - 0 1" => "invalid castling rights";
        castling_after_the_king_moved: "r3k2r/8/8/8/8/8/4K3/R6R w KQkq - 0 1" => "invalid castling rights";
        en_passant_without_a_double_push: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1" => "ep square";
        en_passant_on_the_wrong_rank: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1" => "ep square";
        en_passant_not_a_square: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq z9 0 1" => "ep square";
        side_not_to_move_in_check: "k6R/8/8/8/8/8/8/7K w - - 0 1" => "opposite check";
        no_king: "8/8/8/8/8/8/8/7K w - - 0 1" => "missing king";
        empty_board: "8/8/8/8/8/8/8/8 w - - 0 1" => "empty board";
        two_white_kings: "k7/8/8/8/8/8/8/6KK w - - 0 1" => "too many kings";
        two_black_kings: "kk6/8/8/8/8/8/8/7K b - - 0 1" => "too many kings";
        pawn_on_the_first_rank: "k7/8/8/8/8/8/8/P6K w - - 0 1" => "pawns on backrank";
        pawn_on_the_last_rank: "kP6/8/8/8/8/8/8/7K w - - 0 1" => "pawns on backrank";
        black_pawn_on_its_first_rank: "kp6/8/8/8/8/8/8/7K w - - 0 1" => "pawns on backrank";
        bad_halfmove_clock: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1" => "halfmove";
    }

    #[test]
    fn missing_fen() {
        let mut engine = Engine::start();
        engine.send("position startpos moves e2e4");
        engine.send("position fen");
        expect_one_note(&mut engine, "FEN is missing");
        engine.send("position fen moves e2e4");
        expect_one_note(&mut engine, "FEN is missing");
        assert_eq!(engine.fen(), AFTER_E4);
    }

    #[test]
    fn missing_optional_fields_default_to_none_and_move_one() {
        let mut engine = Engine::start();
        engine.send("position fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b");
        expect_no_note(&mut engine);
        assert_eq!(
            engine.fen(),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b - - 0 1"
        );
        engine.send("position fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3");
        expect_no_note(&mut engine);
        assert_eq!(engine.fen(), AFTER_E4);
    }

    #[test]
    fn a_legal_en_passant_square_is_kept() {
        let fen = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
        let mut engine = Engine::start();
        engine.send(&format!("position fen {fen} moves e5f6"));
        expect_no_note(&mut engine);
        assert_eq!(
            engine.fen(),
            "rnbqkbnr/ppp1p1pp/5P2/3p4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3"
        );
    }
}

mod moves {
    use super::*;

    /// `position startpos moves e2e4` is set; then `line` must be refused naming `why`.
    fn expect_refused(line: &str, why: &str) {
        let mut engine = Engine::start();
        engine.send("position startpos moves e2e4");
        engine.send(line);
        let note = expect_one_note(&mut engine, why);
        assert!(note.contains("position unchanged"), "{note}");
        assert_eq!(engine.fen(), AFTER_E4, "after {line}");
        expect_legal_search(&mut engine, AFTER_E4);
    }

    #[test]
    fn illegal_move() {
        expect_refused("position startpos moves e2e5", "illegal move 'e2e5'");
        expect_refused(
            "position startpos moves e2e4 e7e5 e1g1",
            "illegal move 'e1g1'",
        );
    }

    #[test]
    fn malformed_moves() {
        for bad in [
            "e2", "e2e4e5", "z9z9", "e2-e4", "e2e4=q", "0-0", "@@@@", "é2é4",
        ] {
            expect_refused(
                &format!("position startpos moves d2d4 {bad}"),
                &format!("malformed move '{bad}'"),
            );
        }
    }

    #[test]
    fn upper_case_moves_are_read() {
        let mut engine = Engine::start();
        engine.send("position fen 4k3/P7/8/8/8/8/8/4K3 w - - 0 1 moves A7A8Q");
        expect_no_note(&mut engine);
        assert_eq!(engine.fen(), "Q3k3/8/8/8/8/8/8/4K3 b - - 0 1");
    }

    #[test]
    fn promotion_to_a_king() {
        let mut engine = Engine::start();
        engine.send("position fen 4k3/P7/8/8/8/8/8/4K3 w - - 0 1 moves a7a8k");
        let note = expect_one_note(&mut engine, "a7a8k");
        assert!(note.contains("position unchanged"));
        assert_eq!(engine.fen(), START_FEN);
    }

    #[test]
    fn move_for_the_wrong_side() {
        expect_refused("position startpos moves e7e5", "illegal move 'e7e5'");
        expect_refused("position startpos moves e2e4 d2d4", "illegal move 'd2d4'");
    }

    #[test]
    fn null_move_and_drops() {
        expect_refused("position startpos moves 0000", "'0000'");
        expect_refused("position startpos moves P@e4", "'p@e4'");
    }

    #[test]
    fn chess960_castle_written_both_ways() {
        let castled = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4";
        let opening = "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6";
        let mut engine = Engine::start();
        engine.send("setoption name UCI_Chess960 value true");
        for castle in ["e1h1", "e1g1"] {
            engine.send("position startpos");
            engine.send(&format!("{opening} {castle}"));
            expect_no_note(&mut engine);
            assert_eq!(engine.fen(), castled, "{castle}");
        }
        // The engine writes castling as king takes rook in Chess960.
        engine.send(opening);
        engine.send("go searchmoves e1g1 depth 1");
        assert_eq!(engine.bestmove(LONG), "e1h1");
        // A Chess960 start with Shredder castling rights, king b1 and rooks a1 and h1:
        // short castling as king takes rook and as the king's two-file-or-more move to g1.
        for castle in ["b1h1", "b1g1"] {
            engine.send("position startpos");
            engine.send(&format!(
                "position fen rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1 moves {castle}"
            ));
            expect_no_note(&mut engine);
            assert_eq!(
                engine.fen(),
                "rk5r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b kq - 1 1",
                "{castle}"
            );
        }
    }

    #[test]
    fn ten_thousand_moves_in_one_position_line() {
        let mut line = String::from("position startpos moves e2e4 e7e5 g1f3 g8f6");
        for _ in 0..2499 {
            line.push_str(" f3g1 f6g8 g1f3 g8f6");
        }
        assert_eq!(line.split_whitespace().count() - 3, 10_000);
        let mut engine = Engine::start();
        engine.send(&line);
        expect_no_note(&mut engine);
        let fen = engine.fen();
        assert_eq!(
            fen,
            "rnbqkb1r/pppp1ppp/5n2/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 9998 5001"
        );
        expect_legal_search(&mut engine, &fen);
    }

    #[test]
    fn one_megabyte_position_line() {
        let mut line = String::from("position startpos moves");
        while line.len() < 1 << 20 {
            line.push_str(" g1f3 g8f6 f3g1 f6g8");
        }
        let plies = line.split_whitespace().count() - 3;
        let mut engine = Engine::start();
        engine.send(&line);
        expect_no_note(&mut engine);
        let fen = engine.fen();
        assert_eq!(
            fen,
            format!(
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - {plies} {}",
                plies / 2 + 1
            )
        );
        expect_legal_search(&mut engine, &fen);
    }

    #[test]
    fn one_megabyte_of_garbage() {
        let mut engine = Engine::start();
        engine.send("position startpos moves e2e4");
        // One huge token, a huge FEN, a huge list of unknown go tokens and a huge illegal
        // move list: one short info string each, the position kept.
        engine.send(&"x".repeat(1 << 20));
        let note = expect_one_note(&mut engine, "unknown command");
        assert!(note.len() < 1000, "{} bytes", note.len());
        engine.send(&format!("position fen {}", "8/".repeat(350_000)));
        let note = expect_one_note(&mut engine, "bad FEN");
        assert!(note.len() < 1000, "{} bytes", note.len());
        engine.send(&format!("go depth 1{}", " nonsense".repeat(120_000)));
        let lines = engine.read_until(LONG, |l| l.starts_with("bestmove"));
        let found = notes(&lines);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].contains("120000 problems"), "{}", found[0]);
        engine.send(&format!(
            "position startpos moves{}",
            " e2e5".repeat(200_000)
        ));
        let note = expect_one_note(&mut engine, "illegal move 'e2e5'");
        assert!(note.len() < 1000, "{} bytes", note.len());
        assert_eq!(engine.fen(), AFTER_E4);
    }

    #[test]
    fn a_line_beyond_the_limit_is_skipped_whole() {
        let mut engine = Engine::start();
        engine.send("position startpos moves e2e4");
        let mut line = String::from("position startpos moves");
        while line.len() <= brudno::uci::MAX_LINE_BYTES {
            line.push_str(" g1f3 g8f6 f3g1 f6g8");
        }
        engine.send(&line);
        expect_one_note(&mut engine, "ignored");
        assert_eq!(engine.fen(), AFTER_E4);
        expect_clean_quit(&mut engine);
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
