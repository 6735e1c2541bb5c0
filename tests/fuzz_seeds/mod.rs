//! The seed corpus of every fuzz target, made from the project's own inputs: the strings of
//! the tests (UCI lines and sessions, FENs, trees), the EPD files, the embedded network and a
//! hand-made book. `cargo test --release --test fuzz_corpus -- --ignored --exact
//! seeds_are_written` writes them into `fuzz/corpus/<target>/seed-*` (docs/fuzzing.md); the
//! fuzzer grows the corpus from there and `cargo fuzz cmin` keeps what adds coverage.

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

use brudno::fuzzing::book::seed_book;
use brudno::position::Position;
use brudno::tools::epd::parse_text;
use brudno::tools::packed;

/// Words that start a UCI line.
const COMMANDS: [&str; 13] = [
    "uci",
    "isready",
    "ucinewgame",
    "position",
    "go",
    "setoption",
    "stop",
    "ponderhit",
    "quit",
    "debug",
    "register",
    "d",
    "bench",
];

/// The string literals of Rust source, unescaped (raw strings as written). Literals with a
/// `{` are left out: they are format strings, not inputs.
pub fn literals(source: &str) -> Vec<String> {
    let bytes = source.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'\'' => {
                // A character literal or a lifetime: skip an escaped quote inside it.
                i += if bytes.get(i + 1) == Some(&b'\\') {
                    3
                } else {
                    1
                };
            }
            b'r' if matches!(bytes.get(i + 1), Some(b'"' | b'#'))
                && (i == 0 || !bytes[i - 1].is_ascii_alphanumeric()) =>
            {
                let hashes = bytes[i + 1..].iter().take_while(|&&b| b == b'#').count();
                let start = i + 2 + hashes;
                if bytes.get(start - 1) != Some(&b'"') {
                    i += 1;
                    continue;
                }
                let end_mark = format!("\"{}", "#".repeat(hashes));
                match source[start..].find(&end_mark) {
                    Some(length) => {
                        out.push(source[start..start + length].to_string());
                        i = start + length + end_mark.len();
                    }
                    None => break,
                }
            }
            b'"' => {
                let mut text = String::new();
                let mut chars = source[i + 1..].char_indices();
                let mut end = bytes.len();
                while let Some((at, c)) = chars.next() {
                    match c {
                        '"' => {
                            end = i + 1 + at + 1;
                            break;
                        }
                        '\\' => match chars.next().map(|(_, c)| c) {
                            Some('n') => text.push('\n'),
                            Some('t') => text.push('\t'),
                            Some('r') => text.push('\r'),
                            Some('0') => text.push('\0'),
                            Some('\n') => {
                                // A line continuation: the next line's indentation goes too.
                                let rest = chars.as_str();
                                let skip = rest.len() - rest.trim_start().len();
                                for _ in 0..rest[..skip].chars().count() {
                                    chars.next();
                                }
                            }
                            Some(c) => text.push(c),
                            None => {}
                        },
                        c => text.push(c),
                    }
                }
                if !text.contains('{') {
                    out.push(text);
                }
                i = end;
            }
            _ => i += 1,
        }
    }
    out
}

fn is_uci_line(text: &str) -> bool {
    !text.contains('\n')
        && text
            .split_whitespace()
            .next()
            .is_some_and(|word| COMMANDS.contains(&word))
}

fn is_fen(text: &str) -> bool {
    text.matches('/').count() == 7
        && !text.contains('\n')
        && (Position::from_fen(text, false).is_ok()
            || Position::from_fen_for_perft(text, false).is_ok())
}

fn read(root: &Path, relative: &str) -> String {
    fs::read_to_string(root.join(relative)).unwrap_or_default()
}

/// The files under `folder` (recursively) whose names end in `.extension`, sorted.
fn files(root: &Path, folder: &str, extension: &str) -> Vec<String> {
    fn walk(dir: &Path, extension: &str, out: &mut Vec<String>) {
        for path in fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
        {
            if path.is_dir() {
                walk(&path, extension, out);
            } else if path.extension().is_some_and(|e| e == extension) {
                out.push(path.to_string_lossy().into_owned());
            }
        }
    }
    let mut names = Vec::new();
    walk(&root.join(folder), extension, &mut names);
    names.sort();
    names
}

fn is_tree(text: &str) -> bool {
    text.starts_with('[')
        && text.len() > 2
        && text.bytes().all(|b| b"[]0123456789,-+ \n".contains(&b))
}

