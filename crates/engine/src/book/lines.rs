//! The book's source text: one opening line per text line.
//!
//! ```text
//! # 中炮过河车对屏风马平炮兑车          <- a comment line
//! 30 炮二平五 马８进７ 马二进三 …  # name  <- weight, moves from the start position, a name
//! ```
//!
//! A line is an optional weight (a whole number from 1 to [`MAX_WEIGHT`], [`DEFAULT_WEIGHT`]
//! when left out) followed by moves from the start position in any notation
//! [`xiangqi::parse_move`] reads (the book is written in Chinese notation). `#` starts a
//! comment; the comment after a line's moves is its name. Blank lines are skipped.

use xiangqi::{parse_move, Move, Position};

/// Weight of a line that gives none.
pub const DEFAULT_WEIGHT: u16 = 10;
/// Largest weight of one line; with it the sums stay far below the file's 16-bit weights.
pub const MAX_WEIGHT: u16 = 1000;
/// Most moves in one line (the file stores plies in a byte).
pub const MAX_PLIES: usize = 200;

/// One opening line of the source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// 1-based line number in the source text.
    pub number: usize,
    /// How often the line is played, relative to the others.
    pub weight: u16,
    /// The moves, legal in order from the start position.
    pub moves: Vec<Move>,
    /// The comment after the moves, if any.
    pub name: Option<String>,
}

/// What is wrong with a source line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LineErrorKind {
    /// A number that is not a usable weight (an [`excerpt`](xiangqi::excerpt) of it).
    #[error("weight {0:?} is not a whole number from 1 to {MAX_WEIGHT}")]
    BadWeight(String),
    /// A weight with no moves after it.
    #[error("a weight without moves")]
    NoMoves,
    /// More than [`MAX_PLIES`] moves.
    #[error("more than {MAX_PLIES} moves")]
    TooLong,
    /// A move that does not parse or is not legal where it stands.
    #[error("move {ply} {text:?} is not a legal move there: {reason}")]
    BadMove {
        /// 1-based ply within the line.
        ply: usize,
        /// The move as written (an [`excerpt`](xiangqi::excerpt) of it).
        text: String,
        /// The notation parser's explanation.
        reason: String,
    },
}

/// A source line that could not be read, with its number.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {kind}")]
pub struct LineError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub kind: LineErrorKind,
}

/// Reads the whole source text; the first bad line is an error naming it.
pub fn parse_lines(text: &str) -> Result<Vec<Line>, LineError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let number = i + 1;
        let (content, comment) = match raw.split_once('#') {
            Some((content, comment)) => (content, Some(comment.trim())),
            None => (raw, None),
        };
        if content.trim().is_empty() {
            continue;
        }
        let (weight, moves) =
            parse_content(content).map_err(|kind| LineError { line: number, kind })?;
        lines.push(Line {
            number,
            weight,
            moves,
            name: comment.filter(|c| !c.is_empty()).map(str::to_owned),
        });
    }
    Ok(lines)
}

/// The weight and moves of a line's text before its comment.
fn parse_content(content: &str) -> Result<(u16, Vec<Move>), LineErrorKind> {
    let mut tokens = content.split_whitespace().peekable();
    let mut weight = DEFAULT_WEIGHT;
    // No move in any notation is all digits, so a leading number is the weight.
    if let Some(first) = tokens.next_if(|t| t.chars().all(|c| c.is_ascii_digit())) {
        weight = first
            .parse::<u16>()
            .ok()
            .filter(|w| (1..=MAX_WEIGHT).contains(w))
            .ok_or_else(|| LineErrorKind::BadWeight(xiangqi::excerpt(first)))?;
    }
    let mut pos = Position::startpos();
    let mut moves = Vec::new();
    for (i, text) in tokens.enumerate() {
        if moves.len() == MAX_PLIES {
            return Err(LineErrorKind::TooLong);
        }
        let m = parse_move(&pos, text).map_err(|e| LineErrorKind::BadMove {
            ply: i + 1,
            text: xiangqi::excerpt(text),
            reason: e.to_string(),
        })?;
        pos.make_move(m);
        moves.push(m);
    }
    if moves.is_empty() {
        return Err(LineErrorKind::NoMoves);
    }
    Ok((weight, moves))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_moves_names_and_comments() {
        let text = "\u{feff}# 中炮\n\n30 炮二平五 马８进７ # 中炮对屏风马\n 相三进五 卒7进1\n";
        let lines = parse_lines(text).unwrap();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].number, 3);
        assert_eq!(lines[0].weight, 30);
        assert_eq!(lines[0].name.as_deref(), Some("中炮对屏风马"));
        let iccs: Vec<String> = lines[0].moves.iter().map(Move::to_string).collect();
        assert_eq!(iccs, ["h2e2", "h9g7"]);
        assert_eq!(lines[1].number, 4);
        assert_eq!(lines[1].weight, DEFAULT_WEIGHT);
        assert_eq!(lines[1].name, None);
    }

    #[test]
    fn errors_name_the_line_and_the_move() {
        // The horse's leg is blocked by the elephant.
        let err = parse_lines("# ok\n炮二平五 马８进７\n炮二平五 马８进６\n").unwrap_err();
        assert_eq!(err.line, 3);
        let text = err.to_string();
        assert!(text.starts_with("line 3: move 2 \"马８进６\""), "{text}");
        let err = parse_lines("0 炮二平五").unwrap_err();
        assert_eq!(err.kind, LineErrorKind::BadWeight("0".into()));
        let err = parse_lines("\n\n1001 炮二平五").unwrap_err();
        assert_eq!(err.line, 3);
        assert!(matches!(err.kind, LineErrorKind::BadWeight(_)));
        let err = parse_lines("7  # weight only").unwrap_err();
        assert_eq!(err.kind, LineErrorKind::NoMoves);
        let err = parse_lines("炮二平五 马８进７ nonsense").unwrap_err();
        assert!(matches!(err.kind, LineErrorKind::BadMove { ply: 3, .. }));
    }

    #[test]
    fn overlong_lines_are_refused() {
        let shuffle = "马二进三 马８进７ 马三退二 马７退８ ".repeat(MAX_PLIES / 4 + 1);
        let err = parse_lines(&shuffle).unwrap_err();
        assert_eq!(err.kind, LineErrorKind::TooLong);
    }
}
