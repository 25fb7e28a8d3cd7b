//! The search: one [`Worker`] per thread runs iterative deepening over the shared
//! transposition table (Lazy SMP); the main worker also keeps time and reports progress.

mod alphabeta;
mod eval_cache;
mod repetition;
mod threats;

use crate::eval::{Evaluator, Material};
use crate::helpers;
use crate::history::{History, PieceTo};
use crate::nnue::{Accumulators, Network};
use crate::score::{INFINITE, MATE_BOUND, MAX_PLY};
use crate::strength::Candidate;
use crate::tablebases::Tablebases;
use crate::time::{Limits, TimeManager};
use crate::tt::{Bound, TranspositionTable};
use eval_cache::EvalCache;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;
use xiangqi::{Move, Position, Undo};

/// State shared by all threads of one search.
pub struct Shared {
    /// Set to make every thread stop as soon as it can.
    pub stop: AtomicBool,
    /// While set, the engine is pondering and ignores the clock.
    pub pondering: AtomicBool,
    /// Set by `ponderhit`; the main thread then restarts its clock and clears it.
    pub ponderhit: AtomicBool,
    /// Nodes searched by all threads (each adds its count every few thousand nodes).
    pub nodes: AtomicU64,
    /// Positions found in the endgame tables by all threads (added with the nodes).
    pub tb_hits: AtomicU64,
    /// Set once the main thread has finished its first iteration: from then on its move is a
    /// searched one, and the limits may stop the search.
    pub first_iteration_done: AtomicBool,
    /// While set, every thread waits where it is (the game's clock is paused); the main
    /// thread's time does not run meanwhile. Clearing it lets the search go on with all it
    /// has found.
    pub paused: AtomicBool,
}

impl Shared {
    /// Fresh state for a new search.
    pub fn new(pondering: bool) -> Shared {
        Shared {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(pondering),
            ponderhit: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            tb_hits: AtomicU64::new(0),
            first_iteration_done: AtomicBool::new(false),
            paused: AtomicBool::new(false),
        }
    }
}

/// One move of the game or the search path, as the repetition rules need it.
#[derive(Clone, Copy)]
struct PlyRecord {
    mv: Move,
    undo: Undo,
    /// The move gave check.
    check: bool,
    /// A null move (passing), which no repetition may cross.
    null: bool,
}

/// The evaluation a search uses: the hand-made one, or a network when one is given.
#[derive(Clone, Copy)]
pub struct Evaluation<'a> {
    /// The hand-made evaluation.
    pub hand_made: &'a Evaluator,
    /// The network that replaces it, if any.
    pub network: Option<&'a Network>,
}

impl Evaluation<'_> {
    /// Tells evaluations apart: 0 for the hand-made one (the engine's searches all use the
    /// default weights), a network's checksum otherwise.
    fn id(&self) -> u64 {
        self.network.map_or(0, |n| n.checksum() | 1)
    }
}

/// What a search thread keeps from one search to the next: its move-ordering statistics and
/// the evaluations it worked out. Both are megabytes, so they are written in full once when
/// made (rather than page by page during a search) and then reused.
#[derive(Default)]
pub struct ThreadMemory {
    /// Quiet-move statistics; the positions of a game's next move are much like the last's.
    pub history: History,
    /// Evaluations by position key. An evaluation depends on the position alone, so entries
    /// stay true from one search to the next, as long as the searches use the same
    /// evaluation ([`Evaluation::id`], checked by [`Worker::new`]).
    eval_cache: EvalCache,
    /// The [`Evaluation::id`] of the evaluations in `eval_cache`.
    eval_id: u64,
}

impl ThreadMemory {
    /// Forgets the statistics (a new game); the evaluations stay true and are kept.
    pub fn new_game(&mut self) {
        self.history.clear();
    }
}

/// Per-ply search state.
#[derive(Clone, Copy)]
struct Frame {
    static_eval: i32,
    killers: [Move; 2],
    /// The move played from this ply (NONE for a null move).
    current: Move,
    /// The same move as the continuation histories index it (NONE for a null move).
    moved: PieceTo,
}

