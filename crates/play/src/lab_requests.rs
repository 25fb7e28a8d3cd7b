//! The search laboratory's requests, as the server's routes and a page with no server both
//! answer them: what it offers, a run or a tree checked against its limits and computed, the
//! evaluations taken apart. Who runs a search when, and how it is stopped, is the caller's.

use crate::error::ApiError;
use crate::lab_progress::{RunHeading, RunProgress};
use crate::lab_view::{self, EvalView, RowView, TreeView};
use crate::positions::{parse_fen, FenBody};
use serde::{Deserialize, Serialize};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;
use xiangqi::Position;
use xiangqi_engine::lab::{self, Algorithm, Evaluation, Report, Settings};

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
        Algorithm::AlphaBetaKiller => 7,
        Algorithm::AlphaBetaQuiescence | Algorithm::AlphaBetaQuiescenceMvvLva => 6,
        Algorithm::AlphaBetaNullMove | Algorithm::AlphaBetaLmr => 8,
        Algorithm::Engine => 20,
    }
}

/// One algorithm as the page offers it.
#[derive(Serialize)]
pub struct AlgorithmInfo {
    /// Its name in requests.
    name: &'static str,
    /// The deepest search the page may ask of it.
    max_depth: u32,
    /// Whether it can record its tree.
    tree: bool,
    /// Whether its value is minimax's (all but the engine).
    exact: bool,
}

/// What the laboratory offers (`GET /api/lab`).
#[derive(Serialize)]
pub struct Info {
    /// The algorithms.
    algorithms: Vec<AlgorithmInfo>,
    /// The evaluations' names.
    evaluations: [&'static str; 2],
    /// The deepest recorded tree.
    max_tree_depth: u32,
    /// Most nodes a tree keeps.
    tree_cap: usize,
    /// Longest a run may search, in seconds.
    time_limit_s: u64,
    /// Most nodes one search may visit.
    node_limit: u64,
}

/// What the laboratory offers.
pub fn info() -> Info {
    let algorithms = Algorithm::every()
        .map(|a| AlgorithmInfo {
            name: a.name(),
            max_depth: max_depth(a),
            tree: a.records_tree(),
            exact: a.is_exact(),
        })
        .collect();
    Info {
        algorithms,
        evaluations: [Evaluation::Simple.name(), Evaluation::Engine.name()],
        max_tree_depth: MAX_TREE_DEPTH,
        tree_cap: TREE_CAP,
        time_limit_s: TIME_LIMIT.as_secs(),
        node_limit: NODE_LIMIT,
    }
}

/// A run or a tree as the page asks for it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunBody {
    /// The position.
    fen: String,
    /// The depth of every search.
    depth: u32,
    /// The algorithms' names.
    algorithms: Vec<String>,
    /// The evaluation's name (the simple one when absent).
    #[serde(default)]
    evaluation: Option<String>,
    /// The page's own token: its next run or `cancel` stops this one.
    #[serde(default)]
    client: Option<String>,
}

