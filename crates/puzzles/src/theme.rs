//! What a puzzle is about: a closed set of themes, each with the one name files and pages use.

use std::fmt;
use std::str::FromStr;

/// Mates longer than this are tagged [`Theme::Mate`] without a `mateInN` theme.
pub const LONGEST_NAMED_MATE: u8 = 7;

/// One theme of a puzzle. The tagger ([`crate::tag`]) decides them from the position and the
/// solution alone, so a file's themes can always be recomputed; [`Theme::Classic`] and
/// [`Theme::Draw`] say where a puzzle comes from and what it asks, and the tagger keeps them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Theme {
    /// The solution ends in mate (or in the defender left without a move, which also loses).
    Mate,
    /// Mate in this many of the solver's moves (1 to [`LONGEST_NAMED_MATE`]).
    MateIn(u8),
    /// The solution wins material: at its end the solver is ahead by at least a horse more than
    /// at its start.
    Material,
    /// One solver move attacks two of the defender's pieces (or checks and attacks one), and
    /// one of them is won.
    Fork,
    /// A defender's piece cannot move away without exposing its general or a more valuable
    /// piece behind it, and the solution wins it.
    Pin,
    /// A solver move uncovers an attack by another piece (a chariot's or cannon's line, or a
    /// horse's leg).
    DiscoveredAttack,
    /// A solver move gives check with two pieces at once.
    DoubleCheck,
    /// The solver gives up material on the way (a piece left or put where it is lost).
    Sacrifice,
    /// A defender's piece is attacked and every square it can go to loses it as well.
    TrappedPiece,
    /// 重炮: mate by a cannon whose screen is the solver's other cannon.
    DoubleCannonMate,
    /// 马后炮: mate by a cannon whose screen is the solver's horse, which also guards the
    /// general's way out.
    HorseCannonMate,
    /// 闷宫: mate by a cannon with the general hemmed in by its own advisors.
    SmotheredMate,
    /// 对面笑: the solver's own general takes a file from the mated general (the rule that the
    /// generals may not face each other).
    FacingGenerals,
    /// Few pieces left: each side has at most two attacking pieces (chariots, horses, cannons,
    /// soldiers across the river count).
    Endgame,
    /// The solver makes one move.
    OneMove,
    /// The solver makes two moves.
    Short,
    /// The solver makes three moves.
    Long,
    /// The solver makes four moves or more.
    VeryLong,
    /// A classic composed endgame (排局) from the old books ([`crate::classic`]).
    Classic,
    /// The solver's goal is to hold the draw, not to win.
    Draw,
}

impl Theme {
    /// The theme's name in files and pages (`mateIn2`, `fork`, `doubleCannonMate`).
    pub fn name(self) -> String {
        match self {
            Theme::MateIn(n) => format!("mateIn{n}"),
            other => other.fixed_name().to_string(),
        }
    }

    fn fixed_name(self) -> &'static str {
        match self {
            Theme::Mate => "mate",
            Theme::MateIn(_) => "mateIn",
            Theme::Material => "material",
            Theme::Fork => "fork",
            Theme::Pin => "pin",
            Theme::DiscoveredAttack => "discoveredAttack",
            Theme::DoubleCheck => "doubleCheck",
            Theme::Sacrifice => "sacrifice",
            Theme::TrappedPiece => "trappedPiece",
            Theme::DoubleCannonMate => "doubleCannonMate",
            Theme::HorseCannonMate => "horseCannonMate",
            Theme::SmotheredMate => "smotheredMate",
            Theme::FacingGenerals => "facingGenerals",
            Theme::Endgame => "endgame",
            Theme::OneMove => "oneMove",
            Theme::Short => "short",
            Theme::Long => "long",
            Theme::VeryLong => "veryLong",
            Theme::Classic => "classic",
            Theme::Draw => "draw",
        }
    }

    /// Every theme without a number, in declaration order (the `mateInN` themes are
    /// [`Theme::MateIn`] with 1 to [`LONGEST_NAMED_MATE`]).
    pub const FIXED: [Theme; 19] = [
        Theme::Mate,
        Theme::Material,
        Theme::Fork,
        Theme::Pin,
        Theme::DiscoveredAttack,
        Theme::DoubleCheck,
        Theme::Sacrifice,
        Theme::TrappedPiece,
        Theme::DoubleCannonMate,
        Theme::HorseCannonMate,
        Theme::SmotheredMate,
        Theme::FacingGenerals,
        Theme::Endgame,
        Theme::OneMove,
        Theme::Short,
        Theme::Long,
        Theme::VeryLong,
        Theme::Classic,
        Theme::Draw,
    ];
}

impl fmt::Display for Theme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// A theme name no theme has.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown theme \"{0}\"")]
pub struct UnknownTheme(pub String);

impl FromStr for Theme {
    type Err = UnknownTheme;

    fn from_str(text: &str) -> Result<Theme, UnknownTheme> {
        if let Some(digits) = text.strip_prefix("mateIn") {
            // One spelling per theme: `mateIn02` and `mateIn+2` are refused.
            return digits
                .parse::<u8>()
                .ok()
                .filter(|n| (1..=LONGEST_NAMED_MATE).contains(n) && n.to_string() == digits)
                .map(Theme::MateIn)
                .ok_or_else(|| UnknownTheme(text.to_string()));
        }
        Theme::FIXED
            .into_iter()
            .find(|t| t.fixed_name() == text)
            .ok_or_else(|| UnknownTheme(text.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_theme_reads_back_from_its_name() {
        let numbered = (1..=LONGEST_NAMED_MATE).map(Theme::MateIn);
        for theme in Theme::FIXED.into_iter().chain(numbered) {
            assert_eq!(theme.name().parse::<Theme>(), Ok(theme));
        }
    }

    #[test]
    fn names_outside_the_set_are_refused() {
        for bad in [
            "", "Fork", "mateIn0", "mateIn8", "mateIn02", "mateIn", "mateInx", "mateIn",
        ] {
            assert_eq!(
                bad.parse::<Theme>(),
                Err(UnknownTheme(bad.to_string())),
                "{bad}"
            );
        }
    }
}
