//! Syzygy endgame tablebases: loading the table files, probing them without ever failing the
//! search, and the settings a search probes them with.
//!
//! `Tablebases::load` reads the folders of a `SyzygyPath` (`:`-separated on Unix, `;` on
//! Windows), checks every `.rtbw` / `.rtbz` file's size and magic header, hands the good ones
//! to `shakmaty-syzygy` (which opens them lazily, at the first probe) and says in plain words
//! what it found or why nothing was usable. The loaded tables are shared by every search
//! thread through an `Arc`. A probe answers `None` whenever it has no answer: too many pieces,
//! castling rights, a table that is not there, a table that turns out to be corrupt (then the
//! tables switch themselves off and keep the reason for the front end to report once). Probes
//! catch panics from the table code, so a bad file can never take the engine down. The root
//! ranking by DTZ lives in `root.rs`; the probes inside the tree are the search's (`search/tbprobe.rs`).

mod root;

use std::collections::HashSet;
use std::fs::File;
use std::io::Read;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use shakmaty::{Board, Chess, Color, Position as _};
use shakmaty_syzygy::{Dtz, ProbeError, SyzygyError, Tablebase, Wdl};

pub use root::{RankedMove, RootRanking, rank_root};

/// The `SyzygyPath` value that means "no tables" (as Stockfish has it).
pub const EMPTY_PATH: &str = "<empty>";

/// What separates the folders of a `SyzygyPath`: `;` on Windows, `:` elsewhere.
pub const PATH_SEPARATOR: char = if cfg!(windows) { ';' } else { ':' };

/// Magic header of a WDL (`.rtbw`) file.
const WDL_MAGIC: [u8; 4] = [0x71, 0xe8, 0x23, 0x5d];
/// Magic header of a DTZ (`.rtbz`) file.
const DTZ_MAGIC: [u8; 4] = [0xd7, 0x66, 0x0c, 0xa5];

/// Syzygy tables for standard chess cover at most this many pieces (kings included).
pub const MAX_TABLE_PIECES: usize = 7;

/// The tables found on a `SyzygyPath`, ready to probe from any thread.
pub struct Tablebases {
    tables: Tablebase<Chess>,
    /// Material signatures (`material_key`) with a WDL file.
    wdl: HashSet<u32>,
    /// Material signatures with a DTZ file.
    dtz: HashSet<u32>,
    files: usize,
    max_pieces: usize,
    folders: String,
    /// Raised when a probe met a corrupt or unreadable table: from then on nothing is probed.
    failed: AtomicBool,
    /// Why `failed` was raised, until the front end has reported it.
    failure: Mutex<Option<String>>,
}

impl std::fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.summary())
    }
}

/// How a search uses the tables: the `Syzygy*` options with the loaded tables.
#[derive(Clone, Debug)]
pub struct Syzygy {
    /// The loaded tables.
    pub tables: Arc<Tablebases>,
    /// `SyzygyProbeDepth`: probe inside the tree only at this remaining depth or more (unless
    /// the position has fewer pieces than the probe limit).
    pub probe_depth: i32,
    /// `SyzygyProbeLimit`: probe only positions with at most this many pieces (0: never).
    pub probe_limit: usize,
    /// `Syzygy50MoveRule`: a win the 50-move rule spoils (cursed) counts as a draw.
    pub rule50: bool,
}

impl PartialEq for Syzygy {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.tables, &other.tables)
            && self.probe_depth == other.probe_depth
            && self.probe_limit == other.probe_limit
            && self.rule50 == other.rule50
    }
}

impl Eq for Syzygy {}

impl Syzygy {
    /// The most pieces a position may have to be probed: the probe limit, or the largest
    /// table if that is smaller.
    pub fn piece_limit(&self) -> usize {
        self.probe_limit.min(self.tables.max_pieces())
    }
}

/// What one folder of the path gave.
#[derive(Default)]
struct FolderScan {
    files: usize,
    problems: Vec<String>,
}

impl Tablebases {
    /// Loads every folder of `path` (see `PATH_SEPARATOR`). Returns the tables, if any file
    /// was usable, and the messages for the user: one summary line, or why nothing was
    /// loaded, and a line for each folder or file that was skipped. An empty path or
    /// `<empty>` loads nothing and says so.
    pub fn load(path: &str) -> (Option<Arc<Tablebases>>, Vec<String>) {
        let path = path.trim();
        if path.is_empty() || path == EMPTY_PATH {
            return (
                None,
                vec!["Syzygy: no SyzygyPath, tablebases off".to_string()],
            );
        }
        let mut tables = Tablebases {
            tables: Tablebase::new(),
            wdl: HashSet::new(),
            dtz: HashSet::new(),
            files: 0,
            max_pieces: 0,
            folders: path.to_string(),
            failed: AtomicBool::new(false),
            failure: Mutex::new(None),
        };
        let mut messages = Vec::new();
        for folder in path.split(PATH_SEPARATOR).map(str::trim) {
            if folder.is_empty() {
                continue;
            }
            let scan = tables.add_folder(Path::new(folder));
            messages.extend(scan.problems);
        }
        if tables.files == 0 {
            messages.push(format!("Syzygy: no tables found in {path}, tablebases off"));
            return (None, messages);
        }
        messages.insert(0, tables.summary());
        (Some(Arc::new(tables)), messages)
    }

