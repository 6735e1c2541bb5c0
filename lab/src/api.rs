//! The lab's JSON API, apart from the HTTP server: a request's path and query string in, a
//! `Reply` (status, content type, body) out. `/api/trace` reads its parameters into the
//! command line of `brudno trace` (`TraceArgs`) and builds the trace with the trace tool's
//! own code, so that the lab and the command line give the same trace for the same
//! arguments; `/api/ebf` runs the search lab's configurations (`ebf::lab`) on one position or
//! the built-in set and answers with `brudno ebf`'s JSON.
//!
//! Every parameter is read into a type here, at the edge; a bad one is an HTTP 400 whose JSON
//! names it (`{"error": ..., "parameter": ...}`). Nothing here may panic on input, and every
//! search runs under the request's `Budget`.

use std::collections::BTreeMap;
use std::time::Instant;

use serde_json::json;

use crate::trace::chess::{self, ChessSource};
use crate::trace::textbook::Algorithm;
use crate::trace::{self, Budget, TIME_LIMIT_MESSAGE, TraceArgs, html};
use brudno_engine::eval::Evaluation;
use brudno_engine::position::Position;
use brudno_tools::ebf::lab::{LabConfig, LabPosition, LabRun, Sample, value_differences};
use brudno_tools::ebf::{self, summary};
use brudno_tools::epd::notation;

/// The deepest `/api/ebf` search of one position (minimax at depth 4 is about 10^6 nodes).
pub const EBF_MAX_DEPTH: u32 = 4;
/// The deepest `/api/ebf` search of the built-in set of positions.
pub const EBF_SET_MAX_DEPTH: u32 = 3;
/// The most nodes a traced chess search may visit in the lab (its JSON is about 0.7 KB a
/// node: this keeps a trace under about 70 MB).
pub const MAX_TRACED_NODES: u64 = 100_000;
/// The longest query string read.
pub const MAX_QUERY_BYTES: usize = 1 << 20;

/// An answer: status, content type and body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// The HTTP status.
    pub status: u16,
    /// The `Content-Type`.
    pub content_type: &'static str,
    /// The body.
    pub body: String,
}

impl Reply {
    fn json(status: u16, body: String) -> Self {
        Self {
            status,
            content_type: "application/json; charset=utf-8",
            body,
        }
    }

    /// An error naming the parameter at fault (none when no one parameter is).
    pub fn error(status: u16, message: &str, parameter: Option<&str>) -> Self {
        Self::json(
            status,
            json!({ "error": message, "parameter": parameter }).to_string(),
        )
    }
}

/// A bad parameter: what was wrong, and which parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadParameter {
    /// The message.
    pub message: String,
    /// The parameter.
    pub parameter: Option<String>,
}

fn bad(parameter: &str, message: impl Into<String>) -> BadParameter {
    BadParameter {
        message: message.into(),
        parameter: Some(parameter.to_string()),
    }
}

/// Answers `target` (a path with its query string), computing under `budget`.
pub fn answer(target: &str, budget: &Budget) -> Reply {
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    match path {
        "/" | "/index.html" => Reply {
            status: 200,
            content_type: "text/html; charset=utf-8",
            body: html::lab_page(),
        },
        "/api/trace" => api_reply(query, |params| trace_json(params, budget)),
        "/api/ebf" => api_reply(query, |params| ebf_json(params, budget)),
        "/api/position" => api_reply(query, position_json),
        _ => Reply::error(404, &format!("no such page: {path}"), None),
    }
}

fn api_reply(query: &str, compute: impl FnOnce(&Params) -> Result<String, BadParameter>) -> Reply {
    let params = match Params::parse(query) {
        Ok(params) => params,
        Err(e) => return Reply::error(400, &e.message, e.parameter.as_deref()),
    };
    match compute(&params) {
        Ok(body) => Reply::json(200, body),
        Err(e) if e.message == TIME_LIMIT_MESSAGE => Reply::error(503, &e.message, None),
        Err(e) => Reply::error(400, &e.message, e.parameter.as_deref()),
    }
}

/// The parameters of a query, decoded, each given once.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Params {
    values: BTreeMap<String, String>,
}

