//! Studying games: the tree of variations, comments and glyphs survives loading, saving and a
//! restart, and the page's edits change it as asked.

use super::{assert_error, plies, shared_file, Test};
use axum::http::StatusCode;
use serde_json::{json, Value};
use std::time::Instant;
use xiangqi::pgn::{read_pgn, write_pgn, GameRecord, NotationCodec};
use xiangqi::Notation;
use xiangqi_play::game_file::{from_record, to_record, Origin};

/// A record with what study programs write: comments before and after moves, variations to
/// two levels, one opening before its first move with a comment, and glyphs.
const ANNOTATED: &str = "[Game \"Chinese Chess\"]\n[Event \"Study\"]\n[Result \"1-0\"]\n\
{The central cannon.}\n\
1. 炮二平五 {Red takes the centre.} (1. 相三进五 {The elephant opening.} 1... 卒７进１) \
1... 马８进７ $1 (1... 炮８平５ {Same direction cannons.}) \
2. 马二进三 (2. 兵七进一 ({Or the rook.} 2. 车九进一 ?!) 2... 车９平８) 2... 车９平８ \
3. 车一平二 !? 1-0\n";

/// The tree of a record as written by `write_pgn`, without the tags (which the web game adds to).
fn movetext(record: &GameRecord) -> String {
    let text = write_pgn(record, &NotationCodec(Notation::Chinese), "Chinese");
    text.lines()
        .filter(|line| !line.starts_with('['))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A record loaded as the person loads a file, saved, and read back as the program reads its
/// own files: nothing of the moves, comments, glyphs and variations changes.
fn assert_round_trip(name: &str, record: &GameRecord) {
    let now = Instant::now();
    let game = from_record("study".into(), record, Origin::Imported, None, now);
    let saved = to_record(&game, now);
    assert_eq!(saved.initial_comment, record.initial_comment, "{name}");
    assert_eq!(
        saved.moves, record.moves,
        "{name}: the tree changed on loading"
    );
    assert_eq!(saved.result, record.result, "{name}");
    let text = write_pgn(&saved, &NotationCodec(Notation::Chinese), "Chinese");
    let again = read_pgn(text.as_bytes(), &NotationCodec(Notation::Chinese)).unwrap();
    let game = from_record("study".into(), &again[0], Origin::Saved, None, now);
    let resaved = to_record(&game, now);
    assert_eq!(
        movetext(&resaved),
        movetext(record),
        "{name}: the tree changed on saving"
    );
}

#[test]
fn annotated_records_load_and_save_unchanged() {
    let records = read_pgn(ANNOTATED.as_bytes(), &NotationCodec(Notation::Chinese)).unwrap();
    let record = &records[0];
    assert_eq!(record.moves[0].variations.len(), 1);
    assert_round_trip("the annotated sample", record);
    let mut names: Vec<String> = (1..=8).map(|n| format!("ccgc2006-0{n}.pgn")).collect();
    names.extend(["sample-from-xqf.pgn".into(), "sample.xqf".into()]);
    for name in &names {
        let Some(bytes) = shared_file(name) else {
            eprintln!(
                "note: ../shared/testdata is absent; the real files' round trip is not tested"
            );
            return;
        };
        let records = if name.ends_with(".xqf") {
            vec![xiangqi::xqf::record_from_xqf(&bytes).unwrap()]
        } else {
            read_pgn(&bytes, &NotationCodec(Notation::Chinese)).unwrap()
        };
        for record in &records {
            assert_round_trip(name, record);
        }
    }
}

/// Sends a study edit; returns the status and the answer.
async fn edit(t: &Test, id: &str, body: Value) -> (StatusCode, Value) {
    t.call("POST", &format!("/api/games/{id}/study"), Some(body))
        .await
}

/// Sends a study edit that must succeed; returns the path shown and the game.
async fn edit_ok(t: &Test, id: &str, body: Value) -> (Value, Value) {
    let (status, answer) = edit(t, id, body.clone()).await;
    assert_eq!(status, StatusCode::OK, "{body}: {answer}");
    (answer["at"].clone(), answer["game"].clone())
}

async fn import(t: &Test, text: &str) -> Value {
    let (s, b) = t
        .raw(
            "POST",
            "/api/games/import",
            "application/octet-stream",
            text.as_bytes().to_vec(),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{}", String::from_utf8_lossy(&b));
    serde_json::from_slice(&b).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_loaded_record_shows_and_keeps_its_variations_and_comments() {
    let t = Test::new();
    let game = import(&t, ANNOTATED).await;
    let id = game["id"].as_str().unwrap().to_owned();
    assert_eq!(game["initial_comment"], "The central cannon.");
    assert_eq!(game["moves"][0]["comment"], "Red takes the centre.");
    assert_eq!(game["moves"][1]["nags"], json!([1]));
    assert_eq!(game["moves"][0]["variations"][0][0]["chinese"], "相三进五");
    let deep = &game["moves"][2]["variations"][0][0]["variations"][0][0];
    assert_eq!(deep["before"], "Or the rook.");
    assert_eq!(deep["nags"], json!([6]));
    let (_, pgn) = t
        .raw("GET", &format!("/api/games/{id}/pgn"), "text/plain", vec![])
        .await;
    let pgn = String::from_utf8(pgn).unwrap();
    for kept in [
        "{The central cannon.}",
        "(1. 相三进五",
        "$1",
        "{Or the rook.}",
        "$5",
    ] {
        assert!(
            pgn.contains(kept),
            "{kept} is missing from the saved game:\n{pgn}"
        );
    }

    // Edits: a new variation, a comment on it, glyphs, and they survive a restart.
    let (at, game) = edit_ok(
        &t,
        &id,
        json!({"op": "play", "at": [1], "moves": ["g3g4", "b7b0"]}),
    )
    .await;
    assert_eq!(at, json!([2, 1, 1]), "a second variation of move 2");
    assert_eq!(game["moves"][2]["variations"][1][1]["iccs"], "b7b0");
    // Playing the same moves again goes there, adding nothing.
    let (again, same) = edit_ok(
        &t,
        &id,
        json!({"op": "play", "at": [1], "moves": ["g3g4", "b7b0"]}),
    )
    .await;
    assert_eq!(again, at);
    assert_eq!(same["moves"], game["moves"]);
    edit_ok(
        &t,
        &id,
        json!({"op": "comment", "at": [2, 1, 1], "text": "  Cannon takes the horse. "}),
    )
    .await;
    let (_, game) = edit_ok(
        &t,
        &id,
        json!({"op": "glyphs", "at": [2, 1, 1], "nags": [4]}),
    )
    .await;
    assert_eq!(
        game["moves"][2]["variations"][1][1]["comment"],
        "Cannon takes the horse."
    );
    assert_eq!(game["moves"][2]["variations"][1][1]["nags"], json!([4]));
    let t = t.restart();
    let (_, game) = t.call("GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(
        game["moves"][2]["variations"][1][1]["comment"],
        "Cannon takes the horse."
    );
    assert_eq!(game["moves"][0]["comment"], "Red takes the centre.");

    // Moving up, promoting into the main line (a study board), deleting.
    let (at, game) = edit_ok(&t, &id, json!({"op": "up", "at": [2, 1, 0]})).await;
    assert_eq!(at, json!([2, 0, 0]));
    assert_eq!(game["moves"][2]["variations"][0][0]["iccs"], "g3g4");
    let (at, game) = edit_ok(&t, &id, json!({"op": "promote", "at": [2, 0, 1]})).await;
    assert_eq!(at, json!([3]));
    assert_eq!(plies(&game), 4, "the game goes along the promoted line");
    assert_eq!(game["moves"][3]["iccs"], "b7b0");
    assert_eq!(game["moves"][2]["variations"][0][0]["chinese"], "马二进三");
    let (at, game) = edit_ok(&t, &id, json!({"op": "delete", "at": [2, 0, 0]})).await;
    assert_eq!(at, json!([1]));
    assert_eq!(game["moves"][2]["variations"][0][0]["chinese"], "兵七进一");

    // Refusals: no such move, an illegal move, a main-line move that is no variation.
    for (body, code) in [
        (json!({"op": "promote", "at": [9, 0, 0]}), "no_such_move"),
        (json!({"op": "promote", "at": [1]}), "in_main_line"),
        (json!({"op": "up", "at": [2, 0, 0]}), "already_first"),
        (
            json!({"op": "play", "at": [0], "moves": ["a0a5"]}),
            "not_your_piece",
        ),
        (
            json!({"op": "comment", "at": [1], "text": "x", "before": true}),
            "no_comment_before",
        ),
        (json!({"op": "glyphs", "at": [1], "nags": [0]}), "bad_glyph"),
    ] {
        let (status, answer) = edit(&t, &id, body.clone()).await;
        assert_error(status, &answer, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(answer["code"], code, "{body}: {answer}");
    }
    for bad in [
        json!({"op": "play", "at": [0], "moves": ["zz"]}),
        json!({"op": "dance", "at": [0]}),
        json!({"op": "play", "at": "first", "moves": []}),
    ] {
        let (status, answer) = edit(&t, &id, bad).await;
        assert!(status.is_client_error(), "{answer}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_a_game_against_the_computer_the_main_line_is_the_game() {
    let t = Test::new();
    let clock = json!({"red": {"minutes": 10}, "black": {"minutes": 10}});
    let game = t
        .new_game(json!({"human": "red", "level": 1, "clock": clock}))
        .await;
    let id = game["id"].as_str().unwrap().to_owned();
    let (s, b) = t.play(&id, "h2e2").await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let game = t.wait(&id, "the computer's move", |g| plies(g) == 2).await;
    let version = game["version"].clone();
    // A variation and a comment while looking back: the game and its version stay.
    let (at, after) = edit_ok(&t, &id, json!({"op": "play", "at": [], "moves": ["b2e2"]})).await;
    assert_eq!(at, json!([0, 0, 0]));
    assert_eq!(after["version"], version, "the play is unchanged");
    assert_ne!(after["revision"], game["revision"]);
    assert_eq!(plies(&after), 2);
    // The main line cannot be changed, and moves at its end are the board's.
    for body in [
        json!({"op": "promote", "at": [0, 0, 0]}),
        json!({"op": "delete", "at": [1]}),
        json!({"op": "play", "at": [1], "moves": ["h0g2"]}),
    ] {
        let (status, answer) = edit(&t, &id, body.clone()).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}: {answer}");
        assert_eq!(answer["code"], "main_line_is_the_game");
    }
    // A comment on a move of the clock's game is kept beside the clock's time.
    edit_ok(
        &t,
        &id,
        json!({"op": "comment", "at": [1], "text": "A quick answer."}),
    )
    .await;
    let t = t.restart();
    let (_, game) = t.call("GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(game["moves"][1]["comment"], "A quick answer.");
    assert!(game["clock"].is_object());
    let (_, pgn) = t
        .raw("GET", &format!("/api/games/{id}/pgn"), "text/plain", vec![])
        .await;
    let pgn = String::from_utf8(pgn).unwrap();
    assert!(
        pgn.contains("A quick answer.") && pgn.contains("[%clk"),
        "{pgn}"
    );
    // A takeback and another move keep the line taken back as a variation.
    let (s, b) = t.call("POST", &format!("/api/games/{id}/undo"), None).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let (s, b) = t.play(&id, "b2e2").await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(b["moves"][0]["iccs"], "b2e2");
    assert_eq!(b["moves"][0]["variations"][0][0]["iccs"], "h2e2");
    assert_eq!(b["moves"][0]["variations"][0].as_array().unwrap().len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_are_named_by_their_opening_and_a_files_code_stays() {
    let t = Test::new();
    // The horse opening, then the edge cannon after Black's seventh pawn.
    let game = import(&t, "1. h0g2 g6g5 2. h2i2 h9g7 *\n").await;
    let id = game["id"].as_str().unwrap().to_owned();
    assert_eq!(game["opening"]["code"], "A42", "{game}");
    assert_eq!(game["opening"]["opening"], "起马转边炮对进７卒");
    assert_eq!(game["opening"]["from_file"], false);
    let (_, list) = t.call("GET", "/api/games", None).await;
    assert_eq!(list[0]["opening"]["code"], "A42", "{list}");
    let (_, pgn) = t
        .raw("GET", &format!("/api/games/{id}/pgn"), "text/plain", vec![])
        .await;
    let pgn = String::from_utf8(pgn).unwrap();
    assert!(pgn.contains("[ECCO \"A42\"]"), "{pgn}");
    // A file's own code stays, even where ours differs, through a save and a restart.
    let game = import(
        &t,
        "[ECCO \"A40\"]\n\n1. h0g2 g6g5 2. h2i2 h9g7 3. a0a1 *\n",
    )
    .await;
    let id = game["id"].as_str().unwrap().to_owned();
    assert_eq!(game["opening"]["code"], "A40", "{game}");
    assert_eq!(game["opening"]["from_file"], true);
    // A code this program wrote is its own classification: it follows the game on.
    let ours = t.new_game(json!({"human": "both"})).await;
    let own = ours["id"].as_str().unwrap().to_owned();
    for m in ["h0g2", "g6g5"] {
        let (s, b) = t.play(&own, m).await;
        assert_eq!(s, StatusCode::OK, "{b}");
    }
    let t = t.restart();
    let (_, game) = t.call("GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(game["opening"]["code"], "A40", "{game}");
    let (_, game) = t.call("GET", &format!("/api/games/{own}"), None).await;
    assert_eq!(game["opening"]["code"], "A41", "{game}");
    let (_, game) = t.play(&own, "h2i2").await;
    assert_eq!(game["opening"]["code"], "A42", "{game}");
}

#[test]
fn a_files_own_opening_tags_are_kept_word_for_word() {
    let text = "[ECCO \"A42\"]\n[Opening \"起馬轉邊炮對進７卒\"]\n\n1. h0g2 g6g5 2. h2i2 h9g7 *\n";
    let record = &read_pgn(text.as_bytes(), &NotationCodec(Notation::Chinese)).unwrap()[0];
    let now = Instant::now();
    let game = from_record("t".into(), record, Origin::Imported, None, now);
    let saved = to_record(&game, now);
    assert_eq!(
        saved.tag("Opening"),
        Some("起馬轉邊炮對進７卒"),
        "the file's spelling stays"
    );
    assert_eq!(saved.tag("ECCO"), Some("A42"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_poll_that_has_the_moves_gets_the_state_without_them() {
    let t = Test::new();
    let game = import(&t, ANNOTATED).await;
    let id = game["id"].as_str().unwrap().to_owned();
    let since = format!("{}.{}", game["version"], game["revision"]);
    let (s, same) = t
        .call("GET", &format!("/api/games/{id}?since={since}"), None)
        .await;
    assert_eq!(s, StatusCode::OK, "{same}");
    assert!(
        same.get("moves").is_none() && same.get("initial_comment").is_none(),
        "{same}"
    );
    assert_eq!(same["version"], game["version"]);
    // After an edit the revision moved on: the moves come again, the new comment with them.
    edit_ok(
        &t,
        &id,
        json!({"op": "comment", "at": [1], "text": "Noted."}),
    )
    .await;
    let (_, changed) = t
        .call("GET", &format!("/api/games/{id}?since={since}"), None)
        .await;
    assert_eq!(changed["moves"][1]["comment"], "Noted.", "{changed}");
    assert_eq!(changed["initial_comment"], "The central cannon.");
    // A since that is not VERSION.REVISION is no match; an unknown parameter is refused.
    let (_, odd) = t
        .call("GET", &format!("/api/games/{id}?since=soon"), None)
        .await;
    assert!(odd["moves"].is_array(), "{odd}");
    let (s, _) = t
        .call("GET", &format!("/api/games/{id}?until=1"), None)
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
}
