//! The integration tests, one test binary: each module is the test file it was before
//! (`tests/suite/<name>.rs`), run by name with `cargo test --release --test suite <name>::`.
//! One binary rather than one per file, because each test binary of a release build is linked
//! with the whole engine under fat LTO (about 40 s each on a 2-core machine). The fuzz replay
//! (`tests/fuzz_corpus.rs`, which changes the process's network while it runs) stays a binary of
//! its own; the tuning build's test (`tests/tunables.rs`) is built only with `--features tune`.

#[path = "../common/mod.rs"]
mod common;
#[path = "../lab_common/mod.rs"]
mod lab_common;

mod analysis;
mod bench;
mod book;
mod data;
mod datagen;
mod doc_links;
mod ebf;
mod endgames;
mod epd;
mod gauntlet;
mod hardening_input;
mod hardening_position;
mod hardening_session;
mod info_lines;
mod lab;
mod lab_page;
mod layout;
mod levels;
mod nnue;
mod perft;
mod properties;
mod search;
mod syzygy;
mod trace;
mod trace_engine;
mod trace_page;
mod tunables;
mod uci;
mod viriformat_reader;
