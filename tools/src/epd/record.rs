//! EPD records: the four position fields and the operations that follow (`bm`, `id`, `D1`...).
//!
//! shakmaty reads the position fields; this module splits the operations off: semicolon
//! separated, each an opcode and its operands, where a double-quoted operand may contain
//! spaces and semicolons. Many published files append the FEN's halfmove and fullmove clocks
//! after the four fields; two bare numbers there are read as those clocks (an opcode never
//! starts with a digit). Parsing is line by line and never fatal: a bad line is an error value
//! naming the problem, for the caller to report with its line number. This module knows
//! nothing about what the operations mean; `expect.rs` does.

use brudno_engine::position::Position;

/// One operation: `bm Qxf7+ Nd5` is opcode `bm` with operands `["Qxf7+", "Nd5"]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operation {
    /// The opcode, as written.
    pub opcode: String,
    /// The operands, quotes removed.
    pub operands: Vec<String>,
}

/// A parsed EPD line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpdRecord {
    /// 1-based line number in its file.
    pub line: usize,
    /// The four position fields, space separated.
    pub fields: String,
    /// Halfmove and fullmove clocks written after the fields, FEN style, if any.
    pub clocks: Option<(u32, u32)>,
    /// The operations in file order.
    pub operations: Vec<Operation>,
}

impl EpdRecord {
    /// The operands of the first operation with this opcode (case-sensitive, as EPD is).
    pub fn operands(&self, opcode: &str) -> Option<&[String]> {
        self.operations
            .iter()
            .find(|op| op.opcode == opcode)
            .map(|op| op.operands.as_slice())
    }

    /// The first operand of `opcode`, if present.
    pub fn first(&self, opcode: &str) -> Option<&str> {
        self.operands(opcode)?.first().map(String::as_str)
    }

    /// The record's `id`, or `line N` when it has none.
    pub fn id(&self) -> String {
        self.first("id")
            .map_or_else(|| format!("line {}", self.line), str::to_string)
    }

    /// A full FEN: the four fields plus the clocks, taken from the FEN-style numbers after
    /// the fields, else from the `hmvc` and `fmvn` operations, else `0 1`.
    pub fn fen(&self) -> String {
        if let Some((halfmoves, fullmoves)) = self.clocks {
            return format!("{} {halfmoves} {fullmoves}", self.fields);
        }
        let halfmoves = self.first("hmvc").unwrap_or("0");
        let fullmoves = self.first("fmvn").unwrap_or("1");
        format!("{} {halfmoves} {fullmoves}", self.fields)
    }

    /// The position, with Chess960 castling when the rights say so.
    pub fn position(&self) -> Result<Position, String> {
        Position::from_fen(&self.fen(), false).map_err(|e| e.to_string())
    }
}

/// Parses one line. `Ok(None)` for a blank line or a `#` comment.
pub fn parse_line(text: &str, line: usize) -> Result<Option<EpdRecord>, String> {
    let text = text.trim_start_matches('\u{feff}').trim();
    if text.is_empty() || text.starts_with('#') {
        return Ok(None);
    }
    let mut rest = text;
    let mut fields = Vec::with_capacity(4);
    for _ in 0..4 {
        rest = rest.trim_start();
        let end = rest
            .find(|c: char| c.is_whitespace() || c == ';')
            .unwrap_or(rest.len());
        if end == 0 {
            return Err(format!(
                "expected 4 position fields (board, side, castling, en passant), found {}",
                fields.len()
            ));
        }
        fields.push(&rest[..end]);
        rest = &rest[end..];
    }
    let (clocks, rest) = split_clocks(rest);
    let operations = parse_operations(rest)?;
    Ok(Some(EpdRecord {
        line,
        fields: fields.join(" "),
        clocks,
        operations,
    }))
}

/// Splits FEN-style clocks (`0 1`) off the start of the operations, if two numbers are there.
fn split_clocks(text: &str) -> (Option<(u32, u32)>, &str) {
    let mut rest = text.trim_start();
    let mut numbers = [0u32; 2];
    for number in &mut numbers {
        let end = rest
            .find(|c: char| c.is_whitespace() || c == ';')
            .unwrap_or(rest.len());
        match rest[..end].parse() {
            Ok(value) if end > 0 => *number = value,
            _ => return (None, text),
        }
        rest = rest[end..].trim_start();
    }
    (Some((numbers[0], numbers[1])), rest)
}

