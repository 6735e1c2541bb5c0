//! The accumulators: the hidden layer before its activation, one row of `HIDDEN` values per
//! perspective, and how a move changes them.
//!
//! A move takes at most two pieces off squares and puts at most two on squares (the
//! `PieceChanges` that making it computed), so it adds at most two input rows and subtracts
//! at most two. The search keeps a `Stack` of accumulators by ply; making a move only
//! records its changes, and an accumulator
//! is computed when its node is evaluated, from the nearest computed ancestor (nodes that
//! are never evaluated cost nothing). A refresh from the board is the reference every update
//! is tested against.

use shakmaty::{Board, Color, Piece, Square};

use super::{HIDDEN, Network, feature, simd};
use crate::eval::Value;
use crate::position::{PieceChanges, Position};

/// The hidden layer of both perspectives (White's first), before the activation.
#[derive(Clone, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Accumulator {
    /// `values[0]` from White's perspective, `values[1]` from Black's.
    pub values: [[i16; HIDDEN]; 2],
}

impl Accumulator {
    /// The accumulator of `board`, computed from scratch.
    pub fn refreshed(board: &Board, network: &Network) -> Self {
        let mut accumulator = Accumulator {
            values: [network.b1; 2],
        };
        for square in board.occupied() {
            if let Some(piece) = board.piece_at(square) {
                for (side, perspective) in [Color::White, Color::Black].into_iter().enumerate() {
                    let row = &network.w1[feature(perspective, piece, square)];
                    for (v, w) in accumulator.values[side].iter_mut().zip(row) {
                        *v = v.wrapping_add(*w);
                    }
                }
            }
        }
        accumulator
    }

    /// Sets `self` to `parent` changed by a move's `changes`, in one pass per perspective.
    #[inline]
    pub fn update_from(&mut self, parent: &Accumulator, changes: &PieceChanges, network: &Network) {
        let (added, removed) = (changes.added(), changes.removed());
        for (side, perspective) in [Color::White, Color::Black].into_iter().enumerate() {
            let row = |&(piece, square): &(Piece, Square)| {
                &network.w1[feature(perspective, piece, square)]
            };
            let mut add = [&network.b1; 2];
            let mut sub = [&network.b1; 2];
            for (slot, change) in add.iter_mut().zip(added) {
                *slot = row(change);
            }
            for (slot, change) in sub.iter_mut().zip(removed) {
                *slot = row(change);
            }
            simd::update(
                &mut self.values[side],
                &parent.values[side],
                &add[..added.len()],
                &sub[..removed.len()],
            );
        }
    }
}

/// The accumulators of one searching thread, by ply.
pub struct Stack {
    accumulators: Vec<Accumulator>,
    /// Whether the accumulator at a ply is up to date for the node on the current path.
    computed: Vec<bool>,
    /// The change from the node at `ply - 1` to the node at `ply`.
    deltas: Vec<PieceChanges>,
}

/// Beyond this many pending updates, a refresh from the board is cheaper.
const MAX_PENDING: usize = 16;

impl Stack {
    /// A stack for plies `0..plies`.
    pub fn new(plies: usize) -> Self {
        Self {
            accumulators: vec![
                Accumulator {
                    values: [[0; HIDDEN]; 2],
                };
                plies
            ],
            computed: vec![false; plies],
            deltas: vec![PieceChanges::NONE; plies],
        }
    }

    /// The node at `ply` is reached by a move that made `changes`.
    #[inline]
    pub fn push_move(&mut self, ply: usize, changes: &PieceChanges) {
        self.deltas[ply] = *changes;
        self.computed[ply] = false;
    }

    /// The node at `ply` is reached by a null move.
    #[inline]
    pub fn push_null(&mut self, ply: usize) {
        self.deltas[ply] = PieceChanges::NONE;
        self.computed[ply] = false;
    }

    /// Forgets every accumulator (a new root).
    pub fn reset(&mut self) {
        self.computed.iter_mut().for_each(|c| *c = false);
    }

