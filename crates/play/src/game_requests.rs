//! The games' requests, read and carried out: a new game, a loaded file, a move, undo and
//! redo, resigning, a draw offer, the clock's pause, a hint, a review, settings, edits of the
//! game's tree, an export. The web server (`xiangqi-web`'s API) and the static site's worker
//! (`crate::local`) both answer with these, so a request means the same on both; only where
//! games are kept and where the engine's jobs run differ ([`Keep`](crate::keep::Keep),
//! [`StartJob`]).

use crate::clock::TimeControl;
use crate::entry::GameEntry;
use crate::error::ApiError;
use crate::game::study::StudyEdit;
use crate::game::{tree, Human, WebGame, DEFAULT_LEVEL, MAX_PLIES};
use crate::game_file::{self, iccs_move, Origin};
use crate::handicap::{Giver, Handicap};
use crate::job::JobKind;
use crate::positions::parse_fen;
use crate::report::MAX_ANALYSIS_LINES;
use crate::review::ReviewDepth;
use crate::view::GameView;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::Duration;
use xiangqi::pgn::date::civil_from_days;
use xiangqi::pgn::{read_pgn, NotationCodec};
use xiangqi::{Game, GameRecord, Notation, Position};
use xiangqi_engine::instant::{unix_nanos, Instant};
use xiangqi_engine::strength::{MAX_LEVEL, MIN_LEVEL};

/// Where the engine's jobs of a game start: the server's pool of engines, or the static
/// site's engine worker.
pub trait StartJob {
    /// Starts `kind` for the game, cancelling the job it had; the reason when too many jobs
    /// wait already (and nothing changed).
    fn start_job(&mut self, entry: &mut GameEntry, kind: JobKind) -> Result<(), String>;

    /// Whether a computer's search can wait while the game is paused and then go on (the
    /// server's engines run on threads that can wait; the site's engine can where it shares
    /// its memory with the games worker; elsewhere a pause stops the search, and it starts
    /// again on resume).
    fn keeps_paused_search(&self) -> bool {
        false
    }
}

/// Whether `id` could be a game id: 1–64 ASCII letters, digits and `-`.
pub fn is_valid_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 64 && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

/// A new game id: the UTC date and time, then five hex digits of a counter
/// (`20260321-154500-1a2b3`). The counter starts at a value drawn from the clock and goes up
/// by one for each id, so the ids of one run differ (up to a million a second); the stores
/// never let one game replace another of the same id.
pub fn new_id() -> String {
    static COUNTER: OnceLock<AtomicU64> = OnceLock::new();
    let nanos = unix_nanos();
    let counter = COUNTER.get_or_init(|| AtomicU64::new(nanos % 1_000_000_000));
    let secs = nanos / 1_000_000_000;
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    let t = secs % 86_400;
    let salt = counter.fetch_add(1, Ordering::Relaxed) & 0xF_FFFF;
    format!(
        "{y:04}{m:02}{d:02}-{:02}{:02}{:02}-{salt:05x}",
        t / 3600,
        t / 60 % 60,
        t % 60
    )
}

/// One side's time control as the page sends it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ControlBody {
    /// Game time in minutes (`0.5` is half a minute).
    minutes: f64,
    /// Seconds added after each move.
    #[serde(default)]
    increment: f64,
    /// Byo-yomi period in seconds (0: none).
    #[serde(default)]
    byoyomi: f64,
}

/// Both sides' time controls.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockBody {
    red: ControlBody,
    black: ControlBody,
}

/// A time in `unit`s, checked: not negative, not absurd.
fn duration(value: f64, unit: f64, what: &str) -> Result<Duration, ApiError> {
    let seconds = value * unit;
    if !seconds.is_finite() || seconds < 0.0 {
        return Err(ApiError::BadRequest(format!(
            "the {what} must be a time of zero or more"
        )));
    }
    if seconds > crate::clock::MAX_CONTROL.as_secs_f64() {
        return Err(ApiError::BadRequest(format!(
            "the {what} is longer than 10 hours"
        )));
    }
    Ok(Duration::from_secs_f64(seconds))
}