const EMPTY_FRAME: Frame = Frame {
    static_eval: 0,
    killers: [Move::NONE; 2],
    current: Move::NONE,
    moved: PieceTo::NONE,
};

/// A root move with what the last iterations learned about it.
#[derive(Clone, Debug)]
pub struct RootMove {
    /// The move.
    pub mv: Move,
    /// Score in the current iteration (`-INFINITE` until searched).
    pub score: i32,
    /// Which side of the true score `score` is: a bound when it fell outside the window.
    pub bound: Bound,
    /// Score in the last completed iteration.
    pub previous_score: i32,
    /// Principal variation starting with `mv`.
    pub pv: Vec<Move>,
    /// Deepest ply reached while searching it.
    pub seldepth: usize,
    /// A quiet move that threatens mate in one, which a decided root searches unreduced (found
    /// when the root is first decided; false until then).
    pub threatens_mate: bool,
}

impl RootMove {
    /// The score to report for the move, and its bound: this iteration's once the move has
    /// been searched in it, otherwise the last completed iteration's, where a move that is
    /// reported (the best, or one of several lines) was searched to an exact score.
    pub fn reported_score(&self) -> (i32, Bound) {
        if self.score == -INFINITE {
            (self.previous_score, Bound::Exact)
        } else {
            (self.score, self.bound)
        }
    }
}

/// One line of progress, reported after each completed iteration (and MultiPV line).
#[derive(Clone, Debug)]
pub struct SearchInfo {
    /// Iteration depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// 1-based MultiPV index.
    pub multipv: usize,
    /// Score for the side to move.
    pub score: i32,
    /// Whether `score` is exact, or only a bound: the line of an iteration the search was
    /// stopped in, whose best move fell outside the window.
    pub bound: Bound,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Positions found in the endgame tables by all threads.
    pub tbhits: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Permille of the hash table in use.
    pub hashfull: u32,
    /// Principal variation.
    pub pv: Vec<Move>,
}

/// Options the search reads.
#[derive(Clone, Debug)]
pub struct SearchConfig {
    /// Threads searching together (the main one and its helpers).
    pub threads: usize,
    /// Number of principal variations to search.
    pub multipv: usize,
    /// How many of them to report (a weakened level searches more lines than it shows).
    pub reported_lines: usize,
    /// Whether the move played is the search's best, as at full strength (a weakened level
    /// chooses among the lines of the last completed iteration instead).
    pub plays_best: bool,
    /// Time lost per move between engine and GUI.
    pub move_overhead: Duration,
    /// Endgame tables to probe, if any.
    pub tablebases: Option<Tablebases>,
    /// Every repetition is a draw (see `EngineOptions::repetition_is_draw`).
    pub repetition_is_draw: bool,
}

/// A searching thread.
pub struct Worker<'a> {
    id: usize,
    shared: &'a Shared,
    tt: &'a TranspositionTable,
    /// The evaluation, with what it keeps up to date along the search path.
    eval: PathEvaluation<'a>,
    /// See [`ThreadMemory::eval_id`].
    eval_id: u64,
    pos: Position,
    /// Keys of every position of the game and the search path; the last is the current one.
    keys: Vec<u64>,
    /// The moves between them: `line[i]` leads from `keys[i]` to `keys[i + 1]`.
    line: Vec<PlyRecord>,
    stack: Vec<Frame>,
    history: History,
    /// See [`ThreadMemory::eval_cache`].
    eval_cache: EvalCache,
    pv_table: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    /// Root moves, best first after each iteration.
    pub root_moves: Vec<RootMove>,
    nodes: u64,
    /// Nodes not yet added to the shared counter.
    unflushed: u64,
    /// How many unflushed nodes bring the next look at the limits: [`POLL_INTERVAL`], or this
    /// thread's share of the nodes left when a node limit comes sooner, so that one thread
    /// stops at exactly its limit and several close to it.
    poll_at: u64,
    /// Table hits not yet added to the shared counter.
    tb_hits: u64,
    seldepth: usize,
    stopped: bool,
    limits: Limits,
    time: Option<TimeManager>,
    config: SearchConfig,
    /// Depth of the last completed iteration.
    pub completed_depth: u32,
    /// The lines (root move and score) of the last completed iteration, best first.
    completed_lines: Vec<Candidate>,
    /// Whether the root's score before this search of it was decided, won or lost by
    /// [`alphabeta::ROOT_DECIDED`] or more: the null move then reduces by depth only.
    root_decided: bool,
    /// Whether the root moves' `threatens_mate` have been found (once, when the root is first
    /// decided: a balanced root never asks).
    root_threats_found: bool,
}

