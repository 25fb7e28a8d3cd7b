//! Puzzles' API: the page `/puzzles` asks for a puzzle, sends the solver's moves to be judged
//! by the engine, asks for hints, and records each result in the player's puzzle record,
//! kept in `puzzles.json` in the data directory.
//!
//! | route | does |
//! |---|---|
//! | `GET /api/puzzles` | the record: rating, attempts, the latest ones; the themes on offer |
//! | `GET /api/puzzles/next?theme=&id=` | the next puzzle (near the rating, not tried yet), or that one |
//! | `POST /api/puzzles/move` | `{id, played, move}`: `right` with the reply, `solved`, or `wrong` with the refutation |
//! | `POST /api/puzzles/hint` | `{id, played}`: the move to make (the page shows its piece first) |
//! | `POST /api/puzzles/solution` | `{id}`: the whole solution |
//! | `POST /api/puzzles/result` | `{id, solved}`: recorded; the record after it |
//!
//! A move's judgement searches (a few tenths of a second) in a background slot of the
//! [`SearchPool`](super::pool::SearchPool), on a blocking thread.

use super::api::{blocking, ApiJson};
use super::state::AppState;
use axum::extract::{Query, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use std::sync::Arc;
use xiangqi_play::error::ApiError;
use xiangqi_play::puzzle_requests::{
    self, AttemptBody, HintView, MoveBody, MoveView, NextQuery, PuzzleView, RecordView, ResultBody,
    SolutionView,
};

/// The puzzles' routes (mounted under `/api`).
pub fn routes() -> Router<Arc<AppState>> {
    Router::new()
        .route("/puzzles", get(record))
        .route("/puzzles/next", get(next))
        .route("/puzzles/move", post(play))
        .route("/puzzles/hint", post(hint))
        .route("/puzzles/solution", post(solution))
        .route("/puzzles/result", post(result))
}

async fn record(State(state): State<Arc<AppState>>) -> Json<RecordView> {
    Json(puzzle_requests::record_view(&state.puzzles.record()))
}

async fn next(
    State(state): State<Arc<AppState>>,
    query: Result<Query<NextQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<PuzzleView>, ApiError> {
    let Query(query) = query?;
    puzzle_requests::next(&state.puzzles.record(), &query).map(Json)
}

/// Runs `work` on a blocking thread once a background slot is free.
async fn judging<T: Send + 'static>(
    state: &Arc<AppState>,
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let permit = state.pool.background_slot().await;
    tokio::task::spawn_blocking(move || {
        let _permit = permit;
        work()
    })
    .await?
}

async fn play(
    State(state): State<Arc<AppState>>,
    ApiJson(body): ApiJson<MoveBody>,
) -> Result<Json<MoveView>, ApiError> {
    judging(&state, move || puzzle_requests::play(&body))
        .await
        .map(Json)
}

async fn hint(
    State(state): State<Arc<AppState>>,
    ApiJson(body): ApiJson<AttemptBody>,
) -> Result<Json<HintView>, ApiError> {
    judging(&state, move || puzzle_requests::hint(&body))
        .await
        .map(Json)
}

async fn solution(ApiJson(body): ApiJson<AttemptBody>) -> Result<Json<SolutionView>, ApiError> {
    puzzle_requests::solution(&body).map(Json)
}

async fn result(
    State(state): State<Arc<AppState>>,
    ApiJson(body): ApiJson<ResultBody>,
) -> Result<Json<RecordView>, ApiError> {
    let now = xiangqi_engine::instant::unix_seconds();
    // The record is written durably (synced to disk) under its lock: off the async threads.
    blocking(move || {
        state
            .puzzles
            .change(|record| puzzle_requests::result(record, &body, now))
    })
    .await
    .map(Json)
}
