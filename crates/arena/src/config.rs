//! Engine specifications: `--engine "name=A cmd=./engine proto=uci tc=movetime:1000 option.Hash=64"`.
//!
//! A specification is one string of `key=value` pairs separated by white space, like
//! cutechess-cli's `-engine` options. Single or double quotes group text that holds spaces
//! (`cmd="/opt/my engine/xq"`, `"option.Move Overhead=50"`); quotes may stand anywhere in a
//! token, as in a shell.

use std::fmt;
use std::time::Duration;

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// UCI as Pikafish and Fairy-Stockfish speak it.
    Uci,
    /// UCCI, ElephantEye's protocol.
    Ucci,
}

/// How long an engine may think about each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// `movetime:MS`: a fixed time per move.
    MoveTime(Duration),
    /// `depth:N`: a fixed search depth.
    Depth(u32),
    /// `nodes:N`: a fixed number of nodes.
    Nodes(u64),
    /// `clock:BASE+INC`: BASE seconds for the game plus INC seconds after each move; or
    /// `clock:N/BASE+INC`: BASE seconds for each N moves, added again after every N moves; with
    /// `bBYO` after either (`clock:10b1`), a byo-yomi period of BYO seconds: once the time is
    /// spent, each move within BYO.
    Clock {
        /// Time on the clock at the start (and at the start of every period).
        base: Duration,
        /// Time added after each move.
        inc: Duration,
        /// Moves per period; `None` when BASE is for the whole game.
        moves: Option<u32>,
        /// Byo-yomi period (zero: none).
        byoyomi: Duration,
    },
}

impl fmt::Display for TimeControl {
    /// The form [`parse_time_control`] reads: `movetime:1000`, `depth:8`, `clock:60+0.5`,
    /// `clock:40/60+0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::MoveTime(t) => write!(f, "movetime:{}", t.as_millis()),
            TimeControl::Depth(d) => write!(f, "depth:{d}"),
            TimeControl::Nodes(n) => write!(f, "nodes:{n}"),
            TimeControl::Clock {
                base,
                inc,
                moves,
                byoyomi,
            } => {
                f.write_str("clock:")?;
                if let Some(n) = moves {
                    write!(f, "{n}/")?;
                }
                write!(f, "{}+{}", base.as_secs_f64(), inc.as_secs_f64())?;
                if !byoyomi.is_zero() {
                    write!(f, "b{}", byoyomi.as_secs_f64())?;
                }
                Ok(())
            }
        }
    }
}

/// Everything needed to start and drive one engine.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    /// Name in progress lines, results and PGN tags.
    pub name: String,
    /// The program to run.
    pub cmd: String,
    /// Its command-line arguments.
    pub args: Vec<String>,
    /// UCI or UCCI.
    pub protocol: Protocol,
    /// `setoption` name/value pairs sent after the handshake, in order.
    pub options: Vec<(String, String)>,
    /// Send `UCI_Variant xiangqi` and write moves with ranks 1–10 (Fairy-Stockfish).
    pub uci_variant: bool,
    /// The time control.
    pub tc: TimeControl,
    /// Think on the opponent's time (`go ponder` on the expected reply); clocks only.
    pub ponder: bool,
}

/// Why a specification could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// A quote was opened and never closed.
    #[error("unclosed quote in {0:?}")]
    UnclosedQuote(String),
    /// A token without `=`.
    #[error("{0:?} is not key=value")]
    NotKeyValue(String),
    /// A key this tool does not know.
    #[error("unknown key {0:?} (known: name cmd args proto tc ponder uci-variant option.NAME)")]
    UnknownKey(String),
    /// A value that does not fit its key.
    #[error("bad value {value:?} for {key}: {expected}")]
    BadValue {
        /// The key.
        key: String,
        /// The value given.
        value: String,
        /// What was expected.
        expected: &'static str,
    },
    /// No `cmd=`.
    #[error("no cmd= (the engine program) in {0:?}")]
    MissingCmd(String),
    /// No `tc=` here nor in `--each`.
    #[error("no tc= (time control) for engine {0}: give one in --engine or --each")]
    MissingTimeControl(String),
    /// `ponder=true` with a time control that has no clock.
    #[error(
        "engine {name}: ponder=true needs a clock (tc=clock:…), not tc={tc}: a pondering engine \
         thinks while its opponent does, which only a clock keeps fair"
    )]
    PonderWithoutClock {
        /// The engine.
        name: String,
        /// Its time control.
        tc: TimeControl,
    },
}

