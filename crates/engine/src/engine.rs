//! The engine facade: owns the transposition table and options, runs searches on their own
//! threads, and reports through callbacks. The protocol front end, the web GUI and the command
//! line all drive the search through this one type.

use crate::book::{self, Book};
use crate::eval::DEFAULT_EVALUATOR;
use crate::helpers;
use crate::instant::Instant;
use crate::nnue::Network;
use crate::random::Rng;
use crate::search::{Evaluation, RootMove, SearchConfig, SearchInfo, Shared, ThreadMemory, Worker};
use crate::strength::{self, Profile, Strength};
use crate::tablebases::Tablebases;
use crate::time::Limits;
use crate::tt::{Bound, HashEntry, TranspositionTable};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;
use xiangqi::{Move, Position};

/// Engine settings that persist between searches.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineOptions {
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Principal variations to report.
    pub multipv: usize,
    /// Time lost per move between engine and GUI.
    pub move_overhead: Duration,
    /// Weakened play (a difficulty level or `UCI_Elo`); `None` is the full engine.
    pub strength: Option<Strength>,
    /// Seed for the random choices (book moves, weakened levels); `None` seeds from the
    /// clock, so that two games differ (tests fix it).
    pub seed: Option<u64>,
    /// Play a move from the opening book when it has one (games only: never while
    /// pondering, in infinite or mate analysis).
    pub own_book: bool,
    /// The evaluation network; `None` evaluates with the hand-made evaluation. The default is
    /// the built-in network. Weakened levels always use the hand-made evaluation, which their
    /// calibration was measured with.
    pub network: Option<Arc<Network>>,
    /// Endgame tables to probe (none by default). Weakened levels do not use them: they would
    /// play the endings perfectly, which no level's calibration allows for.
    pub tablebases: Option<Tablebases>,
    /// Score every repetition as a draw instead of judging it by the rules (perpetual check or
    /// chase loses): the search then plays the bare game, whose mates are the ones the endgame
    /// tables count. Only for checking the tables against the search (`tablebases::check`).
    pub repetition_is_draw: bool,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            hash_mb: 64,
            threads: 1,
            multipv: 1,
            move_overhead: Duration::from_millis(30),
            strength: None,
            seed: None,
            own_book: true,
            network: Some(crate::nnue::embedded()),
            tablebases: None,
            repetition_is_draw: false,
        }
    }
}

/// Largest accepted hash size in MiB.
pub const MAX_HASH_MB: usize = 8 * 1024;
/// Largest accepted thread count (a browser build searches on as many as its host lends
/// workers for, see [`crate::helpers`]).
pub const MAX_THREADS: usize = 256;
/// Most principal variations reported at once (more than a position has legal moves is
/// pointless: the most any Xiangqi position has is well under this).
pub const MAX_MULTIPV: usize = 128;
/// Largest accepted move overhead.
pub const MAX_MOVE_OVERHEAD: Duration = Duration::from_secs(5);

/// What to search: the game so far and the limits.
#[derive(Clone, Debug)]
pub struct SearchRequest {
    /// The game's start position.
    pub start: Position,
    /// Moves played since `start` (legal; the repetition rules look back through them).
    pub moves: Vec<Move>,
    /// When to stop.
    pub limits: Limits,
    /// If not empty, only these root moves are searched (UCI `searchmoves`).
    pub search_moves: Vec<Move>,
    /// Root moves never to play (UCCI `banmoves`).
    pub banned: Vec<Move>,
    /// Start in ponder mode: ignore the clock until [`Engine::ponderhit`].
    pub ponder: bool,
}

impl SearchRequest {
    /// A request to search `position` (no game history) within `limits`.
    pub fn new(position: Position, limits: Limits) -> SearchRequest {
        SearchRequest {
            start: position,
            moves: Vec::new(),
            limits,
            search_moves: Vec::new(),
            banned: Vec::new(),
            ponder: false,
        }
    }

