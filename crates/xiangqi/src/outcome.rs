//! How a game ended: who won and why, or why it was drawn, with the codes and words the
//! records and the GUI use for each. [`crate::game`] decides the outcome; the repetition rules
//! ([`crate::repetition`]) name one too; both sit above this file.

use crate::piece::Color;
use std::fmt;

/// Why a side won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WinReason {
    /// The loser is in check with no legal move.
    Checkmate,
    /// The loser is not in check but has no legal move (a loss in Xiangqi).
    Stalemate,
    /// The loser checked with every move of a repetition.
    PerpetualCheck,
    /// The loser chased with every move of a repetition.
    PerpetualChase,
    /// The loser resigned.
    Resignation,
    /// The loser ran out of time.
    Timeout,
    /// The loser made an illegal move (match adjudication).
    IllegalMove,
}

/// Why the game was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawReason {
    /// A position occurred for the third time and neither side was forcing (or both were).
    Repetition,
    /// 120 plies without a capture.
    NoCaptureLimit,
    /// Neither side has a chariot, horse, cannon or soldier.
    InsufficientMaterial,
    /// The players agreed.
    Agreement,
    /// A side ran out of time, but the other side has nothing left that could ever mate.
    TimeoutAgainstBareMaterial,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// One side won.
    Win {
        /// The winner.
        winner: Color,
        /// Why.
        reason: WinReason,
    },
    /// A draw.
    Draw(DrawReason),
}

impl WinReason {
    /// The reason's stable code (`perpetual_check`, …): what programs exchange and the web page
    /// translates.
    pub const fn code(self) -> &'static str {
        match self {
            WinReason::Checkmate => "checkmate",
            WinReason::Stalemate => "stalemate",
            WinReason::PerpetualCheck => "perpetual_check",
            WinReason::PerpetualChase => "perpetual_chase",
            WinReason::Resignation => "resignation",
            WinReason::Timeout => "timeout",
            WinReason::IllegalMove => "illegal_move",
        }
    }

    /// Every reason, in declaration order.
    pub const ALL: [WinReason; 7] = [
        WinReason::Checkmate,
        WinReason::Stalemate,
        WinReason::PerpetualCheck,
        WinReason::PerpetualChase,
        WinReason::Resignation,
        WinReason::Timeout,
        WinReason::IllegalMove,
    ];

    /// Lower-case English description.
    pub const fn describe(self) -> &'static str {
        match self {
            WinReason::Checkmate => "checkmate",
            WinReason::Stalemate => "stalemate",
            WinReason::PerpetualCheck => "perpetual check",
            WinReason::PerpetualChase => "perpetual chase",
            WinReason::Resignation => "resignation",
            WinReason::Timeout => "time forfeit",
            WinReason::IllegalMove => "illegal move",
        }
    }
}

impl DrawReason {
    /// The reason's stable code (`no_capture_limit`, …), see [`WinReason::code`].
    pub const fn code(self) -> &'static str {
        match self {
            DrawReason::Repetition => "repetition",
            DrawReason::NoCaptureLimit => "no_capture_limit",
            DrawReason::InsufficientMaterial => "insufficient_material",
            DrawReason::Agreement => "agreement",
            DrawReason::TimeoutAgainstBareMaterial => "timeout_against_bare_material",
        }
    }

    /// Every reason, in declaration order.
    pub const ALL: [DrawReason; 5] = [
        DrawReason::Repetition,
        DrawReason::NoCaptureLimit,
        DrawReason::InsufficientMaterial,
        DrawReason::Agreement,
        DrawReason::TimeoutAgainstBareMaterial,
    ];

    /// Lower-case English description.
    pub const fn describe(self) -> &'static str {
        match self {
            DrawReason::Repetition => "repetition",
            DrawReason::NoCaptureLimit => "120 plies without capture",
            DrawReason::InsufficientMaterial => "insufficient material",
            DrawReason::Agreement => "agreement",
            DrawReason::TimeoutAgainstBareMaterial => "time forfeit against insufficient material",
        }
    }
}

impl Outcome {
    /// The code of why the game ended (see [`WinReason::code`]).
    pub const fn code(self) -> &'static str {
        match self {
            Outcome::Win { reason, .. } => reason.code(),
            Outcome::Draw(reason) => reason.code(),
        }
    }

    /// Reads an outcome's code back, with the winner given for wins (`None` for a draw).
    pub fn from_code(code: &str, winner: Option<Color>) -> Option<Outcome> {
        match winner {
            Some(winner) => WinReason::ALL
                .into_iter()
                .find(|r| r.code() == code)
                .map(|reason| Outcome::Win { winner, reason }),
            None => DrawReason::ALL
                .into_iter()
                .find(|r| r.code() == code)
                .map(Outcome::Draw),
        }
    }

    /// The PGN result: `1-0`, `0-1` or `1/2-1/2`.
    pub const fn pgn_result(self) -> &'static str {
        match self {
            Outcome::Win {
                winner: Color::Red, ..
            } => "1-0",
            Outcome::Win {
                winner: Color::Black,
                ..
            } => "0-1",
            Outcome::Draw(_) => "1/2-1/2",
        }
    }

    /// The winner, if any.
    pub const fn winner(self) -> Option<Color> {
        match self {
            Outcome::Win { winner, .. } => Some(winner),
            Outcome::Draw(_) => None,
        }
    }
}

impl fmt::Display for Outcome {
    /// `red wins: checkmate`, `black wins: perpetual check`, `draw: repetition`, …
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win { winner, reason } => write!(f, "{winner} wins: {}", reason.describe()),
            Outcome::Draw(reason) => write!(f, "draw: {}", reason.describe()),
        }
    }
}
