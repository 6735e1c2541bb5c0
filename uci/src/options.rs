//! The engine's UCI options: their declarations, defaults, bounds and how `setoption` sets them.
//!
//! Names are matched case-insensitively. Values out of bounds are clamped with a message; a
//! value that cannot be read leaves the option unchanged with a message. This module only
//! records values: the loop applies what needs work (resizing or clearing the table).

use brudno_engine::eval::Evaluation;
use brudno_engine::search::features::Features;
use brudno_engine::search::level;
use brudno_engine::search::resources::{clamp_hash_to_memory, warn_if_oversubscribed};
use brudno_engine::search::tablebase::{EMPTY_PATH, MAX_TABLE_PIECES};

/// An option's kind as declared to the GUI.
enum Kind {
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Check {
        default: bool,
    },
    Button,
    Combo {
        default: &'static str,
        choices: &'static [&'static str],
    },
    Text {
        default: &'static str,
    },
}

struct Declaration {
    name: &'static str,
    kind: Kind,
}

/// The `EvalFile` value that means the network compiled into the binary.
pub const EMBEDDED_NET: &str = brudno_tools::evalfile::EMBEDDED;

pub use brudno_engine::search::resources::{MAX_HASH_MIB, MAX_THREADS};

/// The `BookFile` value that means no book.
pub const NO_BOOK: &str = "<empty>";

const DECLARATIONS: &[Declaration] = &[
    Declaration {
        name: "Hash",
        kind: Kind::Spin {
            default: 16,
            min: 1,
            max: MAX_HASH_MIB,
        },
    },
    Declaration {
        name: "Threads",
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: MAX_THREADS,
        },
    },
    Declaration {
        name: "MultiPV",
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: 256,
        },
    },
    Declaration {
        name: "Move Overhead",
        kind: Kind::Spin {
            default: 10,
            min: 0,
            max: 10_000,
        },
    },
    Declaration {
        name: "Clear Hash",
        kind: Kind::Button,
    },
    Declaration {
        name: "Ponder",
        kind: Kind::Check { default: false },
    },
    Declaration {
        name: "UCI_Chess960",
        kind: Kind::Check { default: false },
    },
    Declaration {
        name: "UCI_LimitStrength",
        kind: Kind::Check { default: false },
    },
    Declaration {
        name: "UCI_Elo",
        kind: Kind::Spin {
            default: level::MAX_ELO as i64,
            min: level::MIN_ELO as i64,
            max: level::MAX_ELO as i64,
        },
    },
    Declaration {
        name: "UCI_ShowWDL",
        kind: Kind::Check { default: false },
    },
    Declaration {
        name: "Evaluation",
        kind: Kind::Combo {
            default: "NNUE",
            choices: &["NNUE", "Positional", "Material"],
        },
    },
    Declaration {
        name: "EvalFile",
        kind: Kind::Text {
            default: EMBEDDED_NET,
        },
    },
    Declaration {
        name: "OwnBook",
        kind: Kind::Check { default: false },
    },
    Declaration {
        name: "BookFile",
        kind: Kind::Text { default: NO_BOOK },
    },
    Declaration {
        name: "BookBestMove",
        kind: Kind::Check { default: false },
    },
    Declaration {
        name: "BookDepth",
        kind: Kind::Spin {
            default: 255,
            min: 0,
            max: 1024,
        },
    },
    Declaration {
        name: "Dev Features",
        kind: Kind::Text { default: "all" },
    },
    Declaration {
        name: "SyzygyPath",
        kind: Kind::Text {
            default: EMPTY_PATH,
        },
    },
    Declaration {
        name: "SyzygyProbeDepth",
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: 100,
        },
    },
    Declaration {
        name: "SyzygyProbeLimit",
        kind: Kind::Spin {
            default: MAX_TABLE_PIECES as i64,
            min: 0,
            max: MAX_TABLE_PIECES as i64,
        },
    },
    Declaration {
        name: "Syzygy50MoveRule",
        kind: Kind::Check { default: true },
    },
];

