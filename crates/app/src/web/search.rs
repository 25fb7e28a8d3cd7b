//! Engine jobs: the computer's moves, analysis, hints, draw offers and post-game reviews.
//!
//! Searches run on the engine's own threads; the async runtime only waits for a slot in a
//! bounded pool, so many open games cannot start more searches than the machine has room for:
//! the others queue. Short jobs that a person waits for (the computer's move, a hint, a draw
//! offer) and long ones that run in the background (analysis, reviews) have separate slots, so
//! a move never queues behind another game's minute of analysis. A job belongs to one game and is cancelled
//! by anything that changes the game (a move, undo, a new game, leaving the page); a cancelled
//! or outdated job changes nothing.

use super::game::{lock, SharedGame, WebGame};
use super::judgement;
use super::store::StoreError;
use super::AppState;
use serde::Serialize;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use xiangqi::{format_move, Move, Notation, Position};
use xiangqi_engine::score::{printed, Printed};
use xiangqi_engine::strength::{self, Strength};
use xiangqi_engine::{Engine, EngineOptions, Limits, SearchInfo, SearchRequest, SearchResult};

/// What a job does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum JobKind {
    /// The computer chooses its move.
    Computer,
    /// The position is analysed for the person.
    Analysis,
    /// A move is suggested to the person.
    Hint,
    /// The computer considers a draw offer.
    Draw,
    /// Every move of the game is checked.
    Review,
}

impl JobKind {
    /// Whether the job may run for long (up to a minute, or a whole game's review) while
    /// nobody waits on it: such jobs take slots of their own.
    pub fn is_background(self) -> bool {
        matches!(self, JobKind::Analysis | JobKind::Review)
    }
}

/// Longest the computer thinks at level 10, the full engine.
pub const FULL_STRENGTH_MS: u64 = 3000;
/// Longest a weakened level may think, whatever its node budget (a safety net for slow
/// machines; on a typical one the budget runs out well before).
pub const WEAKENED_CAP_MS: u64 = 2000;

/// The search limits of difficulty `level` (1–10): levels below 10 are bounded by their node
/// budget (see [`level_strength`]) and a time cap; level 10 thinks for a fixed time.
pub fn level_limits(level: u8) -> Limits {
    let ms = if level >= strength::MAX_LEVEL {
        FULL_STRENGTH_MS
    } else {
        WEAKENED_CAP_MS
    };
    Limits {
        movetime: Some(Duration::from_millis(ms)),
        ..Limits::default()
    }
}

/// How the computer weakens itself at difficulty `level` (`None` at level 10): the engine's
/// calibrated levels, see `xiangqi_engine::strength`.
pub fn level_strength(level: u8) -> Option<Strength> {
    Some(Strength::level(level)).filter(|s| !s.is_full())
}

fn limits(depth: u32, ms: u64) -> Limits {
    Limits {
        depth: Some(depth),
        movetime: Some(Duration::from_millis(ms)),
        ..Limits::default()
    }
}

/// Scores are capped here for reviews and graphs (a mate counts as this much).
pub const SCORE_CAP: i32 = 2000;

/// A search report as the page shows it.
#[derive(Clone, Debug, Serialize)]
pub struct Analysis {
    /// Which job produced it.
    pub kind: JobKind,
    /// Iteration depth.
    pub depth: u32,
    /// Score for Red in centi-soldiers (mates capped at ±2000).
    pub score_red: i32,
    /// Moves to mate, positive when Red mates.
    pub mate_red: Option<i32>,
    /// Nodes searched.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Milliseconds searched.
    pub time_ms: u64,
    /// Principal variation, ICCS.
    pub pv: Vec<String>,
    /// Principal variation in Chinese notation.
    pub pv_chinese: Vec<String>,
}

