//! `cargo fuzz run uci_line`: the body is `brudno::fuzzing::uci::line` (docs/fuzzing.md).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| brudno::fuzzing::uci::line(data));
