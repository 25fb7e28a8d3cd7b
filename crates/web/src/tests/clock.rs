//! Games on the clock through the API: controls checked, time kept by the server, a fallen
//! flag ending the game, pause, and clocks that survive a restart.

use super::{assert_error, plies, Test};
use axum::http::StatusCode;
use serde_json::{json, Value};
use std::time::Duration;

fn control(minutes: f64, increment: f64, byoyomi: f64) -> Value {
    json!({"minutes": minutes, "increment": increment, "byoyomi": byoyomi})
}

fn clocked(human: &str, minutes: f64, increment: f64, byoyomi: f64) -> Value {
    let c = control(minutes, increment, byoyomi);
    json!({"human": human, "level": 1, "clock": {"red": c, "black": c}})
}

fn main_ms(game: &Value, side: &str) -> u64 {
    game["clock"][side]["main_ms"].as_u64().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_clocks_are_refused() {
    let t = Test::new();
    let good = control(5.0, 3.0, 0.0);
    for bad in [
        control(-1.0, 0.0, 0.0),
        control(5.0, -3.0, 0.0),
        control(1e9, 0.0, 0.0),
        control(5.0, 0.0, 1e7),
        control(0.0, 5.0, 0.0),
    ] {
        let body = json!({"clock": {"red": bad, "black": good}});
        let (s, b) = t.call("POST", "/api/games", Some(body)).await;
        assert_error(s, &b, StatusCode::BAD_REQUEST);
    }
    let (s, b) = t
        .call("POST", "/api/games", Some(json!({"clock": {"red": good}})))
        .await;
    assert_error(s, &b, StatusCode::BAD_REQUEST);
    let (s, b) = t
        .call(
            "POST",
            "/api/games",
            Some(json!({"pgn": "1. h2e2", "clock": {"red": good, "black": good}})),
        )
        .await;
    assert_error(s, &b, StatusCode::BAD_REQUEST);
    let (s, b) = t.call("POST", "/api/games/x/pause", None).await;
    assert_error(s, &b, StatusCode::NOT_FOUND);
    let game = t.new_game(json!({"human": "both"})).await;
    let (s, b) = t
        .call(
            "POST",
            &format!("/api/games/{}/pause", game["id"].as_str().unwrap()),
            None,
        )
        .await;
    assert_error(s, &b, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(b["code"], "no_clock");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_keeps_the_time_and_the_increment() {
    let t = Test::new();
    let game = t.new_game(clocked("both", 5.0, 3.0, 0.0)).await;
    let id = game["id"].as_str().unwrap().to_owned();
    assert_eq!(game["clock"]["running"], "red");
    assert_eq!(game["clock"]["red_control"], "300+3");
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (s, after) = t.play(&id, "h2e2").await;
    assert_eq!(s, StatusCode::OK);
    // Red used at least 0.3 s and got 3 s back; Black's time now runs.
    let red = main_ms(&after, "red");
    assert!(red > 300_000 && red <= 302_700, "{red}");
    assert_eq!(after["clock"]["running"], "black");
    // The move list says how long the move took: what the clock lost, less the increment.
    let took = after["moves"][0]["took_ms"].as_u64().unwrap();
    assert!(took.abs_diff(303_000 - red) <= 1, "{took} {red}");
    assert!((300..2_000).contains(&took), "{took}");
    let (_, pgn) = t
        .raw("GET", &format!("/api/games/{id}/pgn"), "", Vec::new())
        .await;
    let pgn = String::from_utf8(pgn).unwrap();
    assert!(pgn.contains("[TimeControl \"300+3\"]"), "{pgn}");
    assert!(pgn.contains("{[%clk 0:05:0"), "{pgn}");
    // A game without a clock knows no times.
    let free = t.new_game(json!({"human": "both"})).await;
    let free_id = free["id"].as_str().unwrap().to_owned();
    let (_, free) = t.play(&free_id, "h2e2").await;
    assert_eq!(free["moves"][0]["took_ms"], Value::Null, "{free}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fallen_flag_loses_unless_the_other_side_cannot_mate() {
    let t = Test::new();
    // No game time and a 0.3 s byo-yomi period: Red must move within 0.3 s.
    let game = t.new_game(clocked("both", 0.0, 0.0, 0.3)).await;
    let id = game["id"].as_str().unwrap().to_owned();
    let over = t
        .wait(&id, "Red's flag", |g| g["outcome"].is_object())
        .await;
    assert_eq!(over["outcome"]["winner"], "black");
    assert_eq!(over["outcome"]["reason"], "timeout");
    assert_eq!(over["clock"]["running"], Value::Null);
    let (s, b) = t.play(&id, "h2e2").await;
    assert_error(s, &b, StatusCode::UNPROCESSABLE_ENTITY);

    // Black has only its general: Red's flag is a draw.
    let c = control(0.005, 0.0, 0.0);
    let bare = t
        .new_game(json!({
            "human": "both",
            "fen": "3k5/9/9/9/9/9/9/9/9/R3K4 w",
            "clock": {"red": c, "black": c},
        }))
        .await;
    let id = bare["id"].as_str().unwrap().to_owned();
    let over = t
        .wait(&id, "Red's flag", |g| g["outcome"].is_object())
        .await;
    assert_eq!(over["outcome"]["result"], "1/2-1/2");
    assert_eq!(over["outcome"]["reason"], "timeout_against_bare_material");
    // The end survives a restart.
    let t = t.restart();
    let (_, back) = t.call("GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(back["outcome"]["result"], "1/2-1/2");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paused_clock_stops_and_refuses_moves_until_resumed() {
    let t = Test::new();
    let game = t.new_game(clocked("both", 0.02, 0.0, 0.0)).await;
    let id = game["id"].as_str().unwrap().to_owned();
    let (s, paused) = t
        .call("POST", &format!("/api/games/{id}/pause"), None)
        .await;
    assert_eq!(s, StatusCode::OK, "{paused}");
    assert_eq!(paused["clock"]["paused"], true);
    assert_eq!(paused["clock"]["running"], Value::Null);
    assert!(paused["legal"].as_array().unwrap().is_empty());
    let (s, b) = t.play(&id, "h2e2").await;
    assert_error(s, &b, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(b["code"], "paused");
    // 1.2 s of game time would have run out by now.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let (_, still) = t.call("GET", &format!("/api/games/{id}"), None).await;
    assert!(still["outcome"].is_null());
    let left = main_ms(&still, "red");
    // The pause survives a restart too.
    let t = t.restart();
    let (_, back) = t.call("GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(back["clock"]["paused"], true);
    assert_eq!(main_ms(&back, "red"), left);
    let (s, _) = t
        .call("POST", &format!("/api/games/{id}/resume"), None)
        .await;
    assert_eq!(s, StatusCode::OK);
    let (s, _) = t.play(&id, "h2e2").await;
    assert_eq!(s, StatusCode::OK);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clocks_come_back_after_a_restart_without_the_time_it_was_down() {
    let t = Test::new();
    let game = t.new_game(clocked("both", 10.0, 0.0, 30.0)).await;
    let id = game["id"].as_str().unwrap().to_owned();
    for m in ["h2e2", "h9g7", "h0g2"] {
        let (s, _) = t.play(&id, m).await;
        assert_eq!(s, StatusCode::OK);
    }
    let (_, before) = t.call("GET", &format!("/api/games/{id}"), None).await;
    let t = t.restart();
    tokio::time::sleep(Duration::from_millis(500)).await;
    let (_, after) = t.call("GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(plies(&after), 3);
    assert_eq!(after["clock"]["red_control"], "600b30");
    assert_eq!(main_ms(&after, "red"), main_ms(&before, "red"));
    // Black's time runs again from the restart: half a second less, not more.
    let (was, now) = (main_ms(&before, "black"), main_ms(&after, "black"));
    assert!(now <= was && was - now < 2_000, "{was} -> {now}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_plays_on_its_clock_under_byoyomi() {
    let t = Test::new();
    let c = control(0.0, 0.0, 1.0);
    let game = t
        .new_game(json!({
            "human": "black",
            "level": 10,
            "fen": "r1bakab1r/9/1cn4c1/p1p1p1p1p/2n6/9/P1P1P1P1P/1C5C1/R8/R1BAKABN1 w - - 0 1",
            "clock": {"red": c, "black": control(10.0, 0.0, 0.0)},
        }))
        .await;
    let id = game["id"].as_str().unwrap().to_owned();
    let moved = t.wait(&id, "the computer's move", |g| plies(g) == 1).await;
    assert!(moved["outcome"].is_null(), "{}", moved["outcome"]);
    assert_eq!(moved["clock"]["running"], "black");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn leaving_the_page_pauses_the_clock() {
    let t = Test::new();
    let game = t.new_game(clocked("red", 5.0, 0.0, 0.0)).await;
    let id = game["id"].as_str().unwrap().to_owned();
    let (s, _) = t
        .call("POST", &format!("/api/games/{id}/leave"), None)
        .await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    let (_, left) = t.call("GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(left["clock"]["paused"], true);
    // Kept over a restart too.
    let t = t.restart();
    let (_, back) = t.call("GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(back["clock"]["paused"], true);
}

/// Pausing while the computer thinks on its clock holds its search where it is (no move, the
/// clock stopped) and resuming lets it go on from there: the search's report is not thrown away
/// and started again from depth 1.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pause_keeps_the_computer_s_search() {
    let t = Test::new();
    let (id, _stops) = t.computer_thinking(1.0).await;
    let deep = |g: &Value| g["analysis"]["depth"].as_u64() >= Some(8);
    t.wait(&id, "the computer's search at depth 8", deep).await;
    let (s, paused) = t
        .call("POST", &format!("/api/games/{id}/pause"), None)
        .await;
    assert_eq!(s, StatusCode::OK, "{paused}");
    let at_pause = paused["analysis"]["depth"].as_u64().unwrap();
    assert!(at_pause >= 8, "{paused}");
    // Its optimum on a one-minute clock is under two seconds: paused for longer, it waits.
    tokio::time::sleep(Duration::from_millis(2_500)).await;
    let (_, still) = t.call("GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(plies(&still), 0, "the computer moved while paused");
    let red = main_ms(&still, "red");
    let (s, resumed) = t
        .call("POST", &format!("/api/games/{id}/resume"), None)
        .await;
    assert_eq!(s, StatusCode::OK, "{resumed}");
    assert!(
        resumed["analysis"]["depth"].as_u64() >= Some(at_pause),
        "the search's work was thrown away: {resumed}"
    );
    let moved = t.wait(&id, "the computer's move", |g| plies(g) == 1).await;
    // Its time ran only while it searched: not during the pause.
    assert!(main_ms(&moved, "red") + 5_000 > red, "{moved}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pause_the_disk_refuses_lets_the_computer_s_search_go_on() {
    let t = Test::new();
    let (id, _stops) = t.computer_thinking(1.0).await;
    t.wait(&id, "the computer's search", |g| {
        g["analysis"]["depth"].as_u64() >= Some(4)
    })
    .await;
    xiangqi_files::disk::faults::inject(&t.dir.0, std::io::ErrorKind::StorageFull);
    let (s, body) = t
        .call("POST", &format!("/api/games/{id}/pause"), None)
        .await;
    assert_error(s, &body, StatusCode::INSUFFICIENT_STORAGE);
    xiangqi_files::disk::faults::clear(&t.dir.0);
    // The game was not paused, so neither is the search: its move comes on its clock.
    let moved = t.wait(&id, "the computer's move", |g| plies(g) == 1).await;
    assert_eq!(moved["clock"]["paused"], false, "{moved}");
}
