//! The tolerant UCI parser: one input line in, one `Command` (plus warnings) out.
//!
//! It accepts what GUIs and people actually send: any whitespace between tokens, CRLF, a
//! byte-order mark, keywords and moves in any case, numbers out of range (clamped), negative
//! clocks (taken as zero), and unknown tokens (skipped with a warning). A `position` line it
//! cannot read is refused whole rather than guessed at. It never panics and never looks at
//! chess rules: moves and FENs stay text here and are checked by the loop against the
//! position they apply to.

/// Where a `position` command starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartPosition {
    /// The standard start position.
    StartPos,
    /// A FEN (its fields joined by single spaces).
    Fen(String),
}

/// The parameters of `go`, as given (times in milliseconds, negatives already clamped to 0).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    /// Root moves to restrict the search to, as text.
    pub searchmoves: Vec<String>,
    /// Start in pondering mode.
    pub ponder: bool,
    /// White's clock.
    pub wtime: Option<u64>,
    /// Black's clock.
    pub btime: Option<u64>,
    /// White's increment.
    pub winc: Option<u64>,
    /// Black's increment.
    pub binc: Option<u64>,
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// Depth limit in plies.
    pub depth: Option<u32>,
    /// Node limit.
    pub nodes: Option<u64>,
    /// Search for a mate in this many moves.
    pub mate: Option<u32>,
    /// Time for this move.
    pub movetime: Option<u64>,
    /// Search until stop.
    pub infinite: bool,
    /// `go perft N`: count the leaves of the move tree instead of searching.
    pub perft: Option<u32>,
}

/// One parsed input line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci`: identify and list the options.
    Uci,
    /// `debug on|off`.
    Debug(bool),
    /// `isready`: answer `readyok`.
    IsReady,
    /// `setoption name N [value V]`.
    SetOption {
        /// The option's name as written.
        name: String,
        /// The value, if one was given.
        value: Option<String>,
    },
    /// `register ...`: accepted and ignored.
    Register,
    /// `ucinewgame`.
    UciNewGame,
    /// `position startpos|fen F [moves m1 m2 ...]`.
    Position {
        /// The starting position.
        start: StartPosition,
        /// The moves to play from it, as text.
        moves: Vec<String>,
    },
    /// `go ...`.
    Go(GoParams),
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `quit`.
    Quit,
    /// `bench [depth]` (not UCI: a build check that OpenBench and people use).
    Bench(Option<u32>),
    /// `d`: show the current position (not UCI; Stockfish's debugging command).
    Display,
    /// An empty line: nothing to do.
    Empty,
    /// A line that is not a command; carries a message for `info string`.
    Unknown(String),
}

/// A command and the problems found in its line (each worth an `info string`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed {
    /// The command.
    pub command: Command,
    /// Warnings about parts of the line that were ignored or changed.
    pub warnings: Vec<String>,
}

/// Decodes raw input bytes: invalid UTF-8 becomes U+FFFD, a BOM and the line end are dropped.
pub fn decode_line(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    text.trim_start_matches('\u{feff}')
        .trim_end_matches(['\n', '\r'])
        .to_string()
}

