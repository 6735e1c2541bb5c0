//! `cargo fuzz run epd`: the body is `brudno::fuzzing::epd::suite` (docs/fuzzing.md).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| brudno::fuzzing::epd::suite(data));
