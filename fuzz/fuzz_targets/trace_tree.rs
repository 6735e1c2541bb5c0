//! `cargo fuzz run trace_tree`: the body is `brudno::fuzzing::tree::trace` (docs/fuzzing.md).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| brudno::fuzzing::tree::trace(data));