    /// The position to search from.
    pub fn root_position(&self) -> Position {
        let mut pos = self.start.clone();
        for &m in &self.moves {
            pos.make_move(m);
        }
        pos
    }
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` when there is no legal move.
    pub best_move: Option<Move>,
    /// The expected reply, for pondering.
    pub ponder_move: Option<Move>,
    /// Score for the side to move.
    pub score: i32,
    /// Whether `score` is exact or only a bound: a search stopped in an iteration whose best
    /// move fell outside the window knows only a bound (see [`SearchInfo::bound`]).
    pub bound: Bound,
    /// Last completed depth.
    pub depth: u32,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
    /// Principal variation.
    pub pv: Vec<Move>,
    /// Whether the move came from the opening book rather than a search.
    pub from_book: bool,
}

struct Running {
    shared: Arc<Shared>,
    /// Whether a limit ends the search by itself (see [`Engine::is_unbounded`]).
    bounded: bool,
    /// Set just before the result is handed over: from then on the search counts as over,
    /// even while its thread is still winding down.
    finished: Arc<AtomicBool>,
    /// The search thread (none in a browser build, where the search ran in `start`).
    handle: Option<JoinHandle<()>>,
}

/// A Xiangqi engine. Searches run on background threads; [`Engine::start`] returns at once.
pub struct Engine {
    options: EngineOptions,
    tt: Arc<TranspositionTable>,
    /// Move-ordering statistics and evaluations of each search thread, kept from one search
    /// to the next of the same game: the positions of a game's next move are much like those
    /// of the last.
    memories: Arc<MemoryStore>,
    running: Option<Running>,
    /// The opening book (the built-in one unless another was set).
    book: Option<Arc<Book>>,
    /// Chooses among book moves.
    rng: Rng,
    /// The evaluation the hash table's scores came from (see [`evaluation_id`]); `None` while
    /// the table is empty, which suits any evaluation.
    table_evaluation: Option<Option<u64>>,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new(EngineOptions::default())
    }
}

impl Engine {
    /// An engine with these options (hash and threads clamped to sane ranges).
    pub fn new(mut options: EngineOptions) -> Engine {
        options.hash_mb = options.hash_mb.clamp(1, MAX_HASH_MB);
        options.threads = options.threads.clamp(1, MAX_THREADS);
        options.multipv = options.multipv.max(1);
        Engine {
            tt: Arc::new(TranspositionTable::new(options.hash_mb)),
            memories: Arc::new(MemoryStore::with_main_thread()),
            rng: options.seed.map_or_else(Rng::from_time, Rng::new),
            book: Book::builtin(),
            table_evaluation: None,
            options,
            running: None,
        }
    }

    /// The current options.
    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// Resizes the hash table (stopping any search first). Returns the size obtained, which is
    /// smaller than asked when the memory could not be allocated.
    pub fn set_hash_mb(&mut self, mb: usize) -> usize {
        self.stop_and_wait();
        // Drop the old table first so its memory can be reused.
        self.tt = Arc::new(TranspositionTable::new(1));
        self.tt = Arc::new(TranspositionTable::new(mb.clamp(1, MAX_HASH_MB)));
        self.table_evaluation = None;
        self.options.hash_mb = self.tt.megabytes().max(1);
        self.options.hash_mb
    }

    /// Sets the number of search threads for the next search.
    pub fn set_threads(&mut self, threads: usize) {
        self.options.threads = threads.clamp(1, MAX_THREADS);
    }

    /// Sets how many principal variations to report.
    pub fn set_multipv(&mut self, lines: usize) {
        self.options.multipv = lines.clamp(1, MAX_MULTIPV);
    }

    /// Sets the expected communication delay per move.
    pub fn set_move_overhead(&mut self, overhead: Duration) {
        let overhead = overhead.min(MAX_MOVE_OVERHEAD);
        self.options.move_overhead = overhead;
    }

    /// Sets the playing strength for the next search (`None`: full strength).
    pub fn set_strength(&mut self, strength: Option<Strength>) {
        self.options.strength = strength.filter(|s| !s.is_full());
    }

    /// Switches the opening book on or off for the next searches.
    pub fn set_own_book(&mut self, on: bool) {
        self.options.own_book = on;
    }

    /// Evaluates with `network` in the next full-strength searches; `None` goes back to the
    /// hand-made evaluation. The first search with another evaluation than the last one
    /// empties the hash table, as its scores came from the other evaluation (the evaluation
    /// caches notice by themselves).
    pub fn set_network(&mut self, network: Option<Arc<Network>>) {
        self.options.network = network;
    }

    /// Probes these endgame tables in the next full-strength searches (`None`: no tables),
    /// stopping any search first. What the tables said stays true in the hash table.
    pub fn set_tablebases(&mut self, tablebases: Option<Tablebases>) {
        self.stop_and_wait();
        self.options.tablebases = tablebases;
    }

    /// Uses `book` as the opening book; `None` goes back to the built-in one.
    pub fn set_book(&mut self, book: Option<Arc<Book>>) {
        self.book = book.or_else(Book::builtin);
    }

    /// Forgets everything learned (new game): empties the hash table and the move-ordering
    /// statistics.
    pub fn new_game(&mut self) {
        self.stop_and_wait();
        self.memories.new_game();
        match Arc::get_mut(&mut self.tt) {
            Some(tt) => tt.clear(),
            None => self.tt = Arc::new(TranspositionTable::new(self.options.hash_mb)),
        }
        self.table_evaluation = None;
    }

    /// What the hash table knows about `pos` (UCCI `probe`).
    pub fn probe(&self, pos: &Position) -> Option<HashEntry> {
        self.tt.probe(pos.key())
    }

    /// Permille of the hash table used by the last search.
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// Starts searching in the background. `on_info` receives progress from the search thread;
    /// `on_done` receives the result once (also after [`Engine::stop`]). A search already
    /// running is stopped first. With the book on, a book move is answered at once (still
    /// through the callbacks, from the background thread).
    ///
    /// ```
    /// use std::sync::mpsc;
    /// use xiangqi::Position;
    /// use xiangqi_engine::{Engine, EngineOptions, Limits, SearchRequest};
    ///
    /// let mut engine = Engine::new(EngineOptions { hash_mb: 1, own_book: false, ..EngineOptions::default() });
    /// let (done, result) = mpsc::channel();
    /// let analysis = Limits { infinite: true, ..Limits::default() };
    /// engine.start(
    ///     SearchRequest::new(Position::startpos(), analysis),
    ///     |info| assert!(info.depth >= 1),
    ///     move |result| done.send(result).unwrap(),
    /// );
    /// std::thread::sleep(std::time::Duration::from_millis(50));
    /// engine.stop(); // an infinite search ends only when told
    /// let result = result.recv().unwrap();
    /// assert!(result.best_move.is_some());
    /// // The table now knows the position the best move leads to.
    /// let mut after = Position::startpos();
    /// after.make_move(result.best_move.unwrap());
    /// assert!(engine.probe(&after).is_some());
    /// ```
    pub fn start<I, D>(&mut self, request: SearchRequest, on_info: I, on_done: D)
    where
        I: FnMut(&SearchInfo) + Send + 'static,
        D: FnOnce(SearchResult) + Send + 'static,
    {
        self.stop_and_wait();
        // A weakened level searches with the hand-made evaluation, the full engine with the
        // network: switching between them (or between networks) must not mix their scores.
        let evaluation = evaluation_id(search_network(&self.options, &request).map(|n| &**n));
        if self
            .table_evaluation
            .is_some_and(|filled_by| filled_by != evaluation)
        {
            self.new_game();
        }
        self.table_evaluation = Some(evaluation);
        let bounded = request.limits.is_bounded();
        let book_result = self.book_move(&request);
        let shared = Arc::new(Shared::new(request.ponder));
        let tt = Arc::clone(&self.tt);
        let memories = Arc::clone(&self.memories);
        let options = self.options.clone();
        // The search thread draws from its own generator, split off the engine's one.
        let choice_rng = Rng::new(self.rng.next_u64());
        let thread_shared = Arc::clone(&shared);
        let finished = Arc::new(AtomicBool::new(false));
        let thread_finished = Arc::clone(&finished);
        let job = move || {
            let mut on_info = on_info;
            let result = match book_result {
                Some(result) => {
                    on_info(&book_info(&result, &tt));
                    result
                }
                None => catch_unwind(AssertUnwindSafe(|| {
                    run(
                        &tt,
                        &memories,
                        &thread_shared,
                        &request,
                        &options,
                        choice_rng,
                        &mut on_info,
                    )
                }))
                .unwrap_or_else(|_| fallback(&request)),
            };
            thread_finished.store(true, Ordering::SeqCst);
            on_done(result);
        };
        // A browser build cannot start a thread: the search runs on the caller's (its helpers
        // on the workers the host lends, `helpers`), and is over (its result handed to
        // `on_done`) when `start` returns.
        #[cfg(target_arch = "wasm32")]
        let handle = {
            job();
            None
        };
        #[cfg(not(target_arch = "wasm32"))]
        let handle = Some(
            std::thread::Builder::new()
                .name("search".into())
                .stack_size(16 << 20)
                .spawn(job)
                .expect("spawning the search thread"),
        );
        self.running = Some(Running {
            shared,
            bounded,
            finished,
            handle,
        });
    }

