//! Property-based tests of the UCI front end (issue 7): random token soups and random
//! valid-looking command sequences, fed to the parser and to the whole loop running in this
//! process. Whatever comes in, the parser and the loop do not panic, every `go` gets exactly
//! one `bestmove`, every `bestmove` is legal in the position its `go` searched, every
//! `isready` gets its `readyok`, and no input line draws more than one `info string`.

use crate::common;

use brudno::position::Position;
use brudno::uci::command::{Command, GO_KEYWORDS, GoParams, StartPosition, decode_line, parse};
use proptest::prelude::*;
use proptest::sample::select;

/// Longest message the parser may produce, whatever it quotes back.
const MAX_MESSAGE_CHARS: usize = 200;

/// Separators that must all read as a single space.
const SEPARATORS: [&str; 6] = [" ", "  ", "\t", " \t ", "\u{feff}", "\u{a0}"];

/// Words of the protocol and of positions; the `go` keywords come from the parser's own list.
const BASE_WORDS: [&str; 27] = [
    "uci",
    "isready",
    "ucinewgame",
    "position",
    "startpos",
    "fen",
    "moves",
    "go",
    "stop",
    "ponderhit",
    "quit",
    "setoption",
    "name",
    "value",
    "debug",
    "on",
    "off",
    "register",
    "Hash",
    "e2e4",
    "e7e8q",
    "0000",
    "-",
    "w",
    "KQkq",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
    "\u{fffd}",
];

/// Every word of the soup: `BASE_WORDS` and the parser's `GO_KEYWORDS`.
fn words() -> Vec<&'static str> {
    BASE_WORDS
        .iter()
        .chain(GO_KEYWORDS.iter())
        .copied()
        .collect()
}

/// Every first word that is a command (the rest are unknown commands).
const COMMANDS: [&str; 13] = [
    "uci",
    "debug",
    "isready",
    "setoption",
    "register",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
    "bench",
    "d",
];

/// One token of a soup: a protocol word in any case, a number of any size, or anything.
fn soup_token() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => (select(words()), any::<bool>())
            .prop_map(|(w, upper)| if upper { w.to_uppercase() } else { w.to_string() }),
        2 => any::<i128>().prop_map(|n| n.to_string()),
        1 => any::<u64>().prop_map(|n| format!("+{n}")),
        2 => "[^\\s]{1,12}",
    ]
}

/// A line of tokens joined by random whitespace.
fn soup_line() -> impl Strategy<Value = String> {
    prop::collection::vec((soup_token(), select(SEPARATORS.to_vec())), 0..24).prop_map(|tokens| {
        tokens
            .into_iter()
            .map(|(token, separator)| format!("{separator}{token}"))
            .collect()
    })
}

fn message_is_short(message: &str) {
    assert!(
        message.chars().count() <= MAX_MESSAGE_CHARS,
        "{} chars: {message}",
        message.chars().count()
    );
}

