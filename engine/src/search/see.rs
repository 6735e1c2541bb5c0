//! Static exchange evaluation: does a capture win or lose material once every recapture on
//! the target square is played out, cheapest attacker first?
//!
//! Used to order captures (winning and equal ones before quiet moves, losing ones after) and to
//! skip losing captures in quiescence. X-ray attackers behind a moved slider join in; pins are
//! ignored, as in most engines. It reads the position only and never plays a move.

use shakmaty::attacks::{bishop_attacks, rook_attacks};
use shakmaty::{Bitboard, Move, Role, Square};

use crate::position::Position;

/// The search's piece values, one scale for everything the search weighs material with:
/// the exchanges here, the capture order (`movepick::mvv_lva_score`) and delta pruning in
/// quiescence. (The king's is never captured: it ends an exchange.)
const VALUES: [i32; 6] = [100, 320, 330, 500, 950, 20_000];

/// The search's value of a piece of `role`, in centipawns.
#[inline]
pub fn value(role: Role) -> i32 {
    VALUES[role as usize - 1]
}

/// Whether a capture cannot lose material: the victim is worth at least the capturer (then
/// even losing the capturer in return breaks even). A cheap test that spares most calls to
/// `see_ge(.., 0)`.
#[inline]
pub fn is_safe_capture(mv: Move) -> bool {
    mv.capture()
        .is_some_and(|victim| value(victim) >= value(mv.role()))
}

/// Whether the exchange started by `mv` does not lose material (`see_ge(pos, mv, 0)`, with the
/// cheap cases answered without playing out the exchange).
#[inline]
pub fn see_non_negative(pos: &Position, mv: Move) -> bool {
    is_safe_capture(mv) || see_ge(pos, mv, 0)
}

/// Whether the exchange started by `mv` gains at least `threshold` centipawns for the mover.
pub fn see_ge(pos: &Position, mv: Move, threshold: i32) -> bool {
    let (from, to) = match mv {
        Move::Normal { from, to, .. } | Move::EnPassant { from, to } => (from, to),
        Move::Castle { .. } | Move::Put { .. } => return threshold <= 0,
    };
    let promotion_gain = mv.promotion().map_or(0, |p| value(p) - value(Role::Pawn));
    // What the first capture wins, minus what we must win at least.
    let mut swap = mv.capture().map_or(0, value) + promotion_gain - threshold;
    if swap < 0 {
        return false;
    }
    // The piece now on `to` (after promotion) may be lost in return.
    let on_target = mv.promotion().unwrap_or(mv.role());
    swap = value(on_target) - swap;
    if swap <= 0 {
        return true;
    }

    let board = pos.board();
    let mut occupied = board.occupied() ^ Bitboard::from_square(from) ^ Bitboard::from_square(to);
    if let Move::EnPassant { .. } = mv {
        occupied ^= Bitboard::from_square(Square::from_coords(to.file(), from.rank()));
    }
    let mut attackers = (board.attacks_to(to, pos.turn(), occupied)
        | board.attacks_to(to, !pos.turn(), occupied))
        & occupied;
    let bishops_queens = board.bishops_and_queens();
    let rooks_queens = board.rooks_and_queens();
    let mut side = pos.turn();
    let mut result = true;

    loop {
        side = !side;
        attackers &= occupied;
        let ours = attackers & board.by_color(side);
        if ours.is_empty() {
            break;
        }
        result = !result;

        // The least valuable attacker recaptures.
        let Some(role) = [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
            Role::King,
        ]
        .into_iter()
        .find(|&r| (ours & board.by_role(r)).any()) else {
            break;
        };
        if role == Role::King {
            // The king may only take if nothing defends the square any more.
            return if (attackers & !board.by_color(side)).any() {
                !result
            } else {
                result
            };
        }
        swap = value(role) - swap;
        if swap < i32::from(result) {
            break;
        }
        let attacker = (ours & board.by_role(role)).isolate_first();
        occupied ^= attacker;
        // Sliders behind the piece that just moved now see the square.
        if matches!(role, Role::Pawn | Role::Bishop | Role::Queen) {
            attackers |= bishop_attacks(to, occupied) & bishops_queens;
        }
        if matches!(role, Role::Rook | Role::Queen) {
            attackers |= rook_attacks(to, occupied) & rooks_queens;
        }
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see(fen: &str, uci: &str, threshold: i32) -> bool {
        let pos = Position::from_fen(fen, false).unwrap();
        let mv = pos.parse_uci(uci).unwrap();
        see_ge(&pos, mv, threshold)
    }

    #[test]
    fn cheap_test_agrees_with_the_full_exchange() {
        let pos = Position::from_fen(
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R b KQkq - 0 4",
            false,
        )
        .unwrap();
        for mv in pos.legal_moves() {
            if mv.is_capture() {
                assert_eq!(see_non_negative(&pos, mv), see_ge(&pos, mv, 0), "{mv}");
            }
        }
    }

    #[test]
    fn undefended_piece_is_won() {
        // Rook takes an undefended knight.
        let fen = "4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1";
        assert!(see(fen, "d1d5", 320));
        assert!(!see(fen, "d1d5", 321));
    }

    #[test]
    fn defended_pawn_costs_the_queen() {
        // Queen takes a pawn defended by a pawn: loses 950 - 100.
        let fen = "4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1";
        assert!(!see(fen, "d1d5", 0));
        assert!(see(fen, "d1d5", -850));
        assert!(!see(fen, "d1d5", -849));
    }

    #[test]
    fn xray_recapture_counts() {
        // Rxd5 Rxd5 Rxd5: the doubled white rooks win the pawn (the second rook x-rays).
        let fen = "3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1";
        assert!(see(fen, "d2d5", 100));
        // Without the second white rook it loses the exchange (rook for pawn).
        let fen = "3rk3/8/8/3p4/8/8/3R4/4K3 w - - 0 1";
        assert!(!see(fen, "d2d5", 0));
    }

    #[test]
    fn quiet_moves_and_equal_trades() {
        let fen = "4k3/8/8/3n4/8/4N3/8/4K3 w - - 0 1";
        // Knight takes knight: equal at worst.
        assert!(see(fen, "e3d5", 0));
        // A quiet move to a square attacked by a knight loses the knight.
        assert!(!see("4k3/8/8/3n4/8/8/2N5/4K3 w - - 0 1", "c2b4", 0));
        assert!(see("4k3/8/8/3n4/8/8/2N5/4K3 w - - 0 1", "c2a1", 0));
    }
}
