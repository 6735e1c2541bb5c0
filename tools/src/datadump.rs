//! `brudno datadump`: training data as text (`<FEN> | <score> | <result>` lines, one per
//! training position), as a summary of its counts, or converted to plain marlinformat records
//! (`--marlin OUT`) for the field's trainers and tools. It reads what `dataset.rs` reads:
//! viriformat games (`*.vf`, `*.vf.zst`), whose training positions are the quiet ones
//! (`viriformat::Game::training_records`), and marlinformat records.

use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::{dataset, packed};

/// Arguments of `brudno datadump`.
#[derive(Args, Debug, Clone)]
pub struct DatadumpArgs {
    /// A file written by `brudno datagen` or kept in `data/` (viriformat or marlinformat,
    /// compressed or not).
    pub file: PathBuf,
    /// Print at most this many positions.
    #[arg(long)]
    pub limit: Option<usize>,
    /// Only the counts: games, recorded moves, training positions, results, bad records.
    #[arg(long)]
    pub summary: bool,
    /// Write every training position to OUT as plain marlinformat (castling rights as type-6
    /// rooks, the spare byte zero) instead of printing.
    #[arg(long, value_name = "OUT")]
    pub marlin: Option<PathBuf>,
}

/// Runs `brudno datadump`.
pub fn dump(args: &DatadumpArgs, out: &mut dyn FnMut(&str)) -> ExitCode {
    let mut bad = 0;
    let loaded = dataset::load(&args.file, &mut |index, why| {
        bad += 1;
        eprintln!("{}: {index}: {why}", args.file.display());
    });
    let loaded = match loaded {
        Ok(loaded) => loaded,
        Err(why) => {
            eprintln!("datadump: {why}");
            return ExitCode::from(2);
        }
    };
    let records = &loaded.records;
    if let Some(path) = &args.marlin {
        if let Err(error) = write_marlin(path, records) {
            eprintln!("datadump: cannot write {}: {error}", path.display());
            return ExitCode::from(2);
        }
        out(&format!(
            "{} records written to {} as marlinformat; {bad} bad records skipped",
            records.len(),
            path.display()
        ));
    } else if args.summary {
        let mut results = [0usize; 3];
        for record in records {
            results[usize::from(record.result)] += 1;
        }
        out(&format!(
            "{} games, {} recorded moves, {} training positions, results for White (positions): {} won, {} drawn, {} lost; {bad} bad records",
            loaded.games,
            loaded.moves,
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
