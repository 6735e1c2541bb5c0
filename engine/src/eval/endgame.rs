//! Endgame knowledge laid over the `Positional` and `Nnue` evaluations: the mating endings
//! against a bare king and the plain draws.
//!
//! Against a lone king with mating material (a queen, a rook, bishops on both colours, bishop
//! and knight, three knights) the evaluation is replaced by a known win: `KNOWN_WIN` plus the
//! material plus a mop-up term that drives the bare king to the edge (with bishop and knight,
//! to a corner of the bishop's colour) and brings the kings together, so that every step of
//! the mate scores better than the last and the search finds its way even where the mate lies
//! beyond its horizon. These scores stay far below the tablebase and mate scores of the search
//! (`search::score::TB_WIN_BOUND`, above 31,000). Where the material cannot win (bare kings, a
//! minor piece or two knights against the king, a minor against a minor, a wrong-coloured
//! bishop with rook pawns against a king in the corner) the score is a draw or scaled close to
//! it, and opposite-coloured bishops scale the score down. Everything here reads the board
//! only, from White's and Black's side alike (a position and its colour-flipped mirror get
//! opposite scores), and costs a few population counts in an ordinary position. It never
//! touches `Material`, which stays the core engine's evaluation, and imports nothing from the
//! search or above.

use shakmaty::{Bitboard, Board, Color, File, Rank, Role, Square};

use super::{Value, piece_value};

/// A won ending against a bare king, before material and mop-up: far above any ordinary
/// evaluation, far below the tablebase and mate scores of the search.
pub const KNOWN_WIN: Value = 10_000;

/// Known wins never score above this (many promoted queens stay below the search's bounds).
const KNOWN_WIN_CAP: Value = 20_000;

/// Mop-up: per step of the bare king away from the centre (Manhattan distance to the
/// nearest of d4, e4, d5, e5, 0 to 6).
const EDGE_STEP: Value = 40;

/// Mop-up: per step the kings stand closer (Chebyshev distance, 7 - distance).
const CLOSE_STEP: Value = 20;

/// Bishop and knight: per step of the bare king towards a corner of the bishop's colour
/// (0 on the long diagonal of the other colour, 7 in the right corner).
const CORNER_STEP: Value = 200;

/// Scale factors are out of this (a score times `scale / FULL_SCALE`).
const FULL_SCALE: Value = 64;

/// Opposite-coloured bishops and pawns only: the scale by the stronger side's extra pawns
/// (0, 1, 2, 3 or more).
const OPPOSITE_BISHOPS_SCALE: [Value; 4] = [16, 24, 36, 48];

/// Pawnless, at most a minor piece ahead: the scale when the weaker side has at most a minor
/// piece (`KRvKB`), and when it has more (`KRBvKR`). With less than a rook the stronger side
/// cannot win at all (scale 0).
const PAWNLESS_SCALE_VS_MINOR: Value = 4;
const PAWNLESS_SCALE_VS_MORE: Value = 14;

/// `raw`, an evaluation from `turn`'s point of view, corrected by the endgame knowledge:
/// a known win against a bare king, a draw, a scaled-down score, or `raw` untouched.
#[inline]
pub fn adjust(board: &Board, turn: Color, raw: Value) -> Value {
    // Pawns on both sides and a knight, rook or queen on the board: no bare king, no
    // pawnless ending, no ending of bishops and pawns, so every rule below leaves `raw` as it
    // is. The common case, answered without the call (`adjust_full` is the reference).
    let pawns = board.pawns();
    if (pawns & board.white()).any()
        && (pawns & board.black()).any()
        && (board.knights() | board.rooks_and_queens()).any()
    {
        return raw;
    }
    adjust_full(board, turn, raw)
}

/// `adjust` without its shortcut.
#[inline(never)]
fn adjust_full(board: &Board, turn: Color, raw: Value) -> Value {
    let white_raw = if turn == Color::White { raw } else { -raw };
    let white = adjust_white(board, white_raw);
    if turn == Color::White { white } else { -white }
}

