//! `brudno pgn-data`: training data from the PGN games a tournament runner wrote, so that
//! games played elsewhere (an OpenBench datagen workload, whose workers play with fastchess
//! and upload PGN) become the same records `brudno datagen` writes.
//!
//! A move's comment carries the mover's search score as fastchess and cutechess write it,
//! `{+0.31/12 0.051s}` (pawns, from the mover's view, then the depth); a mate score (`+M5`),
//! a book move (`{book}`) or a move without a score keeps no position. As in datagen, the
//! position before a move is kept when the side to move is not in check and the move is
//! neither a capture nor a promotion, with the score turned to White's view and the game's
//! result from its `Result` tag; a game without a result (`*`) is skipped, and so is a game
//! whose moves do not read (reported with the game's number and the move).

use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use shakmaty::Color;

use crate::epd::notation;
use crate::packed::{self, RECORD_BYTES};
use brudno_engine::position::Position;
use brudno_engine::position::is_tactical;

/// Arguments of `brudno pgn-data`.
#[derive(Args, Debug, Clone)]
pub struct PgnDataArgs {
    /// PGN files.
    #[arg(required = true)]
    pub pgn: Vec<PathBuf>,
    /// Where to write the records (marlinformat, as datagen writes).
    #[arg(long)]
    pub output: PathBuf,
}

/// What one game gives: its records, or why it gives none.
pub type GameRecords = Result<Vec<[u8; RECORD_BYTES]>, String>;

/// Reads every game of a PGN text; one entry per game, in order.
pub fn games(text: &str) -> Vec<GameRecords> {
    let mut out = Vec::new();
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut movetext = String::new();
    let mut flush = |tags: &mut Vec<(String, String)>, movetext: &mut String| {
        if !movetext.trim().is_empty() || !tags.is_empty() {
            out.push(game(tags, movetext));
        }
        tags.clear();
        movetext.clear();
    };
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') && trimmed.ends_with(']') && !in_comment(&movetext) {
            if !movetext.trim().is_empty() {
                flush(&mut tags, &mut movetext);
            }
            if let Some(tag) = parse_tag(trimmed) {
                tags.push(tag);
            }
        } else {
            movetext.push_str(line);
            movetext.push('\n');
        }
    }
    flush(&mut tags, &mut movetext);
    out
}

/// Whether `text` ends inside an open `{` comment.
fn in_comment(text: &str) -> bool {
    text.rfind('{')
        .is_some_and(|open| !text[open..].contains('}'))
}

fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = &line[1..line.len() - 1];
    let (name, rest) = inner.split_once(char::is_whitespace)?;
    let value = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    Some((name.to_string(), value.to_string()))
}

/// The score of a move's comment, in centipawns from the mover's view; `None` for a mate,
/// a book move or a comment without a score.
pub fn comment_score(comment: &str) -> Option<i16> {
    let first = comment.split([' ', ',']).find(|w| !w.is_empty())?;
    let (score, _depth) = first.split_once('/')?;
    if score.contains('M') {
        return None;
    }
    let pawns: f64 = score.parse().ok()?;
    let centipawns = (pawns * 100.0).round();
    (centipawns.abs() < 30_000.0).then_some(centipawns as i16)
}

fn game(tags: &[(String, String)], movetext: &str) -> GameRecords {
    let tag = |name: &str| {
        tags.iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    };
    let result = match tag("Result") {
        Some("1-0") => 2,
        Some("1/2-1/2") => 1,
        Some("0-1") => 0,
        other => return Err(format!("no result ({})", other.unwrap_or("no Result tag"))),
    };
    let mut position = match tag("FEN") {
        Some(fen) => Position::from_fen(fen, false).map_err(|e| format!("FEN {fen}: {e}"))?,
        None => Position::default(),
    };
    // (position before the move, score) for each move kept, then the move is played.
    let mut kept: Vec<(Position, i16)> = Vec::new();
    let mut pending: Option<(Position, bool)> = None; // before the last move, keepable?
    let mut chars = movetext.char_indices().peekable();
    let mut depth = 0usize; // variation nesting
    while let Some((at, c)) = chars.next() {
        match c {
            '{' => {
                let end = movetext[at..].find('}').map_or(movetext.len(), |e| at + e);
                let comment = &movetext[at + 1..end.min(movetext.len())];
                while chars.peek().is_some_and(|&(i, _)| i <= end) {
                    chars.next();
                }
                if depth == 0
                    && let Some((before, true)) = pending.take()
                    && let Some(score) = comment_score(comment)
                {
                    let white = if before.turn() == Color::White {
                        score
                    } else {
                        -score
                    };
                    kept.push((before, white));
                }
            }
            ';' => {
                while chars.peek().is_some_and(|&(_, c)| c != '\n') {
                    chars.next();
                }
            }
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            c if c.is_whitespace() => {}
            _ => {
                let end = movetext[at..]
                    .find(|c: char| c.is_whitespace() || "{}();".contains(c))
                    .map_or(movetext.len(), |e| at + e);
                let word = &movetext[at..end];
                while chars.peek().is_some_and(|&(i, _)| i < end) {
                    chars.next();
                }
                if depth > 0 || is_not_a_move(word) {
                    continue;
                }
                let san = word.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
                if san.is_empty() {
                    continue;
                }
                let mv = notation::parse_move(&position, san)
                    .map_err(|e| format!("move {san}: {e:?}"))?;
                let keepable = !position.is_check() && !is_tactical(mv);
                pending = Some((position.clone(), keepable));
                position.play_in_place(mv);
            }
        }
    }
    Ok(kept
        .iter()
        .enumerate()
        .map(|(i, (pos, score))| packed::encode(pos, *score, result, i == 0))
        .collect())
}

