//! The JSON API: routes, request and response types, handlers. Handlers parse, call the
//! game's methods ([`xiangqi_play::game::WebGame`], through [`xiangqi_play::entry::GameEntry`]) and render its
//! view.
//!
//! | route | does |
//! |---|---|
//! | `GET /api/games` | the saved games, newest first |
//! | `POST /api/games` | a new game: `{human, level, fen?, pgn?, clock?}` |
//! | `POST /api/games/import?human=&level=` | a game from a PGN or XQF file (the same file: its game) |
//! | `GET /api/games/{id}?since=V.R` | the game's state (restarts the computer's search after a restart); with `since` the page's version and revision, the moves are left out while unchanged |
//! | `DELETE /api/games/{id}` | forgets a game and its file |
//! | `POST /api/games/{id}/retry` | after the computer's move could not be saved: try again |
//! | `POST /api/games/{id}/move` | `{move, version?}`: plays the person's move |
//! | `POST /api/games/{id}/undo`, `/redo` | takes back / replays moves up to the person's turn |
//! | `POST /api/games/{id}/resign`, `/draw` | resigns / offers a draw |
//! | `POST /api/games/{id}/pause`, `/resume` | stops / restarts the clock |
//! | `POST /api/games/{id}/hint` | asks the engine for a move |
//! | `POST /api/games/{id}/study` | edits variations, comments and glyphs: `{op, at, …}` (see `StudyBody`); `{op: "keep_review"}` keeps the review's marks |
//! | `POST /api/games/{id}/review` | reviews the game: `{depth?}` (`quick`, `normal`, `deep`) or no body |
//! | `POST /api/games/{id}/settings` | `{level?, analysis?, lines?}` (lines: 1–5, analysis MultiPV) |
//! | `POST /api/games/{id}/leave` | the page is gone: stop searching |
//! | `GET /api/games/{id}/pgn?notation=` | the game as a PGN file |
//! | `POST /api/fen` | `{fen}`: checks a position for the editor, and how a game from it ends |
//! | `POST /api/book` | `{fen}`: the opening book's moves there, with weights and shares |
//! | `GET /api/levels` | the difficulty levels with their calibrated Elo |
//! | `/api/lab/…` | the search laboratory (see `super::lab`) |
//!
//! A clock is `{"red": {"minutes": 10, "increment": 5, "byoyomi": 0}, "black": {…}}`: game time
//! in minutes (fractions allowed), increment and byo-yomi period in seconds.

use super::search;
use super::state::AppState;
use super::store::{is_valid_id, new_id};
use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Path, Query, Request, State};
use axum::http::request::Parts;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::time::{Duration, Instant};
use xiangqi::pgn::{read_pgn, NotationCodec};
use xiangqi::GameRecord;
use xiangqi::{Game, Notation, Position};
use xiangqi_play::book_view::BookMoveView;
use xiangqi_play::clock::TimeControl;
use xiangqi_play::entry::{lock, GameEntry, SharedGame};
use xiangqi_play::error::ApiError;
use xiangqi_play::game::study::StudyEdit;
use xiangqi_play::game::{tree, Human, Refusal, WebGame, DEFAULT_LEVEL, MAX_PLIES};
use xiangqi_play::game_file::{self, iccs_move, Origin};
use xiangqi_play::handicap::{Giver, Handicap};
use xiangqi_play::job::JobKind;
use xiangqi_play::keep::Keep;
use xiangqi_play::positions::{self, parse_fen, FenBody, FenView, LevelView};
use xiangqi_play::report::MAX_ANALYSIS_LINES;
use xiangqi_play::review::ReviewDepth;
use xiangqi_play::summary::Summary;
use xiangqi_play::view::{view, GameView};

type Shared = State<Arc<AppState>>;

