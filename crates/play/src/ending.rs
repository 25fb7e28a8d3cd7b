//! How a web game ended: the rules library's outcome (resignation, agreement and time are
//! among its reasons too), or only the result a loaded record states without a reason this
//! program can name, which is kept as stated rather than given an invented one.

use std::fmt;
use xiangqi::{Color, Outcome};

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// An ending with its reason.
    Outcome(Outcome),
    /// A loaded record's result and nothing more: the winner, or `None` for a draw. The
    /// record's own `Termination` text, if it has one, stays among its tags.
    Result(Option<Color>),
}

impl From<Outcome> for Ending {
    fn from(outcome: Outcome) -> Self {
        Ending::Outcome(outcome)
    }
}

impl Ending {
    /// The PGN result: `1-0`, `0-1` or `1/2-1/2`.
    pub fn pgn_result(self) -> &'static str {
        match self {
            Ending::Outcome(outcome) => outcome.pgn_result(),
            Ending::Result(Some(Color::Red)) => "1-0",
            Ending::Result(Some(Color::Black)) => "0-1",
            Ending::Result(None) => "1/2-1/2",
        }
    }

    /// The winner, if any.
    pub fn winner(self) -> Option<Color> {
        match self {
            Ending::Outcome(outcome) => outcome.winner(),
            Ending::Result(winner) => winner,
        }
    }

    /// Why the game ended, as the rules library's code (`checkmate`, `resignation`, …); `None`
    /// for a bare result.
    pub fn code(self) -> Option<&'static str> {
        match self {
            Ending::Outcome(outcome) => Some(outcome.code()),
            Ending::Result(_) => None,
        }
    }
}

impl fmt::Display for Ending {
    /// The outcome's own words (`red wins: checkmate`), or `red wins (as recorded)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ending::Outcome(outcome) => outcome.fmt(f),
            Ending::Result(Some(winner)) => write!(f, "{winner} wins (as recorded)"),
            Ending::Result(None) => f.write_str("draw (as recorded)"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi::WinReason;

    #[test]
    fn a_bare_result_has_no_reason() {
        let resigned = Ending::from(Outcome::Win {
            winner: Color::Black,
            reason: WinReason::Resignation,
        });
        assert_eq!(resigned.pgn_result(), "0-1");
        assert_eq!(resigned.code(), Some("resignation"));
        let bare = Ending::Result(Some(Color::Black));
        assert_eq!(bare.pgn_result(), "0-1");
        assert_eq!(bare.winner(), Some(Color::Black));
        assert_eq!(bare.code(), None);
        assert_eq!(Ending::Result(None).pgn_result(), "1/2-1/2");
        assert_eq!(bare.to_string(), "black wins (as recorded)");
    }
}
