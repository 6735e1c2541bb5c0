//! A human-readable picture of a position (the `d` command), for people typing at the engine.

use shakmaty::{File, Rank, Square};

use brudno_engine::position::Position;

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

    #[test]
    fn shows_pieces_fen_and_key() {
        let lines = board(&Position::default());
        assert_eq!(lines[1], " | r | n | b | q | k | b | n | r | 8");
        assert_eq!(lines[15], " | R | N | B | Q | K | B | N | R | 1");
        assert!(lines.contains(&"Key: 463B96181691FC9C".to_string()));
    }
}