impl Analysis {
    fn new(kind: JobKind, root: &Position, info: &SearchInfo) -> Analysis {
        let red = root.side_to_move() == xiangqi::Color::Red;
        let sign = if red { 1 } else { -1 };
        let mate = match printed(info.score) {
            Printed::Mate(n) => Some(n * sign),
            Printed::Cp(_) => None,
        };
        let (pv, pv_chinese) = line(root, &info.pv);
        let ms = info.time.as_millis() as u64;
        Analysis {
            kind,
            depth: info.depth,
            score_red: capped(info.score) * sign,
            mate_red: mate,
            nodes: info.nodes,
            nps: info.nodes * 1000 / ms.max(1),
            time_ms: ms,
            pv,
            pv_chinese,
        }
    }
}

/// A line of moves in ICCS and Chinese, stopping at the first move that is not legal.
pub fn line(root: &Position, moves: &[Move]) -> (Vec<String>, Vec<String>) {
    let mut pos = root.clone();
    let mut iccs = Vec::new();
    let mut chinese = Vec::new();
    for &m in moves {
        if !pos.is_legal(m) {
            break;
        }
        iccs.push(m.to_string());
        chinese.push(format_move(&pos, m, Notation::Chinese));
        pos.make_move(m);
    }
    (iccs, chinese)
}

/// A score with mates replaced by ±[`SCORE_CAP`].
pub fn capped(score: i32) -> i32 {
    score.clamp(-SCORE_CAP, SCORE_CAP)
}

/// What the review says about one move.
#[derive(Clone, Debug, Serialize)]
pub struct ReviewPly {
    /// How much worse than the best move it was, for the side that played it (centi-soldiers).
    pub loss: i32,
    /// How much of its winning chance (0 to 1) the side that played it gave away.
    pub chance_lost: f64,
    /// `inaccuracy`, `mistake`, `blunder`, or none: by the chance lost, so that moves in a
    /// position already won or lost are not marked for the points they leave.
    pub mark: Option<&'static str>,
    /// The engine's move there, in Chinese notation and ICCS, when it differs from the move played.
    pub best: Option<String>,
    /// The same in ICCS.
    pub best_iccs: Option<String>,
}

/// A post-game review in progress or finished.
#[derive(Clone, Debug, Serialize, Default)]
pub struct Review {
    /// Positions evaluated so far.
    pub done: usize,
    /// Positions to evaluate (moves + 1).
    pub total: usize,
    /// Whether every position has been evaluated.
    pub finished: bool,
    /// Score for Red after each position (index 0 = start), capped at ±2000.
    pub evals: Vec<i32>,
    /// One entry per move, once both positions around it are evaluated.
    pub plies: Vec<ReviewPly>,
}

/// The scale of the winning chance: a side ahead by this many centi-soldiers wins about three
/// games in four (the page's evaluation bar uses the same curve).
pub const CHANCE_SCALE: f64 = 250.0;
/// Review marks by the winning chance a move gave away: from about 0.5, 1.2 and 3 soldiers lost
/// in a level position, much more in a position already decided, where nothing is marked.
pub const INACCURACY: f64 = 0.05;
/// See [`INACCURACY`].
pub const MISTAKE: f64 = 0.11;
/// See [`INACCURACY`].
pub const BLUNDER: f64 = 0.25;

/// The winning chance, 0 to 1, of a side with evaluation `score`.
pub fn winning_chance(score: i32) -> f64 {
    1.0 / (1.0 + (-f64::from(score) / CHANCE_SCALE).exp())
}

fn mark(chance_lost: f64) -> Option<&'static str> {
    if chance_lost >= BLUNDER {
        Some("blunder")
    } else if chance_lost >= MISTAKE {
        Some("mistake")
    } else if chance_lost >= INACCURACY {
        Some("inaccuracy")
    } else {
        None
    }
}

