//! How long a trace may take (`Budget`): the lab's watchdog stops a request's searches at its
//! time limit and bounds the nodes a traced search records; the command line has no limit.

use std::sync::Arc;

use brudno_engine::search::SearchControl;

/// How long a trace may take. The command line has no limit; the lab gives each request a
/// `SearchControl` that its watchdog stops at the time limit, and every search of the trace
/// (the traced one, the sizes of skipped subtrees, the comparison) stops with it.
#[derive(Clone, Debug, Default)]
pub struct Budget {
    control: Option<Arc<SearchControl>>,
    max_nodes: Option<u64>,
}

impl Budget {
    /// No limit.
    pub fn unlimited() -> Self {
        Self::default()
    }

    /// A budget spent once `control` is stopped; `control` must have been begun.
    pub fn stopped_by(control: Arc<SearchControl>) -> Self {
        Self {
            control: Some(control),
            max_nodes: None,
        }
    }

    /// The same budget, with at most `nodes` nodes in a traced chess search (a trace records
    /// every node it visits: the lab keeps its memory and its pages bounded this way).
    pub fn with_max_nodes(mut self, nodes: u64) -> Self {
        self.max_nodes = Some(nodes);
        self
    }

    /// The most nodes a traced chess search may visit, if bounded.
    pub fn max_nodes(&self) -> Option<u64> {
        self.max_nodes
    }

    /// The control the searches of this budget obey, if it is limited.
    pub fn control(&self) -> Option<Arc<SearchControl>> {
        self.control.clone()
    }

    /// Whether the budget is spent.
    pub fn is_spent(&self) -> bool {
        self.control.as_ref().is_some_and(|c| c.is_stopped())
    }

    /// An error once the budget is spent.
    pub fn check(&self) -> Result<(), String> {
        if self.is_spent() {
            Err(TIME_LIMIT_MESSAGE.to_string())
        } else {
            Ok(())
        }
    }
}

/// What a trace cut short by its budget says.
pub const TIME_LIMIT_MESSAGE: &str =
    "the time limit ran out before the trace was complete: choose a smaller depth or tree";
