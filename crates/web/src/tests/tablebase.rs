//! `POST /api/tablebase`: the endgame tables of the data directory's `tablebases/` folder, a
//! position they hold with either side to move, one they do not, none loaded, a bad FEN.

use super::{assert_error, TempDir, Test};
use axum::http::StatusCode;
use serde_json::{json, Value};
use xiangqi_tablebase::file::file_name;
use xiangqi_tablebase::Tables;

/// A chariot against the bare general: mate in two (a0a8, then the chariot mates on rank 9).
const KRK: &str = "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1";
/// The same with Black to move: mated after four plies.
const KRK_BLACK: &str = "4k4/9/9/9/9/9/9/9/9/R2K5 b - - 0 1";

/// A server whose data directory holds the KRK tables (and KK, the capture's).
fn with_krk() -> Test {
    let dir = TempDir::new();
    let folder = dir.0.join("tablebases");
    std::fs::create_dir_all(&folder).unwrap();
    let mut tables = Tables::with_threads(1);
    tables.generate("KRK".parse().unwrap(), &mut |table| {
        std::fs::write(folder.join(file_name(table.material())), table.to_bytes()).unwrap();
    });
    Test::with_slots(dir, 1)
}

async fn probe(t: &Test, fen: &str) -> Value {
    let (s, b) = t
        .call("POST", "/api/tablebase", Some(json!({ "fen": fen })))
        .await;
    assert_eq!(s, StatusCode::OK, "{b}");
    b
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_position_the_tables_hold_gets_its_value_and_its_moves_best_first() {
    let t = with_krk();
    let win = probe(&t, KRK).await;
    assert_eq!(
        (&win["available"], &win["found"], &win["material"]),
        (&json!(true), &json!(true), &json!("KRK")),
        "{win}"
    );
    assert_eq!(
        (&win["value"], &win["plies"], &win["moves_to_mate"]),
        (&json!("win"), &json!(3), &json!(2)),
        "{win}"
    );
    assert_eq!(win["most_men"], 3, "{win}");
    // Nothing to capture: the conversion is the mate, in time.
    assert_eq!(
        (&win["conversion"], &win["beyond_no_capture_limit"]),
        (&json!(3), &json!(false)),
        "{win}"
    );
    // After 118 plies without a capture the mate comes too late.
    let late = probe(&t, "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 118 90").await;
    assert_eq!(late["beyond_no_capture_limit"], true, "{late}");
    let moves = win["moves"].as_array().unwrap();
    let legal = xiangqi::Position::from_fen(KRK)
        .unwrap()
        .legal_moves()
        .len();
    assert_eq!(moves.len(), legal, "{win}");
    // The best moves keep the position's own value; a0a8 is among them.
    let best: Vec<&Value> = moves
        .iter()
        .take_while(|m| m["value"] == "win" && m["plies"] == 3)
        .collect();
    assert!(!best.is_empty(), "{win}");
    assert!(best.iter().all(|m| m["moves_to_mate"] == 2), "{win}");
    assert!(best.iter().any(|m| m["iccs"] == "a0a8"), "{win}");
    assert!(moves[0]["chinese"].is_string() && moves[0]["wxf"].is_string());
    // Slower wins come after them.
    assert!(moves
        .iter()
        .skip(best.len())
        .all(|m| m["value"] != "win" || m["plies"].as_u64() > Some(3)));

    let loss = probe(&t, KRK_BLACK).await;
    assert_eq!(
        (&loss["value"], &loss["plies"], &loss["moves_to_mate"]),
        (&json!("loss"), &json!(4), &json!(2)),
        "{loss}"
    );
    // Every move of the defender loses; the longest defences come first.
    let plies: Vec<u64> = loss["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            assert_eq!(m["value"], "loss", "{loss}");
            m["plies"].as_u64().unwrap()
        })
        .collect();
    assert_eq!(plies.first(), Some(&4), "{loss}");
    assert!(plies.windows(2).all(|w| w[0] >= w[1]), "{plies:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_position_without_a_table_or_a_server_without_tables_says_so() {
    let t = with_krk();
    // Two chariots: no KRRK table here.
    let none = probe(&t, "4k4/9/9/9/9/9/9/9/9/RR1K5 w - - 0 1").await;
    assert_eq!(
        (&none["available"], &none["found"], &none["material"]),
        (&json!(true), &json!(false), &json!("KRRK")),
        "{none}"
    );
    assert!(none["value"].is_null() && none["plies"].is_null(), "{none}");
    assert_eq!(none["moves"], json!([]));

    let (s, b) = t
        .call("POST", "/api/tablebase", Some(json!({"fen": "4k4/9/9 w"})))
        .await;
    assert_error(s, &b, StatusCode::BAD_REQUEST);
    assert!(
        b["code"].as_str().is_some_and(|c| c.starts_with("fen_")),
        "{b}"
    );
    let (s, b) = t.call("POST", "/api/tablebase", Some(json!({}))).await;
    assert_error(s, &b, StatusCode::BAD_REQUEST);
    let (s, b) = t.call("GET", "/api/tablebase", None).await;
    assert_error(s, &b, StatusCode::METHOD_NOT_ALLOWED);

    // No folder at all: the same answer shape, nothing available; a bad FEN is still refused.
    let bare = Test::new();
    let off = probe(&bare, KRK).await;
    assert_eq!(
        (&off["available"], &off["found"], &off["material"]),
        (&json!(false), &json!(false), &json!("KRK")),
        "{off}"
    );
    assert!(off["value"].is_null(), "{off}");
    let (s, b) = bare
        .call("POST", "/api/tablebase", Some(json!({"fen": "not a fen"})))
        .await;
    assert_error(s, &b, StatusCode::BAD_REQUEST);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_damaged_table_is_left_out_and_the_rest_used() {
    let dir = TempDir::new();
    let folder = dir.0.join("tablebases");
    std::fs::create_dir_all(&folder).unwrap();
    let mut tables = Tables::with_threads(1);
    tables.generate("KRK".parse().unwrap(), &mut |table| {
        std::fs::write(folder.join(file_name(table.material())), table.to_bytes()).unwrap();
    });
    let path = folder.join("KRK.xqtb");
    let mut bytes = std::fs::read(&path).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 1;
    std::fs::write(&path, bytes).unwrap();
    let t = Test::with_slots(dir, 1);
    // KK is still there; KRK is not.
    let krk = probe(&t, KRK).await;
    assert_eq!(
        (&krk["available"], &krk["found"]),
        (&json!(true), &json!(false)),
        "{krk}"
    );
    let bare = probe(&t, "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1").await;
    assert_eq!(
        (&bare["found"], &bare["value"]),
        (&json!(true), &json!("draw")),
        "{bare}"
    );
}
