//! A game as the server holds it: the game itself (`crate::game`) with the state of its engine
//! jobs (the running job, the latest search report, a hint, the review, whether the person
//! wants analysis), why its last unattended change could not be saved, and whether its page is
//! still there. Shared between requests and jobs behind one lock ([`SharedGame`]).
//!
//! Every change of the game goes through [`GameEntry::change`], which keeps the one rule that
//! ties the two together: a job works on one version of the game, so a change that makes a new
//! version stops the running job and forgets the reports of the old one.

use crate::game::study::StudyEdit;
use crate::game::{Notice, Refusal, Snapshot, WebGame};
use crate::job::{Job, JobKind};
use crate::report::{Analysis, MAX_ANALYSIS_LINES};
use crate::review::{Review, ReviewDepth};
use serde::Serialize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use xiangqi::Move;
use xiangqi_engine::instant::Instant;
use xiangqi_files::disk::DiskError;

/// A game shared between requests and engine jobs.
pub type SharedGame = Arc<Mutex<GameEntry>>;

/// Locks a mutex even if a thread panicked while holding it: a game's state is only changed
/// through whole operations, so the data stays usable.
pub fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A change that could not be saved, as the page shows it.
#[derive(Clone, Debug, Serialize)]
pub struct SaveFailure {
    /// `disk_full`, `disk_read_only` or `disk_error`.
    pub code: &'static str,
    /// The reason in English, naming the file.
    pub message: String,
}

impl From<&DiskError> for SaveFailure {
    fn from(error: &DiskError) -> Self {
        SaveFailure {
            code: error.kind.code(),
            message: error.message.clone(),
        }
    }
}

/// A game with the state of its engine jobs and its page.
#[derive(Debug)]
pub struct GameEntry {
    game: WebGame,
    job: Option<Job>,
    /// The latest search report (the computer's thinking or an analysis).
    analysis: Option<Analysis>,
    analysis_on: bool,
    /// How many lines an analysis shows (MultiPV), 1 to [`MAX_ANALYSIS_LINES`].
    analysis_lines: usize,
    /// The version for which an analysis ran to its end (not started again for it).
    analysed_version: Option<u64>,
    /// A suggested move and its score, for the version it belongs to.
    hint: Option<(u64, Move, i32)>,
    review: Option<Review>,
    /// How hard the next review looks at each position, as the person last asked.
    review_depth: ReviewDepth,
    /// Why the last change no request waited for (the computer's move, an accepted draw, a
    /// flag) could not be saved; that change was undone, and the computer waits for a retry.
    save_error: Option<SaveFailure>,
    /// The version whose clock a watcher waits on (one watcher per version).
    watched: Option<u64>,
    /// When a request last asked about the game (its page is there while it asks).
    seen: Instant,
    /// Deleted: nothing may change, save or search it any more.
    removed: bool,
}

impl GameEntry {
    /// `game`, with no job and nothing reported yet.
    pub fn new(game: WebGame) -> GameEntry {
        GameEntry {
            game,
            job: None,
            analysis: None,
            analysis_on: false,
            analysis_lines: 1,
            analysed_version: None,
            hint: None,
            review: None,
            review_depth: ReviewDepth::default(),
            save_error: None,
            watched: None,
            seen: Instant::now(),
            removed: false,
        }
    }

    /// The game.
    pub fn game(&self) -> &WebGame {
        &self.game
    }

    /// Makes `change` to the game. When it makes a new version, the running job (which worked
    /// on the old one) is stopped and the old version's hint and search report are forgotten.
    pub fn change<T>(&mut self, change: impl FnOnce(&mut WebGame) -> T) -> T {
        let before = self.game.version();
        let result = change(&mut self.game);
        if self.game.version() != before {
            self.cancel_job();
            self.forget_reports();
        }
        result
    }

    /// The computer's move `m`, found at `now`; its search report stays on screen after it.
    pub fn play_computer(&mut self, m: Move, now: Instant) -> Result<(), Refusal> {
        let report = self.analysis.take();
        let played = self.change(|game| game.play_computer(m, now));
        self.analysis = report;
        played
    }

    /// Pauses the clock. The running job stops, unless it is the computer's search and
    /// `keep_search` says the engines can wait: then the search waits where it is (see
    /// [`Job::paused`]) and goes on after [`GameEntry::resume`] with all it had found.
    pub fn pause(&mut self, now: Instant, keep_search: bool) -> Result<(), Refusal> {
        if !keep_search || self.job_kind() != Some(JobKind::Computer) {
            return self.change(|game| game.pause(now));
        }
        self.game.pause(now)?;
        let version = self.game.version();
        if let Some(job) = self.job.as_mut() {
            job.paused.store(true, Ordering::Relaxed);
            job.version = version;
        }
        Ok(())
    }

