//! The positions the engine's randomized tests start their games from, written once: the
//! standard start, the perft suites' positions rich in castling, pins, en passant and
//! promotions, and Chess960 starts whose kings and rooks castle from other files. A test
//! that needs a position of its own kind (a check, bare kings) adds it to these.

/// FEN and whether it is Chess960.
pub(crate) const STARTS: [(&str, bool); 8] = [
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        false,
    ),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        false,
    ),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", false),
    (
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        false,
    ),
    (
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        false,
    ),
    ("8/PPPk4/8/8/8/8/4Kppp/8 w - - 0 1", false),
    (
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        true,
    ),
    ("2r1kr2/8/8/8/8/8/8/1R2K1R1 w GBfc - 0 1", true),
];

/// `STARTS` followed by `extra`.
pub(crate) fn starts_and(extra: &[(&'static str, bool)]) -> Vec<(&'static str, bool)> {
    STARTS.iter().chain(extra).copied().collect()
}
