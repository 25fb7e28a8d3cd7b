//! The API for a page with no server behind it: the same routes and answers as the web
//! server's, for the requests a page in the browser sends to its own worker.
//!
//! It answers the difficulty levels, a FEN checked, the opening book, the endgame tables (there
//! are none in the browser: the answer says so) and the search laboratory itself, and hands the games' routes to the page's games ([`SiteGames`], kept in the
//! browser's storage by the host) and the puzzles' to their record, kept with the games. A laboratory run searches on the caller's thread
//! (the worker's) within the laboratory's limits; a page stops one by ending its worker, so
//! `cancel` has nothing to stop here.

use crate::bodies::{read_json as read, to_json as json};
use crate::error::{ApiError, BODY_LIMIT};
use crate::lab_progress::RunProgress;
use crate::lab_requests::{self, check_client, CancelBody, Cancelled, RunBody, MAX_TREE_DEPTH};
use crate::positions::{self, FenBody};
use crate::site_games::{Reply, SiteGames};

/// Answers `method` on `path` (with its query, if any) with the request body `body`; the
/// games' routes go to `games`. A laboratory run's progress goes to `report` as it searches
/// (`{"lab_progress": …}`, see [`crate::lab_progress`]): nobody can ask while it runs.
pub fn answer(
    games: &mut SiteGames,
    method: &str,
    path: &str,
    body: &[u8],
    report: fn(&str),
) -> Reply {
    if body.len() > BODY_LIMIT {
        return Reply::error(&ApiError::TooLarge(BODY_LIMIT));
    }
    let (path, query) = path.split_once('?').unwrap_or((path, ""));
    if let Some(games_route) = path.strip_prefix("/api/games") {
        if games_route.is_empty() || games_route.starts_with('/') {
            return games.answer(method, games_route, query, body);
        }
    }
    if let Some(puzzles_route) = path.strip_prefix("/api/puzzles") {
        if puzzles_route.is_empty() || puzzles_route.starts_with('/') {
            return match games.puzzles().answer(method, puzzles_route, query, body) {
                Ok(body) => Reply { status: 200, body },
                Err(error) => Reply::error(&error),
            };
        }
    }
    match route(method, path, body, report) {
        Ok(body) => Reply { status: 200, body },
        Err(error) => Reply::error(&error),
    }
}

fn route(method: &str, path: &str, body: &[u8], report: fn(&str)) -> Result<String, ApiError> {
    let Some(route) = path.strip_prefix("/api/") else {
        return Err(ApiError::NotFound("no such page".into()));
    };
    match (method, route) {
        ("GET", "levels") => json(&positions::levels()),
        ("POST", "fen") => json(&positions::check_fen(&read::<FenBody>(body)?)?),
        ("POST", "book") => json(&positions::book(&read::<FenBody>(body)?)?),
        // No tables come with the page: they are built on a machine, and large.
        ("POST", "tablebase") => json(&positions::tablebase(&read::<FenBody>(body)?, None)?),
        ("GET", "lab") => json(&lab_requests::info()),
        ("POST", "lab/run") => {
            let job = read::<RunBody>(body)?.check(None)?;
            let progress = RunProgress::reporting(job.heading(), move |view| {
                report(&format!("{{\"lab_progress\":{view}}}"));
            });
            json(&lab_requests::run(
                &job,
                &job.settings(None),
                Some(&progress),
            ))
        }
        ("POST", "lab/tree") => {
            let job = read::<RunBody>(body)?.check(Some(MAX_TREE_DEPTH))?;
            json(&lab_requests::tree(&job, &job.settings(None)))
        }
        ("POST", "lab/eval") => json(&lab_requests::eval(&read::<FenBody>(body)?)?),
        // Reported as the run goes, since nothing is answered beside it.
        ("GET", "lab/progress") => Err(ApiError::NotFound(
            "no laboratory run in progress to ask about".into(),
        )),
        ("POST", "lab/cancel") => {
            let body = read::<CancelBody>(body)?;
            check_client(Some(body.client))?;
            // Nothing runs beside this request that could be stopped.
            json(&Cancelled { cancelled: false })
        }
        (
            _,
            "levels" | "fen" | "book" | "tablebase" | "lab" | "lab/run" | "lab/tree" | "lab/eval"
            | "lab/cancel" | "lab/progress",
        ) => Err(ApiError::MethodNotAllowed),
        _ => Err(ApiError::NotFound("no such API route".into())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(method: &str, path: &str, body: &str) -> (u16, serde_json::Value) {
        let answer = answer(
            &mut SiteGames::default(),
            method,
            path,
            body.as_bytes(),
            |_| {},
        );
        (answer.status, serde_json::from_str(&answer.body).unwrap())
    }

    #[test]
    fn answers_as_the_server_does() {
        let (status, levels) = ask("GET", "/api/levels", "");
        assert_eq!(status, 200);
        assert_eq!(levels.as_array().unwrap().len(), 10);
        let (status, fen) = ask("POST", "/api/fen", r#"{"fen":"4k4/9/9/9/9/9/9/9/9/3K5 w"}"#);
        assert_eq!(
            (status, fen["outcome"]["result"].as_str()),
            (200, Some("1/2-1/2")),
            "{fen}"
        );
        let (status, run) = ask(
            "POST",
            "/api/lab/run",
            r#"{"fen":"3k5/9/9/9/9/9/9/9/4A4/3AKR3 w","depth":2,"algorithms":["minimax","alphabeta"]}"#,
        );
        assert_eq!(status, 200, "{run}");
        let rows = run["rows"].as_array().unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0]["value"], rows[1]["value"], "{run}");
        let (status, tb) = ask(
            "POST",
            "/api/tablebase",
            r#"{"fen":"4k4/9/9/9/9/9/9/9/9/R2K5 w"}"#,
        );
        assert_eq!(status, 200, "{tb}");
        assert_eq!(
            (&tb["available"], &tb["found"]),
            (&false.into(), &false.into())
        );
        assert_eq!(tb["material"], "KRK");
    }

    #[test]
    fn bad_requests_get_the_server_s_errors() {
        for (method, path, body, status) in [
            ("GET", "/api/nothing", "", 404),
            ("POST", "/api/levels", "", 405),
            ("POST", "/api/fen", "{", 400),
            ("POST", "/api/fen", r#"{"fen":"9/9 w"}"#, 400),
            ("POST", "/api/tablebase", r#"{"fen":"9/9 w"}"#, 400),
            ("GET", "/api/tablebase", "", 405),
            (
                "POST",
                "/api/lab/run",
                r#"{"fen":"4k4/9/9/9/9/9/9/9/9/3K5 w","depth":9,"algorithms":["minimax"]}"#,
                400,
            ),
            ("POST", "/api/lab/cancel", r#"{"client":"no spaces"}"#, 400),
        ] {
            let (got, error) = ask(method, path, body);
            assert_eq!(got, status, "{method} {path} {body}: {error}");
            assert!(error["message"].is_string(), "{error}");
        }
    }
}
