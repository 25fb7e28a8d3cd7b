//! Why a move is illegal, in the rules' own words: for each way a move can break the rules, a
//! reason with a stable code (which the web page translates) and an English sentence (which
//! error messages quote). [`Position::why_illegal`] names the reason.

use crate::moves::Move;
use crate::piece::{Color, PieceKind};
use crate::position::Position;
use crate::square::Square;
use std::fmt;

/// The reason a move is illegal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// No piece stands on the move's first point.
    Empty(Square),
    /// The piece there belongs to the side not to move.
    NotYourPiece(Color),
    /// The move does not move the piece.
    SameSquare,
    /// The target holds a piece of the mover's own side.
    OwnPiece,
    /// The mover is in check and the move does not end it.
    InCheck,
    /// After the move the generals would face each other on an open file.
    GeneralsFacing,
    /// The move would leave the mover's general open to capture.
    ExposesGeneral,
    /// A general moves one point straight and stays in its palace.
    GeneralMove,
    /// An advisor moves one point diagonally and stays in its palace.
    AdvisorMove,
    /// An elephant may not cross the river.
    ElephantRiver,
    /// The point between an elephant and its target is occupied (塞象眼).
    ElephantEye,
    /// An elephant moves exactly two points diagonally.
    ElephantMove,
    /// The point next to a horse in the direction it moves is occupied (蹩马腿).
    HorseLeg,
    /// A horse moves one point straight, then one diagonally outwards.
    HorseMove,
    /// A piece stands in the way of a chariot's or cannon's move.
    Blocked,
    /// A chariot moves along files and ranks.
    ChariotMove,
    /// A cannon captures by jumping over exactly one piece.
    CannonScreen,
    /// A cannon moves along files and ranks.
    CannonMove,
    /// A soldier moves one point forward, and sideways once across the river.
    SoldierMove,
}

impl IllegalMove {
    /// The reason's stable code: `horse_leg`, `generals_facing`, … (the web API sends it, the
    /// page translates it).
    pub const fn code(self) -> &'static str {
        match self {
            IllegalMove::Empty(_) => "empty",
            IllegalMove::NotYourPiece(_) => "not_your_piece",
            IllegalMove::SameSquare => "same_square",
            IllegalMove::OwnPiece => "own_piece",
            IllegalMove::InCheck => "in_check",
            IllegalMove::GeneralsFacing => "generals_facing",
            IllegalMove::ExposesGeneral => "exposes_general",
            IllegalMove::GeneralMove => "general_move",
            IllegalMove::AdvisorMove => "advisor_move",
            IllegalMove::ElephantRiver => "elephant_river",
            IllegalMove::ElephantEye => "elephant_eye",
            IllegalMove::ElephantMove => "elephant_move",
            IllegalMove::HorseLeg => "horse_leg",
            IllegalMove::HorseMove => "horse_move",
            IllegalMove::Blocked => "blocked",
            IllegalMove::ChariotMove => "chariot_move",
            IllegalMove::CannonScreen => "cannon_screen",
            IllegalMove::CannonMove => "cannon_move",
            IllegalMove::SoldierMove => "soldier_move",
        }
    }

    /// Every code, for tests that check each has a translation.
    pub const CODES: [&'static str; 19] = [
        "empty",
        "not_your_piece",
        "same_square",
        "own_piece",
        "in_check",
        "generals_facing",
        "exposes_general",
        "general_move",
        "advisor_move",
        "elephant_river",
        "elephant_eye",
        "elephant_move",
        "horse_leg",
        "horse_move",
        "blocked",
        "chariot_move",
        "cannon_screen",
        "cannon_move",
        "soldier_move",
    ];
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::Empty(square) => write!(f, "there is no piece on {square}"),
            IllegalMove::NotYourPiece(color) => write!(f, "it is {color}'s turn"),
            IllegalMove::SameSquare => f.write_str("the piece must move"),
            IllegalMove::OwnPiece => f.write_str("a piece cannot capture one of its own side"),
            IllegalMove::InCheck => {
                f.write_str("the general is in check, and this move does not save it")
            }
            IllegalMove::GeneralsFacing => {
                f.write_str("the two generals may not face each other on an open file")
            }
            IllegalMove::ExposesGeneral => {
                f.write_str("this move would leave the general open to capture")
            }
            IllegalMove::GeneralMove => {
                f.write_str("the general moves one point straight and stays in the palace")
            }
            IllegalMove::AdvisorMove => {
                f.write_str("the advisor moves one point diagonally and stays in the palace")
            }
            IllegalMove::ElephantRiver => f.write_str("the elephant may not cross the river"),
            IllegalMove::ElephantEye => f.write_str("the elephant's eye is blocked (塞象眼)"),
            IllegalMove::ElephantMove => {
                f.write_str("the elephant moves exactly two points diagonally")
            }
            IllegalMove::HorseLeg => f.write_str("the horse's leg is blocked (蹩马腿)"),
            IllegalMove::HorseMove => {
                f.write_str("the horse moves one point straight, then one diagonally outwards")
            }
            IllegalMove::Blocked => f.write_str("the way is blocked"),
            IllegalMove::ChariotMove => f.write_str("the chariot moves along files and ranks"),
            IllegalMove::CannonScreen => {
                f.write_str("a cannon captures by jumping over exactly one piece")
            }
            IllegalMove::CannonMove => f.write_str("the cannon moves along files and ranks"),
            IllegalMove::SoldierMove => f.write_str(
                "a soldier moves one point forward, and sideways once it has crossed the river",
            ),
        }
    }
}

