//! `cargo fuzz run uci_session`: the body is `brudno::fuzzing::uci::session` (docs/fuzzing.md).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| brudno::fuzzing::uci::session(data));
