//! Ranking the root moves by the tables, as Stockfish's `root_probe` does: each move's DTZ
//! from the root decides whether it keeps the tablebase result within the 50-move rule, and
//! the search then chooses only among the moves of the best rank. A won ending stays won (a
//! move that would let the halfmove clock run out ranks below every move that wins in time),
//! a drawn one is held, a lost one is defended as long as possible. Without DTZ tables the
//! moves are ranked by WDL alone.
//!
//! The ranks: a win whose next capture or pawn move comes in time (DTZ plus the halfmove
//! clock at most 99) ranks `MAX_DTZ`, all such wins alike (the search picks among them), unless
//! the game has already repeated a position since the last capture or pawn move: then the
//! shortest DTZ ranks first, so that the engine makes progress. A win too slow for the clock
//! ranks `MAX_DTZ / 2` minus its distance, above the draws (0). Losses mirror the wins.

use shakmaty::{Move, Position as _};
use shakmaty_syzygy::{Dtz, Wdl};

use super::Syzygy;
use crate::eval::Value;
use crate::position::Position;
use crate::search::score::{DRAW, TB_WIN};

/// Larger than any DTZ: the rank of a certain win.
const MAX_DTZ: i32 = 1 << 18;

/// One root move with what the tables say about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RankedMove {
    /// The move.
    pub mv: Move,
    /// Its rank: higher is better; the search chooses among the moves of the highest rank.
    pub rank: i32,
    /// The score shown for it while the search has not found a mate.
    pub score: Value,
    /// Its DTZ from the root, in plies (WDL ranking: 0).
    pub dtz: i32,
}

/// The root moves ranked by the tables, best rank first (the moves the search keeps, among
/// themselves by shortest DTZ for a win and longest for a loss).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootRanking {
    /// Every root move that was ranked, best first.
    pub moves: Vec<RankedMove>,
    /// Whether DTZ ranked them (otherwise only WDL did).
    pub by_dtz: bool,
}

impl RootRanking {
    /// The moves of the best rank: the only ones the search plays.
    pub fn kept(&self) -> impl Iterator<Item = &RankedMove> {
        let best = self.moves.first().map_or(0, |m| m.rank);
        self.moves.iter().filter(move |m| m.rank == best)
    }

    /// The score the tables give the root (that of the best rank).
    pub fn score(&self) -> Value {
        self.moves.first().map_or(DRAW, |m| m.score)
    }

    /// The tablebase score of `mv`, if it was ranked.
    pub fn score_of(&self, mv: Move) -> Option<Value> {
        self.moves.iter().find(|m| m.mv == mv).map(|m| m.score)
    }
}

/// Ranks the root `moves` of `root` (after the game `history`, oldest first, root excluded)
/// when the root is in the tables: few enough pieces and no castling rights. DTZ first; if a
/// DTZ probe fails, WDL; `None` if that fails too.
pub fn rank_root(
    syzygy: &Syzygy,
    root: &Position,
    history: &[u64],
    moves: &[Move],
) -> Option<RootRanking> {
    let pieces = root.board().occupied().count();
    if moves.is_empty()
        || pieces > syzygy.piece_limit()
        || root.chess().castles().any()
        || syzygy.tables.has_failed()
    {
        return None;
    }
    let mut keys = history.to_vec();
    keys.push(root.key());
    let mut ranked = by_dtz(syzygy, root, &keys, moves)
        .map(|moves| (moves, true))
        .or_else(|| by_wdl(syzygy, root, &keys, moves).map(|moves| (moves, false)))?;
    // Best rank first; within a rank the quicker win (or the slower loss) first.
    ranked.0.sort_by_key(|m| (std::cmp::Reverse(m.rank), m.dtz));
    Some(RootRanking {
        moves: ranked.0,
        by_dtz: ranked.1,
    })
}

/// The keys since the last capture or pawn move of a position whose key is last in `keys`.
fn since_zeroing(keys: &[u64], halfmoves: u32) -> &[u64] {
    &keys[keys.len().saturating_sub(halfmoves as usize + 1)..]
}

/// Whether a position repeated since the last capture or pawn move.
fn has_repeated(window: &[u64]) -> bool {
    window
        .iter()
        .enumerate()
        .any(|(i, key)| window[i + 1..].contains(key))
}

/// Whether the position after a root move is a draw by the rules: the third occurrence of a
/// position, or the 50-move rule (unless it is mate).
fn is_rule_draw(child: &Position, keys: &[u64]) -> bool {
    if child.halfmoves() >= 100 && !(child.is_check() && child.legal_moves().is_empty()) {
        return true;
    }
    let window = since_zeroing(keys, child.halfmoves().saturating_sub(1));
    window.iter().filter(|&&k| k == child.key()).count() >= 2
}