/// Splits `text` into tokens at unquoted white space, removing the quotes.
pub fn tokenize(text: &str) -> Result<Vec<String>, SpecError> {
    let mut tokens = Vec::new();
    let mut current = String::new();
    // Whether `current` is a token even if empty (`args=""` gives `args=`).
    let mut started = false;
    let mut quote: Option<char> = None;
    for c in text.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => current.push(c),
            None if c == '"' || c == '\'' => {
                quote = Some(c);
                started = true;
            }
            None if c.is_whitespace() => {
                if started {
                    tokens.push(std::mem::take(&mut current));
                    started = false;
                }
            }
            None => {
                current.push(c);
                started = true;
            }
        }
    }
    if quote.is_some() {
        return Err(SpecError::UnclosedQuote(text.to_string()));
    }
    if started {
        tokens.push(current);
    }
    Ok(tokens)
}

/// Reads a time control: `movetime:MS`, `depth:N`, `nodes:N` or `clock:[MOVES/]BASE[+INC]`
/// (seconds, decimals allowed).
pub fn parse_time_control(text: &str) -> Result<TimeControl, SpecError> {
    let bad = |expected| SpecError::BadValue {
        key: "tc".to_string(),
        value: text.to_string(),
        expected,
    };
    const SHAPES: &str =
        "movetime:MS, depth:N, nodes:N, clock:SECONDS+INCREMENT or clock:MOVES/SECONDS+INCREMENT";
    let (kind, value) = text.split_once(':').ok_or_else(|| bad(SHAPES))?;
    let seconds = |s: &str| {
        s.parse::<f64>()
            .ok()
            .filter(|v| v.is_finite() && *v >= 0.0 && *v < 1e9)
            .map(Duration::from_secs_f64)
    };
    match kind.to_ascii_lowercase().as_str() {
        "movetime" => match value.parse::<u64>() {
            Ok(ms) if ms > 0 => Ok(TimeControl::MoveTime(Duration::from_millis(ms))),
            _ => Err(bad(
                "movetime:MS with MS a positive whole number of milliseconds",
            )),
        },
        "depth" => match value.parse::<u32>() {
            Ok(d) if d > 0 => Ok(TimeControl::Depth(d)),
            _ => Err(bad("depth:N with N a positive number")),
        },
        "nodes" => match value.parse::<u64>() {
            Ok(n) if n > 0 => Ok(TimeControl::Nodes(n)),
            _ => Err(bad("nodes:N with N a positive number")),
        },
        "clock" => {
            let (moves, rest) = match value.split_once('/') {
                Some((n, rest)) => match n.parse::<u32>() {
                    Ok(n) if n > 0 => (Some(n), rest),
                    _ => return Err(bad("clock:MOVES/BASE+INC with MOVES a positive number")),
                },
                None => (None, value),
            };
            let (rest, byoyomi) = match rest.split_once('b') {
                Some((rest, byo)) => (rest, seconds(byo)),
                None => (rest, Some(Duration::ZERO)),
            };
            let (base, inc) = rest.split_once('+').unwrap_or((rest, "0"));
            match (seconds(base), seconds(inc), byoyomi) {
                (Some(base), Some(inc), Some(byoyomi)) if !base.is_zero() || !byoyomi.is_zero() => {
                    Ok(TimeControl::Clock {
                        base,
                        inc,
                        moves,
                        byoyomi,
                    })
                }
                _ => Err(bad(
                    "clock:[MOVES/]BASE+INC[bBYO] in seconds, such as clock:60+0.5, clock:40/60 \
                     or clock:10b1",
                )),
            }
        }
        _ => Err(bad(SHAPES)),
    }
}

/// Reads one engine specification. `each` is the text of `--each`, applied first so that the
/// engine's own keys win (options from both are sent, `--each`'s first).
pub fn parse_engine_spec(text: &str, each: &str) -> Result<EngineSpec, SpecError> {
    let mut tokens = tokenize(each)?;
    tokens.extend(tokenize(text)?);
    parse_engine_tokens(&tokens)
}