    /// `Syzygy: 70 files, 35 tables, up to 4 pieces, from <path>`.
    pub fn summary(&self) -> String {
        let plural = |n: usize| if n == 1 { "" } else { "s" };
        let (files, tables) = (self.files, self.table_count());
        format!(
            "Syzygy: {files} file{}, {tables} table{}, up to {} pieces, from {}",
            plural(files),
            plural(tables),
            self.max_pieces,
            self.folders
        )
    }

    /// Table files loaded (WDL and DTZ counted apart).
    pub fn files(&self) -> usize {
        self.files
    }

    /// Material configurations with at least one file (KQvK counts once for its two files).
    pub fn table_count(&self) -> usize {
        self.wdl.union(&self.dtz).count()
    }

    /// The most pieces (kings included) of any loaded table.
    pub fn max_pieces(&self) -> usize {
        self.max_pieces
    }

    fn add_folder(&mut self, folder: &Path) -> FolderScan {
        let mut scan = FolderScan::default();
        let shown = folder.display();
        let entries = match std::fs::read_dir(folder) {
            Ok(entries) => entries,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                scan.problems
                    .push(format!("Syzygy: folder {shown} does not exist"));
                return scan;
            }
            Err(error) => {
                scan.problems
                    .push(format!("Syzygy: cannot read folder {shown}: {error}"));
                return scan;
            }
        };
        let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        paths.sort();
        let mut candidates = 0;
        for file in paths {
            let Some(kind) = table_kind(&file) else {
                continue;
            };
            candidates += 1;
            match self.add_file(&file, kind) {
                Ok(()) => scan.files += 1,
                Err(reason) => scan
                    .problems
                    .push(format!("Syzygy: skipped {}: {reason}", file.display())),
            }
        }
        if candidates == 0 {
            scan.problems
                .push(format!("Syzygy: no table files (.rtbw, .rtbz) in {shown}"));
        }
        scan
    }

    /// Checks a table file's name, size and magic header and adds it.
    fn add_file(&mut self, file: &Path, kind: Kind) -> Result<(), String> {
        let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        let Some((key, pieces)) = material_from_name(stem) else {
            return Err("not a table name (like KQvK)".to_string());
        };
        let size = std::fs::metadata(file)
            .map_err(|e| format!("cannot read it: {e}"))?
            .len();
        if size % 64 != 16 {
            return Err(format!("corrupt ({size} bytes is not a table's size)"));
        }
        let mut magic = [0u8; 4];
        File::open(file)
            .and_then(|mut f| f.read_exact(&mut magic))
            .map_err(|e| format!("cannot read it: {e}"))?;
        let expected = match kind {
            Kind::Wdl => WDL_MAGIC,
            Kind::Dtz => DTZ_MAGIC,
        };
        if magic != expected {
            return Err("corrupt (wrong magic header)".to_string());
        }
        self.tables
            .add_file(file)
            .map_err(|e| format!("refused: {e}"))?;
        match kind {
            Kind::Wdl => self.wdl.insert(key),
            Kind::Dtz => self.dtz.insert(key),
        };
        self.files += 1;
        self.max_pieces = self.max_pieces.max(pieces);
        Ok(())
    }

    /// The WDL value of `pos` for the side to move, as if it were reached by a capture or a
    /// pawn move (the halfmove clock is not looked at). `None` without an answer.
    pub fn probe_wdl(&self, pos: &Chess) -> Option<Wdl> {
        if !self.probeable(pos, &self.wdl) {
            return None;
        }
        self.guard(|| self.tables.probe_wdl_after_zeroing(pos))
    }

    /// The DTZ value of `pos` (rounding ignored): plies to the next capture or pawn move on
    /// the way to the result, signed as the result. `None` without an answer.
    pub fn probe_dtz(&self, pos: &Chess) -> Option<Dtz> {
        if !self.probeable(pos, &self.dtz) {
            return None;
        }
        self.guard(|| self.tables.probe_dtz(pos))
            .map(shakmaty_syzygy::MaybeRounded::ignore_rounding)
    }

    /// Whether a probe of `pos` may answer: tables working, no castling rights, and a file
    /// for its material.
    fn probeable(&self, pos: &Chess, files: &HashSet<u32>) -> bool {
        !self.failed.load(Ordering::Relaxed)
            && !pos.castles().any()
            && files.contains(&material_key(pos.board()))
    }

    /// Runs a probe: errors are "no answer"; a corrupt or unreadable table, or a panic in the
    /// table code, switches the tables off and keeps the reason.
    fn guard<T>(&self, probe: impl FnOnce() -> Result<T, SyzygyError>) -> Option<T> {
        match catch_unwind(AssertUnwindSafe(probe)) {
            Ok(Ok(value)) => Some(value),
            Ok(Err(SyzygyError::ProbeFailed {
                error,
                material,
                metric,
            })) => {
                let why = match *error {
                    ProbeError::Read { error } => format!("cannot be read: {error}"),
                    ProbeError::Magic { .. } => "has a wrong magic header".to_string(),
                    ProbeError::CorruptedTable { .. } => "is corrupt".to_string(),
                };
                let metric = metric.to_string().to_uppercase();
                self.fail(format!("{metric} table {material} {why}"));
                None
            }
            Ok(Err(_)) => None,
            Err(_) => {
                self.fail("the table code failed on a probe".to_string());
                None
            }
        }
    }

    fn fail(&self, reason: String) {
        if !self.failed.swap(true, Ordering::SeqCst) {
            let reason: String = reason
                .lines()
                .next()
                .unwrap_or("")
                .chars()
                .take(200)
                .collect();
            *self.failure.lock().unwrap_or_else(|p| p.into_inner()) = Some(format!(
                "Syzygy: {reason}; tablebases off until SyzygyPath is set again"
            ));
        }
    }

    /// Whether a probe met a corrupt or unreadable table (the tables are off since).
    pub fn has_failed(&self) -> bool {
        self.failed.load(Ordering::Relaxed)
    }

    /// The message about a failed probe, once: later calls return `None`.
    pub fn take_failure(&self) -> Option<String> {
        self.failure
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take()
    }
}