    /// A move from the book for `request`, if the book is on and knows one that the request
    /// allows and that does not repeat a position of the game.
    fn book_move(&mut self, request: &SearchRequest) -> Option<SearchResult> {
        let limits = &request.limits;
        // Analysis wants the engine's own view (several lines asked for are analysis too: a
        // book move is one line), and a ponder search is answered by a search.
        if !self.options.own_book
            || self.options.multipv > 1
            || request.ponder
            || limits.infinite
            || limits.mate.is_some()
        {
            return None;
        }
        let book = self.book.as_ref()?;
        let root = request.root_position();
        // A weakened level knows less theory: four plies of book per level.
        let max_ply = self.options.strength.map_or(book::MAX_BOOK_PLY, |s| {
            (4.0 * s.level_value())
                .round()
                .clamp(0.0, f64::from(book::MAX_BOOK_PLY)) as u32
        });
        if book::game_ply(&root) >= max_ply {
            return None;
        }
        let allowed = root_moves(request, &root);
        let mut seen = Vec::with_capacity(request.moves.len() + 1);
        let mut pos = request.start.clone();
        seen.push(pos.key());
        for &m in &request.moves {
            pos.make_move(m);
            seen.push(pos.key());
        }
        let repeats = |m: Move| {
            let mut after = root.clone();
            after.make_move(m);
            seen.contains(&after.key())
        };
        let choice = book.choose(&root, &mut self.rng, |m| {
            allowed.contains(&m) && !repeats(m)
        })?;
        Some(SearchResult {
            best_move: Some(choice.mv),
            ponder_move: None,
            score: choice.score.map_or(0, |(s, _)| i32::from(s)),
            bound: Bound::Exact,
            depth: 0,
            nodes: 0,
            time: Duration::ZERO,
            pv: vec![choice.mv],
            from_book: true,
        })
    }

