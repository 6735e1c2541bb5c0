//! `data/`: the self-play games kept in the repository, and `brudno data add | check`.
//!
//! Each datagen run becomes one or more new files, `data/<name>.vf.zst` (viriformat,
//! compressed with zstd), never rewritten or appended to once committed (git would keep both
//! copies). `data/MANIFEST` has one line per file, `key=value` fields in a fixed order: the
//! file, how its games were made (seed, the commit of the binary, the network's checksum, the
//! node limits, the random plies, the openings, the evaluation), its counts (games, moves, the
//! bytes of the viriformat games) and the FNV-1a 64 checksum of the compressed file's bytes.
//!
//! `add` takes a datagen output (a scratch file outside the repository) up to its last whole
//! game, as its progress file counts them, compresses it, splits it at game boundaries so that
//! no file passes `MAX_FILE_BYTES`, and appends the manifest lines. `check` is what `cargo test`
//! runs on `data/`: every file named, every named file there, its checksum, its counts, and
//! the folder's bytes per recorded move (`MAX_BYTES_PER_MOVE`: over the whole folder, since a
//! small file, the last games of a run, compresses a little worse than a large one).

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Subcommand};

use crate::datafile;
use crate::viriformat;
use brudno_engine::eval::nnue::network::fnv1a;

/// The manifest's name in the data folder.
pub const MANIFEST: &str = "MANIFEST";
/// The setting that says which game of its run a file starts at.
const FIRST_GAME: &str = "first-game";
/// The largest file `add` writes.
pub const MAX_FILE_BYTES: u64 = 40_000_000;
/// The most bytes on disk per recorded move a file may take.
pub const MAX_BYTES_PER_MOVE: f64 = 3.5;
/// zstd's level for the data (19: the highest without `--ultra`'s memory).
pub const ZSTD_LEVEL: i32 = 19;
/// zstd's window, as a power of two: 2^27 = 128 MiB, the whole of a file, so that openings
/// repeated far apart still match (`zstd --long=27` decompresses it; the `zstd` crate's
/// decoder is told the same).
pub const ZSTD_WINDOW_LOG: u32 = 27;

/// `brudno data`.
#[derive(Args, Debug, Clone)]
pub struct DataArgs {
    /// add or check.
    #[command(subcommand)]
    pub action: DataAction,
}

/// What `brudno data` does.
#[derive(Subcommand, Debug, Clone)]
pub enum DataAction {
    /// Put a datagen run (a scratch file with its progress file) into the data folder: cut at
    /// its last whole game, compressed, split under 40 MB, a manifest line per file.
    Add {
        /// The datagen output (its `<file>.progress` must be beside it).
        run: PathBuf,
        /// The data folder.
        #[arg(long, default_value = "data")]
        dir: PathBuf,
        /// The new files' name, without `.vf.zst` (default: the date and the seed).
        #[arg(long)]
        name: Option<String>,
    },
    /// Check every file of the data folder against the manifest; print the totals.
    Check {
        /// The data folder.
        #[arg(long, default_value = "data")]
        dir: PathBuf,
    },
}

/// One line of the manifest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The file's name in the data folder.
    pub file: String,
    /// The datagen settings line of the run (seed, commit, network, limits, openings).
    pub settings: Vec<(String, String)>,
    /// Games.
    pub games: u64,
    /// Recorded moves.
    pub moves: u64,
    /// Bytes of the viriformat games (decompressed).
    pub raw_bytes: u64,
    /// FNV-1a 64 of the compressed file's bytes.
    pub checksum: u64,
}

impl Entry {
    /// The manifest line.
    pub fn line(&self) -> String {
        let mut line = format!("file={}", self.file);
        for (key, value) in &self.settings {
            line.push_str(&format!(" {key}={value}"));
        }
        line.push_str(&format!(
            " games={} moves={} raw-bytes={} fnv1a64={:016x}",
            self.games, self.moves, self.raw_bytes, self.checksum
        ));
        line
    }

