//! The module's commands: JSON in, JSON out, progress through a callback.
//!
//! | `cmd` | fields | answer |
//! |---|---|---|
//! | `bench` | `depth?` (default 9… the native default), `network?` (default true) | `{nodes, ms, nps}` |
//! | `perft` | `fen?`, `depth` | `{nodes, ms}` |
//! | `search` | `fen?`, `moves?` (ICCS), `level?` (1–10), `movetime?` / `depth?` / `nodes?`, `lines?` | `{best, ponder, score, depth, nodes, ms, pv}`; each progress report is emitted as `{depth, score, nodes, ms, pv, line}` |
//! | `new_game` | | `{}`: forgets the hash table |
//! | `api` | `method`, `path`, `body` (a string) or `bytes` (a file's, as numbers) | `{status, body, effects}`: the web server's answer to that request (`xiangqi_play::local`), and what the host is to do |
//! | `load_games` | `games`: `[{id, pgn, updated}]` as stored, `puzzles?`: the puzzle record (JSON) | `{unreadable: [{id, reason}], puzzles_unreadable: reason \| null, effects}` |
//! | `kept` | | `{effects}`: the host stored the last call's games |
//! | `not_kept` | `full`, `reason` | `{status, body, effects}`: storage refused them; every game is as before the call, and the body is the error for the page |
//! | `tick` | | `{effects}`: ends games whose clock ran out |
//! | `checkpoint` | | `{effects}`: every game whose clock runs, to store again with its time charged up to now |
//! | `pausable` | `pausable` | `{}`: whether the engine worker can pause a running search (it shares its memory) |
//! | `job_info` | `ticket`, `info` | `{}`: a progress report of the engine worker's search |
//! | `job_done` | `ticket`, `outcome` (`null`: the engine failed) | `{effects}` |
//! | `order` | `order` (as in `effects.start`) | the outcome, for `job_done`; each progress report is emitted as `{info}` |
//!
//! The effects (`xiangqi_play::site_games::Effects`) are `{put: [{id, pgn, updated}], delete:
//! [id], start: {ticket, order} | null, stop, pause: bool | null, wake_ms, puzzles: text | null}`:
//! the games to store or delete, a search for the engine worker to start (or the running one to
//! stop, or to pause or let go on), when to call `tick`, and the puzzle record to store (with
//! the games, all or nothing).
//!
//! A request that cannot be read, or a position or move that is wrong, is answered with
//! `{"error": "…"}`, never a panic.

use crate::wire::{self, EffectsText, FoundText, InfoText, OrderText, OutcomeText, StoredText};
use serde::{Deserialize, Serialize};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use xiangqi::{perft, Move, Position};
use xiangqi_engine::instant::Instant;
use xiangqi_engine::strength::{Strength, MAX_LEVEL, MIN_LEVEL};
use xiangqi_engine::{bench, Engine, EngineOptions, Limits, SearchInfo, SearchRequest};
use xiangqi_play::job_run::Comparison;
use xiangqi_play::site_games::SiteGames;

