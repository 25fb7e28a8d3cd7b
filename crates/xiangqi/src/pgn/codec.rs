//! How moves are read from and written to PGN movetext.

use crate::excerpt::excerpt;
use crate::moves::Move;
use crate::position::Position;
use crate::square::Square;

/// Reads and writes the moves of PGN movetext in one notation.
///
/// The PGN reader and writer know nothing about notations: they hand every move token to a codec.
/// The notation module implements this for ICCS, WXF and Chinese; [`IccsCodec`] here covers
/// ICCS alone (enough for files with `[Format "ICCS"]`).
pub trait MoveCodec {
    /// The legal move of `pos` that `text` names, or a short reason why there is none.
    ///
    /// `text` is one movetext token without annotation suffixes (`!`, `?!`). The reader checks
    /// legality again, so a codec may return any move it reads.
    fn parse(&self, pos: &Position, text: &str) -> Result<Move, String>;

    /// `m`, a legal move of `pos`, written in this notation. The result must be one token (no
    /// white space or PGN punctuation) that [`MoveCodec::parse`] reads back as `m`.
    fn format(&self, pos: &Position, m: Move) -> String;
}

/// ICCS coordinates: writes `H2-E2` (the PGN form); reads that, `h2e2` (the UCCI form) and
/// mixtures (`h2-e2`, `H2E2`).
///
/// ```
/// use xiangqi::pgn::{IccsCodec, MoveCodec};
/// use xiangqi::Position;
/// let pos = Position::startpos();
/// let m = IccsCodec.parse(&pos, "H2-E2").unwrap();
/// assert_eq!(m.to_string(), "h2e2");
/// assert_eq!(IccsCodec.format(&pos, m), "H2-E2");
/// assert!(IccsCodec.parse(&pos, "h2g3").is_err());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IccsCodec;

impl MoveCodec for IccsCodec {
    fn parse(&self, pos: &Position, text: &str) -> Result<Move, String> {
        let unreadable = || {
            let text = excerpt(text);
            format!("{text:?} is not an ICCS move such as H2-E2 or h2e2")
        };
        let (from, to) = match text.len() {
            4 => (text.get(..2), text.get(2..)),
            5 if text.as_bytes()[2] == b'-' => (text.get(..2), text.get(3..)),
            _ => return Err(unreadable()),
        };
        let square = |s: Option<&str>| s.and_then(|s| s.parse::<Square>().ok());
        let (Some(from), Some(to)) = (square(from), square(to)) else {
            return Err(unreadable());
        };
        let m = Move::new(from, to);
        match why_illegal(pos, m) {
            None => Ok(m),
            Some(reason) => Err(reason),
        }
    }

    fn format(&self, _pos: &Position, m: Move) -> String {
        let from = m.from().to_string().to_ascii_uppercase();
        let to = m.to().to_string().to_ascii_uppercase();
        format!("{from}-{to}")
    }
}

/// `None` if `m` is legal in `pos`, else a short reason why not (the rules' own words, after
/// the move).
pub(crate) fn why_illegal(pos: &Position, m: Move) -> Option<String> {
    pos.why_illegal(m).map(|reason| format!("{m}: {reason}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_all_spellings() {
        let pos = Position::startpos();
        for text in ["H2-E2", "h2e2", "h2-e2", "H2E2"] {
            assert_eq!(IccsCodec.parse(&pos, text).unwrap().to_string(), "h2e2");
        }
        for text in [
            "",
            "h2",
            "h2_e2",
            "h2--e2",
            "j2e2",
            "h2e10",
            "炮二平五",
            "h2-e2x",
        ] {
            assert!(IccsCodec.parse(&pos, text).is_err(), "{text}");
        }
    }

    #[test]
    fn says_why_a_move_is_illegal() {
        let pos = Position::startpos();
        let err = |t| IccsCodec.parse(&pos, t).unwrap_err();
        assert!(err("e5e6").contains("no piece on e5"), "{}", err("e5e6"));
        assert!(err("h7e7").contains("red's turn"), "{}", err("h7e7"));
        assert!(
            err("h2g4").contains("h2g4: the cannon moves along files and ranks"),
            "{}",
            err("h2g4")
        );
        let facing = Position::from_fen("3k5/9/9/9/9/9/9/9/4A4/4K4 w").unwrap();
        let reason = IccsCodec.parse(&facing, "e0d0").unwrap_err();
        assert!(reason.contains("may not face each other"), "{reason}");
    }
}

/// Any notation of [`crate::notation`]: reads every notation (detected per move) and writes
/// the chosen one. `NotationCodec(Notation::Chinese)` reads and writes xqbase-style files.
///
/// ```
/// use xiangqi::pgn::{MoveCodec, NotationCodec};
/// use xiangqi::{Notation, Position};
/// let pos = Position::startpos();
/// let codec = NotationCodec(Notation::Chinese);
/// let m = codec.parse(&pos, "H2-E2").unwrap();
/// assert_eq!(codec.format(&pos, m), "炮二平五");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotationCodec(pub crate::notation::Notation);

impl MoveCodec for NotationCodec {
    fn parse(&self, pos: &Position, text: &str) -> Result<Move, String> {
        crate::notation::parse_move(pos, text).map_err(|e| e.to_string())
    }

    fn format(&self, pos: &Position, m: Move) -> String {
        crate::notation::format_move(pos, m, self.0)
    }
}
