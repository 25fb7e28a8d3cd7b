//! A game as the server keeps it: the rules' game, who plays it, and what the page shows about
//! it (the engine's job, analysis, hints, the review). [`super::store`] keeps them on disk.
//!
//! A game file is ordinary Xiangqi PGN (Chinese notation) with a few tags of this program:
//! `Human` (`red`, `black` or `both`), `Level` (1–10), `Termination` (why the game ended),
//! `Redo` (moves taken back that redo would replay, ICCS) and `Created` (Unix seconds).

use super::disk::DiskError;
use super::search::{Analysis, JobKind, Review};
use crate::dates::{civil_from_days, pgn_date};
use xiangqi::pgn::{write_pgn, GameRecord, NotationCodec, RecordMove};
use xiangqi::{Color, DrawReason, Game, Move, Notation, Outcome, Position, WinReason};
use xiangqi_engine::strength;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{SystemTime, UNIX_EPOCH};

/// The most plies a game may have. The rules end every game played through them long before:
/// a capture must come within 120 plies and there are 30 pieces to capture, so no such game
/// reaches 3,720 plies. This refuses records that play on after the end (a 1 MiB file can hold
/// 200,000 plies, which every answer about the game would carry).
pub const MAX_PLIES: usize = 4000;

/// The difficulty of a game when none is given (the page's default too, in settings.js).
pub const DEFAULT_LEVEL: u8 = 3;

/// Who the person at the board plays; the computer plays the other side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Human {
    /// The person plays Red.
    Red,
    /// The person plays Black.
    Black,
    /// The person moves for both sides (analysis board); the computer never moves.
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

    fn from_name(name: &str) -> Option<Human> {
        match name {
            "red" => Some(Human::Red),
            "black" => Some(Human::Black),
            "both" => Some(Human::Both),
            _ => None,
        }
    }
}

/// The running engine job of a game, if any.
#[derive(Debug)]
pub struct Job {
    /// What it does.
    pub kind: JobKind,
    /// Set to stop it; a stopped job changes nothing.
    pub cancel: Arc<AtomicBool>,
}

/// A game with everything the page shows about it.
#[derive(Debug)]
pub struct GameEntry {
    /// The id: letters, digits and `-` only (it names the file).
    pub id: String,
    /// Start position and moves, with the rules' verdict.
    pub game: Game,
    /// Moves taken back, last taken back first in line to be replayed (a stack: the next
    /// move to redo is the last element).
    pub redo: Vec<Move>,
    /// Who the person plays.
    pub human: Human,
    /// Difficulty 1–10.
    pub level: u8,
    /// An ending the rules do not see: resignation or an agreed draw.
    pub ended: Option<Outcome>,
    /// Tags of an imported game kept when it is saved (Event, names, …).
    pub tags: Vec<(String, String)>,
    /// Creation and last change, Unix seconds.
    pub created: u64,
    /// Last change, Unix seconds.
    pub updated: u64,
    /// Names this state of the game (moves, settings): a new, never used number after every
    /// change and when the game is read from disk, so the page redraws when it moves on and
    /// a move sent for an older state is refused.
    pub version: u64,
    /// The engine job running for this game.
    pub job: Option<Job>,
    /// The latest search report (the computer's thinking or an analysis).
    pub analysis: Option<Analysis>,
    /// Whether the person wants the position analysed while it is their turn.
    pub analysis_on: bool,
    /// The version for which an analysis ran to its end (not started again for it).
    pub analysed_version: Option<u64>,
    /// A suggested move for the current version.
    pub hint: Option<(u64, Move, i32)>,
    /// A short message for the page (draw declined, …), with the version it belongs to.
    pub notice: Option<(u64, String)>,
    /// The post-game review, once asked for.
    pub review: Option<Review>,
    /// Why the last change that no request was waiting for (the computer's move, an accepted
    /// draw) could not be saved; that change was undone. The computer does not move again
    /// until the person asks to retry.
    pub save_error: Option<SaveFailure>,
    /// The game was deleted: nothing may change, save or search it any more.
    pub removed: bool,
}

/// A change that could not be saved, as the page shows it.
#[derive(Clone, Debug, serde::Serialize)]
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

/// What a change of a game may alter and the file records, kept to undo a change that could
/// not be saved.
pub struct Saved {
    game: Game,
    redo: Vec<Move>,
    human: Human,
    level: u8,
    ended: Option<Outcome>,
    tags: Vec<(String, String)>,
    created: u64,
    updated: u64,
    version: u64,
}

/// A version number never used before in this process.
fn next_version() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

