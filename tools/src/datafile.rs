//! The files around a datagen output: the progress file that lets a stopped run continue
//! (`--append`), the repair of a file cut in the middle of a record, and the manifest that
//! records how the data was made, so that anyone can make it again bit for bit.
//!
//! After every game is written and flushed, `<output>.progress` is replaced (written aside,
//! then renamed) with the run's settings, the next game's number and the moves and bytes
//! written so far. A run stopped at any moment leaves the data file with at most one game
//! more than the progress file counts, possibly cut inside it; `--append` cuts the file back
//! to the bytes the progress file counts and plays on from the next game, so the file ends
//! the same as an uninterrupted run's, and `brudno data add` takes only those bytes. When the
//! run ends, `<output>.json` records the seed, the settings, the commit of the binary, the
//! network, the counts and a checksum of the data.

use std::fs::{self, OpenOptions};
use std::path::{Path, PathBuf};

use serde_json::json;

use brudno_engine::eval::nnue::network::fnv1a;

/// The commit of this binary (`build.rs`).
pub const COMMIT: &str = env!("BRUDNO_COMMIT");

/// What makes a run's games: two runs with the same settings play the same games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The seed.
    pub seed: u64,
    /// Soft node limit per move (when no depth).
    pub nodes: u64,
    /// Hard node limit per move.
    pub hard_nodes: u64,
    /// A fixed depth per move, or 0.
    pub depth: u32,
    /// The fewest and the most random plies before the engine plays.
    pub random_plies: (usize, usize),
    /// A checksum of the openings file's bytes, 0 for the start position.
    pub openings: u64,
    /// The evaluation's name.
    pub eval: String,
    /// The checksum of the network both sides play with.
    pub network: u64,
}

impl Settings {
    fn line(&self) -> String {
        format!(
            "seed {} commit {} nodes {} hard-nodes {} depth {} random-plies {}-{} openings {:016x} eval {} network {:016x}",
            self.seed,
            COMMIT,
            self.nodes,
            self.hard_nodes,
            self.depth,
            self.random_plies.0,
            self.random_plies.1,
            self.openings,
            self.eval,
            self.network
        )
    }
}

/// Where a run stands: the next game to play, and the moves and bytes of the games written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// The number of the next game (the games written, as they are written whole and in
    /// order).
    pub next_game: u64,
    /// Recorded moves written.
    pub moves: u64,
    /// Bytes written: the file's length at the end of its last whole game.
    pub bytes: u64,
}

/// `<output>.progress`.
pub fn progress_path(output: &Path) -> PathBuf {
    with_suffix(output, ".progress")
}

/// `<output>.json`.
pub fn manifest_path(output: &Path) -> PathBuf {
    with_suffix(output, ".json")
}

fn with_suffix(output: &Path, suffix: &str) -> PathBuf {
    let mut name = output.as_os_str().to_os_string();
    name.push(suffix);
    PathBuf::from(name)
}

/// Writes the progress of a run (aside, then renamed: never half written).
pub fn save_progress(
    output: &Path,
    settings: &Settings,
    progress: Progress,
) -> std::io::Result<()> {
    let path = progress_path(output);
    let aside = with_suffix(&path, ".tmp");
    let text = format!(
        "{}\nnext-game {} moves {} bytes {}\n",
        settings.line(),
        progress.next_game,
        progress.moves,
        progress.bytes
    );
    fs::write(&aside, text)?;
    fs::rename(&aside, &path)
}

/// Reads the progress file of `output`, if there is one: `Ok(None)` when there is none, an
/// error when it is unreadable or was written by a run with other settings.
pub fn load_progress(output: &Path, settings: &Settings) -> Result<Option<Progress>, String> {
    let path = progress_path(output);
    let Ok(text) = fs::read_to_string(&path) else {
        return Ok(None);
    };
    let mut lines = text.lines();
    let recorded = lines.next().unwrap_or("");
    if recorded != settings.line() {
        return Err(format!(
            "{} was written by a run with other settings ({recorded}); this run has {}",
            path.display(),
            settings.line()
        ));
    }
    let fields: Vec<&str> = lines.next().unwrap_or("").split_whitespace().collect();
    match fields.as_slice() {
        ["next-game", game, "moves", moves, "bytes", bytes] => {
            match (game.parse(), moves.parse(), bytes.parse()) {
                (Ok(next_game), Ok(moves), Ok(bytes)) => Ok(Some(Progress {
                    next_game,
                    moves,
                    bytes,
                })),
                _ => Err(format!("{}: unreadable counts", path.display())),
            }
        }
        _ => Err(format!("{}: no counts line", path.display())),
    }
}