/// `go` parameters in their valid ranges, with the words to write them.
fn go_params() -> impl Strategy<Value = (GoParams, Vec<Vec<String>>)> {
    let clock = proptest::option::of(0u64..=u64::MAX);
    (
        (
            clock.clone(),
            clock.clone(),
            clock.clone(),
            clock.clone(),
            clock,
        ),
        (
            proptest::option::of(1u32..=10_000),
            proptest::option::of(1u32..=10_000),
            proptest::option::of(any::<u64>()),
            proptest::option::of(1u32..=10_000),
            proptest::option::of(0u32..=64),
        ),
        (any::<bool>(), any::<bool>()),
        prop::collection::vec(select(vec!["e2e4", "g1f3", "e7e8q", "e1h1", "a7a8n"]), 0..4),
    )
        .prop_map(
            |(
                (wtime, btime, winc, binc, movetime),
                (movestogo, depth, nodes, mate, perft),
                (ponder, infinite),
                moves,
            )| {
                let params = GoParams {
                    searchmoves: moves.iter().map(|m| m.to_string()).collect(),
                    ponder,
                    wtime,
                    btime,
                    winc,
                    binc,
                    movestogo,
                    depth,
                    nodes,
                    mate,
                    movetime,
                    infinite,
                    perft,
                };
                let mut groups: Vec<Vec<String>> = Vec::new();
                let mut number = |name: &str, value: Option<String>| {
                    if let Some(value) = value {
                        groups.push(vec![name.to_string(), value]);
                    }
                };
                number("wtime", wtime.map(|v| v.to_string()));
                number("btime", btime.map(|v| v.to_string()));
                number("winc", winc.map(|v| v.to_string()));
                number("binc", binc.map(|v| v.to_string()));
                number("movetime", movetime.map(|v| v.to_string()));
                number("movestogo", movestogo.map(|v| v.to_string()));
                number("depth", depth.map(|v| v.to_string()));
                number("nodes", nodes.map(|v| v.to_string()));
                number("mate", mate.map(|v| v.to_string()));
                number("perft", perft.map(|v| v.to_string()));
                if ponder {
                    groups.push(vec!["ponder".to_string()]);
                }
                if infinite {
                    groups.push(vec!["infinite".to_string()]);
                }
                if !moves.is_empty() {
                    let mut group = vec!["searchmoves".to_string()];
                    group.extend(moves.iter().map(|m| m.to_string()));
                    groups.push(group);
                }
                (params, groups)
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Any bytes of a line decode to one line, without its end or a byte-order mark, and
    /// parse without a panic into messages a user can read.
    #[test]
    fn any_bytes_decode_and_parse(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let bytes: Vec<u8> = bytes.into_iter().filter(|&b| b != b'\n').collect();
        let line = decode_line(&bytes);
        prop_assert!(!line.contains('\n'));
        let bom = '\u{feff}';
        prop_assert!(!line.starts_with(bom));
        prop_assert!(!line.ends_with('\r'));
        let parsed = parse(&line);
        for warning in &parsed.warnings {
            message_is_short(warning);
        }
    }

    /// A soup of protocol words, numbers and junk: no panic, the first word decides the
    /// command, and every message is short whatever it quotes.
    #[test]
    fn token_soup_parses(line in soup_line()) {
        let parsed = parse(&line);
        for warning in &parsed.warnings {
            message_is_short(warning);
        }
        if let Command::Unknown(message) = &parsed.command {
            message_is_short(message);
        }
        let first = line
            .split(|c: char| c.is_whitespace() || c == '\u{feff}')
            .find(|t| !t.is_empty())
            .map(str::to_ascii_lowercase);
        let kind_ok = match first.as_deref() {
            None => parsed.command == Command::Empty,
            Some("go") => matches!(parsed.command, Command::Go(_)),
            Some("isready") => parsed.command == Command::IsReady,
            Some("stop") => parsed.command == Command::Stop,
            Some("quit") => parsed.command == Command::Quit,
            Some("uci") => parsed.command == Command::Uci,
            Some("position") => matches!(parsed.command, Command::Position { .. } | Command::Unknown(_)),
            Some("setoption") => matches!(parsed.command, Command::SetOption { .. } | Command::Unknown(_)),
            Some(word) if !COMMANDS.contains(&word) => {
                matches!(parsed.command, Command::Unknown(_))
            }
            Some(_) => true,
        };
        prop_assert!(kind_ok, "{line:?} -> {:?}", parsed.command);
    }

    /// Valid `go` parameters written in any order, case and spacing read back exactly,
    /// without warnings.
    #[test]
    fn go_round_trips(
        (params, mut groups) in go_params(),
        order in any::<u64>(),
        upper in any::<bool>(),
        separator in select(SEPARATORS.to_vec()),
    ) {
        // Shuffle the groups (searchmoves may come anywhere: it stops at the next keyword).
        let len = groups.len().max(1);
        groups.rotate_left(order as usize % len);
        if order % 2 == 1 {
            groups.reverse();
        }
        let mut line = String::from(if upper { "GO" } else { "go" });
        for group in &groups {
            for (index, word) in group.iter().enumerate() {
                line.push_str(separator);
                line.push_str(&if upper && index == 0 { word.to_uppercase() } else { word.clone() });
            }
        }
        let parsed = parse(&line);
        prop_assert_eq!(parsed.warnings, Vec::<String>::new(), "{}", line);
        prop_assert_eq!(parsed.command, Command::Go(params), "{}", line);
    }

    /// Any integer, however large or negative, is clamped into the parameter's range, with a
    /// warning exactly when it was out of range.
    #[test]
    fn numbers_are_clamped(value in any::<i128>(), extra_digits in 0usize..30) {
        let text = format!("{value}{}", "0".repeat(extra_digits));
        let exact: Option<i128> = text.parse().ok();
        let parsed = parse(&format!("go wtime {text} depth {text}"));
        let Command::Go(go) = parsed.command else { panic!("not go") };
        let (wtime, depth) = match exact {
            Some(v) => (v.clamp(0, u64::MAX as i128), v.clamp(1, 10_000)),
            // Beyond i128: saturates.
            None if value < 0 => (0, 1),
            None => (u64::MAX as i128, 10_000),
        };
        prop_assert_eq!(go.wtime, Some(wtime as u64));
        prop_assert_eq!(go.depth, Some(depth as u32));
        let wtime_warned = exact != Some(wtime);
        let depth_warned = exact != Some(depth);
        prop_assert_eq!(parsed.warnings.len(), usize::from(wtime_warned) + usize::from(depth_warned));
    }

    /// `setoption` keeps names and values with spaces, in any spacing.
    #[test]
    fn setoption_round_trips(
        name in prop::collection::vec("[A-Za-z_][A-Za-z0-9_]{0,8}", 1..4),
        value in proptest::option::of(prop::collection::vec("[^\\s]{1,8}", 1..4)),
        separator in select(SEPARATORS.to_vec()),
    ) {
        let keyword = |w: &String| w.eq_ignore_ascii_case("name") || w.eq_ignore_ascii_case("value");
        prop_assume!(!name.iter().any(keyword));
        prop_assume!(!value.iter().flatten().any(|w| w.contains('\u{feff}') || w.chars().any(char::is_whitespace)));
        let mut line = format!("setoption{separator}name{separator}{}", name.join(separator));
        if let Some(value) = &value {
            line.push_str(&format!("{separator}value{separator}{}", value.join(separator)));
        }
        prop_assert_eq!(
            parse(&line).command,
            Command::SetOption { name: name.join(" "), value: value.map(|v| v.join(" ")) },
            "{}", line
        );
    }

    /// `position` keeps the FEN's fields and the moves (in lower case) in any spacing.
    #[test]
    fn position_round_trips(
        fen in proptest::option::of(prop::collection::vec("[1-8kqrbnpKQRBNP/wb-]{1,12}", 1..7)),
        moves in proptest::option::of(prop::collection::vec("[a-hA-H][1-8][a-hA-H][1-8][qrbnQRBN]?", 0..30)),
        separator in select(SEPARATORS.to_vec()),
    ) {
        let mut line = String::from("position");
        let start = match &fen {
            Some(fields) => {
                line.push_str(&format!("{separator}fen{separator}{}", fields.join(separator)));
                StartPosition::Fen(fields.join(" "))
            }
            None => {
                line.push_str(&format!("{separator}startpos"));
                StartPosition::StartPos
            }
        };
        if let Some(moves) = &moves {
            line.push_str(&format!("{separator}moves"));
            for m in moves {
                line.push_str(separator);
                line.push_str(m);
            }
        }
        let expected_moves: Vec<String> =
            moves.unwrap_or_default().iter().map(|m| m.to_ascii_lowercase()).collect();
        prop_assert_eq!(
            parse(&line).command,
            Command::Position { start, moves: expected_moves },
            "{}", line
        );
    }
}

// ---------------------------------------------------------------------------------------
// The loop: random sessions through `uci::run` in this process, checked against a model
// that knows which position each `go` searched.
// ---------------------------------------------------------------------------------------

/// Positions sessions start from: the start, middlegames with castling and en passant, a
/// checkmate and a stalemate (where `bestmove 0000` is the answer).
const FENS: [&str; 6] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "7k/7P/6K1/8/3B4/8/8/8 b - - 0 1",
    "8/8/8/8/8/6k1/6p1/6K1 w - - 0 1",
];

/// FENs every engine must refuse.
const BAD_FENS: [&str; 6] = [
    "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "8/8/8/8/8/8/8/7K w - - 0 1",
    "k6R/8/8/8/8/8/8/7K w - - 0 1",
    "k7/8/8/8/8/8/8/P6K w - - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
];

/// One step of a session.
#[derive(Clone, Debug)]
enum Step {
    /// A valid position: a FEN from `FENS` (or startpos) and `plies` random legal moves.
    Position {
        fen: Option<usize>,
        plies: usize,
        seed: u64,
    },
    /// A position line that must be refused: a valid one with a bad move, or a bad FEN.
    BadPosition {
        fen: usize,
        bad: &'static str,
        seed: u64,
    },
    /// A `go` line (never `perft`, which has no bestmove).
    Go(&'static str),
    /// `go perft 1`: not a search, no bestmove, but it ends a running search.
    Perft,
    /// `d`: shows the engine's current position, which must be the model's.
    Display,
    /// A line passed as is.
    Plain(&'static str),
    /// A line of random words.
    Soup(String),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        3 => (proptest::option::of(0..FENS.len()), 0usize..12, any::<u64>())
            .prop_map(|(fen, plies, seed)| Step::Position { fen, plies, seed }),
        1 => (0..BAD_FENS.len() + 1, select(vec!["e2e5", "a1a1", "0000", "h9h9", "e7e8k"]), any::<u64>())
            .prop_map(|(fen, bad, seed)| Step::BadPosition { fen, bad, seed }),
        5 => select(vec![
            "go depth 1", "go depth 3", "go nodes 1", "go nodes 2000", "go movetime 0",
            "go movetime 3", "go wtime 30 btime 30", "go wtime 0 btime 0 winc 0 binc 0",
            "go wtime 100 btime 100 winc 10 binc 10 movestogo 1", "go infinite", "go",
            "go ponder wtime 50 btime 50", "go ponder", "go mate 1 depth 3",
            "go searchmoves e2e4 a1a1 d7d5 depth 2", "go depth 0", "go nodes 0",
            "go wtime -5 btime -5", "go movestogo 0 wtime 20 btime 20",
            "go depth 99999999999999999999999",
        ]).prop_map(Step::Go),
        1 => Just(Step::Perft),
        2 => Just(Step::Display),
        5 => select(vec![
            "stop", "ponderhit", "isready", "ucinewgame", "uci", "debug on",
            "setoption name Hash value 2", "setoption name Clear Hash",
            "setoption name UCI_Chess960 value true", "setoption name UCI_Chess960 value false",
            "setoption name Move Overhead value 0", "setoption name Threads value 2",
            "setoption name Hash value lots", "setoption name Nonexistent value 1",
            "", "   ", "\t",
        ]).prop_map(Step::Plain),
        1 => soup_line().prop_map(Step::Soup),
    ]
}

/// A random legal playout of `plies` moves from `start`; the moves in UCI notation.
fn playout(start: &Position, plies: usize, mut seed: u64) -> (Position, Vec<String>) {
    let mut position = start.clone();
    let mut moves = Vec::new();
    for _ in 0..plies {
        let legal = position.legal_moves();
        if legal.is_empty() {
            break;
        }
        seed = brudno::rng::splitmix64(seed);
        let m = legal[(seed % legal.len() as u64) as usize];
        moves.push(Position::uci(m, position.castling_mode()));
        position.play_in_place(m);
    }
    (position, moves)
}

fn start_of(fen: Option<usize>) -> (Position, String) {
    match fen {
        None => (Position::default(), "startpos".to_string()),
        Some(index) => (
            Position::from_fen(FENS[index], false).unwrap(),
            format!("fen {}", FENS[index]),
        ),
    }
}

/// A session: its input lines and what the model expects of its output.
struct Session {
    lines: Vec<String>,
    /// Per `go` that must answer, the position it searched.
    searched: Vec<Position>,
    /// Per `d`, the FEN it must show.
    shown: Vec<String>,
    isready: usize,
}

fn session(steps: &[Step]) -> Session {
    let mut current = Position::default();
    let mut lines = Vec::new();
    let mut searched = Vec::new();
    let mut shown = Vec::new();
    let mut isready = 0;
    for step in steps {
        let line = match step {
            Step::Position { fen, plies, seed } => {
                let (start, head) = start_of(*fen);
                let (end, moves) = playout(&start, *plies, *seed);
                current = end;
                format!("position {head} moves {}", moves.join(" "))
            }
            Step::BadPosition { fen, bad, seed } => match BAD_FENS.get(*fen) {
                Some(bad_fen) => format!("position fen {bad_fen} moves e2e4"),
                None => {
                    let (_, moves) = playout(&Position::default(), 4, *seed);
                    format!("position startpos moves {} {bad}", moves.join(" "))
                }
            },
            Step::Go(go) => {
                searched.push(current.clone());
                go.to_string()
            }
            Step::Perft => "go perft 1".to_string(),
            Step::Display => {
                shown.push(current.fen());
                "d".to_string()
            }
            Step::Plain(line) => {
                isready += usize::from(*line == "isready");
                line.to_string()
            }
            Step::Soup(line) => {
                // A soup that happens to be a command is left out: its effect is not modelled.
                let command = parse(line).command;
                if !matches!(command, Command::Unknown(_) | Command::Empty) {
                    continue;
                }
                line.clone()
            }
        };
        lines.push(line);
    }
    Session {
        lines,
        searched,
        shown,
        isready,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// Random sessions through the real loop: one legal bestmove per go, in order.
    #[test]
    fn sessions_answer_every_go_with_a_legal_move(
        steps in prop::collection::vec(step(), 1..24),
        crlf in any::<bool>(),
    ) {
        let session = session(&steps);
        let end = if crlf { "\r\n" } else { "\n" };
        let input: String = session.lines.iter().map(|l| format!("{l}{end}")).collect();
        let output = common::run_in_process(input.as_bytes(), session.searched.len());

        let answers: Vec<&String> = output.iter().filter(|l| l.starts_with("bestmove")).collect();
        prop_assert_eq!(answers.len(), session.searched.len(), "input:\n{}\noutput:\n{:?}", input, output);
        for (answer, position) in answers.iter().zip(&session.searched) {
            let mv = answer.split_whitespace().nth(1).unwrap_or_default();
            if position.legal_moves().is_empty() {
                prop_assert_eq!(mv, "0000", "{} in {}", answer, position.fen());
            } else {
                prop_assert!(position.parse_uci(mv).is_ok(), "{} in {}\ninput:\n{}", answer, position.fen(), input);
            }
            // The ponder move, if any, is legal after the best move.
            if let Some(ponder) = answer.split_whitespace().nth(3) {
                let mut after = position.clone();
                after.play_uci(mv).unwrap();
                prop_assert!(after.parse_uci(ponder).is_ok(), "{}", answer);
            }
        }
        // Refused position lines changed nothing; accepted ones were applied whole.
        let fens: Vec<&str> = output.iter().filter_map(|l| l.strip_prefix("Fen: ")).collect();
        prop_assert_eq!(fens, session.shown.iter().map(String::as_str).collect::<Vec<_>>(), "input:\n{}", input);
        let ready = output.iter().filter(|l| *l == "readyok").count();
        prop_assert_eq!(ready, session.isready);
        let notes = output.iter().filter(|l| l.starts_with("info string")).count();
        prop_assert!(notes <= session.lines.len(), "{:?}", output);
        prop_assert!(!output.iter().any(|l| l.contains("internal error")), "{:?}", output);
    }
}