/// The static evaluation of a worker, with the state it keeps incrementally along the search
/// path: the hand-made evaluation's material sums, or the network's first-layer sums. Each
/// keeps only its own, one entry per position on the path, the last for the current one.
enum PathEvaluation<'a> {
    HandMade(&'a Evaluator, Vec<Material>),
    Network(&'a Network, Accumulators),
}

impl PathEvaluation<'_> {
    /// Records the position after `m` is played in `pos` (before it is).
    #[inline]
    fn push_move(&mut self, pos: &Position, m: Move) {
        match self {
            PathEvaluation::HandMade(eval, material) => {
                let after = eval.material_after(pos, m, current(material));
                material.push(after);
            }
            PathEvaluation::Network(network, accumulators) => {
                accumulators.push_move(network, pos, m)
            }
        }
    }

    /// Records a null move: the same pieces.
    #[inline]
    fn push_same(&mut self) {
        match self {
            PathEvaluation::HandMade(_, material) => material.push(current(material)),
            PathEvaluation::Network(_, accumulators) => accumulators.push_same(),
        }
    }

    /// Forgets the last position.
    #[inline]
    fn pop(&mut self) {
        match self {
            PathEvaluation::HandMade(_, material) => {
                material.pop();
            }
            PathEvaluation::Network(_, accumulators) => accumulators.pop(),
        }
    }

    /// The evaluation of `pos`, the current position, for the side to move.
    #[inline]
    fn evaluate(&self, pos: &Position) -> i32 {
        match self {
            PathEvaluation::HandMade(eval, material) => {
                let material = current(material);
                debug_assert_eq!(material, eval.material(pos));
                eval.evaluate_with(pos, material)
            }
            PathEvaluation::Network(network, accumulators) => accumulators.evaluate(network, pos),
        }
    }
}

/// Nodes a thread counts between two looks at the stop flag, the clock and the node limit:
/// rare enough to cost nothing, often enough to stop within a few microseconds.
const POLL_INTERVAL: u64 = 1024;

/// An easy move (see `Worker::is_easy_move`) is clear of every other move by this much
/// (centi-soldiers: two soldiers, half a horse).
const EASY_MARGIN: i32 = 200;
/// Iterations the best move must have stayed best before it can be easy.
const EASY_STABLE_DEPTHS: u32 = 4;
/// The shallowest iteration after which a move can be easy.
const EASY_MIN_DEPTH: u32 = 8;

/// The material sums of the current position: the last on the path.
#[inline]
fn current(material: &[Material]) -> Material {
    match material.last() {
        Some(&m) => m,
        None => unreachable!("the root's material is pushed first"),
    }
}

