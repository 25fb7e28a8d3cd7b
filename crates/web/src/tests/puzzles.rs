//! The puzzles' routes: a puzzle solved and one failed, hints, the record kept across a
//! restart, a result that cannot be saved, and a broken record file kept aside.

use super::{assert_error, Test};
use axum::http::StatusCode;
use serde_json::{json, Value};
use std::io::ErrorKind;
use xiangqi_files::disk::faults;

/// The next puzzle whose themes include `theme`.
async fn puzzle_with(t: &Test, theme: &str) -> Value {
    let (status, puzzle) = t
        .call("GET", &format!("/api/puzzles/next?theme={theme}"), None)
        .await;
    assert_eq!(status, StatusCode::OK, "{puzzle}");
    puzzle
}

/// The whole solution of `id`, from the hint route: the move to make at each turn, with the
/// defender's replies from the move route.
async fn solve(t: &Test, id: &str) -> Vec<String> {
    let mut played: Vec<String> = Vec::new();
    loop {
        let (status, hint) = t
            .call(
                "POST",
                "/api/puzzles/hint",
                Some(json!({"id": id, "played": played})),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{hint}");
        let mv = hint["move"].as_str().unwrap().to_string();
        assert!(mv.starts_with(hint["from"].as_str().unwrap()));
        let body = json!({"id": id, "played": played, "move": mv});
        let (status, judged) = t.call("POST", "/api/puzzles/move", Some(body)).await;
        assert_eq!(status, StatusCode::OK, "{judged}");
        played.push(mv);
        match judged["verdict"].as_str().unwrap() {
            "solved" => {
                assert_eq!(judged["solution"].as_array().unwrap().len(), played.len());
                return played;
            }
            "right" => played.push(judged["reply"].as_str().unwrap().to_string()),
            other => panic!("the hint's move was {other}: {judged}"),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_puzzle_is_solved_another_failed_and_the_record_survives_a_restart() {
    let t = Test::new();
    let (status, fresh) = t.call("GET", "/api/puzzles", None).await;
    assert_eq!(status, StatusCode::OK, "{fresh}");
    assert_eq!(
        (fresh["rating"].as_i64(), fresh["attempted"].as_u64()),
        (Some(1500), Some(0))
    );
    assert!(fresh["total"].as_u64().unwrap() >= 1000, "{fresh}");

    let mate = puzzle_with(&t, "mateIn2").await;
    assert_eq!(mate["goal"], json!({"kind": "mate", "moves": 2}));
    let id = mate["id"].as_str().unwrap();
    assert_eq!(solve(&t, id).await.len(), 3);
    let (status, after) = t
        .call(
            "POST",
            "/api/puzzles/result",
            Some(json!({"id": id, "solved": true})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{after}");
    assert!(after["rating"].as_i64().unwrap() > 1500, "{after}");

    // A mate in one missed: the defender's escape and the solution come back.
    let one = puzzle_with(&t, "mateIn1").await;
    let one_id = one["id"].as_str().unwrap();
    let (_, hint) = t
        .call("POST", "/api/puzzles/hint", Some(json!({"id": one_id})))
        .await;
    let right = hint["move"].as_str().unwrap();
    let (_, wrong) = t
        .call(
            "POST",
            "/api/puzzles/move",
            Some(json!({"id": one_id, "move": wrong_move(&one, right)})),
        )
        .await;
    assert_eq!(wrong["verdict"], "wrong", "{wrong}");
    assert_eq!(wrong["solution"], json!([right]));
    let (_, after) = t
        .call(
            "POST",
            "/api/puzzles/result",
            Some(json!({"id": one_id, "solved": false})),
        )
        .await;
    assert_eq!(
        (after["attempted"].as_u64(), after["solved"].as_u64()),
        (Some(2), Some(1))
    );

    let t = t.restart();
    let (_, kept) = t.call("GET", "/api/puzzles", None).await;
    assert_eq!(kept["rating"], after["rating"]);
    assert_eq!(kept["recent"][0]["id"], one_id);
    let (_, next) = t.call("GET", "/api/puzzles/next", None).await;
    assert!(
        next["id"] != mate["id"] && next["id"] != one["id"],
        "{next}"
    );
}

/// A legal move of `puzzle`'s solver other than `right`: the first the rules list.
fn wrong_move(puzzle: &Value, right: &str) -> String {
    let pos = xiangqi::Position::from_fen(puzzle["fen"].as_str().unwrap()).unwrap();
    let legal = pos.legal_moves();
    legal
        .as_slice()
        .iter()
        .map(|m| m.to_string())
        .find(|m| m != right)
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_puzzle_requests_get_clear_errors() {
    let t = Test::new();
    let mate = puzzle_with(&t, "mateIn1").await;
    let id = mate["id"].as_str().unwrap();
    for (method, uri, body, status) in [
        (
            "GET",
            "/api/puzzles/next?theme=knight",
            None,
            StatusCode::BAD_REQUEST,
        ),
        (
            "GET",
            "/api/puzzles/next?id=nothing",
            None,
            StatusCode::NOT_FOUND,
        ),
        (
            "GET",
            "/api/puzzles/next?colour=red",
            None,
            StatusCode::BAD_REQUEST,
        ),
        (
            "POST",
            "/api/puzzles/move",
            Some(json!({"id": id})),
            StatusCode::BAD_REQUEST,
        ),
        (
            "POST",
            "/api/puzzles/move",
            Some(json!({"id": id, "move": "a0a0"})),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            "POST",
            "/api/puzzles/result",
            Some(json!({"id": "nothing", "solved": true})),
            StatusCode::NOT_FOUND,
        ),
        (
            "DELETE",
            "/api/puzzles",
            None,
            StatusCode::METHOD_NOT_ALLOWED,
        ),
    ] {
        let (got, error) = t.call(method, uri, body.clone()).await;
        assert_error(got, &error, status);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_broken_record_is_kept_aside_and_a_new_one_starts() {
    let t = Test::new();
    let file = t.dir.0.join("puzzles.json");
    std::fs::create_dir_all(&t.dir.0).unwrap();
    std::fs::write(&file, "{ not json").unwrap();
    let t = t.restart();
    let (status, record) = t.call("GET", "/api/puzzles", None).await;
    assert_eq!(status, StatusCode::OK, "{record}");
    assert_eq!(record["attempted"], 0);
    let aside = t.dir.0.join("puzzles.json.unreadable");
    assert_eq!(std::fs::read_to_string(aside).unwrap(), "{ not json");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_record_that_is_no_file_is_moved_aside_too() {
    let t = Test::new();
    let file = t.dir.0.join("puzzles.json");
    std::fs::create_dir_all(file.join("inside")).unwrap();
    let t = t.restart();
    let one = puzzle_with(&t, "mateIn1").await;
    let body = json!({"id": one["id"], "solved": true});
    let (status, record) = t.call("POST", "/api/puzzles/result", Some(body)).await;
    assert_eq!(status, StatusCode::OK, "{record}");
    assert!(t.dir.0.join("puzzles.json.unreadable/inside").is_dir());
    assert!(t.dir.0.join("puzzles.json").is_file());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_result_that_cannot_be_saved_is_refused_and_the_record_kept() {
    let t = Test::new();
    let one = puzzle_with(&t, "mateIn1").await;
    let solved = json!({"id": one["id"], "solved": true});
    let (status, first) = t.call("POST", "/api/puzzles/result", Some(solved)).await;
    assert_eq!(status, StatusCode::OK, "{first}");
    let file = t.dir.0.join("puzzles.json");
    let on_disk = std::fs::read(&file).unwrap();

    let other = puzzle_with(&t, "mateIn2").await;
    let failed = json!({"id": other["id"], "solved": false});
    for (kind, code, status) in [
        (
            ErrorKind::StorageFull,
            "disk_full",
            StatusCode::INSUFFICIENT_STORAGE,
        ),
        (
            ErrorKind::ReadOnlyFilesystem,
            "disk_read_only",
            StatusCode::SERVICE_UNAVAILABLE,
        ),
    ] {
        faults::inject(&t.dir.0, kind);
        let (s, body) = t
            .call("POST", "/api/puzzles/result", Some(failed.clone()))
            .await;
        assert_error(s, &body, status);
        assert_eq!(body["code"], code, "{body}");
        // Neither the record in memory nor the file took the refused result.
        let (_, now) = t.call("GET", "/api/puzzles", None).await;
        assert_eq!(now["attempted"], 1, "{now}");
        assert_eq!(now["rating"], first["rating"], "{now}");
        assert_eq!(std::fs::read(&file).unwrap(), on_disk);
    }

    // Once the disk takes writes again the same result is kept, also across a restart.
    faults::clear(&t.dir.0);
    let (status, after) = t.call("POST", "/api/puzzles/result", Some(failed)).await;
    assert_eq!(status, StatusCode::OK, "{after}");
    assert_eq!(
        (after["attempted"].as_u64(), after["solved"].as_u64()),
        (Some(2), Some(1))
    );
    let t = t.restart();
    let (_, kept) = t.call("GET", "/api/puzzles", None).await;
    assert_eq!(kept["attempted"], 2, "{kept}");
    let names: Vec<String> = std::fs::read_dir(&t.dir.0)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("puzzles"))
        .collect();
    assert_eq!(
        names,
        vec!["puzzles.json".to_string()],
        "no temporary file left"
    );
}