impl ControlBody {
    fn control(&self) -> Result<TimeControl, ApiError> {
        TimeControl::new(
            duration(self.minutes, 60.0, "game time")?,
            duration(self.increment, 1.0, "increment")?,
            duration(self.byoyomi, 1.0, "byo-yomi period")?,
        )
        .map_err(ApiError::BadRequest)
    }
}

/// The body of a new game: `{human, level, fen?, pgn?, clock?, handicap?, handicap_giver?}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    human: Option<Human>,
    level: Option<u8>,
    fen: Option<String>,
    pgn: Option<String>,
    clock: Option<ClockBody>,
    handicap: Option<Handicap>,
    handicap_giver: Option<Giver>,
}

/// `level` checked (the default level when absent).
pub fn check_level(level: Option<u8>) -> Result<u8, ApiError> {
    match level {
        None => Ok(DEFAULT_LEVEL),
        Some(l) if (MIN_LEVEL..=MAX_LEVEL).contains(&l) => Ok(l),
        Some(l) => Err(ApiError::BadRequest(format!(
            "level {l} is out of range: choose {MIN_LEVEL} to {MAX_LEVEL}"
        ))),
    }
}

/// `pos` as the start of a new game: refused when the rules end the game there at once (the
/// side to move is checkmated or stalemated, no attacking piece is left, the no-capture count
/// has run out), since no move could be played.
fn playable_start(pos: Position) -> Result<Position, ApiError> {
    match Game::new(pos.clone()).outcome() {
        None => Ok(pos),
        Some(outcome) => Err(ApiError::Invalid {
            code: "fen_game_over",
            message: format!("no game can start from this position: it is over ({outcome})"),
        }),
    }
}

/// The first game of a loaded file: XQF (it starts with `XQ`) or PGN (UTF-8, GBK or Big5).
fn first_game(bytes: &[u8]) -> Result<GameRecord, ApiError> {
    if bytes.starts_with(b"XQ") {
        return xiangqi::record_from_xqf(bytes)
            .map_err(|e| ApiError::BadRequest(format!("invalid XQF file: {e}")));
    }
    let mut records = read_pgn(bytes, &NotationCodec(Notation::Chinese))
        .map_err(|e| ApiError::BadRequest(format!("invalid PGN: {e}")))?;
    if records.is_empty() {
        return Err(ApiError::BadRequest("the PGN holds no game".into()));
    }
    Ok(records.swap_remove(0))
}

/// A loaded game (PGN or XQF): a record to study, or played on by the person as `human`.
fn game_from_file(
    bytes: &[u8],
    human: Option<Human>,
    level: Option<u8>,
) -> Result<WebGame, ApiError> {
    let record = &first_game(bytes)?;
    if record.moves.len() > MAX_PLIES {
        return Err(ApiError::BadRequest(format!(
            "the game has {} plies; at most {MAX_PLIES} can be loaded",
            record.moves.len()
        )));
    }
    let moves = tree::count(&record.moves);
    if moves > tree::MAX_TREE_MOVES {
        return Err(ApiError::BadRequest(format!(
            "the game has {moves} moves with its variations; at most {} can be loaded",
            tree::MAX_TREE_MOVES
        )));
    }
    let mut game =
        game_file::from_record(new_id(), record, Origin::Imported, human, Instant::now());
    // A loaded game is the person's from now on: the file's program tags do not apply.
    if let Some(level) = level {
        game.set_level(level);
    }
    game.set_created_now();
    Ok(game)
}

