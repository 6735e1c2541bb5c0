//! Fuzz target for `SyzygyPath` values: the option as `setoption` stores it, then
//! `Tablebases::load` splitting it into folders, listing them and checking the table files
//! it finds by name, size and magic header.
//!
//! No real table is needed. An `@` in the input stands for a scratch folder of fake files:
//! names that are tables and names that are not, a wrong magic, a wrong size, and one file
//! with the right size and magic, so that every check of a file is reached. Whatever the
//! value, loading answers: no tables and at least one message saying why, or tables with at
//! least one file and a summary first. Nothing is probed (a probe of a fake table is caught
//! by design, but libFuzzer counts even a caught panic as a crash).

use std::path::PathBuf;
use std::sync::OnceLock;

use super::common::{scratch, text, write_fixture};
use crate::search::tablebase::Tablebases;
use crate::uci::options::Options;

/// The longest value tried (a path longer than this is a different input, not a new case).
const MAX_BYTES: usize = 1024;

/// The folder of fake table files that `@` stands for.
fn fake_tables() -> &'static PathBuf {
    static FOLDER: OnceLock<PathBuf> = OnceLock::new();
    FOLDER.get_or_init(|| {
        let folder = scratch().join("syzygy");
        let _ = std::fs::create_dir_all(&folder);
        let wdl_magic = [0x71, 0xe8, 0x23, 0x5d];
        let mut good = wdl_magic.to_vec();
        good.resize(16 + 64, 0);
        let files: [(&str, Vec<u8>); 6] = [
            ("KQvK.rtbw", good),
            ("KRvK.rtbw", vec![0; 16 + 64]),
            ("KPvK.rtbz", vec![0xd7, 0x66, 0x0c, 0xa5, 0, 0]),
            ("KQQQQQQvK.rtbw", vec![0; 16]),
            ("notes.txt", b"not a table".to_vec()),
            ("KXvK.rtbz", vec![0; 16]),
        ];
        for (name, bytes) in files {
            write_fixture(&folder.join(name), &bytes);
        }
        folder
    })
}

/// Reads the input as the value of `setoption name SyzygyPath value ...`.
pub fn path(data: &[u8]) {
    let text = text(&data[..data.len().min(MAX_BYTES)]);
    let value = text.replace('@', &fake_tables().to_string_lossy());
    let mut options = Options::default();
    if options.set("SyzygyPath", Some(&value)).is_err() {
        panic!("SyzygyPath refused '{value}'");
    }
    let (tables, messages) = Tablebases::load(&options.syzygy_path);
    assert!(!messages.is_empty(), "'{value}': loaded without a word");
    match tables {
        Some(tables) => {
            assert!(tables.files() > 0, "'{value}': tables without a file");
            assert!(tables.max_pieces() <= 7);
            assert_eq!(messages[0], tables.summary());
        }
        None => assert!(
            messages.last().is_some_and(|m| m.contains("off")),
            "'{value}': no tables, but no word that they are off: {messages:?}"
        ),
    }
}
