//! `brudno nnue-info [FILE]`: the architecture of a network file (or of the embedded network)
//! as JSON: inputs, king buckets and their layout, mirroring, hidden size, output buckets,
//! scales, the parameter count, the file's size and checksum, and the SIMD loops this
//! processor runs it with. A file that cannot be read or checked is a message naming the
//! reason (an older format names its version) and exit status 2.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::eval::nnue;

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
    let mut info = network.info_json();
    info["file"] = serde_json::Value::String(source);
    let text = serde_json::to_string(&info).unwrap_or_default();
    let _ = writeln!(std::io::stdout(), "{text}");
    ExitCode::SUCCESS
}
