//! Work for a client that went away stops, and the queues for the engine have a bound: a lab
//! run whose client hangs up, an analysis or review whose page is gone; more runs or reviews
//! than the server queues are refused as busy.

use super::super::lab_runs::MAX_RUNS;
use super::super::pool::{SearchPool, MAX_WAITING_BACKGROUND};
use super::super::{app, server, AppState};
use super::{assert_error, call_app, TempDir, Test};
use axum::http::StatusCode;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use xiangqi_play::entry;

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// A laboratory run that takes many seconds (minimax to depth 4 from the start).
fn slow_run(client: Option<&str>) -> Value {
    let mut run = json!({"fen": START, "depth": 4, "algorithms": ["minimax"]});
    if let Some(client) = client {
        run["client"] = json!(client);
    }
    run
}

/// Polls `done` every 20 ms for up to `within`.
async fn eventually(within: Duration, done: impl Fn() -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < within {
        if done() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    done()
}

/// Six runs whose clients hung up after 0.2 s went on using the machine for seconds. Now each
/// stops with its connection.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lab_run_whose_client_hangs_up_stops() {
    let dir = TempDir::new();
    let state = AppState::new(&dir.0, 1).unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(server::serve(
        listener,
        app(Arc::clone(&state)),
        server::Limits::default(),
        std::future::pending(),
    ));
    let body = slow_run(None).to_string();
    let request = format!(
        "POST /api/lab/run HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    for _ in 0..3 {
        let mut stream = TcpStream::connect(address).await.unwrap();
        stream.write_all(request.as_bytes()).await.unwrap();
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert_eq!(state.lab.in_progress(), 1, "the run was started");
        drop(stream);
        assert!(
            eventually(Duration::from_secs(2), || state.lab.in_progress() == 0).await,
            "the run went on after its client hung up"
        );
    }
    // The slot is free: a small run is answered at once.
    let quick = json!({"fen": START, "depth": 1, "algorithms": ["alphabeta"]});
    let started = Instant::now();
    let (status, run) =
        call_app(app(Arc::clone(&state)), "POST", "/api/lab/run", Some(quick)).await;
    assert_eq!(status, StatusCode::OK, "{run}");
    assert!(started.elapsed() < Duration::from_secs(2));
}