fn by_dtz(
    syzygy: &Syzygy,
    root: &Position,
    keys: &[u64],
    moves: &[Move],
) -> Option<Vec<RankedMove>> {
    let tables = &syzygy.tables;
    let clock = root.halfmoves() as i32;
    let repeated = has_repeated(since_zeroing(keys, root.halfmoves()));
    let bound = if syzygy.rule50 { MAX_DTZ / 2 - 100 } else { 1 };
    let mut ranked = Vec::with_capacity(moves.len());
    for &mv in moves {
        let child = root.play(mv);
        let mut dtz = if child.halfmoves() == 0 {
            let wdl = -tables.probe_wdl(child.chess())?;
            Dtz::before_zeroing(wdl).0
        } else if is_rule_draw(&child, keys) {
            0
        } else {
            let dtz = -tables.probe_dtz(child.chess())?.0;
            dtz + dtz.signum()
        };
        // A mate is a zeroing of its own: one ply.
        if dtz == 2 && child.is_check() && child.legal_moves().is_empty() {
            dtz = 1;
        }
        let rank = if dtz > 0 {
            if dtz + clock <= 99 && !repeated {
                MAX_DTZ
            } else {
                MAX_DTZ / 2 - (dtz + clock)
            }
        } else if dtz < 0 {
            if -dtz * 2 + clock < 100 {
                -MAX_DTZ
            } else {
                -MAX_DTZ / 2 + (-dtz + clock)
            }
        } else {
            0
        };
        // A win spoilt by the clock shows from 3 to 49 centipawns as it gets closer to a
        // real win (a loss the other way round).
        let score = if rank >= bound {
            TB_WIN
        } else if rank > 0 {
            (3.max(rank - (MAX_DTZ / 2 - 200)) * 100) / 200
        } else if rank == 0 {
            DRAW
        } else if rank > -bound {
            ((-3).min(rank + (MAX_DTZ / 2 - 200)) * 100) / 200
        } else {
            -TB_WIN
        };
        ranked.push(RankedMove {
            mv,
            rank,
            score,
            dtz,
        });
    }
    Some(ranked)
}

