//! Errors of PGN reading and XQF import.

use crate::excerpt::excerpt;
use crate::fen::FenError;
use crate::piece::Color;

/// Why a PGN file could not be read: what went wrong, on which line, at which token.
///
/// Lines count from 1 in the decoded text (line ends of any kind count once). Tokens and text in
/// reasons are [`excerpt`](crate::excerpt)s, so that a file of garbage makes a short message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PgnError {
    /// The text breaks the PGN syntax: an unclosed comment, tag value or variation, a tag
    /// without a value, a stray bracket.
    #[error("line {line}: {}: {reason}", describe_token(.token))]
    Syntax {
        /// Line where the offending token starts.
        line: usize,
        /// The offending text (empty at the end of the input).
        token: String,
        /// What was wrong or expected.
        reason: String,
    },
    /// A move the codec could not read, or one that is not legal where it stands.
    #[error("line {line}: cannot play {token:?} ({side}'s move {number}): {reason}")]
    Move {
        /// Line of the move.
        line: usize,
        /// The move as written.
        token: String,
        /// Its move number (as counted from the start position's move number).
        number: u16,
        /// The side it is for.
        side: Color,
        /// Why it could not be played, as the codec or the legality check says.
        reason: String,
    },
    /// The FEN tag does not describe a legal position.
    #[error("line {line}: FEN tag {token:?}: {error}")]
    Fen {
        /// Line of the tag.
        line: usize,
        /// The FEN as written.
        token: String,
        /// What is wrong with it.
        error: FenError,
    },
}

impl PgnError {
    /// The line (from 1) where the problem was found.
    pub fn line(&self) -> usize {
        match self {
            PgnError::Syntax { line, .. }
            | PgnError::Move { line, .. }
            | PgnError::Fen { line, .. } => *line,
        }
    }

    /// The offending text, as an [`excerpt`](crate::excerpt) (empty when the input ended too
    /// early).
    pub fn token(&self) -> &str {
        match self {
            PgnError::Syntax { token, .. }
            | PgnError::Move { token, .. }
            | PgnError::Fen { token, .. } => token,
        }
    }

    /// A syntax error at `token` on `line`.
    pub(crate) fn syntax(line: usize, token: &str, reason: impl Into<String>) -> PgnError {
        PgnError::Syntax {
            line,
            token: excerpt(token),
            reason: reason.into(),
        }
    }
}

/// The token quoted, or a phrase for the end of the input.
fn describe_token(token: &str) -> String {
    if token.is_empty() {
        "at the end of the text".to_owned()
    } else {
        format!("at {token:?}")
    }
}
