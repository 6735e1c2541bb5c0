//! `cargo fuzz run packed`: the body is `brudno::fuzzing::packed::records` (docs/fuzzing.md).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| brudno::fuzzing::packed::records(data));