/// The seeds of every target, by target name.
pub fn seeds(root: &Path) -> Vec<(&'static str, Vec<Vec<u8>>)> {
    let tests = files(root, "tests", "rs");
    let mut lines = BTreeSet::new();
    let mut sessions = Vec::new();
    let mut fens = BTreeSet::new();
    let mut trees = BTreeSet::new();
    for path in &tests {
        let source = fs::read_to_string(path).unwrap_or_default();
        // One session per test function: the UCI lines it sends, in order.
        for function in source.split("\n    fn ").chain(source.split("\nfn ")) {
            let session: Vec<String> = literals(function)
                .into_iter()
                .filter(|l| is_uci_line(l))
                .collect();
            if session.len() >= 2 {
                sessions.push(session.join("\n").into_bytes());
            }
        }
        for literal in literals(&source) {
            if is_uci_line(&literal) {
                lines.insert(literal);
            }
        }
    }
    for path in tests.iter().chain(&files(root, "src", "rs")) {
        for literal in literals(&fs::read_to_string(path).unwrap_or_default()) {
            if is_fen(literal.trim()) {
                fens.insert(literal.trim().to_string());
            }
            if is_tree(&literal) {
                trees.insert(literal);
            }
        }
    }
    for line in read(root, "docs/trace.md").lines() {
        for part in line.split(['`', '\'']) {
            if part.starts_with("[[") && part.ends_with(']') {
                trees.insert(part.to_string());
            }
        }
    }
    let mut epd_chunks = Vec::new();
    let mut moves = Vec::new();
    for path in files(root, "epd", "epd") {
        let text = fs::read_to_string(&path).unwrap_or_default();
        let all: Vec<&str> = text.lines().collect();
        for chunk in all.chunks(8) {
            epd_chunks.push(chunk.join("\n").into_bytes());
        }
        let (records, _) = parse_text(&text);
        for record in records {
            fens.insert(record.fen());
            if let Some(best) = record.operands("bm") {
                moves.push(format!("{}\n{}", record.fen(), best.join(" ")).into_bytes());
            }
        }
    }
    for line in &lines {
        if let Some((_, list)) = line.split_once(" moves ") {
            moves.push(list.as_bytes().to_vec());
        }
    }
    let mut packed_files = Vec::new();
    let positions: Vec<Position> = fens
        .iter()
        .filter_map(|fen| Position::from_fen(fen, false).ok())
        .collect();
    for (index, group) in positions.chunks(4).enumerate() {
        let mut file = Vec::new();
        for (i, position) in group.iter().enumerate() {
            let score = (index as i16 * 37 - 300) * (i as i16 + 1);
            file.extend(packed::encode(position, score, (i % 3) as u8, i == 0));
        }
        packed_files.push(file);
    }
    let book = seed_book();
    let mut unsorted = book.clone();
    unsorted.rotate_left(16);
    let mut network = vec![vec![1u8], vec![0u8]];
    let header: Vec<u8> = brudno::eval::nnue::embedded().to_bytes()
        [..brudno::eval::nnue::network::HEADER_BYTES]
        .to_vec();
    network.push([&[0u8][..], &header].concat());
    // One input weight and one output weight changed, the checksum recomputed.
    network.push(vec![3, 1, 0x10, 0, 0x05, 3, 0x22, 0, 0xf0]);
    let syzygy = [
        "@",
        "",
        "<empty>",
        "/no/such/folder",
        "@:@",
        " @ : /no/such ",
        "@;@",
    ];
    let text = |set: BTreeSet<String>| set.into_iter().map(String::into_bytes).collect();
    vec![
        ("uci_line", text(lines)),
        ("uci_session", sessions),
        ("fen", text(fens)),
        ("moves", moves),
        ("epd", epd_chunks),
        ("book", vec![book.clone(), book[..24].to_vec(), unsorted]),
        ("network", network),
        (
            "syzygy_path",
            syzygy.iter().map(|s| s.as_bytes().to_vec()).collect(),
        ),
        ("packed", packed_files),
        ("trace_tree", text(trees)),
        (
            "lab_request",
            LAB_REQUESTS.iter().map(|s| s.as_bytes().to_vec()).collect(),
        ),
    ]
}

/// Requests to `brudno lab`, from tests/lab.rs and docs/lab.md.
const LAB_REQUESTS: &[&str] = &[
    "/",
    "/nothing",
    "/api/trace",
    "/api/trace?tree=standing",
    "/api/trace?tree=standing&algorithm=negamax&compare=1",
    "/api/trace?tree=[[3,[5,1]],[2,9]]&orderings=1",
    "/api/trace?random=1&branching=3&depth=3&seed=7",
    "/api/trace?startpos=1&depth=2&algorithm=alphabeta",
    "/api/trace?startpos=1&moves=e2e4+e7e5&depth=2&algorithm=engine",
    "/api/trace?fen=6k1/5ppp/8/8/8/8/5PPP/R5K1+w+-+-+0+1&depth=3&algorithm=id-tt&eval=material",
    "/api/trace?%ZZ=%",
    "/api/trace?depth=99",
    "/api/ebf?startpos=1&depth=2&configs=minimax,alphabeta",
    "/api/ebf?startpos=1&configs=fastest",
    "/api/ebf?fen=xx",
    "/api/position?startpos=1&moves=e2e4+Nf6",
    "/api/position?moves=e2e5",
];