/// The API routes (mounted under `/api`).
pub fn routes() -> Router<Arc<AppState>> {
    Router::new()
        .route("/games", get(list_games).post(new_game))
        .route("/games/import", post(import_game))
        .route("/games/{id}", get(get_game).delete(delete_game))
        .route("/games/{id}/move", post(play_move))
        .route("/games/{id}/undo", post(undo))
        .route("/games/{id}/redo", post(redo))
        .route("/games/{id}/resign", post(resign))
        .route("/games/{id}/draw", post(offer_draw))
        .route("/games/{id}/pause", post(pause))
        .route("/games/{id}/resume", post(resume))
        .route("/games/{id}/hint", post(hint))
        .route("/games/{id}/review", post(review))
        .route("/games/{id}/study", post(study))
        .route("/games/{id}/settings", post(settings))
        .route("/games/{id}/leave", post(leave))
        .route("/games/{id}/retry", post(retry))
        .route("/games/{id}/pgn", get(export_pgn))
        .route("/fen", post(check_fen))
        .route("/book", post(book))
        .route("/levels", get(levels))
}

/// `Json` whose rejections are [`ApiError`]s.
pub struct ApiJson<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let Json(value) = Json::<T>::from_request(req, state).await?;
        Ok(ApiJson(value))
    }
}

/// The `{id}` of a game route. An id that cannot even be decoded names no game: a JSON 404
/// like any other unknown id.
pub struct GameId(String);

impl<S: Send + Sync> FromRequestParts<S> for GameId {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        match Path::<String>::from_request_parts(parts, state).await {
            Ok(Path(id)) => Ok(GameId(id)),
            Err(_) => Err(ApiError::NotFound("no game with this id".into())),
        }
    }
}

/// Runs `f` on a blocking thread: it may write files, and a panic in it becomes a 500.
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(f).await?
}

/// The game with this id (read back from disk if it was unloaded), noted as seen: its page is
/// still there (see `pool::ABANDONED_AFTER`).
fn find(state: &AppState, id: &str) -> Result<SharedGame, ApiError> {
    if !is_valid_id(id) {
        return Err(ApiError::no_game(id));
    }
    let shared = state.games.get(id).ok_or_else(|| ApiError::no_game(id))?;
    lock(&shared).seen(Instant::now());
    Ok(shared)
}

/// Runs `change` on the game under its lock on a blocking thread, and answers with the game's
/// state once the change is on disk. `change` says whether it changed what the file records;
/// if that cannot be saved, or `change` fails, the game stays as it was and the answer is the
/// error. Either way the game's next job is started.
async fn with_game(
    state: Arc<AppState>,
    id: String,
    change: impl FnOnce(&Arc<AppState>, &SharedGame, &mut GameEntry) -> Result<bool, ApiError>
        + Send
        + 'static,
) -> Result<Json<GameView>, ApiError> {
    let ((), game) = answer_with_game(state, id, move |state, shared, entry| {
        change(state, shared, entry).map(|changed| ((), changed))
    })
    .await?;
    Ok(Json(game))
}

/// [`with_game`] for a change that answers something besides the game's state.
async fn answer_with_game<T: Send + 'static>(
    state: Arc<AppState>,
    id: String,
    change: impl FnOnce(&Arc<AppState>, &SharedGame, &mut GameEntry) -> Result<(T, bool), ApiError>
        + Send
        + 'static,
) -> Result<(T, GameView), ApiError> {
    blocking(move || {
        let shared = find(&state, &id)?;
        let mut entry = lock(&shared);
        let changed = state
            .games
            .update(&mut entry, |entry| change(&state, &shared, entry));
        search::schedule(&state, &shared, &mut entry);
        changed.map(|answer| (answer, view(&entry, Instant::now())))
    })
    .await
}

/// [`with_game`] for a method of the game that changes what the file records when it succeeds.
async fn act(
    state: Arc<AppState>,
    id: String,
    method: impl FnOnce(&mut WebGame, Instant) -> Result<(), Refusal> + Send + 'static,
) -> Result<Json<GameView>, ApiError> {
    with_game(state, id, move |_, _, entry| {
        entry.change(|game| method(game, Instant::now()))?;
        Ok(true)
    })
    .await
}

