//! What an EPD record asks of the engine, and whether a search answered it.
//!
//! The operations read here: `bm` (the move must be one of these), `am` (the move must be none
//! of these), both together, `dm N` (a mate in N moves or fewer must be announced, with a
//! right first move), and `c0` in the Strategic Test Suite form `"Rxf4=10, Qe2=5"` (points
//! for the move chosen). A `c0` that is not in that form is a comment (Arasan names the game
//! there) and is left alone. Records with perft counts (`D1`..`Dn`) and no search operation
//! are perft tests, not search tests. Every move is checked against the position when the
//! record is read, so a bad record is found before any search and never mid-run. This module
//! only judges; it never searches and never prints.

use shakmaty::Move;

use super::notation::{self, is_en_passant_mark, parse_move};
use super::record::EpdRecord;
use brudno_engine::eval::Value;
use brudno_engine::position::Position;
use brudno_engine::search::score::mate_in_moves;

/// What a search test expects of the chosen move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Expectation {
    /// `bm`: the chosen move must be one of these (when not empty).
    pub best: Vec<Move>,
    /// `am`: the chosen move must be none of these.
    pub avoid: Vec<Move>,
    /// `dm`: a mate in at most this many moves must be announced.
    pub mate: Option<u32>,
    /// STS `c0`: points for each listed move; unlisted moves score 0.
    pub points: Vec<(Move, u32)>,
}

/// What a record is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Task {
    /// A search test: search the position and judge the move.
    Search(Expectation),
    /// Perft counts (`D1`..`Dn`): the deepest depth given. Not a search test.
    Perft(u32),
    /// Neither a search test nor perft (an `id` alone, say).
    Nothing,
}

/// The judgement of one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// Whether the test is passed.
    pub solved: bool,
    /// STS points earned, when the record gives points.
    pub points: Option<u32>,
}

/// Reads what `record` asks in `position`. An error names the operation and the move at
/// fault: an unreadable, illegal or ambiguous move, or a `dm` that is not a positive number.
pub fn read_task(record: &EpdRecord, position: &Position) -> Result<Task, String> {
    let mut expectation = Expectation::default();
    let mut is_search = false;
    if let Some(operands) = record.operands("bm") {
        expectation.best = read_moves(position, "bm", operands)?;
        is_search = true;
    }
    if let Some(operands) = record.operands("am") {
        expectation.avoid = read_moves(position, "am", operands)?;
        is_search = true;
    }
    if let Some(operands) = record.operands("dm") {
        let text = operands.join(" ");
        let moves = text
            .trim()
            .parse::<u32>()
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| format!("dm: '{text}' is not a positive number of moves"))?;
        expectation.mate = Some(moves);
        is_search = true;
    }
    if let Some(comment) = record.first("c0")
        && let Some(points) = read_points(position, comment)?
    {
        expectation.points = points;
        is_search = true;
    }
    if is_search {
        if expectation.best.is_empty()
            && expectation.avoid.is_empty()
            && expectation.mate.is_none()
            && expectation.points.iter().all(|&(_, p)| p == 0)
        {
            return Err("bm/am/dm/c0 name no move to judge by".to_string());
        }
        return Ok(Task::Search(expectation));
    }
    let perft_depth = record
        .operations
        .iter()
        .filter_map(|op| op.opcode.strip_prefix('D')?.parse::<u32>().ok())
        .max();
    Ok(perft_depth.map_or(Task::Nothing, Task::Perft))
}

/// Reads the moves of `bm` or `am`: separated by spaces or commas, with an en-passant mark
/// written as its own word skipped.
fn read_moves(position: &Position, opcode: &str, operands: &[String]) -> Result<Vec<Move>, String> {
    let mut moves = Vec::new();
    for text in operands
        .iter()
        .flat_map(|operand| operand.split(','))
        .map(str::trim)
        .filter(|text| !text.is_empty() && !is_en_passant_mark(text))
    {
        let m = parse_move(position, text).map_err(|e| format!("{opcode}: {e}"))?;
        if !moves.contains(&m) {
            moves.push(m);
        }
    }
    if moves.is_empty() {
        return Err(format!("{opcode} without a move"));
    }
    Ok(moves)
}

