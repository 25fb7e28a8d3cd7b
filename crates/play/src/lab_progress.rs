//! A laboratory run as a page watches it while it searches: the rows done, the algorithm
//! searching now and its nodes so far. The server's page asks for it (`GET
//! /api/lab/progress`); the static site's worker, busy searching, reports it as it goes. A
//! page that stops the run keeps the rows done, the one searching marked stopped.

use crate::entry::lock;
use crate::lab_view::RowView;
use serde::Serialize;
use std::sync::{Arc, Mutex};
use xiangqi_engine::instant::Instant;
use xiangqi_engine::lab::Progress;

/// What a run is, before its rows: the position (FEN), depth, evaluation, Knuth and Moore's
/// minimal tree, and how many algorithms it runs.
pub struct RunHeading {
    /// The position searched, FEN.
    pub fen: String,
    /// The depth.
    pub depth: u32,
    /// The evaluation's name.
    pub evaluation: &'static str,
    /// The minimal tree's leaves for the root's number of moves.
    pub minimal_tree: String,
    /// How many algorithms the run has.
    pub count: usize,
}

/// What a page is shown of a run in progress.
#[derive(Serialize)]
pub struct ProgressView<'a> {
    fen: &'a str,
    depth: u32,
    evaluation: &'static str,
    minimal_tree: &'a str,
    /// The algorithm searching now (`None` before the first and after the last).
    algorithm: Option<&'static str>,
    /// Its place among the run's algorithms, from 0.
    index: usize,
    /// How many algorithms the run has.
    count: usize,
    /// Its nodes so far (0 for the engine's row, which reports at the end).
    nodes: u64,
    /// Milliseconds it has searched.
    ms: u64,
    /// The rows done.
    rows: &'a [RowView],
}

/// Where a run that reports as it goes sends its progress (JSON).
type Report = Box<dyn Fn(&str) + Send + Sync>;

struct State {
    algorithm: Option<&'static str>,
    index: usize,
    since: Instant,
    rows: Vec<RowView>,
}

struct Shared {
    heading: RunHeading,
    state: Mutex<State>,
    report: Option<Report>,
}

impl Shared {
    fn json(&self, nodes: u64) -> String {
        let state = lock(&self.state);
        let heading = &self.heading;
        let view = ProgressView {
            fen: &heading.fen,
            depth: heading.depth,
            evaluation: heading.evaluation,
            minimal_tree: &heading.minimal_tree,
            algorithm: state.algorithm,
            index: state.index,
            count: heading.count,
            nodes,
            ms: state.since.elapsed().as_millis() as u64,
            rows: &state.rows,
        };
        serde_json::to_string(&view).unwrap_or_default()
    }

    fn tell(&self, nodes: u64) {
        if let Some(report) = &self.report {
            report(&self.json(nodes));
        }
    }
}

/// A run's progress, shared by the run and whoever shows it.
pub struct RunProgress {
    shared: Arc<Shared>,
    nodes: Arc<Progress>,
}

impl RunProgress {
    /// The progress of the run `heading` names, for a page that asks.
    pub fn new(heading: RunHeading) -> RunProgress {
        RunProgress::make(heading, None)
    }

    /// The same, handed to `report` (JSON, a [`ProgressView`]) when an algorithm starts or
    /// ends and every [`Progress::TICK_NODES`] nodes or so.
    pub fn reporting(
        heading: RunHeading,
        report: impl Fn(&str) + Send + Sync + 'static,
    ) -> RunProgress {
        RunProgress::make(heading, Some(Box::new(report)))
    }

    fn make(heading: RunHeading, report: Option<Report>) -> RunProgress {
        let shared = Arc::new(Shared {
            heading,
            state: Mutex::new(State {
                algorithm: None,
                index: 0,
                since: Instant::now(),
                rows: Vec::new(),
            }),
            report,
        });
        let ticking = Arc::clone(&shared);
        let nodes = Arc::new(Progress::with_tick(move |nodes| ticking.tell(nodes)));
        RunProgress { shared, nodes }
    }

    /// Where the searches count their nodes.
    pub fn nodes(&self) -> Arc<Progress> {
        Arc::clone(&self.nodes)
    }

    /// The `index`-th algorithm, `name`, starts.
    pub fn begin(&self, index: usize, name: &'static str) {
        {
            let mut state = lock(&self.shared.state);
            state.algorithm = Some(name);
            state.index = index;
            state.since = Instant::now();
        }
        self.nodes.reset();
        self.shared.tell(0);
    }

    /// The algorithm searching ended with `row`.
    pub fn done(&self, row: RowView) {
        {
            let mut state = lock(&self.shared.state);
            state.rows.push(row);
            state.algorithm = None;
            state.index += 1;
        }
        self.shared.tell(0);
    }

    /// The progress as JSON (a [`ProgressView`]).
    pub fn json(&self) -> String {
        self.shared.json(self.nodes.nodes())
    }
}