impl GameEntry {
    /// A new game from `start`.
    pub fn new(id: String, start: Position, human: Human, level: u8) -> GameEntry {
        let now = unix_now();
        GameEntry {
            id,
            game: Game::new(start),
            redo: Vec::new(),
            human,
            level: level.clamp(strength::MIN_LEVEL, strength::MAX_LEVEL),
            ended: None,
            tags: Vec::new(),
            created: now,
            updated: now,
            version: next_version(),
            job: None,
            analysis: None,
            analysis_on: false,
            analysed_version: None,
            hint: None,
            notice: None,
            review: None,
            save_error: None,
            removed: false,
        }
    }

    /// The recorded state, to put back with [`GameEntry::restore`].
    pub fn saved(&self) -> Saved {
        Saved {
            game: self.game.clone(),
            redo: self.redo.clone(),
            human: self.human,
            level: self.level,
            ended: self.ended,
            tags: self.tags.clone(),
            created: self.created,
            updated: self.updated,
            version: self.version,
        }
    }

    /// Puts back a recorded state: the game is again what it was when `saved` was taken.
    pub fn restore(&mut self, saved: Saved) {
        let version = self.version;
        self.game = saved.game;
        self.redo = saved.redo;
        self.human = saved.human;
        self.level = saved.level;
        self.ended = saved.ended;
        self.tags = saved.tags;
        self.created = saved.created;
        self.updated = saved.updated;
        self.version = saved.version;
        if version != self.version {
            // What belonged to the undone state (a hint, an analysis of it) is stale.
            self.hint = None;
            self.analysis = None;
        }
    }

    /// How the game ended, if it did.
    pub fn outcome(&self) -> Option<Outcome> {
        self.ended.or_else(|| self.game.outcome())
    }

    /// Whether the computer is to move now.
    pub fn computer_to_move(&self) -> bool {
        self.outcome().is_none()
            && self.game.len() < MAX_PLIES
            && !self.human.plays(self.game.position().side_to_move())
    }

    /// Stops the running job, if any.
    pub fn cancel_job(&mut self) {
        if let Some(job) = self.job.take() {
            job.cancel.store(true, Ordering::Relaxed);
        }
    }

    /// Records a change: new version, time stamp, and forgets what belonged to the old one.
    pub fn touch(&mut self) {
        self.version = next_version();
        self.updated = unix_now();
        self.hint = None;
        self.analysis = None;
    }

    /// The PGN record of the game, with this program's tags.
    pub fn record(&self) -> GameRecord {
        let mut record = GameRecord::new(self.game.start().clone());
        for (name, value) in &self.tags {
            record.set_tag(name, value);
        }
        let computer = format!("xiangqi (level {})", self.level);
        let (red, black) = match self.human {
            Human::Red => ("Player".to_owned(), computer),
            Human::Black => (computer, "Player".to_owned()),
            Human::Both => ("Player".to_owned(), "Player".to_owned()),
        };
        if record.tag("Red").is_none_or(|v| v == "?") {
            record.set_tag("Red", &red);
        }
        if record.tag("Black").is_none_or(|v| v == "?") {
            record.set_tag("Black", &black);
        }
        if record.tag("Event").is_none_or(|v| v == "?") {
            record.set_tag("Event", "Game against the computer");
        }
        if record.tag("Date").is_none_or(|v| v.contains('?')) {
            record.set_tag("Date", &pgn_date(self.created));
        }
        record.set_tag("Human", self.human.name());
        record.set_tag("Level", &self.level.to_string());
        record.set_tag("Created", &self.created.to_string());
        let redo: Vec<String> = self.redo.iter().map(Move::to_string).collect();
        record.set_tag("Redo", &redo.join(" "));
        let outcome = self.outcome();
        record.set_tag("Termination", outcome.map_or("", termination_name));
        record.result = outcome.map(|o| o.pgn_result().to_owned());
        record.moves = self.game.moves().map(RecordMove::new).collect();
        record
    }

    /// The game as PGN text with moves in `notation`.
    pub fn pgn(&self, notation: Notation) -> String {
        let format = match notation {
            Notation::Wxf => "WXF",
            Notation::Iccs | Notation::IccsPgn | Notation::UciRanks1To10 => "ICCS",
            Notation::Chinese => "Chinese",
        };
        let notation = match notation {
            Notation::Iccs | Notation::UciRanks1To10 => Notation::IccsPgn,
            other => other,
        };
        write_pgn(&self.record(), &NotationCodec(notation), format)
    }

