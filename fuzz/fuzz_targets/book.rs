//! `cargo fuzz run book`: the body is `brudno::fuzzing::book::polyglot` (docs/fuzzing.md).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| brudno::fuzzing::book::polyglot(data));
