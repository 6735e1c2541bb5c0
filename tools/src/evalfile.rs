//! The `EvalFile` option's file: read, checked and described in words for the user. The
//! engine core only parses networks (`nnue::read_file`) and searches with the one its
//! `SearchConfig` names; the messages are the front ends' (the UCI option, `brudno epd
//! --eval-file`, `brudno datagen --eval-file`), and they all say the same thing.

use std::sync::Arc;

use brudno_engine::eval::nnue::{self, Network};

/// The value that means the network compiled into the binary (an empty path means it too).
pub const EMBEDDED: &str = "<embedded>";

/// The network of the file at `path` (or the embedded one for `<embedded>` or an empty
/// path) with the message that says what was loaded, or the message that says why the file
/// cannot be used (the network in use then stays).
pub fn load(path: &str) -> Result<(Arc<Network>, String), String> {
    if path.is_empty() || path == EMBEDDED {
        let network = nnue::embedded();
        let message = format!(
            "EvalFile: using the embedded network (checksum {:016x})",
            network.checksum()
        );
        return Ok((network, message));
    }
    let network = nnue::read_file(path)
        .map_err(|why| format!("EvalFile: {why}; the network in use stays"))?;
    let message = format!(
        "EvalFile: loaded '{path}' ({}, checksum {:016x})",
        network.describe(),
        network.checksum()
    );
    Ok((Arc::new(network), message))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_network_by_name_or_empty_path() {
        for path in ["", EMBEDDED] {
            let (network, message) = load(path).unwrap();
            assert!(Arc::ptr_eq(&network, &nnue::embedded()));
            assert!(
                message.starts_with("EvalFile: using the embedded network"),
                "{message}"
            );
        }
    }

    #[test]
    fn a_missing_file_is_refused_in_words_that_name_it() {
        let why = load("/nonexistent/brudno.nnue").unwrap_err();
        assert!(why.contains("/nonexistent/brudno.nnue"), "{why}");
        assert!(why.ends_with("the network in use stays"), "{why}");
    }

    #[test]
    fn a_network_file_is_loaded_and_described() {
        let path = std::env::temp_dir().join(format!("evalfile-{}.nnue", std::process::id()));
        std::fs::write(&path, nnue::embedded().to_bytes()).unwrap();
        let loaded = load(&path.to_string_lossy());
        let _ = std::fs::remove_file(&path);
        let (network, message) = loaded.unwrap();
        assert_eq!(*network, *nnue::embedded());
        assert!(message.starts_with("EvalFile: loaded '"), "{message}");
        assert!(message.contains(&network.describe()), "{message}");
    }
}
