//! `cargo fuzz run syzygy_path`: the body is `brudno::fuzzing::syzygy::path` (docs/fuzzing.md).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| brudno::fuzzing::syzygy::path(data));