impl Position {
    /// Why `m` is illegal here, or `None` if it is legal.
    ///
    /// ```
    /// use xiangqi::{illegal::IllegalMove, Move, Position};
    /// let pos = Position::startpos();
    /// let horse = Move::new("b0".parse().unwrap(), "d1".parse().unwrap());
    /// assert_eq!(pos.why_illegal(horse), Some(IllegalMove::HorseLeg));
    /// assert_eq!(IllegalMove::HorseLeg.code(), "horse_leg");
    /// ```
    pub fn why_illegal(&self, m: Move) -> Option<IllegalMove> {
        if self.is_legal(m) {
            return None;
        }
        let (from, to) = (m.from(), m.to());
        let us = self.side_to_move();
        let Some(piece) = self.piece_at(from) else {
            return Some(IllegalMove::Empty(from));
        };
        if piece.color != us {
            return Some(IllegalMove::NotYourPiece(us));
        }
        if from == to {
            return Some(IllegalMove::SameSquare);
        }
        if self.piece_at(to).is_some_and(|p| p.color == us) {
            return Some(IllegalMove::OwnPiece);
        }
        if self.is_pseudo_legal(m) {
            return Some(self.why_unsafe(m));
        }
        Some(self.why_not_a_move(piece.kind, from, to))
    }

    /// Why a move the piece can make leaves its general in danger.
    fn why_unsafe(&self, m: Move) -> IllegalMove {
        if self.in_check() {
            return IllegalMove::InCheck;
        }
        let mut after = self.clone();
        after.make_move(m);
        if generals_facing(&after) {
            IllegalMove::GeneralsFacing
        } else {
            IllegalMove::ExposesGeneral
        }
    }

    /// Why the piece of `kind` cannot go from `from` to `to` by its own movement rules.
    fn why_not_a_move(&self, kind: PieceKind, from: Square, to: Square) -> IllegalMove {
        let us = self.side_to_move();
        let df = i32::from(to.file()) - i32::from(from.file());
        let dr = i32::from(to.rank()) - i32::from(from.rank());
        let occupied = |f: i32, r: i32| {
            from.offset(f as i8, r as i8)
                .is_some_and(|s| self.piece_at(s).is_some())
        };
        let straight = df == 0 || dr == 0;
        match kind {
            PieceKind::General => IllegalMove::GeneralMove,
            PieceKind::Advisor => IllegalMove::AdvisorMove,
            PieceKind::Elephant if df.abs() == 2 && dr.abs() == 2 => {
                let crosses = match us {
                    Color::Red => to.rank() > 4,
                    Color::Black => to.rank() < 5,
                };
                if crosses {
                    IllegalMove::ElephantRiver
                } else if occupied(df / 2, dr / 2) {
                    IllegalMove::ElephantEye
                } else {
                    IllegalMove::ElephantMove
                }
            }
            PieceKind::Elephant => IllegalMove::ElephantMove,
            PieceKind::Horse if matches!((df.abs(), dr.abs()), (1, 2) | (2, 1)) => {
                let leg = if df.abs() == 2 {
                    (df / 2, 0)
                } else {
                    (0, dr / 2)
                };
                if occupied(leg.0, leg.1) {
                    IllegalMove::HorseLeg
                } else {
                    IllegalMove::HorseMove
                }
            }
            PieceKind::Horse => IllegalMove::HorseMove,
            PieceKind::Chariot if straight => IllegalMove::Blocked,
            PieceKind::Chariot => IllegalMove::ChariotMove,
            PieceKind::Cannon if straight && self.piece_at(to).is_some() => {
                IllegalMove::CannonScreen
            }
            PieceKind::Cannon if straight => IllegalMove::Blocked,
            PieceKind::Cannon => IllegalMove::CannonMove,
            PieceKind::Soldier => IllegalMove::SoldierMove,
        }
    }
}

