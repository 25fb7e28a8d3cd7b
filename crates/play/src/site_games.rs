//! The games of a page with no server behind it: kept in the browser's storage, their engine
//! jobs run by an engine in a worker of its own.
//!
//! The host (the static site's worker) drives it. After each call it reads what is to be done
//! ([`SiteGames::effects`]): games to write to storage or delete, a search order to start or
//! the running one to stop, and when a clock next runs out. A change counts only once it is
//! kept, as on the server: the host writes the games and then says [`SiteGames::kept`], or
//! [`SiteGames::not_kept`] if storage refused them (a full quota), which puts every game back
//! as it was and turns the answer into the error.

use crate::bodies::{read_json, read_query};
use crate::entry::GameEntry;
use crate::error::ApiError;
use crate::game::Snapshot;
use crate::game::WebGame;
use crate::game_file::{self, import_hash, Origin};
use crate::game_requests::{self, GameRequest, StartJob};
use crate::job::JobKind;
use crate::job_run::{self, Flow, JobRun, Order, Outcome};
use crate::keep::{self, Keep, StoreError};
use crate::site_puzzles::SitePuzzles;
use crate::summary::{summary, Summary};
use std::cell::RefCell;
use std::collections::{BTreeMap, VecDeque};
use std::sync::atomic::Ordering;
use std::time::Duration;
use xiangqi::pgn::{read_pgn, NotationCodec};
use xiangqi::Notation;
use xiangqi_engine::instant::Instant;
use xiangqi_engine::SearchInfo;
use xiangqi_files::disk::{DiskError, DiskFailure};

/// Most jobs that may wait for the engine; more are refused as busy.
pub const MAX_WAITING_JOBS: usize = 16;

/// A game as the host keeps it: its id, its PGN file's text, and when it last changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    /// The game's id.
    pub id: String,
    /// The game's file (PGN, as the server writes it).
    pub pgn: String,
    /// Its last change, in seconds since the Unix epoch.
    pub updated: u64,
}

/// What the host is to do after a call.
#[derive(Debug, Default)]
pub struct Effects {
    /// Games to write (new or changed).
    pub put: Vec<StoredGame>,
    /// Games to delete.
    pub delete: Vec<String>,
    /// A search to start: its ticket and order.
    pub start: Option<(u64, Order)>,
    /// The running search is unwanted: stop it.
    pub stop: bool,
    /// The running search is to wait where it is (`true`: its game's clock was paused) or go
    /// on (`false`); only when the host said it can ([`SiteGames::set_pausable`]).
    pub pause: Option<bool>,
    /// When to call [`SiteGames::tick`]: the next moment a clock runs out.
    pub wake_in: Option<Duration>,
    /// The puzzle record to write (JSON), when a result changed it.
    pub puzzles: Option<String>,
}

/// A change made but not yet kept, to undo if storage refuses it.
enum Pending {
    /// A game changed; it was this before; whether the change was the engine's or the
    /// clock's (not the page's request).
    Changed(String, Box<Snapshot>, bool),
    /// A new game.
    Added(String),
    /// A deleted game, to put back.
    Deleted(Box<GameEntry>),
}

/// The changes of one call, as [`Keep`] sees them.
#[derive(Default)]
struct Ledger {
    pending: RefCell<Vec<Pending>>,
    /// Games changed by the call (to write).
    changed: RefCell<Vec<String>>,
    /// The changes noted now are the engine's or the clock's, not a request's: refused, they
    /// leave the game showing the failure, as on the server.
    by_engine: std::cell::Cell<bool>,
}

impl Keep for Ledger {
    fn update<T, E: From<StoreError>>(
        &self,
        entry: &mut GameEntry,
        change: impl FnOnce(&mut GameEntry) -> Result<(T, bool), E>,
    ) -> Result<T, E> {
        // Noted now, written by the host after the call; undone if storage refuses it.
        keep::undoable(entry, change, |entry, before| {
            let id = entry.game().id().to_owned();
            self.pending.borrow_mut().push(Pending::Changed(
                id.clone(),
                Box::new(before),
                self.by_engine.get(),
            ));
            self.changed.borrow_mut().push(id);
            Ok(())
        })
    }
}

/// A job waiting for the engine, or running on it.
struct Queued {
    game: String,
    job: JobRun,
}

/// The engine's jobs: one runs at a time (a browser gives the page one engine worker).
#[derive(Default)]
struct JobQueue {
    waiting: VecDeque<Queued>,
    running: Option<(u64, Queued)>,
    last_ticket: u64,
    /// A search started by this call, for the host.
    start: Option<(u64, Order)>,
    /// The position the running search searches (its reports' lines start there).
    root: Option<xiangqi::Position>,
    /// The running search was dropped by this call.
    stop: bool,
    /// The host's engine can pause a running search ([`SiteGames::set_pausable`]).
    pausable: bool,
    /// The running search waits, as the host was last told.
    paused: bool,
}

