//! What every laboratory search shares: the position it walks, its counters, the principal
//! variation, the stop checks, and the two helpers some use (the history table and the
//! transposition table).

use super::algorithm::Algorithm;
use super::ordering::History;
use super::report::{Outcome, Report, Stats};
use super::settings::{Evaluation, Settings};
use super::table::Table;
use crate::instant::Instant;
use crate::score::mated_in;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use xiangqi::{Move, Position};

/// How many plies a quiescence search may go past the nominal depth (captures run out long
/// before on any real position; this only bounds the line kept).
pub(super) const QUIESCENCE_PLIES: usize = 32;

/// The clock and the stop flag are looked at once every this many nodes: often enough to stop
/// within a millisecond or so, seldom enough to cost nothing.
const CHECK_EVERY: u64 = 1024;

/// A search in progress.
pub(super) struct Search {
    /// The position being searched: moves are made and unmade on it as the search walks the
    /// tree, so that it is the root again at the end.
    pub pos: Position,
    /// Everything counted so far.
    pub stats: Stats,
    /// `pv[ply]`: the best line found from the node at `ply` (triangular PV table).
    pv: Vec<Vec<Move>>,
    /// The history heuristic's scores (used only by the algorithms that order by history).
    pub history: History,
    /// The transposition table (only for the algorithms that use one).
    pub table: Option<Table>,
    evaluation: Evaluation,
    deadline: Option<Instant>,
    stop: Option<Arc<AtomicBool>>,
    node_limit: Option<u64>,
    progress: Option<Arc<super::settings::Progress>>,
    stopped: bool,
}

impl Search {
    /// A search of `pos` under `settings`, with an empty table of `settings.table_bits` if
    /// `with_table`.
    pub fn new(pos: &Position, settings: &Settings, with_table: bool) -> Search {
        Search {
            pos: pos.clone(),
            stats: Stats::default(),
            // Room for a quiescence search's plies past the depth.
            pv: vec![Vec::new(); settings.depth as usize + 2 + QUIESCENCE_PLIES],
            history: History::new(),
            table: with_table.then(|| Table::new(settings.table_bits)),
            evaluation: settings.evaluation,
            deadline: settings.deadline,
            stop: settings.stop.clone(),
            node_limit: settings.node_limit,
            progress: settings.progress.clone(),
            stopped: false,
        }
    }

    /// Counts a node at `ply`, clears its line, and every [`CHECK_EVERY`] nodes (the first
    /// included) looks at the clock, the stop flag and the node limit.
    pub fn enter(&mut self, ply: usize) {
        self.stats.nodes += 1;
        self.pv[ply].clear();
        if self.stats.nodes % CHECK_EVERY == 1 {
            let late = self.deadline.is_some_and(|d| Instant::now() >= d);
            let told = self
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed));
            let spent = self.node_limit.is_some_and(|n| self.stats.nodes > n);
            self.stopped |= late || told || spent;
            if let Some(progress) = &self.progress {
                progress.note(self.stats.nodes);
            }
        }
    }

    /// The deepest ply a search may reach (a quiescence search stops there).
    pub fn max_ply(&self) -> usize {
        self.pv.len() - 2
    }

    /// Whether the search must stop. Once true it stays true: every function returns at once
    /// (unmaking its move on the way), and the values it returns are never used.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// The value of a horizon position for its side to move: the evaluation, or a loss if it
    /// has no legal move (checked here too, so that a depth-1 search sees a mate in one).
    pub fn leaf(&mut self, ply: usize) -> i32 {
        self.stats.leaves += 1;
        if self.pos.count_legal_moves() == 0 {
            return self.no_move(ply);
        }
        self.evaluation.evaluate(&self.pos)
    }

    /// The value of a position whose side to move has no legal move: lost (checkmate and
    /// stalemate alike), sooner being worse.
    pub fn no_move(&mut self, ply: usize) -> i32 {
        self.stats.terminals += 1;
        mated_in(ply)
    }

    /// Notes a cutoff by the move tried `index`-th (0: the first).
    pub fn cutoff(&mut self, index: usize) {
        self.stats.cutoffs += 1;
        if index == 0 {
            self.stats.first_move_cutoffs += 1;
        }
    }

    /// `m` is the best move so far at `ply`: its line is `m` then the child's line.
    pub fn new_best(&mut self, ply: usize, m: Move) {
        let (here, below) = self.pv.split_at_mut(ply + 1);
        let line = &mut here[ply];
        line.clear();
        line.push(m);
        line.extend_from_slice(&below[0]);
    }

    /// Looks the current position up in the transposition table, if this search has one, and
    /// counts the probe: the entry's value when it settles this node with `depth` plies to go
    /// and the window `(alpha, beta)`, and its best move (to try first) in any case
    /// ([`Table::probe`] says which entries may answer).
    pub fn probe(&mut self, depth: u32, ply: usize, alpha: i32, beta: i32) -> (Option<i32>, Move) {
        let Some(table) = &self.table else {
            return (None, Move::NONE);
        };
        self.stats.table_probes += 1;
        let Some(hit) = table.probe(self.pos.key(), depth, ply, alpha, beta) else {
            return (None, Move::NONE);
        };
        self.stats.table_hits += 1;
        if hit.answer.is_some() {
            self.stats.table_answers += 1;
        }
        (hit.answer, hit.best)
    }

    /// Remembers the current position in the transposition table, if this search has one:
    /// searched to `depth` with the window (`alpha_before`, `beta`), it returned `best` with
    /// the move `best_move`.
    pub fn store(
        &mut self,
        depth: u32,
        ply: usize,
        window: (i32, i32),
        best: i32,
        best_move: Move,
    ) {
        let key = self.pos.key();
        if let Some(table) = &mut self.table {
            table.store(key, depth, ply, window, best, best_move);
        }
    }

    /// The report of this search, which returned `value` at the root after `time`.
    pub fn finish(
        self,
        algorithm: Algorithm,
        settings: &Settings,
        value: i32,
        time: Duration,
    ) -> Report {
        let outcome = (!self.stopped).then(|| Outcome {
            value,
            best_move: self.pv[0].first().copied(),
            pv: self.pv[0].clone(),
        });
        Report {
            algorithm,
            depth: settings.depth,
            evaluation: settings.evaluation,
            stats: self.stats,
            time,
            outcome,
        }
    }
}