fn by_wdl(
    syzygy: &Syzygy,
    root: &Position,
    keys: &[u64],
    moves: &[Move],
) -> Option<Vec<RankedMove>> {
    let mut ranked = Vec::with_capacity(moves.len());
    for &mv in moves {
        let child = root.play(mv);
        let wdl = if is_rule_draw(&child, keys) {
            Wdl::Draw
        } else {
            -syzygy.tables.probe_wdl(child.chess())?
        };
        let rank = match wdl {
            Wdl::Loss => -MAX_DTZ,
            Wdl::BlessedLoss => -MAX_DTZ + 101,
            Wdl::Draw => 0,
            Wdl::CursedWin => MAX_DTZ - 101,
            Wdl::Win => MAX_DTZ,
        };
        let score = match wdl {
            Wdl::Loss => -TB_WIN,
            Wdl::BlessedLoss if syzygy.rule50 => DRAW - 2,
            Wdl::BlessedLoss => -TB_WIN,
            Wdl::Draw => DRAW,
            Wdl::CursedWin if syzygy.rule50 => DRAW + 2,
            Wdl::CursedWin | Wdl::Win => TB_WIN,
        };
        ranked.push(RankedMove {
            mv,
            rank,
            score,
            dtz: 0,
        });
    }
    Some(ranked)
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::*;
    use crate::search::tablebase::Tablebases;

    /// The test tables (`../shared/syzygy`), or `None` with a note when they are missing.
    fn test_tables() -> Option<PathBuf> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/syzygy");
        if dir.join("KQvK.rtbw").is_file() {
            Some(dir)
        } else {
            eprintln!("note: {} not found, test skipped", dir.display());
            None
        }
    }

    fn syzygy(path: &Path) -> Syzygy {
        let (tables, messages) = Tablebases::load(&path.display().to_string());
        Syzygy {
            tables: tables.unwrap_or_else(|| panic!("{messages:?}")),
            probe_depth: 1,
            probe_limit: 7,
            rule50: true,
        }
    }

    fn rank(syzygy: &Syzygy, fen: &str, history: &[u64]) -> Option<RootRanking> {
        let root = Position::from_fen(fen, false).unwrap();
        rank_root(syzygy, &root, history, &root.legal_moves())
    }

    #[test]
    fn a_won_rook_ending_keeps_only_the_winning_moves() {
        let Some(dir) = test_tables() else { return };
        let syzygy = syzygy(&dir);
        // Rd1 and Ke1 against Ke5: every move but Rd4, Rd5 and Rd6 (the rook en prise) wins.
        let ranking = rank(&syzygy, "8/8/8/4k3/8/8/8/3RK3 w - - 0 1", &[]).unwrap();
        assert!(ranking.by_dtz);
        assert_eq!(ranking.score(), TB_WIN);
        let kept: Vec<_> = ranking.kept().collect();
        let hanging = ["d1d4", "d1d5", "d1d6"];
        let uci = |m: &RankedMove| m.mv.to_uci(shakmaty::CastlingMode::Standard).to_string();
        assert_eq!(kept.len() + hanging.len(), ranking.moves.len());
        assert!(kept.iter().all(|m| !hanging.contains(&uci(m).as_str())));
        assert!(kept.iter().all(|m| m.rank == MAX_DTZ && m.dtz > 0));
        // Quickest progress first.
        assert!(kept.windows(2).all(|w| w[0].dtz <= w[1].dtz));
        // Too many pieces, castling rights, the probe limit: not ranked.
        assert!(rank(&syzygy, "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", &[]).is_none());
        let limited = Syzygy {
            probe_limit: 2,
            ..syzygy.clone()
        };
        assert!(rank(&limited, "8/8/8/4k3/8/8/8/R3K3 w - - 0 1", &[]).is_none());
    }

    #[test]
    fn a_late_halfmove_clock_leaves_only_the_quickest_wins() {
        let Some(dir) = test_tables() else { return };
        let syzygy = syzygy(&dir);
        let fen = "4k3/8/8/8/8/8/8/4K2Q w - - 0 1";
        let fresh = rank(&syzygy, fen, &[]).unwrap();
        let quickest = fresh.moves[0].dtz;
        assert!(fresh.kept().any(|m| m.dtz > quickest));
        // DTZ 13 with 90 plies on the clock: no win is certain any more, the quickest rank
        // first, and the display is a small plus, not a tablebase win.
        let late = rank(&syzygy, &fen.replace(" 0 1", " 90 80"), &[]).unwrap();
        assert!(late.kept().all(|m| m.dtz == quickest));
        assert!(late.score() > DRAW && late.score() < 50);
        let no_rule = Syzygy {
            rule50: false,
            ..syzygy.clone()
        };
        let late = rank(&no_rule, &fen.replace(" 0 1", " 90 80"), &[]).unwrap();
        assert_eq!(late.score(), TB_WIN);
    }

    #[test]
    fn a_repetition_makes_the_winner_take_the_shortest_way() {
        let Some(dir) = test_tables() else { return };
        let syzygy = syzygy(&dir);
        let fen = "8/8/8/4k3/8/8/8/R3K3 w - - 4 3";
        let root = Position::from_fen(fen, false).unwrap();
        // The root occurred 4 plies ago.
        let history = [1, root.key(), 2, 3];
        let ranking = rank(&syzygy, fen, &history).unwrap();
        let quickest = ranking.moves[0].dtz;
        assert!(ranking.kept().all(|m| m.dtz == quickest));
    }

    #[test]
    fn draws_are_held_and_wdl_ranks_without_dtz_files() {
        let Some(dir) = test_tables() else { return };
        let syzygy = syzygy(&dir);
        // KRvKR: 14 of the 15 moves lose; the one that holds is kept.
        let ranking = rank(&syzygy, "2r5/8/8/8/5R2/6k1/8/7K w - - 0 1", &[]).unwrap();
        let kept: Vec<_> = ranking.kept().collect();
        assert_eq!(kept.len(), 1);
        assert_eq!((kept[0].rank, ranking.score()), (0, DRAW));

        // Only the WDL file of KRvK: ranked by WDL.
        let wdl_only = std::env::temp_dir().join(format!("brudno-wdl-only-{}", std::process::id()));
        std::fs::create_dir_all(&wdl_only).unwrap();
        std::fs::copy(dir.join("KRvK.rtbw"), wdl_only.join("KRvK.rtbw")).unwrap();
        let partial = Syzygy {
            tables: Tablebases::load(&wdl_only.display().to_string()).0.unwrap(),
            ..syzygy
        };
        let ranking = rank(&partial, "8/8/8/4k3/8/8/8/3RK3 w - - 0 1", &[]).unwrap();
        let _ = std::fs::remove_dir_all(&wdl_only);
        assert!(!ranking.by_dtz);
        assert!(ranking.kept().all(|m| m.rank == MAX_DTZ && m.dtz == 0));
        assert_eq!(ranking.kept().count() + 3, ranking.moves.len());
    }
}
