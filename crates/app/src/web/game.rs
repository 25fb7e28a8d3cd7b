//! A game as the web server keeps it: the rules' game, who plays it, its clock, and what the
//! page shows about it (the engine's job, analysis, hints, the review).
//!
//! Everything that changes a game is a method here; the HTTP handlers parse, call and render,
//! and the engine jobs hand their results to [`WebGame::play_computer`] and friends. What the
//! file records is one [`Record`], so a change that cannot be saved is undone by putting the
//! record back ([`WebGame::snapshot`], [`WebGame::restore`]). The PGN form is in
//! [`super::game_file`].

use super::clock::{Clock, Flagged, TimeControl, TimeLeft};
use super::ending::Ending;
use super::job::{Job, JobKind};
use super::report::Analysis;
use super::review::Review;
use crate::disk::DiskError;
use serde::Serialize;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use xiangqi::game::flag_outcome;
use xiangqi::{Color, DrawReason, Game, Move, Outcome, Position, WinReason};
use xiangqi_engine::strength;

/// The most plies a game may have. The rules end every game played through them long before:
/// a capture must come within 120 plies and there are 30 pieces to capture, so no such game
/// reaches 3,720 plies. This refuses records that play on after the end (a 1 MiB file can hold
/// 200,000 plies, which every answer about the game would carry).
pub const MAX_PLIES: usize = 4000;

/// The difficulty of a game when none is given (the page's default too, in settings.js).
pub const DEFAULT_LEVEL: u8 = 3;

/// Who the person at the board plays; the computer plays the other side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Human {
    /// The person plays Red.
    Red,
    /// The person plays Black.
    Black,
    /// The person moves for both sides (analysis board, or two people at one board).
    Both,
}

impl Human {
    /// Whether the person moves for `side`.
    pub fn plays(self, side: Color) -> bool {
        match self {
            Human::Red => side == Color::Red,
            Human::Black => side == Color::Black,
            Human::Both => true,
        }
    }

    /// The name used in the `Human` tag and the API.
    pub fn name(self) -> &'static str {
        match self {
            Human::Red => "red",
            Human::Black => "black",
            Human::Both => "both",
        }
    }

    /// Reads [`Human::name`].
    pub fn from_name(name: &str) -> Option<Human> {
        match name {
            "red" => Some(Human::Red),
            "black" => Some(Human::Black),
            "both" => Some(Human::Both),
            _ => None,
        }
    }
}

/// A short message for the page about what just happened, translated there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Notice {
    /// The computer accepted the person's draw offer.
    DrawAccepted,
    /// The computer declined it.
    DrawDeclined,
    /// The engine failed; the game is as it was.
    EngineFailed,
    /// The computer offers a draw (the person accepts with the draw button).
    ComputerOffersDraw,
    /// The computer resigned.
    ComputerResigns,
}

/// Why a request to change the game is refused: a reason code the page translates, and the
/// reason in English.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// A short stable name of the reason (`not_your_turn`, `horse_leg`, …).
    pub code: &'static str,
    /// The reason in English.
    pub message: String,
}