/// The two kinds of table file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Wdl,
    Dtz,
}

fn table_kind(file: &Path) -> Option<Kind> {
    match file.extension()?.to_str()? {
        "rtbw" => Some(Kind::Wdl),
        "rtbz" => Some(Kind::Dtz),
        _ => None,
    }
}

/// Bits per piece count in a material signature.
const COUNT_BITS: u32 = 3;

/// One side's pieces other than the king, packed: pawns, knights, bishops, rooks, queens.
fn side_key(counts: [u8; 5]) -> u32 {
    counts
        .iter()
        .enumerate()
        .map(|(i, &c)| u32::from(c.min(7)) << (COUNT_BITS * i as u32))
        .sum()
}

/// A signature of the material of both sides that does not depend on which side is which
/// (a KRvKP table answers both colours).
fn pair_key(white: u32, black: u32) -> u32 {
    let (low, high) = if white <= black {
        (white, black)
    } else {
        (black, white)
    };
    low | high << 16
}

/// The material signature of a board.
fn material_key(board: &Board) -> u32 {
    let side = |color: Color| {
        let m = board.material_side(color);
        side_key([m.pawn, m.knight, m.bishop, m.rook, m.queen])
    };
    pair_key(side(Color::White), side(Color::Black))
}

/// The material signature and piece count of a table name such as `KRPvKR`; `None` for
/// anything else.
fn material_from_name(name: &str) -> Option<(u32, usize)> {
    let (white, black) = name.split_once('v')?;
    let side = |text: &str| -> Option<[u8; 5]> {
        let rest = text.strip_prefix('K')?;
        let mut counts = [0u8; 5];
        for c in rest.chars() {
            let index = "PNBRQ".find(c)?;
            counts[index] += 1;
        }
        Some(counts)
    };
    let (w, b) = (side(white)?, side(black)?);
    let pieces = 2 + w.iter().chain(&b).map(|&c| usize::from(c)).sum::<usize>();
    if pieces > MAX_TABLE_PIECES || w.iter().chain(&b).any(|&c| c > 7) {
        return None;
    }
    Some((pair_key(side_key(w), side_key(b)), pieces))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    #[test]
    fn table_names_give_colour_blind_signatures() {
        let (krp, pieces) = material_from_name("KRPvKR").unwrap();
        assert_eq!(pieces, 5);
        let board = Position::from_fen("8/8/3k4/8/8/3K4/r3P3/7R w - - 0 1", false).unwrap();
        assert_eq!(material_key(board.board()), krp);
        let swapped = Position::from_fen("8/8/3k4/8/8/3K4/R3p3/7r w - - 0 1", false).unwrap();
        assert_eq!(material_key(swapped.board()), krp);
        assert_ne!(material_from_name("KRvKP").unwrap().0, krp);
        for bad in ["KQK", "QvK", "KXvK", "KQQQQQQvK", "", "v"] {
            assert_eq!(material_from_name(bad), None, "{bad}");
        }
    }

    #[test]
    fn an_empty_path_loads_nothing() {
        for path in ["", "  ", EMPTY_PATH] {
            let (tables, messages) = Tablebases::load(path);
            assert!(tables.is_none());
            assert_eq!(messages.len(), 1);
        }
    }

    #[test]
    fn a_missing_folder_is_reported() {
        let (tables, messages) = Tablebases::load("/no/such/folder/for/brudno");
        assert!(tables.is_none());
        assert!(messages[0].contains("does not exist"), "{messages:?}");
        assert!(messages.last().unwrap().contains("no tables found"));
    }
}
