//! `brudno datadump`: a datagen file as text (`<FEN> | <score> | <result>` lines), as a
//! summary of its counts, or converted to plain marlinformat records (`--marlin OUT`) for the
//! field's trainers and tools.

use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::tools::packed;

/// Arguments of `brudno datadump`.
#[derive(Args, Debug, Clone)]
pub struct DatadumpArgs {
    /// A file written by `brudno datagen` (either record format).
    pub file: PathBuf,
    /// Print at most this many positions.
    #[arg(long)]
    pub limit: Option<usize>,
    /// Only the counts: positions, games, results, bad records.
    #[arg(long)]
    pub summary: bool,
    /// Write every good record to OUT as plain marlinformat (castling rights as type-6 rooks,
    /// the spare byte zero) instead of printing.
    #[arg(long, value_name = "OUT")]
    pub marlin: Option<PathBuf>,
}

/// Runs `brudno datadump`.
pub fn dump(args: &DatadumpArgs, out: &mut dyn FnMut(&str)) -> ExitCode {
    let data = match std::fs::read(&args.file) {
        Ok(data) => data,
        Err(error) => {
            eprintln!("datadump: cannot read {}: {error}", args.file.display());
            return ExitCode::from(2);
        }
    };
    let mut bad = 0;
    let records = packed::decode_all(&data, &mut |index, why| {
        bad += 1;
        eprintln!("{}: record {}: {why}", args.file.display(), index + 1);
    });
    if let Some(path) = &args.marlin {
        if let Err(error) = write_marlin(path, &records) {
            eprintln!("datadump: cannot write {}: {error}", path.display());
            return ExitCode::from(2);
        }
        out(&format!(
            "{} records written to {} as marlinformat; {bad} bad records skipped",
            records.len(),
            path.display()
        ));
    } else if args.summary {
        let games = records.iter().filter(|r| r.game_start).count();
        let mut results = [0usize; 3];
        for record in &records {
            results[usize::from(record.result)] += 1;
        }
        out(&format!(
            "{} positions, {games} games, results for White (positions): {} won, {} drawn, {} lost; {bad} bad records",
            records.len(),
            results[2],
            results[1],
            results[0]
        ));
    } else {
        for record in records.iter().take(args.limit.unwrap_or(usize::MAX)) {
            out(&packed::to_text(record));
        }
    }
    if bad > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn write_marlin(path: &std::path::Path, records: &[packed::Record]) -> std::io::Result<()> {
    let mut writer = BufWriter::new(std::fs::File::create(path)?);
    for record in records {
        writer.write_all(&packed::to_marlin(record))?;
    }
    writer.flush()
}
