//! `cargo fuzz run fen`: the body is `brudno::fuzzing::positions::fen` (docs/fuzzing.md).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| brudno::fuzzing::positions::fen(data));
