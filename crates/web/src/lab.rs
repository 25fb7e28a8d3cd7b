//! The search laboratory's API: the page `/lab` runs the engine's textbook searches
//! ([`xiangqi_engine::lab`]) side by side on a position, records small trees, and takes the
//! evaluations apart.
//!
//! | route | does |
//! |---|---|
//! | `GET /api/lab` | the algorithms with their depth caps, the evaluations, the limits |
//! | `POST /api/lab/run` | `{fen, depth, algorithms, evaluation, client?}`: one row per algorithm |
//! | `POST /api/lab/tree` | `{fen, depth, algorithms, evaluation, client?}`: the recorded trees |
//! | `POST /api/lab/eval` | `{fen}`: every term of both evaluations, Red, Black and the difference |
//! | `GET /api/lab/progress?client=` | how far that page's run is: the rows done, the algorithm searching and its nodes |
//! | `POST /api/lab/cancel` | `{client}`: stops that page's run |
//!
//! Runs and trees wait for a background slot of the [`SearchPool`](super::pool::SearchPool)
//! (the analyses' and reviews'), then search on a blocking thread, never on the async runtime.
//! At most [`MAX_RUNS`](super::lab_runs::MAX_RUNS) are in progress at once; more are refused (503, `busy`). Each has a stop
//! flag: a page names itself with a `client` token, and its next run, or `cancel` (sent when the
//! page is left), stops the one before, which then answers 422 with the code `cancelled`; a
//! client that hangs up stops its run too, and so does the server's shutdown. Every run also
//! stops at [`TIME_LIMIT`](lab_requests::TIME_LIMIT) and each search at
//! [`NODE_LIMIT`](lab_requests::NODE_LIMIT); a search stopped by them is a row
//! marked unfinished.

use super::api::ApiJson;
use super::state::AppState;
use axum::extract::{Query, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use xiangqi_engine::lab::Settings;
use xiangqi_play::error::ApiError;
use xiangqi_play::lab_progress::RunProgress;
use xiangqi_play::lab_requests::{
    self, check_client, CancelBody, Cancelled, Info, Job, RunBody, RunView, TreesView,
    MAX_TREE_DEPTH,
};
use xiangqi_play::lab_view::EvalView;
use xiangqi_play::positions::FenBody;

/// The laboratory's routes (mounted under `/api`).
pub fn routes() -> Router<Arc<AppState>> {
    Router::new()
        .route("/lab", get(info))
        .route("/lab/run", post(run))
        .route("/lab/tree", post(tree))
        .route("/lab/eval", post(eval))
        .route("/lab/progress", get(progress))
        .route("/lab/cancel", post(cancel))
}

/// Waits for a background slot, then runs `work` on a blocking thread with the settings of
/// `job` and a stop flag that the page's next run, its `cancel`, the client hanging up (this
/// future is dropped) and the server's shutdown set.
async fn searching<T: Send + 'static>(
    state: &Arc<AppState>,
    job: Job,
    progress: Option<Arc<RunProgress>>,
    work: impl FnOnce(&Job, Settings) -> T + Send + 'static,
) -> Result<T, ApiError> {
    let ticket = state.lab.start(job.client.as_deref(), progress)?;
    let cancelled = || ApiError::Rejected {
        code: "cancelled",
        message: "the run was cancelled by a newer one, by the page or by the server".into(),
    };
    let permit = state.pool.background_slot().await;
    let stop = ticket.stop_flag();
    let result = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let out = work(&job, job.settings(Some(Arc::clone(&stop))));
        (!stop.load(Ordering::Relaxed)).then_some(out)
    })
    .await?;
    drop(ticket);
    result.ok_or_else(cancelled)
}

async fn info() -> Json<Info> {
    Json(lab_requests::info())
}

async fn run(
    State(state): State<Arc<AppState>>,
    ApiJson(body): ApiJson<RunBody>,
) -> Result<Json<RunView>, ApiError> {
    let job = body.check(None)?;
    let progress = Arc::new(RunProgress::new(job.heading()));
    let watched = Arc::clone(&progress);
    searching(&state, job, Some(progress), move |job, settings| {
        lab_requests::run(job, &settings, Some(&watched))
    })
    .await
    .map(Json)
}

async fn tree(
    State(state): State<Arc<AppState>>,
    ApiJson(body): ApiJson<RunBody>,
) -> Result<Json<TreesView>, ApiError> {
    let job = body.check(Some(MAX_TREE_DEPTH))?;
    searching(&state, job, None, |job, settings| {
        lab_requests::tree(job, &settings)
    })
    .await
    .map(Json)
}

async fn eval(ApiJson(body): ApiJson<FenBody>) -> Result<Json<EvalView>, ApiError> {
    lab_requests::eval(&body).map(Json)
}

/// `?client=`: the page whose run to look at.
#[derive(serde::Deserialize)]
struct ProgressQuery {
    client: String,
}

async fn progress(
    State(state): State<Arc<AppState>>,
    query: Result<Query<ProgressQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(query) = query?;
    let client = check_client(Some(query.client))?.unwrap_or_default();
    let json = state
        .lab
        .progress(&client)
        .ok_or_else(|| ApiError::NotFound("that page has no laboratory run in progress".into()))?;
    Ok(([(header::CONTENT_TYPE, "application/json")], json).into_response())
}

async fn cancel(
    State(state): State<Arc<AppState>>,
    ApiJson(body): ApiJson<CancelBody>,
) -> Result<Json<Cancelled>, ApiError> {
    let client = check_client(Some(body.client))?.unwrap_or_default();
    Ok(Json(Cancelled {
        cancelled: state.lab.cancel(&client),
    }))
}
