//! Fuzz targets for UCI input: one line through the parser (`uci/command.rs`) and what it sets,
//! and a whole session of lines through the engine's loop (`uci::run`).
//!
//! `line` checks the parser's promises: it never fails, numbers land in their ranges, moves
//! stay single lower-case tokens, and a refused `setoption` changes nothing. It then applies
//! the cheap parts as the loop would: the option to a fresh set of options, the position and
//! its moves to a fresh position.
//!
//! `session` runs the lines through the real loop and reads what the engine wrote: one
//! `bestmove` per `go`, one `readyok` per `isready`, `info string` lines short and printable.
//! So that a session costs milliseconds, it starts with a 1 MiB table, and a few lines are
//! changed before the loop sees them (docs/fuzzing.md): `bench` is dropped, `go perft` is
//! capped at depth 2, `Hash` at 2 MiB and `Threads` at 2, and a file-valued option names a
//! scratch file instead of the input's path (a book for `BookFile`, a corrupt network for
//! `EvalFile`, a folder without tables for `SyzygyPath`). Searches without a limit are
//! stopped by the next `go` or by the end of the session, as in a GUI.

use std::io::{Cursor, Write};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

use super::book;
use super::common::{scratch, write_fixture};
use crate::position::Position;
use crate::uci::command::{self, Command, StartPosition};
use crate::uci::options::{EMBEDDED_NET, NO_BOOK, Options};
use crate::uci::{self as protocol, MAX_INFO_STRING_CHARS, Output};

/// The most lines of one session.
const MAX_LINES: usize = 64;
/// The most moves of one `position` line that `line` plays.
const MAX_MOVES: usize = 1024;

/// Reads the input as one UCI line.
pub fn line(data: &[u8]) {
    let line = command::decode_line(data);
    let parsed = command::parse(&line);
    // The parser's tokens: a byte-order mark inside the line separates them too.
    let tokens = line
        .split(|c: char| c.is_whitespace() || c == '\u{feff}')
        .filter(|t| !t.is_empty())
        .count();
    assert!(
        parsed.warnings.len() <= tokens + 1,
        "{} warnings for {tokens} tokens",
        parsed.warnings.len()
    );
    match parsed.command {
        Command::Go(go) => {
            assert!(go.depth.is_none_or(|d| (1..=10_000).contains(&d)));
            assert!(go.mate.is_none_or(|m| (1..=10_000).contains(&m)));
            assert!(go.movestogo.is_none_or(|m| m <= 10_000));
            assert!(go.perft.is_none_or(|p| p <= 64));
            for m in &go.searchmoves {
                assert_single_lower_token(m);
            }
        }
        Command::Position { start, moves } => {
            for m in &moves {
                assert_single_lower_token(m);
            }
            let chess960 = line.len() % 2 == 1;
            let position = match &start {
                StartPosition::StartPos => Some(Position::default()),
                StartPosition::Fen(fen) => Position::from_fen(fen, chess960).ok(),
            };
            if let Some(mut position) = position {
                for m in moves.iter().take(MAX_MOVES) {
                    if position.play_uci(m).is_err() {
                        break;
                    }
                }
                assert_eq!(position.key(), position.full_key());
            }
        }
        Command::SetOption { name, value } => {
            assert!(!name.trim().is_empty());
            let mut options = Options::default();
            match options.set(&name, value.as_deref()) {
                Ok(change) => {
                    assert!(options.hash_mib >= 1 && options.threads >= 1);
                    assert!(options.multipv >= 1);
                    let _ = change;
                }
                Err(message) => {
                    assert!(!message.is_empty());
                    assert_eq!(options, Options::default(), "a refused option changed");
                }
            }
        }
        Command::Unknown(message) => assert!(!message.is_empty()),
        _ => {}
    }
}

fn assert_single_lower_token(text: &str) {
    assert!(
        !text.is_empty() && !text.contains(char::is_whitespace),
        "'{text}'"
    );
    assert!(!text.bytes().any(|b| b.is_ascii_uppercase()), "'{text}'");
}

/// The engine's output, shared with the loop's writer.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The scratch files that file-valued options are pointed at.
struct Files {
    book: PathBuf,
    network: PathBuf,
    tables: PathBuf,
}

fn files() -> &'static Files {
    static FILES: OnceLock<Files> = OnceLock::new();
    FILES.get_or_init(|| {
        let folder = scratch().join("session");
        let _ = std::fs::create_dir_all(&folder);
        let files = Files {
            book: folder.join("book.bin"),
            network: folder.join("corrupt.nnue"),
            tables: folder.clone(),
        };
        write_fixture(&files.book, &book::seed_book());
        write_fixture(&files.network, b"BRUDNNUE but not a network");
        files
    })
}

