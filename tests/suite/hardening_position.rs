//! Protocol hardening (issue 7), positions: FENs and move lists, wrong in every way.
//!
//! Each input is a conversation with the built `brudno` binary. For every input the engine
//! must not crash or hang, must keep answering `isready`, must send exactly one `bestmove` per
//! `go`, and where the input is wrong must say why in one `info string` without losing the
//! state it had. Grouped by the kind of input, so that a failing test names it.

use crate::common;

use common::Engine;
use common::hardening::*;

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
