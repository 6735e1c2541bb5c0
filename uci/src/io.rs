//! The loop's input and output: one locked writer that writes whole lines (so the reader's
//! answers and the search thread's `info` lines never interleave), with `info string` texts
//! made printable and cut to `MAX_INFO_STRING_CHARS`; and the reading of one input line of at
//! most `MAX_LINE_BYTES`, whatever bytes it holds.

use std::io::{BufRead, ErrorKind, Write};
use std::sync::{Arc, Mutex};

/// The longest input line read, in bytes (8 MiB: about 1.6 million moves in one `position`).
/// A longer line is skipped whole with an `info string`, so that endless input without a line
/// end cannot exhaust memory.
pub const MAX_LINE_BYTES: usize = 8 << 20;

/// The longest `info string` text written, in characters; longer messages are cut with `...`.
pub const MAX_INFO_STRING_CHARS: usize = 400;

/// A line-oriented, thread-safe writer: every call writes one whole line and flushes.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    /// Wraps a writer (stdout in the engine, a buffer in tests).
    pub fn new(writer: Box<dyn Write + Send>) -> Self {
        Self(Arc::new(Mutex::new(writer)))
    }

    /// Writes one line. A closed pipe is ignored: the reader decides when the engine quits.
    pub fn line(&self, text: &str) {
        let mut writer = self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let _ = writer.write_all(text.as_bytes());
        let _ = writer.write_all(b"\n");
        let _ = writer.flush();
    }

    /// Writes `text` as one `info string` line: line breaks and other control characters
    /// become spaces and `?`, and text longer than `MAX_INFO_STRING_CHARS` is cut, so that
    /// whatever a user sent cannot break the protocol when it is quoted back.
    pub fn info_string(&self, text: &str) {
        self.line(&format!("info string {}", printable(text)));
    }
}

/// `text` on one line, without control characters, at most `MAX_INFO_STRING_CHARS` long.
fn printable(text: &str) -> String {
    let mut clean = String::with_capacity(text.len().min(MAX_INFO_STRING_CHARS + 3));
    for (count, c) in text.trim().chars().enumerate() {
        if count == MAX_INFO_STRING_CHARS {
            clean.push_str("...");
            break;
        }
        clean.push(match c {
            '\n' | '\r' | '\t' => ' ',
            c if c.is_control() => '?',
            c => c,
        });
    }
    clean
}

/// What reading one line gave.
pub(super) enum LineRead {
    /// A line (without its end), possibly the last one without a line end.
    Line,
    /// A line longer than `MAX_LINE_BYTES`, skipped; its length in bytes.
    TooLong(usize),
    /// The end of input (or an input error, which ends the session the same way).
    End,
}

/// Reads one line into `bytes`, keeping at most `MAX_LINE_BYTES` of it in memory.
pub(super) fn read_line(input: &mut impl BufRead, bytes: &mut Vec<u8>) -> LineRead {
    bytes.clear();
    let mut length = 0usize;
    loop {
        let available = match input.fill_buf() {
            Ok(available) => available,
            Err(error) if error.kind() == ErrorKind::Interrupted => continue,
            Err(_) => return LineRead::End,
        };
        if available.is_empty() {
            return match length {
                0 => LineRead::End,
                n if n > MAX_LINE_BYTES => LineRead::TooLong(n),
                _ => LineRead::Line,
            };
        }
        let (chunk, found_end) = match available.iter().position(|&b| b == b'\n') {
            Some(at) => (&available[..at], true),
            None => (available, false),
        };
        if length + chunk.len() <= MAX_LINE_BYTES {
            bytes.extend_from_slice(chunk);
        } else {
            bytes.clear();
        }
        length += chunk.len();
        let used = chunk.len() + usize::from(found_end);
        input.consume(used);
        if found_end {
            return if length > MAX_LINE_BYTES {
                LineRead::TooLong(length)
            } else {
                LineRead::Line
            };
        }
    }
}
