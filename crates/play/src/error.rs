//! One error type for every API route: a status code and a message, sent as JSON.
//!
//! The server and a page with no server answer with the same errors. The server's web framework
//! (axum) and its runtime (tokio) turn into them with the feature `server` (see the end).

use crate::game::Refusal;
use serde::Serialize;
use xiangqi_files::disk::{DiskError, DiskFailure};

/// Largest request body accepted, in bytes (a PGN file to load is the largest thing sent).
pub const BODY_LIMIT: usize = 1 << 20;

/// Why a request failed. Every variant becomes `{"error": "...", "message": "..."}` with a
/// 4xx or 5xx status.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The request could not be understood (malformed JSON, a bad parameter, a bad FEN or PGN).
    #[error("{0}")]
    BadRequest(String),
    /// Like [`ApiError::BadRequest`], with a reason code the page translates.
    #[error("{message}")]
    Invalid {
        /// A short stable name of the reason (`fen_generals_facing`, …).
        code: &'static str,
        /// The reason in English.
        message: String,
    },
    /// No such game or route; the message says which.
    #[error("{0}")]
    NotFound(String),
    /// The request is well formed but not possible now (an illegal move, not your turn).
    /// `code` names the reason for the page to translate.
    #[error("{message}")]
    Rejected {
        /// A short stable name of the reason (`horse_leg`, `not_your_turn`, …).
        code: &'static str,
        /// The reason in English.
        message: String,
    },
    /// The request comes from another site or names another host (DNS rebinding).
    #[error("{0}")]
    Forbidden(String),
    /// The request body is larger than the server accepts.
    #[error("the request body is too large (at most {0} bytes)")]
    TooLarge(usize),
    /// The request head is too large (too long, or too many headers): the text says how.
    #[error("the request head is too large: {0}")]
    HeadTooLarge(String),
    /// The request target (path and query) is longer than the server accepts.
    #[error("the request target is longer than {0} bytes")]
    TargetTooLong(usize),
    /// The request body was sent in chunks; the server wants its length first.
    #[error("send the request body with a Content-Length (chunked bodies are not accepted)")]
    LengthRequired,
    /// The request body did not arrive in time.
    #[error("the request body did not arrive within {} s", .0.as_secs_f32())]
    TimedOut(std::time::Duration),
    /// The route exists but not with this method.
    #[error("this method is not allowed on this route")]
    MethodNotAllowed,
    /// The server has as much of this kind of work waiting as it takes; the text says what.
    #[error("{0}")]
    Busy(String),
    /// The change could not be saved, so it was not made: the game is as it was.
    #[error("{}; the change was not made", .0.message)]
    Storage(DiskError),
    /// Something broke inside the server; the game is unharmed.
    #[error("internal error: {0}")]
    Internal(String),
}

/// An error as the page reads it.
#[derive(Serialize)]
pub struct Body<'a> {
    error: &'a str,
    message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    code: Option<&'a str>,
}

impl ApiError {
    /// The HTTP status of the answer.
    pub fn status_code(&self) -> u16 {
        match self {
            ApiError::BadRequest(_) | ApiError::Invalid { .. } => 400,
            ApiError::NotFound(_) => 404,
            ApiError::Rejected { .. } => 422,
            ApiError::Forbidden(_) => 403,
            ApiError::TooLarge(_) => 413,
            ApiError::HeadTooLarge(_) => 431,
            ApiError::TargetTooLong(_) => 414,
            ApiError::LengthRequired => 411,
            ApiError::TimedOut(_) => 408,
            ApiError::MethodNotAllowed => 405,
            ApiError::Busy(_) => 503,
            ApiError::Storage(e) if e.kind == DiskFailure::Full => 507,
            ApiError::Storage(_) => 503,
            ApiError::Internal(_) => 500,
        }
    }

    fn kind(&self) -> &'static str {
        match self {
            ApiError::BadRequest(_) | ApiError::Invalid { .. } => "bad_request",
            ApiError::NotFound(_) => "not_found",
            ApiError::Rejected { .. } => "rejected",
            ApiError::Forbidden(_) => "forbidden",
            ApiError::TooLarge(_) | ApiError::HeadTooLarge(_) | ApiError::TargetTooLong(_) => {
                "too_large"
            }
            ApiError::LengthRequired => "length_required",
            ApiError::TimedOut(_) => "timeout",
            ApiError::MethodNotAllowed => "method_not_allowed",
            ApiError::Busy(_) => "busy",
            ApiError::Storage(_) => "not_saved",
            ApiError::Internal(_) => "internal",
        }
    }
}

impl ApiError {
    /// No game with this id (quoted in part: the id may be anything a client sent).
    pub fn no_game(id: &str) -> ApiError {
        ApiError::NotFound(format!("no game with id {:?}", xiangqi::excerpt(id)))
    }

    /// A refusal with a reason code.
    pub fn rejected(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::Rejected {
            code,
            message: message.into(),
        }
    }
}

