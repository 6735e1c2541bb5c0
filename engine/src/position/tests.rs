//! Tests of `Position`: keys against a full recompute, FEN and UCI move reading, null moves,
//! tactical move generation.

use super::*;

#[test]
fn start_position_has_the_polyglot_key() {
    assert_eq!(Position::default().key(), START_KEY);
}

/// Polyglot's published keys for a short opening sequence (from the Polyglot book format
/// description), covering en passant, castling-right loss and king moves.
#[test]
fn polyglot_reference_keys() {
    let cases: [(&[&str], u64); 8] = [
        (&[], 0x463b96181691fc9c),
        (&["e2e4"], 0x823c9b50fd114196),
        (&["e2e4", "d7d5"], 0x0756b94461c50fb0),
        (&["e2e4", "d7d5", "e4e5"], 0x662fafb965db29d4),
        (&["e2e4", "d7d5", "e4e5", "f7f5"], 0x22a48b5a8e47ff78),
        (
            &["e2e4", "d7d5", "e4e5", "f7f5", "e1e2"],
            0x652a607ca3f242c1,
        ),
        (
            &["e2e4", "d7d5", "e4e5", "f7f5", "e1e2", "e8f7"],
            0x00fdd303c946bdd9,
        ),
        (
            &["a2a4", "b7b5", "h2h4", "b5b4", "c2c4"],
            0x3c8123ea7b067637,
        ),
    ];
    for (moves, expected) in cases {
        let mut pos = Position::default();
        for m in moves {
            pos.play_uci(m).unwrap();
        }
        assert_eq!(pos.key(), expected, "after {moves:?}");
        assert_eq!(pos.full_key(), expected);
    }
}

#[test]
fn null_move_flips_the_side_and_keeps_the_key_exact() {
    let mut pos = Position::default();
    pos.play_uci("e2e4").unwrap();
    pos.play_uci("d7d5").unwrap();
    pos.play_uci("e4e5").unwrap();
    pos.play_uci("f7f5").unwrap(); // en passant possible: the null move removes it
    let null = pos.play_null().unwrap();
    assert_eq!(null.turn(), Color::Black);
    assert_eq!(null.key(), null.full_key());
    assert_ne!(null.key(), pos.key());
    let in_check = Position::from_fen("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", false).unwrap();
    assert!(in_check.play_null().is_none());
}

/// The moves quiescence searches: every evasion in check, else the captures and promotions
/// of `generate_captures`.
fn tactical_moves(pos: &Position) -> Vec<Move> {
    if pos.is_check() {
        return pos.legal_moves().to_vec();
    }
    let mut moves = Vec::new();
    pos.generate_captures(|m| moves.push(m));
    moves
}

#[test]
fn tactical_moves_are_exactly_the_legal_captures_and_promotions() {
    let mut state = 7u64;
    for game in 0..200 {
        let mut pos = Position::default();
        for _ in 0..(20 + game % 60) {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let mut expected: Vec<String> = if pos.is_check() {
                legal.iter().map(|m| m.to_string()).collect()
            } else {
                legal
                    .iter()
                    .filter(|m| m.is_capture() || m.is_promotion())
                    .map(|m| m.to_string())
                    .collect()
            };
            let mut got: Vec<String> = tactical_moves(&pos).iter().map(|m| m.to_string()).collect();
            expected.sort();
            got.sort();
            assert_eq!(got, expected, "{}", pos.fen());
            state = crate::rng::splitmix64(state);
            pos = pos.play(legal[(state % legal.len() as u64) as usize]);
        }
    }
    // Pins, checks along the capture line, king captures of defended pieces.
    for fen in [
        "4k3/8/8/8/4r3/8/4N3/4K3 w - - 0 1",
        "4k3/8/8/1b6/8/3P4/4p3/4K3 w - - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    ] {
        let pos = Position::from_fen(fen, false).unwrap();
        let mut expected: Vec<String> = pos
            .legal_moves()
            .iter()
            .filter(|m| pos.is_check() || m.is_capture() || m.is_promotion())
            .map(|m| m.to_string())
            .collect();
        let mut got: Vec<String> = tactical_moves(&pos).iter().map(|m| m.to_string()).collect();
        expected.sort();
        got.sort();
        assert_eq!(got, expected, "{fen}");
    }
}

#[test]
fn illegal_move_leaves_position_unchanged() {
    let mut pos = Position::default();
    let before = pos.key();
    assert!(pos.play_uci("e2e5").is_err());
    assert!(pos.play_uci("zz").is_err());
    assert_eq!(pos.key(), before);
}