impl NewGame {
    /// The game it asks for (not yet kept anywhere).
    pub fn game(self) -> Result<WebGame, ApiError> {
        let level = check_level(self.level)?;
        let handicap = self.handicap.unwrap_or(Handicap::None);
        let giver = self.handicap_giver.unwrap_or(Giver::Computer);
        if handicap != Handicap::None {
            if self.fen.is_some() || self.pgn.is_some() {
                return Err(ApiError::BadRequest(
                    "a handicap game starts from the start position, not a FEN or PGN".into(),
                ));
            }
            if self.human == Some(Human::Both) {
                return Err(ApiError::BadRequest(
                    "a handicap needs the computer as opponent".into(),
                ));
            }
        }
        let human = handicap
            .human(self.human, giver)
            .map_err(|message| ApiError::Invalid {
                code: "handicap_side",
                message,
            })?;
        let clock = match &self.clock {
            Some(clock) => Some([clock.red.control()?, clock.black.control()?]),
            None => None,
        };
        match (&self.fen, &self.pgn) {
            (Some(_), Some(_)) => Err(ApiError::BadRequest("give a FEN or a PGN, not both".into())),
            (None, Some(_)) if clock.is_some() => Err(ApiError::BadRequest(
                "a loaded game is played on without a clock".into(),
            )),
            (None, Some(pgn)) => {
                // Pasted to start from it: the person plays on, by default the side to move.
                let to_move = first_game(pgn.as_bytes())?.final_position().side_to_move();
                let human = self.human.unwrap_or(match to_move {
                    xiangqi::Color::Red => Human::Red,
                    xiangqi::Color::Black => Human::Black,
                });
                game_from_file(pgn.as_bytes(), Some(human), Some(level))
            }
            (fen, None) => {
                let person = if human == Human::Black {
                    xiangqi::Color::Black
                } else {
                    xiangqi::Color::Red
                };
                let giver_side = match giver {
                    Giver::Computer => person.other(),
                    Giver::You => person,
                };
                let start = match fen {
                    Some(fen) => playable_start(parse_fen(fen)?)?,
                    None => handicap.start(giver_side),
                };
                let mut game = WebGame::new(new_id(), start, human, level, clock, Instant::now());
                if handicap != Handicap::None {
                    game.set_tag(
                        "Handicap",
                        &format!("{} by {}", handicap.name(), giver_side),
                    );
                }
                Ok(game)
            }
        }
    }
}

/// The query of a loaded file: `?human=&level=`.
#[derive(Deserialize, Default)]
pub struct ImportQuery {
    human: Option<Human>,
    level: Option<u8>,
}

/// A game from a loaded file's bytes, marked with the file's fingerprint (the same file
/// loaded again opens the game it made).
pub fn imported(bytes: &[u8], query: &ImportQuery) -> Result<WebGame, ApiError> {
    if query.level.is_some() {
        check_level(query.level)?;
    }
    let mut game = game_from_file(bytes, query.human, query.level)?;
    game.set_tag(game_file::IMPORT_HASH_TAG, &game_file::fingerprint(bytes));
    Ok(game)
}

/// A loaded file's game, and whether it was loaded before.
#[derive(Serialize)]
pub struct ImportView {
    /// The game.
    #[serde(flatten)]
    pub game: GameView,
    /// The same file made this game before: it is that game, not a new one.
    pub already_imported: bool,
}

/// `?since=VERSION.REVISION` of `GET /api/games/{id}`: the state of the game the page has.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct GetQuery {
    since: Option<String>,
}

impl GetQuery {
    /// The version and revision named, if they can be read.
    pub fn since(&self) -> Option<(u64, u64)> {
        let (version, revision) = self.since.as_deref()?.split_once('.')?;
        Some((version.parse().ok()?, revision.parse().ok()?))
    }
}

/// The game's state for the page; the moves are left out when the page already has this
/// state (a page polls while the engine works, and a long tree is most of the answer).
pub fn game_view(entry: &GameEntry, query: &GetQuery, now: Instant) -> GameView {
    let mut answer = crate::view::view(entry, now);
    let game = entry.game();
    if query.since() == Some((game.version(), game.revision())) {
        answer.leave_out_moves();
    }
    answer
}

