//! ICCS coordinates: `h2e2` (UCCI, Pikafish-style UCI) and `H2-E2` (PGN).

use super::error::NotationError;
use crate::excerpt::excerpt;
use crate::moves::Move;
use crate::position::Position;
use crate::square::Square;

/// Splits a coordinate text into file index, rank digits, file index, rank digits.
///
/// The shape is a file letter `a`–`i` (either case), one or two digits, an optional `-`, a file
/// letter and one or two digits. Whether the ranks are in range is left to the caller, since ICCS
/// counts 0–9 and the UCI form 1–10.
pub(super) fn split_coordinates(text: &str) -> Option<(u8, &str, u8, &str)> {
    let text = text.trim();
    let (from_file, rest) = file_letter(text)?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let (from_rank, rest) = rest.split_at(digits);
    let rest = rest.strip_prefix('-').unwrap_or(rest);
    let (to_file, to_rank) = file_letter(rest)?;
    let short = |s: &str| (1..=2).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit());
    (short(from_rank) && short(to_rank)).then_some((from_file, from_rank, to_file, to_rank))
}

/// The file index of a leading letter `a`–`i` and the rest of the text.
fn file_letter(text: &str) -> Option<(u8, &str)> {
    let first = *text.as_bytes().first()?;
    let file = first.to_ascii_lowercase().wrapping_sub(b'a');
    (file < 9).then(|| (file, &text[1..]))
}

/// Reads `h2e2`, `H2-E2` or `h2-e2` (any case) as a legal move of `pos`.
pub(super) fn parse(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let squares = split_coordinates(text).and_then(|(ff, fr, tf, tr)| {
        let rank = |r: &str| r.parse::<u8>().ok().filter(|_| r.len() == 1);
        Some((Square::new(ff, rank(fr)?)?, Square::new(tf, rank(tr)?)?))
    });
    let Some((from, to)) = squares else {
        return Err(NotationError::Malformed {
            text: excerpt(text),
            reason: "ICCS coordinates are two squares a0-i9, such as h2e2 or H2-E2",
        });
    };
    checked(pos, text, Move::new(from, to))
}

/// `m` if it is legal in `pos`, otherwise the error that says why not.
pub(super) fn checked(pos: &Position, text: &str, m: Move) -> Result<Move, NotationError> {
    let us = pos.side_to_move();
    match pos.piece_at(m.from()) {
        Some(piece) if piece.color == us => {}
        _ => {
            return Err(NotationError::NoSuchPiece {
                text: excerpt(text),
                color: us,
                wanted: format!("piece on {}", m.from()),
            })
        }
    }
    if pos.is_legal(m) {
        Ok(m)
    } else {
        Err(NotationError::IllegalMove {
            text: excerpt(text),
        })
    }
}

/// `h2e2`.
pub(super) fn format(m: Move) -> String {
    m.to_string()
}

/// `H2-E2`.
pub(super) fn format_pgn(m: Move) -> String {
    format!("{}-{}", m.from(), m.to()).to_ascii_uppercase()
}
