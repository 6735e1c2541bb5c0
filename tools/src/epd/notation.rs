//! Moves as test suites write them, read leniently into legal moves, and moves written back
//! in SAN.
//!
//! shakmaty's `San` is strict: it refuses `0-0`, `e4!?`, `exd6e.p.`, `e8Q` and long algebraic
//! `Ng1-f3`, and its capture sign must be right. Published suites contain all of these, so a
//! move is first normalised (annotations, check signs and the en-passant mark dropped,
//! zeros in castling read as letters, `:` read as a capture, a bare promotion piece given its
//! `=`), then read as coordinates (`e2e4`, `Ng1-f3`, `e7e8q`) when it names two squares, else as
//! SAN. A SAN move that matches no legal move with its capture sign is tried once more with the
//! sign ignored, since `Rf7` for `Rxf7` names one move just as well. What stays strict: the
//! move must be legal in the position and must name exactly one legal move; an illegal or
//! ambiguous move is an error for the caller to report, never a guess.

use shakmaty::san::{San, SanPlus};
use shakmaty::{CastlingSide, Move, Role, Square};

use brudno_engine::position::Position;

/// Why a written move could not be read as one legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not a move in any notation we know.
    Malformed(String),
    /// Well formed, but no legal move matches it.
    Illegal(String),
    /// Several legal moves match it (the listed ones, in SAN).
    Ambiguous(String, Vec<String>),
}

impl std::fmt::Display for MoveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MoveError::Malformed(text) => write!(f, "unreadable move '{text}'"),
            MoveError::Illegal(text) => write!(f, "illegal move '{text}'"),
            MoveError::Ambiguous(text, candidates) => write!(
                f,
                "ambiguous move '{text}' (could be {})",
                candidates.join(" or ")
            ),
        }
    }
}

impl std::error::Error for MoveError {}

/// Whether an operand is the en-passant mark written as its own word (`exd6 e.p.`); such a
/// word belongs to the move before it.
pub fn is_en_passant_mark(text: &str) -> bool {
    matches!(
        text.to_ascii_lowercase().as_str(),
        "e.p." | "e.p" | "ep" | "(ep)" | "(e.p.)"
    )
}

/// Reads a move written in SAN (with the oddities of real suites) or in coordinates, and
/// returns the one legal move it names.
pub fn parse_move(position: &Position, text: &str) -> Result<Move, MoveError> {
    let normalised = normalise(text);
    if normalised.is_empty() {
        return Err(MoveError::Malformed(text.to_string()));
    }
    let legal = position.legal_moves();
    if let Some(side) = castling_side(&normalised) {
        return legal
            .iter()
            .copied()
            .find(|m| m.castling_side() == Some(side))
            .ok_or_else(|| MoveError::Illegal(text.to_string()));
    }
    if let Some(coordinates) = Coordinates::parse(&normalised) {
        return unique(
            position,
            text,
            legal.iter().copied().filter(|&m| coordinates.matches(m)),
        );
    }
    let san = San::from_ascii(normalised.as_bytes())
        .map_err(|_| MoveError::Malformed(text.to_string()))?;
    let strict: Vec<Move> = legal.iter().copied().filter(|&m| san.matches(m)).collect();
    if !strict.is_empty() {
        return unique(position, text, strict.into_iter());
    }
    // The capture sign is the one part of SAN that suites get wrong without making the move
    // unclear: try again without it.
    let San::Normal {
        role,
        file,
        rank,
        capture,
        to,
        promotion,
    } = san
    else {
        return Err(MoveError::Illegal(text.to_string()));
    };
    let flipped = San::Normal {
        role,
        file,
        rank,
        capture: !capture,
        to,
        promotion,
    };
    unique(
        position,
        text,
        legal.iter().copied().filter(|&m| flipped.matches(m)),
    )
}

/// The move in SAN with its check or mate sign, as suites write it (`Qxf7#`, `O-O`).
pub fn san(position: &Position, m: Move) -> String {
    SanPlus::from_move(position.chess().clone(), m).to_string()
}

