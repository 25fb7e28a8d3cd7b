//! The parameters of `go`, and the clocks in the two dialects' frames.

use super::dialect::{Dialect, Tokens};
use super::error::shown;
use super::error::ParseError;
use std::str::FromStr;
use std::time::Duration;
use xiangqi::Color;

/// How to search, as `go` asked. Every field is optional; `go` alone is a plain
/// `GoParams::default()`, which the driver treats as it sees fit (usually like `infinite`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GoParams {
    /// `ponder`: search on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
    /// `infinite` (also `depth infinite`, which UCCI allows): search until `stop`.
    pub infinite: bool,
    /// `depth N`: search N plies deep. UCCI `depth 0` asks for the static evaluation only.
    pub depth: Option<u32>,
    /// `nodes N`: stop after about N nodes.
    pub nodes: Option<u64>,
    /// UCI `mate N`: look for a mate in N moves.
    pub mate: Option<u32>,
    /// UCI `movetime T`: search exactly T.
    pub movetime: Option<Duration>,
    /// UCI `searchmoves m1 m2 …`: consider only these root moves (raw tokens). Empty means all.
    pub searchmoves: Vec<String>,
    /// The clocks, in the frame the dialect sends them; [`GoParams::clock_for`] resolves them.
    pub clocks: Clocks,
    /// UCCI `draw`: the opponent offers a draw; `bestmove … draw` accepts it.
    pub draw_offered: bool,
    /// `byoyomi T` (as USI writes it, accepted in both dialects): once the side to move's time
    /// is spent, each move may take T.
    pub byoyomi: Option<Duration>,
}

/// The clocks of a `go` command, as sent. Which side is to move is known only to the driver, so UCI
/// clocks stay per colour and UCCI clocks stay relative to the side to move.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Clocks {
    /// No clock keyword was sent (`go depth 10`, `go infinite`).
    #[default]
    NotGiven,
    /// UCI `wtime btime winc binc movestogo`: one clock per colour (`w` is Red). UCI's single
    /// `movestogo` is stored on both sides, as both play the same time control.
    ByColor {
        /// Red's clock (`wtime`, `winc`).
        red: SideClock,
        /// Black's clock (`btime`, `binc`).
        black: SideClock,
    },
    /// UCCI `time increment movestogo opptime oppincrement oppmovestogo`: relative to the side
    /// to move.
    ToMove {
        /// The side to move's clock (`time`, `increment`, `movestogo`).
        own: SideClock,
        /// The other side's clock (`opptime`, `oppincrement`, `oppmovestogo`).
        opponent: SideClock,
    },
}

/// One side's clock, each part as sent or `None`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SideClock {
    /// Time left on the clock.
    pub time: Option<Duration>,
    /// Time added after each move.
    pub inc: Option<Duration>,
    /// Moves until the next time control; `None` means the time is for the rest of the game.
    pub movestogo: Option<u32>,
}

/// One side's clock, resolved for the time manager.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the clock.
    pub time: Duration,
    /// Time added after each move (zero when none was sent).
    pub inc: Duration,
    /// Moves until the next time control; `None` means the time is for the rest of the game.
    pub movestogo: Option<u32>,
}

impl SideClock {
    /// The resolved clock, or `None` when no time was sent for this side.
    pub fn resolve(self) -> Option<Clock> {
        Some(Clock {
            time: self.time?,
            inc: self.inc.unwrap_or(Duration::ZERO),
            movestogo: self.movestogo,
        })
    }
}

impl Clocks {
    /// The clocks of the side to move and of the other side, given who is to move.
    pub fn relative_to(&self, to_move: Color) -> (SideClock, SideClock) {
        match *self {
            Clocks::NotGiven => (SideClock::default(), SideClock::default()),
            Clocks::ByColor { red, black } => match to_move {
                Color::Red => (red, black),
                Color::Black => (black, red),
            },
            Clocks::ToMove { own, opponent } => (own, opponent),
        }
    }
}

