//! Why a line is not a command.

use super::dialect::Dialect;
use thiserror::Error;
use xiangqi::excerpt;

/// Why a line from the GUI could not be parsed.
///
/// Each message is one line of English, meant for `info string …`; the engine reports it and
/// carries on. Text quoted from the line is an [`excerpt`] with control characters escaped
/// (`shown`), so a garbled or enormous line yields a short printable message.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParseError {
    /// The first word is no command of either protocol.
    #[error("unknown command `{0}`")]
    UnknownCommand(String),
    /// A keyword that needs a value came last, or was followed by another keyword.
    #[error("missing value after `{0}`")]
    MissingValue(&'static str),
    /// A keyword's value is not a number in range (`go depth -1`, `go nodes 1e6`).
    #[error("invalid number `{value}` after `{keyword}`")]
    InvalidNumber {
        /// The keyword the number belongs to.
        keyword: &'static str,
        /// The offending text.
        value: String,
    },
    /// A `go` parameter the session's dialect does not have (`wtime` in UCCI, `time` in UCI).
    #[error("`{token}` is not a {dialect} `go` parameter")]
    UnknownGoParameter {
        /// The offending word.
        token: String,
        /// The dialect the line was parsed in.
        dialect: Dialect,
    },
    /// A word other than the one the grammar needs, or nothing where something was needed.
    #[error("expected {expected} after {after}{}", found_suffix(.found))]
    Expected {
        /// What would have been valid, quoted (``"`startpos` or `fen`"``).
        expected: &'static str,
        /// Where in the line, quoted when it is a keyword (``"`position`"``).
        after: &'static str,
        /// What came instead; `None` when the line ended.
        found: Option<String>,
    },
    /// Words after a complete command (`isready now`).
    #[error("unexpected `{token}` after `{after}`")]
    UnexpectedToken {
        /// The command.
        after: String,
        /// The first extra word.
        token: String,
    },
    /// `perft` combined with other `go` parameters: only `go perft N` is valid.
    #[error("`perft` takes no other `go` parameters: send `go perft N`")]
    PerftNotAlone,
}

/// `, found `x`` or nothing.
fn found_suffix(found: &Option<String>) -> String {
    match found {
        Some(text) => format!(", found `{text}`"),
        None => ", found the end of the line".to_owned(),
    }
}

/// `text` as an error quotes it: an [`excerpt`] (the rule the rules library's errors follow
/// too: at most [`xiangqi::EXCERPT_CHARS`] characters, then `…`), with control characters
/// written as `\u{…}` escapes so the message stays one printable line.
pub(crate) fn shown(text: &str) -> String {
    let mut out = String::new();
    for c in excerpt(text).chars() {
        if c.is_control() {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    out
}