    /// Searches on the calling thread's behalf and waits for the result.
    pub fn search(
        &mut self,
        request: SearchRequest,
        on_info: impl FnMut(&SearchInfo) + Send + 'static,
    ) -> SearchResult {
        let (tx, rx) = mpsc::channel();
        let fallback_result = fallback(&request);
        self.start(request, on_info, move |result| {
            let _ = tx.send(result);
        });
        self.wait();
        rx.recv().unwrap_or(fallback_result)
    }

    /// Asks the running search to stop; its result still arrives through `on_done`.
    pub fn stop(&self) {
        if let Some(running) = &self.running {
            running.shared.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Pauses the running search where it is (the game's clock was paused): its threads wait
    /// and its time stands still until [`Engine::resume`]; [`Engine::stop`] still ends it.
    pub fn pause(&self) {
        if let Some(running) = &self.running {
            running.shared.paused.store(true, Ordering::Relaxed);
        }
    }

    /// Lets a paused search go on from where it was, with all it had found.
    pub fn resume(&self) {
        if let Some(running) = &self.running {
            running.shared.paused.store(false, Ordering::Relaxed);
        }
    }

    /// The opponent played the expected move: the ponder search becomes a normal one.
    pub fn ponderhit(&self) {
        if let Some(running) = &self.running {
            running.shared.ponderhit.store(true, Ordering::Relaxed);
            running.shared.pondering.store(false, Ordering::Relaxed);
        }
    }

    /// Whether a search is running (false as soon as its result has been handed over).
    pub fn is_searching(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|r| !r.finished.load(Ordering::SeqCst))
    }

    /// Whether the running search has nothing that ends it by itself: it is infinite, has no
    /// depth, node or time limit (a mate search that finds no mate goes on), or is pondering
    /// before [`Engine::ponderhit`]. Waiting for it without [`Engine::stop`] may never end.
    pub fn is_unbounded(&self) -> bool {
        self.is_searching()
            && self
                .running
                .as_ref()
                .is_some_and(|r| !r.bounded || r.shared.pondering.load(Ordering::Relaxed))
    }

    /// Waits for the running search (if any) to finish by itself.
    pub fn wait(&mut self) {
        if let Some(running) = self.running.take() {
            if let Some(handle) = running.handle {
                let _ = handle.join();
            }
        }
    }

    /// Stops the running search and waits for it.
    pub fn stop_and_wait(&mut self) {
        self.stop();
        self.wait();
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop_and_wait();
    }
}

/// The legal root moves of a request after `searchmoves` and `banmoves`.
pub fn root_moves(request: &SearchRequest, root: &Position) -> Vec<Move> {
    root.legal_moves()
        .iter()
        .copied()
        .filter(|m| request.search_moves.is_empty() || request.search_moves.contains(m))
        .filter(|m| !request.banned.contains(m))
        .collect()
}

/// A result for when the search could not run: the first allowed move, unsearched.
fn fallback(request: &SearchRequest) -> SearchResult {
    let root = request.root_position();
    let moves = root_moves(request, &root);
    SearchResult {
        best_move: moves.first().copied(),
        ponder_move: None,
        score: 0,
        bound: Bound::Exact,
        depth: 0,
        nodes: 0,
        time: Duration::ZERO,
        pv: moves.first().copied().into_iter().collect(),
        from_book: false,
    }
}

/// The one progress report of a book move, so GUIs show the move and where it came from.
fn book_info(result: &SearchResult, tt: &TranspositionTable) -> SearchInfo {
    SearchInfo {
        depth: 0,
        seldepth: 0,
        multipv: 1,
        score: result.score,
        bound: Bound::Exact,
        nodes: 0,
        tbhits: 0,
        time: Duration::ZERO,
        hashfull: tt.hashfull(),
        pv: result.pv.clone(),
    }
}

/// The weakened play a request is searched with: none at full strength, and none in analysis
/// (`go infinite` always gets the full engine; a weakened level plays games).
fn search_profile(options: &EngineOptions, request: &SearchRequest) -> Option<Profile> {
    options
        .strength
        .and_then(|s| s.profile())
        .filter(|_| !request.limits.infinite)
}

/// The network a request is searched with. A weakened level has none: the levels' calibration
/// (docs/STRENGTH.md) was measured with the hand-made evaluation.
fn search_network<'a>(
    options: &'a EngineOptions,
    request: &SearchRequest,
) -> Option<&'a Arc<Network>> {
    options
        .network
        .as_ref()
        .filter(|_| search_profile(options, request).is_none())
}