/// Whose searches filled an engine's hash table and move-ordering history. A weakened
/// computer player must not inherit what a full-strength search found (a hint, an analysis,
/// another game, another level): its node-limited search would take those deep results from
/// the table and play above its level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Owner {
    /// The computer player of one game at one level.
    Computer {
        /// The game's id.
        game: String,
        /// The level it plays at.
        level: u8,
    },
    /// Full-strength jobs (analysis, hints, draw offers, reviews) of any game: they may use
    /// anything an engine has learned.
    Full,
}

/// An engine waiting in the pool, with the owner of what it has learned.
struct Idle {
    engine: Engine,
    owner: Owner,
}

/// Most analyses and reviews (of all games together) that may wait for a background slot;
/// more are refused as busy rather than queued for minutes. Each game has one job at most.
pub const MAX_WAITING_BACKGROUND: usize = 16;
/// An analysis or review whose game nobody has asked about for this long is stopped: its page
/// is gone without saying so (closed by a crash, a lost network). The page asks four times a
/// second while a job runs; a browser slows a hidden page's timers to once a minute at most.
pub const ABANDONED_AFTER: Duration = Duration::from_secs(90);
/// How often a background job checks that its game is still watched.
const ABANDON_CHECK: Duration = Duration::from_secs(1);

/// A bounded set of engines. Each search holds a permit; further searches wait.
pub struct SearchPool {
    /// Slots of the jobs a person waits for.
    foreground: Arc<Semaphore>,
    /// Slots of the long jobs ([`JobKind::is_background`]).
    background: Arc<Semaphore>,
    /// Background jobs waiting for a slot.
    waiting: Arc<AtomicUsize>,
    engines: Mutex<Vec<Idle>>,
    hash_mb: usize,
    /// See [`ABANDONED_AFTER`] (tests shorten it).
    abandoned_after: Duration,
}

/// A background job's place in the queue for a slot, given up when dropped.
pub struct QueuePlace(Arc<AtomicUsize>);

impl Drop for QueuePlace {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// A background job refused because [`MAX_WAITING_BACKGROUND`] already wait.
#[derive(Debug)]
pub struct Busy;

impl std::fmt::Display for Busy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the server is busy: {MAX_WAITING_BACKGROUND} analyses and reviews wait already; \
             try again in a moment"
        )
    }
}

impl SearchPool {
    /// A pool that runs at most `slots` searches a person waits for and `slots` background
    /// searches at once, each with a `hash_mb` table.
    pub fn new(slots: usize, hash_mb: usize) -> Arc<SearchPool> {
        SearchPool::with_abandon_time(slots, hash_mb, ABANDONED_AFTER)
    }

    /// [`SearchPool::new`] stopping unwatched background jobs after `abandoned_after`.
    pub fn with_abandon_time(
        slots: usize,
        hash_mb: usize,
        abandoned_after: Duration,
    ) -> Arc<SearchPool> {
        Arc::new(SearchPool {
            foreground: Arc::new(Semaphore::new(slots.max(1))),
            background: Arc::new(Semaphore::new(slots.max(1))),
            waiting: Arc::new(AtomicUsize::new(0)),
            engines: Mutex::new(Vec::new()),
            hash_mb,
            abandoned_after,
        })
    }

