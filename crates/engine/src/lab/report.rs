//! What a laboratory search reports: its counters, and its answer when it finished.

use super::algorithm::Algorithm;
use super::settings::Evaluation;
use std::time::Duration;
use xiangqi::Move;

/// What a search did, counted as it went.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Positions the search function was called on, the root and the leaves included.
    pub nodes: u64,
    /// Positions at the horizon, evaluated (or found to have no legal move).
    pub leaves: u64,
    /// Positions without a legal move (lost for the side to move), at the horizon or above.
    pub terminals: u64,
    /// Beta cutoffs: moves that refuted the opponent's last move, ending their node's loop.
    pub cutoffs: u64,
    /// Of those, cutoffs by the first move tried (ideal ordering makes them all so).
    pub first_move_cutoffs: u64,
    /// Transposition table look-ups.
    pub table_probes: u64,
    /// Look-ups that found an entry for the position.
    pub table_hits: u64,
    /// Hits whose value answered the node without searching it.
    pub table_answers: u64,
    /// NegaScout's searches again with the full window after a null window failed high.
    pub researches: u64,
    /// Searches of the root again after the value fell outside the aspiration window.
    pub aspiration_researches: u64,
}

impl Stats {
    /// Cutoffs by a move other than the first tried.
    pub fn later_cutoffs(&self) -> u64 {
        self.cutoffs - self.first_move_cutoffs
    }
}

/// The answer of a search that finished.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The root's value for its side to move, in centi-soldiers, or a mate score
    /// ([`crate::score`]).
    pub value: i32,
    /// The move with that value; `None` when the root has no legal move.
    pub best_move: Option<Move>,
    /// The principal variation: the best move, the best reply, and so on. It may stop short
    /// of the depth where a transposition table entry answered a node.
    pub pv: Vec<Move>,
}

/// One search's report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Which search.
    pub algorithm: Algorithm,
    /// The depth asked for.
    pub depth: u32,
    /// The evaluation used (the engine always uses its own).
    pub evaluation: Evaluation,
    /// What it counted, up to the end or to the stop. The engine fills in `nodes` only.
    pub stats: Stats,
    /// Wall-clock time.
    pub time: Duration,
    /// The answer; `None` when the deadline or the stop flag ended the search first.
    pub outcome: Option<Outcome>,
}

impl Report {
    /// Whether the search ran to its end.
    pub fn finished(&self) -> bool {
        self.outcome.is_some()
    }

    /// The root's value, if the search finished.
    pub fn value(&self) -> Option<i32> {
        self.outcome.as_ref().map(|o| o.value)
    }

    /// The best move, if the search finished and the root has a legal move.
    pub fn best_move(&self) -> Option<Move> {
        self.outcome.as_ref().and_then(|o| o.best_move)
    }
}
