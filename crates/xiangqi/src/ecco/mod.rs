//! Opening names: the ECCO classification (中国象棋开局编号, codes A00–E99) that Chinese game
//! collections use, with each code's opening and variation in Chinese and in English.
//!
//! Each code is defined by a line of moves from the start position (`definitions.tsv` beside
//! this file: the system's names, each with a line its definition classifies as that code). A
//! game gets the code of the most specific definition (the one with the most moves) it opens
//! with: Red's first moves are the definition's Red moves (the first one first, the others in
//! any order) and Black's first moves its Black moves (in any order), so transpositions
//! count. A game counts as its left–right mirror too (炮八平五 opens as 炮二平五 does). A game
//! that plays a family's moves but none of its variations' gets the family's own code: the
//! system's "(其他)", the others.

mod english;

pub use english::english_name;

use crate::moves::Move;
use crate::notation::{parse_move_as, Notation};
use crate::pgn::GameRecord;
use crate::piece::Color;
use crate::position::Position;
use std::sync::OnceLock;

/// The definitions: `code`, the Chinese name (opening, then the variation after a space) and
/// the defining moves in Chinese notation, tab-separated, one code a line.
const DEFINITIONS: &str = include_str!("definitions.tsv");

/// How far into a game the classification looks, in plies: ten moves a side, more than the
/// longest definition has.
pub const OPENING_PLIES: usize = 20;

/// One code of the system.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// `A00` … `E99`.
    pub code: &'static str,
    /// The opening's Chinese name (`中炮过河车互进七兵对屏风马平炮兑车`).
    pub opening: &'static str,
    /// The variation's Chinese name (`红仕角炮对黑退边炮`), empty for a code that names only
    /// an opening.
    pub variation: &'static str,
    /// The moves that define it, in Chinese notation.
    pub moves: &'static str,
    /// How many plies the definition has.
    pub plies: usize,
}

impl Opening {
    /// The whole Chinese name: the opening, and the variation after a space.
    pub fn name(&self) -> String {
        if self.variation.is_empty() {
            self.opening.to_owned()
        } else {
            format!("{} {}", self.opening, self.variation)
        }
    }

    /// The name in English.
    pub fn english(&self) -> String {
        english_name(self.opening, self.variation)
    }
}

/// A code with the moves of its definition, each side's apart.
struct Definition {
    opening: Opening,
    red: Vec<Move>,
    black: Vec<Move>,
}

/// The definitions, read once.
fn table() -> &'static [Definition] {
    static TABLE: OnceLock<Vec<Definition>> = OnceLock::new();
    TABLE.get_or_init(|| {
        DEFINITIONS
            .lines()
            .filter(|l| !l.trim().is_empty())
            .filter_map(parse_line)
            .collect()
    })
}

/// Reads one line of the definitions; `None` for a line that is not one (the table's test
/// checks that every line is).
fn parse_line(line: &'static str) -> Option<Definition> {
    let mut fields = line.split('\t');
    let code = fields.next()?.trim();
    let name = fields.next()?.trim();
    let moves = fields.next().unwrap_or("").trim();
    let (opening, variation) = name.split_once(' ').unwrap_or((name, ""));
    let mut pos = Position::startpos();
    let (mut red, mut black) = (Vec::new(), Vec::new());
    for text in moves.split_whitespace() {
        let m = parse_move_as(&pos, text, Notation::Chinese).ok()?;
        match pos.side_to_move() {
            Color::Red => red.push(m),
            Color::Black => black.push(m),
        }
        pos.make_move(m);
    }
    Some(Definition {
        opening: Opening {
            code,
            opening: opening.trim(),
            variation: variation.trim(),
            moves,
            plies: red.len() + black.len(),
        },
        red,
        black,
    })
}

/// A move mirrored left to right.
fn mirrored(m: Move) -> Move {
    Move::new(m.from().flip_file(), m.to().flip_file())
}

/// Whether one side's first moves `played` open as a definition's `wanted` do: the same moves
/// in any order (so that transpositions count), the first one first where `first_fixed` (Red's
/// first move names the family: 炮二平五 then 兵三进一 is not 兵三进一 then 炮二平五; Black's
/// defences are the same whichever horse comes out first). Measured on the games of
/// `docs/OPENINGS.md`, this agrees with the codes game collections give far more often than
/// allowing other moves between, or than asking for the same order.
fn opens_with(wanted: &[Move], played: &[Move], first_fixed: bool) -> bool {
    let Some(opening) = played.get(..wanted.len()) else {
        return false;
    };
    (!first_fixed || opening.first() == wanted.first())
        && wanted.iter().all(|m| opening.contains(m))
}

/// Every code of the system, in order.
pub fn openings() -> impl Iterator<Item = &'static Opening> {
    table().iter().map(|d| &d.opening)
}

/// The code `code` (`C48`), if the system defines it.
pub fn opening(code: &str) -> Option<&'static Opening> {
    openings().find(|o| o.code == code)
}

/// The opening of a game from the start position with these moves: the most specific code whose
/// moves it opens with (see the module's notes). `None` for a game from another position,
/// without moves, or whose moves are not legal. Every other game gets a code (A00 holds the
/// openings no other code names).
pub fn classify(start: &Position, moves: &[Move]) -> Option<&'static Opening> {
    if start.key() != Position::startpos().key() || moves.is_empty() {
        return None;
    }
    let mut pos = start.clone();
    let (mut red, mut black) = (Vec::new(), Vec::new());
    for &m in moves.iter().take(OPENING_PLIES) {
        if !pos.is_legal(m) {
            return None;
        }
        match pos.side_to_move() {
            Color::Red => red.push(m),
            Color::Black => black.push(m),
        }
        pos.make_move(m);
    }
    let red_mirrored: Vec<Move> = red.iter().copied().map(mirrored).collect();
    let black_mirrored: Vec<Move> = black.iter().copied().map(mirrored).collect();
    let mut best: Option<&'static Opening> = None;
    for d in table() {
        let opens = (opens_with(&d.red, &red, true) && opens_with(&d.black, &black, false))
            || (opens_with(&d.red, &red_mirrored, true)
                && opens_with(&d.black, &black_mirrored, false));
        if opens && best.is_none_or(|b| d.opening.plies > b.plies) {
            best = Some(&d.opening);
        }
    }
    best
}

/// The opening of a game record's main line ([`classify`]).
pub fn classify_record(record: &GameRecord) -> Option<&'static Opening> {
    classify(&record.start, &record.main_line())
}

/// Adds the `ECCO`, `Opening` and `Variation` tags of its opening to a record that has no
/// `ECCO` tag with a code; the tags a record carries are never changed. Returns whether tags
/// were added.
pub fn tag_record(record: &mut GameRecord) -> bool {
    if record
        .tag("ECCO")
        .is_some_and(|code| !code.trim().is_empty())
    {
        return false;
    }
    let Some(opening) = classify_record(record) else {
        return false;
    };
    record.set_tag("ECCO", opening.code);
    if record.tag("Opening").is_none_or(|v| v.trim().is_empty()) {
        record.set_tag("Opening", opening.opening);
    }
    if record.tag("Variation").is_none_or(|v| v.trim().is_empty()) {
        record.set_tag("Variation", opening.variation);
    }
    true
}

#[cfg(test)]
mod tests;