impl Params {
    /// Reads `a=1&b=x+y`: percent-decoding, `+` for a space; a repeated parameter is an error.
    pub fn parse(query: &str) -> Result<Self, BadParameter> {
        if query.len() > MAX_QUERY_BYTES {
            return Err(BadParameter {
                message: format!("the query is longer than {MAX_QUERY_BYTES} bytes"),
                parameter: None,
            });
        }
        let mut values = BTreeMap::new();
        for pair in query.split('&').filter(|p| !p.is_empty()) {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            let key = decode(key);
            if values.insert(key.clone(), decode(value)).is_some() {
                return Err(bad(&key, format!("{key} is given twice")));
            }
        }
        Ok(Self { values })
    }

    fn get(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }

    fn flag(&self, name: &str) -> Result<bool, BadParameter> {
        match self.get(name) {
            None | Some("0" | "false") => Ok(false),
            Some("" | "1" | "true") => Ok(true),
            Some(other) => Err(bad(name, format!("{name} is 1 or 0, not '{other}'"))),
        }
    }

    fn number<T: std::str::FromStr>(&self, name: &str) -> Result<Option<T>, BadParameter> {
        self.get(name)
            .map(|text| {
                text.trim().parse::<T>().map_err(|_| {
                    bad(
                        name,
                        format!("{name} must be a non-negative integer, not '{text}'"),
                    )
                })
            })
            .transpose()
    }

    /// An error for the first parameter not in `known`.
    fn only(&self, known: &[&str]) -> Result<(), BadParameter> {
        match self.values.keys().find(|k| !known.contains(&k.as_str())) {
            Some(unknown) => Err(bad(
                unknown,
                format!(
                    "unknown parameter '{unknown}' (known: {})",
                    known.join(", ")
                ),
            )),
            None => Ok(()),
        }
    }

    fn moves(&self) -> Vec<String> {
        self.get("moves")
            .unwrap_or("")
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|m| !m.is_empty())
            .map(str::to_string)
            .collect()
    }
}

/// Percent-decoding with `+` as a space; a malformed escape stays as it is.
fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok();
                match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                    Some(byte) => {
                        out.push(byte);
                        i += 2;
                    }
                    None => out.push(b'%'),
                }
            }
            byte => out.push(byte),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The parameters of `/api/trace`.
pub const TRACE_PARAMETERS: [&str; 12] = [
    "tree",
    "random",
    "branching",
    "depth",
    "seed",
    "fen",
    "startpos",
    "moves",
    "algorithm",
    "eval",
    "compare",
    "orderings",
];

/// The command line of `brudno trace` that the query asks for.
pub fn trace_args(params: &Params) -> Result<TraceArgs, BadParameter> {
    params.only(&TRACE_PARAMETERS)?;
    let chess = params.get("fen").is_some() || params.flag("startpos")?;
    let eval = match params.get("eval") {
        None => Evaluation::Material,
        Some(name) => match name {
            "material" => Evaluation::Material,
            "positional" => Evaluation::Positional,
            "nnue" => Evaluation::Nnue,
            other => {
                return Err(bad(
                    "eval",
                    format!("unknown evaluation '{other}' (known: material, positional, nnue)"),
                ));
            }
        },
    };
    if let Some(name) = params.get("algorithm") {
        let known = if chess {
            chess::parse_algorithm(name).map(|_| ())
        } else {
            Algorithm::ALL
                .iter()
                .any(|a| a.name() == name)
                .then_some(())
                .ok_or_else(|| {
                    let names: Vec<&str> = Algorithm::ALL.iter().map(|a| a.name()).collect();
                    format!(
                        "unknown algorithm '{name}' for a toy tree (known: {})",
                        names.join(", ")
                    )
                })
        };
        known.map_err(|message| bad("algorithm", message))?;
    }
    let depth: Option<u32> = params.number("depth")?;
    if depth == Some(0) {
        return Err(bad("depth", "depth must be at least 1"));
    }
    if chess
        && let Some(depth) = depth
        && depth > chess::MAX_DEPTH
    {
        return Err(bad(
            "depth",
            format!(
                "depth {depth} is out of range for a chess trace (1 to {})",
                chess::MAX_DEPTH
            ),
        ));
    }
    if let Some(fen) = params.get("fen") {
        Position::from_fen(fen, false).map_err(|e| bad("fen", format!("illegal FEN: {e}")))?;
    }
    if let Some(text) = params.get("tree")
        && text != "standing"
    {
        trace::tree::parse(text).map_err(|e| bad("tree", format!("cannot read the tree {e}")))?;
    }
    Ok(TraceArgs {
        tree: params.get("tree").map(str::to_string),
        random: params.flag("random")?,
        branching: params.number("branching")?,
        depth,
        seed: params.number("seed")?,
        fen: params.get("fen").map(str::to_string),
        startpos: params.flag("startpos")?,
        moves: params.moves(),
        algorithm: params.get("algorithm").map(str::to_string),
        eval,
        orderings: params.flag("orderings")?,
        compare: params.flag("compare")?,
        json: None,
        html: None,
        quiet: true,
    })
}

