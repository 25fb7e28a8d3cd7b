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
//! | `POST /api/tablebase` | `{fen}`: the endgame tables' value there (`win`/`loss`/`draw`, plies and moves to mate) and every legal move's, best first; `available: false` when the server has no tables (see `super::tablebases`) |
//! | `GET /api/levels` | the difficulty levels with their calibrated Elo |
//! | `/api/lab/…` | the search laboratory (see `super::lab`) |
//!
//! A clock is `{"red": {"minutes": 10, "increment": 5, "byoyomi": 0}, "black": {…}}`: game time
//! in minutes (fractions allowed), increment and byo-yomi period in seconds.

use super::search;
use super::state::AppState;
use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Path, Query, Request, State};
use axum::http::request::Parts;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::de::DeserializeOwned;
use std::sync::Arc;
use std::time::Instant;
use xiangqi_play::book_view::BookMoveView;
use xiangqi_play::entry::{lock, GameEntry, SharedGame};
use xiangqi_play::error::ApiError;
use xiangqi_play::game::WebGame;
use xiangqi_play::game_requests::{
    self, is_valid_id, GameRequest, GetQuery, ImportQuery, ImportView, MoveBody, NewGame, PgnQuery,
    ReviewBody, Settings, StartJob, StudyBody, StudyView,
};
use xiangqi_play::job::JobKind;
use xiangqi_play::keep::Keep;
use xiangqi_play::positions::{self, FenBody, FenView, LevelView};
use xiangqi_play::summary::Summary;
use xiangqi_play::tablebase_view::TablebaseView;
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
        .route("/tablebase", post(tablebase))
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
pub(crate) async fn blocking<T: Send + 'static>(
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

/// The server's engine jobs of one game: on the pool.
struct PoolJobs<'a> {
    state: &'a Arc<AppState>,
    shared: &'a SharedGame,
}

impl StartJob for PoolJobs<'_> {
    fn start_job(&mut self, entry: &mut GameEntry, kind: JobKind) -> Result<(), String> {
        search::start(self.state, self.shared, entry, kind).map_err(|busy| busy.to_string())
    }

    fn keeps_paused_search(&self) -> bool {
        true
    }
}

/// Carries out `request` on the game under its lock on a blocking thread, and answers with
/// the move to show and the game's state once the change is on disk. If the change cannot be
/// saved, or the request fails, the game stays as it was and the answer is the error. Either
/// way the game's next job is started.
async fn carry_out(
    state: Arc<AppState>,
    id: String,
    request: GameRequest,
) -> Result<(Vec<usize>, GameView), ApiError> {
    blocking(move || {
        let shared = find(&state, &id)?;
        let mut entry = lock(&shared);
        let mut jobs = PoolJobs {
            state: &state,
            shared: &shared,
        };
        let changed = state.games.update(&mut entry, |entry| {
            request.apply(entry, &mut jobs, Instant::now())
        });
        search::schedule(&state, &shared, &mut entry);
        changed.map(|at| (at, view(&entry, Instant::now())))
    })
    .await
}

/// [`carry_out`], answering with the game's state.
async fn act(
    state: Arc<AppState>,
    id: String,
    request: GameRequest,
) -> Result<Json<GameView>, ApiError> {
    let (_, game) = carry_out(state, id, request).await?;
    Ok(Json(game))
}

async fn list_games(State(state): Shared) -> Json<Vec<Summary>> {
    let mut list = state.games.summaries();
    list.sort_by(|a, b| (b.updated, &b.id).cmp(&(a.updated, &a.id)));
    Json(list)
}

async fn new_game(
    State(state): Shared,
    ApiJson(body): ApiJson<NewGame>,
) -> Result<impl IntoResponse, ApiError> {
    let game = body.game()?;
    created(state, game).await
}

async fn created(state: Arc<AppState>, game: WebGame) -> Result<impl IntoResponse, ApiError> {
    let view = blocking(move || {
        let shared = state.games.insert(game)?;
        let mut entry = lock(&shared);
        search::schedule(&state, &shared, &mut entry);
        Ok(view(&entry, Instant::now()))
    })
    .await?;
    Ok((StatusCode::CREATED, Json(view)))
}

