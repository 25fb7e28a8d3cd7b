//! The module's commands: JSON in, JSON out, progress through a callback.
//!
//! | `cmd` | fields | answer |
//! |---|---|---|
//! | `bench` | `depth?` (default 9… the native default), `network?` (default true) | `{nodes, ms, nps}` |
//! | `perft` | `fen?`, `depth` | `{nodes, ms}` |
//! | `search` | `fen?`, `moves?` (ICCS), `level?` (1–10), `movetime?` / `depth?` / `nodes?`, `lines?` | `{best, ponder, score, depth, nodes, ms, pv}`; each progress report is emitted as `{depth, score, nodes, ms, pv, line}` |
//! | `new_game` | | `{}`: forgets the hash table |
//! | `api` | `method`, `path`, `body` (a string) | `{status, body}`: the web server's answer to that request (`xiangqi_play::local`) |
//!
//! A request that cannot be read, or a position or move that is wrong, is answered with
//! `{"error": "…"}`, never a panic.

use serde::{Deserialize, Serialize};
use std::time::Duration;
use xiangqi::{parse_move_as, perft, Move, Notation, Position};
use xiangqi_engine::instant::Instant;
use xiangqi_engine::strength::{Strength, MAX_LEVEL, MIN_LEVEL};
use xiangqi_engine::{
    bench, Engine, EngineOptions, Limits, SearchInfo, SearchRequest, SearchResult,
};

/// Hash table of the browser's engine, in MiB: a phone has little memory to spare.
const HASH_MB: usize = 32;
/// Deepest perft the module runs (a browser tab is not the place for hours of counting).
const MAX_PERFT_DEPTH: u32 = 6;

/// A request, by its `cmd`.
#[derive(Deserialize)]
#[serde(tag = "cmd", rename_all = "snake_case", deny_unknown_fields)]
pub enum Request {
    /// The fixed benchmark.
    Bench {
        /// Search depth (the native `bench`'s default when absent).
        depth: Option<u32>,
        /// Whether the network evaluates (default) or the hand-made evaluation.
        network: Option<bool>,
    },
    /// Counts the leaves of the move tree.
    Perft {
        /// The position (the start when absent).
        fen: Option<String>,
        /// Plies to count.
        depth: u32,
    },
    /// Searches a position for a move.
    Search {
        /// The game's start (the start position when absent).
        fen: Option<String>,
        /// Moves played from it, ICCS.
        #[serde(default)]
        moves: Vec<String>,
        /// Difficulty level, 1–10 (10, the full engine, when absent).
        level: Option<u8>,
        /// Think this many milliseconds.
        movetime: Option<u64>,
        /// Stop after this many plies.
        depth: Option<u32>,
        /// Stop after about this many nodes.
        nodes: Option<u64>,
        /// Principal variations to report.
        lines: Option<usize>,
    },
    /// Starts afresh: an empty hash table.
    NewGame,
    /// A request of the page's API, answered as the web server answers it.
    Api {
        /// `GET`, `POST`, …
        method: String,
        /// The path with its query (`/api/levels`).
        path: String,
        /// The request body (JSON, or nothing).
        #[serde(default)]
        body: String,
    },
}

/// One progress report of a search.
#[derive(Serialize)]
struct Progress {
    depth: u32,
    score: i32,
    nodes: u64,
    ms: u64,
    /// Which of several lines (1 first).
    line: usize,
    pv: Vec<String>,
}

/// The answer to `search`.
#[derive(Serialize)]
struct Found {
    best: Option<String>,
    ponder: Option<String>,
    score: i32,
    depth: u32,
    nodes: u64,
    ms: u64,
    pv: Vec<String>,
    from_book: bool,
}

/// The engine between commands.
pub struct Session {
    engine: Engine,
}

impl Default for Session {
    fn default() -> Session {
        Session {
            engine: Engine::new(EngineOptions {
                hash_mb: HASH_MB,
                threads: 1,
                ..EngineOptions::default()
            }),
        }
    }
}

impl Session {
    /// Answers one request (JSON bytes), handing each progress report (JSON) to `emit` as the
    /// search makes it (a plain function: the engine keeps its callback for the search).
    pub fn answer(&mut self, request: &[u8], emit: fn(&str)) -> String {
        let answer = serde_json::from_slice::<Request>(request)
            .map_err(|e| format!("the request cannot be read: {e}"))
            .and_then(|request| self.run(request, emit));
        match answer {
            Ok(value) => value.to_string(),
            Err(message) => serde_json::json!({ "error": message }).to_string(),
        }
    }

