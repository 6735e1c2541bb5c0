//! `cargo fuzz run network`: the body is `brudno::fuzzing::network::file` (docs/fuzzing.md).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| brudno::fuzzing::network::file(data));
