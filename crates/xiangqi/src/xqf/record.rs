//! XQF files as game records: the decoded tree checked move by move and turned into a
//! [`GameRecord`] (tags, result, comments and variations).

use super::decode::{parse_xqf, XqfError, XqfMove};
use crate::fen::{FenError, Validation};
use crate::moves::Move;
use crate::pgn::codec::why_illegal;
use crate::pgn::record::{export_tags, known_result, normalize_comment};
use crate::pgn::{GameRecord, RecordMove};
use crate::piece::Color;
use crate::position::Position;
use crate::square::Square;

/// Why an XQF file could not be turned into a [`GameRecord`].
#[derive(Debug, thiserror::Error)]
pub enum XqfImportError {
    /// The file could not be decoded at all.
    #[error(transparent)]
    Decode(#[from] XqfError),
    /// The start position stored in the file is not a legal position.
    #[error("XQF start position {fen:?}: {error}")]
    Start {
        /// The start position as decoded.
        fen: String,
        /// What is wrong with it.
        error: FenError,
    },
    /// A move of the record is not legal where it stands.
    #[error("XQF {line} has {mv} as {side}'s move {number}, which is not legal there: {reason}")]
    IllegalMove {
        /// "main line" or "variation".
        line: &'static str,
        /// The move in ICCS coordinates.
        mv: String,
        /// Its move number.
        number: u16,
        /// The side it is for.
        side: Color,
        /// What is wrong with it.
        reason: String,
    },
}

/// Converts a decoded XQF record to a [`GameRecord`], checking every move is legal.
///
/// `bytes` is a whole XQF file; [`parse_xqf`] decodes it. The header's strings
/// become tags, its result byte [`GameRecord::result`], and the record comes out in export form
/// (see [`GameRecord`]), so writing it as PGN and reading that back gives the same record.
///
/// # Errors
/// [`XqfImportError::Decode`] when the file cannot be decoded, [`XqfImportError::Start`] when
/// its start position is not legal, [`XqfImportError::IllegalMove`] for the first move (main
/// line or variation) that is not legal where it stands.
pub fn record_from_xqf(bytes: &[u8]) -> Result<GameRecord, XqfImportError> {
    let xqf = parse_xqf(bytes)?;
    let start = Position::from_fen_with(&xqf.fen, Validation::Lenient).map_err(|error| {
        XqfImportError::Start {
            fen: xqf.fen.clone(),
            error,
        }
    })?;
    let moves = convert_line(&start, &xqf.moves, "main line")?;
    let result = xqf
        .tags
        .iter()
        .find(|(k, _)| k == "Result")
        .and_then(|(_, v)| known_result(v));
    Ok(GameRecord {
        tags: export_tags(&xqf.tags, result),
        start,
        initial_comment: xqf.initial_comment.as_deref().and_then(normalize_comment),
        moves,
        result: result.map(str::to_owned),
    })
}

/// The moves of `line` played from `start`, with their variations, checked for legality.
fn convert_line(
    start: &Position,
    line: &[XqfMove],
    kind: &'static str,
) -> Result<Vec<RecordMove>, XqfImportError> {
    let mut pos = start.clone();
    let mut out = Vec::with_capacity(line.len());
    for xm in line {
        let illegal = |reason: String| XqfImportError::IllegalMove {
            line: kind,
            mv: xm.iccs.clone(),
            number: pos.fullmove_number(),
            side: pos.side_to_move(),
            reason,
        };
        let squares = (xm.iccs.get(..2), xm.iccs.get(2..));
        let (Some(Ok(from)), Some(Ok(to))) = (
            squares.0.map(str::parse::<Square>),
            squares.1.map(str::parse::<Square>),
        ) else {
            return Err(illegal("not a pair of squares".to_owned()));
        };
        let mv = Move::new(from, to);
        if let Some(reason) = why_illegal(&pos, mv) {
            return Err(illegal(reason));
        }
        let variations = xm
            .variations
            .iter()
            .map(|v| convert_line(&pos, v, "variation"))
            .collect::<Result<Vec<_>, _>>()?;
        // XQF has no annotation glyphs, and its comments follow their moves.
        out.push(RecordMove {
            comment: xm.comment.as_deref().and_then(normalize_comment),
            variations: variations.into_iter().filter(|v| !v.is_empty()).collect(),
            ..RecordMove::new(mv)
        });
        pos.make_move(mv);
    }
    Ok(out)
}