async fn list_games(State(state): Shared) -> Json<Vec<Summary>> {
    let mut list = state.games.summaries();
    list.sort_by(|a, b| (b.updated, &b.id).cmp(&(a.updated, &a.id)));
    Json(list)
}

/// One side's time control as the page sends it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ControlBody {
    /// Game time in minutes (`0.5` is half a minute).
    minutes: f64,
    /// Seconds added after each move.
    #[serde(default)]
    increment: f64,
    /// Byo-yomi period in seconds (0: none).
    #[serde(default)]
    byoyomi: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClockBody {
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
    if seconds > xiangqi_play::clock::MAX_CONTROL.as_secs_f64() {
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

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewGame {
    human: Option<Human>,
    level: Option<u8>,
    fen: Option<String>,
    pgn: Option<String>,
    clock: Option<ClockBody>,
    handicap: Option<Handicap>,
    handicap_giver: Option<Giver>,
}

fn check_level(level: Option<u8>) -> Result<u8, ApiError> {
    use xiangqi_engine::strength::{MAX_LEVEL, MIN_LEVEL};
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
fn entry_from_pgn(
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
    let mut entry =
        game_file::from_record(new_id(), record, Origin::Imported, human, Instant::now());
    // A loaded game is the person's from now on: the file's program tags do not apply.
    if let Some(level) = level {
        entry.set_level(level);
    }
    entry.set_created_now();
    Ok(entry)
}

async fn new_game(
    State(state): Shared,
    ApiJson(body): ApiJson<NewGame>,
) -> Result<impl IntoResponse, ApiError> {
    let level = check_level(body.level)?;
    let handicap = body.handicap.unwrap_or(Handicap::None);
    let giver = body.handicap_giver.unwrap_or(Giver::Computer);
    if handicap != Handicap::None {
        if body.fen.is_some() || body.pgn.is_some() {
            return Err(ApiError::BadRequest(
                "a handicap game starts from the start position, not a FEN or PGN".into(),
            ));
        }
        if body.human == Some(Human::Both) {
            return Err(ApiError::BadRequest(
                "a handicap needs the computer as opponent".into(),
            ));
        }
    }
    let human = handicap
        .human(body.human, giver)
        .map_err(|message| ApiError::Invalid {
            code: "handicap_side",
            message,
        })?;
    let clock = match &body.clock {
        Some(clock) => Some([clock.red.control()?, clock.black.control()?]),
        None => None,
    };
    let entry = match (&body.fen, &body.pgn) {
        (Some(_), Some(_)) => {
            return Err(ApiError::BadRequest("give a FEN or a PGN, not both".into()))
        }
        (None, Some(_)) if clock.is_some() => {
            return Err(ApiError::BadRequest(
                "a loaded game is played on without a clock".into(),
            ))
        }
        (None, Some(pgn)) => {
            // Pasted to start from it: the person plays on, by default the side to move.
            let to_move = first_game(pgn.as_bytes())?.final_position().side_to_move();
            let human = body.human.unwrap_or(match to_move {
                xiangqi::Color::Red => Human::Red,
                xiangqi::Color::Black => Human::Black,
            });
            entry_from_pgn(pgn.as_bytes(), Some(human), Some(level))?
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
            game
        }
    };
    created(state, entry).await
}

async fn created(state: Arc<AppState>, entry: WebGame) -> Result<impl IntoResponse, ApiError> {
    let view = blocking(move || {
        let shared = state.games.insert(entry)?;
        let mut entry = lock(&shared);
        search::schedule(&state, &shared, &mut entry);
        Ok(view(&entry, Instant::now()))
    })
    .await?;
    Ok((StatusCode::CREATED, Json(view)))
}

#[derive(Deserialize)]
struct ImportQuery {
    human: Option<Human>,
    level: Option<u8>,
}

/// A loaded file's game, and whether it was loaded before.
#[derive(Serialize)]
struct ImportView {
    #[serde(flatten)]
    game: GameView,
    /// The same file made this game before: it is that game, not a new one.
    already_imported: bool,
}

/// A game from a file's bytes; the same file loaded again opens the game it made (200), as long
/// as that game is kept, instead of listing a copy.
async fn import_game(
    State(state): Shared,
    query: Result<Query<ImportQuery>, axum::extract::rejection::QueryRejection>,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Result<impl IntoResponse, ApiError> {
    let Query(query) = query?;
    let body = body?;
    if query.level.is_some() {
        check_level(query.level)?;
    }
    let mut entry = entry_from_pgn(&body, query.human, query.level)?;
    entry.set_tag(game_file::IMPORT_HASH_TAG, &game_file::fingerprint(&body));
    let (status, view) = blocking(move || {
        let (shared, new) = state.games.insert_import(entry)?;
        let mut entry = lock(&shared);
        search::schedule(&state, &shared, &mut entry);
        let status = if new {
            StatusCode::CREATED
        } else {
            StatusCode::OK
        };
        let game = view(&entry, Instant::now());
        Ok((
            status,
            ImportView {
                game,
                already_imported: !new,
            },
        ))
    })
    .await?;
    Ok((status, Json(view)))
}

/// `?since=VERSION.REVISION`: the state of the game the page already has.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GetQuery {
    since: Option<String>,
}

async fn get_game(
    State(state): Shared,
    GameId(id): GameId,
    query: Result<Query<GetQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<GameView>, ApiError> {
    let Query(query) = query?;
    // A page that polls while the engine works already has the moves of the state it names:
    // the answer leaves them out while they are the same (a long tree is most of the answer).
    let since = query.since.as_deref().and_then(|text| {
        let (version, revision) = text.split_once('.')?;
        Some((version.parse().ok()?, revision.parse().ok()?))
    });
    blocking(move || {
        let shared = find(&state, &id)?;
        let mut entry = lock(&shared);
        if entry.is_removed() {
            return Err(ApiError::no_game(&id));
        }
        search::schedule(&state, &shared, &mut entry);
        let mut answer = view(&entry, Instant::now());
        let game = entry.game();
        if since == Some((game.version(), game.revision())) {
            answer.leave_out_moves();
        }
        Ok(Json(answer))
    })
    .await
}

async fn delete_game(State(state): Shared, GameId(id): GameId) -> Result<StatusCode, ApiError> {
    let removed = blocking(move || {
        let shared = find(&state, &id)?;
        Ok(state.games.remove(&id, &shared)?)
    })
    .await?;
    if removed {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::NotFound("the game was deleted".into()))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveBody {
    #[serde(rename = "move")]
    mv: String,
    version: Option<u64>,
}

async fn play_move(
    State(state): Shared,
    GameId(id): GameId,
    ApiJson(body): ApiJson<MoveBody>,
) -> Result<Json<GameView>, ApiError> {
    let text = body.mv.trim().to_owned();
    if text.len() > 40 {
        return Err(ApiError::BadRequest("the move text is too long".into()));
    }
    with_game(state, id, move |_, _, entry| {
        let m = match iccs_move(&text) {
            Some(m) => m,
            None => xiangqi::parse_move(entry.game().position(), &text)
                .map_err(|e| ApiError::rejected("unreadable", e.to_string()))?,
        };
        entry.change(|game| game.play(m, body.version, Instant::now()))?;
        Ok(true)
    })
    .await
}

/// An edit of the game's tree as the page sends it; `at` is a move's path (see
/// [`xiangqi_play::game::tree`]).
#[derive(Deserialize)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
enum StudyBody {
    /// Plays ICCS `moves` after `at`.
    Play {
        at: Vec<usize>,
        moves: Vec<String>,
    },
    Promote {
        at: Vec<usize>,
    },
    Up {
        at: Vec<usize>,
    },
    Delete {
        at: Vec<usize>,
    },
    Comment {
        at: Vec<usize>,
        text: String,
        #[serde(default)]
        before: bool,
    },
    Glyphs {
        at: Vec<usize>,
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
struct StudyView {
    at: Vec<usize>,
    game: GameView,
}

async fn study(
    State(state): Shared,
    GameId(id): GameId,
    ApiJson(body): ApiJson<StudyBody>,
) -> Result<Json<StudyView>, ApiError> {
    let edit = body.edit()?;
    let (at, game) = answer_with_game(state, id, move |_, _, entry| match edit {
        Some(edit) => Ok((entry.study(edit, Instant::now())?, true)),
        None => {
            let kept = entry.keep_review()?;
            Ok((Vec::new(), kept > 0))
        }
    })
    .await?;
    Ok(Json(StudyView { at, game }))
}

async fn undo(State(state): Shared, GameId(id): GameId) -> Result<Json<GameView>, ApiError> {
    with_game(state, id, |_, _, entry| {
        entry.undo(Instant::now())?;
        Ok(true)
    })
    .await
}

async fn redo(State(state): Shared, GameId(id): GameId) -> Result<Json<GameView>, ApiError> {
    act(state, id, WebGame::redo).await
}

async fn resign(State(state): Shared, GameId(id): GameId) -> Result<Json<GameView>, ApiError> {
    act(state, id, WebGame::resign).await
}

async fn pause(State(state): Shared, GameId(id): GameId) -> Result<Json<GameView>, ApiError> {
    act(state, id, WebGame::pause).await
}

async fn resume(State(state): Shared, GameId(id): GameId) -> Result<Json<GameView>, ApiError> {
    with_game(state, id, |_, _, entry| {
        entry.resume(Instant::now())?;
        Ok(true)
    })
    .await
}

/// Starts an engine job that the person asked for, if the game allows it.
fn ask(
    state: &Arc<AppState>,
    shared: &SharedGame,
    entry: &mut GameEntry,
    kind: JobKind,
) -> Result<bool, ApiError> {
    if entry.job_kind() == Some(JobKind::Computer) {
        return Err(ApiError::rejected(
            "busy",
            "the computer is thinking about its move",
        ));
    }
    search::start(state, shared, entry, kind).map_err(|busy| ApiError::Busy(busy.to_string()))?;
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

async fn offer_draw(State(state): Shared, GameId(id): GameId) -> Result<Json<GameView>, ApiError> {
    with_game(state, id, |state, shared, entry| {
        refuse_if_over(entry.game())?;
        if entry.game().human() == Human::Both {
            return Err(ApiError::rejected(
                "no_opponent",
                "there is no computer opponent in this game",
            ));
        }
        if entry.game().draw_offer_open() {
            // The computer offered first: a draw offer now is its acceptance.
            entry.change(|game| game.accept_draw_offer(Instant::now()))?;
            return Ok(true);
        }
        ask(state, shared, entry, JobKind::Draw)
    })
    .await
}

async fn hint(State(state): Shared, GameId(id): GameId) -> Result<Json<GameView>, ApiError> {
    with_game(state, id, |state, shared, entry| {
        refuse_if_over(entry.game())?;
        ask(state, shared, entry, JobKind::Hint)
    })
    .await
}

/// The body of `POST /api/games/{id}/review`, which may also be empty (a normal review).
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct ReviewBody {
    depth: Option<ReviewDepth>,
}

async fn review(
    State(state): Shared,
    GameId(id): GameId,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Result<Json<GameView>, ApiError> {
    let body = body?;
    let body: ReviewBody = if body.iter().all(u8::is_ascii_whitespace) {
        ReviewBody::default()
    } else {
        serde_json::from_slice(&body)
            .map_err(|e| ApiError::BadRequest(format!("the review's settings: {e}")))?
    };
    let depth = body.depth.unwrap_or_default();
    with_game(state, id, move |state, shared, entry| {
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
        ask(state, shared, entry, JobKind::Review)
    })
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Settings {
    level: Option<u8>,
    analysis: Option<bool>,
    lines: Option<u8>,
}

async fn settings(
    State(state): Shared,
    GameId(id): GameId,
    ApiJson(body): ApiJson<Settings>,
) -> Result<Json<GameView>, ApiError> {
    let level = body.level.map(|l| check_level(Some(l))).transpose()?;
    if let Some(lines) = body.lines {
        if !(1..=MAX_ANALYSIS_LINES).contains(&usize::from(lines)) {
            return Err(ApiError::BadRequest(format!(
                "lines must be 1 to {MAX_ANALYSIS_LINES}, not {lines}"
            )));
        }
    }
    with_game(state, id, move |state, shared, entry| {
        let changed = level.is_some_and(|level| entry.change(|game| game.set_level(level)));
        if let Some(lines) = body.lines {
            entry.set_analysis_lines(usize::from(lines));
        }
        if let Some(on) = body.analysis {
            entry.set_analysis(on);
            // Asked for now, an analysis the server is too busy for is refused, not promised.
            if entry.wants_analysis()
                && entry.job_kind().is_none()
                && !entry.game().computer_to_move()
            {
                if let Err(busy) = search::start(state, shared, entry, JobKind::Analysis) {
                    entry.set_analysis(false);
                    return Err(ApiError::Busy(busy.to_string()));
                }
            }
        }
        Ok(changed)
    })
    .await
}

/// The page is gone: its searches stop, and a running clock is paused (a person who closed the
/// page does not come back to a game lost on time).
async fn leave(State(state): Shared, GameId(id): GameId) -> Result<StatusCode, ApiError> {
    blocking(move || {
        let shared = find(&state, &id)?;
        let mut entry = lock(&shared);
        entry.cancel_job();
        let game = entry.game();
        let running = game.clock().is_some_and(|c| c.is_running());
        if running && game.ending().is_none() {
            state.games.update(&mut entry, |entry| {
                entry.change(|game| game.pause(Instant::now()))?;
                Ok::<_, ApiError>(((), true))
            })?;
        }
        Ok(StatusCode::NO_CONTENT)
    })
    .await
}

/// Clears the error of a change that could not be saved (the computer's move, an accepted
/// draw), so the computer tries again.
async fn retry(State(state): Shared, GameId(id): GameId) -> Result<Json<GameView>, ApiError> {
    with_game(state, id, |_, _, entry| {
        entry.set_save_error(None);
        Ok(false)
    })
    .await
}

#[derive(Deserialize)]
struct PgnQuery {
    notation: Option<String>,
}

async fn export_pgn(
    State(state): Shared,
    GameId(id): GameId,
    query: Result<Query<PgnQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(query) = query?;
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
    let (text, name) = blocking(move || {
        let shared = find(&state, &id)?;
        let entry = lock(&shared);
        Ok((
            game_file::pgn(entry.game(), notation, Instant::now()),
            format!("xiangqi-{}.pgn", entry.game().id()),
        ))
    })
    .await?;
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "application/x-chess-pgn; charset=utf-8".to_owned(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
        ],
        text,
    )
        .into_response())
}

async fn levels() -> Json<Vec<LevelView>> {
    Json(positions::levels())
}

/// The opening book's moves for a position (`POST /api/book {"fen"}`).
async fn book(ApiJson(body): ApiJson<FenBody>) -> Result<Json<Vec<BookMoveView>>, ApiError> {
    positions::book(&body).map(Json)
}

async fn check_fen(ApiJson(body): ApiJson<FenBody>) -> Result<Json<FenView>, ApiError> {
    positions::check_fen(&body).map(Json)
}
