//! The puzzle record of a page with no server behind it, kept in the browser's storage by the
//! host as the games are: a result counts once the host has stored the new record
//! ([`SitePuzzles::kept`]); refused ([`SitePuzzles::not_kept`]), the record stays as it was.
//! The routes are the server's (`/api/puzzles…`), answered by the same handlers.

use crate::bodies::{read_json as read, read_query, to_json as json};
use crate::error::ApiError;
use crate::puzzle_requests::{self, AttemptBody, MoveBody, NextQuery, PuzzleRecord, ResultBody};
use xiangqi_engine::instant::unix_seconds;

/// The record, and a result's new record until the host has stored it.
#[derive(Default, Debug)]
pub struct SitePuzzles {
    record: PuzzleRecord,
    /// Recorded by this call, not yet stored.
    pending: Option<PuzzleRecord>,
    /// Why the stored record could not be read (it is left in storage until a result
    /// replaces it).
    unreadable: Option<String>,
}

impl SitePuzzles {
    /// Reads the stored record (`None`: none yet). One that cannot be read is reported by
    /// [`SitePuzzles::unreadable`] and a new record starts.
    pub fn load(&mut self, stored: Option<&str>) {
        match stored.map(PuzzleRecord::from_json) {
            Some(Ok(record)) => self.record = record,
            Some(Err(reason)) => self.unreadable = Some(reason),
            None => {}
        }
    }

    /// Why the stored record could not be read, if it could not.
    pub fn unreadable(&self) -> Option<&str> {
        self.unreadable.as_deref()
    }

    /// Answers a request of the puzzles' API (the body, JSON): `route` is the path after
    /// `/api/puzzles`. A move or a hint searches on the caller's thread (a few tenths of a
    /// second).
    pub fn answer(
        &mut self,
        method: &str,
        route: &str,
        query: &str,
        body: &[u8],
    ) -> Result<String, ApiError> {
        match (method, route) {
            ("GET", "") => json(&puzzle_requests::record_view(&self.record)),
            ("GET", "/next") => {
                let query: NextQuery = read_query(query)?;
                json(&puzzle_requests::next(&self.record, &query)?)
            }
            ("POST", "/move") => json(&puzzle_requests::play(&read::<MoveBody>(body)?)?),
            ("POST", "/hint") => json(&puzzle_requests::hint(&read::<AttemptBody>(body)?)?),
            ("POST", "/solution") => json(&puzzle_requests::solution(&read::<AttemptBody>(body)?)?),
            ("POST", "/result") => {
                let body = read::<ResultBody>(body)?;
                let mut changed = self.record.clone();
                let view = puzzle_requests::result(&mut changed, &body, unix_seconds())?;
                self.pending = Some(changed);
                json(&view)
            }
            (_, "" | "/next" | "/move" | "/hint" | "/solution" | "/result") => {
                Err(ApiError::MethodNotAllowed)
            }
            _ => Err(ApiError::NotFound("no such API route".into())),
        }
    }

    /// The record to store after this call, if a result changed it.
    pub fn to_store(&self) -> Option<String> {
        self.pending.as_ref().map(PuzzleRecord::to_json)
    }

    /// The host stored the record.
    pub fn kept(&mut self) {
        if let Some(record) = self.pending.take() {
            self.record = record;
            self.unreadable = None;
        }
    }

    /// Storage refused the record: it stays as it was.
    pub fn not_kept(&mut self) {
        self.pending = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi_puzzles::{shipped, Theme};

    #[test]
    fn a_result_counts_once_stored_and_a_refused_one_leaves_the_record() {
        let mut site = SitePuzzles::default();
        let id = &shipped::puzzles()
            .iter()
            .find(|p| p.themes.contains(&Theme::MateIn(1)))
            .unwrap()
            .id;
        let result = format!(r#"{{"id":"{id}","solved":true}}"#);
        site.answer("POST", "/result", "", result.as_bytes())
            .expect("the result is recorded");
        let stored = site.to_store().expect("a record to store");
        site.not_kept();
        assert_eq!(site.to_store(), None);
        let view = site.answer("GET", "", "", b"").unwrap();
        assert!(view.contains("\"attempted\":0"), "{view}");
        site.answer("POST", "/result", "", result.as_bytes())
            .unwrap();
        site.kept();
        let view = site.answer("GET", "", "", b"").unwrap();
        assert!(view.contains("\"attempted\":1"), "{view}");
        // What was stored reads back into a new page's record.
        let mut later = SitePuzzles::default();
        later.load(Some(&stored));
        let view = later.answer("GET", "", "", b"").unwrap();
        assert!(view.contains("\"attempted\":1"), "{view}");
    }

    #[test]
    fn a_broken_stored_record_is_reported_and_bad_requests_get_errors() {
        let mut site = SitePuzzles::default();
        site.load(Some("{ not json"));
        assert!(site.unreadable().is_some());
        for (method, route, query, body, status) in [
            ("GET", "/next", "theme=knight", "", 400),
            ("GET", "/next", "colour=red", "", 400),
            ("POST", "/move", "", "{", 400),
            (
                "POST",
                "/result",
                "",
                r#"{"id":"nothing","solved":true}"#,
                404,
            ),
            ("DELETE", "", "", "", 405),
            ("GET", "/elsewhere", "", "", 404),
        ] {
            let error = site
                .answer(method, route, query, body.as_bytes())
                .unwrap_err();
            assert_eq!(error.status_code(), status, "{method} {route}: {error}");
        }
    }
}
