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

use super::api::ApiJson;
use super::state::AppState;
use axum::extract::{Query, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use xiangqi_files::disk;
use xiangqi_play::error::ApiError;
use xiangqi_play::puzzle_requests::{
    self, AttemptBody, HintView, MoveBody, MoveView, NextQuery, PuzzleRecord, PuzzleView,
    RecordView, ResultBody, SolutionView,
};

/// The record's file in the data directory.
const RECORD_FILE: &str = "puzzles.json";
/// The largest record file read (5,000 attempts take well under a megabyte).
const MAX_RECORD_LEN: u64 = 16 << 20;

/// The player's puzzle record and where it is kept.
pub struct PuzzleBook {
    path: PathBuf,
    record: Mutex<PuzzleRecord>,
}

impl PuzzleBook {
    /// The record kept in `data_dir`. One that cannot be read is moved aside (to
    /// `puzzles.json.unreadable`), never overwritten, and a new one starts.
    pub fn open(data_dir: &Path) -> PuzzleBook {
        let path = data_dir.join(RECORD_FILE);
        let record = match xiangqi_files::reading::read(&path, MAX_RECORD_LEN) {
            Ok(bytes) => {
                let text = String::from_utf8_lossy(&bytes);
                PuzzleRecord::from_json(&text).unwrap_or_else(|reason| {
                    let aside = data_dir.join(format!("{RECORD_FILE}.unreadable"));
                    eprintln!(
                        "xiangqi: the puzzle record {} cannot be read ({reason}); it is kept as {} and a new one starts",
                        path.display(),
                        aside.display()
                    );
                    let _ = std::fs::rename(&path, &aside);
                    PuzzleRecord::default()
                })
            }
            Err(_) => PuzzleRecord::default(),
        };
        PuzzleBook {
            path,
            record: Mutex::new(record),
        }
    }

    fn record(&self) -> std::sync::MutexGuard<'_, PuzzleRecord> {
        self.record.lock().unwrap_or_else(|e| e.into_inner())
    }
}

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
    let book = &state.puzzles;
    let mut record = book.record();
    let mut changed = record.clone();
    let now = xiangqi_engine::instant::unix_seconds();
    let view = puzzle_requests::result(&mut changed, &body, now)?;
    // Kept in memory only once it is on disk: a full disk loses no earlier result.
    disk::replace(&book.path, changed.to_json().as_bytes())?;
    *record = changed;
    Ok(Json(view))
}
