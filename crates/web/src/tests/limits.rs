//! Limits and fairness: every error is JSON and short, bodies must arrive in time, analysis
//! does not starve another game's move, and idle games leave memory without being lost.

use super::super::store::MAX_LOADED_GAMES;
use super::super::{app_with_body_timeout, AppState};
use super::{assert_error, plies, TempDir, Test};
use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use serde_json::{json, Value};
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;
use tower::ServiceExt;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_error_is_json_with_the_right_status() {
    let t = Test::new();
    for uri in ["/api/nothing", "/api/", "/api/games/%FF", "/nothing"] {
        let (status, body) = t.call("GET", uri, None).await;
        assert_error(status, &body, StatusCode::NOT_FOUND);
    }
    for uri in ["/api/games/%FF/move", "/api/games/a%00b/undo"] {
        let (status, body) = t.call("POST", uri, Some(json!({"move": "h2e2"}))).await;
        assert_error(status, &body, StatusCode::NOT_FOUND);
    }
    let request = Request::builder()
        .method("PUT")
        .uri("/api/games")
        .body(Body::empty())
        .unwrap();
    let response = t.app.clone().oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::METHOD_NOT_ALLOWED);
    let allow = response.headers()[header::ALLOW]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(allow.contains("GET") && allow.contains("POST"), "{allow}");
    let body = axum::body::to_bytes(response.into_body(), 10_000)
        .await
        .unwrap();
    let body: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(body["error"], "method_not_allowed");
    let (status, body) = t.call("DELETE", "/api/games/x/move", None).await;
    assert_error(status, &body, StatusCode::METHOD_NOT_ALLOWED);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn errors_quote_only_a_short_excerpt_of_bad_input() {
    let t = Test::new();
    let long = "x".repeat(100_000);
    let bodies = [
        json!({ "level": long }),
        json!({ "fen": long }),
        json!({ "human": long }),
        json!({ long.clone(): 1 }),
    ];
    for body in bodies {
        let (status, bytes) = t
            .raw(
                "POST",
                "/api/games",
                "application/json",
                body.to_string().into_bytes(),
            )
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(bytes.len() < 1000, "{} bytes of error", bytes.len());
    }
    let game = t.new_game(json!({"human": "both"})).await;
    let id = game["id"].as_str().unwrap();
    let (status, body) = t.play(id, &long).await;
    assert!(status.is_client_error());
    assert!(body.to_string().len() < 1000);
}

/// A body that never arrives.
struct Stalled;

impl hyper::body::Body for Stalled {
    type Data = axum::body::Bytes;
    type Error = std::io::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<hyper::body::Frame<Self::Data>, Self::Error>>> {
        Poll::Pending
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_that_does_not_arrive_in_time_is_refused() {
    let dir = TempDir::new();
    let state = AppState::new(&dir.0, 1).unwrap();
    let router = app_with_body_timeout(state, Duration::from_millis(200));
    let request = Request::builder()
        .method("POST")
        .uri("/api/games")
        .header("content-type", "application/json")
        .body(Body::new(Stalled))
        .unwrap();
    let response = router.oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::REQUEST_TIMEOUT);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_games_analysis_does_not_delay_the_computers_move() {
    // One slot of each kind: the analysis (up to a minute) holds the background slot.
    let t = Test::with_slots(TempDir::new(), 1);
    let analysed = t.new_game(json!({"human": "both"})).await;
    let analysed = analysed["id"].as_str().unwrap().to_owned();
    let (s, _) = t
        .call(
            "POST",
            &format!("/api/games/{analysed}/settings"),
            Some(json!({"analysis": true})),
        )
        .await;
    assert_eq!(s, StatusCode::OK);
    t.wait(&analysed, "the analysis to start", |g| {
        g["analysis"].is_object()
    })
    .await;
    let game = t.new_game(json!({"human": "black", "level": 1})).await;
    let id = game["id"].as_str().unwrap();
    // `wait` gives up after 30 s, half of what the analysis may take.
    t.wait(id, "the computer's first move", |g| plies(g) == 1)
        .await;
    let (_, still) = t.call("GET", &format!("/api/games/{analysed}"), None).await;
    assert_eq!(still["job"], "analysis", "the analysis went on meanwhile");
    // Stop it: the test's runtime waits for its searches before it ends.
    let (s, _) = t
        .call("POST", &format!("/api/games/{analysed}/leave"), None)
        .await;
    assert_eq!(s, StatusCode::NO_CONTENT);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_games_are_unloaded_and_read_back_when_asked_for() {
    let t = Test::new();
    let mut ids = Vec::new();
    for _ in 0..MAX_LOADED_GAMES + 5 {
        let game = t.new_game(json!({"human": "both"})).await;
        let id = game["id"].as_str().unwrap().to_owned();
        let (s, _) = t.play(&id, "h2e2").await;
        assert_eq!(s, StatusCode::OK);
        ids.push(id);
    }
    assert!(t.state.games.loaded().len() <= MAX_LOADED_GAMES);
    let (_, list) = t.call("GET", "/api/games", None).await;
    let list = list.as_array().unwrap();
    assert_eq!(list.len(), ids.len(), "unloaded games are still listed");
    assert!(list.iter().all(|g| g["plies"] == 1));
    // The first games were unloaded; asking for one reads it back whole.
    let (s, first) = t.call("GET", &format!("/api/games/{}", ids[0]), None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(first["moves"][0]["iccs"], "h2e2");
    let (s, _) = t.play(&ids[0], "h9g7").await;
    assert_eq!(s, StatusCode::OK);
    assert!(t.state.games.loaded().len() <= MAX_LOADED_GAMES);
}