/// Seventy pages asking at once: the first runs are taken (and can all be cancelled), the
/// others are told the laboratory is busy instead of waiting behind them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lab_runs_beyond_the_bound_are_refused_and_every_run_can_be_cancelled() {
    let t = Test::with_slots(TempDir::new(), 1);
    let mut runs = Vec::new();
    for i in 0..MAX_RUNS {
        let app = t.app.clone();
        let run = slow_run(Some(&format!("page-{i}")));
        runs.push(tokio::spawn(async move {
            call_app(app, "POST", "/api/lab/run", Some(run)).await
        }));
    }
    assert!(
        eventually(Duration::from_secs(5), || t.state.lab.in_progress()
            == MAX_RUNS)
        .await
    );
    for i in MAX_RUNS..70 {
        let run = slow_run(Some(&format!("page-{i}")));
        let (status, error) = t.call("POST", "/api/lab/run", Some(run)).await;
        assert_error(status, &error, StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(error["error"], "busy");
    }
    for i in 0..MAX_RUNS {
        let page = json!({"client": format!("page-{i}")});
        let (_, cancelled) = t.call("POST", "/api/lab/cancel", Some(page)).await;
        assert_eq!(cancelled["cancelled"], true, "page-{i}");
    }
    for run in runs {
        let (status, error) = run.await.unwrap();
        assert_error(status, &error, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(error["code"], "cancelled");
    }
    assert_eq!(t.state.lab.in_progress(), 0);
}

/// An analysis whose page stopped asking about it (closed, crashed, offline) stops; one whose
/// page keeps asking goes on. (A review is stopped the same way: both are background jobs.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_analysis_nobody_watches_stops() {
    let dir = TempDir::new();
    let pool = SearchPool::with_abandon_time(1, 1, Duration::from_millis(300));
    let state = AppState::with_pool(&dir.0, pool);
    let t = Test::with_state(dir, state);
    let analyse = json!({"analysis": true});
    // An analysis searches for up to a minute.
    let watched = t.new_game(json!({"human": "both"})).await;
    let watched = watched["id"].as_str().unwrap();
    let settings = format!("/api/games/{watched}/settings");
    let (status, game) = t.call("POST", &settings, Some(analyse.clone())).await;
    assert_eq!(status, StatusCode::OK, "{game}");
    let asked = Instant::now();
    while asked.elapsed() < Duration::from_millis(1500) {
        let (_, game) = t.call("GET", &format!("/api/games/{watched}"), None).await;
        assert_eq!(
            game["job"], "analysis",
            "it stopped while its page asked: {game}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let (_, game) = t
        .call("POST", &settings, Some(json!({"analysis": false})))
        .await;
    assert!(game["job"].is_null(), "{game}");

    let abandoned = t.new_game(json!({"human": "both"})).await;
    let abandoned = abandoned["id"].as_str().unwrap();
    let settings = format!("/api/games/{abandoned}/settings");
    let (status, game) = t.call("POST", &settings, Some(analyse)).await;
    assert_eq!(status, StatusCode::OK, "{game}");
    assert_eq!(game["job"], "analysis", "{game}");
    let shared = t.state.games.get(abandoned).unwrap();
    let stopped = eventually(Duration::from_secs(3), || {
        entry::lock(&shared).job_kind().is_none()
    })
    .await;
    assert!(stopped, "the analysis went on with nobody watching");
    // The page coming back starts it again.
    let (_, game) = t
        .call("GET", &format!("/api/games/{abandoned}"), None)
        .await;
    assert_eq!(game["job"], "analysis", "{game}");
    entry::lock(&shared).cancel_job();
}

/// Analyses (and reviews, which share the queue) beyond the queue's bound are refused as busy,
/// not queued for minutes; the analysis asked for is then off, as it was.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analyses_beyond_the_queue_are_refused_as_busy() {
    let t = Test::with_slots(TempDir::new(), 1);
    let mut ids = Vec::new();
    for _ in 0..MAX_WAITING_BACKGROUND + 2 {
        let game = t.new_game(json!({"human": "both"})).await;
        ids.push(game["id"].as_str().unwrap().to_owned());
    }
    let analyse = |id: &str| {
        let path = format!("/api/games/{id}/settings");
        let app = t.app.clone();
        async move { call_app(app, "POST", &path, Some(json!({"analysis": true}))).await }
    };
    // One analysis runs (for up to a minute), the next ones wait, up to the bound.
    let (status, body) = analyse(&ids[0]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    t.wait(&ids[0], "the first analysis to run", |g| {
        g["analysis"]["depth"].as_u64() > Some(0)
    })
    .await;
    for (i, id) in ids[1..=MAX_WAITING_BACKGROUND].iter().enumerate() {
        let (status, body) = analyse(id).await;
        assert_eq!(status, StatusCode::OK, "analysis {i}: {body}");
    }
    let last = &ids[MAX_WAITING_BACKGROUND + 1];
    let (status, error) = analyse(last).await;
    assert_error(status, &error, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(error["error"], "busy");
    let (_, game) = t.call("GET", &format!("/api/games/{last}"), None).await;
    assert!(game["job"].is_null(), "{game}");
    assert_eq!(game["analysis_on"], false, "{game}");
    for id in &ids {
        let shared = t.state.games.get(id).unwrap();
        entry::lock(&shared).cancel_job();
    }
}

/// A computer's search paused with the clock waits for Resume, but not for a page that is gone:
/// once nobody asks about the game, it stops and its engine goes back to the pool. A search
/// that is not paused is left to its clock.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paused_search_nobody_watches_stops() {
    let dir = TempDir::new();
    let pool = SearchPool::with_abandon_time(1, 1, Duration::from_millis(300));
    let state = AppState::with_pool(&dir.0, pool);
    let t = Test::with_state(dir, state);
    // Thirty minutes: the optimum is most of a minute, so even an easy move (played after a
    // twentieth of it, about three seconds) is still being searched below.
    let (id, _stops) = t.computer_thinking(30.0).await;
    let shared = t.state.games.get(&id).unwrap();
    // Unwatched but not paused: its clock ends it, not the watcher.
    tokio::time::sleep(Duration::from_millis(700)).await;
    assert_eq!(
        entry::lock(&shared).job_kind(),
        Some(xiangqi_play::job::JobKind::Computer)
    );
    let (status, paused) = t
        .call("POST", &format!("/api/games/{id}/pause"), None)
        .await;
    assert_eq!(status, StatusCode::OK, "{paused}");
    assert_eq!(paused["job"], "computer", "{paused}");
    let stopped = eventually(Duration::from_secs(3), || {
        entry::lock(&shared).job_kind().is_none()
    })
    .await;
    assert!(stopped, "the paused search waited with nobody watching");
    // Resume starts the computer's search again.
    let (_, resumed) = t
        .call("POST", &format!("/api/games/{id}/resume"), None)
        .await;
    assert_eq!(resumed["job"], "computer", "{resumed}");
}