/// `?notation=` of a PGN export.
#[derive(Deserialize, Default)]
pub struct PgnQuery {
    notation: Option<String>,
}

/// A game's PGN file: its text and file name.
pub fn pgn_file(
    entry: &GameEntry,
    query: &PgnQuery,
    now: Instant,
) -> Result<(String, String), ApiError> {
    let notation = match query.notation.as_deref().unwrap_or("chinese") {
        "chinese" => Notation::Chinese,
        "wxf" => Notation::Wxf,
        "iccs" => Notation::IccsPgn,
        other => {
            return Err(ApiError::BadRequest(format!(
                "unknown notation {:?}: use chinese, wxf or iccs",
                xiangqi::excerpt(other)
            )))
        }
    };
    Ok((
        game_file::pgn(entry.game(), notation, now),
        format!("xiangqi-{}.pgn", entry.game().id()),
    ))
}

/// The page is gone: the game's job stops; whether its clock must be paused (a person who
/// closed the page does not come back to a game lost on time).
pub fn leave(entry: &mut GameEntry) -> bool {
    entry.cancel_job();
    let game = entry.game();
    game.clock().is_some_and(|c| c.is_running()) && game.ending().is_none()
}

/// The person's move: `{move, version?}` (ICCS or any notation the rules read).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveBody {
    #[serde(rename = "move")]
    mv: String,
    version: Option<u64>,
}

/// An edit of the game's tree as the page sends it; `at` is a move's path (see
/// [`crate::game::tree`]).
#[derive(Deserialize)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
pub enum StudyBody {
    /// Plays ICCS `moves` after `at`.
    Play {
        /// Where.
        at: Vec<usize>,
        /// The moves, ICCS.
        moves: Vec<String>,
    },
    /// Makes the variation at `at` the main line.
    Promote {
        /// Where.
        at: Vec<usize>,
    },
    /// Moves the variation at `at` up one.
    Up {
        /// Where.
        at: Vec<usize>,
    },
    /// Deletes the move at `at` and what follows.
    Delete {
        /// Where.
        at: Vec<usize>,
    },
    /// Sets the comment after (or `before`) the move at `at`.
    Comment {
        /// Where.
        at: Vec<usize>,
        /// The comment.
        text: String,
        /// Before the move instead of after it.
        #[serde(default)]
        before: bool,
    },
    /// Sets the move's glyphs (NAGs).
    Glyphs {
        /// Where.
        at: Vec<usize>,
        /// The glyphs.
        nags: Vec<u8>,
    },
    /// Keeps the finished review's marks as glyphs and its better lines as variations.
    KeepReview {},
}

impl StudyBody {
    /// The edit it asks for, its moves read.
    fn edit(self) -> Result<Option<StudyEdit>, ApiError> {
        Ok(Some(match self {
            StudyBody::KeepReview {} => return Ok(None),
            StudyBody::Play { at, moves } => {
                if moves.len() > MAX_PLIES {
                    return Err(ApiError::BadRequest("too many moves".into()));
                }
                let moves = moves
                    .iter()
                    .map(|text| {
                        iccs_move(text.trim()).ok_or_else(|| {
                            ApiError::rejected("unreadable", format!("{text:?} is not a move"))
                        })
                    })
                    .collect::<Result<_, _>>()?;
                StudyEdit::Play { at, moves }
            }
            StudyBody::Promote { at } => StudyEdit::Promote(at),
            StudyBody::Up { at } => StudyEdit::MoveUp(at),
            StudyBody::Delete { at } => StudyEdit::Delete(at),
            StudyBody::Comment { at, text, before } => StudyEdit::Comment { at, text, before },
            StudyBody::Glyphs { at, nags } => StudyEdit::Glyphs { at, nags },
        }))
    }
}

/// The answer to a study edit: the move to show now, and the game.
#[derive(Serialize)]
pub struct StudyView {
    /// The path of the move to show.
    pub at: Vec<usize>,
    /// The game.
    pub game: GameView,
}

