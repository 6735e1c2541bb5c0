//! `brudno nnue-info [FILE]`: the architecture of a network file (or of the embedded network)
//! as JSON: inputs, king buckets and their layout, mirroring, hidden size, output buckets,
//! scales, the parameter count, the file's size and checksum, and the SIMD loops this
//! processor runs it with. A file that cannot be read or checked is a message naming the
//! reason (an older format names its version) and exit status 2.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use brudno_engine::eval::nnue;
use brudno_engine::eval::nnue::network::{Network, VERSION, file_bytes};

/// Arguments of `brudno nnue-info`.
#[derive(Args, Debug, Clone)]
pub struct NnueInfoArgs {
    /// A network file; without it, the network embedded in the binary.
    pub file: Option<PathBuf>,
}

/// Prints the JSON description, or why the file was refused.
pub fn run(args: &NnueInfoArgs) -> ExitCode {
    let (network, source) = match &args.file {
        None => ((*nnue::embedded()).clone(), "<embedded>".to_string()),
        Some(path) => match nnue::read_file(&path.to_string_lossy()) {
            Ok(network) => (network, path.display().to_string()),
            Err(why) => {
                eprintln!("nnue-info: {why}");
                return ExitCode::from(2);
            }
        },
    };
    let mut info = info_json(&network);
    info["file"] = serde_json::Value::String(source);
    // What it learned from, when its record is there (`brudno train` writes it).
    info["training"] = crate::train::record::find(args.file.as_deref(), network.checksum())
        .unwrap_or_else(|| {
            serde_json::Value::String("no training record beside this network".to_string())
        });
    let text = serde_json::to_string(&info).unwrap_or_default();
    let _ = writeln!(std::io::stdout(), "{text}");
    ExitCode::SUCCESS
}

/// The architecture and the file's facts as JSON.
pub fn info_json(network: &Network) -> serde_json::Value {
    let arch = &network.arch;
    serde_json::json!({
        "format_version": VERSION,
        "inputs": nnue::INPUTS,
        "king_buckets": arch.king_buckets,
        "mirrored": arch.mirrored,
        "bucket_of": arch.bucket_of.to_vec(),
        "hidden": arch.hidden,
        "output_buckets": arch.output_buckets,
        "activation": "screlu",
        "qa": nnue::QA,
        "qb": nnue::QB,
        "scale": nnue::SCALE,
        "parameters": network.parameters(),
        "bytes": file_bytes(arch),
        "checksum": format!("{:016x}", network.checksum()),
        "simd": network.simd_name(),
    })
}
