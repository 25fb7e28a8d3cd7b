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
//! | `POST /api/lab/cancel` | `{client}`: stops that page's run |
//!
//! Runs and trees wait for a background slot of the [`SearchPool`](super::pool::SearchPool)
//! (the analyses' and reviews'), then search on a blocking thread, never on the async runtime.
//! At most [`MAX_RUNS`](super::lab_runs::MAX_RUNS) are in progress at once; more are refused (503, `busy`). Each has a stop
//! flag: a page names itself with a `client` token, and its next run, or `cancel` (sent when the
//! page is left), stops the one before, which then answers 422 with the code `cancelled`; a
//! client that hangs up stops its run too, and so does the server's shutdown. Every run also
//! stops at [`TIME_LIMIT`] and each search at [`NODE_LIMIT`]; a search stopped by them is a row
//! marked unfinished.

use super::api::{parse_fen, ApiJson};
use super::error::ApiError;
use super::state::AppState;
use axum::extract::State;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;
use xiangqi::Position;
use xiangqi_engine::lab::{self, Algorithm, Evaluation, Settings};
use xiangqi_play::lab_view::{self, EvalView, RowView, TreeView};

/// Longest a run (all its algorithms together) or a tree may search.
pub const TIME_LIMIT: Duration = Duration::from_secs(30);
/// Most nodes one search of a run may visit (about 20–40 s of the laboratory's searches).
pub const NODE_LIMIT: u64 = 30_000_000;
/// Most nodes a recorded tree keeps; the search goes on past it and the tree says it was cut.
pub const TREE_CAP: usize = 20_000;
/// The deepest tree: up to 3 plies every tree fits the cap or nearly, at 4 only alpha-beta's.
pub const MAX_TREE_DEPTH: u32 = 4;
/// Most algorithms in one request.
const MAX_ALGORITHMS: usize = 12;

/// The deepest search the page may ask of `algorithm`: about what finishes in seconds from a
/// middlegame (docs/LAB.md's measurements), minimax's depth 5 would take minutes.
pub fn max_depth(algorithm: Algorithm) -> u32 {
    match algorithm {
        Algorithm::Minimax | Algorithm::Negamax => 4,
        Algorithm::AlphaBeta | Algorithm::AlphaBetaTt => 6,
        Algorithm::AlphaBetaMvvLva | Algorithm::AlphaBetaHistory => 7,
        Algorithm::Pvs | Algorithm::PvsTt | Algorithm::PvsHistory => 7,
        Algorithm::PvsTtHistory | Algorithm::PvsIdAspiration => 8,
        Algorithm::Engine => 20,
    }
}

/// The laboratory's routes (mounted under `/api`).
pub fn routes() -> Router<Arc<AppState>> {
    Router::new()
        .route("/lab", get(info))
        .route("/lab/run", post(run))
        .route("/lab/tree", post(tree))
        .route("/lab/eval", post(eval))
        .route("/lab/cancel", post(cancel))
}

/// One algorithm as the page offers it.
#[derive(Serialize)]
struct AlgorithmInfo {
    name: &'static str,
    max_depth: u32,
    /// Whether it can record its tree.
    tree: bool,
    /// Whether its value is minimax's (all but the engine).
    exact: bool,
}

#[derive(Serialize)]
struct Info {
    algorithms: Vec<AlgorithmInfo>,
    evaluations: [&'static str; 2],
    max_tree_depth: u32,
    tree_cap: usize,
    time_limit_s: u64,
    node_limit: u64,
}

async fn info() -> Json<Info> {
    let algorithms = Algorithm::ALL
        .into_iter()
        .chain(Algorithm::ABLATIONS)
        .map(|a| AlgorithmInfo {
            name: a.name(),
            max_depth: max_depth(a),
            tree: a.records_tree(),
            exact: a.is_exact(),
        })
        .collect();
    Json(Info {
        algorithms,
        evaluations: [Evaluation::Simple.name(), Evaluation::Engine.name()],
        max_tree_depth: MAX_TREE_DEPTH,
        tree_cap: TREE_CAP,
        time_limit_s: TIME_LIMIT.as_secs(),
        node_limit: NODE_LIMIT,
    })
}

/// A run or a tree as the page asks for it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RunBody {
    fen: String,
    depth: u32,
    algorithms: Vec<String>,
    #[serde(default)]
    evaluation: Option<String>,
    /// The page's own token: its next run or `cancel` stops this one.
    #[serde(default)]
    client: Option<String>,
}

/// A checked request.
struct Job {
    pos: Position,
    depth: u32,
    algorithms: Vec<Algorithm>,
    evaluation: Evaluation,
    client: Option<String>,
}

fn bad(message: String) -> ApiError {
    ApiError::BadRequest(excerpt(&message))
}

/// At most 300 characters, whatever a name sent to us held.
fn excerpt(text: &str) -> String {
    if text.chars().count() <= 300 {
        text.to_owned()
    } else {
        let cut: String = text.chars().take(297).collect();
        format!("{cut}…")
    }
}

fn check_client(client: Option<String>) -> Result<Option<String>, ApiError> {
    match client {
        Some(c)
            if c.is_empty()
                || c.len() > 64
                || !c.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') =>
        {
            Err(bad(
                "client must be 1 to 64 letters, digits or hyphens".into()
            ))
        }
        c => Ok(c),
    }
}

