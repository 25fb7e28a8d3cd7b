//! What the page asks of the server when a game starts from a position or a file (issue #35,
//! item 8): positions where no game can start, clocks on games from a FEN, the first-move
//! handicap's side, a record's bare result, the same file imported twice.

use super::{assert_error, plies, Test};
use axum::http::StatusCode;
use serde_json::{json, Value};

/// Black to move, checkmated: the rook on d0 checks, the one on b8 covers rank 8, and e9 would
/// face Red's general.
const MATED: &str = "3k5/1R7/9/9/9/9/9/9/9/3RK4 b - - 0 1";
/// Black to move with no legal move and not in check (a loss in Xiangqi).
const STALEMATED: &str = "3k5/1R7/9/9/9/9/9/9/9/4K4 b - - 0 1";
/// The two generals alone: drawn at once, no attacking piece is left.
const BARE: &str = "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1";

async fn check_fen(t: &Test, fen: &str) -> Value {
    let (s, b) = t
        .call("POST", "/api/fen", Some(json!({ "fen": fen })))
        .await;
    assert_eq!(s, StatusCode::OK, "{b}");
    b
}

/// The game's file as the server serves it.
async fn pgn(t: &Test, id: &str) -> String {
    let (s, text) = t
        .raw("GET", &format!("/api/games/{id}/pgn"), "", Vec::new())
        .await;
    assert_eq!(s, StatusCode::OK);
    String::from_utf8(text).unwrap()
}