impl JobQueue {
    /// Hands `order` of the job to the host's engine under a new ticket.
    fn run(&mut self, queued: Queued, order: Order) {
        self.last_ticket += 1;
        self.root = Some(order.request.root_position());
        self.start = Some((self.last_ticket, order));
        self.running = Some((self.last_ticket, queued));
        // The host's engine clears its pause before each search.
        self.paused = false;
    }

    /// Whether the running search's game paused it.
    fn running_paused(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|(_, queued)| queued.job.pause_flag().load(Ordering::Relaxed))
    }

    /// What to tell the host about the running search's pause, when that changed.
    fn pause_change(&mut self) -> Option<bool> {
        let paused = self.running_paused();
        (paused != self.paused).then(|| {
            self.paused = paused;
            paused
        })
    }
}

/// Starts the jobs of one game into the queue.
struct QueueJobs<'a> {
    queue: &'a mut JobQueue,
}

impl StartJob for QueueJobs<'_> {
    fn keeps_paused_search(&self) -> bool {
        self.queue.pausable
    }

    fn start_job(&mut self, entry: &mut GameEntry, kind: JobKind) -> Result<(), String> {
        if self.queue.waiting.len() >= MAX_WAITING_JOBS {
            return Err(format!(
                "{MAX_WAITING_JOBS} engine jobs are waiting already; try again later"
            ));
        }
        let job = JobRun::begin(entry, kind);
        self.queue.waiting.push_back(Queued {
            game: entry.game().id().to_owned(),
            job,
        });
        Ok(())
    }
}

/// The games of the page, in memory, and their jobs.
#[derive(Default)]
pub struct SiteGames {
    games: BTreeMap<String, GameEntry>,
    ledger: Ledger,
    jobs: JobQueue,
    /// Games deleted by this call.
    deleted: Vec<String>,
    /// Stored games that could not be read, with the reason: left in storage untouched.
    unreadable: Vec<(String, String)>,
    /// The puzzle record, kept beside the games.
    puzzles: SitePuzzles,
}

/// An answer to the page: the status a server gives and the body (JSON, or a PGN file's text).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// HTTP status.
    pub status: u16,
    /// The body.
    pub body: String,
}

impl Reply {
    fn json(status: u16, value: &impl serde::Serialize) -> Reply {
        match serde_json::to_string(value) {
            Ok(body) => Reply { status, body },
            Err(e) => Reply::error(&ApiError::Internal(e.to_string())),
        }
    }

    /// The answer for `error`.
    pub fn error(error: &ApiError) -> Reply {
        Reply {
            status: error.status_code(),
            body: serde_json::to_string(&error.body()).unwrap_or_default(),
        }
    }
}

impl SiteGames {
    /// Reads the stored games; those that cannot be read are left out (and in storage), and
    /// listed by [`SiteGames::unreadable`].
    pub fn load(&mut self, stored: Vec<StoredGame>) {
        for record in stored {
            if !game_requests::is_valid_id(&record.id) || self.games.contains_key(&record.id) {
                continue;
            }
            match read_game(&record) {
                Ok(game) => {
                    self.games.insert(record.id.clone(), GameEntry::new(game));
                }
                Err(reason) => self.unreadable.push((record.id, reason)),
            }
        }
    }

    /// Stored games that could not be read, and why.
    pub fn unreadable(&self) -> &[(String, String)] {
        &self.unreadable
    }

    /// The puzzle record and its requests (`/api/puzzles…`), stored with the games.
    pub fn puzzles(&mut self) -> &mut SitePuzzles {
        &mut self.puzzles
    }

    /// Answers a request of the games' API: `route` is the path after `/api/games` (empty for
    /// the list), `query` what follows `?`.
    pub fn answer(&mut self, method: &str, route: &str, query: &str, body: &[u8]) -> Reply {
        let now = Instant::now();
        match self.route(method, route, query, body, now) {
            Ok(reply) => reply,
            Err(error) => Reply::error(&error),
        }
    }