/// Current option values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// The evaluation function (`Material` is the core engine's).
    pub evaluation: Evaluation,
    /// Developer switch: which selective-search techniques are on (for ablation).
    pub features: Features,
    /// Transposition table size in MiB.
    pub hash_mib: usize,
    /// Search threads.
    pub threads: usize,
    /// Principal variations to report (capped by the number of legal moves).
    pub multipv: usize,
    /// Milliseconds kept back from the clock for GUI and network delays.
    pub move_overhead_ms: u64,
    /// Whether the GUI may ask us to ponder (informational: `go ponder` works regardless).
    pub ponder: bool,
    /// Chess960 castling notation (king takes rook) and FEN reading.
    pub chess960: bool,
    /// The network file asked for (`EMBEDDED_NET` for the embedded one).
    pub eval_file: String,
    /// Whether to play at `elo` rather than full strength.
    pub limit_strength: bool,
    /// The level played with `limit_strength` (`search/level.rs`).
    pub elo: u32,
    /// Whether info lines carry `wdl W D L` (`search/wdl.rs`).
    pub show_wdl: bool,
    /// Folders holding Syzygy tables (`EMPTY_PATH` for none).
    pub syzygy_path: String,
    /// Least remaining depth at which the tree probes the tables.
    pub syzygy_probe_depth: i32,
    /// Most pieces of a position the tables are probed for (0: never).
    pub syzygy_probe_limit: usize,
    /// Whether a win the 50-move rule spoils counts as a draw.
    pub syzygy_50_move_rule: bool,
    /// Whether `go` plays from the opening book when it can.
    pub own_book: bool,
    /// The Polyglot book file (empty for none).
    pub book_file: String,
    /// Always the heaviest book move (true) or a weighted random one (false).
    pub book_best_move: bool,
    /// The book is used only while fewer plies than this have been played since the game's
    /// start (counted from the FEN's move number).
    pub book_depth: u32,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            evaluation: Evaluation::default(),
            features: Features::ALL,
            hash_mib: 16,
            threads: 1,
            multipv: 1,
            move_overhead_ms: 10,
            ponder: false,
            chess960: false,
            eval_file: EMBEDDED_NET.to_string(),
            limit_strength: false,
            elo: level::MAX_ELO,
            show_wdl: false,
            syzygy_path: EMPTY_PATH.to_string(),
            syzygy_probe_depth: 1,
            syzygy_probe_limit: MAX_TABLE_PIECES,
            syzygy_50_move_rule: true,
            own_book: false,
            book_file: String::new(),
            book_best_move: false,
            book_depth: 255,
        }
    }
}

/// What the loop must do after an option changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Nothing beyond the stored value.
    None,
    /// Reallocate the table to `hash_mib`.
    ResizeHash,
    /// Empty the table.
    ClearHash,
    /// The thread count changed: parked helper threads beyond it may end.
    Threads,
    /// Load the network named by `eval_file`.
    LoadNetwork,
    /// Load the tablebases of `syzygy_path`.
    LoadSyzygy,
    /// `BookFile` was set: read the book again (if `own_book`).
    LoadBook,
    /// `OwnBook` was set: load the book if it is not loaded, or let it go.
    UseBook,
}

/// The result of `setoption`: what to do and what to tell the user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// Work for the loop.
    pub effect: Effect,
    /// Messages for `info string` (clamping, ignored parts).
    pub messages: Vec<String>,
}

