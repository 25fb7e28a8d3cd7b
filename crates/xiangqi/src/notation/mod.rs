//! Move notations: ICCS coordinates (as UCCI and Pikafish-style UCI use them), UCI with ranks
//! 1–10 (Fairy-Stockfish), WXF, and Chinese.
//!
//! Every notation is read against a position: the text must name a legal move of the side to
//! move. [`format_move`] and [`parse_move_as`] are inverses for every legal move, and no two legal
//! moves of a position are written the same way.
//!
//! ```
//! use xiangqi::{format_move, parse_move, Notation, Position};
//! let pos = Position::startpos();
//! let m = parse_move(&pos, "炮二平五").unwrap();
//! assert_eq!(m.to_string(), "h2e2");
//! assert_eq!(format_move(&pos, m, Notation::Wxf), "C2.5");
//! assert_eq!(parse_move(&pos, "H2-E2"), Ok(m));
//! ```
//!
//! # Pieces sharing a file
//!
//! The file (WXF) or Chinese notations name a piece by the file it stands on. When several pieces
//! of one kind share a file this library follows the World Xiangqi Federation's notation page and
//! the xqbase computer conventions:
//!
//! * two pieces: front / rear (`前` / `后`, WXF `+` / `-`) replace the file: `前炮平五`, `C+.5`;
//!   "front" is the one nearer the opponent (higher rank for Red, lower for Black);
//! * three soldiers: `前` / `中` / `后`; WXF `P+`, the plain file for the middle one (`P3`), `P-`;
//! * four or five soldiers: `一` … `五` counted from the front (Chinese ordinals for both
//!   sides, as in xqbase's `一卒平５`); WXF `++`, `P+`, (`P3` for the middle of five), `P-`, `--`;
//! * soldiers doubled on two files: the file comes back: `前兵九平八`, `中卒３进１` (the
//!   traditional form), WXF `3+.4`, `33.4`, `3-.4`;
//! * advisors and elephants keep their file (`仕四进五`): of two on one file one can only advance
//!   and the other only retreat, so the direction tells them apart. Only where that fails (possible
//!   in composed positions) are they written with front / rear.
//!
//! Reading is more lenient: it also accepts traditional characters, ASCII or full-width digits and
//! Chinese numerals for either side, the older order `车前平三`, the short `前九平八`, xqbase's
//! numbering across two doubled files (`一兵平五`), `=` for WXF sideways moves, and `B` / `N` for
//! the elephant and horse.

mod chinese;
mod describe;
mod error;
mod iccs;
mod uci;
mod wxf;

pub(crate) use chinese::is_move_character;
pub use error::NotationError;

use crate::excerpt::excerpt;
use crate::moves::Move;
use crate::position::Position;
use std::fmt;
use std::str::FromStr;

/// A way of writing moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Notation {
    /// ICCS coordinates, as UCCI and Pikafish-style UCI use them: "h2e2" (ranks 0–9). Parsing
    /// also accepts "H2-E2" and "h2-e2".
    Iccs,
    /// ICCS in PGN form "H2-E2" (parsing the same as Iccs).
    IccsPgn,
    /// UCI with ranks 1–10 as Fairy-Stockfish writes after `UCI_Variant xiangqi`: "h3e3", "a10a9".
    UciRanks1To10,
    /// WXF: "C2.5" (printed with '.'; parsing also '='), "H8+7", tandem "R+.3", "C-+1", pawns per
    /// the WXF rules.
    Wxf,
    /// Chinese: "炮二平五", "马８进７" (prints simplified characters, Chinese numerals for Red,
    /// full-width digits for Black; parses traditional characters (車 馬 砲 帥 將 仕 象 相 兵 卒 俥 傌
    /// 炮 士 etc.), ASCII and full-width digits, Chinese numerals for either side, 前/后/後/中 and
    /// 一二三四五 for soldiers).
    Chinese,
}

impl Notation {
    /// Every notation, in declaration order.
    pub const ALL: [Notation; 5] = [
        Notation::Iccs,
        Notation::IccsPgn,
        Notation::UciRanks1To10,
        Notation::Wxf,
        Notation::Chinese,
    ];

    /// The name [`Display`](fmt::Display) prints and [`FromStr`] reads: `iccs`, `iccs-pgn`,
    /// `uci1`, `wxf` or `chinese`.
    pub const fn name(self) -> &'static str {
        match self {
            Notation::Iccs => "iccs",
            Notation::IccsPgn => "iccs-pgn",
            Notation::UciRanks1To10 => "uci1",
            Notation::Wxf => "wxf",
            Notation::Chinese => "chinese",
        }
    }
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Error for a notation name that [`Notation::from_str`] does not know (the name, as an
/// [`excerpt`](crate::excerpt)).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown notation {0:?}: expected iccs, iccs-pgn, uci, uci1 (ranks1-10), wxf or chinese")]
pub struct ParseNotationError(pub String);

impl FromStr for Notation {
    type Err = ParseNotationError;

    /// Reads a notation name, ignoring case: `iccs`; `iccs-pgn` or `pgn`; `uci` (Pikafish's UCI,
    /// the same squares as ICCS); `uci1` or `ranks1-10`; `wxf`; `chinese` (also `cn`, `zh`).
    fn from_str(s: &str) -> Result<Notation, ParseNotationError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "iccs" | "uci" | "ucci" => Ok(Notation::Iccs),
            "iccs-pgn" | "iccspgn" | "pgn" => Ok(Notation::IccsPgn),
            "uci1" | "ranks1-10" | "uci-ranks1-10" => Ok(Notation::UciRanks1To10),
            "wxf" => Ok(Notation::Wxf),
            "chinese" | "cn" | "zh" => Ok(Notation::Chinese),
            _ => Err(ParseNotationError(excerpt(s))),
        }
    }
}

