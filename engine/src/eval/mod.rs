//! Static evaluation in centipawns from the side to move's point of view.
//!
//! Three evaluations: `Material` (pawn 100, knight 300, bishop 300, rook 500, queen 900), the
//! core engine's and the search lab's; `Positional` (tapered piece-square tables, mobility,
//! pawn structure, king safety; the code in `positional.rs`, the weights' type in
//! `weights.rs`, their values in `params.rs`, and the search's incremental form of it in
//! `incremental.rs` with `pawn_cache.rs`); and `Nnue` (the default), the network in `nnue/`.
//! The last two pass through the endgame knowledge of `endgame.rs` (known wins against a bare
//! king, recognised draws); `Material` does not.
//! The evaluation never looks at legality, repetition or mate: the search owns those, and
//! nothing here imports from the search or above.

pub mod endgame;
pub mod incremental;
pub mod nnue;
pub mod params;
pub mod pawn_cache;
pub mod positional;
pub mod weights;

use shakmaty::{Board, Color, Role};

use crate::position::Position;

/// Which evaluation the search uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Evaluation {
    /// Material only: pawn 100, knight 300, bishop 300, rook 500, queen 900.
    Material,
    /// Tapered positional evaluation, with weights tuned on Brudno's games.
    Positional,
    /// The neural network learnt from Brudno's games (`nnue`), the engine's default.
    #[default]
    Nnue,
}

impl std::fmt::Display for Evaluation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Evaluation {
    type Err = String;

    /// Reads a name of `Evaluation::ALL`, in any case.
    fn from_str(text: &str) -> Result<Self, String> {
        Evaluation::ALL
            .into_iter()
            .find(|e| e.name().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| format!("'{text}' is not an evaluation (material, positional or nnue)"))
    }
}

impl Evaluation {
    /// Every evaluation, the weakest first.
    pub const ALL: [Evaluation; 3] = [
        Evaluation::Material,
        Evaluation::Positional,
        Evaluation::Nnue,
    ];

    /// Its name in lower case: "material", "positional" or "nnue".
    pub fn name(self) -> &'static str {
        match self {
            Evaluation::Material => "material",
            Evaluation::Positional => "positional",
            Evaluation::Nnue => "nnue",
        }
    }

    /// Evaluates `pos` from the side to move's point of view.
    #[inline]
    pub fn evaluate(self, pos: &Position) -> Value {
        match self {
            Evaluation::Material => evaluate(pos),
            Evaluation::Positional => endgame::adjust(
                pos.board(),
                pos.turn(),
                positional::evaluate(pos.board(), pos.turn(), &params::WEIGHTS),
            ),
            Evaluation::Nnue => endgame::adjust(
                pos.board(),
                pos.turn(),
                nnue::evaluate(pos, &nnue::embedded()),
            ),
        }
    }
}

/// A score in centipawns (or a mate score, see `search::score`).
pub type Value = i32;

/// Material values in centipawns, indexed by `Role as usize - 1` (pawn first, king last).
pub const PIECE_VALUES: [Value; 6] = [100, 300, 300, 500, 900, 0];

/// The value of one piece of this role in centipawns (the king counts 0).
#[inline]
pub fn piece_value(role: Role) -> Value {
    PIECE_VALUES[role as usize - 1]
}

/// The material `color` has on the board (kings count 0).
#[inline]
pub fn material_of(board: &Board, color: Color) -> Value {
    let ours = board.by_color(color);
    [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
    ]
    .into_iter()
    .map(|role| piece_value(role) * (ours & board.by_role(role)).count() as Value)
    .sum()
}

/// Material balance of the board from White's point of view.
#[inline]
pub fn material_white(board: &Board) -> Value {
    material_of(board, Color::White) - material_of(board, Color::Black)
}

/// Material evaluation from the side to move's point of view (`Evaluation::Material`).
#[inline]
pub fn evaluate(pos: &Position) -> Value {
    let white = material_white(pos.board());
    match pos.turn() {
        Color::White => white,
        Color::Black => -white,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_is_level() {
        assert_eq!(evaluate(&Position::default()), 0);
    }

    #[test]
    fn material_from_side_to_move() {
        // White is a queen up; Black to move sees -900.
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1", false).unwrap();
        assert_eq!(evaluate(&pos), -900);
        let pos = Position::from_fen("4k3/pppp4/8/8/8/8/8/RNB1K3 w - - 0 1", false).unwrap();
        assert_eq!(evaluate(&pos), 500 + 300 + 300 - 400);
    }
}
