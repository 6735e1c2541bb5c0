//! The bodies of the fuzz targets: one function per parser that reads outside input, each
//! taking the fuzzer's bytes and checking the invariants that parser owes its callers.
//!
//! The libFuzzer targets in `fuzz/` (built with `cargo fuzz`, docs/fuzzing.md) and the replay
//! test `tests/fuzz_corpus.rs` (plain `cargo test` on the stable toolchain) both call these
//! functions, so a corpus file found by the fuzzer is replayed through exactly the code it was
//! found with. Every target holds: no panic, no hang, no unbounded allocation; most also check
//! a round trip or a count (a FEN written back reads as the same position, one `bestmove` per
//! `go`). A broken invariant is an `assert!` here: a panic is how a fuzzer learns of it, so
//! unlike the rest of the library these functions panic on purpose, and only when the code
//! they exercise misbehaves, never because the input is bad. They never write outside the
//! system's temporary folder and never read a file whose name came from the input, except for
//! the folder listings of `syzygy_path`.

pub mod book;
mod common;
pub mod epd;
pub mod lab;
pub mod network;
pub mod packed;
pub mod positions;
pub mod syzygy;
pub mod tree;
pub mod uci;

/// One fuzz target: its name (the file `fuzz/fuzz_targets/<name>.rs` and the corpus folder
/// `fuzz/corpus/<name>/`) and its body.
#[derive(Clone, Copy)]
pub struct Target {
    /// The target's name.
    pub name: &'static str,
    /// What it reads, for the table in docs/fuzzing.md.
    pub reads: &'static str,
    /// The body: returns when the invariants hold, panics when one is broken.
    pub run: fn(&[u8]),
}

/// Every target, in the order of docs/fuzzing.md.
pub const TARGETS: &[Target] = &[
    Target {
        name: "uci_line",
        reads: "one UCI input line (uci/command.rs), then the options and position it sets",
        run: uci::line,
    },
    Target {
        name: "uci_session",
        reads: "a whole session of lines through the engine's loop (uci::run)",
        run: uci::session,
    },
    Target {
        name: "fen",
        reads: "a FEN (Position::from_fen), written back and read again",
        run: positions::fen,
    },
    Target {
        name: "moves",
        reads: "a move list in SAN or UCI (epd::notation, Position::parse_uci)",
        run: positions::moves,
    },
    Target {
        name: "epd",
        reads: "an EPD file (tools/epd: records, operations, bm/am/dm/c0)",
        run: epd::suite,
    },
    Target {
        name: "book",
        reads: "a Polyglot book (book/)",
        run: book::polyglot,
    },
    Target {
        name: "network",
        reads: "a network file (Network::parse, the EvalFile path)",
        run: network::file,
    },
    Target {
        name: "syzygy_path",
        reads: "a SyzygyPath option value (folders, table names)",
        run: syzygy::path,
    },
    Target {
        name: "packed",
        reads: "datagen records (tools/packed.rs)",
        run: packed::records,
    },
    Target {
        name: "trace_tree",
        reads: "a `brudno trace --tree` nested list (tools/trace/tree.rs) and its trace",
        run: tree::trace,
    },
    Target {
        name: "lab_request",
        reads: "a request to `brudno lab` (tools/lab/api.rs): a path and its query string",
        run: lab::request,
    },
];

/// The target called `name`, if there is one.
pub fn target(name: &str) -> Option<&'static Target> {
    TARGETS.iter().find(|t| t.name == name)
}