impl Options {
    /// The `option name ...` lines sent after `uci` (with `--features tune`, every search
    /// number of `search/params.rs` too, as a spin).
    pub fn declarations() -> Vec<String> {
        let tunables = if cfg!(feature = "tune") {
            brudno_engine::search::params::TUNABLES
        } else {
            &[]
        };
        let tunable_lines = tunables.iter().map(|t| {
            format!(
                "option name {} type spin default {} min {} max {}",
                t.name, t.default, t.min, t.max
            )
        });
        DECLARATIONS
            .iter()
            .map(|d| match d.kind {
                Kind::Spin { default, min, max } => format!(
                    "option name {} type spin default {default} min {min} max {max}",
                    d.name
                ),
                Kind::Check { default } => {
                    format!("option name {} type check default {default}", d.name)
                }
                Kind::Button => format!("option name {} type button", d.name),
                Kind::Combo { default, choices } => {
                    let vars: Vec<String> = choices.iter().map(|c| format!("var {c}")).collect();
                    format!(
                        "option name {} type combo default {default} {}",
                        d.name,
                        vars.join(" ")
                    )
                }
                Kind::Text { default } => {
                    format!("option name {} type string default {default}", d.name)
                }
            })
            .chain(tunable_lines)
            .collect()
    }

    /// Applies `setoption name <name> value <value>`. An unknown name or an unreadable value
    /// is an error message and changes nothing.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Change, String> {
        #[cfg(feature = "tune")]
        if let Some(tunable) = brudno_engine::search::params::TUNABLES
            .iter()
            .find(|t| t.name.eq_ignore_ascii_case(name.trim()))
        {
            let mut messages = Vec::new();
            let (min, max) = (i64::from(tunable.min), i64::from(tunable.max));
            let value = parse_spin(tunable.name, value, min, max, &mut messages)?;
            brudno_engine::search::params::set(tunable.name, value as i32);
            return Ok(Change {
                effect: Effect::None,
                messages,
            });
        }
        let declaration = DECLARATIONS
            .iter()
            .find(|d| d.name.eq_ignore_ascii_case(name.trim()))
            .ok_or_else(|| format!("unknown option '{name}'"))?;
        let mut messages = Vec::new();
        let effect = match declaration.kind {
            Kind::Button => {
                if declaration.name == "Clear Hash" {
                    Effect::ClearHash
                } else {
                    Effect::None
                }
            }
            Kind::Spin { min, max, .. } => {
                let value = parse_spin(declaration.name, value, min, max, &mut messages)?;
                match declaration.name {
                    "Hash" => {
                        self.hash_mib = clamp_hash_to_memory(value as usize, &mut messages);
                        Effect::ResizeHash
                    }
                    "Threads" => {
                        self.threads = value as usize;
                        warn_if_oversubscribed(self.threads, &mut messages);
                        Effect::Threads
                    }
                    "MultiPV" => {
                        self.multipv = value as usize;
                        Effect::None
                    }
                    "SyzygyProbeDepth" => {
                        self.syzygy_probe_depth = value as i32;
                        Effect::None
                    }
                    "SyzygyProbeLimit" => {
                        self.syzygy_probe_limit = value as usize;
                        Effect::None
                    }
                    "BookDepth" => {
                        self.book_depth = value as u32;
                        Effect::None
                    }
                    "UCI_Elo" => {
                        self.elo = value as u32;
                        Effect::None
                    }
                    _ => {
                        self.move_overhead_ms = value as u64;
                        Effect::None
                    }
                }
            }
            Kind::Combo { choices, .. } => {
                let text = value.unwrap_or("").trim();
                let choice = choices
                    .iter()
                    .find(|c| c.eq_ignore_ascii_case(text))
                    .ok_or_else(|| {
                        format!(
                            "option {}: '{text}' is not one of {}, unchanged",
                            declaration.name,
                            choices.join(", ")
                        )
                    })?;
                self.evaluation = match *choice {
                    "Material" => Evaluation::Material,
                    "Positional" => Evaluation::Positional,
                    _ => Evaluation::Nnue,
                };
                Effect::None
            }
            Kind::Text { .. } if declaration.name == "EvalFile" => {
                let text = value.unwrap_or("").trim();
                self.eval_file = if text.is_empty() {
                    EMBEDDED_NET.to_string()
                } else {
                    text.to_string()
                };
                Effect::LoadNetwork
            }
            Kind::Text { .. } if declaration.name == "SyzygyPath" => {
                let text = value.unwrap_or("").trim();
                self.syzygy_path = if text.is_empty() {
                    EMPTY_PATH.to_string()
                } else {
                    text.to_string()
                };
                Effect::LoadSyzygy
            }
            Kind::Text { .. } if declaration.name == "BookFile" => {
                let text = value.unwrap_or("").trim();
                self.book_file = if text == NO_BOOK {
                    String::new()
                } else {
                    text.to_string()
                };
                Effect::LoadBook
            }
            Kind::Text { .. } => {
                self.features = Features::parse(value.unwrap_or("all"))
                    .map_err(|e| format!("option {}: {e}, unchanged", declaration.name))?;
                Effect::None
            }
            Kind::Check { .. } => {
                let value = parse_check(declaration.name, value)?;
                let field = match declaration.name {
                    "Ponder" => &mut self.ponder,
                    "Syzygy50MoveRule" => &mut self.syzygy_50_move_rule,
                    "OwnBook" => &mut self.own_book,
                    "BookBestMove" => &mut self.book_best_move,
                    "UCI_LimitStrength" => &mut self.limit_strength,
                    "UCI_ShowWDL" => &mut self.show_wdl,
                    _ => &mut self.chess960,
                };
                *field = value;
                if declaration.name == "OwnBook" {
                    Effect::UseBook
                } else {
                    Effect::None
                }
            }
        };
        Ok(Change { effect, messages })
    }
}

