//! UCI coordinates with ranks 1–10, as Fairy-Stockfish writes them for Xiangqi: `h3e3`, `a10a9`.

use super::error::NotationError;
use super::iccs::{checked, split_coordinates};
use crate::excerpt::excerpt;
use crate::moves::Move;
use crate::position::Position;
use crate::square::Square;

/// Reads `h3e3` or `a10a9` (any case, an optional `-` between the squares) as a legal move.
pub(super) fn parse(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let squares = split_coordinates(text).and_then(|(ff, fr, tf, tr)| {
        // Ranks 1–10 become 0–9; "0", "01" and "11" are not ranks.
        let rank = |r: &str| {
            let n = r.parse::<u8>().ok()?;
            (!r.starts_with('0') && (1..=10).contains(&n)).then(|| n - 1)
        };
        Some((Square::new(ff, rank(fr)?)?, Square::new(tf, rank(tr)?)?))
    });
    let Some((from, to)) = squares else {
        return Err(NotationError::Malformed {
            text: excerpt(text),
            reason: "UCI coordinates with ranks 1-10 are two squares a1-i10, such as h3e3",
        });
    };
    checked(pos, text, Move::new(from, to))
}

/// `h3e3`: ICCS with every rank one higher.
pub(super) fn format(m: Move) -> String {
    let square = |sq: Square| format!("{}{}", (b'a' + sq.file()) as char, sq.rank() + 1);
    format!("{}{}", square(m.from()), square(m.to()))
}
