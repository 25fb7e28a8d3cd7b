//! Engine jobs: the computer's moves, analysis, hints, draw offers and post-game reviews.
//!
//! Searches run on the engine's own threads; the async runtime only waits for a slot in a
//! bounded pool, so many open games cannot start more searches than the machine has room for:
//! the others queue. Short jobs that a person waits for (the computer's move, a hint, a draw
//! offer) and long ones that run in the background (analysis, reviews) have separate slots, so
//! a move never queues behind another game's minute of analysis. A job belongs to one game and is cancelled
//! by anything that changes the game (a move, undo, a new game, leaving the page); a cancelled
//! or outdated job changes nothing.

use super::pool::{Busy, Lease, Owner};
use super::state::AppState;
use super::store::StoreError;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use xiangqi::{Move, Position};
use xiangqi_engine::strength::{self, Strength};
use xiangqi_engine::{Limits, SearchInfo, SearchRequest};
use xiangqi_play::entry::{lock, GameEntry, SharedGame};
use xiangqi_play::game::Notice;
use xiangqi_play::job::JobKind;
use xiangqi_play::judgement;
use xiangqi_play::report::{capped, Analysis, SCORE_CAP};
use xiangqi_play::review::{self, Check, Evaluated};

/// How often a background job checks that its game is still watched.
const ABANDON_CHECK: Duration = Duration::from_secs(1);

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

/// Starts the job the game needs now, if none is running: the computer's move when it is to
/// move, else an analysis when the person asked for one; and, on the clock, a watcher that ends
/// the game when the side to move's time runs out. An analysis the server is too busy for
/// waits for the game's next request.
pub fn schedule(state: &Arc<AppState>, shared: &SharedGame, entry: &mut GameEntry) {
    if entry.is_removed() {
        return;
    }
    watch_clock(state, shared, entry);
    if entry.job_kind().is_some() {
        return;
    }
    if entry.game().computer_to_move() {
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

/// What a job needs from its game, copied when it starts.
struct Snapshot {
    start: Position,
    moves: Vec<Move>,
    version: u64,
    level: u8,
    /// A game on the clock: the shared game, to read the computer's time left when its search
    /// really starts (a queue for a slot must not eat into it unseen).
    clocked: bool,
    /// How many lines an analysis shows.
    lines: usize,
}

/// Engines playing on a clock stop this much before their time is up, for what happens between
/// the search and the clock (the callback, the game's lock, a busy machine).
const CLOCK_OVERHEAD: Duration = Duration::from_millis(100);

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
    let cancel = entry.begin_job(kind);
    if kind.is_background() {
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
    let snapshot = Snapshot {
        start: entry.game().rules().start().clone(),
        moves: entry.game().rules().moves().collect(),
        version: entry.game().version(),
        level: entry.game().level(),
        clocked: entry.game().clock().is_some(),
        lines: entry.analysis_lines(),
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
            let clock = lock(shared).game().engine_clock(Instant::now());
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
    // Only an analysis shows several lines; the engine goes back to one with its lease.
    if kind == JobKind::Analysis {
        lease.set_lines(snap.lines);
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
        if !entry.owns(&info_cancel) {
            return;
        }
        if info.multipv <= 1 {
            entry.set_report(Analysis::new(kind, &info_root, info));
        } else if let Some(report) = entry.report_mut() {
            report.add_line(&info_root, info);
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
    if !entry.owns(cancel) || entry.game().version() != snap.version {
        return;
    }
    entry.end_job(cancel);
    match kind {
        JobKind::Computer => {
            let Some(best) = result.best_move else {
                return;
            };
            let mut scores = entry.game().computer_scores().to_vec();
            scores.push(result.score);
            let resigns = judgement::resigns(snap.level, &scores);
            let played = state.games.update(&mut entry, |entry| {
                if resigns {
                    entry.change(|game| game.computer_resigns(found_at));
                } else {
                    entry
                        .play_computer(best, found_at)
                        .map_err(Unsaved::Illegal)?;
                    entry.change(|game| {
                        game.note_computer_score(result.score);
                        if judgement::offers_draw(game.computer_scores(), game.position()) {
                            game.offer_draw_to_person();
                        }
                    });
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
                    entry.change(|game| game.notify(Notice::EngineFailed));
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
            let score = if entry.game().computer_to_move() {
                result.score
            } else {
                -result.score
            };
            let accept = judgement::accepts_draw(score, entry.game().position());
            let answered = state.games.update(&mut entry, |entry| {
                entry.change(|game| game.answer_draw_offer(accept, Instant::now()));
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
    Illegal(xiangqi_play::game::Refusal),
    /// The game could not be saved with the move.
    Store(StoreError),
}

impl From<StoreError> for Unsaved {
    fn from(error: StoreError) -> Self {
        Unsaved::Store(error)
    }
}

/// Evaluates every position of the game and marks each move by how much it lost, checking
/// each move that seems to lose against the engine's suggestion ([`review::needs_check`]).
fn review(shared: &SharedGame, lease: &mut Lease, cancel: &Arc<AtomicBool>, snap: &Snapshot) {
    let Some(depth) = lock(shared).review().map(|r| r.depth) else {
        return;
    };
    let (max_depth, time) = depth.limits();
    let mut pos = snap.start.clone();
    let mut positions = vec![pos.clone()];
    for &m in &snap.moves {
        pos.make_move(m);
        positions.push(pos.clone());
    }
    let request_at = |i: usize, limits: Limits| {
        let mut request = SearchRequest::new(snap.start.clone(), limits);
        request.moves = snap.moves[..i].to_vec();
        request
    };
    let mut found: Vec<(Evaluated, u32)> = Vec::new();
    // The engine's line in each position, kept with a mark as the better line.
    let mut lines: Vec<Vec<Move>> = Vec::new();
    for (i, root) in positions.iter().enumerate() {
        let (now, reached) = if root.has_no_legal_move() {
            let lost = Evaluated {
                score: -SCORE_CAP,
                best: None,
            };
            lines.push(Vec::new());
            (lost, 0)
        } else {
            let request = request_at(i, limits(max_depth, time.as_millis() as u64));
            let Some(result) = lease.search(request, None, cancel, |_| {}) else {
                return;
            };
            let now = Evaluated {
                score: capped(result.score),
                best: result.best_move,
            };
            lines.push(result.pv);
            (now, result.depth)
        };
        found.push((now, reached));
        let before = i.checked_sub(1).map(|p| (p, found[p].0, snap.moves[p]));
        // The move into this position, checked against the suggestion before it when it
        // seems to lose: both searched side by side to the depth the suggestion came from.
        let check = match before {
            Some((p, then, played)) => match review::needs_check(then, played, -now.score) {
                Some(suggested) => {
                    let check_limits = limits(found[p].1.max(1), 2 * time.as_millis() as u64);
                    let compared =
                        lease.compare(request_at(p, check_limits), &[played, suggested], cancel);
                    if cancel.load(Ordering::Relaxed) {
                        return;
                    }
                    compared.map(|(scores, depth)| Check {
                        played: capped(scores[0]),
                        suggested: capped(scores[1]),
                        depth,
                    })
                }
                None => None,
            },
            None => None,
        };
        let mut entry = lock(shared);
        if !entry.owns(cancel) {
            return;
        }
        let Some(review) = entry.review_mut() else {
            return;
        };
        let before = before.map(|(p, then, played)| (&positions[p], then, &lines[p][..], played));
        review.add(root, now, before, check);
    }
}