impl<'a> Worker<'a> {
    /// A worker that will search from `start` after `moves` (the game so far), over the root
    /// moves `root` (all legal moves unless restricted), starting from the move-ordering
    /// statistics and evaluations in `memory` (an earlier search of the same game left them, or
    /// fresh ones).
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        id: usize,
        shared: &'a Shared,
        tt: &'a TranspositionTable,
        eval: Evaluation<'a>,
        start: &Position,
        moves: &[Move],
        root: &[Move],
        limits: Limits,
        config: SearchConfig,
        mut memory: ThreadMemory,
    ) -> Worker<'a> {
        let mut pos = start.clone();
        let mut keys = Vec::with_capacity(moves.len() + MAX_PLY + 2);
        let mut line = Vec::with_capacity(moves.len() + MAX_PLY + 2);
        keys.push(pos.key());
        for &m in moves {
            let undo = pos.make_move(m);
            line.push(PlyRecord {
                mv: m,
                undo,
                check: pos.in_check(),
                null: false,
            });
            keys.push(pos.key());
        }
        let time = (id == 0).then(|| TimeManager::new(&limits, config.move_overhead));
        if memory.eval_id != eval.id() {
            memory.eval_cache = EvalCache::default();
        }
        let eval_id = eval.id();
        let eval = match eval.network {
            Some(network) => {
                PathEvaluation::Network(network, Accumulators::new(network, &pos, MAX_PLY + 4))
            }
            None => {
                let mut material = Vec::with_capacity(MAX_PLY + 4);
                material.push(eval.hand_made.material(&pos));
                PathEvaluation::HandMade(eval.hand_made, material)
            }
        };
        let root_moves = root
            .iter()
            .map(|&mv| RootMove {
                mv,
                score: -INFINITE,
                bound: Bound::Exact,
                previous_score: -INFINITE,
                pv: vec![mv],
                seldepth: 0,
                threatens_mate: false,
            })
            .collect();
        Worker {
            id,
            shared,
            tt,
            eval,
            eval_id,
            pos,
            keys,
            line,
            stack: vec![EMPTY_FRAME; MAX_PLY + 4],
            history: memory.history,
            eval_cache: memory.eval_cache,
            pv_table: vec![[Move::NONE; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            root_moves,
            nodes: 0,
            unflushed: 0,
            poll_at: limits.nodes.map_or(POLL_INTERVAL, |limit| {
                (limit / config.threads.max(1) as u64).clamp(1, POLL_INTERVAL)
            }),
            tb_hits: 0,
            seldepth: 0,
            stopped: false,
            limits,
            time,
            config,
            completed_depth: 0,
            completed_lines: Vec::new(),
            root_decided: false,
            root_threats_found: false,
        }
    }

    /// The root moves and scores of the last completed iteration's lines, best first.
    pub fn completed_lines(&self) -> &[Candidate] {
        &self.completed_lines
    }

    /// Iterative deepening until a limit is reached or the search is stopped, calling
    /// `report` (main worker only) after every completed iteration.
    pub fn iterate(&mut self, report: &mut dyn FnMut(&SearchInfo)) {
        if self.root_moves.is_empty() {
            return;
        }
        let max_depth = self
            .limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 8)
            .clamp(1, MAX_PLY as u32 - 8);
        let multipv = self.config.multipv.clamp(1, self.root_moves.len());
        let mut best_changes = 0.0f64;
        let mut last_best = self.root_moves[0].mv;
        // The depth from which the best move has stayed the same.
        let mut best_since = 1;
        for depth in 1..=max_depth {
            // Helper threads skip some depths so that they spread over the tree.
            if self.id > 0 && depth > 2 && (depth + self.id as u32) % 3 == 0 {
                continue;
            }
            for rm in &mut self.root_moves {
                rm.previous_score = rm.score;
            }
            for pv_index in 0..multipv {
                self.seldepth = 0;
                self.aspiration(depth as i32, pv_index);
                if self.stopped {
                    break;
                }
            }
            if self.stopped {
                if self.id == 0 {
                    for info in self.interrupted_lines(depth) {
                        report(&info);
                    }
                }
                break;
            }
            // Each line was searched on its own; present them best first.
            self.root_moves[..multipv].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            self.completed_depth = depth;
            if self.id == 0 {
                self.shared
                    .first_iteration_done
                    .store(true, Ordering::Relaxed);
            }
            self.completed_lines.clear();
            self.completed_lines
                .extend(self.root_moves[..multipv].iter().map(|rm| Candidate {
                    mv: rm.mv,
                    score: rm.score,
                }));
            if self.id == 0 {
                for pv_index in 0..multipv.min(self.config.reported_lines.max(1)) {
                    report(&self.info(depth, pv_index));
                }
            }
            if self.root_moves[0].mv != last_best {
                best_changes += 1.0;
                last_best = self.root_moves[0].mv;
                best_since = depth;
            }
            best_changes *= 0.5;
            let best_score = self.root_moves[0].score;
            if let Some(mate) = self.limits.mate {
                if best_score >= MATE_BOUND
                    && (crate::score::MATE - best_score + 1) / 2 <= mate as i32
                {
                    break;
                }
            }
            if let Some(time) = &self.time {
                if !self.shared.pondering.load(Ordering::Relaxed)
                    && !time.can_start_iteration(1.0 + best_changes)
                {
                    break;
                }
            }
            if multipv == 1 && self.is_easy_move(depth, best_since) {
                break;
            }
        }
    }

    /// Whether the main worker, on the clock, may play its best move now because it is easy:
    /// the only legal move, or one that has stayed best since `best_since` for at least
    /// [`EASY_STABLE_DEPTHS`] iterations, has had its share of the time, and that every other
    /// move, searched to half of `depth`, falls short of by [`EASY_MARGIN`].
    fn is_easy_move(&mut self, depth: u32, best_since: u32) -> bool {
        let Some(time) = &self.time else {
            return false;
        };
        if !time.on_the_clock() || self.shared.pondering.load(Ordering::Relaxed) {
            return false;
        }
        if self.root_moves.len() == 1 {
            return true;
        }
        let best = self.root_moves[0].score;
        if depth < EASY_MIN_DEPTH
            || depth < best_since + EASY_STABLE_DEPTHS
            || best.abs() >= MATE_BOUND
            || !time.easy_move_time_spent()
        {
            return false;
        }
        // A null window just under the bar: every other move failing low proves them all
        // short of it. Their scores from this search are bounds, not values; the next
        // iteration searches them anew.
        let bar = best - EASY_MARGIN;
        let others = self.search_root(depth as i32 / 2, bar - 1, bar, 1);
        !self.stopped && others < bar
    }

    /// Searches root moves `pv_index..` at `depth` with a window around the last score,
    /// widening it until the score falls inside.
    fn aspiration(&mut self, depth: i32, pv_index: usize) {
        let previous = self.root_moves[pv_index].previous_score;
        self.root_decided = depth >= 5 && previous.abs() >= alphabeta::ROOT_DECIDED;
        if self.root_decided && !self.root_threats_found {
            self.find_root_threats();
        }
        let mut delta = 24;
        let (mut alpha, mut beta) = if depth >= 5 && previous.abs() < MATE_BOUND {
            (
                (previous - delta).max(-INFINITE),
                (previous + delta).min(INFINITE),
            )
        } else {
            (-INFINITE, INFINITE)
        };
        // The line's best move after the last finished pass: its score, bound and seldepth.
        let mut last_pass = None;
        loop {
            let score = self.search_root(depth, alpha, beta, pv_index);
            // Stable sort keeps earlier order among equal (unsearched) moves.
            self.root_moves[pv_index..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            let rm = &mut self.root_moves[pv_index];
            if self.stopped {
                // A pass stopped before its first move (the last pass's best) was searched
                // leaves that move first, unscored: it keeps what the last pass proved, the
                // bound that made the window move, so the move played has its line and score.
                if rm.score == -INFINITE {
                    if let Some((score, bound, seldepth)) = last_pass {
                        (rm.score, rm.bound, rm.seldepth) = (score, bound, seldepth);
                    }
                }
                return;
            }
            last_pass = Some((rm.score, rm.bound, rm.seldepth));
            if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITE);
            } else if score >= beta {
                beta = (score + delta).min(INFINITE);
            } else {
                return;
            }
            delta += delta / 2;
            if delta > 1000 {
                alpha = -INFINITE;
                beta = INFINITE;
            }
        }
    }

    /// Marks the root moves that threaten mate in one ([`threats::root_threats`]).
    fn find_root_threats(&mut self) {
        let moves: Vec<Move> = self.root_moves.iter().map(|rm| rm.mv).collect();
        let threats = threats::root_threats(&mut self.pos, &moves);
        for (rm, threat) in self.root_moves.iter_mut().zip(threats) {
            rm.threatens_mate = threat;
        }
        self.root_threats_found = true;
    }

    /// The lines to report for the iteration at `depth` the search was stopped in, when the
    /// best move or its score differs from the last completed iteration's: the move played
    /// is then not the one the last report began with (a later root move proved better
    /// before the stop), and a GUI should see where it comes from. With one line, that line.
    /// With several, every line shown is sent again, so that the first is the move played
    /// and no move stands in two lines: each at `depth` when this iteration has scored it,
    /// otherwise with its score of the iteration before (at `depth - 1`); the lines end at a
    /// move neither has scored. None for a level, which plays from its completed iteration.
    fn interrupted_lines(&self, depth: u32) -> Vec<SearchInfo> {
        let best = &self.root_moves[0];
        if !self.config.plays_best || best.score == -INFINITE {
            return Vec::new();
        }
        let reported = self.completed_lines.first();
        if reported.is_some_and(|line| line.mv == best.mv && line.score == best.score) {
            return Vec::new();
        }
        let shown = self.config.multipv.min(self.config.reported_lines.max(1));
        let mut lines = Vec::new();
        for (pv_index, rm) in self.root_moves.iter().enumerate().take(shown) {
            if rm.score != -INFINITE {
                lines.push(self.info(depth, pv_index));
            } else if rm.previous_score != -INFINITE {
                // A previous score means a completed iteration before this one: depth ≥ 2.
                lines.push(self.info(depth.saturating_sub(1), pv_index));
            } else {
                break;
            }
        }
        lines
    }

    fn info(&self, depth: u32, pv_index: usize) -> SearchInfo {
        let rm = &self.root_moves[pv_index];
        let (score, bound) = rm.reported_score();
        SearchInfo {
            depth,
            seldepth: rm.seldepth.max(1) as u32,
            multipv: pv_index + 1,
            score,
            bound,
            nodes: self.shared.nodes.load(Ordering::Relaxed) + self.unflushed,
            tbhits: self.shared.tb_hits.load(Ordering::Relaxed) + self.tb_hits,
            time: self.time.as_ref().map_or(Duration::ZERO, |t| t.elapsed()),
            hashfull: self.tt.hashfull(),
            pv: rm.pv.clone(),
        }
    }

    /// Plays `m` on the board and records it for the repetition rules.
    #[inline]
    fn make(&mut self, m: Move) -> bool {
        // The child probes the table and the evaluation cache first thing: start fetching
        // their lines now, while the move is made and checked.
        let child = self.pos.key_after(m);
        self.tt.prefetch(child);
        crate::prefetch::prefetch(self.eval_cache.entry(child));
        self.eval.push_move(&self.pos, m);
        let undo = self.pos.make_move(m);
        let check = self.pos.in_check_after(m);
        self.line.push(PlyRecord {
            mv: m,
            undo,
            check,
            null: false,
        });
        self.keys.push(self.pos.key());
        check
    }

    #[inline]
    fn unmake(&mut self) {
        let record = self.line.pop().expect("unmake after make");
        self.keys.pop();
        self.eval.pop();
        if record.null {
            self.pos.unmake_null(record.undo);
        } else {
            self.pos.unmake_move(record.mv, record.undo);
        }
    }

    #[inline]
    fn make_null(&mut self) {
        self.eval.push_same();
        let undo = self.pos.make_null();
        self.line.push(PlyRecord {
            mv: Move::NONE,
            undo,
            check: false,
            null: true,
        });
        self.keys.push(self.pos.key());
    }

    /// Counts a node and, every [`POLL_INTERVAL`] of them (or at a node limit), publishes the
    /// count and checks the limits.
    #[inline]
    fn count_node(&mut self) {
        // A stopped search unwinds through re-searches that return at once: they visit no node.
        if self.stopped {
            return;
        }
        self.nodes += 1;
        self.unflushed += 1;
        if self.unflushed >= self.poll_at {
            self.poll();
        }
    }

    fn poll(&mut self) {
        let total = self
            .shared
            .nodes
            .fetch_add(self.unflushed, Ordering::Relaxed)
            + self.unflushed;
        self.unflushed = 0;
        self.flush_tb_hits();
        if self.is_paused() {
            self.wait_while_paused();
        }
        if self.shared.stop.load(Ordering::Relaxed) {
            self.stopped = true;
            return;
        }
        // In a browser the host stops a search through shared memory (`helpers::HOST_STOP`).
        if helpers::host_stopped() {
            self.shared.stop.store(true, Ordering::Relaxed);
            self.stopped = true;
            return;
        }
        // The limits wait for the main thread's first iteration, so that even the smallest of
        // them plays a searched move (depth 1 takes a few hundred nodes at most).
        let searched = self.shared.first_iteration_done.load(Ordering::Relaxed);
        // Every thread watches the node limit: a thread the system has set aside counts no
        // nodes meanwhile, so the others stop at the limit without it.
        if let Some(limit) = self.limits.nodes {
            if total >= limit && searched {
                self.shared.stop.store(true, Ordering::Relaxed);
                self.stopped = true;
                return;
            }
            let share = limit.saturating_sub(total) / self.config.threads.max(1) as u64;
            self.poll_at = share.clamp(1, POLL_INTERVAL);
        }
        if self.id != 0 || !searched {
            return;
        }
        if let Some(time) = &mut self.time {
            if self.shared.ponderhit.swap(false, Ordering::Relaxed) {
                time.restart();
            }
            if !self.shared.pondering.load(Ordering::Relaxed) && time.out_of_time() {
                self.shared.stop.store(true, Ordering::Relaxed);
                self.stopped = true;
            }
        }
    }

    /// Whether the search is to wait: paused by its engine, or in a browser by the host
    /// through shared memory (`helpers::HOST_PAUSE`).
    fn is_paused(&self) -> bool {
        self.shared.paused.load(Ordering::Relaxed) || helpers::host_paused()
    }

    /// Waits while the search is paused (or until it is stopped), then moves the main thread's
    /// start of time forward by the wait, so that the pause costs the move none of its time.
    /// A pause is rare and may last minutes: a short sleep between looks costs nothing.
    fn wait_while_paused(&mut self) {
        let began = crate::instant::Instant::now();
        while self.is_paused()
            && !self.shared.stop.load(Ordering::Relaxed)
            && !helpers::host_stopped()
        {
            std::thread::sleep(Duration::from_millis(5));
        }
        if let Some(time) = &mut self.time {
            time.delay(began.elapsed());
        }
    }

    /// Hands over the move-ordering statistics and evaluations (at the end of a search), for
    /// the next one.
    pub fn into_memory(self) -> ThreadMemory {
        ThreadMemory {
            history: self.history,
            eval_cache: self.eval_cache,
            eval_id: self.eval_id,
        }
    }

    /// Publishes the remaining node count (at the end of a search).
    pub fn flush(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.unflushed, Ordering::Relaxed);
        self.unflushed = 0;
        self.flush_tb_hits();
    }

    fn flush_tb_hits(&mut self) {
        if self.tb_hits > 0 {
            self.shared
                .tb_hits
                .fetch_add(self.tb_hits, Ordering::Relaxed);
            self.tb_hits = 0;
        }
    }

    /// The score of the current position from the endgame tables, `ply` plies below the
    /// root, when they hold it (counted as a hit).
    #[inline]
    fn tablebase_score(&mut self, ply: usize) -> Option<i32> {
        let score = self.config.tablebases.as_ref()?.score(&self.pos, ply)?;
        self.tb_hits += 1;
        Some(score)
    }

    /// Waits, after the search has finished early, until the GUI may receive the best move:
    /// `go infinite` and pondering wait for `stop` or `ponderhit`.
    pub fn wait_while_required(&mut self) {
        // A browser build searches on the only thread: nothing could ever say `stop`.
        if cfg!(target_arch = "wasm32") {
            return;
        }
        loop {
            if self.shared.stop.load(Ordering::Relaxed) {
                return;
            }
            let pondering = self.shared.pondering.load(Ordering::Relaxed);
            if !self.limits.infinite && !pondering {
                return;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}