/// Reads an STS `c0` (`"f5=10, Be5+=2"`). `Ok(None)` when the comment is not in that form
/// (every item one word, `=`, a number); an error when it is but a move is not legal here.
///
/// STS v3 lists a few moves twice with different points (`Rc8=1, Rc8=3`); the move gets the
/// larger value, as the later entry is in every such case in the suite.
fn read_points(position: &Position, comment: &str) -> Result<Option<Vec<(Move, u32)>>, String> {
    let mut entries = Vec::new();
    for item in comment.split(',') {
        let Some((move_text, points)) = item.trim().rsplit_once('=') else {
            return Ok(None);
        };
        let move_text = move_text.trim();
        let Ok(points) = points.trim().parse::<u32>() else {
            return Ok(None);
        };
        if move_text.is_empty() || move_text.contains(char::is_whitespace) {
            return Ok(None);
        }
        entries.push((move_text, points));
    }
    let mut points: Vec<(Move, u32)> = Vec::with_capacity(entries.len());
    for (move_text, value) in entries {
        let m = parse_move(position, move_text).map_err(|e| format!("c0: {e}"))?;
        match points.iter_mut().find(|(seen, _)| *seen == m) {
            Some((_, earlier)) => *earlier = (*earlier).max(value),
            None => points.push((m, value)),
        }
    }
    Ok(Some(points))
}

impl Expectation {
    /// Judges the chosen move and the score the search gave it.
    ///
    /// Solved means: a move was chosen, it is among `bm` when given, it is none of `am`, and
    /// for `dm N` the score announces a mate in N or fewer. A record with STS points and none
    /// of those is solved when the move earns the most points.
    pub fn judge(&self, chosen: Option<Move>, score: Value) -> Verdict {
        let points = (!self.points.is_empty()).then(|| self.points_for(chosen));
        let Some(chosen) = chosen else {
            return Verdict {
                solved: false,
                points,
            };
        };
        let solved = if self.best.is_empty() && self.avoid.is_empty() && self.mate.is_none() {
            points == Some(self.max_points())
        } else {
            (self.best.is_empty() || self.best.contains(&chosen))
                && !self.avoid.contains(&chosen)
                && self.mate.is_none_or(|limit| mates_within(score, limit))
        };
        Verdict { solved, points }
    }

    /// Points for the chosen move (0 when it is not listed).
    pub fn points_for(&self, chosen: Option<Move>) -> u32 {
        self.points
            .iter()
            .find(|&&(m, _)| Some(m) == chosen)
            .map_or(0, |&(_, p)| p)
    }

    /// The most points any move earns here (0 without STS points).
    pub fn max_points(&self) -> u32 {
        self.points.iter().map(|&(_, p)| p).max().unwrap_or(0)
    }

    /// What is expected, in SAN: `bm Qg6 Qh3; am Rd1; dm 3; c0 f5=10, Bf2=3`.
    pub fn describe(&self, position: &Position) -> String {
        let mut parts = Vec::new();
        if !self.best.is_empty() {
            parts.push(format!("bm {}", notation::san_list(position, &self.best)));
        }
        if !self.avoid.is_empty() {
            parts.push(format!("am {}", notation::san_list(position, &self.avoid)));
        }
        if let Some(moves) = self.mate {
            parts.push(format!("dm {moves}"));
        }
        if !self.points.is_empty() && self.best.is_empty() {
            let points: Vec<String> = self
                .points
                .iter()
                .map(|&(m, p)| format!("{}={p}", notation::san(position, m)))
                .collect();
            parts.push(format!("c0 {}", points.join(", ")));
        }
        parts.join("; ")
    }
}

