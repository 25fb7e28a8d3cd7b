//! Fair play: draw offers, handicaps, loaded games.

use super::{assert_error, plies, Test};
use axum::http::StatusCode;
use serde_json::json;

/// Offers a draw and waits for the computer's answer; the game after it.
async fn offer(t: &Test, id: &str) -> serde_json::Value {
    let (s, b) = t.call("POST", &format!("/api/games/{id}/draw"), None).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    t.wait(id, "the answer to the draw offer", |g| {
        g["notice"] == "draw_accepted" || g["notice"] == "draw_declined"
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_strongest_level_declines_a_draw_in_the_opening() {
    let t = Test::new();
    let game = t.new_game(json!({"human": "red", "level": 10})).await;
    let id = game["id"].as_str().unwrap().to_owned();
    let answer = offer(&t, &id).await;
    assert_eq!(answer["notice"], "draw_declined");
    let (s, _) = t.play(&id, "h2e2").await;
    assert_eq!(s, StatusCode::OK);
    t.wait(&id, "the computer's reply", |g| {
        plies(g) == 2 && g["job"].is_null()
    })
    .await;
    let answer = offer(&t, &id).await;
    assert_eq!(answer["notice"], "draw_declined");
    assert!(answer["outcome"].is_null());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dead_drawn_ending_is_agreed_drawn() {
    let t = Test::new();
    let game = t
        .new_game(json!({
            "human": "red",
            "level": 10,
            "fen": "3k5/9/9/r8/9/9/9/9/9/4KR3 w",
        }))
        .await;
    let id = game["id"].as_str().unwrap().to_owned();
    let answer = offer(&t, &id).await;
    assert_eq!(answer["notice"], "draw_accepted");
    assert_eq!(answer["outcome"]["reason"], "agreement");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_draw_offer_against_nobody_is_refused() {
    let t = Test::new();
    let game = t.new_game(json!({"human": "both"})).await;
    let (s, b) = t
        .call(
            "POST",
            &format!("/api/games/{}/draw", game["id"].as_str().unwrap()),
            None,
        )
        .await;
    assert_error(s, &b, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(b["code"], "no_opponent");
}