/// Reads one engine specification from its `key=value` tokens; a later key wins over an
/// earlier one.
pub fn parse_engine_tokens(tokens: &[String]) -> Result<EngineSpec, SpecError> {
    let mut name = None;
    let mut cmd = None;
    let mut args = Vec::new();
    let mut protocol = Protocol::Uci;
    let mut options: Vec<(String, String)> = Vec::new();
    let mut uci_variant = false;
    let mut ponder = false;
    let mut tc = None;
    for token in tokens {
        let (key, value) = token
            .split_once('=')
            .ok_or_else(|| SpecError::NotKeyValue(token.clone()))?;
        let bad = |expected| SpecError::BadValue {
            key: key.to_string(),
            value: value.to_string(),
            expected,
        };
        if let Some(option) = key.strip_prefix("option.") {
            if option.is_empty() {
                return Err(bad("option.NAME=VALUE"));
            }
            // A later value for the same option replaces the earlier one, in its place.
            match options.iter_mut().find(|(n, _)| n == option) {
                Some(slot) => slot.1 = value.to_string(),
                None => options.push((option.to_string(), value.to_string())),
            }
            continue;
        }
        match key {
            "name" if !value.is_empty() => name = Some(value.to_string()),
            "name" => return Err(bad("a non-empty name")),
            "cmd" if !value.is_empty() => cmd = Some(value.to_string()),
            "cmd" => return Err(bad("a program to run")),
            // Arguments are split again, so `args='"a b" c'` gives two of them.
            "args" => args = tokenize(value)?,
            "proto" => {
                protocol = match value.to_ascii_lowercase().as_str() {
                    "uci" => Protocol::Uci,
                    "ucci" => Protocol::Ucci,
                    _ => return Err(bad("uci or ucci")),
                }
            }
            "uci-variant" => uci_variant = parse_flag(value).ok_or_else(|| bad("true or false"))?,
            "ponder" => ponder = parse_flag(value).ok_or_else(|| bad("true or false"))?,
            "tc" => tc = Some(parse_time_control(value)?),
            _ => return Err(SpecError::UnknownKey(key.to_string())),
        }
    }
    let cmd = cmd.ok_or_else(|| SpecError::MissingCmd(tokens.join(" ")))?;
    let name = name.unwrap_or_else(|| default_name(&cmd));
    let tc = tc.ok_or_else(|| SpecError::MissingTimeControl(name.clone()))?;
    if ponder && !matches!(tc, TimeControl::Clock { .. }) {
        return Err(SpecError::PonderWithoutClock { name, tc });
    }
    Ok(EngineSpec {
        name,
        cmd,
        args,
        protocol,
        options,
        uci_variant,
        tc,
        ponder,
    })
}

/// `true`, `yes`, `1`, `on` or their opposites, in any case.
fn parse_flag(value: &str) -> Option<bool> {
    match value.to_ascii_lowercase().as_str() {
        "true" | "yes" | "1" | "on" => Some(true),
        "false" | "no" | "0" | "off" => Some(false),
        _ => None,
    }
}

