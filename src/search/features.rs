//! The selective-search techniques as switches, so that each one can be measured by turning it
//! off (the ablation table in docs/STRENGTH.md) and the search lab can start from none.
//!
//! `Features::ALL` is the engine as it plays (every technique but those that have not yet
//! gained in games: `caphist`, `corrhist` and `histprune`, which `+name` turns on);
//! `Features::NONE` is plain alpha-beta. The UCI option `Dev Features` takes a list such as
//! `-nmp,-lmr` (all but those) or `none,+pvs`.

/// Which selective-search techniques are on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Principal variation search: null windows after the first move, re-search on fail high.
    pub pvs: bool,
    /// Aspiration windows around the previous iteration's score.
    pub aspiration: bool,
    /// Null-move pruning (not in check, not without pieces).
    pub null_move: bool,
    /// Late move reductions for quiet moves searched late.
    pub lmr: bool,
    /// Two killer moves per ply.
    pub killers: bool,
    /// History heuristic for quiet moves.
    pub history: bool,
    /// The refutation of the opponent's last move, tried after the killers.
    pub countermove: bool,
    /// Extend moves that give check by one ply.
    pub check_extension: bool,
    /// Static exchange evaluation: losing captures after quiet moves, skipped in quiescence.
    pub see: bool,
    /// Reverse futility pruning (static eval far above beta near the leaves).
    pub reverse_futility: bool,
    /// Futility pruning of quiet moves and delta pruning of captures in quiescence.
    pub futility: bool,
    /// Late move pruning: skip late quiet moves near the leaves.
    pub late_move_pruning: bool,
    /// Mate-distance pruning.
    pub mate_distance: bool,
    /// Internal iterative reduction when there is no hash move.
    pub iir: bool,
    /// Lazy evaluation in quiescence: stand pat on material alone when it is far above beta.
    pub lazy_eval: bool,
    /// Continuation history: quiet moves scored by the moves one and two plies before them,
    /// in ordering and in late move reductions.
    pub continuation_history: bool,
    /// Capture history: captures of the same victim class ordered by past cut-offs.
    pub capture_history: bool,
    /// Correction history: the static evaluation corrected by what searches of positions with
    /// the same pawn structure found.
    pub correction_history: bool,
    /// Singular extensions: the hash move is extended when a reduced search without it fails
    /// low, with multi-cut and negative extensions when the alternatives hold too.
    pub singular: bool,
    /// Time management that stretches or cuts the planned time by the best move's stability,
    /// a falling score and the share of nodes the best move took.
    pub time_management: bool,
    /// ProbCut: a capture whose reduced search beats beta by a margin cuts the node.
    pub probcut: bool,
    /// History pruning: near the leaves, skip quiet moves whose history is very bad.
    pub history_pruning: bool,
}

/// Short names for the option string, in field order.
const NAMES: [&str; 22] = [
    "pvs",
    "asp",
    "nmp",
    "lmr",
    "killers",
    "history",
    "cm",
    "checkext",
    "see",
    "rfp",
    "fp",
    "lmp",
    "mdp",
    "iir",
    "lazy",
    "conthist",
    "caphist",
    "corrhist",
    "se",
    "tm",
    "probcut",
    "histprune",
];

impl Features {
    /// The engine as it plays: every technique on except those that have not yet won their
    /// place in games (capture and correction histories, history pruning).
    pub const ALL: Features = Features {
        pvs: true,
        aspiration: true,
        null_move: true,
        lmr: true,
        killers: true,
        history: true,
        countermove: true,
        check_extension: true,
        see: true,
        reverse_futility: true,
        futility: true,
        late_move_pruning: true,
        mate_distance: true,
        iir: true,
        lazy_eval: true,
        continuation_history: true,
        // Measured -7 [-35, +21] at 20,000 nodes a move (400 games): off until it gains;
        // `+caphist` turns it on.
        capture_history: false,
        // Measured -16 [-45, +12] at 20,000 nodes a move (400 games): off until it gains;
        // `+corrhist` turns it on.
        correction_history: false,
        singular: true,
        time_management: true,
        probcut: true,
        // Measured +6 [-23, +35] at 20,000 nodes a move (400 games): off until it gains.
        history_pruning: false,
    };

    /// Every technique off: plain alpha-beta.
    pub const NONE: Features = Features {
        pvs: false,
        aspiration: false,
        null_move: false,
        lmr: false,
        killers: false,
        history: false,
        countermove: false,
        check_extension: false,
        see: false,
        reverse_futility: false,
        futility: false,
        late_move_pruning: false,
        mate_distance: false,
        iir: false,
        lazy_eval: false,
        continuation_history: false,
        capture_history: false,
        correction_history: false,
        singular: false,
        time_management: false,
        probcut: false,
        history_pruning: false,
    };

    fn flags_mut(&mut self) -> [&mut bool; NAMES.len()] {
        [
            &mut self.pvs,
            &mut self.aspiration,
            &mut self.null_move,
            &mut self.lmr,
            &mut self.killers,
            &mut self.history,
            &mut self.countermove,
            &mut self.check_extension,
            &mut self.see,
            &mut self.reverse_futility,
            &mut self.futility,
            &mut self.late_move_pruning,
            &mut self.mate_distance,
            &mut self.iir,
            &mut self.lazy_eval,
            &mut self.continuation_history,
            &mut self.capture_history,
            &mut self.correction_history,
            &mut self.singular,
            &mut self.time_management,
            &mut self.probcut,
            &mut self.history_pruning,
        ]
    }

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
        let f = Features::parse("+corrhist,-se").unwrap();
        assert!(f.correction_history && !f.singular);
        assert_eq!(f.describe(), "+corrhist,-se");
        assert_eq!(Features::parse(&f.describe()), Ok(f));
    }

    #[test]
    fn every_switch_is_listed_in_the_readme() {
        let readme = include_str!("../../README.md");
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
