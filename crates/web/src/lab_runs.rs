//! The search laboratory's runs in progress, each with its stop flag and the page that asked,
//! and the bound on how many there may be.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use xiangqi_play::entry::lock;
use xiangqi_play::error::ApiError;
use xiangqi_play::lab_progress::RunProgress;

/// Most runs and trees in progress at once, waiting or searching; more are refused as busy
/// rather than queued for minutes behind the others.
pub const MAX_RUNS: usize = 8;

/// The runs in progress (waiting for a slot or searching), each with its stop flag and the
/// page that asked, if it named itself. Every run can be stopped: by the page's next run or its
/// `cancel`, by the client hanging up (its [`RunTicket`] is dropped with the request), and all
/// at once when the server shuts down.
#[derive(Default)]
pub struct LabRuns {
    runs: Mutex<Vec<LabRun>>,
}

struct LabRun {
    client: Option<String>,
    stop: Arc<AtomicBool>,
    /// How far a run (not a tree) is, for its page to ask.
    progress: Option<Arc<RunProgress>>,
}

/// A run's place among the runs in progress; dropping it (the run is over, or its request was
/// dropped because the client went away) stops the run and frees the place.
pub struct RunTicket {
    runs: Arc<LabRuns>,
    stop: Arc<AtomicBool>,
}

impl RunTicket {
    /// The run's stop flag, for its search.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }
}

impl Drop for RunTicket {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        lock(&self.runs.runs).retain(|run| !Arc::ptr_eq(&run.stop, &self.stop));
    }
}

impl LabRuns {
    /// A place for a new run of `client` (with its `progress`, if it is a run), stopping that
    /// page's previous run; refused when [`MAX_RUNS`] are in progress.
    pub fn start(
        self: &Arc<Self>,
        client: Option<&str>,
        progress: Option<Arc<RunProgress>>,
    ) -> Result<RunTicket, ApiError> {
        let mut runs = lock(&self.runs);
        if let Some(client) = client {
            for old in runs.iter().filter(|r| r.client.as_deref() == Some(client)) {
                old.stop.store(true, Ordering::Relaxed);
            }
            runs.retain(|r| r.client.as_deref() != Some(client));
        }
        if runs.len() >= MAX_RUNS {
            return Err(ApiError::Busy(format!(
                "the laboratory has {MAX_RUNS} runs in progress; try again when one has ended"
            )));
        }
        let stop = Arc::new(AtomicBool::new(false));
        runs.push(LabRun {
            client: client.map(str::to_owned),
            stop: Arc::clone(&stop),
            progress,
        });
        Ok(RunTicket {
            runs: Arc::clone(self),
            stop,
        })
    }

    /// Stops `client`'s run, if any.
    pub fn cancel(&self, client: &str) -> bool {
        let mut runs = lock(&self.runs);
        let before = runs.len();
        runs.retain(|run| {
            let theirs = run.client.as_deref() == Some(client);
            if theirs {
                run.stop.store(true, Ordering::Relaxed);
            }
            !theirs
        });
        runs.len() < before
    }

    /// How far `client`'s run is (JSON), if it has one in progress.
    pub fn progress(&self, client: &str) -> Option<String> {
        let runs = lock(&self.runs);
        let run = runs
            .iter()
            .find(|run| run.client.as_deref() == Some(client))?;
        run.progress.as_ref().map(|progress| progress.json())
    }

    /// How many runs are in progress.
    pub fn in_progress(&self) -> usize {
        lock(&self.runs).len()
    }

    /// Stops every run (the server is shutting down).
    pub fn cancel_all(&self) {
        for run in lock(&self.runs).drain(..) {
            run.stop.store(true, Ordering::Relaxed);
        }
    }
}
