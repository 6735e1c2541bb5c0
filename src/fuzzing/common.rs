//! What the fuzz targets share: the input read as text as the engine's readers read it, the
//! scratch folder for the files they write, and a fixture written whole or not at all.

use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The input as text, invalid UTF-8 replaced, as the engine's readers do.
pub(super) fn text(data: &[u8]) -> Cow<'_, str> {
    String::from_utf8_lossy(data)
}

/// The folder in the system's temporary folder for the files the targets write: the same
/// folder for every process, so that runs leave no folders behind. Made once per process.
pub(super) fn scratch() -> &'static PathBuf {
    static SCRATCH: OnceLock<PathBuf> = OnceLock::new();
    SCRATCH.get_or_init(|| {
        let dir = std::env::temp_dir().join("brudno-fuzz");
        // Should the folder not be writable, the targets that write files say so when they
        // assert on what they read back.
        let _ = std::fs::create_dir_all(&dir);
        dir
    })
}

/// Writes a fixture file whole or not at all (written aside, then renamed), so that another
/// process running the same target never reads it half written.
pub(super) fn write_fixture(path: &Path, bytes: &[u8]) {
    let aside = path.with_extension(format!("{}.tmp", std::process::id()));
    if std::fs::write(&aside, bytes).is_ok() {
        let _ = std::fs::rename(&aside, path);
    }
}