/// Hash table of the browser's engine, in MiB: a phone has little memory to spare.
const HASH_MB: usize = 32;
/// The most search threads the site's engine uses (a phone's or laptop's cores, at most); the
/// host reads how many helpers that allows from `xq_max_helpers`.
pub const MAX_THREADS: usize = 16;
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
        /// Search threads (default one; more only as the host lends helper workers).
        threads: Option<usize>,
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
        /// A binary body instead (a loaded file), as its bytes.
        bytes: Option<Vec<u8>>,
    },
    /// The games kept in the browser's storage, read when the worker starts.
    LoadGames {
        /// Every stored game.
        games: Vec<StoredText>,
        /// The stored puzzle record (JSON), if there is one.
        #[serde(default)]
        puzzles: Option<String>,
    },
    /// The host stored the last call's games.
    Kept,
    /// Storage refused the last call's games.
    NotKept {
        /// The quota is used up.
        full: bool,
        /// What the browser said.
        reason: String,
    },
    /// A clock may have run out.
    Tick,
    /// Store the games whose clock runs, charged up to now.
    Checkpoint,
    /// Whether the engine worker can pause its search.
    Pausable {
        /// It can (it shares its memory with this worker).
        pausable: bool,
    },
    /// A progress report of the engine worker's search.
    JobInfo {
        /// The search's ticket.
        ticket: u64,
        /// The report.
        info: InfoText,
    },
    /// The engine worker's search ended (`None`: the engine failed).
    JobDone {
        /// The search's ticket.
        ticket: u64,
        /// What it found.
        outcome: Option<OutcomeText>,
    },
    /// Runs a search order (in the engine worker).
    Order {
        /// The order.
        order: OrderText,
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

/// The engine (made when first needed: the games worker has none) and the page's games,
/// between commands.
#[derive(Default)]
pub struct Session {
    engine: Option<Engine>,
    games: SiteGames,
}

fn effects(games: &mut SiteGames) -> serde_json::Value {
    serde_json::to_value(EffectsText::from(games.effects())).expect("plain data")
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

    fn engine(&mut self) -> &mut Engine {
        self.engine.get_or_insert_with(|| {
            Engine::new(EngineOptions {
                hash_mb: HASH_MB,
                // In a browser as many as the host lends workers for, at the time of each
                // search (`xiangqi_engine::helpers`): one unless the page could start helpers.
                // The native tests search on one, as the server's engines do.
                threads: if cfg!(target_arch = "wasm32") {
                    MAX_THREADS
                } else {
                    1
                },
                ..EngineOptions::default()
            })
        })
    }

    fn run(&mut self, request: Request, emit: fn(&str)) -> Result<serde_json::Value, String> {
        match request {
            Request::Bench {
                depth,
                network,
                threads,
            } => {
                let depth = depth.unwrap_or(bench::DEFAULT_DEPTH).clamp(1, 20);
                let network = network.unwrap_or(true).then(xiangqi_engine::nnue::embedded);
                let threads = threads.unwrap_or(1).clamp(1, MAX_THREADS);
                let lent = &xiangqi_engine::helpers::LENT;
                let begun = lent.begun();
                let result = bench::run(depth, network, threads, |_, _| {});
                Ok(serde_json::json!({
                    // The helper searches run beside the main ones, on the host's workers.
                    "helper_searches": lent.begun() - begun,
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
                let moves = wire::line(&start, &moves)?;
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
                let engine = self.engine();
                engine.set_strength(strength);
                engine.set_multipv(lines.unwrap_or(1));
                let mut request = SearchRequest::new(start, limits);
                request.moves = moves;
                let result = engine.search(request, move |info: &SearchInfo| emit(&progress(info)));
                Ok(serde_json::to_value(FoundText::from(&result)).expect("plain data"))
            }
            Request::NewGame => {
                self.engine().new_game();
                Ok(serde_json::json!({}))
            }
            Request::Api {
                method,
                path,
                body,
                bytes,
            } => {
                let body = bytes.unwrap_or_else(|| body.into_bytes());
                let answer =
                    xiangqi_play::local::answer(&mut self.games, &method, &path, &body, emit);
                Ok(serde_json::json!({
                    "status": answer.status,
                    "body": answer.body,
                    "effects": effects(&mut self.games),
                }))
            }
            Request::LoadGames { games, puzzles } => {
                self.games.load(games.into_iter().map(Into::into).collect());
                self.games.puzzles().load(puzzles.as_deref());
                let puzzles_unreadable = self.games.puzzles().unreadable().map(str::to_owned);
                let unreadable: Vec<_> = self
                    .games
                    .unreadable()
                    .iter()
                    .map(|(id, reason)| serde_json::json!({ "id": id, "reason": reason }))
                    .collect();
                Ok(serde_json::json!({
                    "unreadable": unreadable,
                    "puzzles_unreadable": puzzles_unreadable,
                    "effects": effects(&mut self.games),
                }))
            }
            Request::Kept => {
                self.games.kept();
                Ok(serde_json::json!({ "effects": effects(&mut self.games) }))
            }
            Request::NotKept { full, reason } => {
                let answer = self.games.not_kept(full, &reason);
                Ok(serde_json::json!({
                    "status": answer.status,
                    "body": answer.body,
                    "effects": effects(&mut self.games),
                }))
            }
            Request::Tick => {
                self.games.tick();
                Ok(serde_json::json!({ "effects": effects(&mut self.games) }))
            }
            Request::Checkpoint => {
                self.games.checkpoint();
                Ok(serde_json::json!({ "effects": effects(&mut self.games) }))
            }
            Request::Pausable { pausable } => {
                self.games.set_pausable(pausable);
                Ok(serde_json::json!({}))
            }
            Request::JobInfo { ticket, info } => {
                // A report of a search that is no longer running is dropped.
                if let Some(root) = self.games.search_root(ticket) {
                    let info = info.info(root)?;
                    self.games.job_info(ticket, &info);
                }
                Ok(serde_json::json!({}))
            }
            Request::JobDone { ticket, outcome } => {
                if let Some(root) = self.games.search_root(ticket) {
                    // An answer that cannot be read is the engine's failure, said as such.
                    let outcome = outcome.map(|o| o.outcome(root)).transpose();
                    self.games.job_done(ticket, outcome.unwrap_or(None));
                }
                Ok(serde_json::json!({ "effects": effects(&mut self.games) }))
            }
            Request::Order { order } => {
                let order = order.order()?;
                let engine = self.engine();
                order.prepare(engine);
                let comparison: Arc<Mutex<Comparison>> = Arc::default();
                let seen = Arc::clone(&comparison);
                let compare = !order.compare.is_empty();
                let result = engine.search(order.search_request(), move |info: &SearchInfo| {
                    if compare {
                        seen.lock().unwrap_or_else(|e| e.into_inner()).note(info);
                    } else {
                        let text = serde_json::json!({ "info": InfoText::from(info) });
                        emit(&text.to_string());
                    }
                });
                let comparison = comparison.lock().unwrap_or_else(|e| e.into_inner());
                let outcome = order.outcome(result, &comparison, Instant::now());
                Ok(serde_json::to_value(OutcomeText::from(&outcome)).expect("plain data"))
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

/// The position of a FEN, or the start.
fn position(fen: Option<&str>) -> Result<Position, String> {
    match fen {
        None => Ok(Position::startpos()),
        Some(fen) => Position::from_fen(fen).map_err(|e| format!("bad FEN: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi::{parse_move_as, Notation};

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

    /// A request of the page's API, answered by the games worker's session.
    fn api(games: &mut Session, method: &str, path: &str, body: &str) -> serde_json::Value {
        let request =
            serde_json::json!({"cmd": "api", "method": method, "path": path, "body": body});
        ask(games, &request.to_string()).0
    }

    /// The JSON body of an `api` answer.
    fn body(answer: &serde_json::Value) -> serde_json::Value {
        serde_json::from_str(answer["body"].as_str().unwrap()).unwrap()
    }

    /// Runs the search `effects` start on the engine worker's session and hands its outcome
    /// (and reports) back to the games: the host's part. The next effects.
    fn run_search(
        games: &mut Session,
        engine: &mut Session,
        effects: &serde_json::Value,
    ) -> serde_json::Value {
        let start = &effects["start"];
        let order = serde_json::json!({"cmd": "order", "order": start["order"]});
        let (outcome, reports) = ask(engine, &order.to_string());
        assert!(outcome.get("error").is_none(), "{outcome}");
        for report in reports {
            let info: serde_json::Value = serde_json::from_str(&report).unwrap();
            let request = serde_json::json!({"cmd": "job_info", "ticket": start["ticket"], "info": info["info"]});
            assert_eq!(ask(games, &request.to_string()).0, serde_json::json!({}));
        }
        let done =
            serde_json::json!({"cmd": "job_done", "ticket": start["ticket"], "outcome": outcome});
        ask(games, &done.to_string()).0["effects"].clone()
    }

    #[test]
    fn a_game_in_the_browser_is_played_kept_and_read_back() {
        let (mut games, mut engine) = (Session::default(), Session::default());
        let created = api(
            &mut games,
            "POST",
            "/api/games",
            r#"{"human":"red","level":1}"#,
        );
        assert_eq!(created["status"], 201, "{created}");
        let game: serde_json::Value = body(&created);
        let id = game["id"].as_str().unwrap().to_owned();
        assert_eq!(created["effects"]["put"][0]["id"], id.as_str());
        assert!(created["effects"]["start"].is_null());
        ask(&mut games, r#"{"cmd":"kept"}"#);

        let moved = api(
            &mut games,
            "POST",
            &format!("/api/games/{id}/move"),
            r#"{"move":"h2e2"}"#,
        );
        assert_eq!(moved["status"], 200, "{moved}");
        let effects = &moved["effects"];
        assert_eq!(effects["put"][0]["id"], id.as_str());
        assert_eq!(effects["start"]["order"]["level"], 1, "{effects}");
        assert_eq!(
            effects["start"]["order"]["moves"],
            serde_json::json!(["h2e2"])
        );
        ask(&mut games, r#"{"cmd":"kept"}"#);
        let after = run_search(&mut games, &mut engine, effects);
        // The computer's move is to be kept, and no search follows.
        let pgn = after["put"][0]["pgn"].as_str().unwrap().to_owned();
        assert!(after["start"].is_null(), "{after}");
        ask(&mut games, r#"{"cmd":"kept"}"#);
        let got = api(&mut games, "GET", &format!("/api/games/{id}"), "");
        let view: serde_json::Value = body(&got);
        assert_eq!(view["moves"].as_array().unwrap().len(), 2, "{view}");

        // A new worker reads the stored game back, as it was.
        let mut reloaded = Session::default();
        let stored = serde_json::json!({"cmd": "load_games", "games": [
            {"id": id, "pgn": pgn, "updated": 1},
            {"id": "broken", "pgn": "[Event \"x\"]\n1. 炮九平九 *", "updated": 1},
        ]});
        let (loaded, _) = ask(&mut reloaded, &stored.to_string());
        assert_eq!(loaded["unreadable"][0]["id"], "broken", "{loaded}");
        let list = api(&mut reloaded, "GET", "/api/games", "");
        let list: serde_json::Value = body(&list);
        assert_eq!(list.as_array().unwrap().len(), 1, "{list}");
        let got = api(&mut reloaded, "GET", &format!("/api/games/{id}"), "");
        let again: serde_json::Value = body(&got);
        assert_eq!(again["moves"], view["moves"]);
    }

    #[test]
    fn a_change_storage_refuses_is_undone_and_reported() {
        let mut games = Session::default();
        let created = api(&mut games, "POST", "/api/games", r#"{"human":"both"}"#);
        let game: serde_json::Value = body(&created);
        let id = game["id"].as_str().unwrap().to_owned();
        ask(&mut games, r#"{"cmd":"kept"}"#);
        api(
            &mut games,
            "POST",
            &format!("/api/games/{id}/move"),
            r#"{"move":"h2e2"}"#,
        );
        let (refused, _) = ask(
            &mut games,
            r#"{"cmd":"not_kept","full":true,"reason":"QuotaExceededError"}"#,
        );
        assert_eq!(refused["status"], 507, "{refused}");
        let error: serde_json::Value = body(&refused);
        assert_eq!(error["code"], "disk_full", "{error}");
        assert!(
            error["message"].as_str().unwrap().contains("storage"),
            "{error}"
        );
        let got = api(&mut games, "GET", &format!("/api/games/{id}"), "");
        let view: serde_json::Value = body(&got);
        assert_eq!(view["moves"].as_array().unwrap().len(), 0, "{view}");
        // The person's request was answered with the error: the game shows none of its own.
        assert!(view["save_error"].is_null(), "{view}");

        // A new game storage refuses is not listed.
        api(&mut games, "POST", "/api/games", r#"{"human":"both"}"#);
        ask(
            &mut games,
            r#"{"cmd":"not_kept","full":false,"reason":"UnknownError"}"#,
        );
        let list = api(&mut games, "GET", "/api/games", "");
        let list: serde_json::Value = body(&list);
        assert_eq!(list.as_array().unwrap().len(), 1, "{list}");
    }

    #[test]
    fn garbled_engine_messages_are_refused() {
        let mut games = Session::default();
        for request in [
            r#"{"cmd":"order","order":{}}"#,
            r#"{"cmd":"job_done","ticket":"x"}"#,
            r#"{"cmd":"load_games","games":[{"id":1}]}"#,
            r#"{"cmd":"not_kept"}"#,
        ] {
            let (answer, _) = ask(&mut games, request);
            assert!(answer["error"].is_string(), "{request}: {answer}");
        }
        // A finished search nobody waits for changes nothing.
        let (answer, _) = ask(
            &mut games,
            r#"{"cmd":"job_done","ticket":7,"outcome":null}"#,
        );
        assert!(answer["effects"]["start"].is_null(), "{answer}");
    }

    #[test]
    fn a_loaded_file_makes_one_game_however_often_it_is_loaded() {
        let mut games = Session::default();
        // 1. 炮二平五 in GBK, as many Chinese PGN files are.
        let mut bytes = b"[Game \"Chinese Chess\"]\n\n1. ".to_vec();
        bytes.extend([0xC5, 0xDA, 0xB6, 0xFE, 0xC6, 0xBD, 0xCE, 0xE5]);
        bytes.extend(b" *\n");
        let load = serde_json::json!({"cmd": "api", "method": "POST", "path": "/api/games/import?level=3", "bytes": bytes});
        let (first, _) = ask(&mut games, &load.to_string());
        assert_eq!(first["status"], 201, "{first}");
        let game: serde_json::Value = body(&first);
        assert_eq!(game["moves"][0]["chinese"], "炮二平五", "{game}");
        assert_eq!(game["level"], 3);
        ask(&mut games, r#"{"cmd":"kept"}"#);
        let (again, _) = ask(&mut games, &load.to_string());
        assert_eq!(again["status"], 200, "{again}");
        let same: serde_json::Value = body(&again);
        assert_eq!(
            (same["id"].clone(), same["already_imported"].clone()),
            (game["id"].clone(), true.into())
        );
    }

    #[test]
    fn a_clock_that_runs_out_ends_the_game_when_the_host_wakes_it() {
        let mut games = Session::default();
        let clock = r#"{"human":"both","clock":{"red":{"minutes":0.01},"black":{"minutes":0.01}}}"#;
        let created = api(&mut games, "POST", "/api/games", clock);
        assert_eq!(created["status"], 201, "{created}");
        let wake = created["effects"]["wake_ms"].as_u64().unwrap();
        assert!(wake <= 600, "{created}");
        let game: serde_json::Value = body(&created);
        let id = game["id"].as_str().unwrap().to_owned();
        ask(&mut games, r#"{"cmd":"kept"}"#);
        std::thread::sleep(Duration::from_millis(wake + 50));
        let (woken, _) = ask(&mut games, r#"{"cmd":"tick"}"#);
        assert_eq!(woken["effects"]["put"][0]["id"], id.as_str(), "{woken}");
        assert!(woken["effects"]["wake_ms"].is_null(), "{woken}");
        let got = api(&mut games, "GET", &format!("/api/games/{id}"), "");
        let view: serde_json::Value = body(&got);
        assert_eq!(view["outcome"]["reason"], "timeout", "{view}");
    }

    #[test]
    fn a_checkpoint_stores_a_running_clock_charged_up_to_now() {
        let mut games = Session::default();
        let clock = r#"{"human":"both","clock":{"red":{"minutes":1},"black":{"minutes":1}}}"#;
        let created = api(&mut games, "POST", "/api/games", clock);
        let game: serde_json::Value = body(&created);
        let id = game["id"].as_str().unwrap().to_owned();
        ask(&mut games, r#"{"cmd":"kept"}"#);
        std::thread::sleep(Duration::from_millis(300));
        let (checked, _) = ask(&mut games, r#"{"cmd":"checkpoint"}"#);
        let put = &checked["effects"]["put"];
        assert_eq!(put[0]["id"], id.as_str(), "{checked}");
        ask(&mut games, r#"{"cmd":"kept"}"#);
        // The page closes; a new one reads the stored game: Red's 300 ms are gone.
        let mut reopened = Session::default();
        let load = serde_json::json!({"cmd": "load_games", "games": put}).to_string();
        let (loaded, _) = ask(&mut reopened, &load);
        assert_eq!(loaded["unreadable"], serde_json::json!([]), "{loaded}");
        let got = api(&mut reopened, "GET", &format!("/api/games/{id}"), "");
        let view: serde_json::Value = body(&got);
        let red_ms = view["clock"]["red"]["main_ms"].as_u64().unwrap();
        assert!((50_000..=59_700).contains(&red_ms), "{view}");
        // A game without a running clock is not stored again.
        let free = api(&mut games, "POST", "/api/games", r#"{"human":"both"}"#);
        assert_eq!(free["status"], 201, "{free}");
        ask(&mut games, r#"{"cmd":"kept"}"#);
        let (checked, _) = ask(&mut games, r#"{"cmd":"checkpoint"}"#);
        assert_eq!(
            checked["effects"]["put"].as_array().unwrap().len(),
            1,
            "{checked}"
        );
    }

    #[test]
    fn the_computer_s_move_storage_refuses_waits_for_retry() {
        let (mut games, mut engine) = (Session::default(), Session::default());
        let created = api(
            &mut games,
            "POST",
            "/api/games",
            r#"{"human":"red","level":1}"#,
        );
        let game: serde_json::Value = body(&created);
        let id = game["id"].as_str().unwrap().to_owned();
        ask(&mut games, r#"{"cmd":"kept"}"#);
        let moved = api(
            &mut games,
            "POST",
            &format!("/api/games/{id}/move"),
            r#"{"move":"h2e2"}"#,
        );
        ask(&mut games, r#"{"cmd":"kept"}"#);
        run_search(&mut games, &mut engine, &moved["effects"]);
        let (refused, _) = ask(
            &mut games,
            r#"{"cmd":"not_kept","full":true,"reason":"QuotaExceededError"}"#,
        );
        assert!(refused["effects"]["start"].is_null(), "{refused}");
        let got = api(&mut games, "GET", &format!("/api/games/{id}"), "");
        assert!(
            got["effects"]["start"].is_null(),
            "it searched again before a retry: {got}"
        );
        let view: serde_json::Value = body(&got);
        assert_eq!(view["moves"].as_array().unwrap().len(), 1, "{view}");
        assert_eq!(view["save_error"]["code"], "disk_full", "{view}");
        let retried = api(&mut games, "POST", &format!("/api/games/{id}/retry"), "");
        assert_eq!(retried["status"], 200, "{retried}");
        assert!(retried["effects"]["start"].is_object(), "{retried}");
    }

    /// A game with a clock where the computer (Black, level 1) is to move: the games' session
    /// and the effects that start its search.
    fn computer_to_move_on_the_clock(games: &mut Session) -> (String, serde_json::Value) {
        let clock =
            r#"{"human":"red","level":1,"clock":{"red":{"minutes":5},"black":{"minutes":5}}}"#;
        let created = api(games, "POST", "/api/games", clock);
        let id = body(&created)["id"].as_str().unwrap().to_owned();
        ask(games, r#"{"cmd":"kept"}"#);
        let moved = api(
            games,
            "POST",
            &format!("/api/games/{id}/move"),
            r#"{"move":"h2e2"}"#,
        );
        assert!(moved["effects"]["start"].is_object(), "{moved}");
        ask(games, r#"{"cmd":"kept"}"#);
        (id, moved["effects"].clone())
    }

    #[test]
    fn a_pause_keeps_the_search_when_the_engine_can_wait() {
        let (mut games, mut engine) = (Session::default(), Session::default());
        assert_eq!(
            ask(&mut games, r#"{"cmd":"pausable","pausable":true}"#).0,
            serde_json::json!({})
        );
        let (id, started) = computer_to_move_on_the_clock(&mut games);
        let paused = api(&mut games, "POST", &format!("/api/games/{id}/pause"), "");
        assert_eq!(paused["status"], 200, "{paused}");
        let effects = &paused["effects"];
        assert_eq!(
            (&effects["pause"], &effects["stop"], &effects["start"]),
            (&true.into(), &false.into(), &serde_json::Value::Null),
            "{effects}"
        );
        ask(&mut games, r#"{"cmd":"kept"}"#);
        let resumed = api(&mut games, "POST", &format!("/api/games/{id}/resume"), "");
        let effects = &resumed["effects"];
        assert_eq!(
            (&effects["pause"], &effects["stop"], &effects["start"]),
            (&false.into(), &false.into(), &serde_json::Value::Null),
            "{effects}"
        );
        ask(&mut games, r#"{"cmd":"kept"}"#);
        // The search that waited finishes, and its move is the computer's.
        run_search(&mut games, &mut engine, &started);
        ask(&mut games, r#"{"cmd":"kept"}"#);
        let view = body(&api(&mut games, "GET", &format!("/api/games/{id}"), ""));
        assert_eq!(view["moves"].as_array().unwrap().len(), 2, "{view}");
    }

    #[test]
    fn a_pause_storage_refuses_leaves_no_search_waiting() {
        let (mut games, mut engine) = (Session::default(), Session::default());
        ask(&mut games, r#"{"cmd":"pausable","pausable":true}"#);
        let (id, _) = computer_to_move_on_the_clock(&mut games);
        let paused = api(&mut games, "POST", &format!("/api/games/{id}/pause"), "");
        assert_eq!(paused["effects"]["pause"], true, "{paused}");
        let (refused, _) = ask(
            &mut games,
            r#"{"cmd":"not_kept","full":true,"reason":"QuotaExceededError"}"#,
        );
        assert_eq!(refused["status"], 507, "{refused}");
        // The undone pause's search is stopped and the game's own starts again.
        let effects = refused["effects"].clone();
        assert_eq!(effects["stop"], true, "{effects}");
        assert!(effects["start"].is_object(), "{effects}");
        let view = body(&api(&mut games, "GET", &format!("/api/games/{id}"), ""));
        assert_eq!(view["clock"]["paused"], false, "{view}");
        run_search(&mut games, &mut engine, &effects);
        ask(&mut games, r#"{"cmd":"kept"}"#);
        let view = body(&api(&mut games, "GET", &format!("/api/games/{id}"), ""));
        assert_eq!(view["moves"].as_array().unwrap().len(), 2, "{view}");
    }

    #[test]
    fn a_pause_stops_the_search_when_the_engine_cannot_wait() {
        let mut games = Session::default();
        let (id, _) = computer_to_move_on_the_clock(&mut games);
        let paused = api(&mut games, "POST", &format!("/api/games/{id}/pause"), "");
        let effects = &paused["effects"];
        assert_eq!(
            (&effects["pause"], &effects["stop"]),
            (&serde_json::Value::Null, &true.into()),
            "{effects}"
        );
        ask(&mut games, r#"{"cmd":"kept"}"#);
        let resumed = api(&mut games, "POST", &format!("/api/games/{id}/resume"), "");
        assert!(resumed["effects"]["start"].is_object(), "{resumed}");
    }

    #[test]
    fn a_paused_search_gives_the_engine_up_to_another_game_s_job() {
        let (mut games, mut engine) = (Session::default(), Session::default());
        ask(&mut games, r#"{"cmd":"pausable","pausable":true}"#);
        let (id, _) = computer_to_move_on_the_clock(&mut games);
        api(&mut games, "POST", &format!("/api/games/{id}/pause"), "");
        ask(&mut games, r#"{"cmd":"kept"}"#);
        // Another game where the computer is to move wants the engine.
        let other = api(
            &mut games,
            "POST",
            "/api/games",
            r#"{"human":"black","level":1}"#,
        );
        let effects = &other["effects"];
        assert_eq!(effects["stop"], true, "{effects}");
        assert!(effects["start"].is_object(), "{effects}");
        ask(&mut games, r#"{"cmd":"kept"}"#);
        let done = run_search(&mut games, &mut engine, effects);
        ask(&mut games, r#"{"cmd":"kept"}"#);
        assert!(done["start"].is_null(), "{done}");
        // On Resume the paused game's search starts again.
        let resumed = api(&mut games, "POST", &format!("/api/games/{id}/resume"), "");
        assert!(resumed["effects"]["start"].is_object(), "{resumed}");
    }
}