    /// A place in the queue for a background slot, or [`Busy`] when the queue is full; `None`
    /// for the jobs a person waits for, which always queue (a game has one at a time).
    pub fn queue_place(&self, kind: JobKind) -> Result<Option<QueuePlace>, Busy> {
        if !kind.is_background() {
            return Ok(None);
        }
        let taken = self
            .waiting
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| {
                (n < MAX_WAITING_BACKGROUND).then_some(n + 1)
            });
        match taken {
            Ok(_) => Ok(Some(QueuePlace(Arc::clone(&self.waiting)))),
            Err(_) => Err(Busy),
        }
    }

    /// Waits for a free slot of `kind`'s budget and lends an engine for `owner`'s searches: the
    /// one it used last if that is free, else another, emptied first (a new game) when `owner`
    /// is a computer player and the engine learned from someone else.
    pub async fn lease(self: &Arc<Self>, kind: JobKind, owner: Owner) -> Option<Lease> {
        let slots = if kind.is_background() {
            &self.background
        } else {
            &self.foreground
        };
        let permit = Arc::clone(slots).acquire_owned().await.ok()?;
        let idle = {
            let mut engines = lock(&self.engines);
            match engines.iter().rposition(|idle| idle.owner == owner) {
                Some(i) => Some(engines.remove(i)),
                None => engines.pop(),
            }
        };
        let engine = match idle {
            Some(mut idle) => {
                if idle.owner != owner && owner != Owner::Full {
                    idle.engine.new_game();
                }
                idle.engine
            }
            None => Engine::new(EngineOptions {
                hash_mb: self.hash_mb,
                threads: 1,
                move_overhead: Duration::ZERO,
                // Each job says whether it wants the book (see `Lease::use_book`).
                own_book: false,
                ..EngineOptions::default()
            }),
        };
        Some(Lease {
            engine: Some(engine),
            owner,
            pool: Arc::clone(self),
            _permit: permit,
        })
    }
}

impl SearchPool {
    /// Waits for a free background slot without borrowing an engine: the search laboratory's
    /// runs, which search with their own code (`super::lab`), count against the same budget as
    /// analyses and reviews. The slot is free again when the permit is dropped.
    pub async fn background_slot(&self) -> Option<OwnedSemaphorePermit> {
        Arc::clone(&self.background).acquire_owned().await.ok()
    }
}

/// An engine lent by the pool, given back (with its slot) when dropped.
pub struct Lease {
    engine: Option<Engine>,
    owner: Owner,
    pool: Arc<SearchPool>,
    _permit: OwnedSemaphorePermit,
}

impl Lease {
    /// Whether the next searches may answer from the opening book: the computer's moves do,
    /// for variety; analysis, hints, draw offers and reviews judge positions and do not.
    pub fn use_book(&mut self, on: bool) {
        if let Some(engine) = self.engine.as_mut() {
            engine.set_own_book(on);
        }
    }

    /// How much before a clock's end the next searches stop (see [`CLOCK_OVERHEAD`]).
    pub fn set_overhead(&mut self, overhead: Duration) {
        if let Some(engine) = self.engine.as_mut() {
            engine.set_move_overhead(overhead);
        }
    }

