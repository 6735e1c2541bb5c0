//! `cargo fuzz run lab_request`: the body is `brudno::fuzzing::lab::request` (docs/fuzzing.md).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| brudno::fuzzing::lab::request(data));
