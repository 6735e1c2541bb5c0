//! The `brudno` binary: with no arguments it speaks UCI on stdin/stdout; subcommands run the
//! tools (`bench`, `perft`).

use std::io::{BufReader, stdin, stdout};
use std::process::ExitCode;

use brudno::tools;
use brudno::uci::{self, Output};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None | Some("uci") => {
            uci::run(BufReader::new(stdin()), Output::new(Box::new(stdout())));
            ExitCode::SUCCESS
        }
        Some("bench") => {
            let depth = match args.get(1).map(|d| d.parse::<u32>()) {
                None => None,
                Some(Ok(depth)) if (1..=64).contains(&depth) => Some(depth),
                Some(_) => {
                    eprintln!("brudno bench: depth must be a number from 1 to 64");
                    return ExitCode::from(2);
                }
            };
            let summary = tools::bench::run(depth, &mut |line| println!("{line}"));
            println!("{summary}");
            ExitCode::SUCCESS
        }
        Some("help" | "--help" | "-h") => {
            println!("{}", usage());
            ExitCode::SUCCESS
        }
        Some(other) => {
            eprintln!("brudno: unknown command '{other}'\n\n{}", usage());
            ExitCode::from(2)
        }
    }
}

fn usage() -> &'static str {
    "usage: brudno [uci | bench [depth] | help]\n\
     With no arguments Brudno speaks UCI on standard input and output."
}
