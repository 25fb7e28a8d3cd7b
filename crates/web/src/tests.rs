//! Router tests without a socket: every route, with good and bad input.

mod abandoned;
mod clock;
mod durability;
mod fair;
mod lab;
mod limits;
mod page;
mod puzzles;
mod study;
mod tablebase;

use super::{app, AppState};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tower::ServiceExt;

/// The bytes of a real game file of the shared folder beside the checkout
/// (`../shared/testdata/pgn`), or `None` when the folder is absent (a failure under CI).
fn shared_file(name: &str) -> Option<Vec<u8>> {
    let dir = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/testdata/pgn"
    ));
    if !dir.is_dir() {
        assert!(
            std::env::var_os("CI").is_none(),
            "the shared test data folder {} is missing",
            dir.display()
        );
        return None;
    }
    Some(std::fs::read(dir.join(name)).expect("a file of the shared folder"))
}

/// A data directory removed when the test ends.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> TempDir {
        static N: AtomicU32 = AtomicU32::new(0);
        let dir = std::env::temp_dir().join(format!(
            "xiangqi-web-test-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Stops a game's job when dropped: a test that fails while a computer's search is paused
/// must end, not wait for the search (the runtime waits for its blocking threads).
struct StopsJobOnDrop(xiangqi_play::entry::SharedGame);

impl Drop for StopsJobOnDrop {
    fn drop(&mut self) {
        xiangqi_play::entry::lock(&self.0).cancel_job();
    }
}

struct Test {
    app: Router,
    state: Arc<AppState>,
    dir: TempDir,
}

impl Test {
    fn new() -> Test {
        Test::with_slots(TempDir::new(), 2)
    }

    /// A server on `dir` running at most `slots` searches of each kind at once.
    fn with_slots(dir: TempDir, slots: usize) -> Test {
        let state = AppState::new(&dir.0, slots).unwrap();
        Test::with_state(dir, state)
    }

    /// A server of `state`, whose games are in `dir`.
    fn with_state(dir: TempDir, state: Arc<AppState>) -> Test {
        Test {
            app: app(Arc::clone(&state)),
            state,
            dir,
        }
    }

    /// The same data directory served by a fresh server (a restart).
    fn restart(self) -> Test {
        Test::with_slots(self.dir, 2)
    }

    async fn raw(
        &self,
        method: &str,
        uri: &str,
        content_type: &str,
        body: Vec<u8>,
    ) -> (StatusCode, Vec<u8>) {
        let request = Request::builder()
            .method(method)
            .uri(uri)
            .header("content-type", content_type)
            .body(Body::from(body))
            .unwrap();
        let response = self.app.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap();
        (status, bytes.to_vec())
    }

    async fn call(&self, method: &str, uri: &str, body: Option<Value>) -> (StatusCode, Value) {
        call_app(self.app.clone(), method, uri, body).await
    }

    async fn new_game(&self, body: Value) -> Value {
        let (status, game) = self.call("POST", "/api/games", Some(body)).await;
        assert_eq!(status, StatusCode::CREATED, "{game}");
        game
    }

    /// A game whose computer (Red, level 10) thinks for seconds on a clock of `minutes` a
    /// side, from a middlegame out of the book; its id, and a guard that stops its job.
    async fn computer_thinking(&self, minutes: f64) -> (String, StopsJobOnDrop) {
        let c = json!({"minutes": minutes, "increment": 0, "byoyomi": 0});
        let game = self
            .new_game(json!({
                "human": "black",
                "level": 10,
                "fen": "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w",
                "clock": {"red": c, "black": c},
            }))
            .await;
        let id = game["id"].as_str().unwrap().to_owned();
        let stops = StopsJobOnDrop(self.state.games.get(&id).unwrap());
        (id, stops)
    }

    async fn play(&self, id: &str, mv: &str) -> (StatusCode, Value) {
        self.call(
            "POST",
            &format!("/api/games/{id}/move"),
            Some(json!({ "move": mv })),
        )
        .await
    }

    /// Polls the game until `done` holds (at most 30 s).
    async fn wait(&self, id: &str, what: &str, done: impl Fn(&Value) -> bool) -> Value {
        let start = Instant::now();
        loop {
            let (status, game) = self.call("GET", &format!("/api/games/{id}"), None).await;
            assert_eq!(status, StatusCode::OK, "{game}");
            if done(&game) {
                return game;
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "waiting for {what}: {game}"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// Sends a JSON request to `app` and reads the JSON answer (`Null` when empty); a free
/// function, so that a spawned task can call it.
async fn call_app(
    app: Router,
    method: &str,
    uri: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let body = body.map_or_else(Vec::new, |b| b.to_string().into_bytes());
    let request = Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "application/json")
        .body(Body::from(body))
        .unwrap();
    let response = app.oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .unwrap();
    let value = if bytes.is_empty() {
        Value::Null
    } else {
        serde_json::from_slice(&bytes).unwrap_or_else(|_| {
            panic!(
                "{method} {uri}: not JSON: {}",
                String::from_utf8_lossy(&bytes)
            )
        })
    };
    (status, value)
}

fn plies(game: &Value) -> usize {
    game["moves"].as_array().map_or(0, Vec::len)
}

fn assert_error(status: StatusCode, body: &Value, expected: StatusCode) {
    assert_eq!(status, expected, "{body}");
    assert!(
        body["message"].as_str().is_some_and(|m| !m.is_empty()),
        "{body}"
    );
    assert!(body["error"].is_string(), "{body}");
}

const MATE_IN_ONE: &str = "3k5/R8/9/9/9/9/9/9/9/1R2K4 w - - 0 1";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn page_and_assets() {
    let t = Test::new();
    for uri in [
        "/",
        "/index.html",
        "/assets/style.css",
        "/assets/js/main.js",
        "/favicon.ico",
    ] {
        let (status, body) = t.raw("GET", uri, "text/plain", Vec::new()).await;
        assert_eq!(status, StatusCode::OK, "{uri}");
        assert!(!body.is_empty(), "{uri}");
    }
    let (status, _) = t
        .raw("GET", "/assets/../Cargo.toml", "text/plain", Vec::new())
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn new_game_and_bad_requests() {
    let t = Test::new();
    let game = t.new_game(json!({})).await;
    assert_eq!(game["human"], "red");
    assert_eq!(game["level"], 3);
    assert_eq!(game["turn"], "red");
    assert_eq!(game["legal"].as_array().unwrap().len(), 44);
    assert!(game["outcome"].is_null());

    let (s, b) = t
        .call("POST", "/api/games", Some(json!({"level": 11})))
        .await;
    assert_error(s, &b, StatusCode::BAD_REQUEST);
    let (s, b) = t
        .call("POST", "/api/games", Some(json!({"human": "green"})))
        .await;
    assert_error(s, &b, StatusCode::BAD_REQUEST);
    let (s, b) = t
        .call("POST", "/api/games", Some(json!({"colour": "red"})))
        .await;
    assert_error(s, &b, StatusCode::BAD_REQUEST);
    let (s, b) = t
        .raw(
            "POST",
            "/api/games",
            "application/json",
            b"{\"human\":".to_vec(),
        )
        .await;
    let b: Value = serde_json::from_slice(&b).unwrap();
    assert_error(s, &b, StatusCode::BAD_REQUEST);
    let (s, b) = t
        .raw("POST", "/api/games", "text/plain", b"{}".to_vec())
        .await;
    let b: Value = serde_json::from_slice(&b).unwrap();
    assert!(s.is_client_error(), "{s} {b}");
    assert!(b["message"].is_string());
    for fen in [
        "",
        "9/9/9 w",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x",
    ] {
        let (s, b) = t
            .call("POST", "/api/games", Some(json!({"fen": fen})))
            .await;
        assert_error(s, &b, StatusCode::BAD_REQUEST);
        assert!(b["message"].as_str().unwrap().contains("FEN"), "{b}");
    }
    let (s, b) = t
        .call(
            "POST",
            "/api/games",
            Some(json!({"fen": MATE_IN_ONE, "pgn": "1. h2e2 *"})),
        )
        .await;
    assert_error(s, &b, StatusCode::BAD_REQUEST);
    let (s, b) = t
        .call("POST", "/api/games", Some(json!({"pgn": "1. h2e3 *"})))
        .await;
    assert_error(s, &b, StatusCode::BAD_REQUEST);
    let big = json!({ "fen": "x".repeat(super::BODY_LIMIT + 10) });
    let (s, b) = t.call("POST", "/api/games", Some(big)).await;
    assert_error(s, &b, StatusCode::PAYLOAD_TOO_LARGE);

    let game = t
        .new_game(json!({"pgn": "[Format \"ICCS\"]\n1. H2-E2 H9-G7 *", "human": "red", "level": 1}))
        .await;
    assert_eq!(plies(&game), 2);
    assert_eq!(game["moves"][0]["chinese"], "炮二平五");
    assert_eq!(game["moves"][1]["wxf"], "H8+7");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_undo_redo_and_errors() {
    let t = Test::new();
    let game = t.new_game(json!({"level": 1})).await;
    let id = game["id"].as_str().unwrap().to_owned();

    let (s, b) = t.play(&id, "a0a5").await;
    assert_error(s, &b, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(b["code"], "blocked");
    let (s, b) = t.play(&id, "b0d1").await;
    assert_eq!(b["code"], "horse_leg", "{s} {b}");
    let (s, b) = t.play(&id, "h7e7").await;
    assert_eq!(b["code"], "not_your_piece", "{s} {b}");
    let (s, b) = t.play(&id, "nonsense").await;
    assert_error(s, &b, StatusCode::UNPROCESSABLE_ENTITY);
    let (s, b) = t
        .call(
            "POST",
            &format!("/api/games/{id}/move"),
            Some(json!({"mv": "h2e2"})),
        )
        .await;
    assert_error(s, &b, StatusCode::BAD_REQUEST);
    let (s, b) = t
        .call(
            "POST",
            &format!("/api/games/{id}/move"),
            Some(json!({"move": "h2e2", "version": 0})),
        )
        .await;
    assert_eq!(b["code"], "stale", "{s} {b}");
    let (s, b) = t.play("no-such-game", "h2e2").await;
    assert_error(s, &b, StatusCode::NOT_FOUND);
    let (s, b) = t.call("GET", "/api/games/..%2F..%2Fetc", None).await;
    assert_error(s, &b, StatusCode::NOT_FOUND);
    let (s, b) = t.call("POST", &format!("/api/games/{id}/undo"), None).await;
    assert_eq!(b["code"], "nothing_to_undo", "{s} {b}");
    let (s, b) = t.call("POST", &format!("/api/games/{id}/redo"), None).await;
    assert_eq!(b["code"], "nothing_to_redo", "{s} {b}");

    // Chinese notation works too.
    let (s, game) = t.play(&id, "炮二平五").await;
    assert_eq!(s, StatusCode::OK, "{game}");
    assert_eq!(plies(&game), 1);
    let game = t
        .wait(&id, "the computer's answer", |g| plies(g) == 2)
        .await;
    assert!(game["job"].is_null() || game["job"] == "analysis", "{game}");
    assert_eq!(game["turn"], "red");

    let (s, game) = t.call("POST", &format!("/api/games/{id}/undo"), None).await;
    assert_eq!(s, StatusCode::OK, "{game}");
    assert_eq!(plies(&game), 0);
    assert_eq!(game["redo"], 2);
    let (s, game) = t.call("POST", &format!("/api/games/{id}/redo"), None).await;
    assert_eq!(s, StatusCode::OK, "{game}");
    assert_eq!(plies(&game), 2);
    assert_eq!(game["redo"], 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn playing_black_the_computer_opens() {
    let t = Test::new();
    let game = t.new_game(json!({"human": "black", "level": 1})).await;
    let id = game["id"].as_str().unwrap().to_owned();
    let game = t
        .wait(&id, "the computer's first move", |g| plies(g) == 1)
        .await;
    assert_eq!(game["turn"], "black");
    // It comes from the opening book, reported as such (depth 0, no nodes).
    let start = xiangqi::Position::startpos();
    let book: Vec<String> = xiangqi_engine::Book::builtin()
        .unwrap()
        .probe(&start)
        .iter()
        .map(|m| m.mv.to_string())
        .collect();
    let first = game["moves"][0]["iccs"].as_str().unwrap().to_owned();
    assert!(book.contains(&first), "{first}");
    assert_eq!(game["analysis"]["kind"], "computer", "{game}");
    assert_eq!(game["analysis"]["depth"], 0, "{game}");
    assert_eq!(game["analysis"]["nodes"], 0, "{game}");
    assert!(!game["legal"].as_array().unwrap().is_empty());
    let (s, b) = t
        .call("POST", &format!("/api/games/{id}/resign"), None)
        .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(b["outcome"]["result"], "1-0");
    assert_eq!(b["outcome"]["reason"], "resignation");
    let (s, b) = t.play(&id, "h7e7").await;
    assert_eq!(b["code"], "game_over", "{s} {b}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_review_checks_a_blunder_and_looks_as_hard_as_asked() {
    let t = Test::new();
    // Red's chariot can mate on the d-file (the generals may not face each other on the e-file);
    // Red steps the general up instead, and Black takes the chariot.
    let game = t
        .new_game(json!({"fen": "3k5/9/9/9/r8/R8/9/9/9/4K4 w - - 0 1", "human": "both"}))
        .await;
    let id = game["id"].as_str().unwrap().to_owned();
    for mv in ["e0e1", "a5a4"] {
        let (s, b) = t.play(&id, mv).await;
        assert_eq!(s, StatusCode::OK, "{b}");
    }
    let review = format!("/api/games/{id}/review");
    let (s, b) = t
        .call("POST", &review, Some(json!({"depth": "deeper"})))
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{b}");
    assert!(b["message"].as_str().unwrap().contains("review"), "{b}");
    let (s, b) = t
        .call("POST", &review, Some(json!({"depth": "quick"})))
        .await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let game = t
        .wait(&id, "the review", |g| g["review"]["finished"] == true)
        .await;
    let r = &game["review"];
    assert_eq!(r["depth"], "quick");
    let blunder = &r["plies"][0];
    assert_eq!(blunder["mark"], "blunder", "{r}");
    assert_eq!(blunder["best_iccs"], "a4d4", "{r}");
    assert_eq!(blunder["best"], "车九平六", "{r}");
    let check = &blunder["check"];
    assert!(check["depth"].as_u64().unwrap() >= 1, "{r}");
    assert!(
        check["suggested"].as_i64().unwrap() > check["played"].as_i64().unwrap() + 500,
        "{r}"
    );
    // Black's capture was the engine's own move: no mark, nothing named, nothing checked.
    let capture = &r["plies"][1];
    assert_eq!(capture["mark"], Value::Null, "{r}");
    assert_eq!(capture["best"], Value::Null, "{r}");
    assert_eq!(capture["check"], Value::Null, "{r}");

    // Kept in the game: the blunder's glyph, and the better line as a variation with the
    // check's scores before it; keeping it twice adds nothing.
    let study = format!("/api/games/{id}/study");
    for _ in 0..2 {
        let (s, b) = t
            .call("POST", &study, Some(json!({"op": "keep_review"})))
            .await;
        assert_eq!(s, StatusCode::OK, "{b}");
        let first = &b["game"]["moves"][0];
        assert_eq!(first["nags"], json!([4]), "{b}");
        assert_eq!(first["variations"].as_array().unwrap().len(), 1, "{b}");
        let line = &first["variations"][0];
        assert_eq!(line[0]["iccs"], "a4d4", "{b}");
        let before = line[0]["before"].as_str().unwrap();
        assert!(before.starts_with("Review, depth "), "{before}");
        assert_eq!(
            b["game"]["version"], game["version"],
            "the play is unchanged"
        );
    }
    let (_, pgn) = t
        .raw("GET", &format!("/api/games/{id}/pgn"), "text/plain", vec![])
        .await;
    let pgn = String::from_utf8(pgn).unwrap();
    assert!(pgn.contains("$4") && pgn.contains("1. 车九平六"), "{pgn}");
    assert!(
        pgn.contains("this line winning, the move played losing"),
        "{pgn}"
    );

    // The same depth again changes nothing; another depth reviews the game again.
    let (s, b) = t
        .call("POST", &review, Some(json!({"depth": "quick"})))
        .await;
    assert_eq!((s, &b["job"]), (StatusCode::OK, &Value::Null), "{b}");
    let (s, b) = t.call("POST", &review, None).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(b["review"]["depth"], "normal", "{b}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mate_review_and_pgn() {
    let t = Test::new();
    let game = t.new_game(json!({"fen": MATE_IN_ONE, "level": 1})).await;
    let id = game["id"].as_str().unwrap().to_owned();
    let (s, b) = t
        .call("POST", &format!("/api/games/{id}/review"), None)
        .await;
    assert_eq!(b["code"], "nothing_to_review", "{s} {b}");
    let (s, game) = t.play(&id, "b0b9").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(game["outcome"]["reason"], "checkmate");
    assert_eq!(game["outcome"]["winner"], "red");
    assert!(game["in_check"].as_bool().unwrap());
    assert!(game["legal"].as_array().unwrap().is_empty());
    let (s, b) = t.call("POST", &format!("/api/games/{id}/hint"), None).await;
    assert_eq!(b["code"], "game_over", "{s} {b}");

    let (s, _) = t
        .call("POST", &format!("/api/games/{id}/review"), None)
        .await;
    assert_eq!(s, StatusCode::OK);
    let game = t
        .wait(&id, "the review", |g| g["review"]["finished"] == true)
        .await;
    assert_eq!(game["review"]["plies"].as_array().unwrap().len(), 1);
    assert_eq!(game["review"]["evals"].as_array().unwrap().len(), 2);

    let (s, text) = t
        .raw("GET", &format!("/api/games/{id}/pgn"), "", Vec::new())
        .await;
    assert_eq!(s, StatusCode::OK);
    let text = String::from_utf8(text).unwrap();
    assert!(text.contains("[Result \"1-0\"]"), "{text}");
    assert!(text.contains("[Termination \"checkmate\"]"), "{text}");
    assert!(text.contains("[FEN \""), "{text}");
    assert!(text.contains("车八进九"), "{text}");
    let (_, text) = t
        .raw(
            "GET",
            &format!("/api/games/{id}/pgn?notation=iccs"),
            "",
            Vec::new(),
        )
        .await;
    assert!(String::from_utf8(text).unwrap().contains("B0-B9"));
    let (_, text) = t
        .raw(
            "GET",
            &format!("/api/games/{id}/pgn?notation=wxf"),
            "",
            Vec::new(),
        )
        .await;
    assert!(String::from_utf8(text).unwrap().contains("R8+9"));
    let (s, b) = t
        .call(
            "GET",
            &format!("/api/games/{id}/pgn?notation=klingon"),
            None,
        )
        .await;
    assert_error(s, &b, StatusCode::BAD_REQUEST);
    let (s, b) = t.call("GET", "/api/games/nope/pgn", None).await;
    assert_error(s, &b, StatusCode::NOT_FOUND);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hint_draw_settings_and_leave() {
    let t = Test::new();
    let game = t.new_game(json!({"level": 1})).await;
    let id = game["id"].as_str().unwrap().to_owned();
    let (s, b) = t.call("POST", &format!("/api/games/{id}/hint"), None).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let game = t.wait(&id, "a hint", |g| g["hint"].is_object()).await;
    assert_eq!(game["hint"]["iccs"].as_str().unwrap().len(), 4);
    // The hint is named in each notation the page offers, as the game's moves are: at the start
    // a WXF move is a piece letter, a file, one of . + - and a number (`C2.5`).
    assert_eq!(game["hint"]["chinese"].as_str().unwrap().chars().count(), 4);
    let wxf: Vec<char> = game["hint"]["wxf"].as_str().unwrap().chars().collect();
    assert!(
        wxf.len() == 4 && wxf[0].is_ascii_uppercase() && ".+-".contains(wxf[2]),
        "{wxf:?}"
    );

    let (s, _) = t.call("POST", &format!("/api/games/{id}/draw"), None).await;
    assert_eq!(s, StatusCode::OK);
    let game = t
        .wait(&id, "an answer to the draw offer", |g| {
            g["notice"].is_string()
        })
        .await;
    let notice = game["notice"].as_str().unwrap();
    assert!(
        notice == "draw_accepted" || notice == "draw_declined",
        "{notice}"
    );

    let game = t.new_game(json!({"level": 1})).await;
    let id = game["id"].as_str().unwrap().to_owned();
    let (s, b) = t
        .call(
            "POST",
            &format!("/api/games/{id}/settings"),
            Some(json!({"level": 0})),
        )
        .await;
    assert_error(s, &b, StatusCode::BAD_REQUEST);
    let (s, b) = t
        .call(
            "POST",
            &format!("/api/games/{id}/settings"),
            Some(json!({"level": "x"})),
        )
        .await;
    assert_error(s, &b, StatusCode::BAD_REQUEST);
    let (s, b) = t
        .call(
            "POST",
            &format!("/api/games/{id}/settings"),
            Some(json!({"level": 2, "analysis": true})),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(b["level"], 2);
    assert_eq!(b["job"], "analysis");
    t.wait(&id, "analysis output", |g| {
        g["analysis"]["depth"].as_u64().is_some_and(|d| d >= 1)
    })
    .await;
    let (s, _) = t
        .call("POST", &format!("/api/games/{id}/leave"), None)
        .await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    let (s, b) = t
        .call(
            "POST",
            &format!("/api/games/{id}/settings"),
            Some(json!({"analysis": false})),
        )
        .await;
    assert_eq!(s, StatusCode::OK);
    assert!(b["job"].is_null(), "{b}");
    let (s, b) = t.call("POST", "/api/games/missing/leave", None).await;
    assert_error(s, &b, StatusCode::NOT_FOUND);
    let (s, b) = t.call("POST", "/api/games/missing/draw", None).await;
    assert_error(s, &b, StatusCode::NOT_FOUND);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_analysis_shows_as_many_lines_as_asked() {
    let t = Test::new();
    let game = t.new_game(json!({"human": "both"})).await;
    let id = game["id"].as_str().unwrap().to_owned();
    let settings = format!("/api/games/{id}/settings");
    for bad in [
        json!({"lines": 0}),
        json!({"lines": 6}),
        json!({"lines": "x"}),
    ] {
        let (s, b) = t.call("POST", &settings, Some(bad)).await;
        assert_error(s, &b, StatusCode::BAD_REQUEST);
    }
    let (s, b) = t
        .call(
            "POST",
            &settings,
            Some(json!({"lines": 3, "analysis": true})),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(
        (&b["analysis_lines"], &b["job"]),
        (&json!(3), &json!("analysis"))
    );
    let game = t
        .wait(&id, "three lines", |g| {
            g["analysis"]["lines"]
                .as_array()
                .is_some_and(|l| l.len() == 3)
        })
        .await;
    let lines = game["analysis"]["lines"].as_array().unwrap();
    // Three different first moves, best first; the first line is the report's own.
    let firsts: Vec<&str> = lines.iter().map(|l| l["pv"][0].as_str().unwrap()).collect();
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    assert_eq!(lines[0]["pv"], game["analysis"]["pv"]);
    // Each line is named in each notation too, move for move, so the panel follows the one
    // chosen: from the start position the first move's WXF name is its piece, file and step.
    for line in lines {
        let (pv, names) = (
            line["pv"].as_array().unwrap(),
            line["pv_names"].as_array().unwrap(),
        );
        assert_eq!(names.len(), pv.len(), "{line}");
        for (iccs, names) in pv.iter().zip(names) {
            assert_eq!(&names["iccs"], iccs, "{line}");
            assert!(
                names["chinese"].as_str().is_some_and(|c| !c.is_empty()),
                "{line}"
            );
        }
        let first = pv[0].as_str().unwrap();
        let pos = xiangqi::Position::startpos();
        let m = pos
            .legal_moves()
            .iter()
            .copied()
            .find(|m| m.to_string() == first)
            .unwrap();
        assert_eq!(
            names[0]["wxf"],
            xiangqi::format_move(&pos, m, xiangqi::Notation::Wxf),
            "{line}"
        );
    }
    // Back to one line: the analysis starts again with one.
    let (s, b) = t.call("POST", &settings, Some(json!({"lines": 1}))).await;
    assert_eq!(
        (s, &b["analysis_lines"]),
        (StatusCode::OK, &json!(1)),
        "{b}"
    );
    t.wait(&id, "one line", |g| {
        g["analysis"]["depth"].as_u64().is_some_and(|d| d >= 2)
            && g["analysis"]["lines"]
                .as_array()
                .is_some_and(|l| l.len() == 1)
    })
    .await;
    // Off again: the search stops (a running one would hold the test's end for its minute).
    let (s, b) = t
        .call("POST", &settings, Some(json!({"analysis": false})))
        .await;
    assert_eq!((s, &b["job"]), (StatusCode::OK, &Value::Null), "{b}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_book_explorer_lists_the_books_moves() {
    let t = Test::new();
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    let (s, b) = t
        .call("POST", "/api/book", Some(json!({ "fen": start })))
        .await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let moves = b.as_array().unwrap();
    assert!(moves.len() >= 3, "{b}");
    assert!(moves.iter().any(|m| m["chinese"] == "炮二平五"), "{b}");
    let total: f64 = moves.iter().map(|m| m["percent"].as_f64().unwrap()).sum();
    assert!((total - 100.0).abs() < 1e-6, "{b}");
    let (s, b) = t
        .call(
            "POST",
            "/api/book",
            Some(json!({"fen": "3k5/9/9/9/9/9/9/9/9/4K4 w"})),
        )
        .await;
    assert_eq!((s, b), (StatusCode::OK, json!([])));
    let (s, b) = t
        .call("POST", "/api/book", Some(json!({"fen": "not a fen"})))
        .await;
    assert_error(s, &b, StatusCode::BAD_REQUEST);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn levels_list_their_elo() {
    let t = Test::new();
    let (s, b) = t.call("GET", "/api/levels", None).await;
    assert_eq!(s, StatusCode::OK);
    let levels = b.as_array().unwrap();
    assert_eq!(levels.len(), 10);
    assert_eq!(levels[0]["level"], 1);
    let elo: Vec<i64> = levels.iter().map(|l| l["elo"].as_i64().unwrap()).collect();
    assert!(elo.windows(2).all(|w| w[0] < w[1]), "{elo:?}");
    assert_eq!(
        elo[9],
        i64::from(xiangqi_engine::strength::FULL_ENGINE_ELO),
        "level 10 is the full engine, with the network"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn import_list_delete_and_fen() {
    let t = Test::new();
    let text = "[Game \"Chinese Chess\"]\n[Red \"许银川\"]\n[Black \"吕钦\"]\n\n1. 炮二平五 马８进７ 2. 马二进三 *\n";
    let (gbk, _, _) = encoding_rs::GBK.encode(text);
    let (s, b) = t
        .raw(
            "POST",
            "/api/games/import?level=2",
            "application/octet-stream",
            gbk.to_vec(),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{}", String::from_utf8_lossy(&b));
    let game: Value = serde_json::from_slice(&b).unwrap();
    assert_eq!(plies(&game), 3);
    assert_eq!(game["red"], "许银川");
    // A loaded game is a record to study: both sides the person's, the names kept.
    assert_eq!(game["human"], "both");
    assert_eq!(game["level"], 2);
    let id = game["id"].as_str().unwrap().to_owned();

    let (s, b) = t
        .raw(
            "POST",
            "/api/games/import",
            "application/octet-stream",
            b"1. zz *".to_vec(),
        )
        .await;
    assert_eq!(
        s,
        StatusCode::BAD_REQUEST,
        "{}",
        String::from_utf8_lossy(&b)
    );
    let (s, _) = t
        .raw(
            "POST",
            "/api/games/import",
            "application/octet-stream",
            Vec::new(),
        )
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    let (s, _) = t
        .raw(
            "POST",
            "/api/games/import?level=99",
            "text/plain",
            b"*".to_vec(),
        )
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    let (s, _) = t
        .raw(
            "POST",
            "/api/games/import",
            "text/plain",
            vec![b'a'; super::BODY_LIMIT + 1],
        )
        .await;
    assert_eq!(s, StatusCode::PAYLOAD_TOO_LARGE);

    let (s, list) = t.call("GET", "/api/games", None).await;
    assert_eq!(s, StatusCode::OK);
    assert!(list
        .as_array()
        .unwrap()
        .iter()
        .any(|g| g["id"] == id.as_str()));
    let (s, _) = t.call("DELETE", &format!("/api/games/{id}"), None).await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    let (s, b) = t.call("GET", &format!("/api/games/{id}"), None).await;
    assert_error(s, &b, StatusCode::NOT_FOUND);
    let (s, b) = t.call("DELETE", &format!("/api/games/{id}"), None).await;
    assert_error(s, &b, StatusCode::NOT_FOUND);

    let (s, b) = t
        .call("POST", "/api/fen", Some(json!({"fen": MATE_IN_ONE})))
        .await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(b["turn"], "red");
    let (s, b) = t
        .call(
            "POST",
            "/api/fen",
            Some(json!({"fen": "4k4/9/9/9/9/9/9/9/9/4K4 w"})),
        )
        .await;
    assert_error(s, &b, StatusCode::BAD_REQUEST);
    assert!(b["message"].as_str().unwrap().contains("face"), "{b}");
    assert_eq!(b["code"], "fen_generals_facing");
    let (s, b) = t.call("POST", "/api/fen", Some(json!({"fen": 5}))).await;
    assert_error(s, &b, StatusCode::BAD_REQUEST);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_survive_a_restart() {
    let t = Test::new();
    let game = t.new_game(json!({"human": "both", "level": 5})).await;
    let id = game["id"].as_str().unwrap().to_owned();
    for m in ["h2e2", "h9g7", "h0g2"] {
        let (s, b) = t.play(&id, m).await;
        assert_eq!(s, StatusCode::OK, "{b}");
    }
    let (s, _) = t.call("POST", &format!("/api/games/{id}/undo"), None).await;
    assert_eq!(s, StatusCode::OK);
    let files: Vec<String> = std::fs::read_dir(t.dir.0.join("games"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        files,
        vec![format!("{id}.pgn")],
        "no temporary file is left"
    );

    let t = t.restart();
    let (s, game) = t.call("GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(s, StatusCode::OK, "{game}");
    assert_eq!(plies(&game), 2);
    assert_eq!(game["redo"], 1);
    assert_eq!(game["human"], "both");
    assert_eq!(game["level"], 5);
    let (s, game) = t.call("POST", &format!("/api/games/{id}/redo"), None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(game["moves"][2]["iccs"], "h0g2");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panic_stays_in_its_request() {
    let t = Test::new();
    let game = t.new_game(json!({})).await;
    let (s, b) = t.call("GET", "/api/test/panic", None).await;
    assert_error(s, &b, StatusCode::INTERNAL_SERVER_ERROR);
    let (s, _) = t
        .call(
            "GET",
            &format!("/api/games/{}", game["id"].as_str().unwrap()),
            None,
        )
        .await;
    assert_eq!(s, StatusCode::OK);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_games_share_a_small_pool() {
    let t = Test::with_slots(TempDir::new(), 1);
    let mut ids = Vec::new();
    for _ in 0..5 {
        let game = t.new_game(json!({"human": "black", "level": 2})).await;
        ids.push(game["id"].as_str().unwrap().to_owned());
    }
    for id in &ids {
        t.wait(id, "each computer's first move", |g| plies(g) == 1)
            .await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn other_hosts_and_sites_are_refused() {
    let dir = TempDir::new();
    let router = super::guarded(
        app(AppState::new(&dir.0, 1).unwrap()),
        super::Guard::default(),
    );
    let send = |host: &str, origin: Option<&str>, method: &str, uri: &str| {
        let mut request = Request::builder()
            .method(method)
            .uri(uri)
            .header("host", host);
        if let Some(origin) = origin {
            request = request.header("origin", origin);
        }
        let request = request
            .header("content-type", "application/json")
            .body(Body::from("{}"))
            .unwrap();
        router.clone().oneshot(request)
    };
    let ok = send("127.0.0.1:4000", None, "GET", "/api/games")
        .await
        .unwrap();
    assert_eq!(ok.status(), StatusCode::OK);
    let ok = send(
        "localhost:4000",
        Some("http://localhost:4000"),
        "POST",
        "/api/games",
    )
    .await
    .unwrap();
    assert_eq!(ok.status(), StatusCode::CREATED);
    let bad = send("evil.example:4000", None, "GET", "/api/games")
        .await
        .unwrap();
    assert_eq!(bad.status(), StatusCode::FORBIDDEN);
    let bad = send(
        "127.0.0.1:4000",
        Some("http://evil.example"),
        "POST",
        "/api/games",
    )
    .await
    .unwrap();
    assert_eq!(bad.status(), StatusCode::FORBIDDEN);
    let body = axum::body::to_bytes(bad.into_body(), usize::MAX)
        .await
        .unwrap();
    let body: Value = serde_json::from_slice(&body).unwrap();
    assert_error(StatusCode::FORBIDDEN, &body, StatusCode::FORBIDDEN);
}