    fn route(
        &mut self,
        method: &str,
        route: &str,
        query: &str,
        body: &[u8],
        now: Instant,
    ) -> Result<Reply, ApiError> {
        let parts: Vec<&str> = route.split('/').filter(|p| !p.is_empty()).collect();
        match (method, parts.as_slice()) {
            ("GET", []) => {
                let mut list: Vec<Summary> = self
                    .games
                    .values()
                    .map(|entry| summary(entry.game()))
                    .collect();
                list.sort_by(|a, b| (b.updated, &b.id).cmp(&(a.updated, &a.id)));
                Ok(Reply::json(200, &list))
            }
            ("POST", []) => {
                let game = read_json::<game_requests::NewGame>(body)?.game()?;
                let id = self.add(game, now)?;
                Ok(Reply::json(201, &crate::view::view(&self.games[&id], now)))
            }
            ("POST", ["import"]) => {
                let game = game_requests::imported(body, &read_query(query)?)?;
                let hash = import_hash(&game);
                let earlier = self
                    .games
                    .values()
                    .find(|entry| hash.is_some() && import_hash(entry.game()) == hash)
                    .map(|entry| entry.game().id().to_owned());
                let (id, new) = match earlier {
                    Some(id) => (id, false),
                    None => (self.add(game, now)?, true),
                };
                let view = game_requests::ImportView {
                    game: crate::view::view(&self.games[&id], now),
                    already_imported: !new,
                };
                Ok(Reply::json(if new { 201 } else { 200 }, &view))
            }
            ("GET", [id]) => {
                let query: game_requests::GetQuery = read_query(query)?;
                self.find(id, now)?;
                self.schedule(id);
                let view = game_requests::game_view(&self.games[*id], &query, now);
                Ok(Reply::json(200, &view))
            }
            ("DELETE", [id]) => {
                let mut entry = self
                    .games
                    .remove(*id)
                    .ok_or_else(|| ApiError::no_game(id))?;
                entry.cancel_job();
                self.deleted.push((*id).to_owned());
                self.ledger
                    .pending
                    .borrow_mut()
                    .push(Pending::Deleted(Box::new(entry)));
                Ok(Reply {
                    status: 204,
                    body: String::new(),
                })
            }
            ("GET", [id, "pgn"]) => {
                let query: game_requests::PgnQuery = read_query(query)?;
                let (text, _name) = game_requests::pgn_file(self.find(id, now)?, &query, now)?;
                Ok(Reply {
                    status: 200,
                    body: text,
                })
            }
            ("POST", [id, "leave"]) => {
                let entry = self
                    .games
                    .get_mut(*id)
                    .ok_or_else(|| ApiError::no_game(id))?;
                if game_requests::leave(entry) {
                    self.ledger.update(entry, |entry| {
                        entry.change(|game| game.pause(now))?;
                        Ok::<_, ApiError>(((), true))
                    })?;
                }
                Ok(Reply {
                    status: 204,
                    body: String::new(),
                })
            }
            ("POST", [id, action]) => {
                let Some(request) = GameRequest::read(action, body) else {
                    return Err(ApiError::NotFound("no such API route".into()));
                };
                let request = request?;
                let study = matches!(request, GameRequest::Study(_));
                let entry = self
                    .games
                    .get_mut(*id)
                    .ok_or_else(|| ApiError::no_game(id))?;
                entry.seen(now);
                let mut jobs = QueueJobs {
                    queue: &mut self.jobs,
                };
                let done = self
                    .ledger
                    .update(entry, |entry| request.apply(entry, &mut jobs, now));
                self.schedule(id);
                let at = done?;
                let game = crate::view::view(&self.games[*id], now);
                if study {
                    Ok(Reply::json(200, &game_requests::StudyView { at, game }))
                } else {
                    Ok(Reply::json(200, &game))
                }
            }
            (_, [] | ["import"] | [_] | [_, _]) => Err(ApiError::MethodNotAllowed),
            _ => Err(ApiError::NotFound("no such API route".into())),
        }
    }

    /// The game with this id, noted as seen.
    fn find(&mut self, id: &str, now: Instant) -> Result<&mut GameEntry, ApiError> {
        let entry = self
            .games
            .get_mut(id)
            .ok_or_else(|| ApiError::no_game(id))?;
        entry.seen(now);
        Ok(entry)
    }

    /// Adds a new game (kept with the call's other changes); its id.
    fn add(&mut self, mut game: WebGame, _now: Instant) -> Result<String, ApiError> {
        // Ids differ within a run; one taken by an earlier run's game is made again.
        for _ in 0..100 {
            if !self.games.contains_key(game.id()) {
                break;
            }
            game.set_id(game_requests::new_id());
        }
        let id = game.id().to_owned();
        if self.games.contains_key(&id) {
            return Err(ApiError::Internal("no free game id".into()));
        }
        self.games.insert(id.clone(), GameEntry::new(game));
        self.ledger
            .pending
            .borrow_mut()
            .push(Pending::Added(id.clone()));
        self.ledger.changed.borrow_mut().push(id.clone());
        self.schedule(&id);
        Ok(id)
    }