/// The en-passant file is part of the key only when the capture is legal: pinned and
/// rank-pinned capturers, a capture that answers check and one that leaves a check.
#[test]
fn en_passant_file_counts_only_for_a_legal_capture() {
    let cases = [
        // Both pawns leave the fifth rank: the h5 rook would take the king.
        ("8/2p5/8/KP5r/8/8/8/7k b - - 0 1", "c7c5", None),
        // The e5 pawn is pinned on the c7-h2 diagonal: f6 leaves it, d6 stays on it.
        ("4k3/2b2p2/8/4P3/8/8/7K/8 b - - 0 1", "f7f5", None),
        ("4k3/2bp4/8/4P3/8/8/7K/8 b - - 0 1", "d7d5", Some("d6")),
        // The pushed pawn gives check; taking it en passant answers the check.
        ("4k3/3p4/8/4P3/4K3/8/8/8 b - - 0 1", "d7d5", Some("d6")),
        // The push uncovers the e8 bishop's check; taking the pawn does not answer it.
        ("4b2k/3p4/8/4P3/K7/8/8/8 b - - 0 1", "d7d5", None),
        // No pawn beside the pushed one.
        ("4k3/3p4/8/8/8/8/8/4K3 b - - 0 1", "d7d5", None),
    ];
    for (fen, mv, ep) in cases {
        let mut pos = Position::from_fen(fen, false).unwrap();
        pos.play_uci(mv).unwrap();
        assert_eq!(pos.key(), pos.full_key(), "{fen} {mv}");
        let ep_field = pos.fen().split(' ').nth(3).unwrap().to_string();
        assert_eq!(ep_field, ep.unwrap_or("-"), "{fen} {mv}");
    }
}

#[test]
fn impossible_checks_are_refused_except_for_perft() {
    // Two bishops on one diagonal both give check: no game reaches this.
    let fen = "B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1";
    assert!(Position::from_fen(fen, false).is_err());
    let pos = Position::from_fen_for_perft(fen, false).unwrap();
    assert_eq!(pos.legal_moves().len(), 6);
    assert_eq!(pos.key(), pos.full_key());
    assert!(Position::from_fen_for_perft("8/8/8/8/8/8/8/8 w - - 0 1", false).is_err());
}

#[test]
fn fen_layout_errors_are_named() {
    let error = |fen: &str| Position::from_fen(fen, false).unwrap_err().0;
    assert!(error("8/8/8/8/8/8/8/K6k/8 w - - 0 1").contains("9 ranks"));
    assert!(error("8/8/8/8/8/8/K6k w - - 0 1").contains("7 ranks"));
    assert!(error("8/8/8/8/8/8/8/K7k w - - 0 1").contains("rank 1 has 9 squares"));
    assert!(error("8/8/8/8/8/8/8/K5k w - - 0 1").contains("rank 1 has 7 squares"));
    assert!(error("8/8/8/8/8/8/8/K5kx w - - 0 1").contains("has 'x', neither a piece"));
    assert!(error("8/8/8/8/8/8/8/K9k w - - 0 1").contains("has '9', neither a piece"));
    assert!(error("8/8/8/8/8/8/8/K6k").contains("side to move"));
    assert!(error("8/8/8/8/8/8/8/K6k w - - 0 1 x").contains("7 fields"));
    assert!(error("").contains("empty"));
    assert!(error("8/8/8/8/8/8/8/K6k w - e3 0 1").contains("invalid ep square"));
    // Missing castling, en passant and counters default to "- - 0 1".
    let pos = Position::from_fen("8/8/8/8/8/8/8/K6k b", false).unwrap();
    assert_eq!(pos.fen(), "8/8/8/8/8/8/8/K6k b - - 0 1");
}

#[test]
fn chess960_castling_both_notations() {
    let mut pos =
        Position::from_fen("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1", true).unwrap();
    let m = pos.parse_uci("e1h1").unwrap();
    assert!(m.is_castle());
    let m2 = pos.parse_uci("e1g1").unwrap();
    assert_eq!(m, m2);
    pos.play_in_place(m);
    assert_eq!(pos.key(), pos.full_key());

    // King on b1, rooks on a1 and h1: both castles both ways; b1c1 stays a king step.
    let pos = Position::from_fen("rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1", true).unwrap();
    let short = pos.parse_uci("b1h1").unwrap();
    assert!(short.is_castle());
    assert_eq!(pos.parse_uci("b1g1").unwrap(), short);
    let long = pos.parse_uci("b1a1").unwrap();
    assert!(long.is_castle());
    assert!(!pos.parse_uci("b1c1").unwrap().is_castle());
    assert!(pos.parse_uci("b1f1").is_err());
}

/// Long random games from several starts (standard and Chess960): after every move made
/// with `play_into`, the incrementally updated key equals the key computed from scratch.
#[test]
fn the_incremental_key_equals_a_recompute_after_every_move() {
    let mut state = 7u64;
    let mut moves_made = 0;
    for (fen, chess960) in crate::position::test_positions::STARTS {
        for _game in 0..8 {
            let mut pos = Position::from_fen(fen, chess960).unwrap();
            let mut child = pos.clone();
            for _ply in 0..300 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                state = crate::rng::splitmix64(state);
                // Castling and en passant whenever legal half the time (rare at random).
                let special = moves
                    .iter()
                    .copied()
                    .find(|m| (m.is_castle() || m.is_en_passant()) && state.is_multiple_of(2));
                let mv = special.unwrap_or(moves[(state >> 8) as usize % moves.len()]);
                pos.play_into(mv, &mut child);
                assert_eq!(child.key(), child.full_key(), "{} then {mv}", pos.fen());
                std::mem::swap(&mut pos, &mut child);
                moves_made += 1;
            }
        }
    }
    assert!(moves_made > 10_000, "{moves_made}");
}