    /// Restarts the clock after a pause. The position is the same, so a job running meanwhile
    /// (an analysis, a hint, the computer's paused search) goes on; only the old version's
    /// reports are forgotten, except the waiting search's own.
    pub fn resume(&mut self, now: Instant) -> Result<(), Refusal> {
        let before = self.game.version();
        let resumed = self.game.resume(now);
        let version = self.game.version();
        if version != before {
            match self.job.as_mut() {
                Some(job) if job.paused.swap(false, Ordering::Relaxed) => job.version = version,
                _ => self.forget_reports(),
            }
        }
        resumed
    }

    /// Takes back moves up to the person's turn; a review of the longer game goes with them.
    pub fn undo(&mut self, now: Instant) -> Result<(), Refusal> {
        self.change(|game| game.undo(now))?;
        self.review = None;
        Ok(())
    }

    /// Makes a study edit. One that changes the main line is a change of the game (its jobs
    /// stop, its review goes); one of the annotations leaves the play and its jobs alone.
    pub fn study(&mut self, edit: StudyEdit, now: Instant) -> Result<Vec<usize>, Refusal> {
        let before = self.game.version();
        let shown = self.change(|game| game.study(edit, now))?;
        if self.game.version() != before {
            self.review = None;
        }
        Ok(shown)
    }

    /// Keeps the finished review's marks in the game as glyphs and variations
    /// ([`WebGame::keep_review`]); returns how many.
    pub fn keep_review(&mut self) -> Result<usize, Refusal> {
        let Some(review) = self.review.as_ref().filter(|r| r.finished) else {
            return Err(Refusal {
                code: "no_review",
                message: "there is no finished review to keep".into(),
            });
        };
        let marks = review.kept_marks();
        Ok(self.game.keep_review(&marks))
    }

    /// The game's record and version now, for [`GameEntry::restore`].
    pub fn snapshot(&self) -> Snapshot {
        self.game.snapshot()
    }

    /// Puts back a snapshot (a change that could not be saved); what belonged to the undone
    /// state (a hint, an analysis of it) is stale.
    pub fn restore(&mut self, snapshot: Snapshot) {
        let undone = self.game.version();
        self.game.restore(snapshot);
        if self.game.version() != undone {
            self.forget_reports();
        }
        // A pause that could not be kept: the computer's search waiting with it goes on.
        if !self.game.clock().is_some_and(|clock| clock.is_paused()) {
            let version = self.game.version();
            if let Some(job) = self.job.as_mut() {
                if job.paused.swap(false, Ordering::Relaxed) {
                    job.version = version;
                }
            }
        }
    }

    /// Notes that the game's page asked about it at `now`.
    pub fn seen(&mut self, now: Instant) {
        self.seen = now;
    }

    /// How long nobody has asked about the game.
    pub fn unseen_for(&self, now: Instant) -> Duration {
        now.saturating_duration_since(self.seen)
    }

    /// Whether the game was deleted.
    pub fn is_removed(&self) -> bool {
        self.removed
    }

    /// Marks the game deleted and stops its job.
    pub fn mark_removed(&mut self) {
        self.removed = true;
        self.cancel_job();
    }

    /// Why the last unattended change could not be saved.
    pub fn save_error(&self) -> Option<&SaveFailure> {
        self.save_error.as_ref()
    }

    /// Records the result of saving a change no request waited for.
    pub fn set_save_error(&mut self, failure: Option<SaveFailure>) {
        self.save_error = failure;
    }

    /// Claims the clock watcher of this version: `true` if none waits on it yet.
    pub fn watch_clock(&mut self) -> bool {
        if self.watched == Some(self.game.version()) {
            return false;
        }
        self.watched = Some(self.game.version());
        true
    }
}

/// The engine jobs: the running one, and what they reported.
impl GameEntry {
    /// What the running job does, if one runs.
    pub fn job_kind(&self) -> Option<JobKind> {
        self.job.as_ref().map(|job| job.kind)
    }

    /// Starts a job of `kind`, replacing the running one; its cancel and pause flags.
    pub fn begin_job(&mut self, kind: JobKind) -> (Arc<AtomicBool>, Arc<AtomicBool>) {
        self.cancel_job();
        let cancel = Arc::new(AtomicBool::new(false));
        let paused = Arc::new(AtomicBool::new(false));
        self.job = Some(Job {
            kind,
            cancel: Arc::clone(&cancel),
            paused: Arc::clone(&paused),
            version: self.game.version(),
        });
        if kind == JobKind::Review {
            self.review = Some(Review::new(self.game.rules().len(), self.review_depth));
        }
        (cancel, paused)
    }

