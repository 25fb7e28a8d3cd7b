//! The web server killed with SIGKILL while many games are being played: after a restart every
//! move it acknowledged is still there, and no unfinished save is left behind. And stopped with
//! SIGTERM in the middle of a laboratory run: the run is stopped and answered, not waited for.

use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Games played at once.
const PLAYERS: usize = 16;
/// Kills (and restarts) per test.
const ROUNDS: usize = 3;

/// `xiangqi serve` on `data_dir`, and the `host:port` it printed.
fn start(data_dir: &Path) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_xiangqi"))
        .args(["serve", "--no-open", "--data-dir"])
        .arg(data_dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("starting xiangqi serve");
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    std::thread::spawn(move || std::io::copy(&mut reader, &mut std::io::sink()));
    let address = line
        .split_whitespace()
        .find_map(|w| w.strip_prefix("http://"))
        .expect("the server prints its address")
        .trim_end_matches('/')
        .to_owned();
    (child, address)
}

/// One HTTP request on a connection of its own: the status and the JSON answer, or `None`
/// when the server is gone.
fn call(address: &str, method: &str, path: &str, body: Option<&Value>) -> Option<(u16, Value)> {
    let mut stream = TcpStream::connect(address).ok()?;
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .ok()?;
    let body = body.map(Value::to_string).unwrap_or_default();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).ok()?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer).ok()?;
    let status = answer.get(9..12)?.parse().ok()?;
    let (_, json) = answer.split_once("\r\n\r\n")?;
    Some((status, serde_json::from_str(json).unwrap_or(Value::Null)))
}

fn moves_of(game: &Value) -> Vec<String> {
    game["moves"]
        .as_array()
        .map(|moves| {
            moves
                .iter()
                .map(|m| m["iccs"].as_str().unwrap_or("").to_owned())
                .collect()
        })
        .unwrap_or_default()
}

/// Plays random legal moves in a new game until the server dies; records every acknowledged
/// state of the game in `acked`.
fn play(address: &str, seed: u64, acked: &Mutex<HashMap<String, Vec<String>>>, dead: &AtomicBool) {
    let Some((201, mut game)) = call(
        address,
        "POST",
        "/api/games",
        Some(&json!({"human": "both"})),
    ) else {
        return;
    };
    let id = game["id"].as_str().unwrap().to_owned();
    acked.lock().unwrap().insert(id.clone(), Vec::new());
    let mut state = seed;
    while !dead.load(Ordering::Relaxed) {
        let legal = game["legal"].as_array().cloned().unwrap_or_default();
        if legal.is_empty() || moves_of(&game).len() >= 200 {
            return;
        }
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mv = &legal[(state >> 33) as usize % legal.len()];
        let path = format!("/api/games/{id}/move");
        match call(address, "POST", &path, Some(&json!({ "move": mv }))) {
            Some((200, next)) => {
                game = next;
                acked.lock().unwrap().insert(id.clone(), moves_of(&game));
            }
            _ => return,
        }
    }
}

struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn no_acknowledged_move_is_lost_when_the_server_is_killed() {
    let dir = TempDir(std::env::temp_dir().join(format!("xiangqi-crash-{}", std::process::id())));
    let _ = std::fs::remove_dir_all(&dir.0);
    let mut checked = 0;
    for round in 0..ROUNDS {
        let (mut server, address) = start(&dir.0);
        let acked = Arc::new(Mutex::new(HashMap::new()));
        let dead = Arc::new(AtomicBool::new(false));
        let players: Vec<_> = (0..PLAYERS)
            .map(|i| {
                let (address, acked, dead) =
                    (address.clone(), Arc::clone(&acked), Arc::clone(&dead));
                std::thread::spawn(move || {
                    play(&address, (round * PLAYERS + i) as u64, &acked, &dead)
                })
            })
            .collect();
        // Kill it in the middle of the play, at a different moment each round.
        std::thread::sleep(Duration::from_millis(600 + 400 * round as u64));
        server.kill().unwrap();
        server.wait().unwrap();
        dead.store(true, Ordering::Relaxed);
        for player in players {
            player.join().unwrap();
        }

        let (mut server, address) = start(&dir.0);
        for (id, moves) in acked.lock().unwrap().iter() {
            let (status, game) = call(&address, "GET", &format!("/api/games/{id}"), None)
                .expect("the restarted server answers");
            assert_eq!(status, 200, "round {round}: game {id} is gone");
            let saved = moves_of(&game);
            // A move saved while its answer was lost in the kill may be there as well.
            assert!(
                saved.starts_with(moves) && saved.len() <= moves.len() + 1,
                "round {round}: game {id} acknowledged {moves:?} but has {saved:?}"
            );
            checked += moves.len();
        }
        server.kill().unwrap();
        server.wait().unwrap();
    }
    assert!(checked > 0, "no move was acknowledged before the kills");
    let leftovers: Vec<_> = std::fs::read_dir(dir.0.join("games"))
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "unfinished saves left: {leftovers:?}");
}

/// SIGTERM during a laboratory run stops the run at once (its request is answered: cancelled)
/// instead of waiting the shutdown grace out, and the server exits.
#[cfg(unix)]
#[test]
fn sigterm_stops_a_laboratory_run_and_the_server() {
    let dir = TempDir(std::env::temp_dir().join(format!("xiangqi-term-{}", std::process::id())));
    let _ = std::fs::remove_dir_all(&dir.0);
    let (mut server, address) = start(&dir.0);
    let run = json!({
        "fen": "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "depth": 4,
        "algorithms": ["minimax"],
    });
    let asking = std::thread::spawn(move || call(&address, "POST", "/api/lab/run", Some(&run)));
    // Let the run start (minimax to depth 4 takes many seconds).
    std::thread::sleep(Duration::from_millis(500));
    let sent = Command::new("kill")
        .args(["-TERM", &server.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let answer = asking.join().unwrap();
    let (status, error) = answer.expect("the run was not answered before the server stopped");
    assert_eq!(status, 422, "{error}");
    assert_eq!(error["code"], "cancelled", "{error}");
    let exited = (0..100).any(|_| {
        std::thread::sleep(Duration::from_millis(100));
        server.try_wait().unwrap().is_some()
    });
    if !exited {
        let _ = server.kill();
    }
    assert!(exited, "the server did not exit after SIGTERM");
}