/// Move numbers, results and annotation glyphs.
fn is_not_a_move(word: &str) -> bool {
    matches!(word, "1-0" | "0-1" | "1/2-1/2" | "*")
        || word.starts_with('$')
        || word.chars().all(|c| c.is_ascii_digit() || c == '.')
}

/// Runs `brudno pgn-data`.
pub fn run(args: &PgnDataArgs) -> ExitCode {
    let file = match std::fs::File::create(&args.output) {
        Ok(file) => file,
        Err(error) => {
            eprintln!("pgn-data: cannot write {}: {error}", args.output.display());
            return ExitCode::from(2);
        }
    };
    let mut writer = BufWriter::new(file);
    let (mut records, mut used, mut skipped) = (0usize, 0usize, 0usize);
    for path in &args.pgn {
        let text = match std::fs::read(path) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(error) => {
                eprintln!("pgn-data: cannot read {}: {error}", path.display());
                return ExitCode::from(2);
            }
        };
        for (index, game) in games(&text).into_iter().enumerate() {
            match game {
                Ok(game) => {
                    used += 1;
                    records += game.len();
                    for record in &game {
                        if let Err(error) = writer.write_all(record) {
                            eprintln!("pgn-data: write failed: {error}");
                            return ExitCode::from(1);
                        }
                    }
                }
                Err(why) => {
                    skipped += 1;
                    eprintln!("{}: game {}: {why}; skipped", path.display(), index + 1);
                }
            }
        }
    }
    if let Err(error) = writer.flush() {
        eprintln!("pgn-data: write failed: {error}");
        return ExitCode::from(1);
    }
    println!(
        "{records} positions from {used} games written to {} ({skipped} games skipped)",
        args.output.display()
    );
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    const PGN: &str = r#"[Event "Fast Chess"]
[White "a"]
[Black "b"]
[Result "0-1"]
[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]

1. e4 {book} e5 {book} 2. Nf3 {+0.31/12 0.051s} Nc6 {-0.25/11 0.040s, n=1234}
3. Bb5 {+M5/20 0.1s} a6 {-0.40/10} 4. Bxc6 {+0.10/9} (4. Ba4 Nf6) dxc6 {+0.12/9} $1
5. O-O {+0.20/9}
; a comment to the end of the line
0-1

[Event "Fast Chess"]
[Result "*"]

1. d4 {+0.1/1} *

[Event "Fast Chess"]
[Result "1-0"]

1. e4 {+0.1/1} Ke7 {+0.2/1} 1-0
"#;

    #[test]
    fn scored_quiet_positions_of_each_game_are_kept_from_whites_view() {
        let games = games(PGN);
        assert_eq!(games.len(), 3);
        let first = games[0].as_ref().unwrap();
        let records: Vec<_> = first.iter().map(|r| packed::decode(r).unwrap()).collect();
        // Nf3 (+31), Nc6 (-25 for Black = +25), a6 (+40), O-O (+20); not the book moves,
        // not the mate, not the captures Bxc6 and dxc6, nothing of the variation.
        let scores: Vec<i16> = records.iter().map(|r| r.score).collect();
        assert_eq!(scores, [31, 25, 40, 20]);
        assert!(records.iter().all(|r| r.result == 0));
        assert!(records[0].game_start && !records[1].game_start);
        assert_eq!(
            records[0].position.fen(),
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
        );
        assert!(games[1].as_ref().unwrap_err().contains("no result"));
        assert!(games[2].as_ref().unwrap_err().contains("Ke7"));
    }

    #[test]
    fn comment_scores_read_as_fastchess_and_cutechess_write_them() {
        assert_eq!(comment_score("+0.31/12 0.051s"), Some(31));
        assert_eq!(comment_score("-1.05/7"), Some(-105));
        assert_eq!(comment_score("0.00/1 0s, n=5"), Some(0));
        assert_eq!(comment_score("+M5/20 0.1s"), None);
        assert_eq!(comment_score("book"), None);
        assert_eq!(comment_score(""), None);
    }
}
