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
    // After 1. 炮二平五 马８进７, a fixed position: the computer's own reply (which a loaded
    // machine may make weaker) is not what this asks about.
    let after = "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2";
    let game = t
        .new_game(json!({"human": "red", "level": 10, "fen": after}))
        .await;
    let id = game["id"].as_str().unwrap().to_owned();
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn handicaps_remove_the_givers_pieces_and_are_saved() {
    let t = Test::new();
    // The computer (Black) gives a horse: Black's left horse, on h9, is gone.
    let game = t
        .new_game(json!({"human": "red", "handicap": "horse", "handicap_giver": "computer"}))
        .await;
    assert_eq!(
        game["start_fen"],
        "rnbakab1r/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
    );
    // The person gives chariot and horse, playing Red.
    let game = t
        .new_game(json!({"human": "red", "handicap": "chariot-horse", "handicap_giver": "you"}))
        .await;
    assert!(game["start_fen"]
        .as_str()
        .unwrap()
        .ends_with("/2BAKABNR w - - 0 1"));
    let id = game["id"].as_str().unwrap();
    let (_, pgn) = t
        .raw("GET", &format!("/api/games/{id}/pgn"), "", Vec::new())
        .await;
    let pgn = String::from_utf8(pgn).unwrap();
    assert!(
        pgn.contains("[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/2BAKABNR w"),
        "{pgn}"
    );
    assert!(pgn.contains("[Handicap \"chariot-horse by red\"]"), "{pgn}");
    // Giving the first move: the weaker side, here the person, plays Red (tests/page.rs: a
    // choice of Black is refused).
    let game = t
        .new_game(json!({"handicap": "first-move", "handicap_giver": "computer"}))
        .await;
    assert_eq!(game["human"], "red");

    for bad in [
        json!({"handicap": "horse", "fen": "3k5/9/9/9/9/9/9/9/9/R3K4 w"}),
        json!({"handicap": "horse", "human": "both"}),
        json!({"handicap": "queen"}),
        json!({"handicap": "horse", "handicap_giver": "nobody"}),
    ] {
        let (s, b) = t.call("POST", "/api/games", Some(bad)).await;
        assert_error(s, &b, StatusCode::BAD_REQUEST);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_loaded_xqf_file_is_a_record_with_its_names() {
    let Some(xqf) = super::shared_file("sample.xqf") else {
        eprintln!(
            "note: ../shared/testdata/pgn/sample.xqf is absent; the XQF import is not tested"
        );
        return;
    };
    let t = Test::new();
    let (s, b) = t
        .raw("POST", "/api/games/import", "application/octet-stream", xqf)
        .await;
    assert_eq!(s, StatusCode::CREATED, "{}", String::from_utf8_lossy(&b));
    let game: serde_json::Value = serde_json::from_slice(&b).unwrap();
    assert_eq!(plies(&game), 75);
    assert_eq!(game["red"], "许银川");
    assert_eq!(game["event"], "许银川让九子对聂棋圣");
    assert_eq!(game["date"], "1999.12.09");
    assert_eq!(game["human"], "both");
    let (_, list) = t.call("GET", "/api/games", None).await;
    assert_eq!(list[0]["event"], "许银川让九子对聂棋圣");
    // A broken XQF file says so, briefly.
    let (s, b) = t
        .raw(
            "POST",
            "/api/games/import",
            "application/octet-stream",
            b"XQ\x12garbage".to_vec(),
        )
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    let text = String::from_utf8_lossy(&b);
    assert!(text.contains("XQF") && text.len() < 500, "{text}");
}
