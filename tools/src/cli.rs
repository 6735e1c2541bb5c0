//! The command line's parsers for the engine core's types, so that the core needs no clap:
//! `--eval material|positional|nnue` with its possible values in `--help`.

use clap::builder::{PossibleValuesParser, TypedValueParser};

use brudno_engine::eval::Evaluation;

/// The parser of an `--eval` argument.
pub fn evaluation() -> impl TypedValueParser<Value = Evaluation> {
    PossibleValuesParser::new(Evaluation::ALL.map(Evaluation::name))
        .map(|name| name.parse::<Evaluation>().unwrap_or_default())
}