/// Tells evaluations apart: a network's checksum, `None` for the hand-made evaluation.
fn evaluation_id(network: Option<&Network>) -> Option<u64> {
    network.map(Network::checksum)
}

fn run(
    tt: &Arc<TranspositionTable>,
    memories: &Arc<MemoryStore>,
    shared: &Arc<Shared>,
    request: &SearchRequest,
    options: &EngineOptions,
    choice_rng: Rng,
    on_info: &mut dyn FnMut(&SearchInfo),
) -> SearchResult {
    let started = Instant::now();
    tt.new_search();
    let root = request.root_position();
    let mut moves = root_moves(request, &root);
    let profile = search_profile(options, request);
    let tablebases = options.tablebases.clone().filter(|_| profile.is_none());
    // A table that holds the root keeps only its best moves (unless several lines are asked
    // for, which show every move with its exact value anyway).
    if let Some(tb) = tablebases.as_ref().filter(|_| options.multipv == 1) {
        if let Some(best) = tb.best_moves(&root, &moves) {
            shared
                .tb_hits
                .fetch_add(1 + moves.len() as u64, Ordering::Relaxed);
            moves = best;
        }
    }
    let mut limits = request.limits.clone();
    let mut threads = options.threads;
    let mut lines = options.multipv;
    if let Some(p) = &profile {
        limits.nodes = min_option(limits.nodes, p.nodes);
        limits.depth = min_option(limits.depth, p.depth);
        lines = lines.max(p.candidates);
        // One thread keeps a level's strength the same on every machine.
        threads = 1;
    }
    let threads = threads.min(helpers::capacity().saturating_add(1));
    let config = SearchConfig {
        threads,
        multipv: lines,
        reported_lines: options.multipv,
        plays_best: profile.is_none(),
        move_overhead: options.move_overhead,
        tablebases,
        repetition_is_draw: options.repetition_is_draw,
    };
    let network = search_network(options, request).cloned();
    let eval = Evaluation {
        hand_made: &DEFAULT_EVALUATOR,
        network: network.as_deref(),
    };
    let jobs: Vec<helpers::Job> = (1..threads)
        .map(|id| {
            let helper = Helper {
                id,
                shared: Arc::clone(shared),
                tt: Arc::clone(tt),
                memories: Arc::clone(memories),
                network: network.clone(),
                start: request.start.clone(),
                game: request.moves.clone(),
                root: moves.clone(),
                limits: limits.clone(),
                config: config.clone(),
            };
            Box::new(move || helper.search()) as helpers::Job
        })
        .collect();
    helpers::run_beside(jobs, || {
        let mut main = Worker::new(
            0,
            shared,
            tt,
            eval,
            &request.start,
            &request.moves,
            &moves,
            limits,
            config,
            memories.take(0),
        );
        main.iterate(on_info);
        main.wait_while_required();
        shared.stop.store(true, Ordering::Relaxed);
        main.flush();
        let chosen = profile
            .as_ref()
            .and_then(|p| weakened_choice(&main, p, choice_rng));
        let best = chosen
            .and_then(|mv| main.root_moves.iter().find(|rm| rm.mv == mv))
            .or(main.root_moves.first());
        let (score, bound) = best.map_or((0, Bound::Exact), RootMove::reported_score);
        let result = SearchResult {
            best_move: best.map(|rm| rm.mv),
            ponder_move: best.and_then(|rm| {
                rm.pv
                    .get(1)
                    .copied()
                    .or_else(|| reply_in_table(tt, &root, rm.mv))
            }),
            score,
            bound,
            depth: main.completed_depth,
            nodes: shared.nodes.load(Ordering::Relaxed),
            time: started.elapsed(),
            pv: best.map(|rm| rm.pv.clone()).unwrap_or_default(),
            from_book: false,
        };
        memories.put(0, main.into_memory());
        result
    })
}