/// A game from a file's bytes; the same file loaded again opens the game it made (200), as long
/// as that game is kept, instead of listing a copy.
async fn import_game(
    State(state): Shared,
    query: Result<Query<ImportQuery>, axum::extract::rejection::QueryRejection>,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Result<impl IntoResponse, ApiError> {
    let Query(query) = query?;
    let game = game_requests::imported(&body?, &query)?;
    let (status, view) = blocking(move || {
        let (shared, new) = state.games.insert_import(game)?;
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

async fn get_game(
    State(state): Shared,
    GameId(id): GameId,
    query: Result<Query<GetQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<GameView>, ApiError> {
    let Query(query) = query?;
    blocking(move || {
        let shared = find(&state, &id)?;
        let mut entry = lock(&shared);
        if entry.is_removed() {
            return Err(ApiError::no_game(&id));
        }
        search::schedule(&state, &shared, &mut entry);
        Ok(Json(game_requests::game_view(
            &entry,
            &query,
            Instant::now(),
        )))
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

async fn play_move(
    State(state): Shared,
    GameId(id): GameId,
    ApiJson(body): ApiJson<MoveBody>,
) -> Result<Json<GameView>, ApiError> {
    act(state, id, GameRequest::Move(body)).await
}

async fn study(
    State(state): Shared,
    GameId(id): GameId,
    ApiJson(body): ApiJson<StudyBody>,
) -> Result<Json<StudyView>, ApiError> {
    let (at, game) = carry_out(state, id, GameRequest::Study(body)).await?;
    Ok(Json(StudyView { at, game }))
}

async fn undo(State(state): Shared, GameId(id): GameId) -> Result<Json<GameView>, ApiError> {
    act(state, id, GameRequest::Undo).await
}

async fn redo(State(state): Shared, GameId(id): GameId) -> Result<Json<GameView>, ApiError> {
    act(state, id, GameRequest::Redo).await
}

async fn resign(State(state): Shared, GameId(id): GameId) -> Result<Json<GameView>, ApiError> {
    act(state, id, GameRequest::Resign).await
}

async fn pause(State(state): Shared, GameId(id): GameId) -> Result<Json<GameView>, ApiError> {
    act(state, id, GameRequest::Pause).await
}

async fn resume(State(state): Shared, GameId(id): GameId) -> Result<Json<GameView>, ApiError> {
    act(state, id, GameRequest::Resume).await
}

async fn offer_draw(State(state): Shared, GameId(id): GameId) -> Result<Json<GameView>, ApiError> {
    act(state, id, GameRequest::Draw).await
}

async fn hint(State(state): Shared, GameId(id): GameId) -> Result<Json<GameView>, ApiError> {
    act(state, id, GameRequest::Hint).await
}

async fn review(
    State(state): Shared,
    GameId(id): GameId,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Result<Json<GameView>, ApiError> {
    let body = ReviewBody::read(&body?)?;
    act(state, id, GameRequest::Review(body)).await
}

async fn settings(
    State(state): Shared,
    GameId(id): GameId,
    ApiJson(body): ApiJson<Settings>,
) -> Result<Json<GameView>, ApiError> {
    act(state, id, GameRequest::Settings(body)).await
}

/// The page is gone: its searches stop, and a running clock is paused.
async fn leave(State(state): Shared, GameId(id): GameId) -> Result<StatusCode, ApiError> {
    blocking(move || {
        let shared = find(&state, &id)?;
        let mut entry = lock(&shared);
        if game_requests::leave(&mut entry) {
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
    act(state, id, GameRequest::Retry).await
}

async fn export_pgn(
    State(state): Shared,
    GameId(id): GameId,
    query: Result<Query<PgnQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(query) = query?;
    let (text, name) = blocking(move || {
        let shared = find(&state, &id)?;
        let entry = lock(&shared);
        game_requests::pgn_file(&entry, &query, Instant::now())
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

/// What the endgame tables say of a position (`POST /api/tablebase {"fen"}`): a probe of
/// the tables in memory per legal move, quick enough for the runtime's thread.
async fn tablebase(
    State(state): Shared,
    ApiJson(body): ApiJson<FenBody>,
) -> Result<Json<TablebaseView>, ApiError> {
    positions::tablebase(&body, state.pool.tablebases()).map(Json)
}

async fn check_fen(ApiJson(body): ApiJson<FenBody>) -> Result<Json<FenView>, ApiError> {
    positions::check_fen(&body).map(Json)
}