    /// Reads a manifest line.
    pub fn parse(line: &str) -> Result<Entry, String> {
        let mut fields = Vec::new();
        for field in line.split_whitespace() {
            let (key, value) = field
                .split_once('=')
                .ok_or_else(|| format!("'{field}' is not key=value"))?;
            fields.push((key.to_string(), value.to_string()));
        }
        let take = |key: &str| -> Result<String, String> {
            fields
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.clone())
                .ok_or_else(|| format!("no {key}="))
        };
        let number = |key: &str| -> Result<u64, String> {
            take(key)?
                .parse()
                .map_err(|_| format!("{key}= is not a number"))
        };
        let fixed = ["file", "games", "moves", "raw-bytes", "fnv1a64"];
        Ok(Entry {
            file: take("file")?,
            settings: fields
                .iter()
                .filter(|(k, _)| !fixed.contains(&k.as_str()))
                .cloned()
                .collect(),
            games: number("games")?,
            moves: number("moves")?,
            raw_bytes: number("raw-bytes")?,
            checksum: u64::from_str_radix(&take("fnv1a64")?, 16)
                .map_err(|_| "fnv1a64= is not hexadecimal".to_string())?,
        })
    }

    /// A setting of the run, by its name (`seed`, `commit`, `network`, `nodes`, ...).
    pub fn setting(&self, key: &str) -> Option<&str> {
        self.settings
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// The manifest of `dir`: its entries, or the first bad line with its number.
pub fn read_manifest(dir: &Path) -> Result<Vec<Entry>, String> {
    let path = dir.join(MANIFEST);
    let text = match fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|(number, line)| {
            Entry::parse(line).map_err(|why| format!("{}:{}: {why}", path.display(), number + 1))
        })
        .collect()
}

/// Decompresses a data file (zstd with the long window).
pub fn decompress(compressed: &[u8]) -> Result<Vec<u8>, String> {
    let mut decoder = zstd::Decoder::new(compressed).map_err(|e| e.to_string())?;
    decoder
        .window_log_max(ZSTD_WINDOW_LOG)
        .map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    std::io::copy(&mut decoder, &mut out).map_err(|e| format!("not a whole zstd stream: {e}"))?;
    Ok(out)
}

/// Compresses viriformat games for the data folder.
pub fn compress(raw: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut encoder = zstd::Encoder::new(Vec::new(), ZSTD_LEVEL)?;
    encoder.long_distance_matching(true)?;
    encoder.window_log(ZSTD_WINDOW_LOG)?;
    encoder.include_checksum(true)?;
    encoder.set_pledged_src_size(Some(raw.len() as u64))?;
    encoder.write_all(raw)?;
    encoder.finish()
}