/// The move the table holds for the position after `best`, for a line that ends at its first
/// move (a search stopped on a fail high knows only that): a guess for pondering, where
/// none at all would leave the GUI nothing to ponder on.
fn reply_in_table(tt: &TranspositionTable, root: &Position, best: Move) -> Option<Move> {
    let mut after = root.clone();
    after.make_move(best);
    tt.probe(after.key())
        .and_then(|hit| hit.mv)
        .filter(|&reply| after.is_legal(reply))
}

/// A helper search of Lazy SMP, owning what it needs to run on another thread.
struct Helper {
    id: usize,
    shared: Arc<Shared>,
    tt: Arc<TranspositionTable>,
    memories: Arc<MemoryStore>,
    network: Option<Arc<Network>>,
    start: Position,
    /// The game's moves from `start`.
    game: Vec<Move>,
    /// The root moves to search.
    root: Vec<Move>,
    limits: Limits,
    config: SearchConfig,
}

impl Helper {
    /// Searches until the main thread stops, and keeps its tables for the next search.
    fn search(self) {
        let eval = Evaluation {
            hand_made: &DEFAULT_EVALUATOR,
            network: self.network.as_deref(),
        };
        let mut worker = Worker::new(
            self.id,
            &self.shared,
            &self.tt,
            eval,
            &self.start,
            &self.game,
            &self.root,
            self.limits,
            self.config,
            self.memories.take(self.id),
        );
        worker.iterate(&mut |_| {});
        worker.flush();
        self.memories.put(self.id, worker.into_memory());
    }
}