/// The body of a review request, which may also be empty (a normal review): `{depth?}`.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct ReviewBody {
    depth: Option<ReviewDepth>,
}

impl ReviewBody {
    /// Reads the body; an empty one asks for a normal review.
    pub fn read(body: &[u8]) -> Result<ReviewBody, ApiError> {
        if body.iter().all(u8::is_ascii_whitespace) {
            return Ok(ReviewBody::default());
        }
        serde_json::from_slice(body)
            .map_err(|e| ApiError::BadRequest(format!("the review's settings: {e}")))
    }
}

/// The game's settings: `{level?, analysis?, lines?}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    level: Option<u8>,
    analysis: Option<bool>,
    lines: Option<u8>,
}

/// A request about one game that may change it.
pub enum GameRequest {
    /// The person's move.
    Move(MoveBody),
    /// Takes back moves up to the person's turn.
    Undo,
    /// Replays them.
    Redo,
    /// The person resigns.
    Resign,
    /// The person offers a draw (or accepts the computer's offer).
    Draw,
    /// Stops the clock.
    Pause,
    /// Restarts it.
    Resume,
    /// Asks the engine for a move.
    Hint,
    /// Reviews the finished game.
    Review(ReviewBody),
    /// Changes the level, the analysis and its lines.
    Settings(Settings),
    /// Edits the game's tree.
    Study(StudyBody),
    /// After a change could not be kept: try again.
    Retry,
}

impl GameRequest {
    /// The request named by the last part of its path (`move`, `undo`, …) with its body, or
    /// `None` if there is no such request.
    pub fn read(action: &str, body: &[u8]) -> Option<Result<GameRequest, ApiError>> {
        fn json<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
            serde_json::from_slice(body)
                .map_err(|e| ApiError::BadRequest(format!("invalid JSON body: {e}")))
        }
        Some(match action {
            "move" => json(body).map(GameRequest::Move),
            "undo" => Ok(GameRequest::Undo),
            "redo" => Ok(GameRequest::Redo),
            "resign" => Ok(GameRequest::Resign),
            "draw" => Ok(GameRequest::Draw),
            "pause" => Ok(GameRequest::Pause),
            "resume" => Ok(GameRequest::Resume),
            "hint" => Ok(GameRequest::Hint),
            "review" => ReviewBody::read(body).map(GameRequest::Review),
            "settings" => json(body).map(GameRequest::Settings),
            "study" => json(body).map(GameRequest::Study),
            "retry" => Ok(GameRequest::Retry),
            _ => return None,
        })
    }

    /// Carries the request out on the game at `now`, starting engine jobs with `jobs`: the
    /// path of the move to show (a study edit's) and whether it changed what is kept of the
    /// game. On an error the caller puts the game back as it was.
    pub fn apply(
        self,
        entry: &mut GameEntry,
        jobs: &mut impl StartJob,
        now: Instant,
    ) -> Result<(Vec<usize>, bool), ApiError> {
        let changed = match self {
            GameRequest::Move(body) => {
                let text = body.mv.trim();
                if text.len() > 40 {
                    return Err(ApiError::BadRequest("the move text is too long".into()));
                }
                let m = match iccs_move(text) {
                    Some(m) => m,
                    None => xiangqi::parse_move(entry.game().position(), text)
                        .map_err(|e| ApiError::rejected("unreadable", e.to_string()))?,
                };
                entry.change(|game| game.play(m, body.version, now))?;
                true
            }
            GameRequest::Undo => {
                entry.undo(now)?;
                true
            }
            GameRequest::Redo => {
                entry.change(|game| game.redo(now))?;
                true
            }
            GameRequest::Resign => {
                entry.change(|game| game.resign(now))?;
                true
            }
            GameRequest::Pause => {
                entry.pause(now, jobs.keeps_paused_search())?;
                true
            }
            GameRequest::Resume => {
                entry.resume(now)?;
                true
            }
            GameRequest::Draw => offer_draw(entry, jobs, now)?,
            GameRequest::Hint => {
                refuse_if_over(entry.game())?;
                ask(entry, jobs, JobKind::Hint)?
            }
            GameRequest::Review(body) => review(entry, jobs, body.depth.unwrap_or_default())?,
            GameRequest::Settings(body) => settings(entry, jobs, body)?,
            GameRequest::Study(body) => {
                return match body.edit()? {
                    Some(edit) => Ok((entry.study(edit, now)?, true)),
                    None => Ok((Vec::new(), entry.keep_review()? > 0)),
                };
            }
            GameRequest::Retry => {
                entry.set_save_error(None);
                false
            }
        };
        Ok((Vec::new(), changed))
    }
}

