//! Text for people: a picture of a position (the `d` command) and a score in the words UCI
//! and the EPD reports share (`cp 31`, `mate 3`).

use shakmaty::{File, Rank, Square};

use brudno_engine::eval::Value;
use brudno_engine::position::Position;
use brudno_engine::search::score::mate_in_moves;

/// A score as `cp N` from the side to move's point of view, or `mate N` in moves (negative:
/// the side to move is being mated).
pub fn score_text(score: Value) -> String {
    match mate_in_moves(score) {
        Some(moves) => format!("mate {moves}"),
        None => format!("cp {score}"),
    }
}

/// The board as text lines, White at the bottom, followed by the FEN and the key.
pub fn board(position: &Position) -> Vec<String> {
    let board = position.board();
    let mut lines = vec![" +---+---+---+---+---+---+---+---+".to_string()];
    for rank in Rank::ALL.into_iter().rev() {
        let mut row = String::from(" |");
        for file in File::ALL {
            let symbol = board
                .piece_at(Square::from_coords(file, rank))
                .map_or(' ', |piece| piece.char());
            row.push(' ');
            row.push(symbol);
            row.push_str(" |");
        }
        row.push_str(&format!(" {}", rank.char()));
        lines.push(row);
        lines.push(" +---+---+---+---+---+---+---+---+".to_string());
    }
    lines.push("   a   b   c   d   e   f   g   h".to_string());
    lines.push(String::new());
    lines.push(format!("Fen: {}", position.fen()));
    lines.push(format!("Key: {:016X}", position.key()));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use brudno_engine::search::score::{mate_in, mated_in};

    #[test]
    fn scores_in_centipawns_or_moves_to_mate() {
        assert_eq!(score_text(57), "cp 57");
        assert_eq!(score_text(-3), "cp -3");
        assert_eq!(score_text(mate_in(1)), "mate 1");
        assert_eq!(score_text(mate_in(3)), "mate 2");
        assert_eq!(score_text(mated_in(0)), "mate 0");
        assert_eq!(score_text(mated_in(4)), "mate -2");
    }

    #[test]
    fn shows_pieces_fen_and_key() {
        let lines = board(&Position::default());
        assert_eq!(lines[1], " | r | n | b | q | k | b | n | r | 8");
        assert_eq!(lines[15], " | R | N | B | Q | K | B | N | R | 1");
        assert!(lines.contains(&"Key: 463B96181691FC9C".to_string()));
    }
}
