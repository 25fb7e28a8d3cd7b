//! The search laboratory's routes: a run, a tree, the evaluations, refusals, cancelling.

use super::{assert_error, Test};
use axum::http::StatusCode;
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use xiangqi::{format_move, Notation, Position};

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// The name of the ICCS move `iccs` of the start position in `notation`.
fn start_move_in(iccs: &str, notation: Notation) -> String {
    let pos = Position::startpos();
    let m = pos
        .legal_moves()
        .iter()
        .copied()
        .find(|m| m.to_string() == iccs)
        .unwrap_or_else(|| panic!("{iccs} is not legal at the start"));
    format_move(&pos, m, notation)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lab_lists_its_algorithms() {
    let t = Test::new();
    let (status, info) = t.call("GET", "/api/lab", None).await;
    assert_eq!(status, StatusCode::OK, "{info}");
    let names: Vec<&str> = info["algorithms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["name"].as_str().unwrap())
        .collect();
    assert_eq!(&names[..3], ["minimax", "negamax", "alphabeta"]);
    assert!(names.contains(&"engine"));
    assert_eq!(info["algorithms"][0]["max_depth"], 4);
    assert_eq!(info["algorithms"][0]["tree"], true);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lab_runs_the_algorithms_side_by_side() {
    let t = Test::new();
    let body = json!({
        "fen": START, "depth": 2, "evaluation": "simple", "client": "page-1",
        "algorithms": ["minimax", "alphabeta", "pvs-tt-history", "engine"],
    });
    let (status, run) = t.call("POST", "/api/lab/run", Some(body)).await;
    assert_eq!(status, StatusCode::OK, "{run}");
    let rows = run["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[0]["algorithm"], "minimax");
    assert_eq!(rows[0]["nodes"], 1 + 44 + 1920);
    assert_eq!(rows[0]["leaves"], 1920);
    for row in &rows[..3] {
        assert_eq!(row["finished"], true, "{row}");
        assert_eq!(row["value"], rows[0]["value"], "{row}");
        assert!(row["best"]["chinese"].is_string(), "{row}");
        assert_eq!(row["pv"].as_array().unwrap().len(), 2, "{row}");
        // The line is named in each notation, so the page can follow the one chosen.
        let names = row["pv_names"].as_array().unwrap();
        assert_eq!(names.len(), 2, "{row}");
        let first = names[0]["iccs"].as_str().unwrap();
        assert_eq!(first, row["pv"][0], "{row}");
        assert_eq!(
            names[0]["wxf"],
            start_move_in(first, Notation::Wxf),
            "{row}"
        );
        assert_eq!(names[0]["chinese"], start_move_in(first, Notation::Chinese));
        let best = row["best"]["iccs"].as_str().unwrap();
        assert_eq!(
            row["best"]["wxf"],
            start_move_in(best, Notation::Wxf),
            "{row}"
        );
    }
    assert!(rows[3]["leaves"].is_null());
    assert!(rows[1]["nodes"].as_u64() < rows[0]["nodes"].as_u64());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lab_records_trees_and_takes_the_evaluation_apart() {
    let t = Test::new();
    let body = json!({
        "fen": START, "depth": 2, "algorithms": ["minimax", "alphabeta"],
    });
    let (status, trees) = t.call("POST", "/api/lab/tree", Some(body)).await;
    assert_eq!(status, StatusCode::OK, "{trees}");
    let minimax = &trees["trees"][0];
    let alphabeta = &trees["trees"][1];
    assert_eq!(minimax["truncated"], false);
    assert_eq!(minimax["recorded"], 1 + 44 + 1920);
    assert_eq!(minimax["root"]["k"].as_array().unwrap().len(), 44);
    assert_eq!(minimax["root"]["v"], alphabeta["root"]["v"]);
    assert!(alphabeta["recorded"].as_u64() < minimax["recorded"].as_u64());
    let first = &alphabeta["root"]["k"][0];
    assert!(
        first["c"].as_str().is_some_and(|c| !c.is_empty()),
        "{first}"
    );
    let cut = alphabeta["root"]["k"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["x"] == true)
        .expect("a root move refuted by a reply");
    assert!(!cut["p"].as_array().unwrap().is_empty(), "{cut}");
    // Every move of the tree is named in ICCS, Chinese and WXF.
    let m = first["m"].as_str().unwrap();
    assert_eq!(first["c"], start_move_in(m, Notation::Chinese), "{first}");
    assert_eq!(first["f"], start_move_in(m, Notation::Wxf), "{first}");
    let pruned = &minimax["root"]["k"][0]["p"];
    assert!(
        pruned.as_array().unwrap().is_empty(),
        "minimax prunes nothing"
    );
    let cut_move = cut["m"].as_str().unwrap();
    let after_cut = {
        let mut pos = Position::startpos();
        let m = pos
            .legal_moves()
            .iter()
            .copied()
            .find(|m| m.to_string() == cut_move)
            .unwrap();
        pos.make_move(m);
        pos
    };
    for entry in cut["p"].as_array().unwrap() {
        let [iccs, chinese, wxf] = [0, 1, 2].map(|i| entry[i].as_str().unwrap());
        let m = after_cut
            .legal_moves()
            .iter()
            .copied()
            .find(|m| m.to_string() == iccs)
            .unwrap_or_else(|| panic!("{iccs} is not legal after {cut_move}"));
        assert_eq!(chinese, format_move(&after_cut, m, Notation::Chinese));
        assert_eq!(wxf, format_move(&after_cut, m, Notation::Wxf));
    }

    let (status, eval) = t
        .call("POST", "/api/lab/eval", Some(json!({ "fen": START })))
        .await;
    assert_eq!(status, StatusCode::OK, "{eval}");
    assert_eq!(eval["engine"]["terms"][0]["name"], "material");
    assert_eq!(eval["simple"]["terms"][0]["red"], 4800.0);
    let simple = &eval["simple"];
    let diff = simple["red"].as_f64().unwrap() - simple["black"].as_f64().unwrap();
    assert_eq!(simple["diff"].as_f64(), Some(diff));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lab_refuses_bad_requests_in_short_json() {
    let t = Test::new();
    let long = "x".repeat(5000);
    let cases: Vec<(Value, &str)> = vec![
        (
            json!({"fen": "rnbakabnr/9 w", "depth": 2, "algorithms": ["minimax"]}),
            "/api/lab/run",
        ),
        (
            json!({"fen": START, "depth": 0, "algorithms": ["minimax"]}),
            "/api/lab/run",
        ),
        (
            json!({"fen": START, "depth": 5, "algorithms": ["minimax"]}),
            "/api/lab/run",
        ),
        (
            json!({"fen": START, "depth": 99, "algorithms": ["engine"]}),
            "/api/lab/run",
        ),
        (
            json!({"fen": START, "depth": 2, "algorithms": [long]}),
            "/api/lab/run",
        ),
        (
            json!({"fen": START, "depth": 2, "algorithms": []}),
            "/api/lab/run",
        ),
        (
            json!({"fen": START, "depth": 2, "algorithms": ["minimax"], "evaluation": "x"}),
            "/api/lab/run",
        ),
        (
            json!({"fen": START, "depth": 2, "algorithms": ["minimax"], "client": "a b"}),
            "/api/lab/run",
        ),
        (
            json!({"fen": START, "depth": 5, "algorithms": ["alphabeta"]}),
            "/api/lab/tree",
        ),
        (
            json!({"fen": START, "depth": 2, "algorithms": ["pvs-id-aspiration"]}),
            "/api/lab/tree",
        ),
        (json!({"fen": "9/9 w"}), "/api/lab/eval"),
        (json!({"client": ""}), "/api/lab/cancel"),
    ];
    for (body, uri) in cases {
        let (status, error) = t.call("POST", uri, Some(body.clone())).await;
        assert_error(status, &error, StatusCode::BAD_REQUEST);
        assert!(error.to_string().chars().count() < 400, "{body}: {error}");
        assert!(error["message"].as_str().unwrap().chars().count() <= 300);
    }
    let (status, error) = t
        .call(
            "POST",
            "/api/lab/run",
            Some(json!({"fen": START, "depth": 9, "algorithms": ["minimax"]})),
        )
        .await;
    assert_error(status, &error, StatusCode::BAD_REQUEST);
    assert_eq!(error["code"], "lab_depth");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lab_run_is_cancelled_by_the_next_and_by_cancel() {
    let t = Test::new();
    // Minimax to depth 4 takes seconds; the run is stopped long before.
    let slow = json!({
        "fen": START, "depth": 4, "algorithms": ["minimax", "negamax"], "client": "page-2",
    });
    let started = Instant::now();
    let app = t.app.clone();
    let first = tokio::spawn({
        let slow = slow.clone();
        async move { super::call_app(app, "POST", "/api/lab/run", Some(slow)).await }
    });
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (status, cancelled) = t
        .call("POST", "/api/lab/cancel", Some(json!({"client": "page-2"})))
        .await;
    assert_eq!(status, StatusCode::OK, "{cancelled}");
    assert_eq!(cancelled["cancelled"], true);
    let (status, error) = first.await.unwrap();
    assert_error(status, &error, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(error["code"], "cancelled");
    assert!(started.elapsed() < Duration::from_secs(3));

    // A newer run of the same page stops the older one and runs itself.
    let app = t.app.clone();
    let older =
        tokio::spawn(async move { super::call_app(app, "POST", "/api/lab/run", Some(slow)).await });
    tokio::time::sleep(Duration::from_millis(300)).await;
    let quick = json!({"fen": START, "depth": 1, "algorithms": ["alphabeta"], "client": "page-2"});
    let (status, run) = t.call("POST", "/api/lab/run", Some(quick)).await;
    assert_eq!(status, StatusCode::OK, "{run}");
    let (status, error) = older.await.unwrap();
    assert_error(status, &error, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(error["code"], "cancelled");
    let (_, none) = t
        .call("POST", "/api/lab/cancel", Some(json!({"client": "page-2"})))
        .await;
    assert_eq!(none["cancelled"], false);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lab_run_tells_its_page_how_far_it_is() {
    let t = Test::new();
    let (status, none) = t.call("GET", "/api/lab/progress?client=page-3", None).await;
    assert_error(status, &none, StatusCode::NOT_FOUND);
    // Alpha-beta is quick; minimax to depth 4 then searches for seconds.
    let slow = json!({
        "fen": START, "depth": 4, "algorithms": ["alphabeta", "minimax"], "client": "page-3",
    });
    let app = t.app.clone();
    let run =
        tokio::spawn(async move { super::call_app(app, "POST", "/api/lab/run", Some(slow)).await });
    let started = Instant::now();
    let progress = loop {
        let (status, progress) = t.call("GET", "/api/lab/progress?client=page-3", None).await;
        if status == StatusCode::OK
            && progress["algorithm"] == "minimax"
            && progress["nodes"].as_u64() > Some(0)
        {
            break progress;
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "{status} {progress}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert_eq!(
        (progress["index"].clone(), progress["count"].clone()),
        (json!(1), json!(2))
    );
    assert_eq!(progress["depth"], 4);
    let rows = progress["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 1, "{progress}");
    assert_eq!(rows[0]["algorithm"], "alphabeta");
    assert_eq!(rows[0]["finished"], true);
    t.call("POST", "/api/lab/cancel", Some(json!({"client": "page-3"})))
        .await;
    let (status, _) = run.await.unwrap();
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let (status, _) = t.call("GET", "/api/lab/progress?client=page-3", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}