/// Cuts `output` back to its first `bytes` bytes (the whole games its progress file counts).
/// Returns the bytes cut; an error when the file is shorter than that.
pub fn cut_back(output: &Path, bytes: u64) -> Result<u64, String> {
    let length = fs::metadata(output)
        .map(|m| m.len())
        .map_err(|e| format!("cannot read {}: {e}", output.display()))?;
    if length < bytes {
        return Err(format!(
            "{} holds {length} bytes, fewer than the {bytes} its progress file counts",
            output.display()
        ));
    }
    if bytes < length {
        let file = OpenOptions::new()
            .write(true)
            .open(output)
            .map_err(|e| format!("cannot write {}: {e}", output.display()))?;
        file.set_len(bytes)
            .map_err(|e| format!("cannot cut {}: {e}", output.display()))?;
    }
    Ok(length - bytes)
}

/// Writes `<output>.json`: how the data was made and a checksum of it (FNV-1a, 64 bits, of
/// the file's bytes). Returns the manifest.
pub fn write_manifest(
    output: &Path,
    settings: &Settings,
    progress: Progress,
    openings_file: Option<&Path>,
) -> std::io::Result<serde_json::Value> {
    let data = fs::read(output)?;
    let name = |path: &Path| {
        path.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    let manifest = json!({
        "file": name(output),
        "format": "viriformat",
        "moves": progress.moves,
        "games": progress.next_game,
        "bytes": progress.bytes,
        "checksum_fnv1a64": format!("{:016x}", fnv1a(&data)),
        "seed": settings.seed,
        "nodes": settings.nodes,
        "hard_nodes": settings.hard_nodes,
        "depth": settings.depth,
        "random_plies": [settings.random_plies.0, settings.random_plies.1],
        "openings": openings_file.map(name),
        "openings_fnv1a64": format!("{:016x}", settings.openings),
        "eval": settings.eval,
        "network_checksum": format!("{:016x}", settings.network),
        "brudno_version": env!("CARGO_PKG_VERSION"),
        "commit": COMMIT,
    });
    let text = serde_json::to_string_pretty(&manifest).unwrap_or_default();
    fs::write(manifest_path(output), text + "\n")?;
    Ok(manifest)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> Settings {
        Settings {
            seed: 9,
            nodes: 5000,
            hard_nodes: 100_000,
            depth: 0,
            random_plies: (8, 9),
            openings: 0xabc,
            eval: "nnue".to_string(),
            network: 0x123,
        }
    }

    #[test]
    fn progress_round_trips_and_other_settings_are_refused() {
        let dir = std::env::temp_dir().join(format!("brudno-datafile-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let output = dir.join("a.bin");
        assert_eq!(load_progress(&output, &settings()), Ok(None));
        let progress = Progress {
            next_game: 12,
            moves: 345,
            bytes: 2000,
        };
        save_progress(&output, &settings(), progress).unwrap();
        assert_eq!(load_progress(&output, &settings()), Ok(Some(progress)));
        let other = Settings {
            seed: 10,
            ..settings()
        };
        let why = load_progress(&output, &other).unwrap_err();
        assert!(why.contains("other settings"), "{why}");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_file_is_cut_back_to_its_whole_games() {
        let dir = std::env::temp_dir().join(format!("brudno-cut-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let output = dir.join("a.vf");
        fs::write(&output, vec![7u8; 105]).unwrap();
        assert_eq!(cut_back(&output, 100), Ok(5));
        assert_eq!(fs::metadata(&output).unwrap().len(), 100);
        assert_eq!(cut_back(&output, 100), Ok(0));
        assert!(cut_back(&output, 101).unwrap_err().contains("fewer than"));
        fs::remove_dir_all(&dir).unwrap();
    }
}
