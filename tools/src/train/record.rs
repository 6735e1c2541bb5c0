//! The training record of a network: what it learned from and how. `brudno train` writes it
//! beside the network file as `<network>.json`; `brudno nnue-info` prints it under
//! `"training"` (for the embedded network, `nets/default.json`, when its checksum is the
//! embedded network's). A network without its record says so rather than guess.
//!
//! The record names the data by file, size and FNV-1a checksum (and the digest of `data/`'s
//! MANIFEST when the files come from there), the positions after the filter, the epochs and
//! the learning-rate schedule, the epoch kept, and the network training started from, if
//! any, by its checksum.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use brudno_engine::eval::nnue::network::fnv1a;

use crate::datafile::COMMIT;
use crate::datastore::MANIFEST;

use super::TrainArgs;

/// `<network>.json`, the record beside a network file.
pub fn sidecar(network: &Path) -> PathBuf {
    let mut name = network.as_os_str().to_os_string();
    name.push(".json");
    PathBuf::from(name)
}

/// The record of the embedded network, as committed beside it (`nets/default.json`).
pub const EMBEDDED: &str = include_str!("../../../nets/default.json");

/// What one run of `brudno train` did, for the record.
pub struct Run<'a> {
    /// The arguments.
    pub args: &'a TrainArgs,
    /// Training positions after the filter (mirrored copies not counted).
    pub positions: u64,
    /// Held-out positions.
    pub held_out: u64,
    /// Games read.
    pub games: u64,
    /// The epoch whose network was kept, and its held-out loss.
    pub kept: (usize, f32),
    /// The checksum of the network training started from (`--init`), if any.
    pub start: Option<u64>,
    /// The checksum of the network written.
    pub checksum: u64,
}

/// The record of `run` as JSON.
pub fn to_json(run: &Run) -> Value {
    let args = run.args;
    let data: Vec<Value> = args
        .data
        .iter()
        .map(|path| {
            let bytes = std::fs::read(path).unwrap_or_default();
            json!({
                "file": path.file_name().map(|n| n.to_string_lossy().into_owned()),
                "bytes": bytes.len(),
                "fnv1a64": format!("{:016x}", fnv1a(&bytes)),
            })
        })
        .collect();
    // The data folder's manifest, when the files come from one.
    let manifest = args
        .data
        .first()
        .and_then(|path| path.parent())
        .map(|dir| dir.join(MANIFEST))
        .and_then(|path| std::fs::read(path).ok())
        .map(|bytes| format!("{:016x}", fnv1a(&bytes)));
    json!({
        "network_checksum": format!("{:016x}", run.checksum),
        "positions": run.positions,
        "held_out_positions": run.held_out,
        "games": run.games,
        "games_fraction": args.games_fraction,
        "data": data,
        "manifest_fnv1a64": manifest,
        "epochs": args.epochs,
        "epoch_kept": run.kept.0,
        "held_out_loss": run.kept.1,
        "learning_rate": args.learning_rate,
        "decay_per_epoch": args.decay,
        "schedule": args.schedule.name(),
        "warmup_epochs": args.warmup,
        "final_rate_share": args.final_rate,
        "batch": args.batch,
        "lambda": args.lambda,
        "mirror": args.mirror,
        "seed": args.seed,
        "started_from": run.start.map(|c| format!("{c:016x}")),
        "trainer_commit": COMMIT,
    })
}

/// The record of the network with `checksum`: the sidecar of `file` when there is one and it
/// names this network, else the embedded network's record when that names it (`nets/default.nnue`
/// given as a file, or a copy of it).
pub fn find(file: Option<&Path>, checksum: u64) -> Option<Value> {
    let matches = |text: &str| {
        let record: Value = serde_json::from_str(text).ok()?;
        (record["network_checksum"].as_str() == Some(&format!("{checksum:016x}"))).then_some(record)
    };
    // A file's own record first; a copy of the embedded network has the embedded record.
    file.and_then(|path| std::fs::read_to_string(sidecar(path)).ok())
        .and_then(|text| matches(&text))
        .or_else(|| matches(EMBEDDED))
}