/// `adjust` from White's point of view.
fn adjust_white(board: &Board, raw: Value) -> Value {
    if board.white().count() == 1 {
        return bare_king(board, Color::Black, raw);
    }
    if board.black().count() == 1 {
        return bare_king(board, Color::White, raw);
    }
    let strong = match raw {
        0 => return 0,
        r if r > 0 => Color::White,
        _ => Color::Black,
    };
    raw * scale(board, strong) / FULL_SCALE
}

/// The score (White's point of view) when `!strong` has a bare king.
fn bare_king(board: &Board, strong: Color, raw: Value) -> Value {
    let ours = board.by_color(strong);
    let pieces = ours & !board.kings();
    if pieces.is_empty() {
        return 0;
    }
    let knights = ours & board.knights();
    let bishops = ours & board.bishops();
    let both_bishops =
        (bishops & Bitboard::LIGHT_SQUARES).any() && (bishops & Bitboard::DARK_SQUARES).any();
    let can_mate = (ours & (board.rooks() | board.queens())).any()
        || both_bishops
        || (bishops.any() && knights.any())
        || knights.count() >= 3;
    let score = if can_mate {
        mop_up(board, strong)
    } else if (ours & board.pawns()).is_empty() || wrong_bishop(board, strong) {
        // A minor piece, two knights or same-coloured bishops cannot mate; neither can a
        // bishop that does not cover the corner its rook pawns promote on.
        return 0;
    } else {
        return raw;
    };
    if strong == Color::White {
        score
    } else {
        -score
    }
}

/// The known win of `strong` against the bare king, from `strong`'s point of view.
fn mop_up(board: &Board, strong: Color) -> Value {
    let ours = board.by_color(strong);
    let (Some(winner), Some(loser)) = (board.king_of(strong), board.king_of(!strong)) else {
        return 0;
    };
    let material = super::material_of(board, strong);
    let closeness = CLOSE_STEP * (7 - winner.distance(loser) as Value);
    let bishops = ours & board.bishops();
    let bishop_and_knight = bishops.count() == 1
        && (ours & board.knights()).count() == 1
        && (ours & !board.kings()).count() == 2;
    let push = if bishop_and_knight {
        // Mate is only forced in a corner the bishop covers.
        let dark = (bishops & Bitboard::DARK_SQUARES).any();
        CORNER_STEP * right_corner_nearness(loser, dark) + EDGE_STEP * centre_distance(loser) / 4
    } else {
        EDGE_STEP * centre_distance(loser)
    };
    (KNOWN_WIN + material + closeness + push).min(KNOWN_WIN_CAP)
}

/// Manhattan distance of `square` to the nearest centre square: 0 in the centre, 6 in a
/// corner.
fn centre_distance(square: Square) -> Value {
    let file = square.file() as Value;
    let rank = square.rank() as Value;
    (3 - file).max(file - 4) + (3 - rank).max(rank - 4)
}

/// How near `square` is to the corners of one colour: 7 in a1/h8 for dark, a8/h1 for light,
/// 0 on the long diagonal of the other colour.
fn right_corner_nearness(square: Square, dark: bool) -> Value {
    let file = square.file() as Value;
    let rank = square.rank() as Value;
    if dark {
        (7 - rank - file).abs()
    } else {
        (rank - file).abs()
    }
}