impl ApiError {
    /// The JSON body every error answer carries.
    /// The JSON body of the answer: `{error, message, code?}`.
    pub fn body(&self) -> Body<'_> {
        let code = match self {
            ApiError::Rejected { code, .. } | ApiError::Invalid { code, .. } => Some(*code),
            ApiError::Storage(e) => Some(e.kind.code()),
            _ => None,
        };
        Body {
            error: self.kind(),
            message: bounded(self.to_string()),
            code,
        }
    }

    /// The whole HTTP/1.1 answer, for a request refused before it reaches the router (a head
    /// that cannot be read, see `super::stream`): the same JSON, and the connection closes.
    pub fn http1_response(&self) -> Vec<u8> {
        let body = serde_json::to_string(&self.body()).unwrap_or_default();
        format!(
            "HTTP/1.1 {} {}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
             connection: close\r\n\r\n{body}",
            self.status_code(),
            reason(self.status_code()),
            body.len()
        )
        .into_bytes()
    }
}

/// The longest message an error carries, in characters. Messages quote bad input through
/// `xiangqi::excerpt` already; this also bounds what other libraries say (serde quotes a whole
/// string it cannot use), so no answer grows with its input (a 1 MB body of control bytes once
/// made a 12 MB answer).
pub const MAX_MESSAGE_CHARS: usize = 300;

/// `message` cut to [`MAX_MESSAGE_CHARS`], the `…` that marks the cut included.
fn bounded(message: String) -> String {
    if message.chars().count() <= MAX_MESSAGE_CHARS {
        return message;
    }
    match message.char_indices().nth(MAX_MESSAGE_CHARS - 1) {
        Some((cut, _)) => format!("{}…", &message[..cut]),
        None => message,
    }
}

impl From<DiskError> for ApiError {
    fn from(error: DiskError) -> Self {
        ApiError::Storage(error)
    }
}

impl From<Refusal> for ApiError {
    fn from(refusal: Refusal) -> Self {
        ApiError::Rejected {
            code: refusal.code,
            message: refusal.message,
        }
    }
}

/// The reason phrase of the statuses this API answers with.
fn reason(status: u16) -> &'static str {
    match status {
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        411 => "Length Required",
        413 => "Payload Too Large",
        414 => "URI Too Long",
        422 => "Unprocessable Entity",
        431 => "Request Header Fields Too Large",
        503 => "Service Unavailable",
        507 => "Insufficient Storage",
        _ => "Internal Server Error",
    }
}

/// The server's framework and runtime: their failures become [`ApiError`]s, and an
/// [`ApiError`] its answer.
#[cfg(feature = "server")]
mod server {
    use super::{ApiError, BODY_LIMIT};
    use axum::extract::rejection::{BytesRejection, JsonRejection, QueryRejection};
    use axum::http::StatusCode;
    use axum::response::{IntoResponse, Response};
    use axum::Json;

    impl ApiError {
        /// The HTTP status of the answer.
        pub fn status(&self) -> StatusCode {
            StatusCode::from_u16(self.status_code()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
        }
    }

    impl IntoResponse for ApiError {
        fn into_response(self) -> Response {
            (self.status(), Json(self.body())).into_response()
        }
    }

    /// The body limit a rejection reports when it is about size.
    fn too_large(status: StatusCode) -> bool {
        status == StatusCode::PAYLOAD_TOO_LARGE
    }

    impl From<JsonRejection> for ApiError {
        fn from(rejection: JsonRejection) -> Self {
            if too_large(rejection.status()) {
                return ApiError::TooLarge(BODY_LIMIT);
            }
            ApiError::BadRequest(format!("invalid JSON body: {}", rejection.body_text()))
        }
    }

    impl From<BytesRejection> for ApiError {
        fn from(rejection: BytesRejection) -> Self {
            if too_large(rejection.status()) {
                return ApiError::TooLarge(BODY_LIMIT);
            }
            ApiError::BadRequest(format!("unreadable body: {}", rejection.body_text()))
        }
    }

    impl From<QueryRejection> for ApiError {
        fn from(rejection: QueryRejection) -> Self {
            ApiError::BadRequest(format!("invalid query: {}", rejection.body_text()))
        }
    }

    impl From<tokio::task::JoinError> for ApiError {
        /// A blocking task that panicked: the panic stays in that task.
        fn from(error: tokio::task::JoinError) -> Self {
            ApiError::Internal(if error.is_panic() {
                "the request failed unexpectedly; the server goes on".to_owned()
            } else {
                "the request was cancelled".to_owned()
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_cut_to_the_limit_with_the_mark_included() {
        for len in [299, 300, 301, 1000] {
            let message = bounded("é".repeat(len));
            let chars = message.chars().count();
            assert_eq!(chars, len.min(MAX_MESSAGE_CHARS), "{len}");
            assert_eq!(message.ends_with('…'), len > MAX_MESSAGE_CHARS, "{len}");
        }
    }
}
