//! The search thread of one `go`: it runs the search, prints its `info` lines (and
//! `info currmove`), holds the answer under `go infinite` or `go ponder` until `stop` or
//! `ponderhit`, and writes exactly one `bestmove`, even if the search panics (then the first
//! legal move, with an `info string`). At a weaker level (`UCI_LimitStrength`) it is the
//! level that chooses the move among the lines.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::{JoinHandle, Thread};
use std::time::Duration;

use shakmaty::CastlingMode;

use crate::currmove;
use crate::io::Output;
use crate::report::{bestmove_line, info_line};
use brudno_engine::position::Position;
use brudno_engine::search::history::HistoryStore;
use brudno_engine::search::level::Level;
use brudno_engine::search::tt::TranspositionTable;
use brudno_engine::search::{Limits, Search, SearchConfig, SearchControl, SearchResult};

/// How long the search thread sleeps at a time while it holds `bestmove` under `go infinite`
/// or `go ponder`; `stop`, `ponderhit` and `quit` wake it at once.
const HOLD_PARK: Duration = Duration::from_millis(5);

/// How far a search thread has got with its answer.
#[derive(Default)]
pub(super) struct Answer {
    /// Set just before `bestmove` is written: from then on, as far as the GUI can tell, no
    /// search is running.
    pub(super) due: AtomicBool,
    /// Set once `bestmove` is written: nothing is left for the engine to wait for.
    pub(super) written: AtomicBool,
}

/// A search thread that has been started and not yet joined.
pub(super) struct RunningSearch {
    pub(super) handle: JoinHandle<()>,
    pub(super) answer: Arc<Answer>,
}

/// Everything a search thread needs, moved into it.
pub(super) struct SearchJob {
    pub(super) position: Position,
    pub(super) history: Vec<u64>,
    pub(super) limits: Limits,
    pub(super) config: SearchConfig,
    pub(super) tt: Arc<TranspositionTable>,
    pub(super) control: Arc<SearchControl>,
    /// The histories the previous search left (emptied at `ucinewgame`).
    pub(super) histories: Arc<HistoryStore>,
    pub(super) out: Output,
    pub(super) mode: CastlingMode,
    /// `go infinite` or `go ponder`: bestmove waits for stop or ponderhit.
    pub(super) hold: bool,
    /// `UCI_LimitStrength`: the level that chooses the move among the lines.
    pub(super) level: Option<Level>,
    /// `UCI_ShowWDL`: the root's material for the win/draw/loss model.
    pub(super) wdl_material: Option<i32>,
    /// Raised just before and just after `bestmove` is written.
    pub(super) answer: Arc<Answer>,
    /// The reader thread, woken when this search has answered (it may wait for that on quit).
    pub(super) reader: Thread,
}

impl SearchJob {
    /// The `bestmove` line: the search's best move, or at a weaker level the one it chooses
    /// among the lines (with that line's reply to ponder on).
    fn answer_line(&self, result: &SearchResult) -> String {
        let chosen = self.level.and_then(|level| {
            let seed = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64);
            level.choose(&result.lines, seed)
        });
        match chosen {
            Some(mv) if Some(mv) != result.best_move => {
                let ponder = result
                    .lines
                    .iter()
                    .find(|line| line.pv.first() == Some(&mv))
                    .and_then(|line| line.pv.get(1).copied());
                bestmove_line(Some(mv), ponder, self.mode)
            }
            _ => bestmove_line(result.best_move, result.ponder_move, self.mode),
        }
    }

    pub(super) fn run(self) {
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            let search = Search {
                position: &self.position,
                history: &self.history,
                limits: &self.limits,
                config: &self.config,
                tt: &self.tt,
                control: &self.control,
                histories: Some(&*self.histories),
            };
            let announce = currmove::CurrentMove::new(&self.out, &self.control, self.mode);
            search
                .run_observed(announce, &mut |report| {
                    self.out
                        .line(&info_line(report, self.mode, self.wdl_material))
                })
                .0
        }));
        if self.hold {
            while !self.control.is_stopped()
                && (self.limits.infinite || self.control.is_pondering())
            {
                std::thread::park_timeout(HOLD_PARK);
            }
        }
        if let Some(failure) = self
            .config
            .syzygy
            .as_ref()
            .and_then(|syzygy| syzygy.tables.take_failure())
        {
            self.out.info_string(&failure);
        }
        let (infos, bestmove) = match outcome {
            Ok(result) => (
                result
                    .lines
                    .iter()
                    .map(|line| info_line(line, self.mode, self.wdl_material))
                    .collect::<Vec<_>>(),
                self.answer_line(&result),
            ),
            Err(_) => {
                let first = self.position.legal_moves().first().copied();
                (
                    vec![
                        "info string internal error in the search; playing the first legal move"
                            .to_string(),
                    ],
                    bestmove_line(first, None, self.mode),
                )
            }
        };
        for info in &infos {
            self.out.line(info);
        }
        self.answer.due.store(true, Ordering::SeqCst);
        self.out.line(&bestmove);
        self.answer.written.store(true, Ordering::SeqCst);
        self.reader.unpark();
    }
}
