//! Acknowledged means durable: a change answered with 2xx is on disk; one that cannot be saved
//! is refused and leaves the game as it was, in memory and on disk; a deleted game stays deleted.

use super::{assert_error, plies, Test};
use axum::http::StatusCode;
use serde_json::{json, Value};
use std::io::ErrorKind;
use xiangqi_files::disk::faults;
use xiangqi_play::game::MAX_PLIES;

fn game_file(t: &Test, id: &str) -> std::path::PathBuf {
    t.dir.0.join("games").join(format!("{id}.pgn"))
}

fn files_in(t: &Test) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(t.dir.0.join("games"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// A study board with 炮二平五 played and saved: its id, its state, and its file's bytes.
async fn one_move_saved(t: &Test) -> (String, Value, Vec<u8>) {
    let game = t.new_game(json!({"human": "both"})).await;
    let id = game["id"].as_str().unwrap().to_owned();
    let (s, state) = t.play(&id, "h2e2").await;
    assert_eq!(s, StatusCode::OK);
    let on_disk = std::fs::read(game_file(t, &id)).unwrap();
    (id, state, on_disk)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_that_cannot_be_saved_is_refused_and_undone() {
    let t = Test::new();
    let (id, before, on_disk) = one_move_saved(&t).await;

    faults::inject(&t.dir.0, ErrorKind::StorageFull);
    let (s, body) = t.play(&id, "h9g7").await;
    assert_error(s, &body, StatusCode::INSUFFICIENT_STORAGE);
    assert_eq!(body["code"], "disk_full");
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("the disk is full"),
        "{body}"
    );
    // The game in memory is the game on disk.
    let (_, now) = t.call("GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(plies(&now), 1);
    assert_eq!(now["version"], before["version"]);
    assert_eq!(std::fs::read(game_file(&t, &id)).unwrap(), on_disk);
    assert_eq!(
        files_in(&t),
        vec![format!("{id}.pgn")],
        "no temporary file left"
    );

    // Read-only is told apart, and every kind of change is refused the same way.
    faults::inject(&t.dir.0, ErrorKind::ReadOnlyFilesystem);
    for action in ["undo", "resign"] {
        let (s, body) = t
            .call("POST", &format!("/api/games/{id}/{action}"), None)
            .await;
        assert_error(s, &body, StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(body["code"], "disk_read_only", "{action}");
    }
    let (s, body) = t
        .call(
            "POST",
            &format!("/api/games/{id}/settings"),
            Some(json!({"level": 7})),
        )
        .await;
    assert_error(s, &body, StatusCode::SERVICE_UNAVAILABLE);
    let (_, now) = t.call("GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(plies(&now), 1);
    assert!(now["outcome"].is_null());
    assert_ne!(now["level"], 7);

    // Retrying once the disk is writable again works, and survives a restart.
    faults::clear(&t.dir.0);
    let (s, _) = t.play(&id, "h9g7").await;
    assert_eq!(s, StatusCode::OK);
    let t = t.restart();
    let (_, now) = t.call("GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(plies(&now), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_or_imported_game_that_cannot_be_saved_does_not_exist() {
    let t = Test::new();
    faults::inject(&t.dir.0, ErrorKind::StorageFull);
    let (s, body) = t.call("POST", "/api/games", Some(json!({}))).await;
    assert_error(s, &body, StatusCode::INSUFFICIENT_STORAGE);
    let (s, body) = t
        .raw(
            "POST",
            "/api/games/import",
            "application/octet-stream",
            b"1. h2e2 h9g7".to_vec(),
        )
        .await;
    assert_eq!(s, StatusCode::INSUFFICIENT_STORAGE, "{body:?}");
    faults::clear(&t.dir.0);
    let (_, list) = t.call("GET", "/api/games", None).await;
    assert_eq!(list, json!([]));
    assert!(files_in(&t).is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_delete_that_cannot_be_saved_keeps_the_game() {
    let t = Test::new();
    let game = t.new_game(json!({"human": "both"})).await;
    let id = game["id"].as_str().unwrap().to_owned();
    faults::inject(&t.dir.0, ErrorKind::ReadOnlyFilesystem);
    let (s, body) = t.call("DELETE", &format!("/api/games/{id}"), None).await;
    assert_error(s, &body, StatusCode::SERVICE_UNAVAILABLE);
    let (s, _) = t.call("GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(s, StatusCode::OK, "the game is still there");
    faults::clear(&t.dir.0);
    let (s, _) = t.call("DELETE", &format!("/api/games/{id}"), None).await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    let t = t.restart();
    let (s, _) = t.call("GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(s, StatusCode::NOT_FOUND, "a deleted game came back");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_waits_for_a_retry_when_its_move_cannot_be_saved() {
    let t = Test::new();
    let game = t.new_game(json!({"human": "red", "level": 1})).await;
    let id = game["id"].as_str().unwrap().to_owned();
    faults::inject(&t.dir.0, ErrorKind::StorageFull);
    // The person's move cannot be saved either: refused.
    let (s, _) = t.play(&id, "h2e2").await;
    assert_eq!(s, StatusCode::INSUFFICIENT_STORAGE);
    // The person's move is saved; the disk is full when the computer's move comes.
    faults::inject_after(&t.dir.0, ErrorKind::StorageFull, 1);
    let (s, _) = t.play(&id, "h2e2").await;
    assert_eq!(s, StatusCode::OK);
    let failed = t
        .wait(&id, "the computer's unsaved move", |g| {
            g["save_error"].is_object()
        })
        .await;
    assert_eq!(plies(&failed), 1, "the unsaved move was taken back");
    assert!(
        failed["job"].is_null(),
        "the computer does not try again alone"
    );
    assert_eq!(failed["save_error"]["code"], "disk_full");
    assert!(failed["save_error"]["message"]
        .as_str()
        .unwrap()
        .contains("the disk is full"));
    let on_disk = std::fs::read_to_string(game_file(&t, &id)).unwrap();
    // The moves after the tags are the person's alone (a look for "2." in the whole file, as
    // before, also met the date of December's tags and never saw Black's reply).
    let moves = on_disk
        .lines()
        .filter(|l| !l.starts_with('[') && !l.trim().is_empty());
    assert_eq!(moves.collect::<Vec<_>>(), ["1. 炮二平五 *"], "{on_disk}");

    faults::clear(&t.dir.0);
    let (s, retried) = t
        .call("POST", &format!("/api/games/{id}/retry"), None)
        .await;
    assert_eq!(s, StatusCode::OK, "{retried}");
    assert!(retried["save_error"].is_null());
    let played = t
        .wait(&id, "the computer's move after the retry", |g| {
            plies(g) == 2
        })
        .await;
    assert!(played["save_error"].is_null());
    let t = t.restart();
    let (_, now) = t.call("GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(plies(&now), 2);
}

/// A move and a delete sent together: whichever wins, a deleted game never comes back, on
/// disk or in memory, and a move is answered 200 only if the game still exists.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_racing_a_delete_never_resurrects_the_game() {
    let t = Test::new();
    for round in 0..60 {
        let game = t.new_game(json!({"human": "both"})).await;
        let id = game["id"].as_str().unwrap().to_owned();
        let uri = format!("/api/games/{id}");
        let (moved, deleted) = tokio::join!(
            async {
                // Half the rounds let the delete start first.
                if round % 2 == 0 {
                    tokio::task::yield_now().await;
                }
                t.play(&id, "h2e2").await
            },
            t.call("DELETE", &uri, None)
        );
        assert_eq!(deleted.0, StatusCode::NO_CONTENT, "round {round}");
        assert!(
            moved.0 == StatusCode::OK || moved.0 == StatusCode::NOT_FOUND,
            "round {round}: {moved:?}"
        );
        let (s, _) = t.call("GET", &uri, None).await;
        assert_eq!(
            s,
            StatusCode::NOT_FOUND,
            "round {round}: the game came back"
        );
        assert!(
            !game_file(&t, &id).exists(),
            "round {round}: its file came back"
        );
    }
    let t = t.restart();
    let (_, list) = t.call("GET", "/api/games", None).await;
    assert_eq!(list, json!([]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unfinished_saves_are_cleaned_at_start() {
    let t = Test::new();
    let game = t.new_game(json!({"human": "both"})).await;
    let id = game["id"].as_str().unwrap().to_owned();
    std::fs::write(t.dir.0.join("games").join(format!(".{id}.pgn.tmp")), b"").unwrap();
    std::fs::write(t.dir.0.join("games").join(".other.pgn.tmp"), b"[Ev").unwrap();
    let t = t.restart();
    assert_eq!(files_in(&t), vec![format!("{id}.pgn")]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_endless_record_is_refused_with_a_short_message() {
    let t = Test::new();
    // Horses out and back: legal forever for a reader that ignores repetition.
    let mut pgn = String::new();
    for n in 0..=MAX_PLIES / 4 {
        pgn += &format!("{}. h0g2 h9g7 {}. g2h0 g7h9 ", 2 * n + 1, 2 * n + 2);
    }
    let (s, body) = t
        .raw(
            "POST",
            "/api/games/import",
            "application/octet-stream",
            pgn.into_bytes(),
        )
        .await;
    let body: Value = serde_json::from_slice(&body).unwrap();
    assert_error(s, &body, StatusCode::BAD_REQUEST);
    assert!(
        body["message"].as_str().unwrap().contains("at most"),
        "{body}"
    );

    let junk = vec![1u8; super::super::BODY_LIMIT];
    let (s, body) = t
        .raw(
            "POST",
            "/api/games/import",
            "application/octet-stream",
            junk,
        )
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(body.len() < 1000, "{} bytes of error", body.len());
}

/// Games created at once from many threads each get a file of their own: an acknowledged game
/// is never replaced by another (16,000 creations gave 29 ids twice).
#[test]
fn games_created_at_once_never_share_a_file() {
    use super::super::store::new_id;
    use std::time::Instant;
    use xiangqi_play::game::{Human, WebGame};
    let t = Test::new();
    let store = &t.state.games;
    let ids: Vec<String> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..8)
            .map(|_| {
                scope.spawn(|| {
                    (0..250)
                        .map(|_| {
                            let start = xiangqi::Position::startpos();
                            let game =
                                WebGame::new(new_id(), start, Human::Both, 5, None, Instant::now());
                            let shared = store.insert(game).expect("saved");
                            let id = xiangqi_play::entry::lock(&shared).game().id().to_owned();
                            id
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    });
    let distinct: std::collections::HashSet<&String> = ids.iter().collect();
    assert_eq!(distinct.len(), 2000);
    assert_eq!(files_in(&t).len(), 2000);
    assert_eq!(store.summaries().len(), 2000);
}

/// A file already bearing a new game's id (another server on the folder, an earlier run in the
/// same second) is left alone: the new game takes another id.
#[test]
fn a_new_game_never_writes_over_an_existing_file() {
    use std::time::Instant;
    use xiangqi_play::entry::lock;
    use xiangqi_play::game::{Human, WebGame};
    let t = Test::new();
    let taken = "20260101-000000-00000";
    let path = game_file(&t, taken);
    std::fs::write(&path, b"someone else's game").unwrap();
    let game = WebGame::new(
        taken.to_owned(),
        xiangqi::Position::startpos(),
        Human::Both,
        5,
        None,
        Instant::now(),
    );
    let shared = t.state.games.insert(game).unwrap();
    let id = lock(&shared).game().id().to_owned();
    assert_ne!(id, taken);
    assert_eq!(std::fs::read(&path).unwrap(), b"someone else's game");
    assert!(game_file(&t, &id).exists());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_study_edit_that_cannot_be_saved_is_refused_and_undone() {
    let t = Test::new();
    let (id, before, on_disk) = one_move_saved(&t).await;
    let study = format!("/api/games/{id}/study");
    faults::inject(&t.dir.0, ErrorKind::StorageFull);
    for edit in [
        json!({"op": "comment", "at": [0], "text": "lost?"}),
        json!({"op": "play", "at": [], "moves": ["b2e2"]}),
    ] {
        let (s, body) = t.call("POST", &study, Some(edit)).await;
        assert_error(s, &body, StatusCode::INSUFFICIENT_STORAGE);
        assert_eq!(body["code"], "disk_full");
    }
    // Neither the comment nor the variation stayed, in memory or on disk.
    let (_, now) = t.call("GET", &format!("/api/games/{id}"), None).await;
    assert!(now["moves"][0].get("comment").is_none(), "{now}");
    assert!(now["moves"][0].get("variations").is_none(), "{now}");
    assert_eq!(now["revision"], before["revision"]);
    assert_eq!(std::fs::read(game_file(&t, &id)).unwrap(), on_disk);
    faults::clear(&t.dir.0);
    let (s, body) = t
        .call(
            "POST",
            &study,
            Some(json!({"op": "comment", "at": [0], "text": "kept"})),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{body}");
    assert_eq!(body["game"]["moves"][0]["comment"], "kept");
}