    fn run(&mut self, request: Request, emit: fn(&str)) -> Result<serde_json::Value, String> {
        match request {
            Request::Bench { depth, network } => {
                let depth = depth.unwrap_or(bench::DEFAULT_DEPTH).clamp(1, 20);
                let network = network.unwrap_or(true).then(xiangqi_engine::nnue::embedded);
                let result = bench::run(depth, network, |_, _| {});
                Ok(serde_json::json!({
                    "nodes": result.nodes,
                    "ms": result.time.as_millis() as u64,
                    "nps": result.nps(),
                }))
            }
            Request::Perft { fen, depth } => {
                if depth > MAX_PERFT_DEPTH {
                    return Err(format!("perft goes to depth {MAX_PERFT_DEPTH} here"));
                }
                let mut position = position(fen.as_deref())?;
                let started = Instant::now();
                let nodes = perft(&mut position, depth);
                Ok(
                    serde_json::json!({ "nodes": nodes, "ms": started.elapsed().as_millis() as u64 }),
                )
            }
            Request::Search {
                fen,
                moves,
                level,
                movetime,
                depth,
                nodes,
                lines,
            } => {
                let start = position(fen.as_deref())?;
                let moves = line(&start, &moves)?;
                let limits = Limits {
                    depth,
                    nodes,
                    movetime: movetime.map(Duration::from_millis),
                    // A search needs some limit: a browser tab has no `stop`.
                    ..Limits::default()
                };
                if !limits.is_bounded() {
                    return Err("a search needs movetime, depth or nodes".into());
                }
                let level = level.unwrap_or(MAX_LEVEL).clamp(MIN_LEVEL, MAX_LEVEL);
                let strength = Some(Strength::level(level)).filter(|s| !s.is_full());
                self.engine.set_strength(strength);
                self.engine.set_multipv(lines.unwrap_or(1));
                let mut request = SearchRequest::new(start, limits);
                request.moves = moves;
                let result = self
                    .engine
                    .search(request, move |info: &SearchInfo| emit(&progress(info)));
                Ok(serde_json::to_value(found(&result)).expect("plain data"))
            }
            Request::NewGame => {
                self.engine.new_game();
                Ok(serde_json::json!({}))
            }
            Request::Api { method, path, body } => {
                let answer = xiangqi_play::local::answer(&method, &path, body.as_bytes());
                Ok(serde_json::json!({ "status": answer.status, "body": answer.body }))
            }
        }
    }
}

fn progress(info: &SearchInfo) -> String {
    serde_json::to_string(&Progress {
        depth: info.depth,
        score: info.score,
        nodes: info.nodes,
        ms: info.time.as_millis() as u64,
        line: info.multipv,
        pv: info.pv.iter().map(Move::to_string).collect(),
    })
    .expect("plain data")
}

fn found(result: &SearchResult) -> Found {
    Found {
        best: result.best_move.map(|m| m.to_string()),
        ponder: result.ponder_move.map(|m| m.to_string()),
        score: result.score,
        depth: result.depth,
        nodes: result.nodes,
        ms: result.time.as_millis() as u64,
        pv: result.pv.iter().map(Move::to_string).collect(),
        from_book: result.from_book,
    }
}

/// The position of a FEN, or the start.
fn position(fen: Option<&str>) -> Result<Position, String> {
    match fen {
        None => Ok(Position::startpos()),
        Some(fen) => Position::from_fen(fen).map_err(|e| format!("bad FEN: {e}")),
    }
}

/// ICCS moves played from `start`, each checked.
fn line(start: &Position, moves: &[String]) -> Result<Vec<Move>, String> {
    let mut position = start.clone();
    let mut line = Vec::with_capacity(moves.len());
    for text in moves {
        let m = parse_move_as(&position, text, Notation::Iccs)
            .map_err(|e| format!("move {} ({text}): {e}", line.len() + 1))?;
        position.make_move(m);
        line.push(m);
    }
    Ok(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reports of the tests (natively the engine reports from its own thread, so not a
    /// thread-local); `ask` runs one request at a time, so tests running at once keep theirs apart.
    static REPORTS: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

    fn keep(report: &str) {
        REPORTS
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(report.to_owned());
    }

    fn ask(session: &mut Session, request: &str) -> (serde_json::Value, Vec<String>) {
        static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
        let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
        REPORTS.lock().unwrap_or_else(|e| e.into_inner()).clear();
        let answer = session.answer(request.as_bytes(), keep);
        let reports = std::mem::take(&mut *REPORTS.lock().unwrap_or_else(|e| e.into_inner()));
        (serde_json::from_str(&answer).unwrap(), reports)
    }

    #[test]
    fn perft_counts_the_start_position() {
        let (answer, _) = ask(&mut Session::default(), r#"{"cmd":"perft","depth":3}"#);
        assert_eq!(answer["nodes"], 79_666);
    }

    #[test]
    fn a_search_reports_progress_and_answers_a_legal_move() {
        // An ending, out of the book: the engine searches, depth by depth.
        let fen = "3k5/9/9/9/9/9/9/9/4A4/3AKR3 w - - 0 1";
        let request = format!(r#"{{"cmd":"search","fen":"{fen}","moves":["f0f1"],"depth":5}}"#);
        let (answer, reports) = ask(&mut Session::default(), &request);
        let mut position = Position::from_fen(fen).unwrap();
        position.make_move(parse_move_as(&position, "f0f1", Notation::Iccs).unwrap());
        let best = answer["best"].as_str().unwrap();
        assert!(
            parse_move_as(&position, best, Notation::Iccs).is_ok(),
            "{answer}"
        );
        assert_eq!(answer["from_book"], false);
        let depths: Vec<u64> = reports
            .iter()
            .map(|r| {
                serde_json::from_str::<serde_json::Value>(r).unwrap()["depth"]
                    .as_u64()
                    .unwrap()
            })
            .collect();
        assert_eq!(depths.last(), Some(&5), "{reports:?}");
    }

    #[test]
    fn bad_requests_get_errors_not_panics() {
        let mut session = Session::default();
        for request in [
            "",
            "{",
            r#"{"cmd":"fly"}"#,
            r#"{"cmd":"perft","depth":9}"#,
            r#"{"cmd":"search","fen":"nonsense","depth":2}"#,
            r#"{"cmd":"search","moves":["h2e9"],"depth":2}"#,
            r#"{"cmd":"search"}"#,
        ] {
            let (answer, _) = ask(&mut session, request);
            assert!(answer["error"].is_string(), "{request}: {answer}");
        }
    }
}