impl RunBody {
    /// The request checked: a legal position, known names, a depth each algorithm allows
    /// (at most `tree_depth` and only recording algorithms for a tree).
    fn check(self, tree_depth: Option<u32>) -> Result<Job, ApiError> {
        let pos = parse_fen(&self.fen)?;
        let evaluation = match self.evaluation.as_deref() {
            None => Evaluation::Simple,
            Some(name) => name.parse().map_err(|e| bad(format!("{e}")))?,
        };
        if self.algorithms.is_empty() || self.algorithms.len() > MAX_ALGORITHMS {
            return Err(bad(format!("algorithms: from 1 to {MAX_ALGORITHMS} names")));
        }
        let mut algorithms = Vec::new();
        for name in &self.algorithms {
            let algorithm: Algorithm = name.parse().map_err(|e| bad(format!("{e}")))?;
            let cap = match tree_depth {
                Some(_) if !algorithm.records_tree() => {
                    return Err(bad(format!(
                        "{algorithm} does not record its tree (minimax, negamax and the plain \
                         alpha-beta orders do)"
                    )));
                }
                Some(cap) => cap,
                None => max_depth(algorithm),
            };
            if !(1..=cap).contains(&self.depth) {
                return Err(ApiError::Invalid {
                    code: "lab_depth",
                    message: format!(
                        "depth {} refused: {algorithm} goes from 1 to {cap}",
                        self.depth
                    ),
                });
            }
            if !algorithms.contains(&algorithm) {
                algorithms.push(algorithm);
            }
        }
        Ok(Job {
            pos,
            depth: self.depth,
            algorithms,
            evaluation,
            client: check_client(self.client)?,
        })
    }
}

/// Waits for a background slot, then runs `work` on a blocking thread with the settings of
/// `job` and a stop flag that the page's next run, its `cancel`, the client hanging up (this
/// future is dropped) and the server's shutdown set.
async fn searching<T: Send + 'static>(
    state: &Arc<AppState>,
    job: Job,
    work: impl FnOnce(&Job, Settings) -> T + Send + 'static,
) -> Result<T, ApiError> {
    let ticket = state.lab.start(job.client.as_deref())?;
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
        let settings = Settings {
            stop: Some(Arc::clone(&stop)),
            node_limit: Some(NODE_LIMIT),
            ..Settings::new(job.depth, job.evaluation).with_time_limit(TIME_LIMIT)
        };
        let out = work(&job, settings);
        (!stop.load(Ordering::Relaxed)).then_some(out)
    })
    .await?;
    drop(ticket);
    result.ok_or_else(cancelled)
}

#[derive(Serialize)]
struct RunView {
    fen: String,
    depth: u32,
    evaluation: &'static str,
    /// Knuth and Moore's minimal tree for the root's number of moves.
    minimal_tree: String,
    rows: Vec<RowView>,
}

async fn run(
    State(state): State<Arc<AppState>>,
    ApiJson(body): ApiJson<RunBody>,
) -> Result<Json<RunView>, ApiError> {
    let job = body.check(None)?;
    searching(&state, job, |job, settings| {
        let rows = job
            .algorithms
            .iter()
            .map(|&algorithm| {
                let report =
                    lab::run(algorithm, &job.pos, &settings).expect("the settings were checked");
                lab_view::row(&job.pos, &report)
            })
            .collect();
        let branching = job.pos.legal_moves().len() as u64;
        RunView {
            fen: job.pos.to_fen(),
            depth: job.depth,
            evaluation: job.evaluation.name(),
            minimal_tree: lab::minimal_tree_leaves(branching, job.depth).to_string(),
            rows,
        }
    })
    .await
    .map(Json)
}

#[derive(Serialize)]
struct TreesView {
    fen: String,
    depth: u32,
    evaluation: &'static str,
    cap: usize,
    /// Values at least this large are ±∞ (the window of a search that has none).
    infinite: i32,
    trees: Vec<TreeView>,
}

async fn tree(
    State(state): State<Arc<AppState>>,
    ApiJson(body): ApiJson<RunBody>,
) -> Result<Json<TreesView>, ApiError> {
    let job = body.check(Some(MAX_TREE_DEPTH))?;
    searching(&state, job, |job, settings| {
        let trees = job
            .algorithms
            .iter()
            .map(|&algorithm| {
                let (report, tree) = lab::run_tree(algorithm, &job.pos, &settings, TREE_CAP)
                    .expect("the settings were checked");
                lab_view::tree(&job.pos, &report, &tree)
            })
            .collect();
        TreesView {
            fen: job.pos.to_fen(),
            depth: job.depth,
            evaluation: job.evaluation.name(),
            cap: TREE_CAP,
            infinite: xiangqi_engine::score::INFINITE,
            trees,
        }
    })
    .await
    .map(Json)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EvalBody {
    fen: String,
}

async fn eval(ApiJson(body): ApiJson<EvalBody>) -> Result<Json<EvalView>, ApiError> {
    let pos = parse_fen(&body.fen)?;
    Ok(Json(lab_view::eval(&pos)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CancelBody {
    client: String,
}

#[derive(Serialize)]
struct Cancelled {
    /// Whether a run of that page was going on.
    cancelled: bool,
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