/// Whether `strong` has only bishops that do not cover the promotion corner of its pawns, all
/// on one rook file, with the bare king in or next to that corner: a draw.
fn wrong_bishop(board: &Board, strong: Color) -> bool {
    let ours = board.by_color(strong);
    let pawns = ours & board.pawns();
    let bishops = ours & board.bishops();
    if bishops.is_empty() || (ours & !board.kings()) != (pawns | bishops) {
        return false;
    }
    let promotion_rank = if strong == Color::White { 7 } else { 0 };
    let corner = if (pawns & !Bitboard::from_file(File::A)).is_empty() {
        Square::from_coords(File::A, Rank::new(promotion_rank))
    } else if (pawns & !Bitboard::from_file(File::H)).is_empty() {
        Square::from_coords(File::H, Rank::new(promotion_rank))
    } else {
        return false;
    };
    let corner_colour = if corner.is_dark() {
        Bitboard::DARK_SQUARES
    } else {
        Bitboard::LIGHT_SQUARES
    };
    let Some(defender) = board.king_of(!strong) else {
        return false;
    };
    (bishops & corner_colour).is_empty() && defender.distance(corner) <= 1
}

/// The scale (out of `FULL_SCALE`) of a score in `strong`'s favour when both sides have more
/// than the king.
fn scale(board: &Board, strong: Color) -> Value {
    let ours = board.by_color(strong);
    let theirs = board.by_color(!strong);
    if (ours & board.pawns()).is_empty() {
        let (strong_pieces, weak_pieces) = (pieces_value(board, ours), pieces_value(board, theirs));
        if strong_pieces - weak_pieces <= piece_value(Role::Bishop) {
            return if strong_pieces < piece_value(Role::Rook) {
                0
            } else if weak_pieces <= piece_value(Role::Bishop) {
                PAWNLESS_SCALE_VS_MINOR
            } else {
                PAWNLESS_SCALE_VS_MORE
            };
        }
    }
    let bishops = board.bishops();
    if (board.knights() | board.rooks() | board.queens()).is_empty()
        && (bishops & ours).count() == 1
        && (bishops & theirs).count() == 1
        && (bishops & Bitboard::DARK_SQUARES).count() == 1
    {
        let pawns = board.pawns();
        let extra = (pawns & ours).count() as i64 - (pawns & theirs).count() as i64;
        return OPPOSITE_BISHOPS_SCALE[extra.clamp(0, 3) as usize];
    }
    FULL_SCALE
}

