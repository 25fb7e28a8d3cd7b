//! One line of GUI text → one typed [`Command`], for both UCCI and UCI.
//!
//! [`parse_line`] is a pure function: it never blocks, never panics and never looks at a board.
//! Moves and FENs stay raw text; the driver checks them against the position it holds.
//!
//! What the two dialects share and where they differ:
//! - Every verb is recognised in either dialect, so a driver can parse the first line (`uci` or
//!   `ucci`) before it knows which protocol the GUI speaks. Verbs the other protocol lacks
//!   (`banmoves`, `probe` in a UCI session, `ucinewgame` in a UCCI one) are harmless to accept.
//! - `setoption` follows the dialect: UCI needs `setoption name X [value Y]`; UCCI sends
//!   `setoption NAME [VALUE]` but the UCI form is accepted too, as no UCCI option is called `name`.
//! - `go` follows the dialect: UCI clocks are `wtime btime winc binc` in milliseconds; UCCI clocks
//!   are `time increment movestogo opptime oppincrement oppmovestogo`, relative to the side to
//!   move, in seconds unless `usemillisec` is on. See [`go`].
//!
//! Keywords are matched exactly, in lower case, as both protocols spell them. Tokens are separated
//! by any run of whitespace (spaces, tabs, a trailing CR); values made of several tokens (UCI
//! option names and values, FENs) come back joined by single spaces.

mod dialect;
mod error;
pub mod go;

#[cfg(test)]
mod go_tests;
#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;

pub use dialect::Dialect;
pub use error::ParseError;

use dialect::Tokens;
pub(crate) use error::shown;
use go::{GoLine, GoParams};

/// A position as `position` and `probe` describe it: a start and the moves played from it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PositionSpec {
    /// The FEN's fields (one to six, not validated) joined by single spaces, or `None` for
    /// `startpos`. UCCI GUIs send the position after the last capture here.
    pub fen: Option<String>,
    /// The tokens after `moves`, as sent: ICCS squares like `h2e2`, or after
    /// `setoption name UCI_Variant value xiangqi` Fairy-Stockfish's ranks 1–10 (`h3e3`, `a10a9`).
    /// Empty when `moves` is absent or has nothing after it.
    pub moves: Vec<String>,
}

/// One command from the GUI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `uci`: the GUI speaks UCI; answer `id …`, `option …`, `uciok`.
    Uci,
    /// `ucci`: the GUI speaks UCCI; answer `id …`, `option …`, `ucciok`.
    Ucci,
    /// UCI `debug on` / `debug off`.
    Debug(bool),
    /// `isready`: answer `readyok`.
    IsReady,
    /// UCI `setoption name X [value Y]` or UCCI `setoption NAME [VALUE]`.
    SetOption {
        /// The option's name as sent (UCI names may hold spaces: `Clear Hash`); UCI GUIs may use
        /// any case, so compare without regard to it.
        name: String,
        /// The value, `None` when none was sent (buttons like `Clear Hash`, UCCI's
        /// `setoption newgame`); `Some("")` for UCI `value` with nothing after it.
        value: Option<String>,
    },
    /// UCI `register …`: accepted and ignored, whatever follows.
    Register,
    /// `ucinewgame` (UCI). UCCI GUIs say `setoption newgame` instead; the verb is accepted anyway.
    NewGame,
    /// `position {startpos | fen FEN} [moves …]`.
    Position(PositionSpec),
    /// UCCI `banmoves m1 m2 …`: moves forbidden at the root until the next `position`. The list
    /// may be empty. Raw tokens, like [`PositionSpec::moves`].
    BanMoves(Vec<String>),
    /// `go …`: start a search.
    Go(GoParams),
    /// UCI `go perft N`: print a divide of the legal move tree to depth N (on its own thread;
    /// see [`crate::perft`]).
    Perft(u32),
    /// `stop`: end the running search (its `bestmove` follows) or `go perft`; when nothing
    /// runs, it is ignored.
    Stop,
    /// `ponderhit [draw]`: the opponent played the pondered move; the clock now runs.
    PonderHit {
        /// UCCI `ponderhit draw`: the opponent also offers a draw.
        draw: bool,
    },
    /// UCCI `probe {startpos | fen FEN} [moves …]`: report the hash table's entry for that position
    /// (`pophash …`); a debugging aid.
    Probe(PositionSpec),
    /// `d`: print the board (a Stockfish habit, not part of either protocol).
    Display,
    /// `eval`: print the static evaluation (a Stockfish habit, not part of either protocol).
    Eval,
    /// `quit`: exit (UCCI: after answering `bye`).
    Quit,
}

