//! A game as the person plays it, and nothing else: the rules' game, who plays it, its level,
//! its clock and how it ended, with every change a method that refuses what the rules of play
//! do not allow. It knows nothing of engine jobs, storage or JSON: `crate::entry` holds a game
//! with its jobs' state, the web server's store saves it, `crate::view` shows it.
//!
//! What the file records is one [`Record`], so a change that cannot be saved is undone by
//! putting the record back ([`WebGame::snapshot`], [`WebGame::restore`]); the PGN form is in
//! `crate::game_file`. The methods are grouped by concern: moves and taking them back
//! (`moves`), the ways a game ends (`end`), and the clock (`time`).

mod end;
mod moves;
pub mod study;
mod time;
pub mod tree;

use crate::clock::{Clock, TimeControl};
use crate::ending::Ending;
use serde::Serialize;
use std::sync::atomic::{AtomicU64, Ordering};
use xiangqi::pgn::RecordMove;
use xiangqi::{Color, Game, Position};
use xiangqi_engine::instant::Instant;
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

/// What the game file records.
#[derive(Clone, Debug)]
pub struct Record {
    /// Start position and moves, with the rules' verdict.
    pub game: Game,
    /// The main line with its comments, glyphs and variations ([`tree`]): the moves of
    /// `game`, then the moves taken back that redo would replay.
    pub line: Vec<RecordMove>,
    /// The comment before the first move.
    pub initial_comment: Option<String>,
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
    revision: u64,
}

/// A version number never used before in this process.
fn next_version() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// A game as the person plays it: what its file records, and the state of play around it (the
/// version the page acts on, the computer's draw offer and recent scores, a notice).
#[derive(Debug)]
pub struct WebGame {
    id: String,
    rec: Record,
    /// Names this state of the game: a new, never used number after every change and when the
    /// game is read from disk, so the page redraws when it moves on and a move sent for an
    /// older state is refused.
    version: u64,
    notice: Option<(u64, Notice)>,
    /// Names the state of the comments, glyphs and variations off the main line: a new
    /// number after each change of them. They leave the play alone, so they do not make a new
    /// [`WebGame::version`] (which would stop the computer's search).
    revision: u64,
    /// The computer's evaluations (for itself) after its last moves, newest last.
    computer_scores: Vec<i32>,
    /// The version at which the computer offered a draw (the offer stands until the game
    /// moves on).
    draw_offer: Option<u64>,
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
                line: Vec::new(),
                initial_comment: None,
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
            revision: next_version(),
            notice: None,
            computer_scores: Vec::new(),
            draw_offer: None,
        }
    }

    /// The id: letters, digits and `-` only (it names the file).
    pub fn id(&self) -> &str {
        &self.id
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

    /// The rules' game: its start, moves and verdicts.
    pub fn rules(&self) -> &Game {
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
        self.rec.line.len() - self.rec.game.len()
    }

    /// The state of the annotations (see the field).
    pub fn revision(&self) -> u64 {
        self.revision
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

    /// The notice of this version, if any.
    pub fn notice(&self) -> Option<Notice> {
        self.notice
            .filter(|(v, _)| *v == self.version)
            .map(|(_, n)| n)
    }

    /// The record and version now, for [`WebGame::restore`].
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            record: self.rec.clone(),
            version: self.version,
            revision: self.revision,
        }
    }

    /// Puts back a snapshot: the game is again what it was when it was taken.
    pub fn restore(&mut self, snapshot: Snapshot) {
        self.rec = snapshot.record;
        self.version = snapshot.version;
        self.revision = snapshot.revision;
    }

    /// Sets the difficulty; whether it changed.
    pub fn set_level(&mut self, level: u8) -> bool {
        let changed = self.rec.level != level;
        self.rec.level = level;
        changed
    }

    /// Tells the page `notice` about this version.
    pub fn notify(&mut self, notice: Notice) {
        self.notice = Some((self.version, notice));
    }

    /// Records a change: a new version and time stamp.
    fn touch(&mut self) {
        self.version = next_version();
        self.rec.updated = unix_now();
    }

    /// Refuses a change once the game is over.
    fn refuse_if_over(&self) -> Result<(), Refusal> {
        match self.ending() {
            Some(ending) => refuse("game_over", format!("the game is over ({ending})")),
            None => Ok(()),
        }
    }

    /// Refuses a move while the clock is paused.
    fn refuse_if_paused(&self) -> Result<(), Refusal> {
        if self.rec.clock.as_ref().is_some_and(Clock::is_paused) {
            return refuse("paused", "the clock is paused: resume the game first");
        }
        Ok(())
    }
}

/// Seconds since 1970.
pub fn unix_now() -> u64 {
    xiangqi_engine::instant::unix_seconds()
}