/// What the session filter made of the input, and what the engine must answer.
#[derive(Default)]
struct Session {
    input: Vec<u8>,
    /// `go` commands that are searches (every one gets a `bestmove`).
    searches: usize,
    /// `isready` commands.
    readies: usize,
    /// Whether a `quit` ends the session (the last search then has 50 ms to answer).
    quit: bool,
}

impl Session {
    fn push(&mut self, line: &[u8]) {
        self.input.extend_from_slice(line);
        self.input.push(b'\n');
    }
}

/// The line the loop gets for `raw` (see the module's description); `None` to drop it.
fn filter(raw: &[u8], session: &mut Session) -> Option<Vec<u8>> {
    let parsed = command::parse(&command::decode_line(raw));
    let rewritten = match parsed.command {
        Command::Bench(_) => return None,
        Command::Quit => {
            session.quit = true;
            return Some(raw.to_vec());
        }
        Command::IsReady => {
            session.readies += 1;
            return Some(raw.to_vec());
        }
        Command::Go(go) => match go.perft {
            Some(depth) => format!("go perft {}", depth.min(2)),
            None => {
                session.searches += 1;
                return Some(raw.to_vec());
            }
        },
        Command::SetOption { name, value } => {
            let name = name.trim().to_ascii_lowercase();
            let files = files();
            let point =
                |path: &std::path::Path| format!("setoption name {name} value {}", path.display());
            let default = |defaults: &[&str]| {
                value
                    .as_deref()
                    .is_none_or(|v| defaults.iter().any(|d| v.trim() == *d))
            };
            match name.as_str() {
                "hash" | "threads" => {
                    // What the option would become, capped; a refused value stays as sent.
                    let mut options = Options::default();
                    if options.set(&name, value.as_deref()).is_err() {
                        return Some(raw.to_vec());
                    }
                    let wanted = if name == "hash" {
                        options.hash_mib
                    } else {
                        options.threads
                    };
                    format!("setoption name {name} value {}", wanted.min(2))
                }
                "bookfile" if !default(&["", NO_BOOK]) => point(&files.book),
                "evalfile" if !default(&["", EMBEDDED_NET]) => point(&files.network),
                "syzygypath" if !default(&["", "<empty>"]) => point(&files.tables),
                _ => return Some(raw.to_vec()),
            }
        }
        _ => return Some(raw.to_vec()),
    };
    Some(rewritten.into_bytes())
}

/// Runs the input, one line per `\n`, through the engine's loop.
pub fn session(data: &[u8]) {
    let mut session = Session::default();
    session.push(b"setoption name Hash value 1");
    for raw in data.split(|&b| b == b'\n').take(MAX_LINES) {
        if let Some(line) = filter(raw, &mut session) {
            session.push(&line);
            if session.quit {
                break;
            }
        }
    }
    let captured = Captured::default();
    protocol::run(
        Cursor::new(std::mem::take(&mut session.input)),
        Output::new(Box::new(captured.clone())),
    );
    let output = captured
        .0
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .clone();
    let output = String::from_utf8(output).unwrap_or_else(|e| panic!("output not UTF-8: {e}"));
    let count = |prefix: &str| output.lines().filter(|l| l.starts_with(prefix)).count();
    let (bestmoves, readyoks) = (count("bestmove "), count("readyok"));
    if session.quit {
        assert!(bestmoves <= session.searches, "{output}");
    } else {
        assert_eq!(
            bestmoves, session.searches,
            "one bestmove per go:\n{output}"
        );
    }
    assert_eq!(
        readyoks, session.readies,
        "one readyok per isready:\n{output}"
    );
    for line in output.lines() {
        if let Some(note) = line.strip_prefix("info string ") {
            assert!(note.chars().count() <= MAX_INFO_STRING_CHARS + 3, "{line}");
            assert!(!note.chars().any(char::is_control), "{line}");
        }
        if let Some(answer) = line.strip_prefix("bestmove ") {
            let first = answer.split(' ').next().unwrap_or("");
            assert!(
                first == "(none)" || (4..=5).contains(&first.len()),
                "{line}"
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_session_answers_every_go_and_isready() {
        session(b"uci\nisready\nposition startpos moves e2e4\ngo depth 2\nisready\ngo perft 9\n");
    }
}