/// Parses one line from the GUI.
///
/// `ucci_millis` is UCCI's `usemillisec` setting: when true, UCCI `go` times are milliseconds,
/// otherwise seconds. UCI times are always milliseconds and ignore it.
///
/// Returns `Ok(None)` for a line with nothing but whitespace. A byte order mark (U+FEFF) before
/// the first word is dropped: some Windows GUIs write one at the start of their output.
///
/// Every error's `Display` is one line of English, suitable for `info string …`; offending text
/// in it is shortened and its control characters escaped.
pub fn parse_line(
    line: &str,
    dialect: Dialect,
    ucci_millis: bool,
) -> Result<Option<Command>, ParseError> {
    let line = line.trim_start().trim_start_matches('\u{feff}');
    let mut tokens = line.split_whitespace().peekable();
    let Some(verb) = tokens.next() else {
        return Ok(None);
    };
    let command = match verb {
        "uci" => Command::Uci,
        "ucci" => Command::Ucci,
        "debug" => Command::Debug(parse_debug(&mut tokens)?),
        "isready" => Command::IsReady,
        "setoption" => parse_setoption(&mut tokens, dialect)?,
        "register" => {
            tokens.by_ref().for_each(drop);
            Command::Register
        }
        "ucinewgame" => Command::NewGame,
        "position" => Command::Position(parse_position("`position`", &mut tokens)?),
        "banmoves" => Command::BanMoves(tokens.by_ref().map(str::to_owned).collect()),
        "go" => match go::parse_go(&mut tokens, dialect, ucci_millis)? {
            GoLine::Search(params) => Command::Go(params),
            GoLine::Perft(depth) => Command::Perft(depth),
        },
        "stop" => Command::Stop,
        "ponderhit" => Command::PonderHit {
            draw: tokens.next_if_eq(&"draw").is_some(),
        },
        "probe" => Command::Probe(parse_position("`probe`", &mut tokens)?),
        "d" => Command::Display,
        "eval" => Command::Eval,
        "quit" => Command::Quit,
        _ => return Err(ParseError::UnknownCommand(shown(verb))),
    };
    match tokens.next() {
        None => Ok(Some(command)),
        Some(token) => Err(ParseError::UnexpectedToken {
            after: shown(verb),
            token: shown(token),
        }),
    }
}

/// `debug on` / `debug off`.
fn parse_debug(tokens: &mut Tokens) -> Result<bool, ParseError> {
    match tokens.next() {
        Some("on") => Ok(true),
        Some("off") => Ok(false),
        found => Err(ParseError::Expected {
            expected: "`on` or `off`",
            after: "`debug`",
            found: found.map(shown),
        }),
    }
}

/// The words after `setoption`: UCI's `name X [value Y]` or UCCI's `NAME [VALUE]`.
fn parse_setoption(tokens: &mut Tokens, dialect: Dialect) -> Result<Command, ParseError> {
    match tokens.next() {
        None => Err(ParseError::MissingValue("setoption")),
        Some("name") => {
            let mut name = String::new();
            while let Some(word) = tokens.next_if(|&t| t != "value") {
                push_word(&mut name, word);
            }
            if name.is_empty() {
                return Err(ParseError::MissingValue("name"));
            }
            let value = tokens.next().map(|_value_keyword| join_rest(tokens));
            Ok(Command::SetOption { name, value })
        }
        Some(name) if dialect == Dialect::Ucci => {
            let value = tokens.peek().is_some().then(|| join_rest(tokens));
            Ok(Command::SetOption {
                name: name.to_owned(),
                value,
            })
        }
        Some(found) => Err(ParseError::Expected {
            expected: "`name`",
            after: "`setoption`",
            found: Some(shown(found)),
        }),
    }
}

/// The most fields a FEN has: placement, side, two unused `-`, half-move clock, move number.
const FEN_FIELDS: usize = 6;

/// `{startpos | fen FEN} [moves …]`, after `position` or `probe` (`command`, for messages).
fn parse_position(command: &'static str, tokens: &mut Tokens) -> Result<PositionSpec, ParseError> {
    let fen = match tokens.next() {
        Some("startpos") => None,
        Some("fen") => {
            let mut fen = String::new();
            for _ in 0..FEN_FIELDS {
                match tokens.next_if(|&t| t != "moves") {
                    Some(field) => push_word(&mut fen, field),
                    None => break,
                }
            }
            if fen.is_empty() {
                return Err(ParseError::MissingValue("fen"));
            }
            Some(fen)
        }
        found => {
            return Err(ParseError::Expected {
                expected: "`startpos` or `fen`",
                after: command,
                found: found.map(shown),
            })
        }
    };
    let moves = match tokens.next() {
        None => Vec::new(),
        Some("moves") => tokens.by_ref().map(str::to_owned).collect(),
        Some(found) => {
            return Err(ParseError::Expected {
                expected: "`moves`",
                after: if fen.is_some() {
                    "the FEN (it has at most 6 fields)"
                } else {
                    "`startpos`"
                },
                found: Some(shown(found)),
            })
        }
    };
    Ok(PositionSpec { fen, moves })
}

/// Appends `word` to `text`, with a space between words.
fn push_word(text: &mut String, word: &str) {
    if !text.is_empty() {
        text.push(' ');
    }
    text.push_str(word);
}

/// The remaining tokens joined by single spaces (empty when none remain).
fn join_rest(tokens: &mut Tokens) -> String {
    let mut text = String::new();
    for word in tokens {
        push_word(&mut text, word);
    }
    text
}