/// The file name of the program, without directories.
fn default_name(cmd: &str) -> String {
    std::path::Path::new(cmd)
        .file_name()
        .map_or_else(|| cmd.to_string(), |n| n.to_string_lossy().into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_respect_quotes() {
        assert_eq!(
            tokenize(r#"name=A cmd="/opt/my engine/xq" 'option.Move Overhead=50' args="""#)
                .unwrap(),
            vec![
                "name=A",
                "cmd=/opt/my engine/xq",
                "option.Move Overhead=50",
                "args="
            ]
        );
        assert_eq!(tokenize("  a=1\tb=2 ").unwrap(), vec!["a=1", "b=2"]);
        assert!(matches!(
            tokenize("cmd='x"),
            Err(SpecError::UnclosedQuote(_))
        ));
    }

    #[test]
    fn time_controls() {
        let ms = Duration::from_millis;
        assert_eq!(
            parse_time_control("movetime:1000").unwrap(),
            TimeControl::MoveTime(ms(1000))
        );
        assert_eq!(
            parse_time_control("depth:8").unwrap(),
            TimeControl::Depth(8)
        );
        assert_eq!(
            parse_time_control("nodes:100000").unwrap(),
            TimeControl::Nodes(100_000)
        );
        assert_eq!(
            parse_time_control("clock:60+0.5").unwrap(),
            TimeControl::Clock {
                base: ms(60_000),
                inc: ms(500),
                moves: None,
                byoyomi: Duration::ZERO,
            }
        );
        assert_eq!(
            parse_time_control("clock:2.5").unwrap(),
            TimeControl::Clock {
                base: ms(2500),
                inc: ms(0),
                moves: None,
                byoyomi: Duration::ZERO,
            }
        );
        assert_eq!(
            parse_time_control("clock:40/60+0.5").unwrap(),
            TimeControl::Clock {
                base: ms(60_000),
                inc: ms(500),
                moves: Some(40),
                byoyomi: Duration::ZERO,
            }
        );
        assert_eq!(
            parse_time_control("clock:10/1.5").unwrap(),
            TimeControl::Clock {
                base: ms(1500),
                inc: ms(0),
                moves: Some(10),
                byoyomi: Duration::ZERO,
            }
        );
        for bad in [
            "movetime",
            "movetime:0",
            "depth:-1",
            "nodes:x",
            "clock:0+1",
            "clock:1+-1",
            "clock:nan",
            "clock:0/60",
            "clock:-1/60",
            "clock:x/60",
            "clock:40/",
            "clock:40/0+1",
            "clock:40/60/2",
            "blitz:3",
        ] {
            assert!(parse_time_control(bad).is_err(), "{bad}");
        }
        for text in ["clock:60+0.5", "clock:40/60+0", "clock:5/0.5+0.1"] {
            assert_eq!(parse_time_control(text).unwrap().to_string(), text);
        }
    }

    #[test]
    fn full_spec_with_each() {
        let spec = parse_engine_spec(
            "name=A cmd=/bin/xq args='uci \"x y\"' option.Hash=64 tc=depth:3",
            "proto=ucci tc=movetime:100 option.Hash=16 option.Threads=1 uci-variant=true",
        )
        .unwrap();
        assert_eq!(spec.name, "A");
        assert_eq!(spec.cmd, "/bin/xq");
        assert_eq!(spec.args, vec!["uci", "x y"]);
        assert_eq!(spec.protocol, Protocol::Ucci);
        assert_eq!(spec.tc, TimeControl::Depth(3));
        assert!(spec.uci_variant);
        assert_eq!(
            spec.options,
            vec![
                ("Hash".to_string(), "64".to_string()),
                ("Threads".to_string(), "1".to_string())
            ]
        );
    }

    #[test]
    fn spec_errors() {
        let parse = |t| parse_engine_spec(t, "");
        assert_eq!(
            parse("cmd=/usr/bin/pikafish tc=depth:1").unwrap().name,
            "pikafish"
        );
        assert!(matches!(parse("tc=depth:1"), Err(SpecError::MissingCmd(_))));
        assert!(matches!(
            parse("cmd=x"),
            Err(SpecError::MissingTimeControl(_))
        ));
        assert!(matches!(parse("cmd=x foo"), Err(SpecError::NotKeyValue(_))));
        assert!(matches!(
            parse("cmd=x tc=depth:1 colour=red"),
            Err(SpecError::UnknownKey(_))
        ));
        assert!(matches!(
            parse("cmd=x tc=depth:1 proto=xboard"),
            Err(SpecError::BadValue { .. })
        ));
        assert!(matches!(
            parse("cmd=x tc=depth:1 option.=1"),
            Err(SpecError::BadValue { .. })
        ));
        assert!(matches!(
            parse("cmd=x tc=depth:1 ponder=maybe"),
            Err(SpecError::BadValue { .. })
        ));
        let err = parse("name=P cmd=x tc=movetime:100 ponder=true").unwrap_err();
        assert_eq!(
            err.to_string(),
            "engine P: ponder=true needs a clock (tc=clock:…), not tc=movetime:100: a pondering \
             engine thinks while its opponent does, which only a clock keeps fair"
        );
        assert!(parse("cmd=x tc=depth:1 ponder=false").is_ok());
        let spec = parse("cmd=x tc=clock:40/60 ponder=on").unwrap();
        assert!(spec.ponder);
    }
}
