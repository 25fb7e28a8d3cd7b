//! The engine's full search to the laboratory's depth, through the [`Engine`] facade: one
//! thread, a fresh table, no opening book. It counts only nodes; its value is not minimax's,
//! since it searches captures past the horizon and extends checks.

use super::algorithm::Algorithm;
use super::report::{Outcome, Report, Stats};
use super::settings::{Evaluation, Settings};
use crate::engine::{Engine, EngineOptions, SearchRequest};
use crate::instant::Instant;
use crate::score::mated_in;
use crate::time::Limits;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;
use xiangqi::Position;

/// How often the deadline and the stop flag are looked at while the engine searches.
const POLL: Duration = Duration::from_millis(5);

/// Runs the engine on `pos` to `settings.depth`, stopping it at the deadline or the flag.
pub(super) fn run(pos: &Position, settings: &Settings) -> Report {
    let report = |stats: Stats, time: Duration, outcome: Option<Outcome>| Report {
        algorithm: Algorithm::Engine,
        depth: settings.depth,
        evaluation: Evaluation::Engine,
        stats,
        time,
        outcome,
    };
    if must_stop(settings) {
        // As the laboratory's own searches do at their first node.
        return report(Stats::default(), Duration::ZERO, None);
    }
    if pos.count_legal_moves() == 0 {
        // The engine has no move to give; the answer is the laboratory's: lost.
        let stats = Stats {
            nodes: 1,
            terminals: 1,
            ..Stats::default()
        };
        let lost = Outcome {
            value: mated_in(0),
            best_move: None,
            pv: Vec::new(),
        };
        return report(stats, Duration::ZERO, Some(lost));
    }
    // Set up before the clock starts, as for the laboratory's tables: 16 MiB, like theirs.
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 16,
        threads: 1,
        own_book: false,
        move_overhead: Duration::ZERO,
        ..EngineOptions::default()
    });
    // The engine keeps the laboratory's deadline itself too: a browser build searches inside
    // `start`, where nothing polls it.
    let limits = Limits {
        depth: Some(settings.depth),
        movetime: settings
            .deadline
            .map(|d| d.saturating_duration_since(Instant::now())),
        ..Limits::default()
    };
    let (done, result) = mpsc::channel();
    let started = Instant::now();
    engine.start(
        SearchRequest::new(pos.clone(), limits),
        |_| {},
        move |result| {
            // The receiver waits until this is sent, so it cannot be gone.
            let _ = done.send(result);
        },
    );
    let mut stopped = false;
    let result = loop {
        // A browser build has no timed wait, and its search is over when `start` returns.
        if let Ok(result) = result.try_recv() {
            break Some(result);
        }
        match result.recv_timeout(POLL) {
            Ok(result) => break Some(result),
            Err(RecvTimeoutError::Timeout) => {
                if !stopped && must_stop(settings) {
                    // The engine stops at its next check and still hands over a result.
                    engine.stop();
                    stopped = true;
                }
            }
            Err(RecvTimeoutError::Disconnected) => break None,
        }
    };
    let time = started.elapsed();
    engine.wait();
    let Some(result) = result else {
        return report(Stats::default(), time, None);
    };
    let stats = Stats {
        nodes: result.nodes,
        ..Stats::default()
    };
    // Stopped on time, it has a move from a shallower depth: not the answer asked for.
    let finished = result.depth >= settings.depth;
    let outcome = finished.then_some(Outcome {
        value: result.score,
        best_move: result.best_move,
        pv: result.pv,
    });
    report(stats, time, outcome)
}

/// Whether the deadline has passed or the stop flag is set.
fn must_stop(settings: &Settings) -> bool {
    let late = settings.deadline.is_some_and(|d| Instant::now() >= d);
    let told = settings
        .stop
        .as_ref()
        .is_some_and(|s| s.load(Ordering::Relaxed));
    late || told
}