impl GoParams {
    /// The clock of the side to move (`to_move`), in either dialect; `None` when the GUI sent no
    /// time for it.
    pub fn clock_for(&self, to_move: Color) -> Option<Clock> {
        self.clocks.relative_to(to_move).0.resolve()
    }

    /// The clock of the side not to move, when `to_move` is to move; `None` when the GUI sent no
    /// time for it. (The tests use it to check both clocks of either dialect.)
    #[cfg(test)]
    pub fn opponent_clock_for(&self, to_move: Color) -> Option<Clock> {
        self.clocks.relative_to(to_move).1.resolve()
    }
}

/// UCI's `go` keywords.
const UCI_WORDS: [&str; 14] = [
    "byoyomi",
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
];

/// UCCI's `go` keywords.
const UCCI_WORDS: [&str; 12] = [
    "byoyomi",
    "ponder",
    "draw",
    "depth",
    "nodes",
    "infinite",
    "time",
    "movestogo",
    "increment",
    "opptime",
    "oppmovestogo",
    "oppincrement",
];

/// `token` as one of `dialect`'s `go` keywords, or `None`.
fn keyword(dialect: Dialect, token: &str) -> Option<&'static str> {
    let words: &[&'static str] = match dialect {
        Dialect::Uci => &UCI_WORDS,
        Dialect::Ucci => &UCCI_WORDS,
    };
    words.iter().copied().find(|&w| w == token)
}

/// The unit of a time value.
#[derive(Debug, Clone, Copy)]
pub(super) enum TimeUnit {
    /// UCCI without `usemillisec`.
    Seconds,
    /// UCI, and UCCI with `usemillisec`.
    Millis,
}

/// What a `go` line asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum GoLine {
    /// A search ([`Command::Go`](super::Command::Go)).
    Search(GoParams),
    /// UCI `go perft N` ([`Command::Perft`](super::Command::Perft)).
    Perft(u32),
}

/// The words after `go`: a search, or a perft for UCI `go perft N`.
///
/// Parameters may come in any order; a repeated one keeps its last value.
pub(super) fn parse_go(
    tokens: &mut Tokens,
    dialect: Dialect,
    ucci_millis: bool,
) -> Result<GoLine, ParseError> {
    let unit = match dialect {
        Dialect::Ucci if !ucci_millis => TimeUnit::Seconds,
        _ => TimeUnit::Millis,
    };
    let mut go = GoParams::default();
    // Red's and Black's clocks in UCI, own and opponent's in UCCI.
    let (mut first, mut second) = (SideClock::default(), SideClock::default());
    let mut alone = true;
    while let Some(token) = tokens.next() {
        let Some(word) = keyword(dialect, token) else {
            return Err(ParseError::UnknownGoParameter {
                token: shown(token),
                dialect,
            });
        };
        let value = Value {
            keyword: word,
            dialect,
        };
        match word {
            "ponder" => go.ponder = true,
            "draw" => go.draw_offered = true,
            "infinite" => go.infinite = true,
            "depth" if tokens.next_if_eq(&"infinite").is_some() => go.infinite = true,
            "depth" => go.depth = Some(value.count(tokens)?),
            "nodes" => go.nodes = Some(value.count(tokens)?),
            "mate" => go.mate = Some(value.count(tokens)?),
            "movetime" => go.movetime = Some(value.duration(tokens, unit)?),
            "byoyomi" => go.byoyomi = Some(value.duration(tokens, unit)?),
            "wtime" | "time" => first.time = Some(value.duration(tokens, unit)?),
            "btime" | "opptime" => second.time = Some(value.duration(tokens, unit)?),
            "winc" | "increment" => first.inc = Some(value.duration(tokens, unit)?),
            "binc" | "oppincrement" => second.inc = Some(value.duration(tokens, unit)?),
            "movestogo" => {
                first.movestogo = Some(value.count(tokens)?);
                if dialect == Dialect::Uci {
                    second.movestogo = first.movestogo;
                }
            }
            "oppmovestogo" => second.movestogo = Some(value.count(tokens)?),
            "searchmoves" => {
                // The moves run up to the next keyword or the end of the line.
                let mut moves = Vec::new();
                while let Some(m) = tokens.next_if(|&t| keyword(dialect, t).is_none()) {
                    moves.push(m.to_owned());
                }
                if moves.is_empty() {
                    return Err(ParseError::MissingValue(word));
                }
                go.searchmoves = moves;
            }
            "perft" => {
                let depth = value.count(tokens)?;
                if alone && tokens.peek().is_none() {
                    return Ok(GoLine::Perft(depth));
                }
                return Err(ParseError::PerftNotAlone);
            }
            _ => {
                return Err(ParseError::UnknownGoParameter {
                    token: shown(token),
                    dialect,
                })
            }
        }
        alone = false;
    }
    if first != SideClock::default() || second != SideClock::default() {
        go.clocks = match dialect {
            Dialect::Uci => Clocks::ByColor {
                red: first,
                black: second,
            },
            Dialect::Ucci => Clocks::ToMove {
                own: first,
                opponent: second,
            },
        };
    }
    Ok(GoLine::Search(go))
}