async fn import(t: &Test, bytes: &[u8]) -> (StatusCode, Value) {
    let (s, b) = t
        .raw(
            "POST",
            "/api/games/import",
            "application/octet-stream",
            bytes.to_vec(),
        )
        .await;
    (s, serde_json::from_slice(&b).unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_position_the_game_would_start_over_in_says_why_and_starts_no_game() {
    let t = Test::new();
    let legal = check_fen(&t, "3k5/1R7/9/9/9/9/9/9/9/4K4 w").await;
    assert!(legal["outcome"].is_null(), "{legal}");
    for (fen, winner, reason) in [
        (MATED, json!("red"), "checkmate"),
        (STALEMATED, json!("red"), "stalemate"),
        (BARE, Value::Null, "insufficient_material"),
    ] {
        let checked = check_fen(&t, fen).await;
        assert_eq!(checked["outcome"]["reason"], reason, "{checked}");
        assert_eq!(checked["outcome"]["winner"], winner, "{checked}");
        for human in ["red", "black", "both"] {
            let (s, b) = t
                .call(
                    "POST",
                    "/api/games",
                    Some(json!({ "fen": fen, "human": human })),
                )
                .await;
            assert_error(s, &b, StatusCode::BAD_REQUEST);
            assert_eq!(b["code"], "fen_game_over", "{b}");
        }
    }
    let (_, list) = t.call("GET", "/api/games", None).await;
    assert_eq!(list, json!([]), "no game was made");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_from_a_fen_has_the_clock_it_asks_for() {
    let t = Test::new();
    let control = json!({"minutes": 5, "increment": 3, "byoyomi": 0});
    let half = json!({"minutes": 2.5, "increment": 1.5, "byoyomi": 0});
    // What the editor and "Continue from here" send: a position, a side, a clock.
    let game = t
        .new_game(json!({
            "fen": "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b",
            "human": "black",
            "level": 1,
            "clock": {"red": half, "black": control},
        }))
        .await;
    assert_eq!(game["clock"]["black_control"], "300+3", "{game}");
    assert_eq!(game["clock"]["red_control"], "150+1.5", "{game}");
    assert_eq!(game["clock"]["running"], "black");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_first_move_handicap_never_changes_the_chosen_side() {
    let t = Test::new();
    for (human, giver) in [("black", "computer"), ("red", "you")] {
        let body = json!({"human": human, "handicap": "first-move", "handicap_giver": giver});
        let (s, b) = t.call("POST", "/api/games", Some(body)).await;
        assert_error(s, &b, StatusCode::BAD_REQUEST);
        assert_eq!(b["code"], "handicap_side", "{b}");
        assert!(b["message"].as_str().unwrap().contains("Red"), "{b}");
    }
    // The side the handicap gives, chosen or left to it.
    for (human, giver, plays) in [
        (Some("red"), "computer", "red"),
        (None, "computer", "red"),
        (Some("black"), "you", "black"),
        (None, "you", "black"),
    ] {
        let mut body = json!({"handicap": "first-move", "handicap_giver": giver, "level": 1});
        if let Some(human) = human {
            body["human"] = json!(human);
        }
        let game = t.new_game(body).await;
        assert_eq!(game["human"], plays, "{human:?} {giver}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_records_bare_result_is_kept_without_an_invented_termination() {
    let t = Test::new();
    let (s, game) = import(&t, b"[Result \"1-0\"]\n\n1. h2e2 h9g7 2. h0g2 1-0\n").await;
    assert_eq!(s, StatusCode::CREATED, "{game}");
    assert_eq!(plies(&game), 3);
    assert_eq!(game["outcome"]["result"], "1-0", "{game}");
    assert_eq!(game["outcome"]["winner"], "red");
    assert!(game["outcome"]["reason"].is_null(), "{game}");
    let id = game["id"].as_str().unwrap().to_owned();
    let text = pgn(&t, &id).await;
    assert!(text.contains("[Result \"1-0\"]"), "{text}");
    assert!(!text.contains("resignation"), "{text}");
    // A termination the record gives, which this program has no code for, is kept as written.
    let (_, other) = import(
        &t,
        b"[Result \"1/2-1/2\"]\n[Termination \"adjudication\"]\n\n1. h2e2 h9g7 1/2-1/2\n",
    )
    .await;
    let other_id = other["id"].as_str().unwrap().to_owned();
    assert_eq!(other["outcome"]["result"], "1/2-1/2");
    assert!(other["outcome"]["reason"].is_null(), "{other}");
    let text = pgn(&t, &other_id).await;
    assert!(text.contains("[Termination \"adjudication\"]"), "{text}");
    assert!(!text.contains("agreement"), "{text}");
    // Both stay so after a restart, and the list shows the result without a reason.
    let t = t.restart();
    let (_, back) = t.call("GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(back["outcome"]["result"], "1-0", "{back}");
    assert!(back["outcome"]["reason"].is_null(), "{back}");
    assert!(!pgn(&t, &id).await.contains("resignation"));
    assert!(pgn(&t, &other_id)
        .await
        .contains("[Termination \"adjudication\"]"));
    let (_, list) = t.call("GET", "/api/games", None).await;
    for line in list.as_array().unwrap() {
        assert!(
            line["result"].is_string() && line["reason"].is_null(),
            "{line}"
        );
    }
    // A stated resignation is still one.
    let (_, resigned) = import(
        &t,
        b"[Result \"0-1\"]\n[Termination \"resignation\"]\n\n1. h2e2 0-1\n",
    )
    .await;
    assert_eq!(resigned["outcome"]["reason"], "resignation", "{resigned}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_big5_file_with_traditional_characters_is_read() {
    let t = Test::new();
    let file = "[Event \"台北\"]\n[Red \"許\"]\n[Black \"林\"]\n\n1. 炮二平五 馬８進７ 2. 馬二進三 車９平８ *\n";
    let (big5, _, unmappable) = encoding_rs::BIG5.encode(file);
    assert!(!unmappable);
    let (s, game) = import(&t, &big5).await;
    assert_eq!(s, StatusCode::CREATED, "{game}");
    assert_eq!(plies(&game), 4, "{game}");
    assert_eq!(
        (&game["red"], &game["event"]),
        (&json!("許"), &json!("台北"))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_file_imported_twice_opens_the_first_game() {
    let t = Test::new();
    let file = "[Event \"Twice\"]\n[Red \"A\"]\n[Black \"B\"]\n\n1. 炮二平五 马８进７ *\n";
    let (gbk, _, _) = encoding_rs::GBK.encode(file);
    let (s, first) = import(&t, &gbk).await;
    assert_eq!(s, StatusCode::CREATED, "{first}");
    assert_eq!(first["already_imported"], false, "{first}");
    let id = first["id"].as_str().unwrap().to_owned();
    // The person plays on in it; the same file again is still that game.
    let (s, _) = t.play(&id, "h0g2").await;
    assert_eq!(s, StatusCode::OK);
    let (s, again) = import(&t, &gbk).await;
    assert_eq!(s, StatusCode::OK, "{again}");
    assert_eq!(again["id"], id.as_str());
    assert_eq!(again["already_imported"], true);
    assert_eq!(plies(&again), 3);
    let count = |list: &Value| list.as_array().unwrap().len();
    let (_, list) = t.call("GET", "/api/games", None).await;
    assert_eq!(count(&list), 1, "{list}");
    // Known after a restart as well, when the game is read back from its file.
    let t = t.restart();
    let (s, again) = import(&t, &gbk).await;
    assert_eq!(s, StatusCode::OK, "{again}");
    assert_eq!(again["id"], id.as_str());
    // Another file, even with the same moves, is another game.
    let (s, other) = import(&t, b"[Event \"Twice\"]\n\n1. h2e2 h9g7 *\n").await;
    assert_eq!(s, StatusCode::CREATED, "{other}");
    assert_ne!(other["id"], id.as_str());
    // Once the game is deleted, the file makes a new one.
    let (s, _) = t.call("DELETE", &format!("/api/games/{id}"), None).await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    let (s, fresh) = import(&t, &gbk).await;
    assert_eq!(s, StatusCode::CREATED, "{fresh}");
    assert_ne!(fresh["id"], id.as_str());
    let (_, list) = t.call("GET", "/api/games", None).await;
    assert_eq!(count(&list), 2, "{list}");
}