/// The parameter a message of the trace tool is about: the first `--name` in it that the
/// query gave (or the first at all), else a guess from its words.
fn parameter_of(message: &str, params: &Params) -> Option<String> {
    let named: Vec<&str> = message
        .split("--")
        .skip(1)
        .filter_map(|rest| {
            let end = rest
                .find(|c: char| !c.is_ascii_alphanumeric() && c != '-')
                .unwrap_or(rest.len());
            TRACE_PARAMETERS
                .iter()
                .copied()
                .find(|&p| p == &rest[..end])
        })
        .collect();
    if let Some(given) = named.iter().find(|p| params.get(p).is_some()) {
        return Some(given.to_string());
    }
    if let Some(first) = named.first() {
        return Some(first.to_string());
    }
    if message.starts_with("move ") {
        return Some("moves".to_string());
    }
    if message.contains("no legal move") {
        return Some(
            if params.get("fen").is_some() {
                "fen"
            } else {
                "moves"
            }
            .to_string(),
        );
    }
    if message.contains("random tree") {
        return Some(
            if params.get("depth").is_some() {
                "depth"
            } else {
                "branching"
            }
            .to_string(),
        );
    }
    None
}

/// `/api/trace`: the trace's JSON (docs/trace.md), as `brudno trace --json` writes it.
pub fn trace_json(params: &Params, budget: &Budget) -> Result<String, BadParameter> {
    let args = trace_args(params)?;
    let budget = budget.clone().with_max_nodes(MAX_TRACED_NODES);
    let trace = trace::request(&args)
        .and_then(|request| trace::build_within(&args, &request, &budget))
        .map_err(|message| BadParameter {
            parameter: parameter_of(&message, params),
            message: message.replace("--", ""),
        })?;
    serde_json::to_string(&trace).map_err(|e| BadParameter {
        message: e.to_string(),
        parameter: None,
    })
}

/// `/api/position`: the position after `moves` (from `fen`, or the start position), the
/// moves in SAN and UCI, and its legal moves, for the page's board. No search.
pub fn position_json(params: &Params) -> Result<String, BadParameter> {
    params.only(&["fen", "startpos", "moves"])?;
    let mut position = match params.get("fen") {
        Some(fen) => {
            Position::from_fen(fen, false).map_err(|e| bad("fen", format!("illegal FEN: {e}")))?
        }
        None => Position::default(),
    };
    let mut san = Vec::new();
    let mut uci = Vec::new();
    for (number, text) in params.moves().iter().enumerate() {
        let mv = notation::parse_move(&position, text)
            .map_err(|e| bad("moves", format!("move {}, '{text}': {e}", number + 1)))?;
        san.push(notation::san(&position, mv));
        uci.push(Position::uci(mv, position.castling_mode()));
        position.play_in_place(mv);
    }
    let legal: Vec<serde_json::Value> = position
        .legal_moves()
        .iter()
        .map(|&mv| {
            let text = Position::uci(mv, position.castling_mode());
            json!({
                "uci": text,
                "san": notation::san(&position, mv),
                "from": text.get(0..2).unwrap_or(""),
                "to": text.get(2..4).unwrap_or(""),
            })
        })
        .collect();
    let over = if !legal.is_empty() {
        None
    } else if position.is_check() {
        Some("checkmate")
    } else {
        Some("stalemate")
    };
    Ok(json!({
        "fen": position.fen(),
        "moves_san": san,
        "moves_uci": uci,
        "white_to_move": position.turn() == shakmaty::Color::White,
        "legal": legal,
        "over": over,
    })
    .to_string())
}