    /// A game from a PGN record (a saved game or an imported file). Moves the rules refuse end
    /// the game there; program tags that are missing get defaults.
    pub fn from_record(id: String, record: &GameRecord, human: Option<Human>) -> GameEntry {
        let mut game = Game::new(record.start.clone());
        for m in record.moves.iter().take(MAX_PLIES) {
            if game.play_unchecked_outcome(m.mv).is_err() {
                break;
            }
        }
        let side = game.position().side_to_move();
        let human = human
            .or_else(|| record.tag("Human").and_then(Human::from_name))
            .unwrap_or(if side == Color::Red {
                Human::Red
            } else {
                Human::Black
            });
        let level = record
            .tag("Level")
            .and_then(|l| l.parse::<u8>().ok())
            .unwrap_or(DEFAULT_LEVEL);
        let mut entry = GameEntry::new(id, record.start.clone(), human, level);
        entry.game = game;
        if let Some(created) = record.tag("Created").and_then(|c| c.parse().ok()) {
            entry.created = created;
            entry.updated = created;
        }
        entry.redo = parse_redo(&entry.game, record.tag("Redo").unwrap_or(""));
        if entry.game.outcome().is_none() {
            entry.ended = recorded_ending(record);
        }
        const OWN: [&str; 6] = ["Human", "Level", "Created", "Redo", "Termination", "Result"];
        entry.tags = record
            .tags
            .iter()
            .filter(|(k, _)| !OWN.contains(&k.as_str()) && k != "Game")
            .cloned()
            .collect();
        entry
    }
}

/// Keeps only the redo moves that replay legally from the end of `game`.
fn parse_redo(game: &Game, text: &str) -> Vec<Move> {
    let mut pos = game.position().clone();
    let mut moves = Vec::new();
    // The tag lists the stack bottom first: the next move to replay is the last one.
    let listed: Vec<Move> = text.split_whitespace().filter_map(iccs_move).collect();
    // Redone, the game may not grow past the cap: keep the moves next in line.
    let room = MAX_PLIES.saturating_sub(game.len());
    let listed = &listed[listed.len().saturating_sub(room)..];
    // Check them in replay order (last first).
    for &m in listed.iter().rev() {
        if !pos.is_legal(m) {
            break;
        }
        pos.make_move(m);
        moves.push(m);
    }
    moves.reverse();
    moves
}

/// A move written `h2e2`, legal or not.
pub fn iccs_move(text: &str) -> Option<Move> {
    let from = text.get(..2)?.parse().ok()?;
    let to = text.get(2..)?.parse().ok()?;
    Some(Move::new(from, to))
}

/// The ending a record states when the rules do not end its game.
fn recorded_ending(record: &GameRecord) -> Option<Outcome> {
    let result = record.result.as_deref()?;
    let termination = record.tag("Termination").unwrap_or("");
    let winner = match result {
        "1-0" => Color::Red,
        "0-1" => Color::Black,
        _ => return Some(Outcome::Draw(DrawReason::Agreement)),
    };
    let reason = match termination {
        "timeout" => WinReason::Timeout,
        "illegal move" => WinReason::IllegalMove,
        _ => WinReason::Resignation,
    };
    Some(Outcome::Win { winner, reason })
}

/// The `Termination` tag value (and API reason) of an outcome.
pub fn termination_name(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Win { reason, .. } => match reason {
            WinReason::Checkmate => "checkmate",
            WinReason::Stalemate => "stalemate",
            WinReason::PerpetualCheck => "perpetual check",
            WinReason::PerpetualChase => "perpetual chase",
            WinReason::Resignation => "resignation",
            WinReason::Timeout => "timeout",
            WinReason::IllegalMove => "illegal move",
        },
        Outcome::Draw(reason) => match reason {
            DrawReason::Repetition => "repetition",
            DrawReason::NoCaptureLimit => "60-move rule",
            DrawReason::InsufficientMaterial => "insufficient material",
            DrawReason::Agreement => "agreement",
        },
    }
}

/// Locks a mutex even if a thread panicked while holding it: a game's state is only changed
/// through whole operations, so the data stays usable.
pub fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A game shared between requests and engine jobs.
pub type SharedEntry = Arc<Mutex<GameEntry>>;

/// Whether `id` could be a game id: 1–64 ASCII letters, digits and `-`.
pub fn is_valid_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 64 && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

/// A new game id: the UTC date and time, then a counter and some clock bits so that ids made
/// in the same second differ (`20260321-154500-1a2b3`).
pub fn new_id() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    let secs = now.as_secs();
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    let t = secs % 86_400;
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let salt = (now.subsec_nanos() as u64 ^ (n << 20)) & 0xF_FFFF;
    format!(
        "{y:04}{m:02}{d:02}-{:02}{:02}{:02}-{salt:05x}",
        t / 3600,
        t / 60 % 60,
        t % 60
    )
}

/// Seconds since 1970.
pub fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}