/// Whether the generals stand on one file with nothing between them.
fn generals_facing(pos: &Position) -> bool {
    let red = pos.general(Color::Red);
    let black = pos.general(Color::Black);
    red.file() == black.file()
        && (red.rank() + 1..black.rank())
            .filter_map(|r| Square::new(red.file(), r))
            .all(|sq| pos.piece_at(sq).is_none())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(fen: Option<&str>, m: &str) -> Option<&'static str> {
        let pos = fen.map_or_else(Position::startpos, |f| {
            Position::from_fen_with(f, crate::fen::Validation::Lenient).unwrap()
        });
        let from = m[..2].parse().unwrap();
        let to = m[2..].parse().unwrap();
        pos.why_illegal(Move::new(from, to)).map(IllegalMove::code)
    }

    #[test]
    fn every_reason_is_named() {
        assert_eq!(code(None, "h2e2"), None);
        assert_eq!(code(None, "e5e6"), Some("empty"));
        assert_eq!(code(None, "h7e7"), Some("not_your_piece"));
        assert_eq!(code(None, "a0a3"), Some("own_piece"));
        assert_eq!(code(None, "a0a5"), Some("blocked"));
        assert_eq!(code(None, "h2h7"), Some("cannon_screen"));
        assert_eq!(code(None, "h2h9"), None);
        assert_eq!(code(None, "b0a2"), None);
        assert_eq!(code(None, "b0d1"), Some("horse_leg"));
        assert_eq!(code(None, "b0c1"), Some("horse_move"));
        assert_eq!(code(None, "c0a2"), None);
        assert_eq!(code(None, "c0e2"), None);
        assert_eq!(code(None, "c0c2"), Some("elephant_move"));
        assert_eq!(code(None, "a3a5"), Some("soldier_move"));
        assert_eq!(code(None, "e0e2"), Some("general_move"));
        assert_eq!(code(None, "d0d2"), Some("advisor_move"));
        assert_eq!(code(None, "a0b1"), Some("chariot_move"));
        assert_eq!(code(None, "h2g4"), Some("cannon_move"));
        let fen = "4k4/9/9/9/9/9/9/9/4A4/4K4 w";
        assert_eq!(code(Some(fen), "e1d2"), Some("generals_facing"));
        let check = "5k3/9/9/9/9/9/9/9/4A4/3Kr4 w";
        assert_eq!(code(Some(check), "e1f2"), Some("in_check"));
        assert_eq!(code(Some(check), "d0d1"), None);
        let eye = "3k5/9/9/9/9/9/9/9/3P5/2B1K4 w";
        assert_eq!(code(Some(eye), "c0e2"), Some("elephant_eye"));
        assert_eq!(code(None, "c0d2"), Some("elephant_move"));
        let over = "4k4/9/9/9/9/9/4B4/9/9/4K4 w";
        assert_eq!(code(Some(over), "e3c5"), Some("elephant_river"));
        for reason in [
            IllegalMove::HorseLeg,
            IllegalMove::Empty(Square::new(0, 0).unwrap()),
        ] {
            assert!(IllegalMove::CODES.contains(&reason.code()));
            assert!(!reason.to_string().is_empty());
        }
    }
}