/// The value that follows a `go` keyword.
struct Value {
    keyword: &'static str,
    dialect: Dialect,
}

impl Value {
    /// The next token, unless the line ends or the next token is itself a keyword.
    fn text<'a>(&self, tokens: &mut Tokens<'a>) -> Result<&'a str, ParseError> {
        tokens
            .next_if(|&t| keyword(self.dialect, t).is_none())
            .ok_or(ParseError::MissingValue(self.keyword))
    }

    /// An unsigned integer in the range of `T`.
    fn count<T: FromStr>(&self, tokens: &mut Tokens) -> Result<T, ParseError> {
        let text = self.text(tokens)?;
        text.parse().map_err(|_| self.invalid(text))
    }

    /// A time in `unit`s, see [`parse_duration`].
    fn duration(&self, tokens: &mut Tokens, unit: TimeUnit) -> Result<Duration, ParseError> {
        let text = self.text(tokens)?;
        parse_duration(text, unit).ok_or_else(|| self.invalid(text))
    }

    fn invalid(&self, text: &str) -> ParseError {
        ParseError::InvalidNumber {
            keyword: self.keyword,
            value: shown(text),
        }
    }
}

/// A time: an optional sign, digits, optionally a `.` and more digits (`300000`, `12.5`, `-50`).
///
/// Negative times (some GUIs send `wtime -50` when the engine is already late) become zero.
/// Digits beyond a nanosecond are dropped; times too long for a `Duration` saturate to
/// `Duration::MAX`. `None` for anything else (`1e3`, `inf`, `0x10`, `.`, empty).
pub(super) fn parse_duration(text: &str, unit: TimeUnit) -> Option<Duration> {
    const NANOS_PER_SEC: u128 = 1_000_000_000;
    let (negative, magnitude) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let (whole, fraction) = magnitude.split_once('.').unwrap_or((magnitude, ""));
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.len() + fraction.len() == 0 || !all_digits(whole) || !all_digits(fraction) {
        return None;
    }
    if negative {
        return Some(Duration::ZERO);
    }
    let unit_nanos: u128 = match unit {
        TimeUnit::Seconds => NANOS_PER_SEC,
        TimeUnit::Millis => 1_000_000,
    };
    let mut units: u128 = 0;
    for b in whole.bytes() {
        units = units
            .saturating_mul(10)
            .saturating_add(u128::from(b - b'0'));
    }
    let mut nanos = units.saturating_mul(unit_nanos);
    let mut scale = unit_nanos;
    for b in fraction.bytes() {
        scale /= 10;
        if scale == 0 {
            break;
        }
        nanos = nanos.saturating_add(u128::from(b - b'0') * scale);
    }
    let secs = u64::try_from(nanos / NANOS_PER_SEC).ok();
    // The remainder is below 10⁹, so it always fits in a u32.
    let subsec = u32::try_from(nanos % NANOS_PER_SEC).unwrap_or(0);
    Some(secs.map_or(Duration::MAX, |s| Duration::new(s, subsec)))
}
