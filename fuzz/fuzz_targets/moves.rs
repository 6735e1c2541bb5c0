//! `cargo fuzz run moves`: the body is `brudno::fuzzing::positions::moves` (docs/fuzzing.md).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| brudno::fuzzing::positions::moves(data));