/// Starts an engine job that the person asked for, if the game allows it.
fn ask(entry: &mut GameEntry, jobs: &mut impl StartJob, kind: JobKind) -> Result<bool, ApiError> {
    if entry.job_kind() == Some(JobKind::Computer) {
        return Err(ApiError::rejected(
            "busy",
            "the computer is thinking about its move",
        ));
    }
    jobs.start_job(entry, kind).map_err(ApiError::Busy)?;
    Ok(false)
}

fn refuse_if_over(game: &WebGame) -> Result<(), ApiError> {
    match game.ending() {
        Some(ending) => Err(ApiError::rejected(
            "game_over",
            format!("the game is over ({ending})"),
        )),
        None => Ok(()),
    }
}

fn offer_draw(
    entry: &mut GameEntry,
    jobs: &mut impl StartJob,
    now: Instant,
) -> Result<bool, ApiError> {
    refuse_if_over(entry.game())?;
    if entry.game().human() == Human::Both {
        return Err(ApiError::rejected(
            "no_opponent",
            "there is no computer opponent in this game",
        ));
    }
    if entry.game().draw_offer_open() {
        // The computer offered first: a draw offer now is its acceptance.
        entry.change(|game| game.accept_draw_offer(now))?;
        return Ok(true);
    }
    ask(entry, jobs, JobKind::Draw)
}

fn review(
    entry: &mut GameEntry,
    jobs: &mut impl StartJob,
    depth: ReviewDepth,
) -> Result<bool, ApiError> {
    let game = entry.game();
    if game.rules().is_empty() {
        return Err(ApiError::rejected("nothing_to_review", "no move to review"));
    }
    if game.ending().is_none() && game.human() != Human::Both {
        return Err(ApiError::rejected(
            "not_over",
            "the review is for finished games",
        ));
    }
    if entry
        .review()
        .is_some_and(|r| r.finished && r.depth == depth)
    {
        return Ok(false);
    }
    entry.set_review_depth(depth);
    ask(entry, jobs, JobKind::Review)
}

fn settings(
    entry: &mut GameEntry,
    jobs: &mut impl StartJob,
    body: Settings,
) -> Result<bool, ApiError> {
    let level = body.level.map(|l| check_level(Some(l))).transpose()?;
    if let Some(lines) = body.lines {
        if !(1..=MAX_ANALYSIS_LINES).contains(&usize::from(lines)) {
            return Err(ApiError::BadRequest(format!(
                "lines must be 1 to {MAX_ANALYSIS_LINES}, not {lines}"
            )));
        }
    }
    let changed = level.is_some_and(|level| entry.change(|game| game.set_level(level)));
    if let Some(lines) = body.lines {
        entry.set_analysis_lines(usize::from(lines));
    }
    if let Some(on) = body.analysis {
        entry.set_analysis(on);
        // Asked for now, an analysis there is no room for is refused, not promised.
        if entry.wants_analysis() && entry.job_kind().is_none() && !entry.game().computer_to_move()
        {
            if let Err(busy) = jobs.start_job(entry, JobKind::Analysis) {
                entry.set_analysis(false);
                return Err(ApiError::Busy(busy));
            }
        }
    }
    Ok(changed)
}