    /// Starts the job the game needs now, if none runs: the computer's move when it is to
    /// move, else an analysis when the person asked for one.
    fn schedule(&mut self, id: &str) {
        let Some(entry) = self.games.get_mut(id) else {
            return;
        };
        if let Some(kind) = job_run::next_job(entry) {
            let _ = QueueJobs {
                queue: &mut self.jobs,
            }
            .start_job(entry, kind);
        }
    }

    /// The position the search with this ticket searches, if it is the running one.
    pub fn search_root(&self, ticket: u64) -> Option<&xiangqi::Position> {
        match &self.jobs.running {
            Some((running, _)) if *running == ticket => self.jobs.root.as_ref(),
            _ => None,
        }
    }

    /// A progress report of the search with this ticket.
    pub fn job_info(&mut self, ticket: u64, info: &SearchInfo) {
        if let Some((running, queued)) = &self.jobs.running {
            if *running == ticket {
                if let Some(entry) = self.games.get_mut(&queued.game) {
                    queued.job.report(entry, info);
                }
            }
        }
    }

    /// The search with this ticket ended with `outcome` (`None`: the engine failed).
    pub fn job_done(&mut self, ticket: u64, outcome: Option<Outcome>) {
        let Some((running, mut queued)) = self.jobs.running.take() else {
            return;
        };
        if running != ticket {
            self.jobs.running = Some((running, queued));
            return;
        }
        let Some(entry) = self.games.get_mut(&queued.game) else {
            return;
        };
        if !queued.job.is_current(entry) {
            return;
        }
        let Some(outcome) = outcome else {
            entry.engine_failed(queued.job.cancel_flag());
            return;
        };
        self.ledger.by_engine.set(true);
        let flow = queued.job.finish(entry, outcome, &self.ledger);
        self.ledger.by_engine.set(false);
        if flow == Flow::Stop {
            return;
        }
        self.advance(queued);
    }

    /// Gives the job's next order to the engine or, when the job is done, starts the game's
    /// next job.
    fn advance(&mut self, mut queued: Queued) {
        let Some(entry) = self.games.get_mut(&queued.game) else {
            return;
        };
        match queued.job.next(entry, Instant::now()) {
            Some(order) => self.jobs.run(queued, order),
            None => {
                let id = queued.game;
                self.schedule(&id);
            }
        }
    }

    /// Ends the games whose side to move has run out of time.
    pub fn tick(&mut self) {
        let now = Instant::now();
        let due: Vec<String> = self
            .games
            .values()
            .filter(|entry| entry.game().ending().is_none())
            .filter(|entry| entry.game().deadline().is_some_and(|d| d <= now))
            .map(|entry| entry.game().id().to_owned())
            .collect();
        for id in due {
            if let Some(entry) = self.games.get_mut(&id) {
                self.ledger.by_engine.set(true);
                let _ = self.ledger.update(entry, |entry| {
                    Ok::<_, StoreError>(((), entry.change(|game| game.flag_if_due(now))))
                });
                self.ledger.by_engine.set(false);
            }
            self.schedule(&id);
        }
    }

    /// Has every game whose clock runs stored again, its side to move's time charged up to
    /// now. The games live in the page's worker, which closes with the page: a clock read
    /// back resumes from what was stored, so without this a page closed (or reloaded) in the
    /// middle of a move would give that move's time back. The host calls it every few seconds
    /// and when the page is hidden.
    pub fn checkpoint(&mut self) {
        let running = self
            .games
            .values()
            .filter(|entry| entry.game().ending().is_none() && entry.game().deadline().is_some())
            .map(|entry| entry.game().id().to_owned());
        self.ledger.changed.borrow_mut().extend(running);
    }

    /// What the host is to do after this call: the games to write or delete, the search to
    /// start or stop, when to wake.
    pub fn effects(&mut self) -> Effects {
        self.pump();
        let now = Instant::now();
        let mut changed = std::mem::take(&mut *self.ledger.changed.borrow_mut());
        changed.sort();
        changed.dedup();
        let put = changed
            .iter()
            .filter_map(|id| self.games.get(id))
            .map(|entry| StoredGame {
                id: entry.game().id().to_owned(),
                pgn: game_file::pgn(entry.game(), Notation::Chinese, now),
                updated: entry.game().record().updated,
            })
            .collect();
        let wake_in = self
            .games
            .values()
            .filter(|entry| entry.game().ending().is_none())
            .filter_map(|entry| entry.game().deadline())
            .min()
            .map(|deadline| deadline.saturating_duration_since(now));
        Effects {
            put,
            delete: std::mem::take(&mut self.deleted),
            start: self.jobs.start.take(),
            stop: std::mem::take(&mut self.jobs.stop),
            pause: self.jobs.pause_change(),
            wake_in,
            puzzles: self.puzzles.to_store(),
        }
    }