fn refuse<T>(code: &'static str, message: impl Into<String>) -> Result<T, Refusal> {
    Err(Refusal {
        code,
        message: message.into(),
    })
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

/// What the game file records.
#[derive(Clone, Debug)]
pub struct Record {
    /// Start position and moves, with the rules' verdict.
    pub game: Game,
    /// Moves taken back, the next one to replay last.
    pub redo: Vec<Move>,
    /// Who the person plays.
    pub human: Human,
    /// Difficulty 1–10.
    pub level: u8,
    /// An ending the rules do not see: resignation, an agreed draw, time, a loaded record's
    /// result.
    pub ended: Option<Ending>,
    /// Tags of an imported game kept when it is saved (Event, names, …).
    pub tags: Vec<(String, String)>,
    /// Creation, Unix seconds.
    pub created: u64,
    /// Last change, Unix seconds.
    pub updated: u64,
    /// The clock, in a game on the clock.
    pub clock: Option<Clock>,
}

/// A game's record and version, to put back when a change cannot be saved.
pub struct Snapshot {
    record: Record,
    version: u64,
}

/// A game shared between requests and engine jobs.
pub type SharedGame = Arc<Mutex<WebGame>>;

/// Locks a mutex even if a thread panicked while holding it: a game's state is only changed
/// through whole operations, so the data stays usable.
pub fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A version number never used before in this process.
fn next_version() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// A game with everything the page shows about it.
#[derive(Debug)]
pub struct WebGame {
    id: String,
    rec: Record,
    /// Names this state of the game: a new, never used number after every change and when the
    /// game is read from disk, so the page redraws when it moves on and a move sent for an
    /// older state is refused.
    version: u64,
    job: Option<Job>,
    /// The latest search report (the computer's thinking or an analysis).
    analysis: Option<Analysis>,
    analysis_on: bool,
    /// The version for which an analysis ran to its end (not started again for it).
    analysed_version: Option<u64>,
    /// A suggested move and its score, for the version it belongs to.
    hint: Option<(u64, Move, i32)>,
    notice: Option<(u64, Notice)>,
    review: Option<Review>,
    /// Why the last change no request waited for (the computer's move, an accepted draw, a
    /// flag) could not be saved; that change was undone, and the computer waits for a retry.
    save_error: Option<SaveFailure>,
    /// The version whose clock a watcher waits on (one watcher per version).
    watched: Option<u64>,
    /// When a request last asked about the game (its page is there while it asks).
    seen: Instant,
    /// The computer's evaluations (for itself) after its last moves, newest last.
    computer_scores: Vec<i32>,
    /// The version at which the computer offered a draw (the offer stands until the game
    /// moves on).
    draw_offer: Option<u64>,
    /// Deleted: nothing may change, save or search it any more.
    removed: bool,
}

impl WebGame {
    /// A new game from `start`, on `clock` (Red's and Black's controls) if given; the clock
    /// starts at once.
    pub fn new(
        id: String,
        start: Position,
        human: Human,
        level: u8,
        clock: Option<[TimeControl; 2]>,
        now: Instant,
    ) -> WebGame {
        let created = unix_now();
        let clock = clock.map(|[red, black]| {
            let mut clock = Clock::new(red, black);
            clock.start(now);
            clock
        });
        WebGame::with_record(
            id,
            Record {
                game: Game::new(start),
                redo: Vec::new(),
                human,
                level: level.clamp(strength::MIN_LEVEL, strength::MAX_LEVEL),
                ended: None,
                tags: Vec::new(),
                created,
                updated: created,
                clock,
            },
        )
    }

    /// A game of this record (read back from a file).
    pub fn with_record(id: String, rec: Record) -> WebGame {
        WebGame {
            id,
            rec,
            version: next_version(),
            job: None,
            analysis: None,
            analysis_on: false,
            analysed_version: None,
            hint: None,
            notice: None,
            review: None,
            save_error: None,
            watched: None,
            seen: Instant::now(),
            computer_scores: Vec::new(),
            draw_offer: None,
            removed: false,
        }
    }

    /// The id: letters, digits and `-` only (it names the file).
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Notes that the game's page asked about it at `now`.
    pub fn seen(&mut self, now: Instant) {
        self.seen = now;
    }

    /// How long nobody has asked about the game.
    pub fn unseen_for(&self, now: Instant) -> Duration {
        now.saturating_duration_since(self.seen)
    }

    /// Gives a new game another id (its first choice was taken). Only for a game not yet in
    /// the store.
    pub fn set_id(&mut self, id: String) {
        self.id = id;
    }

    /// What the file records.
    pub fn record(&self) -> &Record {
        &self.rec
    }

    /// Sets the time of the last change (a file's modification time when read back; never
    /// before the game was made).
    pub fn set_updated(&mut self, unix_seconds: u64) {
        self.rec.updated = unix_seconds.max(self.rec.created);
    }

    /// Sets a tag of the game's record (kept in its file).
    pub fn set_tag(&mut self, name: &str, value: &str) {
        self.rec.tags.retain(|(n, _)| n != name);
        self.rec.tags.push((name.to_owned(), value.to_owned()));
    }

    /// Dates a loaded game from now: it is a new game of the person's.
    pub fn set_created_now(&mut self) {
        let now = unix_now();
        self.rec.created = now;
        self.rec.updated = now;
    }

    /// The current version.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// The rules' game.
    pub fn game(&self) -> &Game {
        &self.rec.game
    }

    /// The position now.
    pub fn position(&self) -> &Position {
        self.rec.game.position()
    }

    /// Who the person plays.
    pub fn human(&self) -> Human {
        self.rec.human
    }

    /// The computer's difficulty.
    pub fn level(&self) -> u8 {
        self.rec.level
    }

    /// Moves that redo would replay.
    pub fn redo_len(&self) -> usize {
        self.rec.redo.len()
    }

    /// The clock, in a game on the clock.
    pub fn clock(&self) -> Option<&Clock> {
        self.rec.clock.as_ref()
    }

    /// Each side's time left now, in a game on the clock.
    pub fn time_left(&self, now: Instant) -> Option<[TimeLeft; 2]> {
        let clock = self.rec.clock.as_ref()?;
        let to_move = self.position().side_to_move();
        Some([
            clock.time_left(Color::Red, to_move, now),
            clock.time_left(Color::Black, to_move, now),
        ])
    }

    /// When the side to move's time runs out, if it runs.
    pub fn deadline(&self) -> Option<Instant> {
        let to_move = self.position().side_to_move();
        self.rec.clock.as_ref()?.deadline(to_move)
    }

    /// How the game ended, if it did.
    pub fn ending(&self) -> Option<Ending> {
        self.rec
            .ended
            .or_else(|| self.rec.game.outcome().map(Ending::Outcome))
    }

    /// Whether the computer is to move now (and may: not while the clock is paused, nor after
    /// its last move could not be saved).
    pub fn computer_to_move(&self) -> bool {
        self.ending().is_none()
            && self.rec.game.len() < MAX_PLIES
            && !self.rec.human.plays(self.position().side_to_move())
            && !self.rec.clock.as_ref().is_some_and(Clock::is_paused)
    }

    /// Whether the game was deleted.
    pub fn is_removed(&self) -> bool {
        self.removed
    }

    /// What the running job does, if one runs.
    pub fn job_kind(&self) -> Option<JobKind> {
        self.job.as_ref().map(|job| job.kind)
    }

    /// The latest search report.
    pub fn analysis(&self) -> Option<&Analysis> {
        self.analysis.as_ref()
    }

    /// Whether the person wants the position analysed on their turn.
    pub fn analysis_on(&self) -> bool {
        self.analysis_on
    }

    /// Whether an analysis of this version should run now.
    pub fn wants_analysis(&self) -> bool {
        self.analysis_on && self.ending().is_none() && self.analysed_version != Some(self.version)
    }

    /// The suggested move for this version, with its score.
    pub fn hint(&self) -> Option<(Move, i32)> {
        self.hint
            .filter(|(v, m, _)| *v == self.version && self.position().is_legal(*m))
            .map(|(_, m, score)| (m, score))
    }

    /// The notice of this version, if any.
    pub fn notice(&self) -> Option<Notice> {
        self.notice
            .filter(|(v, _)| *v == self.version)
            .map(|(_, n)| n)
    }

    /// The post-game review, once asked for.
    pub fn review(&self) -> Option<&Review> {
        self.review.as_ref()
    }

    /// Why the last unattended change could not be saved.
    pub fn save_error(&self) -> Option<&SaveFailure> {
        self.save_error.as_ref()
    }

    /// The record and version now, for [`WebGame::restore`].
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            record: self.rec.clone(),
            version: self.version,
        }
    }

    /// Puts back a snapshot: the game is again what it was when it was taken.
    pub fn restore(&mut self, snapshot: Snapshot) {
        if snapshot.version != self.version {
            // What belonged to the undone state (a hint, an analysis of it) is stale.
            self.hint = None;
            self.analysis = None;
        }
        self.rec = snapshot.record;
        self.version = snapshot.version;
    }

    /// Records a change: new version, time stamp, and forgets what belonged to the old one.
    fn touch(&mut self) {
        self.version = next_version();
        self.rec.updated = unix_now();
        self.hint = None;
        self.analysis = None;
    }

    fn refuse_if_over(&self) -> Result<(), Refusal> {
        match self.ending() {
            Some(ending) => refuse("game_over", format!("the game is over ({ending})")),
            None => Ok(()),
        }
    }

    fn refuse_if_paused(&self) -> Result<(), Refusal> {
        if self.rec.clock.as_ref().is_some_and(Clock::is_paused) {
            return refuse("paused", "the clock is paused: resume the game first");
        }
        Ok(())
    }

    /// Plays `m` for the side to move and presses its clock. A move made after the mover's
    /// time ran out is not played: the game ends on time instead. The caller has checked that
    /// `m` is legal.
    fn push(&mut self, m: Move, now: Instant) -> Result<(), Refusal> {
        if !self.position().is_legal(m) {
            return refuse("illegal", format!("{m} is not legal here"));
        }
        let mover = self.position().side_to_move();
        if let Some(clock) = self.rec.clock.as_mut() {
            if let Err(Flagged(side)) = clock.press(mover, now) {
                self.end(flag_outcome(self.rec.game.position(), side), now);
                return Ok(());
            }
        }
        if let Err(e) = self.rec.game.play(m) {
            return refuse("illegal", e.to_string());
        }
        if self.rec.redo.last() == Some(&m) {
            self.rec.redo.pop();
        } else {
            self.rec.redo.clear();
        }
        if self.ending().is_some() {
            let to_move = self.position().side_to_move();
            if let Some(clock) = self.rec.clock.as_mut() {
                clock.stop(to_move, now);
            }
        }
        Ok(())
    }

    /// Ends the game with `outcome` and stops the clock.
    fn end(&mut self, outcome: Outcome, now: Instant) {
        let to_move = self.position().side_to_move();
        if let Some(clock) = self.rec.clock.as_mut() {
            clock.stop(to_move, now);
        }
        self.rec.ended = Some(Ending::Outcome(outcome));
        self.touch();
    }

    /// The person's move `m`, sent for `version` (if given).
    pub fn play(&mut self, m: Move, version: Option<u64>, now: Instant) -> Result<(), Refusal> {
        if version.is_some_and(|v| v != self.version) {
            return refuse("stale", "the game has changed since this page last saw it");
        }
        self.refuse_if_over()?;
        if self.rec.game.len() >= MAX_PLIES {
            return refuse(
                "too_long",
                format!("the game has reached {MAX_PLIES} plies, the most a game may have"),
            );
        }
        self.refuse_if_paused()?;
        let pos = self.position();
        if !self.rec.human.plays(pos.side_to_move()) {
            return refuse("not_your_turn", "wait for the computer's move");
        }
        if let Some(reason) = pos.why_illegal(m) {
            return refuse(reason.code(), reason.to_string());
        }
        self.cancel_job();
        let pushed = self.push(m, now);
        self.touch();
        pushed
    }

    /// The computer's move `m`, found at `now`.
    pub fn play_computer(&mut self, m: Move, now: Instant) -> Result<(), Refusal> {
        self.refuse_if_over()?;
        if !self.position().is_legal(m) {
            return refuse(
                "engine_failed",
                format!("the engine's move {m} is not legal"),
            );
        }
        self.job = None;
        let pushed = self.push(m, now);
        // The computer's report stays on screen after its move.
        let report = self.analysis.take();
        self.touch();
        self.analysis = report;
        pushed
    }

    /// How many plies to take back so that it is the person's turn again (at least one).
    fn undo_count(&self) -> usize {
        let mut game = self.rec.game.clone();
        let mut n = 0;
        while game.undo().is_some() {
            n += 1;
            if self.rec.human.plays(game.position().side_to_move()) {
                break;
            }
        }
        n
    }

    /// Takes back moves up to the person's turn (one ply on a board where they play both).
    pub fn undo(&mut self, now: Instant) -> Result<(), Refusal> {
        if self.rec.game.is_empty() {
            return refuse("nothing_to_undo", "no move to take back");
        }
        self.cancel_job();
        let plies = self.undo_count();
        for _ in 0..plies {
            if let Some(m) = self.rec.game.undo() {
                self.rec.redo.push(m);
            }
        }
        let first_mover = self.rec.game.start().side_to_move();
        if let Some(clock) = self.rec.clock.as_mut() {
            clock.undo(plies, first_mover, now);
        }
        self.computer_scores.clear();
        self.rec.ended = None;
        self.review = None;
        self.touch();
        Ok(())
    }

    /// Replays the moves taken back, the person's and the computer's answer.
    pub fn redo(&mut self, now: Instant) -> Result<(), Refusal> {
        if self.rec.redo.is_empty() {
            return refuse("nothing_to_redo", "no move to replay");
        }
        self.refuse_if_over()?;
        self.refuse_if_paused()?;
        self.cancel_job();
        while let Some(&m) = self.rec.redo.last() {
            if !self.position().is_legal(m) {
                self.rec.redo.clear();
                break;
            }
            if self.push(m, now).is_err() {
                break;
            }
            let side = self.position().side_to_move();
            if self.rec.human.plays(side) || self.ending().is_some() {
                break;
            }
        }
        self.touch();
        Ok(())
    }

    /// The person resigns (on a board where they play both, the side to move resigns).
    pub fn resign(&mut self, now: Instant) -> Result<(), Refusal> {
        self.refuse_if_over()?;
        let side = self.position().side_to_move();
        let loser = match self.rec.human {
            Human::Red => Color::Red,
            Human::Black => Color::Black,
            Human::Both => side,
        };
        self.cancel_job();
        self.end(
            Outcome::Win {
                winner: loser.other(),
                reason: WinReason::Resignation,
            },
            now,
        );
        Ok(())
    }

    /// The computer's answer to a draw offer: `accept` ends the game drawn.
    pub fn answer_draw_offer(&mut self, accept: bool, now: Instant) {
        if accept && self.ending().is_none() {
            self.end(Outcome::Draw(DrawReason::Agreement), now);
            self.notice = Some((self.version, Notice::DrawAccepted));
        } else {
            self.notice = Some((self.version, Notice::DrawDeclined));
        }
    }

    /// Ends the game if the side to move's time has run out at `now`; whether it did.
    pub fn flag_if_due(&mut self, now: Instant) -> bool {
        let to_move = self.position().side_to_move();
        let fallen = self.ending().is_none()
            && self
                .rec
                .clock
                .as_ref()
                .is_some_and(|clock| clock.is_flagged(to_move, now));
        if fallen {
            self.cancel_job();
            self.end(flag_outcome(self.position(), to_move), now);
        }
        fallen
    }

    /// Pauses the clock (and the computer's thinking).
    pub fn pause(&mut self, now: Instant) -> Result<(), Refusal> {
        self.refuse_if_over()?;
        let to_move = self.position().side_to_move();
        let Some(clock) = self.rec.clock.as_mut() else {
            return refuse("no_clock", "this game has no clock");
        };
        if !clock.is_paused() {
            clock.pause(to_move, now);
            self.cancel_job();
            self.touch();
        }
        Ok(())
    }

    /// Restarts the clock after a pause.
    pub fn resume(&mut self, now: Instant) -> Result<(), Refusal> {
        self.refuse_if_over()?;
        let Some(clock) = self.rec.clock.as_mut() else {
            return refuse("no_clock", "this game has no clock");
        };
        if clock.is_paused() {
            clock.resume(now);
            self.touch();
        }
        Ok(())
    }

    /// Sets the difficulty; whether it changed.
    pub fn set_level(&mut self, level: u8) -> bool {
        let changed = self.rec.level != level;
        self.rec.level = level;
        changed
    }

    /// Turns the analysis of the person's positions on or off.
    pub fn set_analysis(&mut self, on: bool) {
        self.analysis_on = on;
        self.analysed_version = None;
        if !on && self.job_kind() == Some(JobKind::Analysis) {
            self.cancel_job();
        }
    }

    /// Records the result of saving a change no request waited for.
    pub fn set_save_error(&mut self, failure: Option<SaveFailure>) {
        self.save_error = failure;
    }

    /// Marks the game deleted and stops its job.
    pub fn mark_removed(&mut self) {
        self.removed = true;
        self.cancel_job();
    }

    /// Starts a job of `kind`, replacing the running one; its cancel flag.
    pub fn begin_job(&mut self, kind: JobKind) -> Arc<AtomicBool> {
        self.cancel_job();
        let cancel = Arc::new(AtomicBool::new(false));
        self.job = Some(Job {
            kind,
            cancel: Arc::clone(&cancel),
        });
        if kind == JobKind::Review {
            self.review = Some(Review::new(self.rec.game.len()));
        }
        cancel
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
            self.notice = Some((self.version, Notice::EngineFailed));
        }
    }

    /// The computer's evaluations after its last moves, newest last.
    pub fn computer_scores(&self) -> &[i32] {
        &self.computer_scores
    }

    /// Remembers the computer's evaluation of its move (a few are kept).
    pub fn note_computer_score(&mut self, score: i32) {
        self.computer_scores.push(score);
        let excess = self.computer_scores.len().saturating_sub(8);
        self.computer_scores.drain(..excess);
    }

    /// The computer resigns: the person wins.
    pub fn computer_resigns(&mut self, now: Instant) {
        let computer = self.position().side_to_move();
        self.cancel_job();
        self.end(
            Outcome::Win {
                winner: computer.other(),
                reason: WinReason::Resignation,
            },
            now,
        );
        self.notice = Some((self.version, Notice::ComputerResigns));
    }

    /// The computer offers a draw, for the person's next move.
    pub fn offer_draw_to_person(&mut self) {
        self.draw_offer = Some(self.version);
        self.notice = Some((self.version, Notice::ComputerOffersDraw));
    }

    /// Whether the computer's draw offer stands.
    pub fn draw_offer_open(&self) -> bool {
        self.draw_offer == Some(self.version) && self.ending().is_none()
    }

    /// The person accepts the computer's draw offer.
    pub fn accept_draw_offer(&mut self, now: Instant) -> Result<(), Refusal> {
        if !self.draw_offer_open() {
            return refuse("no_offer", "the computer has not offered a draw");
        }
        self.cancel_job();
        self.end(Outcome::Draw(DrawReason::Agreement), now);
        Ok(())
    }

    /// Tells the page `notice` about this version.
    pub fn notify(&mut self, notice: Notice) {
        self.notice = Some((self.version, notice));
    }

    /// A search report for the page.
    pub fn set_report(&mut self, analysis: Analysis) {
        self.analysis = Some(analysis);
    }

    /// The analysis of `version` ran to its end.
    pub fn analysed(&mut self, version: u64) {
        self.analysed_version = Some(version);
    }

    /// A hint for `version`.
    pub fn set_hint(&mut self, version: u64, m: Move, score: i32) {
        self.hint = Some((version, m, score));
    }

    /// The review in progress, to fill in.
    pub fn review_mut(&mut self) -> Option<&mut Review> {
        self.review.as_mut()
    }

    /// Claims the clock watcher of this version: `true` if none waits on it yet.
    pub fn watch_clock(&mut self) -> bool {
        if self.watched == Some(self.version) {
            return false;
        }
        self.watched = Some(self.version);
        true
    }

    /// The engine's clock for the side to move at `now`, in a game on the clock.
    pub fn engine_clock(&self, now: Instant) -> Option<xiangqi_engine::Clock> {
        let clock = self.rec.clock.as_ref()?;
        let to_move = self.position().side_to_move();
        let left = clock.time_left(to_move, to_move, now);
        let control = clock.control(to_move);
        let main = std::time::Duration::from_millis(left.main_ms);
        let period = left
            .byoyomi_ms
            .map_or(control.byoyomi, std::time::Duration::from_millis);
        Some(xiangqi_engine::Clock {
            byoyomi: period,
            ..xiangqi_engine::Clock::new(main, control.increment)
        })
    }
}

/// Seconds since 1970.
pub fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}