/// Parses one line. Never fails: anything unusable becomes `Unknown` or a warning.
pub fn parse(line: &str) -> Parsed {
    let tokens: Vec<&str> = line
        .split(|c: char| c.is_whitespace() || c == '\u{feff}')
        .filter(|t| !t.is_empty())
        .collect();
    let mut warnings = Vec::new();
    let Some(first) = tokens.first() else {
        return Parsed {
            command: Command::Empty,
            warnings,
        };
    };
    let rest = &tokens[1..];
    let command = match first.to_ascii_lowercase().as_str() {
        "uci" => Command::Uci,
        "isready" => Command::IsReady,
        "ucinewgame" => Command::UciNewGame,
        "stop" => Command::Stop,
        "ponderhit" => Command::PonderHit,
        "quit" => Command::Quit,
        "register" => Command::Register,
        "d" => Command::Display,
        "debug" => match rest.first().map(|t| t.to_ascii_lowercase()) {
            Some(t) if t == "on" => Command::Debug(true),
            Some(t) if t == "off" => Command::Debug(false),
            _ => {
                warnings.push("debug expects 'on' or 'off'".to_string());
                Command::Empty
            }
        },
        "setoption" => parse_setoption(rest),
        "position" => parse_position(rest),
        "go" => Command::Go(parse_go(rest, &mut warnings)),
        "bench" => Command::Bench(
            rest.first()
                .and_then(|t| parse_number(t, "bench depth", 1, 64, &mut warnings))
                .map(|d| d as u32),
        ),
        _ => Command::Unknown(format!("unknown command '{}'", truncate(first))),
    };
    Parsed { command, warnings }
}

fn parse_setoption(rest: &[&str]) -> Command {
    if !rest.first().is_some_and(|t| t.eq_ignore_ascii_case("name")) {
        return Command::Unknown("setoption expects 'name <name> [value <value>]'".to_string());
    }
    let value_at = rest.iter().position(|t| t.eq_ignore_ascii_case("value"));
    let name_tokens = &rest[1..value_at.unwrap_or(rest.len())];
    if name_tokens.is_empty() {
        return Command::Unknown("setoption without an option name".to_string());
    }
    // `value` with nothing after it is no value: the option says what it needs.
    let value = value_at.map(|at| rest[at + 1..].join(" "));
    Command::SetOption {
        name: name_tokens.join(" "),
        value: value.filter(|v| !v.is_empty()),
    }
}

/// A `position` line that cannot be read is refused whole (`Unknown`): guessing what a wrong
/// line meant could set up a different game than the GUI's.
fn parse_position(rest: &[&str]) -> Command {
    let moves_at = rest.iter().position(|t| t.eq_ignore_ascii_case("moves"));
    let head = &rest[..moves_at.unwrap_or(rest.len())];
    let moves: Vec<String> = match moves_at {
        // Moves are lower case in UCI; some GUIs write the promotion piece in upper case.
        Some(at) => rest[at + 1..]
            .iter()
            .map(|m| m.to_ascii_lowercase())
            .collect(),
        None => Vec::new(),
    };
    let start = match head.first().map(|t| t.to_ascii_lowercase()).as_deref() {
        Some("startpos") if head.len() == 1 => StartPosition::StartPos,
        Some("startpos") => {
            return Command::Unknown(format!(
                "position startpos: unexpected '{}' (expected 'moves'); position unchanged",
                truncate(head[1])
            ));
        }
        Some("fen") if head.len() > 1 => StartPosition::Fen(head[1..].join(" ")),
        Some("fen") => {
            return Command::Unknown(
                "position fen: the FEN is missing; position unchanged".to_string(),
            );
        }
        _ => {
            return Command::Unknown(
                "position expects 'startpos' or 'fen <FEN>', then optionally 'moves ...'; \
                 position unchanged"
                    .to_string(),
            );
        }
    };
    Command::Position { start, moves }
}

/// The words `go` takes (a token among them ends the one before, such as `searchmoves`).
pub const GO_KEYWORDS: [&str; 13] = [
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
];