/// Checks one file against its entry: the checksum of its bytes, its counts, its size.
pub fn check_file(dir: &Path, entry: &Entry) -> Result<(), String> {
    let path = dir.join(&entry.file);
    let compressed =
        fs::read(&path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let sum = fnv1a(&compressed);
    if sum != entry.checksum {
        return Err(format!(
            "{}: checksum {sum:016x}, the manifest says {:016x}",
            entry.file, entry.checksum
        ));
    }
    if compressed.len() as u64 > MAX_FILE_BYTES {
        return Err(format!(
            "{}: {} bytes, more than {MAX_FILE_BYTES}",
            entry.file,
            compressed.len()
        ));
    }
    let raw = decompress(&compressed).map_err(|why| format!("{}: {why}", entry.file))?;
    let (games, moves) = viriformat::count(&raw).map_err(|why| format!("{}: {why}", entry.file))?;
    if (games, moves, raw.len() as u64) != (entry.games, entry.moves, entry.raw_bytes) {
        return Err(format!(
            "{}: {games} games, {moves} moves, {} bytes; the manifest says {}, {}, {}",
            entry.file,
            raw.len(),
            entry.games,
            entry.moves,
            entry.raw_bytes
        ));
    }
    Ok(())
}

/// What `check` found right: the manifest's entries, and the files it names that this
/// checkout lacks (a sparse or partial clone without data/'s files), skipped unchecked.
#[derive(Clone, Debug)]
pub struct Checked {
    /// Every entry of the manifest.
    pub entries: Vec<Entry>,
    /// The named files that are not in the folder, in the manifest's order.
    pub skipped: Vec<String>,
}

impl Checked {
    /// The entries whose files are in the folder (and were checked).
    pub fn present(&self) -> impl Iterator<Item = &Entry> {
        self.entries
            .iter()
            .filter(|e| !self.skipped.contains(&e.file))
    }
}

/// Checks the whole data folder: every file named by the manifest that is there is right
/// (a named file that is missing is skipped: a clone without the data), and every file
/// there is named. Returns what was checked, or every problem found.
pub fn check(dir: &Path) -> Result<Checked, Vec<String>> {
    let entries = read_manifest(dir).map_err(|why| vec![why])?;
    let mut problems = Vec::new();
    let mut named = std::collections::BTreeSet::new();
    let mut skipped = Vec::new();
    for entry in &entries {
        if !named.insert(entry.file.clone()) {
            problems.push(format!("{} is named twice in {MANIFEST}", entry.file));
        }
        if !dir.join(&entry.file).exists() {
            skipped.push(entry.file.clone());
            continue;
        }
        if let Err(why) = check_file(dir, entry) {
            problems.push(why);
        }
    }
    let present = entries.iter().filter(|e| !skipped.contains(&e.file));
    let (moves, bytes) = present.fold((0u64, 0u64), |(moves, bytes), e| {
        let size = fs::metadata(dir.join(&e.file)).map_or(0, |m| m.len());
        (moves + e.moves, bytes + size)
    });
    // The size rule is the whole folder's: a checkout that lacks files cannot weigh it.
    let per_move = bytes as f64 / moves.max(1) as f64;
    if skipped.is_empty() && moves > 0 && per_move > MAX_BYTES_PER_MOVE {
        problems.push(format!(
            "{bytes} bytes for {moves} recorded moves: {per_move:.2} a move, more than {MAX_BYTES_PER_MOVE}"
        ));
    }
    if let Ok(listing) = fs::read_dir(dir) {
        for item in listing.flatten() {
            let name = item.file_name().to_string_lossy().into_owned();
            if name != MANIFEST && name != "README.md" && !named.contains(&name) {
                problems.push(format!(
                    "{name} is in {} but not in its {MANIFEST}",
                    dir.display()
                ));
            }
        }
    }
    if problems.is_empty() {
        Ok(Checked { entries, skipped })
    } else {
        Err(problems)
    }
}

fn run_settings(run: &Path) -> Result<(Vec<(String, String)>, datafile::Progress), String> {
    let path = datafile::progress_path(run);
    let text = fs::read_to_string(&path)
        .map_err(|e| format!("cannot read {} (the run's progress): {e}", path.display()))?;
    let mut lines = text.lines();
    let words: Vec<&str> = lines.next().unwrap_or("").split_whitespace().collect();
    if !words.len().is_multiple_of(2) || words.is_empty() {
        return Err(format!("{}: unreadable settings line", path.display()));
    }
    let settings = words
        .chunks(2)
        .map(|pair| (pair[0].to_string(), pair[1].to_string()))
        .collect();
    let counts: Vec<&str> = lines.next().unwrap_or("").split_whitespace().collect();
    match counts.as_slice() {
        ["next-game", game, "moves", moves, "bytes", bytes] => {
            match (game.parse(), moves.parse(), bytes.parse()) {
                (Ok(next_game), Ok(moves), Ok(bytes)) => Ok((
                    settings,
                    datafile::Progress {
                        next_game,
                        moves,
                        bytes,
                    },
                )),
                _ => Err(format!("{}: unreadable counts", path.display())),
            }
        }
        _ => Err(format!("{}: no counts line", path.display())),
    }
}

/// Splits whole games into pieces of at most `limit` raw bytes each (a game longer than that
/// is a piece of its own).
fn split_games(raw: &[u8], limit: usize) -> Result<Vec<&[u8]>, String> {
    let mut pieces = Vec::new();
    let mut start = 0;
    let mut at = 0;
    while at < raw.len() {
        let (_, used) =
            viriformat::Game::read(&raw[at..]).map_err(|why| format!("byte {at}: {why}"))?;
        if at + used - start > limit && at > start {
            pieces.push(&raw[start..at]);
            start = at;
        }
        at += used;
    }
    if at > start {
        pieces.push(&raw[start..at]);
    }
    Ok(pieces)
}

/// Puts a datagen run into `dir`: its whole games not yet there, compressed, under `name`
/// (one file, or `name-1`, `name-2`, ... when it would pass `MAX_FILE_BYTES`), each line
/// saying which game of the run it starts at (`first-game`). A run that goes on playing can
/// so be added again and again, each time as new files. Returns the new entries.
pub fn add(run: &Path, dir: &Path, name: &str) -> Result<Vec<Entry>, String> {
    let (settings, progress) = run_settings(run)?;
    let data = fs::read(run).map_err(|e| format!("cannot read {}: {e}", run.display()))?;
    let whole = data.get(..progress.bytes as usize).ok_or_else(|| {
        format!(
            "{} holds {} bytes, fewer than the {} its progress file counts",
            run.display(),
            data.len(),
            progress.bytes
        )
    })?;
    let (games, moves) =
        viriformat::count(whole).map_err(|why| format!("{}: {why}", run.display()))?;
    if (games, moves) != (progress.next_game, progress.moves) {
        return Err(format!(
            "{}: {games} games and {moves} moves in its first {} bytes; its progress file counts {} and {}",
            run.display(),
            progress.bytes,
            progress.next_game,
            progress.moves
        ));
    }
    // The games of this run already in the folder (an earlier `add` of the same run, which
    // went on playing since): only the games after them are new.
    let existing = read_manifest(dir)?;
    let same_run = |entry: &&Entry| {
        let theirs = entry.settings.iter().filter(|(k, _)| k != FIRST_GAME);
        theirs.eq(settings.iter())
    };
    let stored: u64 = existing.iter().filter(same_run).map(|e| e.games).sum();
    if games <= stored {
        return Err(format!(
            "{}: its {games} whole games are all in {} already",
            run.display(),
            dir.join(MANIFEST).display()
        ));
    }
    let whole = &whole[viriformat::skip_games(whole, stored)?..];
    // Compressed data is about 0.8 of the raw: pieces of raw bytes that compress under the
    // limit with room to spare.
    let limit = (MAX_FILE_BYTES as f64 / 0.95) as usize;
    let mut pieces = split_games(whole, limit)?;
    let compressed: Vec<Vec<u8>> = loop {
        let attempt: Vec<Vec<u8>> = pieces
            .iter()
            .map(|piece| compress(piece).map_err(|e| format!("zstd: {e}")))
            .collect::<Result<_, _>>()?;
        if attempt.iter().all(|c| c.len() as u64 <= MAX_FILE_BYTES) {
            break attempt;
        }
        let smaller = pieces.iter().map(|p| p.len()).max().unwrap_or(0) * 3 / 4;
        pieces = split_games(whole, smaller.max(1))?;
    };
    fs::create_dir_all(dir).map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
    let mut entries = Vec::new();
    let mut first_game = stored;
    for (index, (piece, bytes)) in pieces.iter().zip(&compressed).enumerate() {
        let file = if pieces.len() == 1 {
            format!("{name}.vf.zst")
        } else {
            format!("{name}-{}.vf.zst", index + 1)
        };
        if existing.iter().any(|e| e.file == file) || dir.join(&file).exists() {
            return Err(format!(
                "{} already exists: data files are never rewritten; give another --name",
                dir.join(&file).display()
            ));
        }
        let (games, moves) = viriformat::count(piece)?;
        let mut settings = settings.clone();
        settings.push((FIRST_GAME.to_string(), first_game.to_string()));
        first_game += games;
        entries.push((
            Entry {
                file,
                settings,
                games,
                moves,
                raw_bytes: piece.len() as u64,
                checksum: fnv1a(bytes),
            },
            bytes,
        ));
    }
    for (entry, bytes) in &entries {
        let path = dir.join(&entry.file);
        fs::write(&path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        warn_if_large(entry, bytes.len());
    }
    let mut manifest = fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(dir.join(MANIFEST))
        .map_err(|e| format!("cannot write {}: {e}", dir.join(MANIFEST).display()))?;
    for (entry, _) in &entries {
        writeln!(manifest, "{}", entry.line())
            .map_err(|e| format!("cannot write {MANIFEST}: {e}"))?;
    }
    Ok(entries.into_iter().map(|(entry, _)| entry).collect())
}

fn warn_if_large(entry: &Entry, bytes: usize) {
    let per_move = bytes as f64 / entry.moves.max(1) as f64;
    if per_move > MAX_BYTES_PER_MOVE {
        eprintln!(
            "data: note: {} takes {per_move:.2} bytes per recorded move (more than {MAX_BYTES_PER_MOVE}; `cargo test` asks it of the whole folder)",
            entry.file
        );
    }
}

/// The default name of a run's files: the date and the seed.
fn default_name(run: &Path) -> String {
    let seed = run_settings(run)
        .ok()
        .and_then(|(settings, _)| settings.into_iter().find(|(k, _)| k == "seed"))
        .map_or_else(|| "0".to_string(), |(_, v)| v);
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    let (year, month, day) = civil_from_days(days);
    format!("{year:04}-{month:02}-{day:02}-seed{seed}")
}

/// `base`, or `base-b`, `base-c`, ... : the first that names no file of `dir` yet (a run
/// added again the same day).
fn free_name(dir: &Path, base: &str) -> String {
    let taken = |name: &str| {
        fs::read_dir(dir).is_ok_and(|listing| {
            listing.flatten().any(|f| {
                f.file_name()
                    .to_string_lossy()
                    .starts_with(&format!("{name}."))
                    || f.file_name()
                        .to_string_lossy()
                        .starts_with(&format!("{name}-"))
            })
        })
    };
    if !taken(base) {
        return base.to_string();
    }
    (b'b'..=b'z')
        .map(|letter| format!("{base}-{}", letter as char))
        .find(|name| !taken(name))
        .unwrap_or_else(|| format!("{base}-{}", std::process::id()))
}

/// The date of a day number since 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// Runs `brudno data`.
pub fn run(args: &DataArgs, out: &mut dyn FnMut(&str)) -> ExitCode {
    match &args.action {
        DataAction::Add { run, dir, name } => {
            let name = name
                .clone()
                .unwrap_or_else(|| free_name(dir, &default_name(run)));
            match add(run, dir, &name) {
                Ok(entries) => {
                    for entry in entries {
                        let size = fs::metadata(dir.join(&entry.file)).map_or(0, |m| m.len());
                        out(&format!(
                            "{}: {} games, {} moves, {size} bytes ({:.2} per move)",
                            dir.join(&entry.file).display(),
                            entry.games,
                            entry.moves,
                            size as f64 / entry.moves.max(1) as f64
                        ));
                    }
                    ExitCode::SUCCESS
                }
                Err(why) => {
                    eprintln!("data add: {why}");
                    ExitCode::from(2)
                }
            }
        }
        DataAction::Check { dir } => match check(dir) {
            Ok(checked) => {
                let games: u64 = checked.present().map(|e| e.games).sum();
                let moves: u64 = checked.present().map(|e| e.moves).sum();
                let bytes: u64 = checked
                    .present()
                    .map(|e| fs::metadata(dir.join(&e.file)).map_or(0, |m| m.len()))
                    .sum();
                out(&format!(
                    "{}: {} files, {games} games, {moves} recorded moves, {bytes} bytes ({:.2} per move); all match {MANIFEST}",
                    dir.display(),
                    checked.present().count(),
                    bytes as f64 / moves.max(1) as f64
                ));
                if !checked.skipped.is_empty() {
                    let moves: u64 = checked
                        .entries
                        .iter()
                        .filter(|e| checked.skipped.contains(&e.file))
                        .map(|e| e.moves)
                        .sum();
                    out(&format!(
                        "skipped {} files the manifest names that this checkout lacks ({moves} recorded moves; a clone without the data, docs/datagen.md says how): {}",
                        checked.skipped.len(),
                        checked.skipped.join(" ")
                    ));
                }
                ExitCode::SUCCESS
            }
            Err(problems) => {
                for problem in problems {
                    eprintln!("data check: {problem}");
                }
                ExitCode::FAILURE
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_civil() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_425), (2025, 12, 3));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }

    #[test]
    fn manifest_lines_round_trip() {
        let entry = Entry {
            file: "2026-12-03-seed101.vf.zst".to_string(),
            settings: vec![
                ("seed".to_string(), "101".to_string()),
                ("nodes".to_string(), "5000".to_string()),
            ],
            games: 12,
            moves: 1234,
            raw_bytes: 5432,
            checksum: 0x0123_4567_89ab_cdef,
        };
        let line = entry.line();
        assert_eq!(
            line,
            "file=2026-12-03-seed101.vf.zst seed=101 nodes=5000 games=12 moves=1234 raw-bytes=5432 fnv1a64=0123456789abcdef"
        );
        assert_eq!(Entry::parse(&line), Ok(entry.clone()));
        assert_eq!(entry.setting("seed"), Some("101"));
        assert!(
            Entry::parse("file=a games=x")
                .unwrap_err()
                .contains("games")
        );
    }
}