fn parse_spin(
    name: &str,
    value: Option<&str>,
    min: i64,
    max: i64,
    messages: &mut Vec<String>,
) -> Result<i64, String> {
    let text = value.ok_or_else(|| format!("option {name} needs a value ({min} to {max})"))?;
    let text = text.trim();
    let digits = text.trim_start_matches(['-', '+']);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "option {name}: '{text}' is not a number, unchanged"
        ));
    }
    let parsed = match text.parse::<i64>() {
        Ok(v) => v,
        Err(_) if text.starts_with('-') => i64::MIN,
        Err(_) => i64::MAX,
    };
    let clamped = parsed.clamp(min, max);
    if clamped != parsed {
        messages.push(format!(
            "option {name}: {text} is out of range {min}..{max}, using {clamped}"
        ));
    }
    Ok(clamped)
}

fn parse_check(name: &str, value: Option<&str>) -> Result<bool, String> {
    match value.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
        Some("true") => Ok(true),
        Some("false") => Ok(false),
        _ => Err(format!("option {name} needs 'true' or 'false', unchanged")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_case_insensitive() {
        let mut options = Options::default();
        let change = options.set("move overhead", Some("250")).unwrap();
        assert_eq!(change.effect, Effect::None);
        assert_eq!(options.move_overhead_ms, 250);
        options.set("uci_chess960", Some("TRUE")).unwrap();
        assert!(options.chess960);
        assert_eq!(
            options.set("CLEAR HASH", None).unwrap().effect,
            Effect::ClearHash
        );
    }

    #[test]
    fn bad_values_change_nothing_and_out_of_range_is_clamped() {
        let mut options = Options::default();
        assert!(options.set("Hash", Some("lots")).is_err());
        assert!(options.set("Hash", None).is_err());
        assert!(options.set("Ponder", Some("maybe")).is_err());
        assert!(options.set("NoSuchOption", Some("1")).is_err());
        assert_eq!(options, Options::default());

        let change = options.set("Hash", Some("0")).unwrap();
        assert_eq!(options.hash_mib, 1);
        assert_eq!(change.effect, Effect::ResizeHash);
        assert_eq!(change.messages.len(), 1);

        let change = options
            .set("Threads", Some("99999999999999999999999"))
            .unwrap();
        assert_eq!(options.threads, MAX_THREADS as usize);
        assert!(!change.messages.is_empty());
        options.set("Move Overhead", Some("-5")).unwrap();
        assert_eq!(options.move_overhead_ms, 0);
    }

    #[test]
    fn hash_beyond_memory_is_clamped() {
        let mut options = Options::default();
        let change = options.set("Hash", Some("1048576")).unwrap();
        if let Some(available) = brudno_engine::search::resources::available_memory_mib() {
            assert!(options.hash_mib <= available / 2 + 1);
            assert!(!change.messages.is_empty());
        }
    }

    #[test]
    fn book_options_are_stored_with_their_effects() {
        let mut options = Options::default();
        assert_eq!(
            options.set("ownbook", Some("true")).unwrap().effect,
            Effect::UseBook
        );
        assert!(options.own_book);
        let change = options
            .set("BookFile", Some(" /books/my book.bin "))
            .unwrap();
        assert_eq!(change.effect, Effect::LoadBook);
        assert_eq!(options.book_file, "/books/my book.bin");
        options.set("BookFile", Some(NO_BOOK)).unwrap();
        assert_eq!(options.book_file, "");
        options.set("BookBestMove", Some("true")).unwrap();
        assert!(options.book_best_move && !options.chess960 && !options.ponder);
        options.set("BookDepth", Some("4000")).unwrap();
        assert_eq!(options.book_depth, 1024);
        assert!(options.set("BookBestMove", Some("yes")).is_err());
    }

    #[test]
    fn declarations_list_every_option() {
        let lines = Options::declarations();
        assert!(lines.contains(&"option name Hash type spin default 16 min 1 max 1048576".into()));
        assert!(lines.contains(&"option name Clear Hash type button".into()));
        assert!(lines.contains(&"option name UCI_Chess960 type check default false".into()));
        assert_eq!(lines.len(), DECLARATIONS.len());
    }

    #[test]
    fn syzygy_options() {
        let lines = Options::declarations();
        for line in [
            "option name SyzygyPath type string default <empty>",
            "option name SyzygyProbeDepth type spin default 1 min 1 max 100",
            "option name SyzygyProbeLimit type spin default 7 min 0 max 7",
            "option name Syzygy50MoveRule type check default true",
        ] {
            assert!(lines.contains(&line.to_string()), "{line}");
        }
        let mut options = Options::default();
        let change = options.set("syzygypath", Some(" /tb/a:/tb/b ")).unwrap();
        assert_eq!(change.effect, Effect::LoadSyzygy);
        assert_eq!(options.syzygy_path, "/tb/a:/tb/b");
        options.set("SyzygyPath", Some("")).unwrap();
        assert_eq!(options.syzygy_path, EMPTY_PATH);
        options.set("SyzygyProbeDepth", Some("12")).unwrap();
        options.set("SyzygyProbeLimit", Some("9")).unwrap();
        options.set("Syzygy50MoveRule", Some("false")).unwrap();
        assert_eq!(
            (
                options.syzygy_probe_depth,
                options.syzygy_probe_limit,
                options.syzygy_50_move_rule
            ),
            (12, 7, false)
        );
    }

    #[test]
    fn more_threads_than_cpus_are_kept_with_a_warning() {
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        let mut options = Options::default();
        let change = options.set("Threads", Some(&cpus.to_string())).unwrap();
        assert!(change.messages.is_empty(), "{:?}", change.messages);
        let more = (cpus + 1).min(MAX_THREADS as usize);
        if more > cpus {
            let change = options.set("Threads", Some(&more.to_string())).unwrap();
            assert_eq!(options.threads, more);
            assert_eq!(change.effect, Effect::Threads);
            assert_eq!(change.messages.len(), 1);
            assert!(change.messages[0].contains("logical CPUs"));
        }
    }
}