fn parse_go(rest: &[&str], warnings: &mut Vec<String>) -> GoParams {
    let mut go = GoParams::default();
    let mut i = 0;
    while i < rest.len() {
        let keyword = rest[i].to_ascii_lowercase();
        let value = rest.get(i + 1).copied();
        i += 1;
        let mut take = |name: &str, min: i128, max: i128| -> Option<i128> {
            match value {
                Some(v) if !is_go_keyword(v) => {
                    i += 1;
                    parse_number(v, name, min, max, warnings)
                }
                _ => {
                    warnings.push(format!("go: '{name}' without a number, ignored"));
                    None
                }
            }
        };
        const MAX_MS: i128 = u64::MAX as i128;
        match keyword.as_str() {
            "ponder" => go.ponder = true,
            "infinite" => go.infinite = true,
            "wtime" => go.wtime = take("wtime", 0, MAX_MS).map(|v| v as u64),
            "btime" => go.btime = take("btime", 0, MAX_MS).map(|v| v as u64),
            "winc" => go.winc = take("winc", 0, MAX_MS).map(|v| v as u64),
            "binc" => go.binc = take("binc", 0, MAX_MS).map(|v| v as u64),
            "movetime" => go.movetime = take("movetime", 0, MAX_MS).map(|v| v as u64),
            "nodes" => go.nodes = take("nodes", 0, MAX_MS).map(|v| v as u64),
            "movestogo" => go.movestogo = take("movestogo", 0, 10_000).map(|v| v as u32),
            // A search returns a move, so it searches at least one ply; a mate in 0 moves
            // cannot be searched for.
            "depth" => go.depth = take("depth", 1, 10_000).map(|v| v as u32),
            "mate" => go.mate = take("mate", 1, 10_000).map(|v| v as u32),
            "perft" => go.perft = take("perft", 0, 64).map(|v| v as u32),
            "searchmoves" => {
                while i < rest.len() && !is_go_keyword(rest[i]) {
                    go.searchmoves.push(rest[i].to_ascii_lowercase());
                    i += 1;
                }
            }
            _ => warnings.push(format!(
                "go: unknown token '{}' ignored",
                truncate(rest[i - 1])
            )),
        }
    }
    go
}

fn is_go_keyword(token: &str) -> bool {
    GO_KEYWORDS.iter().any(|k| k.eq_ignore_ascii_case(token))
}

/// Parses an integer (an optional sign, then decimal digits) and clamps it into `min..=max`;
/// text that is not a number gives a warning.
fn parse_number(
    text: &str,
    name: &str,
    min: i128,
    max: i128,
    warnings: &mut Vec<String>,
) -> Option<i128> {
    let (negative, all_digits) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    if all_digits.is_empty() || !all_digits.bytes().all(|b| b.is_ascii_digit()) {
        warnings.push(format!(
            "{name}: '{}' is not a number, ignored",
            truncate(text)
        ));
        return None;
    }
    // Too many digits to fit: saturate instead of failing.
    let value = all_digits.parse::<i128>().unwrap_or(i128::MAX);
    let value = if negative { -value } else { value };
    let clamped = value.clamp(min, max);
    if clamped != value {
        warnings.push(format!(
            "{name}: {} out of range, using {clamped}",
            truncate(text)
        ));
    }
    Some(clamped)
}