fn parse_operations(text: &str) -> Result<Vec<Operation>, String> {
    let mut operations = Vec::new();
    let mut tokens: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut in_quotes = false;
    let mut quoted = false;
    let finish_token = |current: &mut String, quoted: &mut bool, tokens: &mut Vec<String>| {
        if !current.is_empty() || *quoted {
            tokens.push(std::mem::take(current));
        }
        *quoted = false;
    };
    for c in text.chars() {
        match c {
            '"' => {
                in_quotes = !in_quotes;
                quoted = true;
            }
            ';' if !in_quotes => {
                finish_token(&mut current, &mut quoted, &mut tokens);
                push_operation(&mut tokens, &mut operations);
            }
            c if c.is_whitespace() && !in_quotes => {
                finish_token(&mut current, &mut quoted, &mut tokens);
            }
            c => current.push(c),
        }
    }
    if in_quotes {
        return Err("unterminated quoted string".to_string());
    }
    finish_token(&mut current, &mut quoted, &mut tokens);
    push_operation(&mut tokens, &mut operations);
    Ok(operations)
}

fn push_operation(tokens: &mut Vec<String>, operations: &mut Vec<Operation>) {
    if tokens.is_empty() {
        return;
    }
    let mut drained = tokens.drain(..);
    let opcode = drained.next().unwrap_or_default();
    operations.push(Operation {
        opcode,
        operands: drained.collect(),
    });
}

/// Parses a whole file's text; each bad line becomes an error naming its line number.
pub fn parse_text(text: &str) -> (Vec<EpdRecord>, Vec<String>) {
    let mut records = Vec::new();
    let mut errors = Vec::new();
    for (index, line) in text.lines().enumerate() {
        match parse_line(line, index + 1) {
            Ok(Some(record)) => records.push(record),
            Ok(None) => {}
            Err(message) => errors.push(format!("line {}: {message}", index + 1)),
        }
    }
    (records, errors)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operations_with_quotes_and_semicolons() {
        let record = parse_line(
            r#"2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6 Qh3; id "WAC; 001"; c0 "Rxf4=10, Qe2=5";"#,
            7,
        )
        .unwrap()
        .unwrap();
        assert_eq!(record.line, 7);
        assert_eq!(record.operands("bm").unwrap(), ["Qg6", "Qh3"]);
        assert_eq!(record.id(), "WAC; 001");
        assert_eq!(record.first("c0"), Some("Rxf4=10, Qe2=5"));
        assert!(record.position().is_ok());
    }

    #[test]
    fn perft_operations_and_clocks() {
        let record = parse_line("8/8/8/8/8/8/8/K6k w - - ;D1 3 ;D2 9; hmvc 12", 1)
            .unwrap()
            .unwrap();
        assert_eq!(record.first("D2"), Some("9"));
        assert_eq!(record.fen(), "8/8/8/8/8/8/8/K6k w - - 12 1");
    }

    #[test]
    fn fen_clocks_after_the_fields() {
        let record = parse_line("8/8/8/8/8/8/8/K6k w - - 3 40 bm Kb2; id \"x\";", 1)
            .unwrap()
            .unwrap();
        assert_eq!(record.clocks, Some((3, 40)));
        assert_eq!(record.fen(), "8/8/8/8/8/8/8/K6k w - - 3 40");
        assert_eq!(record.first("bm"), Some("Kb2"));
        // A single number is not a pair of clocks: it stays an (odd) operation.
        let record = parse_line("8/8/8/8/8/8/8/K6k w - - 3 bm Kb2;", 1)
            .unwrap()
            .unwrap();
        assert_eq!(record.clocks, None);
        assert_eq!(record.operations[0].opcode, "3");
    }

    #[test]
    fn bad_lines_are_errors_blank_lines_are_skipped() {
        assert_eq!(parse_line("   ", 1), Ok(None));
        assert_eq!(parse_line("# comment", 1), Ok(None));
        assert!(parse_line("8/8/8/8 w", 1).is_err());
        assert!(parse_line("8/8/8/8/8/8/8/K6k w - - id \"open", 1).is_err());
        let (records, errors) = parse_text("8/8/8/8/8/8/8/K6k w - - id \"a\";\nnonsense\n");
        assert_eq!(records.len(), 1);
        assert_eq!(errors.len(), 1);
        assert!(errors[0].starts_with("line 2:"));
    }
}
