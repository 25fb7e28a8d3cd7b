//! Engine jobs: the computer's moves, analysis, hints, draw offers and post-game reviews.
//!
//! Searches run on the engine's own threads; the async runtime only waits for a slot in a
//! bounded pool, so many open games cannot start more searches than the machine has room for:
//! the others queue. Short jobs that a person waits for (the computer's move, a hint, a draw
//! offer) and long ones that run in the background (analysis, reviews) have separate slots, so
//! a move never queues behind another game's minute of analysis. A job belongs to one game and is cancelled
//! by anything that changes the game (a move, undo, a new game, leaving the page); a cancelled
//! or outdated job changes nothing.

use super::pool::{Busy, JobFlags, Lease, Owner};
use super::state::AppState;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use xiangqi_play::entry::{lock, GameEntry, SharedGame};
use xiangqi_play::job::JobKind;
use xiangqi_play::job_run::{self, Flow, JobRun};
use xiangqi_play::keep::{Keep, StoreError};

/// How often a background job checks that its game is still watched.
const ABANDON_CHECK: Duration = Duration::from_secs(1);

/// Starts the job the game needs now, if none is running: the computer's move when it is to
/// move, else an analysis when the person asked for one; and, on the clock, a watcher that ends
/// the game when the side to move's time runs out. An analysis the server is too busy for
/// waits for the game's next request.
pub fn schedule(state: &Arc<AppState>, shared: &SharedGame, entry: &mut GameEntry) {
    if entry.is_removed() {
        return;
    }
    watch_clock(state, shared, entry);
    if let Some(kind) = job_run::next_job(entry) {
        let _ = start(state, shared, entry, kind);
    }
}

/// On the clock, a task that wakes when the side to move's time runs out and ends the game
/// then (saved like any change), unless the game moved on meanwhile: every change is a new
/// version, and each version has its own watcher.
fn watch_clock(state: &Arc<AppState>, shared: &SharedGame, entry: &mut GameEntry) {
    let Some(deadline) = entry.game().deadline() else {
        return;
    };
    if entry.game().ending().is_some() || !entry.watch_clock() {
        return;
    }
    let version = entry.game().version();
    let state = Arc::clone(state);
    let shared = Arc::clone(shared);
    tokio::spawn(async move {
        tokio::time::sleep_until(tokio::time::Instant::from_std(deadline)).await;
        let _ = tokio::task::spawn_blocking(move || {
            let mut entry = lock(&shared);
            if entry.game().version() != version || entry.is_removed() {
                return;
            }
            let flagged = state.games.update(&mut entry, |entry| {
                Ok::<_, StoreError>(((), entry.change(|game| game.flag_if_due(Instant::now()))))
            });
            if let Err(StoreError::Disk(e)) = flagged {
                entry.set_save_error(Some((&e).into()));
            }
            schedule(&state, &shared, &mut entry);
        })
        .await;
    });
}

/// Starts `kind` for the game, cancelling the job it had; [`Busy`] (and nothing changed) when
/// too many background jobs wait already. Must run inside the runtime.
pub fn start(
    state: &Arc<AppState>,
    shared: &SharedGame,
    entry: &mut GameEntry,
    kind: JobKind,
) -> Result<(), Busy> {
    if entry.is_removed() {
        return Ok(());
    }
    let place = state.pool.queue_place(kind)?;
    let job = JobRun::begin(entry, kind);
    let cancel = Arc::clone(job.cancel_flag());
    if kind.is_background() || kind == JobKind::Computer {
        tokio::spawn(stop_when_abandoned(
            Arc::clone(shared),
            Arc::clone(&cancel),
            state.pool.abandoned_after(),
        ));
    }
    let owner = match kind {
        JobKind::Computer => Owner::Computer {
            game: entry.game().id().to_owned(),
            level: entry.game().level(),
        },
        _ => Owner::Full,
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
        let job_state = Arc::clone(&state);
        let ran =
            tokio::task::spawn_blocking(move || run(&job_state, &job_shared, lease, job)).await;
        if ran.is_err() {
            // The job panicked: the game is as it was; say so and free it.
            lock(&shared).engine_failed(&cancel);
        }
    });
    Ok(())
}

/// Stops the game's background job, or its computer's search paused with the clock (the job
/// `cancel` belongs to), once nobody has asked about the game for `after`: its page is gone
/// (a page asks while its game has a job, paused or not). A computer's search that is not
/// paused ends by its clock; one paused would keep its engine for good. Ends with the job.
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
        let waits_for_a_page = entry
            .job_kind()
            .is_some_and(|kind| kind.is_background() || entry.job_paused());
        if waits_for_a_page && entry.unseen_for(Instant::now()) >= after {
            entry.cancel_job();
            return;
        }
    }
}

/// Runs the job's orders one after another on the lent engine, applying each answer to the
/// game, until the job is done or unwanted; then starts the game's next job.
fn run(state: &Arc<AppState>, shared: &SharedGame, mut lease: Lease, job: JobRun) {
    let cancel = Arc::clone(job.cancel_flag());
    let paused = Arc::clone(job.pause_flag());
    // Shared with the progress reports, which come from the engine's thread.
    let job = Arc::new(std::sync::Mutex::new(job));
    let mut entry = lock(shared);
    if !lock(&job).is_current(&entry) {
        return;
    }
    let mut order = lock(&job).next(&mut entry, Instant::now());
    while let Some(next) = order {
        drop(entry);
        let info_shared = Arc::clone(shared);
        let info_job = Arc::clone(&job);
        let on_info = move |info: &xiangqi_engine::SearchInfo| {
            let mut entry = lock(&info_shared);
            lock(&info_job).report(&mut entry, info);
        };
        let flags = JobFlags {
            cancel: &cancel,
            paused: &paused,
        };
        let Some(outcome) = lease.run(&next, flags, on_info) else {
            return;
        };
        entry = lock(shared);
        let mut job = lock(&job);
        if !job.is_current(&entry) || job.finish(&mut entry, outcome, &state.games) == Flow::Stop {
            return;
        }
        order = job.next(&mut entry, Instant::now());
    }
    // Given back before the next job asks the pool for one.
    drop(lease);
    schedule(state, shared, &mut entry);
}