    /// Stops the running job, if any.
    pub fn cancel_job(&mut self) {
        if let Some(job) = self.job.take() {
            job.cancel.store(true, Ordering::Relaxed);
        }
    }

    /// Whether the job with this cancel flag is the game's current one, still wanted.
    pub fn owns(&self, cancel: &Arc<AtomicBool>) -> bool {
        !cancel.load(Ordering::Relaxed)
            && self
                .job
                .as_ref()
                .is_some_and(|job| Arc::ptr_eq(&job.cancel, cancel))
    }

    /// Whether the running job is a computer's search paused with the clock.
    pub fn job_paused(&self) -> bool {
        self.job
            .as_ref()
            .is_some_and(|job| job.paused.load(Ordering::Relaxed))
    }

    /// Whether the job with this cancel flag is the current one and works for the game as it
    /// is now (no change since it began but a pause and resume that kept it).
    pub fn job_is_up_to_date(&self, cancel: &Arc<AtomicBool>) -> bool {
        self.owns(cancel)
            && self
                .job
                .as_ref()
                .is_some_and(|job| job.version == self.game.version())
    }

    /// The job with this cancel flag has ended (if it is still the current one).
    pub fn end_job(&mut self, cancel: &Arc<AtomicBool>) {
        if self.owns(cancel) {
            self.job = None;
        }
    }

    /// The engine failed: the job ends and the page is told.
    pub fn engine_failed(&mut self, cancel: &Arc<AtomicBool>) {
        if self.owns(cancel) {
            self.job = None;
            self.game.notify(Notice::EngineFailed);
        }
    }

    /// The latest search report.
    pub fn analysis(&self) -> Option<&Analysis> {
        self.analysis.as_ref()
    }

    /// A search report for the page.
    pub fn set_report(&mut self, analysis: Analysis) {
        self.analysis = Some(analysis);
    }

    /// The latest search report, to add a line to.
    pub fn report_mut(&mut self) -> Option<&mut Analysis> {
        self.analysis.as_mut()
    }

    /// How many lines an analysis shows.
    pub fn analysis_lines(&self) -> usize {
        self.analysis_lines
    }

    /// Sets how many lines an analysis shows (clamped to 1 to [`MAX_ANALYSIS_LINES`]); a
    /// running analysis starts again with them.
    pub fn set_analysis_lines(&mut self, lines: usize) {
        self.analysis_lines = lines.clamp(1, MAX_ANALYSIS_LINES);
        self.analysed_version = None;
        if self.job_kind() == Some(JobKind::Analysis) {
            self.cancel_job();
        }
    }

    /// Whether the person wants the position analysed on their turn.
    pub fn analysis_on(&self) -> bool {
        self.analysis_on
    }

    /// Turns the analysis of the person's positions on or off.
    pub fn set_analysis(&mut self, on: bool) {
        self.analysis_on = on;
        self.analysed_version = None;
        if !on && self.job_kind() == Some(JobKind::Analysis) {
            self.cancel_job();
        }
    }

    /// Whether an analysis of this version should run now.
    pub fn wants_analysis(&self) -> bool {
        self.analysis_on
            && self.game.ending().is_none()
            && self.analysed_version != Some(self.game.version())
    }

    /// The analysis of `version` ran to its end.
    pub fn analysed(&mut self, version: u64) {
        self.analysed_version = Some(version);
    }

    /// The suggested move for this version, with its score.
    pub fn hint(&self) -> Option<(Move, i32)> {
        self.hint
            .filter(|(v, m, _)| *v == self.game.version() && self.game.position().is_legal(*m))
            .map(|(_, m, score)| (m, score))
    }

    /// A hint for `version`.
    pub fn set_hint(&mut self, version: u64, m: Move, score: i32) {
        self.hint = Some((version, m, score));
    }

    /// The post-game review, once asked for.
    pub fn review(&self) -> Option<&Review> {
        self.review.as_ref()
    }

    /// Sets how hard the next review looks at each position.
    pub fn set_review_depth(&mut self, depth: ReviewDepth) {
        self.review_depth = depth;
    }

    /// The review in progress, to fill in.
    pub fn review_mut(&mut self) -> Option<&mut Review> {
        self.review.as_mut()
    }

    /// Forgets the hint and the search report (they were of another version).
    fn forget_reports(&mut self) {
        self.hint = None;
        self.analysis = None;
    }
}