/// A checked request.
pub struct Job {
    pos: Position,
    depth: u32,
    algorithms: Vec<Algorithm>,
    evaluation: Evaluation,
    /// The page's own token.
    pub client: Option<String>,
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

/// A page's token checked: 1 to 64 letters, digits or hyphens.
pub fn check_client(client: Option<String>) -> Result<Option<String>, ApiError> {
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
    pub fn check(self, tree_depth: Option<u32>) -> Result<Job, ApiError> {
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

/// A run's rows (`POST /api/lab/run`).
#[derive(Serialize)]
pub struct RunView {
    /// The position searched.
    fen: String,
    /// The depth.
    depth: u32,
    /// The evaluation's name.
    evaluation: &'static str,
    /// Knuth and Moore's minimal tree for the root's number of moves.
    minimal_tree: String,
    /// One row per algorithm.
    rows: Vec<RowView>,
}

/// Why a search did not finish: the laboratory's node limit, its time limit (for the whole
/// run), or a stop; `None` if it finished.
fn stop_reason(report: &Report) -> Option<&'static str> {
    if report.finished() {
        None
    } else if report.stats.nodes >= NODE_LIMIT {
        Some("node_limit")
    } else if report.time >= TIME_LIMIT {
        Some("time_limit")
    } else {
        Some("stopped")
    }
}

/// Runs every algorithm of `job` with `settings`: one row each, told to `progress` as the
/// run goes.
pub fn run(job: &Job, settings: &Settings, progress: Option<&RunProgress>) -> RunView {
    let settings = Settings {
        progress: progress.map(RunProgress::nodes),
        ..settings.clone()
    };
    let rows = job
        .algorithms
        .iter()
        .enumerate()
        .map(|(i, &algorithm)| {
            if let Some(progress) = progress {
                progress.begin(i, algorithm.name());
            }
            let report =
                lab::run(algorithm, &job.pos, &settings).expect("the settings were checked");
            let row = lab_view::row(&job.pos, &report).stopped_by(stop_reason(&report));
            if let Some(progress) = progress {
                progress.done(row.clone());
            }
            row
        })
        .collect();
    let heading = job.heading();
    RunView {
        fen: heading.fen,
        depth: heading.depth,
        evaluation: heading.evaluation,
        minimal_tree: heading.minimal_tree,
        rows,
    }
}

/// The recorded trees (`POST /api/lab/tree`).
#[derive(Serialize)]
pub struct TreesView {
    /// The position searched.
    fen: String,
    /// The depth.
    depth: u32,
    /// The evaluation's name.
    evaluation: &'static str,
    /// Most nodes a tree keeps.
    cap: usize,
    /// Values at least this large are ±∞ (the window of a search that has none).
    infinite: i32,
    /// One tree per algorithm.
    trees: Vec<TreeView>,
}

/// Records the tree of every algorithm of `job` with `settings`.
pub fn tree(job: &Job, settings: &Settings) -> TreesView {
    let trees = job
        .algorithms
        .iter()
        .map(|&algorithm| {
            let (report, tree) = lab::run_tree(algorithm, &job.pos, settings, TREE_CAP)
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
}

impl Job {
    /// What the job's run is, before its rows.
    pub fn heading(&self) -> RunHeading {
        let branching = self.pos.legal_moves().len() as u64;
        RunHeading {
            fen: self.pos.to_fen(),
            depth: self.depth,
            evaluation: self.evaluation.name(),
            minimal_tree: lab::minimal_tree_leaves(branching, self.depth).to_string(),
            count: self.algorithms.len(),
        }
    }

    /// The settings of the job's searches, with the laboratory's limits and `stop`.
    pub fn settings(&self, stop: Option<Arc<AtomicBool>>) -> Settings {
        Settings {
            stop,
            node_limit: Some(NODE_LIMIT),
            ..Settings::new(self.depth, self.evaluation).with_time_limit(TIME_LIMIT)
        }
    }
}

/// Every term of both evaluations of a position (`POST /api/lab/eval`).
pub fn eval(body: &FenBody) -> Result<EvalView, ApiError> {
    Ok(lab_view::eval(&parse_fen(&body.fen)?))
}

/// `POST /api/lab/cancel`: the page whose run to stop.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CancelBody {
    /// The page's token.
    pub client: String,
}

/// The answer to a cancel.
#[derive(Serialize)]
pub struct Cancelled {
    /// Whether a run of that page was going on.
    pub cancelled: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi_engine::lab::Stats;

    fn report(nodes: u64, time: Duration) -> Report {
        Report {
            algorithm: Algorithm::Minimax,
            depth: 4,
            evaluation: Evaluation::Simple,
            stats: Stats {
                nodes,
                ..Stats::default()
            },
            time,
            outcome: None,
        }
    }

    #[test]
    fn an_unfinished_row_says_which_limit_stopped_it() {
        let second = Duration::from_secs(1);
        assert_eq!(stop_reason(&report(NODE_LIMIT, second)), Some("node_limit"));
        assert_eq!(stop_reason(&report(1_000, TIME_LIMIT)), Some("time_limit"));
        assert_eq!(stop_reason(&report(1_000, second)), Some("stopped"));
    }
}