/// Whether `score` announces a mate for the side to move in at most `limit` moves.
pub fn mates_within(score: Value, limit: u32) -> bool {
    mate_in_moves(score).is_some_and(|moves| moves > 0 && moves as u32 <= limit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::epd::record::parse_line;
    use brudno_engine::search::score::{mate_in, mated_in};

    fn task(line: &str) -> Result<Task, String> {
        let record = parse_line(line, 1).unwrap().unwrap();
        let position = record.position().unwrap();
        read_task(&record, &position)
    }

    fn expectation(line: &str) -> (Expectation, Position) {
        let record = parse_line(line, 1).unwrap().unwrap();
        let position = record.position().unwrap();
        match read_task(&record, &position) {
            Ok(Task::Search(e)) => (e, position),
            other => panic!("not a search test: {other:?}"),
        }
    }

    #[test]
    fn dm_judges_the_mate_distance() {
        let (e, p) = expectation("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - dm 1; id \"back rank\";");
        assert_eq!(e.mate, Some(1));
        let rd8 = parse_move(&p, "Rd8").unwrap();
        assert!(e.judge(Some(rd8), mate_in(1)).solved);
        assert!(!e.judge(Some(rd8), mate_in(3)).solved);
        assert!(!e.judge(Some(rd8), 500).solved);
        assert!(!e.judge(Some(rd8), mated_in(2)).solved);
        assert!(!e.judge(None, mate_in(1)).solved);
        assert!(mates_within(mate_in(5), 3));
        assert!(!mates_within(mate_in(7), 3));
    }

    #[test]
    fn sts_points_and_plain_comments() {
        let line = "1kr5/3n4/q3p2p/p2n2p1/PppB1P2/5BP1/1P2Q2P/3R2K1 w - - bm f5; \
                    c0 \"f5=10, Be5+=2, Bf2=3, Bg4=2\";";
        let (e, p) = expectation(line);
        assert_eq!(e.max_points(), 10);
        let bf2 = parse_move(&p, "Bf2").unwrap();
        let verdict = e.judge(Some(bf2), 0);
        assert_eq!(verdict.points, Some(3));
        assert!(!verdict.solved);
        assert_eq!(e.describe(&p), "bm f5");
        // Comments that are not points: a game source, a link with `=` in it.
        for comment in [
            "J. Polgar-Berkes, Budapest 2003",
            "Gaw Paw Sicilian: http://rybkaforum.net/topic_show.pl?tid=18253",
        ] {
            let (e, _) = expectation(&format!(
                "r1bq1r1k/p1pnbpp1/1p2p3/6p1/3PB3/5N2/PPPQ1PPP/2KR3R w - - bm g4; c0 \"{comment}\";"
            ));
            assert!(e.points.is_empty(), "{comment}");
        }
        // A move listed twice (as in STS v3) keeps the larger value.
        let (e, p) = expectation(
            "r3k2r/ppq2p1p/2n1p1p1/3pP3/5PP1/2P1Q3/PP2N2P/3R1RK1 b k - bm h5; \
             c0 \"h5=10, O-O=3, Qb6=1, Rc8=1, Rc8=3\";",
        );
        assert_eq!(e.points.len(), 4);
        assert_eq!(e.points_for(parse_move(&p, "Rc8").ok()), 3);
        assert_eq!(e.points_for(parse_move(&p, "0-0").ok()), 3);
    }

    #[test]
    fn perft_lines_and_records_without_a_test() {
        assert_eq!(
            task("8/8/8/8/8/8/8/K6k w - - ;D1 3 ;D2 9"),
            Ok(Task::Perft(2))
        );
        assert_eq!(task("8/8/8/8/8/8/8/K6k w - - id \"x\";"), Ok(Task::Nothing));
    }

    #[test]
    fn bad_operands_are_errors() {
        let fen = "4k3/8/8/8/8/8/8/1N2KN2 w - -";
        assert!(
            task(&format!("{fen} bm Nd2;"))
                .unwrap_err()
                .contains("ambiguous")
        );
        assert!(
            task(&format!("{fen} am Qd2;"))
                .unwrap_err()
                .contains("illegal")
        );
        assert!(task(&format!("{fen} dm 0;")).is_err());
        assert!(task(&format!("{fen} dm x;")).is_err());
        assert!(task(&format!("{fen} bm;")).is_err());
        assert!(task(&format!("{fen} c0 \"Qd2=10\";")).is_err());
    }
}