/// Which notation [`parse_move`] reads `text` as, or `None` if it looks like none of them.
///
/// CJK or full-width characters mean Chinese. ASCII coordinates (`h2e2`, `H2-E2`) mean ICCS,
/// unless a rank is written `10`, which only the ranks-1–10 UCI form has. A piece letter, tandem
/// sign or leading file digit followed by a direction means WXF. A ranks-1–10 text without a `10`
/// (`h3e3`) cannot be told from ICCS and is read as ICCS: use [`parse_move_as`] for those.
pub fn detect_notation(text: &str) -> Option<Notation> {
    let text = text.trim();
    let first = text.chars().next()?;
    if !text.is_ascii() {
        return Some(Notation::Chinese);
    }
    if let Some((_, from_rank, _, to_rank)) = iccs::split_coordinates(text) {
        return Some(if from_rank == "10" || to_rank == "10" {
            Notation::UciRanks1To10
        } else {
            Notation::Iccs
        });
    }
    if first.is_ascii_alphanumeric() || first == '+' || first == '-' {
        return Some(Notation::Wxf);
    }
    None
}

/// Reads a move in any notation, detecting which (CJK characters → Chinese; a WXF piece letter /
/// tandem sign / digit-file form → WXF; coordinates → ICCS a0–i9 with or without '-'; a
/// coordinate text with rank "10" → ranks 1–10). The move must be legal in `pos`.
///
/// ```
/// use xiangqi::{parse_move, Position};
/// let pos = Position::startpos();
/// for text in ["h2e2", "H2-E2", "C2.5", "C2=5", "炮二平五", "砲二平五"] {
///     assert_eq!(parse_move(&pos, text).unwrap().to_string(), "h2e2");
/// }
/// assert!(parse_move(&pos, "h2h8").is_err()); // the cannon cannot pass h7
/// assert_eq!(parse_move(&pos, "h2h9").unwrap().to_string(), "h2h9"); // 炮二进七 takes the horse
/// ```
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, NotationError> {
    match detect_notation(text) {
        Some(notation) => parse_move_as(pos, text, notation),
        None => Err(NotationError::Malformed {
            text: excerpt(text),
            reason: "not a move in ICCS, UCI, WXF or Chinese notation",
        }),
    }
}

/// Reads a move in the given notation; must be legal in `pos`.
///
/// ```
/// use xiangqi::{parse_move_as, Notation, Position};
/// let pos = Position::startpos();
/// let m = parse_move_as(&pos, "h3e3", Notation::UciRanks1To10).unwrap();
/// assert_eq!(m.to_string(), "h2e2");
/// ```
pub fn parse_move_as(
    pos: &Position,
    text: &str,
    notation: Notation,
) -> Result<Move, NotationError> {
    match notation {
        Notation::Iccs | Notation::IccsPgn => iccs::parse(pos, text),
        Notation::UciRanks1To10 => uci::parse(pos, text),
        Notation::Wxf => wxf::parse(pos, text),
        Notation::Chinese => chinese::parse(pos, text),
    }
}

/// Writes the legal move `m` of `pos` in `notation`.
///
/// A move that is not legal still gets a description of the piece on its `from` square, which
/// may not read back; a move from an empty square is written in ICCS whatever the notation.
///
/// ```
/// use xiangqi::{format_move, Move, Notation, Position};
/// let pos = Position::startpos();
/// let m = Move::new("b0".parse().unwrap(), "c2".parse().unwrap());
/// assert_eq!(format_move(&pos, m, Notation::Chinese), "马八进七");
/// assert_eq!(format_move(&pos, m, Notation::Wxf), "H8+7");
/// assert_eq!(format_move(&pos, m, Notation::IccsPgn), "B0-C2");
/// assert_eq!(format_move(&pos, m, Notation::UciRanks1To10), "b1c3");
/// ```
pub fn format_move(pos: &Position, m: Move, notation: Notation) -> String {
    match notation {
        Notation::Iccs => iccs::format(m),
        Notation::IccsPgn => iccs::format_pgn(m),
        Notation::UciRanks1To10 => uci::format(m),
        Notation::Wxf => wxf::format(pos, m).unwrap_or_else(|| iccs::format(m)),
        Notation::Chinese => chinese::format(pos, m).unwrap_or_else(|| iccs::format(m)),
    }
}