    /// Drops a running job that is no longer wanted, and starts the next waiting one.
    fn pump(&mut self) {
        self.yield_paused_search();
        if let Some((_, queued)) = &self.jobs.running {
            let wanted = self
                .games
                .get(&queued.game)
                .is_some_and(|entry| queued.job.is_current(entry));
            if !wanted {
                self.jobs.running = None;
                self.jobs.start = None;
                self.jobs.stop = true;
            }
        }
        while self.jobs.running.is_none() {
            let Some(queued) = self.jobs.waiting.pop_front() else {
                return;
            };
            let wanted = self
                .games
                .get(&queued.game)
                .is_some_and(|entry| queued.job.is_current(entry));
            if wanted {
                self.advance(queued);
            }
        }
    }

    /// A paused search holds the page's one engine only while no other job wants it: then
    /// it is dropped, and its game's search starts again on Resume, as on a host that cannot
    /// pause.
    fn yield_paused_search(&mut self) {
        if !self.jobs.running_paused() {
            return;
        }
        let games = &self.games;
        let others_wait = self.jobs.waiting.iter().any(|queued| {
            games
                .get(&queued.game)
                .is_some_and(|entry| queued.job.is_current(entry))
        });
        if !others_wait {
            return;
        }
        if let Some((_, queued)) = &self.jobs.running {
            if let Some(entry) = self.games.get_mut(&queued.game) {
                entry.cancel_job();
            }
        }
    }

    /// Says whether the host's engine can pause a running search where it is (with shared
    /// memory it can): a game paused while the computer thinks then keeps its search, which
    /// goes on after Resume. Otherwise a pause stops the search, and Resume starts it again.
    pub fn set_pausable(&mut self, pausable: bool) {
        self.jobs.pausable = pausable;
    }

    /// The host kept every change of the call.
    pub fn kept(&mut self) {
        self.puzzles.kept();
        for pending in self.ledger.pending.take() {
            if let Pending::Changed(id, _, _) | Pending::Added(id) = pending {
                if let Some(entry) = self.games.get_mut(&id) {
                    entry.set_save_error(None);
                }
            }
        }
    }

    /// Storage refused the call's changes (`full`: the quota is used up): every game is put
    /// back as it was before the call, as on the server; a game whose change came from the
    /// engine or the clock (the computer's move, a flag) shows the failure and tries again
    /// when the person retries. The answer for the page (a request's error).
    pub fn not_kept(&mut self, full: bool, reason: &str) -> Reply {
        let error = DiskError {
            kind: if full {
                DiskFailure::Full
            } else {
                DiskFailure::Other
            },
            message: if full {
                format!("the browser's storage for this site is full ({reason})")
            } else {
                format!("the browser could not store the game ({reason})")
            },
        };
        self.puzzles.not_kept();
        let mut pending = self.ledger.pending.take();
        pending.reverse();
        for change in pending {
            match change {
                Pending::Changed(id, before, by_engine) => {
                    if let Some(entry) = self.games.get_mut(&id) {
                        entry.restore(*before);
                        // A job started for the change that is undone: the game's own comes next.
                        entry.cancel_job();
                        if by_engine {
                            entry.set_save_error(Some((&error).into()));
                        }
                    }
                    self.schedule(&id);
                }
                Pending::Added(id) => {
                    if let Some(mut entry) = self.games.remove(&id) {
                        entry.cancel_job();
                    }
                }
                Pending::Deleted(entry) => {
                    self.games.insert(entry.game().id().to_owned(), *entry);
                }
            }
        }
        self.ledger.changed.take();
        self.deleted.clear();
        Reply::error(&ApiError::Storage(error))
    }
}

/// A stored game read back.
fn read_game(record: &StoredGame) -> Result<WebGame, String> {
    let mut records = read_pgn(record.pgn.as_bytes(), &NotationCodec(Notation::Chinese))
        .map_err(|e| e.to_string())?;
    if records.is_empty() {
        return Err("no game in the record".into());
    }
    let record_game = records.swap_remove(0);
    let mut game = game_file::from_record(
        record.id.clone(),
        &record_game,
        Origin::Saved,
        None,
        Instant::now(),
    );
    game.set_updated(record.updated);
    Ok(game)
}