    /// Searches on the engine's thread, waiting here (a blocking thread, not the runtime) and
    /// stopping the search when `cancel` is set. `None` if cancelled.
    pub fn search(
        &mut self,
        request: SearchRequest,
        strength: Option<Strength>,
        cancel: &AtomicBool,
        on_info: impl FnMut(&SearchInfo) + Send + 'static,
    ) -> Option<SearchResult> {
        let engine = self.engine.as_mut()?;
        engine.set_strength(strength);
        let (tx, rx) = mpsc::channel();
        engine.start(request, on_info, move |result| {
            let _ = tx.send(result);
        });
        let mut stopped = false;
        loop {
            match rx.recv_timeout(Duration::from_millis(20)) {
                Ok(result) => {
                    engine.wait();
                    return (!cancel.load(Ordering::Relaxed)).then_some(result);
                }
                Err(RecvTimeoutError::Timeout) => {
                    if !stopped && cancel.load(Ordering::Relaxed) {
                        engine.stop();
                        stopped = true;
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    engine.wait();
                    return None;
                }
            }
        }
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        if let Some(mut engine) = self.engine.take() {
            engine.stop_and_wait();
            let owner = self.owner.clone();
            lock(&self.pool.engines).push(Idle { engine, owner });
        }
    }
}

/// Starts the job the game needs now, if none is running: the computer's move when it is to
/// move, else an analysis when the person asked for one; and, on the clock, a watcher that ends
/// the game when the side to move's time runs out. An analysis the server is too busy for
/// waits for the game's next request.
pub fn schedule(state: &Arc<AppState>, shared: &SharedGame, entry: &mut WebGame) {
    if entry.is_removed() {
        return;
    }
    watch_clock(state, shared, entry);
    if entry.job_kind().is_some() {
        return;
    }
    if entry.computer_to_move() {
        if entry.save_error().is_some() {
            // Its last move could not be saved: it moves again when the person retries.
            return;
        }
        let _ = start(state, shared, entry, JobKind::Computer);
    } else if entry.wants_analysis() {
        let _ = start(state, shared, entry, JobKind::Analysis);
    }
}

/// On the clock, a task that wakes when the side to move's time runs out and ends the game
/// then (saved like any change), unless the game moved on meanwhile: every change is a new
/// version, and each version has its own watcher.
fn watch_clock(state: &Arc<AppState>, shared: &SharedGame, entry: &mut WebGame) {
    let Some(deadline) = entry.deadline() else {
        return;
    };
    if entry.ending().is_some() || !entry.watch_clock() {
        return;
    }
    let version = entry.version();
    let state = Arc::clone(state);
    let shared = Arc::clone(shared);
    tokio::spawn(async move {
        tokio::time::sleep_until(tokio::time::Instant::from_std(deadline)).await;
        let _ = tokio::task::spawn_blocking(move || {
            let mut entry = lock(&shared);
            if entry.version() != version || entry.is_removed() {
                return;
            }
            let flagged = state.games.update(&mut entry, |entry| {
                Ok::<_, StoreError>(((), entry.flag_if_due(Instant::now())))
            });
            if let Err(StoreError::Disk(e)) = flagged {
                entry.set_save_error(Some((&e).into()));
            }
            schedule(&state, &shared, &mut entry);
        })
        .await;
    });
}

/// What a job needs from its game, copied when it starts.
struct Snapshot {
    start: Position,
    moves: Vec<Move>,
    version: u64,
    level: u8,
    /// A game on the clock: the shared game, to read the computer's time left when its search
    /// really starts (a queue for a slot must not eat into it unseen).
    clocked: bool,
}

/// Engines playing on a clock stop this much before their time is up, for what happens between
/// the search and the clock (the callback, the game's lock, a busy machine).
const CLOCK_OVERHEAD: Duration = Duration::from_millis(100);

/// Starts `kind` for the game, cancelling the job it had; [`Busy`] (and nothing changed) when
/// too many background jobs wait already. Must run inside the runtime.
pub fn start(
    state: &Arc<AppState>,
    shared: &SharedGame,
    entry: &mut WebGame,
    kind: JobKind,
) -> Result<(), Busy> {
    if entry.is_removed() {
        return Ok(());
    }
    let place = state.pool.queue_place(kind)?;
    let cancel = entry.begin_job(kind);
    if kind.is_background() {
        tokio::spawn(stop_when_abandoned(
            Arc::clone(shared),
            Arc::clone(&cancel),
            state.pool.abandoned_after,
        ));
    }
    let owner = match kind {
        JobKind::Computer => Owner::Computer {
            game: entry.id().to_owned(),
            level: entry.level(),
        },
        _ => Owner::Full,
    };
    let snapshot = Snapshot {
        start: entry.game().start().clone(),
        moves: entry.game().moves().collect(),
        version: entry.version(),
        level: entry.level(),
        clocked: entry.clock().is_some(),
    };
    let state = Arc::clone(state);
    let shared = Arc::clone(shared);
    tokio::spawn(async move {
        let Some(lease) = state.pool.lease(kind, owner).await else {
            return;
        };
        drop(place);
        if cancel.load(Ordering::Relaxed) {
            return;
        }
        let job_shared = Arc::clone(&shared);
        let job_cancel = Arc::clone(&cancel);
        let job_state = Arc::clone(&state);
        let ran = tokio::task::spawn_blocking(move || {
            run(&job_state, &job_shared, lease, &job_cancel, kind, &snapshot);
        })
        .await;
        if ran.is_err() {
            // The job panicked: the game is as it was; say so and free it.
            lock(&shared).engine_failed(&cancel);
        }
    });
    Ok(())
}

/// Stops the game's background job (the one `cancel` belongs to) once nobody has asked about
/// the game for `after`: its page is gone. Ends with the job.
async fn stop_when_abandoned(shared: SharedGame, cancel: Arc<AtomicBool>, after: Duration) {
    let check = ABANDON_CHECK.min(after);
    loop {
        tokio::time::sleep(check).await;
        // Never wait for the game's lock on the runtime: a busy game is checked next time.
        let mut entry = match shared.try_lock() {
            Ok(entry) => entry,
            Err(std::sync::TryLockError::Poisoned(p)) => p.into_inner(),
            Err(std::sync::TryLockError::WouldBlock) => continue,
        };
        if !entry.owns(&cancel) {
            return;
        }
        if entry.unseen_for(Instant::now()) >= after {
            entry.cancel_job();
            return;
        }
    }
}

/// The limits of `kind`'s search; for the computer on the clock, its time left now.
fn job_limits(kind: JobKind, snap: &Snapshot, shared: &SharedGame) -> Limits {
    match kind {
        JobKind::Computer if snap.clocked => {
            let clock = lock(shared).engine_clock(Instant::now());
            Limits {
                clock,
                ..Limits::default()
            }
        }
        JobKind::Computer => level_limits(snap.level),
        JobKind::Analysis => limits(40, 60_000),
        JobKind::Hint => limits(12, 1500),
        JobKind::Draw => limits(8, 600),
        JobKind::Review => Limits::default(),
    }
}

fn run(
    state: &Arc<AppState>,
    shared: &SharedGame,
    mut lease: Lease,
    cancel: &Arc<AtomicBool>,
    kind: JobKind,
    snap: &Snapshot,
) {
    lease.use_book(kind == JobKind::Computer);
    if kind == JobKind::Review {
        review(shared, &mut lease, cancel, snap);
        drop(lease);
        lock(shared).end_job(cancel);
        return;
    }
    lease.set_overhead(if snap.clocked && kind == JobKind::Computer {
        CLOCK_OVERHEAD
    } else {
        Duration::ZERO
    });
    let mut request = SearchRequest::new(snap.start.clone(), job_limits(kind, snap, shared));
    request.moves = snap.moves.clone();
    let root = request.root_position();
    let info_shared = Arc::clone(shared);
    let info_cancel = Arc::clone(cancel);
    let info_root = root.clone();
    let on_info = move |info: &SearchInfo| {
        let mut entry = lock(&info_shared);
        if entry.owns(&info_cancel) {
            entry.set_report(Analysis::new(kind, &info_root, info));
        }
    };
    // Only the computer's own moves are weakened; hints and analysis get the full engine.
    let strength = match kind {
        JobKind::Computer => level_strength(snap.level),
        _ => None,
    };
    let result = lease.search(request, strength, cancel, on_info);
    // The moment the move is made, for the clock: before the game's lock and the save.
    let found_at = Instant::now();
    drop(lease);
    let Some(result) = result else {
        return;
    };
    let mut entry = lock(shared);
    if !entry.owns(cancel) || entry.version() != snap.version {
        return;
    }
    entry.end_job(cancel);
    match kind {
        JobKind::Computer => {
            let Some(best) = result.best_move else {
                return;
            };
            let mut scores = entry.computer_scores().to_vec();
            scores.push(result.score);
            let resigns = judgement::resigns(snap.level, &scores);
            let played = state.games.update(&mut entry, |entry| {
                if resigns {
                    entry.computer_resigns(found_at);
                } else {
                    entry
                        .play_computer(best, found_at)
                        .map_err(Unsaved::Illegal)?;
                    entry.note_computer_score(result.score);
                    if judgement::offers_draw(entry.computer_scores(), entry.position()) {
                        entry.offer_draw_to_person();
                    }
                }
                Ok(((), true))
            });
            match played {
                Ok(()) => {}
                Err(Unsaved::Illegal(refusal)) => {
                    eprintln!(
                        "warning: the engine's move was refused: {}",
                        refusal.message
                    );
                    entry.notify(super::game::Notice::EngineFailed);
                    return;
                }
                Err(Unsaved::Store(StoreError::Disk(e))) => {
                    entry.set_save_error(Some((&e).into()));
                    return;
                }
                Err(Unsaved::Store(StoreError::Gone)) => return,
            }
        }
        JobKind::Analysis => entry.analysed(snap.version),
        JobKind::Hint => {
            if let Some(best) = result.best_move {
                entry.set_hint(snap.version, best, result.score);
            }
        }
        JobKind::Draw => {
            // The score is for the side to move; the computer's view is what counts.
            let score = if entry.computer_to_move() {
                result.score
            } else {
                -result.score
            };
            let accept = judgement::accepts_draw(score, entry.position());
            let answered = state.games.update(&mut entry, |entry| {
                entry.answer_draw_offer(accept, Instant::now());
                Ok::<_, StoreError>(((), accept))
            });
            if let Err(StoreError::Disk(e)) = answered {
                entry.set_save_error(Some((&e).into()));
            }
        }
        JobKind::Review => {}
    }
    schedule(state, shared, &mut entry);
}

/// Why a result of the engine was not applied to its game.
enum Unsaved {
    /// The engine's move was refused (a broken invariant, reported to the page).
    Illegal(super::game::Refusal),
    /// The game could not be saved with the move.
    Store(StoreError),
}

impl From<StoreError> for Unsaved {
    fn from(error: StoreError) -> Self {
        Unsaved::Store(error)
    }
}

/// Evaluates every position of the game and marks each move by how much it lost.
fn review(shared: &SharedGame, lease: &mut Lease, cancel: &Arc<AtomicBool>, snap: &Snapshot) {
    let mut pos = snap.start.clone();
    let mut positions = vec![pos.clone()];
    for &m in &snap.moves {
        pos.make_move(m);
        positions.push(pos.clone());
    }
    // (score for the side to move, best move) per position.
    let mut found: Vec<(i32, Option<Move>)> = Vec::new();
    for (i, root) in positions.iter().enumerate() {
        let (score, best) = if root.has_no_legal_move() {
            (-SCORE_CAP, None)
        } else {
            let mut request = SearchRequest::new(snap.start.clone(), limits(8, 400));
            request.moves = snap.moves[..i].to_vec();
            let Some(result) = lease.search(request, None, cancel, |_| {}) else {
                return;
            };
            (capped(result.score), result.best_move)
        };
        found.push((score, best));
        let mut entry = lock(shared);
        if !entry.owns(cancel) {
            return;
        }
        let Some(review) = entry.review_mut() else {
            return;
        };
        let red = root.side_to_move() == xiangqi::Color::Red;
        review.evals.push(if red { score } else { -score });
        review.done = i + 1;
        if i > 0 {
            let (before, best_before) = found[i - 1];
            let played = snap.moves[i - 1];
            let after = -score;
            let loss = if best_before == Some(played) {
                0
            } else {
                (before - after).max(0)
            };
            let chance_lost = if loss == 0 {
                0.0
            } else {
                (winning_chance(before) - winning_chance(after)).max(0.0)
            };
            let prev = &positions[i - 1];
            let best = best_before.filter(|&b| b != played && prev.is_legal(b));
            review.plies.push(ReviewPly {
                loss,
                chance_lost,
                mark: mark(chance_lost),
                best: best.map(|b| format_move(prev, b, Notation::Chinese)),
                best_iccs: best.map(|b| b.to_string()),
            });
        }
        review.finished = review.done == review.total;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_follow_the_winning_chance_not_the_points() {
        let lost = |before: i32, after: i32| winning_chance(before) - winning_chance(after);
        // In a level position the marks fall about where the points would put them.
        assert_eq!(mark(lost(0, -40)), None);
        assert_eq!(mark(lost(0, -60)), Some("inaccuracy"));
        assert_eq!(mark(lost(0, -130)), Some("mistake"));
        assert_eq!(mark(lost(0, -300)), Some("blunder"));
        // A blunder to −8 is one; four more soldiers lost in the lost position are not marked.
        assert_eq!(mark(lost(0, -800)), Some("blunder"));
        assert_eq!(mark(lost(-800, -1200)), None);
        assert_eq!(mark(lost(-900, -1100)), None);
    }

    impl Lease {
        /// Whether the lent engine's hash table knows a position one move after `pos` (the
        /// root itself is not stored).
        fn knows(&self, pos: &Position) -> bool {
            let Some(engine) = self.engine.as_ref() else {
                return false;
            };
            pos.legal_moves().iter().any(|&m| {
                let mut child = pos.clone();
                child.make_move(m);
                engine.probe(&child).is_some()
            })
        }
    }

    fn computer(game: &str, level: u8) -> Owner {
        Owner::Computer {
            game: game.to_owned(),
            level,
        }
    }

    /// Searches the start position a few plies on the lent engine.
    fn search_start(lease: &mut Lease) {
        let request = SearchRequest::new(Position::startpos(), limits(5, 10_000));
        let cancel = AtomicBool::new(false);
        assert!(lease.search(request, None, &cancel, |_| {}).is_some());
    }

    #[tokio::test]
    async fn a_computer_player_never_inherits_another_owners_searches() {
        let pool = SearchPool::new(1, 1);
        let start = Position::startpos();
        let mut lease = pool.lease(JobKind::Hint, Owner::Full).await.unwrap();
        search_start(&mut lease);
        assert!(lease.knows(&start));
        drop(lease);

        // A weakened player gets the engine emptied, then keeps what it learns itself.
        let mut lease = pool.lease(JobKind::Hint, computer("a", 3)).await.unwrap();
        assert!(!lease.knows(&start), "a hint's results reached level 3");
        search_start(&mut lease);
        drop(lease);
        let lease = pool.lease(JobKind::Hint, computer("a", 3)).await.unwrap();
        assert!(lease.knows(&start));
        drop(lease);

        // Another game, or the same game at another level, starts afresh too.
        let mut lease = pool.lease(JobKind::Hint, computer("b", 3)).await.unwrap();
        assert!(!lease.knows(&start));
        search_start(&mut lease);
        drop(lease);
        let lease = pool.lease(JobKind::Hint, computer("b", 4)).await.unwrap();
        assert!(!lease.knows(&start));
        drop(lease);

        // Full-strength jobs take any engine as it is.
        let mut lease = pool.lease(JobKind::Hint, computer("b", 4)).await.unwrap();
        search_start(&mut lease);
        drop(lease);
        let lease = pool.lease(JobKind::Hint, Owner::Full).await.unwrap();
        assert!(lease.knows(&start));
    }

    #[tokio::test]
    async fn a_player_gets_back_its_own_engine_when_it_is_free() {
        let pool = SearchPool::new(2, 1);
        let start = Position::startpos();
        let mut a = pool.lease(JobKind::Hint, computer("a", 3)).await.unwrap();
        let b = pool.lease(JobKind::Hint, computer("b", 3)).await.unwrap();
        search_start(&mut a);
        // Given back first, so a plain pop would hand out b's engine.
        drop(a);
        drop(b);
        let a = pool.lease(JobKind::Hint, computer("a", 3)).await.unwrap();
        assert!(a.knows(&start), "game a lost its own engine to game b");
    }
}
