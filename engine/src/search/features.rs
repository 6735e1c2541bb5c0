//! The selective-search techniques as switches, so that each one can be measured by turning it
//! off (the ablation table in docs/STRENGTH.md) and the search lab can start from none.
//!
//! `Features::ALL` is the engine as it plays (every technique: a switch whose technique does
//! not gain in games is removed with its technique, not left off);
//! `Features::NONE` is plain alpha-beta. The UCI option `Dev Features` takes a list such as
//! `-nmp,-lmr` (all but those) or `none,+pvs`. Every switch is declared once, in the
//! `features!` list: field, short name, default and what it measured.

/// Declares the switches from one list: the `Features` struct, its `ALL` and `NONE`, and the
/// short names of the option string, which can therefore never disagree.
macro_rules! features {
    ($( $(#[doc = $doc:expr])* $field:ident = $name:literal, $on:expr; )*) => {
        /// Which selective-search techniques are on.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct Features {
            $( $(#[doc = $doc])* pub $field: bool, )*
        }

        /// Short names for the option string, in field order.
        const NAMES: &[&str] = &[$( $name, )*];

        impl Features {
            /// The engine as it plays: every technique on (each won its place in games;
            /// docs/STRENGTH.md).
            pub const ALL: Features = Features { $( $field: $on, )* };

            /// Every technique off: plain alpha-beta.
            pub const NONE: Features = Features { $( $field: false, )* };

            fn flags_mut(&mut self) -> [&mut bool; NAMES.len()] {
                [$( &mut self.$field, )*]
            }
        }
    };
}

features! {
    /// Principal variation search: null windows after the first move, re-search on fail high.
    pvs = "pvs", true;
    /// Aspiration windows around the previous iteration's score.
    aspiration = "asp", true;
    /// Null-move pruning (not in check, not without pieces).
    null_move = "nmp", true;
    /// Late move reductions for quiet moves searched late.
    lmr = "lmr", true;
    /// Two killer moves per ply.
    killers = "killers", true;
    /// History heuristic for quiet moves.
    history = "history", true;
    /// The refutation of the opponent's last move, tried after the killers.
    countermove = "cm", true;
    /// Extend moves that give check by one ply.
    check_extension = "checkext", true;
    /// Static exchange evaluation: losing captures after quiet moves, skipped in quiescence.
    see = "see", true;
    /// Reverse futility pruning (static eval far above beta near the leaves).
    reverse_futility = "rfp", true;
    /// Futility pruning of quiet moves and delta pruning of captures in quiescence.
    futility = "fp", true;
    /// Late move pruning: skip late quiet moves near the leaves.
    late_move_pruning = "lmp", true;
    /// Mate-distance pruning.
    mate_distance = "mdp", true;
    /// Internal iterative reduction when there is no hash move.
    iir = "iir", true;
    /// Lazy evaluation in quiescence: stand pat on material alone when it is far above beta.
    lazy_eval = "lazy", true;
    /// Continuation history: quiet moves scored by the moves one and two plies before them,
    /// in ordering and in late move reductions.
    continuation_history = "conthist", true;
    /// Singular extensions: the hash move is extended when a reduced search without it fails
    /// low, with multi-cut and negative extensions when the alternatives hold too.
    singular = "se", true;
    /// Time management that stretches or cuts the planned time by the best move's stability,
    /// a falling score and the share of nodes the best move took.
    time_management = "tm", true;
    /// ProbCut: a capture whose reduced search beats beta by a margin cuts the node.
    probcut = "probcut", true;
    /// Correction history: the static evaluation corrected by what the search learnt of its
    /// error in positions with the same pawns, the same pieces and the same last two moves.
    correction_history = "corrhist", true;
    /// Capture history: captures ordered by what cut before (piece, target, victim) after
    /// the victim's value, and the line between good and losing captures moved by it.
    capture_history = "capthist", true;
    /// SEE pruning: near the leaves, a move whose static exchange loses more than a
    /// depth-scaled margin is skipped.
    see_pruning = "seep", true;
}

impl Features {
    /// Parses a comma-separated list: `all`, `none`, `-name` (off), `+name` or `name` (on),
    /// applied left to right starting from all. Unknown names are an error naming them.
    pub fn parse(text: &str) -> Result<Features, String> {
        let mut features = Features::ALL;
        for item in text
            .split([',', ' '])
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            let lower = item.to_ascii_lowercase();
            match lower.as_str() {
                "all" => features = Features::ALL,
                "none" => features = Features::NONE,
                _ => {
                    let (on, name) = match lower.strip_prefix('-') {
                        Some(name) => (false, name),
                        None => (true, lower.trim_start_matches('+')),
                    };
                    let position = NAMES.iter().position(|n| *n == name).ok_or_else(|| {
                        format!("unknown feature '{item}' (known: {})", NAMES.join(", "))
                    })?;
                    *features.flags_mut()[position] = on;
                }
            }
        }
        Ok(features)
    }

    /// How these features differ from the engine as it plays, as `-name` (off) and `+name`
    /// (on) items; `all` when they do not differ.
    pub fn describe(&self) -> String {
        let mut copy = *self;
        let mut all = Features::ALL;
        let changed: Vec<String> = copy
            .flags_mut()
            .iter()
            .zip(all.flags_mut().iter())
            .zip(NAMES)
            .filter(|((flag, default), _)| ***flag != ***default)
            .map(|((flag, _), name)| format!("{}{name}", if **flag { '+' } else { '-' }))
            .collect();
        if changed.is_empty() {
            "all".to_string()
        } else {
            changed.join(",")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_lists() {
        assert_eq!(Features::parse("all"), Ok(Features::ALL));
        assert_eq!(Features::parse("none"), Ok(Features::NONE));
        let f = Features::parse("-nmp, -LMR").unwrap();
        assert!(!f.null_move && !f.lmr && f.pvs);
        let f = Features::parse("none,+pvs,asp").unwrap();
        assert!(f.pvs && f.aspiration && !f.null_move);
        assert!(Features::parse("-warp").is_err());
        assert_eq!(Features::parse("-nmp").unwrap().describe(), "-nmp");
        assert_eq!(Features::ALL.describe(), "all");
        let f = Features::parse("none,+se,+pvs").unwrap();
        assert!(f.pvs && f.singular && !f.lmr);
        assert_eq!(
            Features::parse(&Features::parse("-se").unwrap().describe()).unwrap(),
            Features::parse("-se").unwrap()
        );
        assert_eq!(Features::parse(&f.describe()), Ok(f));
    }

    #[test]
    fn every_switch_is_listed_in_the_readme() {
        let readme = include_str!("../../../README.md");
        let row = readme
            .lines()
            .find(|line| line.starts_with("| Dev Features |"))
            .expect("README has the Dev Features row");
        let listed: Vec<&str> = row
            .rsplit("names: `")
            .next()
            .and_then(|names| names.split('`').next())
            .expect("the row lists the names")
            .split_whitespace()
            .collect();
        assert_eq!(
            listed, NAMES,
            "README's Dev Features names differ from the switches"
        );
    }
}