/// Shortens text quoted back to the user.
fn truncate(text: &str) -> String {
    const MAX: usize = 40;
    if text.chars().count() <= MAX {
        text.to_string()
    } else {
        text.chars().take(MAX).collect::<String>() + "..."
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(line: &str) -> Command {
        parse(line).command
    }

    #[test]
    fn simple_commands_any_case_and_spacing() {
        assert_eq!(cmd("uci"), Command::Uci);
        assert_eq!(cmd("  isready \r"), Command::IsReady);
        assert_eq!(cmd("\tQUIT"), Command::Quit);
        assert_eq!(cmd(""), Command::Empty);
        assert_eq!(cmd("debug on"), Command::Debug(true));
        assert!(matches!(cmd("xyzzy"), Command::Unknown(_)));
    }

    #[test]
    fn bom_and_invalid_utf8_are_tolerated() {
        assert_eq!(decode_line(b"\xef\xbb\xbfuci\r\n"), "uci");
        let line = decode_line(b"isready\xff\xfe\n");
        assert!(matches!(cmd(&line), Command::Unknown(_) | Command::IsReady));
        assert_eq!(cmd(&decode_line(b"\xef\xbb\xbf isready")), Command::IsReady);
    }

    #[test]
    fn position_with_fen_and_moves_and_double_spaces() {
        let parsed = cmd("position  fen 8/8/8/8/8/8/8/K6k w - - 0 1   moves  a1a2 h1h2");
        assert_eq!(
            parsed,
            Command::Position {
                start: StartPosition::Fen("8/8/8/8/8/8/8/K6k w - - 0 1".into()),
                moves: vec!["a1a2".into(), "h1h2".into()],
            }
        );
        assert!(matches!(cmd("position"), Command::Unknown(_)));
        assert!(matches!(cmd("position fen"), Command::Unknown(_)));
        assert_eq!(
            cmd("position startpos"),
            Command::Position {
                start: StartPosition::StartPos,
                moves: vec![]
            }
        );
    }

    #[test]
    fn go_with_every_parameter() {
        let Command::Go(go) = cmd(
            "go searchmoves e2e4 d2d4 ponder wtime 1000 btime 2000 winc 10 binc 20 movestogo 5 \
             depth 7 nodes 100 mate 3 movetime 50 infinite",
        ) else {
            panic!("not go");
        };
        assert_eq!(go.searchmoves, vec!["e2e4", "d2d4"]);
        assert!(go.ponder && go.infinite);
        assert_eq!(
            (go.wtime, go.btime, go.winc, go.binc),
            (Some(1000), Some(2000), Some(10), Some(20))
        );
        assert_eq!(
            (go.movestogo, go.depth, go.nodes, go.mate),
            (Some(5), Some(7), Some(100), Some(3))
        );
        assert_eq!(go.movetime, Some(50));
    }

    #[test]
    fn go_numbers_are_clamped_and_garbage_is_warned() {
        let parsed =
            parse("go wtime -500 depth 99999999999999999999999999999999999999999 nodes x ");
        let Command::Go(go) = parsed.command else {
            panic!("not go")
        };
        assert_eq!(go.wtime, Some(0));
        assert_eq!(go.depth, Some(10_000));
        assert_eq!(go.nodes, None);
        assert_eq!(parsed.warnings.len(), 3, "{:?}", parsed.warnings);
        // A keyword where a number should be is not swallowed.
        let Command::Go(go) = cmd("go depth infinite") else {
            panic!()
        };
        assert!(go.infinite);
        assert_eq!(go.depth, None);
        assert_eq!(cmd("go "), Command::Go(GoParams::default()));
    }

    #[test]
    fn unreadable_position_lines_are_refused_whole() {
        for line in [
            "position startpos e2e4",
            "position e2e4",
            "position fen",
            "position fen moves e2e4",
        ] {
            let Command::Unknown(message) = cmd(line) else {
                panic!("{line} was not refused");
            };
            assert!(message.contains("position unchanged"), "{message}");
        }
        assert_eq!(
            cmd("position startpos moves E2E4 e7E5 a7a8Q"),
            Command::Position {
                start: StartPosition::StartPos,
                moves: vec!["e2e4".into(), "e7e5".into(), "a7a8q".into()],
            }
        );
    }

    #[test]
    fn depth_and_mate_zero_become_one_and_signs_are_single() {
        let parsed = parse("go depth 0 mate 0 nodes +5 movetime --5 wtime +-5");
        let Command::Go(go) = parsed.command else {
            panic!("not go")
        };
        assert_eq!((go.depth, go.mate, go.nodes), (Some(1), Some(1), Some(5)));
        assert_eq!((go.movetime, go.wtime), (None, None));
        assert_eq!(parsed.warnings.len(), 4, "{:?}", parsed.warnings);
    }

    #[test]
    fn setoption_names_and_values_with_spaces() {
        assert_eq!(
            cmd("setoption name Move Overhead value 100"),
            Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("100".into())
            }
        );
        assert_eq!(
            cmd("setoption name Clear Hash"),
            Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            }
        );
        assert!(matches!(cmd("setoption"), Command::Unknown(_)));
        assert!(matches!(cmd("setoption name"), Command::Unknown(_)));
    }
}