/// The parameters of `/api/ebf`.
pub const EBF_PARAMETERS: [&str; 6] = ["fen", "startpos", "moves", "set", "depth", "configs"];

/// `/api/ebf`: the search lab's figures (`brudno ebf --json`) for one position or the
/// built-in set (`set=ebf`), at depths 1 to `depth`.
pub fn ebf_json(params: &Params, budget: &Budget) -> Result<String, BadParameter> {
    params.only(&EBF_PARAMETERS)?;
    let set = match params.get("set") {
        None => false,
        Some("ebf") => true,
        Some(other) => return Err(bad("set", format!("unknown set '{other}' (known: ebf)"))),
    };
    let (positions, source) = if set {
        if params.get("fen").is_some() || params.flag("startpos")? {
            return Err(bad("set", "give either set=ebf or one position"));
        }
        ebf::load_positions(None, &mut |_| {}).map_err(|e| bad("set", e))?
    } else {
        let position = ebf_position(params)?;
        let id = params.get("fen").unwrap_or("startpos").to_string();
        (
            vec![LabPosition { id, position }],
            "one position".to_string(),
        )
    };
    let limit = if set {
        EBF_SET_MAX_DEPTH
    } else {
        EBF_MAX_DEPTH
    };
    let depth: u32 = params.number("depth")?.unwrap_or(3);
    if !(1..=limit).contains(&depth) {
        return Err(bad(
            "depth",
            format!("depth {depth} is out of range (1 to {limit})"),
        ));
    }
    let configs = match params.get("configs") {
        None => LabConfig::ALL.to_vec(),
        Some(text) => {
            let mut configs = Vec::new();
            for name in text.split(',').filter(|n| !n.is_empty()) {
                let config = LabConfig::ALL
                    .into_iter()
                    .find(|c| c.name() == name)
                    .ok_or_else(|| bad("configs", format!("unknown configuration '{name}'")))?;
                if !configs.contains(&config) {
                    configs.push(config);
                }
            }
            configs
        }
    };
    if configs.is_empty() {
        return Err(bad("configs", "no configuration named"));
    }
    let run = measure(positions, configs, depth, budget)?;
    let rows = summary::summarize(&run);
    let differences = value_differences(&run, LabConfig::is_exact);
    let full = value_differences(&run, |c| c == LabConfig::Full);
    Ok(summary::json(&run, &rows, &source, &differences, &full))
}

fn ebf_position(params: &Params) -> Result<Position, BadParameter> {
    let mut position = match params.get("fen") {
        Some(fen) => {
            Position::from_fen(fen, false).map_err(|e| bad("fen", format!("illegal FEN: {e}")))?
        }
        None if params.flag("startpos")? => Position::default(),
        None => return Err(bad("fen", "give fen=FEN, startpos=1 or set=ebf")),
    };
    for (number, text) in params.moves().iter().enumerate() {
        let mv = notation::parse_move(&position, text)
            .map_err(|e| bad("moves", format!("move {}, '{text}': {e}", number + 1)))?;
        position.play_in_place(mv);
    }
    if position.legal_moves().is_empty() {
        return Err(bad("fen", "the position has no legal move"));
    }
    Ok(position)
}

/// The lab's loop (`ebf::lab::measure`) under a budget: every configuration at every depth on
/// every position, each search on a fresh table.
fn measure(
    positions: Vec<LabPosition>,
    configs: Vec<LabConfig>,
    max_depth: u32,
    budget: &Budget,
) -> Result<LabRun, BadParameter> {
    let mut samples = Vec::new();
    for depth in 1..=max_depth {
        for &config in &configs {
            for lab_position in &positions {
                let source = ChessSource {
                    position: lab_position.position.clone(),
                    history: Vec::new(),
                    moves_san: Vec::new(),
                    start: String::new(),
                };
                let started = Instant::now();
                let result =
                    chess::run_config(&source, &config.search_config(false), depth, budget);
                budget.check().map_err(|message| BadParameter {
                    message,
                    parameter: None,
                })?;
                samples.push(Sample {
                    score: result.score,
                    stats: result.stats,
                    elapsed: started.elapsed(),
                });
            }
        }
    }
    Ok(LabRun {
        positions,
        configs,
        max_depth,
        quiescence: false,
        samples,
    })
}
