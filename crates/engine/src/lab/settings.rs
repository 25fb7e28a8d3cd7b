//! What a laboratory search is asked to do: its depth, its evaluation, and when to give up.

use super::algorithm::{Algorithm, UnknownName};
use super::simple;
use crate::instant::Instant;
use std::fmt;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;
use xiangqi::Position;

/// The deepest search the laboratory accepts (minimax at depth 6 from a middlegame already
/// takes hours; the bound keeps the depth in the table's byte and the recursion shallow).
pub const MAX_DEPTH: u32 = 30;

/// The largest transposition table, as a power of two: 2²⁶ entries of 16 bytes, 1 GiB.
pub const MAX_TABLE_BITS: u32 = 26;

/// How the leaves are scored, always for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Evaluation {
    /// The reports' simple evaluation: material, piece position, mobility, attack and
    /// protection ([`simple`]).
    Simple,
    /// The engine's tuned evaluation ([`crate::tuning::DEFAULT_EVALUATOR`]).
    Engine,
}

impl Evaluation {
    /// The name on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Evaluation::Simple => "simple",
            Evaluation::Engine => "engine",
        }
    }

    /// The value of `pos` for its side to move, in centi-soldiers.
    pub fn evaluate(self, pos: &Position) -> i32 {
        match self {
            Evaluation::Simple => simple::evaluate(pos),
            Evaluation::Engine => crate::tuning::DEFAULT_EVALUATOR.evaluate(pos),
        }
    }
}

impl fmt::Display for Evaluation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Evaluation {
    type Err = UnknownName;

    fn from_str(text: &str) -> Result<Evaluation, UnknownName> {
        let every = [Evaluation::Simple, Evaluation::Engine];
        every.into_iter().find(|e| e.name() == text).ok_or_else(|| {
            UnknownName::new("evaluation", text, every.map(Evaluation::name).into_iter())
        })
    }
}

/// What to search for, and when to give up.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Plies to search, from 1 to [`MAX_DEPTH`].
    pub depth: u32,
    /// How leaves are scored.
    pub evaluation: Evaluation,
    /// A search still running at this instant stops and is reported as not finished.
    pub deadline: Option<Instant>,
    /// Set from another thread to stop the search (it is then reported as not finished).
    pub stop: Option<Arc<AtomicBool>>,
    /// Entries of the transposition table, as a power of two (20: about a million entries, 16 MiB).
    pub table_bits: u32,
    /// A search that has visited this many nodes stops and is reported as not finished (looked
    /// at with the clock, so it may run up to 1,023 nodes past it; the engine's row ignores it).
    pub node_limit: Option<u64>,
    /// Where a search tells how far it is, for a page that shows a run's progress.
    pub progress: Option<Arc<Progress>>,
}

/// How far a search is: its nodes so far, updated as it goes (with the clock checks), and a
/// callback told now and then (every [`Progress::TICK_NODES`] nodes or so) for a host that
/// cannot ask (a browser's worker, busy searching).
#[derive(Default)]
pub struct Progress {
    nodes: std::sync::atomic::AtomicU64,
    tick: Option<Box<dyn Fn(u64) + Send + Sync>>,
}

impl std::fmt::Debug for Progress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Progress")
            .field("nodes", &self.nodes())
            .finish()
    }
}

impl Progress {
    /// About how many nodes pass between two calls of the callback.
    pub const TICK_NODES: u64 = 1 << 16;

    /// A progress that calls `tick` with the nodes so far now and then.
    pub fn with_tick(tick: impl Fn(u64) + Send + Sync + 'static) -> Progress {
        Progress {
            nodes: Default::default(),
            tick: Some(Box::new(tick)),
        }
    }

    /// The nodes of the search so far.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// A search starts: no nodes yet.
    pub fn reset(&self) {
        self.nodes.store(0, std::sync::atomic::Ordering::Relaxed);
    }

    /// The search has visited `nodes` nodes.
    pub(super) fn note(&self, nodes: u64) {
        let before = self.nodes.swap(nodes, std::sync::atomic::Ordering::Relaxed);
        if let Some(tick) = &self.tick {
            if before / Progress::TICK_NODES != nodes / Progress::TICK_NODES {
                tick(nodes);
            }
        }
    }
}

impl Settings {
    /// A search to `depth` with `evaluation`, no deadline, no stop flag, a table of 2²⁰
    /// entries.
    pub fn new(depth: u32, evaluation: Evaluation) -> Settings {
        Settings {
            depth,
            evaluation,
            deadline: None,
            stop: None,
            table_bits: 20,
            node_limit: None,
            progress: None,
        }
    }

    /// The same settings with a deadline `limit` from now.
    pub fn with_time_limit(mut self, limit: Duration) -> Settings {
        // A limit too far away to add to the clock is no limit.
        self.deadline = Instant::now().checked_add(limit);
        self
    }

    /// Whether [`run`](super::run) accepts these settings.
    pub fn check(&self) -> Result<(), SettingsError> {
        if !(1..=MAX_DEPTH).contains(&self.depth) {
            return Err(SettingsError::Depth(self.depth));
        }
        if self.table_bits > MAX_TABLE_BITS {
            return Err(SettingsError::TableBits(self.table_bits));
        }
        Ok(())
    }
}

/// Settings that [`run`](super::run) refuses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SettingsError {
    /// The depth is 0 or beyond [`MAX_DEPTH`].
    #[error("depth {0} refused: from 1 to {MAX_DEPTH} (minimax at 6 already takes hours)")]
    Depth(u32),
    /// The table would have more than 2^[`MAX_TABLE_BITS`] entries.
    #[error("a table of 2^{0} entries refused: at most 2^{MAX_TABLE_BITS}")]
    TableBits(u32),
    /// A tree was asked of an algorithm that does not record one
    /// ([`Algorithm::records_tree`]).
    #[error("{0} does not record its tree (minimax, negamax and the plain alpha-beta orders do)")]
    NoTree(Algorithm),
}