/// The value of the knights, bishops, rooks and queens among `side`.
fn pieces_value(board: &Board, side: Bitboard) -> Value {
    [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
        .into_iter()
        .map(|role| piece_value(role) * (side & board.by_role(role)).count() as Value)
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;
    use crate::rng::splitmix64;
    use shakmaty::fen::Fen;

    /// The shortcut of `adjust` gives what the rules give, on the positions of random games
    /// played down to their endings, for raw scores of both signs.
    #[test]
    fn the_shortcut_agrees_with_the_rules() {
        let mut state = 17;
        // Positions with pawns on both sides (where the shortcut may answer) and without.
        let mut both_pawns = 0;
        let mut not_both = 0;
        for _ in 0..60 {
            let mut pos = Position::default();
            for _ in 0..300 {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                for raw in [-700, -35, 0, 1, 90, 2500] {
                    let (board, turn) = (pos.board(), pos.turn());
                    assert_eq!(
                        adjust(board, turn, raw),
                        adjust_full(board, turn, raw),
                        "{} {raw}",
                        pos.fen()
                    );
                }
                let pawns = pos.board().pawns();
                if (pawns & pos.board().white()).any() && (pawns & pos.board().black()).any() {
                    both_pawns += 1;
                } else {
                    not_both += 1;
                }
                state = splitmix64(state);
                // Captures first, so that the games reach their endings.
                let captures: Vec<_> = legal.iter().filter(|m| m.is_capture()).collect();
                let mv = if !captures.is_empty() && state % 3 != 0 {
                    *captures[(state >> 8) as usize % captures.len()]
                } else {
                    legal[(state >> 8) as usize % legal.len()]
                };
                pos = pos.play(mv);
            }
        }
        assert!(
            both_pawns > 1000 && not_both > 1000,
            "{both_pawns} {not_both}"
        );
    }

    fn board_and_turn(fen: &str) -> (Board, Color) {
        let setup = fen.parse::<Fen>().unwrap().into_setup();
        (setup.board, setup.turn)
    }

    /// The adjustment of a neutral raw score of `raw` for White.
    fn adjusted(fen: &str, raw_white: Value) -> Value {
        let (board, turn) = board_and_turn(fen);
        let raw = if turn == Color::White {
            raw_white
        } else {
            -raw_white
        };
        adjust(&board, turn, raw)
    }

    /// `fen` with the board flipped vertically and the colours swapped.
    fn mirrored(fen: &str) -> String {
        let (board, turn) = board_and_turn(fen);
        let mut flipped = Board::empty();
        for (square, piece) in board {
            flipped.set_piece_at(
                square.flip_vertical(),
                shakmaty::Piece {
                    color: !piece.color,
                    role: piece.role,
                },
            );
        }
        let side = if turn == Color::White { "b" } else { "w" };
        format!("{} {side} - - 0 1", flipped.board_fen())
    }

    #[test]
    fn mirror_gives_the_opposite_score() {
        for fen in [
            "8/8/8/3k4/8/8/8/KQ6 w - - 0 1",
            "8/8/8/3k4/8/8/8/KR6 b - - 0 1",
            "8/8/2k5/8/8/8/8/KBN5 w - - 0 1",
            "8/8/2k5/8/8/8/8/K1NB4 b - - 0 1",
            "8/8/8/8/4k3/8/8/KBB5 w - - 0 1",
            "k7/8/P7/8/8/8/8/K1B5 w - - 0 1",
            "8/4kp2/4b3/6P1/5P2/3B4/5K2/8 w - - 0 1",
            "8/8/3k4/8/8/8/8/KR2B3 w - - 0 1",
        ] {
            let flip = mirrored(fen);
            for raw in [-150, 0, 37, 420] {
                let (board, turn) = board_and_turn(fen);
                let (flipped, flipped_turn) = board_and_turn(&flip);
                assert_eq!(
                    adjust(&board, turn, raw),
                    adjust(&flipped, flipped_turn, raw),
                    "{fen} / {flip}"
                );
            }
        }
    }

    #[test]
    fn bare_king_against_mating_material_is_a_known_win() {
        let win = adjusted("8/8/8/3k4/8/8/8/KQ6 w - - 0 1", 50);
        assert!(win > KNOWN_WIN, "{win}");
        // The defender to move sees the same from its side.
        assert_eq!(adjusted("8/8/8/3k4/8/8/8/KQ6 b - - 0 1", 50), -win);
        // Nearer the edge scores more.
        assert!(adjusted("3k4/8/8/8/8/8/8/KQ6 b - - 0 1", 0) < -win);
    }

    #[test]
    fn bishop_and_knight_drive_to_the_right_corner() {
        // Dark-squared bishop (c1): a1 and h8 are right, a8 and h1 wrong.
        let right = adjusted("8/8/8/8/8/8/8/k1B1K1N1 w - - 0 1", 0);
        let wrong = adjusted("k7/8/8/8/8/8/8/2B1K1N1 w - - 0 1", 0);
        assert!(right > wrong + 1000, "{right} {wrong}");
    }

    #[test]
    fn no_mating_material_is_a_draw() {
        for fen in [
            "8/8/3k4/8/8/8/8/K7 w - - 0 1",
            "8/8/3k4/8/8/8/8/KN6 w - - 0 1",
            "8/8/3k4/8/8/8/8/KNN5 w - - 0 1",
            "8/8/3k4/8/8/8/8/KB1B4 w - - 0 1",
            "k7/8/P7/8/8/8/8/K1B5 w - - 0 1",
        ] {
            assert_eq!(adjusted(fen, 300), 0, "{fen}");
        }
        // The right bishop, or the king away from the corner, leaves the score alone.
        assert_eq!(adjusted("k7/8/P7/8/8/8/8/KB6 w - - 0 1", 300), 300);
        assert_eq!(adjusted("8/4k3/P7/8/8/8/8/K1B5 w - - 0 1", 300), 300);
    }
}
