//! The game store: every game in memory, each saved as a PGN file in the data directory after
//! every change (temporary file, flush, rename), and read back when the server starts.
//!
//! A game file is ordinary Xiangqi PGN (Chinese notation) with a few tags of this program:
//! `Human` (`red`, `black` or `both`), `Level` (1–10), `Termination` (why the game ended),
//! `Redo` (moves taken back that redo would replay, ICCS) and `Created` (Unix seconds).

use super::search::{Analysis, JobKind, Review};
use xiangqi::pgn::{
    civil_from_days, pgn_date, read_pgn, write_pgn, GameRecord, NotationCodec, RecordMove,
};
use xiangqi::{Color, DrawReason, Game, Move, Notation, Outcome, Position, WinReason};

use std::collections::HashMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{SystemTime, UNIX_EPOCH};

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
    /// Counts changes of the game (moves, settings); the page redraws when it moves on.
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
    /// Last save failed with this message.
    pub save_error: Option<String>,
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
            level: level.clamp(1, 10),
            ended: None,
            tags: Vec::new(),
            created: now,
            updated: now,
            version: 1,
            job: None,
            analysis: None,
            analysis_on: false,
            analysed_version: None,
            hint: None,
            notice: None,
            review: None,
            save_error: None,
        }
    }

    /// How the game ended, if it did.
    pub fn outcome(&self) -> Option<Outcome> {
        self.ended.or_else(|| self.game.outcome())
    }

    /// Whether the computer is to move now.
    pub fn computer_to_move(&self) -> bool {
        self.outcome().is_none() && !self.human.plays(self.game.position().side_to_move())
    }

    /// Stops the running job, if any.
    pub fn cancel_job(&mut self) {
        if let Some(job) = self.job.take() {
            job.cancel.store(true, Ordering::Relaxed);
        }
    }

    /// Records a change: new version, time stamp, and forgets what belonged to the old one.
    pub fn touch(&mut self) {
        self.version += 1;
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
        for m in &record.moves {
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
            .unwrap_or(3);
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

/// All games, and the folder they are saved in.
pub struct GameStore {
    dir: PathBuf,
    games: Mutex<HashMap<String, SharedEntry>>,
}

impl GameStore {
    /// A store saving into `dir/games`, with the games found there loaded. Files that cannot
    /// be read are reported on stderr and left alone.
    pub fn open(dir: &Path) -> std::io::Result<GameStore> {
        let dir = dir.join("games");
        std::fs::create_dir_all(&dir)?;
        let mut games = HashMap::new();
        for item in std::fs::read_dir(&dir)? {
            let path = item?.path();
            let Some(id) = path
                .file_name()
                .and_then(|n| n.to_str())
                .and_then(|n| n.strip_suffix(".pgn"))
            else {
                continue;
            };
            if !is_valid_id(id) {
                continue;
            }
            match load(&path) {
                Ok(record) => {
                    let entry = GameEntry::from_record(id.to_owned(), &record, None);
                    games.insert(id.to_owned(), Arc::new(Mutex::new(entry)));
                }
                Err(e) => eprintln!("warning: skipping {}: {e}", path.display()),
            }
        }
        Ok(GameStore {
            dir,
            games: Mutex::new(games),
        })
    }

    /// The folder the game files are in.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Adds a game and saves it.
    pub fn insert(&self, entry: GameEntry) -> SharedEntry {
        let id = entry.id.clone();
        let shared = Arc::new(Mutex::new(entry));
        self.save(&mut lock(&shared));
        lock(&self.games).insert(id, Arc::clone(&shared));
        shared
    }

    /// The game with this id.
    pub fn get(&self, id: &str) -> Option<SharedEntry> {
        lock(&self.games).get(id).cloned()
    }

    /// Every game.
    pub fn all(&self) -> Vec<SharedEntry> {
        lock(&self.games).values().cloned().collect()
    }

    /// Removes a game and its file; false if there was none.
    pub fn remove(&self, id: &str) -> bool {
        let Some(entry) = lock(&self.games).remove(id) else {
            return false;
        };
        lock(&entry).cancel_job();
        let _ = std::fs::remove_file(self.dir.join(format!("{id}.pgn")));
        true
    }

    /// Writes the game's file: a temporary file beside it, flushed to disk, renamed over the
    /// old one, so a crash leaves either the old or the new file, never half of one.
    pub fn save(&self, entry: &mut GameEntry) {
        let text = entry.pgn(Notation::Chinese);
        let path = self.dir.join(format!("{}.pgn", entry.id));
        let tmp = self.dir.join(format!(".{}.pgn.tmp", entry.id));
        let written = (|| {
            let mut file = std::fs::File::create(&tmp)?;
            file.write_all(text.as_bytes())?;
            file.sync_all()?;
            drop(file);
            std::fs::rename(&tmp, &path)
        })();
        entry.save_error = match written {
            Ok(()) => None,
            Err(e) => {
                eprintln!("warning: could not save {}: {e}", path.display());
                Some(format!(
                    "could not save the game to {}: {e}",
                    path.display()
                ))
            }
        };
    }
}

fn load(path: &Path) -> Result<GameRecord, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let mut records =
        read_pgn(&bytes, &NotationCodec(Notation::Chinese)).map_err(|e| e.to_string())?;
    if records.is_empty() {
        return Err("no game in the file".into());
    }
    Ok(records.swap_remove(0))
}

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