/// Several moves in SAN, space separated.
pub fn san_list(position: &Position, moves: &[Move]) -> String {
    moves
        .iter()
        .map(|&m| san(position, m))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The one move of `matches`, or why there is not exactly one.
fn unique(
    position: &Position,
    text: &str,
    mut matches: impl Iterator<Item = Move>,
) -> Result<Move, MoveError> {
    let Some(first) = matches.next() else {
        return Err(MoveError::Illegal(text.to_string()));
    };
    let others: Vec<Move> = matches.collect();
    if others.is_empty() {
        return Ok(first);
    }
    let candidates = std::iter::once(first)
        .chain(others)
        .map(|m| san(position, m))
        .collect();
    Err(MoveError::Ambiguous(text.to_string(), candidates))
}

/// Drops what does not identify the move and rewrites the rest into shakmaty's SAN or into
/// plain coordinates.
fn normalise(text: &str) -> String {
    let mut move_text = text.trim();
    // A move number in front: `12.Nf3`, `12...Nf6`.
    let after_number = move_text.trim_start_matches(|c: char| c.is_ascii_digit());
    if after_number.len() < move_text.len() && after_number.starts_with('.') {
        move_text = after_number.trim_start_matches('.');
    }
    let lower = move_text.to_ascii_lowercase();
    for mark in ["e.p.", "e.p", "(ep)", "ep"] {
        if lower.ends_with(mark) && move_text.len() > mark.len() {
            move_text = move_text[..move_text.len() - mark.len()].trim_end();
            break;
        }
    }
    let move_text = move_text.trim_end_matches(['!', '?', '+', '#', '\u{2020}', '\u{2021}']);
    let mut out = String::with_capacity(move_text.len() + 1);
    for c in move_text.chars() {
        match c {
            '0' | 'o' if is_castling_text(move_text) => out.push('O'),
            ':' | '\u{d7}' => out.push('x'),
            '(' | ')' | '/' => out.push('='),
            c => out.push(c),
        }
    }
    // Long algebraic separates the squares with `-`: drop it (castling keeps its dashes).
    if !out.starts_with('O') {
        out.retain(|c| c != '-');
    }
    // `e8Q` or `e8=Q)` (from `e8(Q)`): one `=` right before the promotion piece.
    let out = out.trim_end_matches('=').replace("==", "=");
    let bytes = out.as_bytes();
    let n = bytes.len();
    if n >= 3
        && matches!(
            bytes[n - 1],
            b'N' | b'B' | b'R' | b'Q' | b'n' | b'b' | b'r' | b'q'
        )
        && matches!(bytes[n - 2], b'1' | b'8')
        && bytes[n - 3].is_ascii_lowercase()
    {
        let mut with_sign = out[..n - 1].to_string();
        with_sign.push('=');
        with_sign.push(char::from(bytes[n - 1]).to_ascii_uppercase());
        return with_sign;
    }
    if n >= 2 && bytes[n - 2] == b'=' {
        let mut upper = out[..n - 1].to_string();
        upper.push(char::from(bytes[n - 1]).to_ascii_uppercase());
        return upper;
    }
    out
}

/// `O-O`, `0-0-0`, `o-o`, `OO`: castling written with letters or zeros.
fn is_castling_text(text: &str) -> bool {
    let compact: String = text.chars().filter(|&c| c != '-').collect();
    matches!(
        compact.to_ascii_uppercase().as_str(),
        "OO" | "OOO" | "00" | "000"
    )
}

fn castling_side(normalised: &str) -> Option<CastlingSide> {
    match normalised.chars().filter(|&c| c != '-').count() {
        _ if !normalised.starts_with('O') || !is_castling_text(normalised) => None,
        2 => Some(CastlingSide::KingSide),
        3 => Some(CastlingSide::QueenSide),
        _ => None,
    }
}

/// A move given by its squares: `e2e4`, `Ng1f3`, `e4xd5`, `e7e8=Q` (dashes already dropped).
struct Coordinates {
    role: Option<Role>,
    from: Square,
    to: Square,
    promotion: Option<Role>,
}

impl Coordinates {
    fn parse(text: &str) -> Option<Self> {
        let mut rest = text;
        let role = match rest.chars().next()? {
            'N' | 'B' | 'R' | 'Q' | 'K' | 'P' => {
                let role = Role::from_char(rest.chars().next()?)?;
                rest = &rest[1..];
                Some(role)
            }
            _ => None,
        };
        let from = Square::from_ascii(rest.get(..2)?.as_bytes()).ok()?;
        rest = &rest[2..];
        rest = rest.strip_prefix('x').unwrap_or(rest);
        let to = Square::from_ascii(rest.get(..2)?.as_bytes()).ok()?;
        rest = &rest[2..];
        rest = rest.strip_prefix('=').unwrap_or(rest);
        let promotion = match rest.len() {
            0 => None,
            1 => Some(Role::from_char(rest.chars().next()?)?).filter(|r| *r != Role::Pawn),
            _ => return None,
        };
        Some(Self {
            role,
            from,
            to,
            promotion,
        })
    }

    /// Whether the legal move `m` goes from `from` to `to` (castling: the king's target square
    /// or the rook's square) with this promotion, by this piece if one was named.
    fn matches(&self, m: Move) -> bool {
        if m.from() != Some(self.from) || m.promotion() != self.promotion {
            return false;
        }
        if self.role.is_some_and(|role| role != m.role()) {
            return false;
        }
        match m {
            Move::Castle { king, rook } => {
                let side = CastlingSide::from_queen_side(rook < king);
                self.to == rook || self.to == Square::from_coords(side.king_to_file(), king.rank())
            }
            _ => m.to() == self.to,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen, false).unwrap()
    }

    fn uci(position: &Position, text: &str) -> String {
        let m = parse_move(position, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        Position::uci(m, position.castling_mode())
    }

    #[test]
    fn normalise_rewrites_the_oddities() {
        assert_eq!(normalise("Qxf7+!!"), "Qxf7");
        assert_eq!(normalise("e4!?"), "e4");
        assert_eq!(normalise("0-0-0"), "O-O-O");
        assert_eq!(normalise("o-o"), "O-O");
        assert_eq!(normalise("exd6e.p."), "exd6");
        assert_eq!(normalise("exd6ep"), "exd6");
        assert_eq!(normalise("Ng1-f3"), "Ng1f3");
        assert_eq!(normalise("e8Q"), "e8=Q");
        assert_eq!(normalise("e8=q+"), "e8=Q");
        assert_eq!(normalise("bxa8(N)"), "bxa8=N");
        assert_eq!(normalise("B:f7"), "Bxf7");
        assert_eq!(normalise("23...Nf6"), "Nf6");
        assert_eq!(normalise("12.exd6e.p."), "exd6");
        assert_eq!(normalise("e7e8b"), "e7e8=B");
    }

    #[test]
    fn castling_in_every_spelling() {
        let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        for text in ["O-O", "0-0", "o-o", "O-O+", "e1g1", "Ke1g1", "e1h1"] {
            assert_eq!(uci(&p, text), "e1g1", "{text}");
        }
        for text in ["O-O-O", "0-0-0", "e1c1", "e1a1"] {
            assert_eq!(uci(&p, text), "e1c1", "{text}");
        }
    }

    #[test]
    fn ambiguous_and_illegal_are_errors() {
        // Two knights can reach d2.
        let p = pos("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1");
        assert!(matches!(
            parse_move(&p, "Nd2"),
            Err(MoveError::Ambiguous(_, ref c)) if c.len() == 2
        ));
        assert_eq!(uci(&p, "Nbd2"), "b1d2");
        assert_eq!(uci(&p, "Nfd2"), "f1d2");
        assert_eq!(
            parse_move(&p, "Qd2"),
            Err(MoveError::Illegal("Qd2".to_string()))
        );
        assert!(matches!(
            parse_move(&p, "hello"),
            Err(MoveError::Malformed(_))
        ));
        assert!(matches!(parse_move(&p, "!!"), Err(MoveError::Malformed(_))));
        assert!(matches!(parse_move(&p, "O-O"), Err(MoveError::Illegal(_))));
    }

    #[test]
    fn wrong_capture_sign_and_en_passant() {
        let p = pos("4k3/8/8/3pP3/8/8/8/R3K3 w - d6 0 1");
        assert_eq!(uci(&p, "exd6"), "e5d6");
        assert_eq!(uci(&p, "exd6e.p."), "e5d6");
        assert_eq!(uci(&p, "ed6"), "e5d6");
        assert_eq!(uci(&p, "e5d6"), "e5d6");
        let p = pos("r3k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        assert_eq!(uci(&p, "Ra8+"), "a1a8");
        assert_eq!(uci(&p, "Rxa8+"), "a1a8");
    }

    #[test]
    fn promotions_with_and_without_sign() {
        let p = pos("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(uci(&p, "a8=Q+"), "a7a8q");
        assert_eq!(uci(&p, "a8Q"), "a7a8q");
        assert_eq!(uci(&p, "axb8=N"), "a7b8n");
        assert_eq!(uci(&p, "a7a8r"), "a7a8r");
        assert!(matches!(parse_move(&p, "a8"), Err(MoveError::Illegal(_))));
    }

    #[test]
    fn san_output_has_check_and_mate_signs() {
        let p = pos("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
        let m = parse_move(&p, "Rd8").unwrap();
        assert_eq!(san(&p, m), "Rd8#");
    }
}
