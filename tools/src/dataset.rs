//! Reading training data whatever its format, for `train`, `tune` and `datadump`: viriformat
//! games (`*.vf`, what `brudno datagen` writes) and marlinformat records (any other name, the
//! files of earlier rounds), either of them compressed with zstd (`*.zst`, as in `data/`).
//!
//! A viriformat game gives the trainer its positions through `Game::training_records`: the
//! side to move not in check, the move played quiet, the score not a mate. Reading never
//! panics on input: a bad record or game is reported through the caller's callback and
//! skipped (a bad game ends its file, since what follows it cannot be trusted).

use std::path::Path;

use crate::datastore;
use crate::packed::{self, Record};
use crate::viriformat;

/// The record format of a file, from its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Games: `*.vf` or `*.vf.zst`.
    Viriformat,
    /// 32-byte records: any other name.
    Marlinformat,
}

impl Format {
    /// The format a file's name says.
    pub fn of(path: &Path) -> Format {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let name = name.strip_suffix(".zst").unwrap_or(&name);
        if name.ends_with(".vf") {
            Format::Viriformat
        } else {
            Format::Marlinformat
        }
    }
}

/// A file's bytes, decompressed when its name ends in `.zst`.
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, String> {
    let data = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if path.extension().is_some_and(|e| e == "zst") {
        datastore::decompress(&data).map_err(|why| format!("{}: {why}", path.display()))
    } else {
        Ok(data)
    }
}

/// What a file holds, read.
#[derive(Debug, Default)]
pub struct Loaded {
    /// The training positions.
    pub records: Vec<Record>,
    /// Games (viriformat), or the records marked as a game's first (marlinformat).
    pub games: u64,
    /// Recorded moves (viriformat; the records for marlinformat).
    pub moves: u64,
}

/// Reads the training positions of a file of either format; each bad record or game is
/// reported through `bad` (its number from 1 and why) and skipped.
pub fn load(path: &Path, bad: &mut dyn FnMut(usize, &str)) -> Result<Loaded, String> {
    let data = read_bytes(path)?;
    Ok(match Format::of(path) {
        Format::Viriformat => {
            let games = viriformat::read_all(&data, &mut |index, why| bad(index + 1, why));
            let moves = games.iter().map(|g| g.moves.len() as u64).sum();
            let records = games.iter().flat_map(|g| g.training_records()).collect();
            Loaded {
                records,
                games: games.len() as u64,
                moves,
            }
        }
        Format::Marlinformat => {
            let records = packed::decode_all(&data, &mut |index, why| bad(index + 1, why));
            Loaded {
                games: records.iter().filter(|r| r.game_start).count() as u64,
                moves: records.len() as u64,
                records,
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use brudno_engine::position::Position;

    #[test]
    fn formats_are_told_by_name() {
        assert_eq!(Format::of(Path::new("data/a.vf.zst")), Format::Viriformat);
        assert_eq!(Format::of(Path::new("/tmp/run.vf")), Format::Viriformat);
        assert_eq!(Format::of(Path::new("gen9.bin")), Format::Marlinformat);
        assert_eq!(Format::of(Path::new("gen9.bin.zst")), Format::Marlinformat);
    }

    #[test]
    fn compressed_and_plain_viriformat_read_the_same() {
        let dir = std::env::temp_dir().join(format!("brudno-dataset-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut position = Position::default();
        let mut moves = Vec::new();
        for text in ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"] {
            moves.push((position.play_uci(text).unwrap(), 20));
        }
        let game = viriformat::Game {
            start: Position::default(),
            result: 2,
            moves,
        };
        let bytes = game.to_bytes();
        let plain = dir.join("g.vf");
        std::fs::write(&plain, &bytes).unwrap();
        let packed = dir.join("g.vf.zst");
        std::fs::write(&packed, zstd::encode_all(bytes.as_slice(), 19).unwrap()).unwrap();
        for path in [&plain, &packed] {
            let loaded = load(path, &mut |_, why| panic!("{why}")).unwrap();
            assert_eq!((loaded.games, loaded.moves), (1, 5));
            assert_eq!(loaded.records.len(), 5);
            assert_eq!(loaded.records[4].position.fen(), {
                let mut p = Position::default();
                for t in ["e2e4", "e7e5", "g1f3", "b8c6"] {
                    p.play_uci(t).unwrap();
                }
                p.fen()
            });
        }
        std::fs::write(&packed, &bytes[..10]).unwrap();
        assert!(load(&packed, &mut |_, _| {}).unwrap_err().contains("zstd"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
