//! The engines the web server searches with: a bounded pool of slots (those a person waits for
//! apart from the background ones), engines lent for a job and given back, and a bound on the
//! background jobs waiting for a slot.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use xiangqi_engine::instant::Instant;
use xiangqi_engine::{Engine, EngineOptions, SearchInfo, SearchRequest, SearchResult, Tablebases};
use xiangqi_play::entry::lock;
use xiangqi_play::job::JobKind;
use xiangqi_play::job_run::{Comparison, Order, Outcome};

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
    /// The endgame tables every engine probes (a full-strength search; the levels below it
    /// play without them).
    tablebases: Option<Tablebases>,
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
        SearchPool::with_tablebases(slots, hash_mb, None)
    }

    /// [`SearchPool::new`] whose engines probe `tablebases`.
    pub fn with_tablebases(
        slots: usize,
        hash_mb: usize,
        tablebases: Option<Tablebases>,
    ) -> Arc<SearchPool> {
        SearchPool::build(slots, hash_mb, tablebases, ABANDONED_AFTER)
    }

    /// [`SearchPool::new`] stopping unwatched background jobs after `abandoned_after`.
    pub fn with_abandon_time(
        slots: usize,
        hash_mb: usize,
        abandoned_after: Duration,
    ) -> Arc<SearchPool> {
        SearchPool::build(slots, hash_mb, None, abandoned_after)
    }

    fn build(
        slots: usize,
        hash_mb: usize,
        tablebases: Option<Tablebases>,
        abandoned_after: Duration,
    ) -> Arc<SearchPool> {
        Arc::new(SearchPool {
            foreground: Arc::new(Semaphore::new(slots.max(1))),
            background: Arc::new(Semaphore::new(slots.max(1))),
            waiting: Arc::new(AtomicUsize::new(0)),
            engines: Mutex::new(Vec::new()),
            hash_mb,
            tablebases,
            abandoned_after,
        })
    }

    /// The endgame tables the engines probe, if any.
    pub fn tablebases(&self) -> Option<&Tablebases> {
        self.tablebases.as_ref()
    }

    /// How long a background job's game may go unwatched before the job is stopped.
    pub fn abandoned_after(&self) -> Duration {
        self.abandoned_after
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
                tablebases: self.tablebases.clone(),
                ..EngineOptions::default()
            }),
        };
        Some(Lease {
            engine: Some(engine),
            owner,
            pool: Arc::clone(self),
            slots: Arc::clone(slots),
            permit: Some(permit),
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
    /// The budget the slot comes from.
    slots: Arc<Semaphore>,
    /// The slot; given back while a paused search waits (it uses no processor meanwhile).
    permit: Option<OwnedSemaphorePermit>,
}

impl Lease {
    /// Runs one order of a job on the engine's thread, waiting here (a blocking thread, not
    /// the runtime), stopping the search when `cancel` is set and holding it where it is
    /// while `paused` is. Progress reports of a plain search go to `on_info`; a comparison
    /// keeps its own. `None` if cancelled.
    pub fn run(
        &mut self,
        order: &Order,
        flags: JobFlags,
        on_info: impl FnMut(&SearchInfo) + Send + 'static,
    ) -> Option<Outcome> {
        order.prepare(self.engine.as_mut()?);
        let request = order.search_request();
        if order.compare.is_empty() {
            let result = self.search(request, flags, on_info)?;
            return Some(order.outcome(result, &Comparison::default(), Instant::now()));
        }
        let comparison: Arc<Mutex<Comparison>> = Arc::default();
        let seen = Arc::clone(&comparison);
        let result = self.search(request, flags, move |info| lock(&seen).note(info))?;
        let comparison = lock(&comparison);
        Some(order.outcome(result, &comparison, Instant::now()))
    }

    /// Searches on the engine's thread as it is set up, waiting here; see [`Lease::run`].
    /// `None` if cancelled.
    fn search(
        &mut self,
        request: SearchRequest,
        flags: JobFlags,
        on_info: impl FnMut(&SearchInfo) + Send + 'static,
    ) -> Option<SearchResult> {
        let (tx, rx) = mpsc::channel();
        self.engine
            .as_mut()?
            .start(request, on_info, move |result| {
                let _ = tx.send(result);
            });
        let (mut stopped, mut waiting) = (false, false);
        loop {
            match rx.recv_timeout(Duration::from_millis(20)) {
                Ok(result) => {
                    self.engine.as_mut()?.wait();
                    return (!flags.cancel.load(Ordering::Relaxed)).then_some(result);
                }
                Err(RecvTimeoutError::Timeout) => {
                    let engine = self.engine.as_mut()?;
                    if !stopped && flags.cancel.load(Ordering::Relaxed) {
                        engine.stop();
                        stopped = true;
                    }
                    let pause = !stopped && flags.paused.load(Ordering::Relaxed);
                    if pause && !waiting {
                        engine.pause();
                        // Another game may search in the slot meanwhile.
                        self.permit = None;
                        waiting = true;
                    } else if !pause && waiting {
                        self.take_slot_back(flags.cancel);
                        self.engine.as_mut()?.resume();
                        waiting = false;
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    self.engine.as_mut()?.wait();
                    return None;
                }
            }
        }
    }
}

impl Lease {
    /// Waits for a slot again after a pause (as a new job would), unless the job is cancelled
    /// meanwhile.
    fn take_slot_back(&mut self, cancel: &AtomicBool) {
        while self.permit.is_none() && !cancel.load(Ordering::Relaxed) {
            match Arc::clone(&self.slots).try_acquire_owned() {
                Ok(permit) => self.permit = Some(permit),
                Err(tokio::sync::TryAcquireError::NoPermits) => {
                    std::thread::sleep(Duration::from_millis(20));
                }
                Err(tokio::sync::TryAcquireError::Closed) => return,
            }
        }
    }
}

/// What a job's runner tells a lent engine's search: stop, or wait where it is.
#[derive(Clone, Copy)]
pub struct JobFlags<'a> {
    /// Set when the job is unwanted.
    pub cancel: &'a AtomicBool,
    /// Set while the game's clock is paused.
    pub paused: &'a AtomicBool,
}

impl Drop for Lease {
    fn drop(&mut self) {
        if let Some(mut engine) = self.engine.take() {
            engine.stop_and_wait();
            engine.set_multipv(1);
            let owner = self.owner.clone();
            lock(&self.pool.engines).push(Idle { engine, owner });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi::Position;
    use xiangqi_engine::Limits;

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
        let limits = Limits {
            depth: Some(5),
            movetime: Some(Duration::from_secs(10)),
            ..Limits::default()
        };
        let request = SearchRequest::new(Position::startpos(), limits);
        let (cancel, paused) = (AtomicBool::new(false), AtomicBool::new(false));
        let flags = JobFlags {
            cancel: &cancel,
            paused: &paused,
        };
        assert!(lease.search(request, flags, |_| {}).is_some());
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_paused_search_lends_its_slot_and_goes_on_after_resume() {
        let pool = SearchPool::new(1, 1);
        let owner = || Owner::Computer {
            game: "g".into(),
            level: 10,
        };
        let mut lease = pool.lease(JobKind::Computer, owner()).await.unwrap();
        let flags = Arc::new((AtomicBool::new(false), AtomicBool::new(false)));
        let searching = Arc::clone(&flags);
        let search = std::thread::spawn(move || {
            let limits = Limits {
                movetime: Some(Duration::from_millis(400)),
                ..Limits::default()
            };
            let request = SearchRequest::new(Position::startpos(), limits);
            let flags = JobFlags {
                cancel: &searching.0,
                paused: &searching.1,
            };
            let started = std::time::Instant::now();
            let result = lease.search(request, flags, |_| {});
            (result, started.elapsed())
        });
        tokio::time::sleep(Duration::from_millis(100)).await;
        flags.1.store(true, Ordering::Relaxed);
        // The pool's only slot is free while the search waits: another game's job gets it.
        let other = tokio::time::timeout(
            Duration::from_secs(5),
            pool.lease(JobKind::Computer, Owner::Full),
        )
        .await
        .expect("a paused search keeps its slot")
        .unwrap();
        tokio::time::sleep(Duration::from_millis(800)).await;
        assert!(
            !search.is_finished(),
            "a paused search ended on its move time"
        );
        drop(other);
        flags.1.store(false, Ordering::Relaxed);
        let (result, took) = search.join().unwrap();
        let result = result.expect("the resumed search answers");
        assert!(result.best_move.is_some());
        // 400 ms of search and the 800 ms or more of the pause.
        assert!(took >= Duration::from_millis(1_100), "{took:?}");
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

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_pool_s_engines_probe_its_tables() {
        let mut tables = xiangqi_tablebase::Tables::with_threads(1);
        tables.generate("KRK".parse().unwrap(), &mut |_| {});
        let tb = Tablebases::new(tables);
        let pool = SearchPool::with_tablebases(1, 1, Some(tb.clone()));
        assert_eq!(pool.tablebases(), Some(&tb));
        let mut lease = pool.lease(JobKind::Analysis, Owner::Full).await.unwrap();
        let engine = lease.engine.as_ref().unwrap();
        assert_eq!(engine.options().tablebases.as_ref(), Some(&tb));

        // A full-strength search of a chariot's ending counts the positions the table held.
        let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1").unwrap();
        let limits = Limits {
            depth: Some(3),
            ..Limits::default()
        };
        let (cancel, paused) = (AtomicBool::new(false), AtomicBool::new(false));
        let flags = JobFlags {
            cancel: &cancel,
            paused: &paused,
        };
        let hits = Arc::new(std::sync::atomic::AtomicU64::new(0));
        let seen = Arc::clone(&hits);
        let request = SearchRequest::new(pos, limits);
        let found = lease.search(request, flags, move |info| {
            seen.fetch_max(info.tbhits, Ordering::Relaxed);
        });
        assert!(found.is_some());
        assert!(hits.load(Ordering::Relaxed) > 0);
        assert!(SearchPool::new(1, 1).tablebases().is_none());
    }
}