    /// The evaluation of `pos`, the node at `ply` on the current path, from the side to
    /// move: its accumulator brought up to date from the nearest computed ancestor.
    pub fn evaluate(&mut self, ply: usize, pos: &Position, network: &Network) -> Value {
        if !self.computed[ply] {
            let start = (0..ply).rev().take(MAX_PENDING).find(|&p| self.computed[p]);
            match start {
                Some(start) => {
                    for p in start + 1..=ply {
                        let (done, rest) = self.accumulators.split_at_mut(p);
                        rest[0].update_from(&done[p - 1], &self.deltas[p], network);
                        self.computed[p] = true;
                    }
                }
                None => {
                    self.accumulators[ply] = Accumulator::refreshed(pos.board(), network);
                    self.computed[ply] = true;
                }
            }
        }
        network.output(&self.accumulators[ply], pos.turn())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::splitmix64;
    use shakmaty::Move;

    /// A network with varied weights (the embedded one might be small or zero).
    fn varied() -> Network {
        let mut network = Network::zeroed();
        for (i, row) in network.w1.iter_mut().enumerate() {
            for (j, w) in row.iter_mut().enumerate() {
                *w = (splitmix64((i * HIDDEN + j) as u64) % 41) as i16 - 20;
            }
        }
        for (j, b) in network.b1.iter_mut().enumerate() {
            *b = (j % 13) as i16;
        }
        for (k, half) in network.w2.iter_mut().enumerate() {
            for (j, w) in half.iter_mut().enumerate() {
                *w = ((j * 7 + k * 3) % 31) as i16 - 15;
            }
        }
        network.b2 = 321;
        network
    }

    /// Long random games from several starts (castling, en passant and promotions come up;
    /// the Chess960 starts castle with king and rook on other files): after every move the
    /// incrementally updated accumulator equals a refresh from the board.
    #[test]
    fn updates_equal_a_refresh_after_every_move() {
        let network = varied();
        let starts = [
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
                "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
                false,
            ),
            (
                "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
                false,
            ),
            ("8/PPPk4/8/8/8/8/4Kppp/8 w - - 0 1", false),
            (
                "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
                true,
            ),
            ("2r1kr2/8/8/8/8/8/8/1R2K1R1 w GBfc - 0 1", true),
        ];
        let mut seen_castle = 0;
        let mut seen_en_passant = 0;
        let mut seen_promotion = 0;
        let mut state = 1;
        for (fen, chess960) in starts {
            for _game in 0..6 {
                let mut pos = Position::from_fen(fen, chess960).unwrap();
                let mut stack = Stack::new(400);
                let first = stack.evaluate(0, &pos, &network);
                assert_eq!(
                    first,
                    network.output(&Accumulator::refreshed(pos.board(), &network), pos.turn())
                );
                for ply in 1..300 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    state = splitmix64(state);
                    // En passant whenever it is legal (it is rare in random play).
                    let mv = moves
                        .iter()
                        .copied()
                        .find(|m| m.is_en_passant())
                        .unwrap_or(moves[(state % moves.len() as u64) as usize]);
                    match mv {
                        Move::Castle { .. } => seen_castle += 1,
                        Move::EnPassant { .. } => seen_en_passant += 1,
                        Move::Normal {
                            promotion: Some(_), ..
                        } => seen_promotion += 1,
                        _ => {}
                    }
                    let mut child = pos.clone();
                    let changes = pos.play_into(mv, &mut child);
                    stack.push_move(ply, &changes);
                    pos = child;
                    // Evaluate only some plies, so updates also span several moves.
                    if state % 3 != 0 || ply % 17 == 0 {
                        let value = stack.evaluate(ply, &pos, &network);
                        let fresh = Accumulator::refreshed(pos.board(), &network);
                        assert_eq!(stack.accumulators[ply], fresh, "{} after {mv}", pos.fen());
                        assert_eq!(value, network.output(&fresh, pos.turn()));
                    }
                }
            }
        }
        assert!(
            seen_castle > 0 && seen_en_passant > 0 && seen_promotion > 0,
            "castles {seen_castle}, en passant {seen_en_passant}, promotions {seen_promotion}"
        );
    }

    #[test]
    fn the_evaluation_is_symmetric() {
        let network = varied();
        for (fen, mirror) in [
            (
                "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
                "rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 2 3",
            ),
            (
                "8/5k2/8/8/8/8/4PK2/8 b - - 0 1",
                "8/4pk2/8/8/8/8/5K2/8 w - - 0 1",
            ),
        ] {
            let a = Position::from_fen(fen, false).unwrap();
            let b = Position::from_fen(mirror, false).unwrap();
            let va = network.output(&Accumulator::refreshed(a.board(), &network), a.turn());
            let vb = network.output(&Accumulator::refreshed(b.board(), &network), b.turn());
            assert_eq!(va, vb, "{fen}");
        }
    }
}