/// What each search thread left behind ([`ThreadMemory`]), by thread number.
#[derive(Default)]
/// (The tables are megabytes: they are moved in and out, never copied.)
struct MemoryStore(Mutex<Vec<Option<ThreadMemory>>>);

impl MemoryStore {
    /// A store already holding the main thread's tables, so that writing them out is part of
    /// making the engine rather than of its first search.
    fn with_main_thread() -> MemoryStore {
        MemoryStore(Mutex::new(vec![Some(ThreadMemory::default())]))
    }

    /// Thread `id`'s tables, taken out of the store (fresh ones if it has none).
    fn take(&self, id: usize) -> ThreadMemory {
        let kept = self.lock().get_mut(id).and_then(Option::take);
        kept.unwrap_or_default()
    }

    /// Keeps thread `id`'s tables for the next search.
    fn put(&self, id: usize, memory: ThreadMemory) {
        let mut store = self.lock();
        if store.len() <= id {
            store.resize_with(id + 1, || None);
        }
        store[id] = Some(memory);
    }

    /// Forgets all statistics (a new game), keeping the tables' memory.
    fn new_game(&self) {
        for memory in self.lock().iter_mut().flatten() {
            memory.new_game();
        }
    }

    /// The store, also after a search thread panicked while holding it: statistics left
    /// half-updated can only order moves less well, never make a search wrong.
    fn lock(&self) -> MutexGuard<'_, Vec<Option<ThreadMemory>>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The smaller of two optional limits (`None` is no limit).
fn min_option<T: Ord>(a: Option<T>, b: Option<T>) -> Option<T> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// A weakened level's move: chosen among the lines of the last completed iteration.
fn weakened_choice(main: &Worker, profile: &Profile, mut rng: Rng) -> Option<Move> {
    strength::choose(main.completed_lines(), profile, &mut rng)
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi::Position;

    #[test]
    fn each_search_thread_leaves_its_tables_for_the_next_search() {
        let mut engine = Engine::new(EngineOptions {
            hash_mb: 1,
            threads: 2,
            own_book: false,
            ..EngineOptions::default()
        });
        // The main thread's tables are made with the engine.
        assert_eq!(engine.memories.lock().len(), 1);
        let limits = Limits {
            depth: Some(5),
            ..Limits::default()
        };
        engine.search(SearchRequest::new(Position::startpos(), limits), |_| {});
        let learned = |engine: &Engine| {
            engine
                .memories
                .lock()
                .iter()
                .flatten()
                .filter(|m| m.history.is_empty())
                .count()
        };
        assert_eq!(engine.memories.lock().len(), 2);
        assert_eq!(learned(&engine), 0, "both threads learned something");
        engine.new_game();
        assert_eq!(engine.memories.lock().len(), 2, "the tables are kept");
        assert_eq!(learned(&engine), 2, "what they learned is forgotten");
    }

    #[test]
    fn memory_store_hands_back_what_it_was_given() {
        let store = MemoryStore::default();
        let piece = xiangqi::Piece::new(xiangqi::Color::Red, xiangqi::PieceKind::Horse);
        let m = Move::new("b0".parse().unwrap(), "c2".parse().unwrap());
        assert_eq!(store.take(3).history.score(piece, m), 0);
        let mut learned = ThreadMemory::default();
        learned.history.update(piece, m, 500);
        store.put(3, learned);
        assert_eq!(store.take(3).history.score(piece, m), 500);
        // Taking empties the slot: two searches never share one thread's tables.
        assert_eq!(store.take(3).history.score(piece, m), 0);
    }
}
