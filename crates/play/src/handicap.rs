//! Handicap games (让子): the stronger side starts without some of its pieces, or lets the
//! weaker side move first.

use crate::game::Human;
use serde::Deserialize;
use xiangqi::{Color, Position};

/// The traditional odds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Handicap {
    /// An ordinary game.
    None,
    /// Without the left horse (让单马).
    Horse,
    /// Without both horses (让双马).
    TwoHorses,
    /// Without the left chariot (让单车).
    Chariot,
    /// Without the left chariot and the left horse (让车马).
    ChariotHorse,
    /// The weaker side moves first, playing Red (让先).
    FirstMove,
}

/// Who gives the odds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Giver {
    /// The computer is the stronger side.
    Computer,
    /// The person is.
    You,
}

impl Handicap {
    /// The name in the PGN's `Handicap` tag and the API.
    pub fn name(self) -> &'static str {
        match self {
            Handicap::None => "none",
            Handicap::Horse => "horse",
            Handicap::TwoHorses => "two-horses",
            Handicap::Chariot => "chariot",
            Handicap::ChariotHorse => "chariot-horse",
            Handicap::FirstMove => "first-move",
        }
    }

    /// The side the person plays: the side chosen (Red if none), except that in a first-move
    /// handicap the weaker side plays Red, so the giver decides it; a choice that says
    /// otherwise is refused with the reason, never changed.
    pub fn human(self, chosen: Option<Human>, giver: Giver) -> Result<Human, String> {
        let given = match (self, giver) {
            (Handicap::FirstMove, Giver::Computer) => Human::Red,
            (Handicap::FirstMove, Giver::You) => Human::Black,
            _ => return Ok(chosen.unwrap_or(Human::Red)),
        };
        match chosen {
            None => Ok(given),
            Some(side) if side == given => Ok(side),
            Some(_) if given == Human::Red => {
                Err("when the computer gives the first move (让先), \
                 you are the weaker side and play Red, which moves first: choose Red"
                    .into())
            }
            Some(_) => Err(
                "when you give the first move (让先), the computer plays Red, which \
                 moves first, and you play Black: choose Black"
                    .into(),
            ),
        }
    }

    /// The start position when `giver_side` gives these odds. The pieces removed are the
    /// giver's left ones as its player sees the board: Red's on files a and b, Black's on
    /// files i and h.
    pub fn start(self, giver_side: Color) -> Position {
        let red = match self {
            Handicap::Horse => "R1BAKABNR",
            Handicap::TwoHorses => "R1BAKAB1R",
            Handicap::Chariot => "1NBAKABNR",
            Handicap::ChariotHorse => "2BAKABNR",
            Handicap::None | Handicap::FirstMove => "RNBAKABNR",
        };
        let black = match self {
            Handicap::Horse => "rnbakab1r",
            Handicap::TwoHorses => "r1bakab1r",
            Handicap::Chariot => "rnbakabn1",
            Handicap::ChariotHorse => "rnbakab2",
            Handicap::None | Handicap::FirstMove => "rnbakabnr",
        };
        let (red, black) = match giver_side {
            Color::Red => (red, "rnbakabnr"),
            Color::Black => ("RNBAKABNR", black),
        };
        let fen = format!("{black}/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/{red} w - - 0 1");
        Position::from_fen(&fen).unwrap_or_else(|_| Position::startpos())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi::{PieceKind, Square};

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn the_givers_left_pieces_are_removed() {
        let red_gives = Handicap::ChariotHorse.start(Color::Red);
        assert!(red_gives.piece_at(sq("a0")).is_none());
        assert!(red_gives.piece_at(sq("b0")).is_none());
        assert_eq!(
            red_gives.pieces(Color::Black, PieceKind::Chariot).count(),
            2
        );
        let black_gives = Handicap::Horse.start(Color::Black);
        assert!(black_gives.piece_at(sq("h9")).is_none());
        assert_eq!(
            black_gives.pieces(Color::Black, PieceKind::Horse).count(),
            1
        );
        assert_eq!(black_gives.pieces(Color::Red, PieceKind::Horse).count(), 2);
        let two = Handicap::TwoHorses.start(Color::Black);
        assert_eq!(two.pieces(Color::Black, PieceKind::Horse).count(), 0);
        assert_eq!(
            Handicap::FirstMove.start(Color::Red).to_fen(),
            Position::startpos().to_fen()
        );
    }

    #[test]
    fn the_weaker_side_takes_the_first_move_and_another_choice_is_refused() {
        let first = Handicap::FirstMove;
        assert_eq!(first.human(None, Giver::Computer), Ok(Human::Red));
        assert_eq!(
            first.human(Some(Human::Red), Giver::Computer),
            Ok(Human::Red)
        );
        assert_eq!(first.human(None, Giver::You), Ok(Human::Black));
        assert!(first
            .human(Some(Human::Black), Giver::Computer)
            .is_err_and(|e| e.contains("choose Red")));
        assert!(first
            .human(Some(Human::Red), Giver::You)
            .is_err_and(|e| e.contains("choose Black")));
        assert_eq!(
            Handicap::Horse.human(Some(Human::Black), Giver::Computer),
            Ok(Human::Black)
        );
        assert_eq!(Handicap::None.human(None, Giver::Computer), Ok(Human::Red));
    }
}
