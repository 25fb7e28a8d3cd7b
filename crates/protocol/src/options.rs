//! The engine's options, in one table: the `option` lines that `uci` and `ucci` print and the
//! reading of `setoption` values both come from it, with ranges taken from the engine's own
//! limits, so what is announced is what is accepted.

use xiangqi_engine::strength::{MAX_ELO, MAX_LEVEL, MIN_ELO, MIN_LEVEL};
use xiangqi_engine::{MAX_HASH_MB, MAX_MOVE_OVERHEAD, MAX_MULTIPV, MAX_THREADS};

use super::command::Dialect;

/// An option the session acts on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opt {
    /// Transposition table size in MiB.
    Hash,
    /// Search threads.
    Threads,
    /// Principal variations reported.
    MultiPv,
    /// Whether the GUI may ask for pondering (the engine ponders when told to).
    Ponder,
    /// Milliseconds lost per move between engine and GUI.
    MoveOverhead,
    /// Play book moves.
    OwnBook,
    /// Another book file; empty for the built-in one.
    BookFile,
    /// Forget what the hash table and the move ordering learned.
    ClearHash,
    /// UCI: win/draw/loss estimates in `info` lines.
    ShowWdl,
    /// UCI: `xiangqi` switches moves to ranks 1–10 (Fairy-Stockfish's convention).
    Variant,
    /// Difficulty 1–10 (10 is the full engine).
    Level,
    /// UCI: play at `UCI_Elo`.
    LimitStrength,
    /// UCI: the strength to play at when limited.
    Elo,
    /// UCCI: times in milliseconds instead of seconds.
    UseMillisec,
    /// Evaluate with the network instead of the hand-made evaluation.
    UseNnue,
    /// The network file; `<embedded>` (or empty) for the one built in.
    EvalFile,
    /// The folder of endgame tables to probe; empty for none.
    TablebaseDir,
}

/// What kind of value an option takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A whole number within bounds.
    Spin {
        /// Smallest accepted.
        min: i64,
        /// Largest accepted.
        max: i64,
    },
    /// `true` or `false`.
    Check,
    /// No value: setting it does something once.
    Button,
    /// Any text.
    Text,
    /// One of a few names.
    Combo(&'static [&'static str]),
}

/// One option: its names in each dialect (`None`: not offered there) and its kind.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    /// Which option.
    pub opt: Opt,
    /// Its UCI name.
    pub uci: Option<&'static str>,
    /// Its UCCI name.
    pub ucci: Option<&'static str>,
    /// What it takes.
    pub kind: Kind,
}

const fn spin(min: i64, max: i64) -> Kind {
    Kind::Spin { min, max }
}

/// Every option, in the order they are announced.
pub const OPTIONS: [Spec; 17] = [
    Spec {
        opt: Opt::UseMillisec,
        uci: None,
        ucci: Some("usemillisec"),
        kind: Kind::Check,
    },
    Spec {
        opt: Opt::Hash,
        uci: Some("Hash"),
        ucci: Some("hashsize"),
        kind: spin(1, MAX_HASH_MB as i64),
    },
    Spec {
        opt: Opt::Threads,
        uci: Some("Threads"),
        ucci: Some("threads"),
        kind: spin(1, MAX_THREADS as i64),
    },
    Spec {
        opt: Opt::MultiPv,
        uci: Some("MultiPV"),
        ucci: Some("multipv"),
        kind: spin(1, MAX_MULTIPV as i64),
    },
    Spec {
        opt: Opt::Ponder,
        uci: Some("Ponder"),
        ucci: Some("ponder"),
        kind: Kind::Check,
    },
    Spec {
        opt: Opt::MoveOverhead,
        uci: Some("Move Overhead"),
        ucci: None,
        kind: spin(0, MAX_MOVE_OVERHEAD.as_millis() as i64),
    },
    Spec {
        opt: Opt::OwnBook,
        uci: Some("OwnBook"),
        ucci: Some("usebook"),
        kind: Kind::Check,
    },
    Spec {
        opt: Opt::BookFile,
        uci: Some("BookFile"),
        ucci: Some("bookfiles"),
        kind: Kind::Text,
    },
    Spec {
        opt: Opt::ClearHash,
        uci: Some("Clear Hash"),
        ucci: Some("newgame"),
        kind: Kind::Button,
    },
    Spec {
        opt: Opt::ShowWdl,
        uci: Some("UCI_ShowWDL"),
        ucci: None,
        kind: Kind::Check,
    },
    Spec {
        opt: Opt::Variant,
        uci: Some("UCI_Variant"),
        ucci: None,
        kind: Kind::Combo(&["xiangqi"]),
    },
    Spec {
        opt: Opt::Level,
        uci: Some("Level"),
        ucci: Some("level"),
        kind: spin(MIN_LEVEL as i64, MAX_LEVEL as i64),
    },
    Spec {
        opt: Opt::LimitStrength,
        uci: Some("UCI_LimitStrength"),
        ucci: None,
        kind: Kind::Check,
    },
    Spec {
        opt: Opt::Elo,
        uci: Some("UCI_Elo"),
        ucci: None,
        kind: spin(MIN_ELO as i64, MAX_ELO as i64),
    },
    Spec {
        opt: Opt::UseNnue,
        uci: Some("Use NNUE"),
        ucci: Some("usennue"),
        kind: Kind::Check,
    },
    Spec {
        opt: Opt::EvalFile,
        uci: Some("EvalFile"),
        ucci: Some("evalfile"),
        kind: Kind::Text,
    },
    Spec {
        opt: Opt::TablebaseDir,
        uci: Some("TablebaseDir"),
        // UCCI's own name for the endgame tables' folder.
        ucci: Some("egtbpaths"),
        kind: Kind::Text,
    },
];

/// Options GUIs send that this engine accepts and has no use for (Fairy-Stockfish and UCCI
/// GUIs set them routinely; a complaint about each would be noise).
pub const IGNORED: [&str; 4] = ["batch", "debug", "idle", "promotion"];

/// A `setoption` value, read according to its option's kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// A spin's number, within its bounds.
    Number(i64),
    /// A check's state.
    Flag(bool),
    /// A text or combo value (a combo's in its own spelling).
    Text(String),
    /// A button was pressed.
    Press,
}

impl Spec {
    /// The option's name in `dialect`, if offered there.
    pub fn name(&self, dialect: Dialect) -> Option<&'static str> {
        match dialect {
            Dialect::Uci => self.uci,
            Dialect::Ucci => self.ucci,
        }
    }

    /// The `option` line announcing it in `dialect` with `default` (the current value).
    pub fn line(&self, dialect: Dialect, default: &str) -> Option<String> {
        let name = self.name(dialect)?;
        let default = if default.is_empty() {
            "<empty>"
        } else {
            default
        };
        Some(match (dialect, self.kind) {
            (Dialect::Uci, Kind::Spin { min, max }) => {
                format!("option name {name} type spin default {default} min {min} max {max}")
            }
            (Dialect::Ucci, Kind::Spin { min, max }) => {
                format!("option {name} type spin min {min} max {max} default {default}")
            }
            (Dialect::Uci, Kind::Combo(names)) => format!(
                "option name {name} type combo default {default} var {}",
                names.join(" var ")
            ),
            (Dialect::Ucci, Kind::Combo(names)) => format!(
                "option {name} type combo {} default {default}",
                names.join(" ")
            ),
            (Dialect::Uci, Kind::Button) => format!("option name {name} type button"),
            (Dialect::Ucci, Kind::Button) => format!("option {name} type button"),
            (Dialect::Uci, kind) => {
                format!(
                    "option name {name} type {} default {default}",
                    kind_name(kind)
                )
            }
            (Dialect::Ucci, kind) => {
                format!("option {name} type {} default {default}", kind_name(kind))
            }
        })
    }

    /// Reads a `setoption` value, or says why it cannot be used (the option then stays as it
    /// was). The message starts after the option's name.
    pub fn read(&self, value: Option<&str>) -> Result<Value, String> {
        let text = value.map(str::trim).unwrap_or("");
        match self.kind {
            Kind::Button => Ok(Value::Press),
            Kind::Text => Ok(Value::Text(text.to_owned())),
            Kind::Check => match text.to_ascii_lowercase().as_str() {
                // Anything but a clear yes or no is refused, so a typo does not mean "off".
                "true" | "on" | "1" | "yes" => Ok(Value::Flag(true)),
                "false" | "off" | "0" | "no" => Ok(Value::Flag(false)),
                _ => Err("needs true or false".to_owned()),
            },
            Kind::Spin { min, max } => match text.parse::<i64>() {
                Ok(n) if (min..=max).contains(&n) => Ok(Value::Number(n)),
                Ok(n) => Err(format!("{n} is outside {min}–{max}; unchanged")),
                Err(_) if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) => {
                    Err(format!("the number is outside {min}–{max}; unchanged"))
                }
                Err(_) => Err(format!("needs a number from {min} to {max}")),
            },
            Kind::Combo(names) => names
                .iter()
                .find(|name| name.eq_ignore_ascii_case(text))
                .map(|name| Value::Text((*name).to_owned()))
                .ok_or_else(|| format!("needs one of: {}", names.join(", "))),
        }
    }
}

fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Spin { .. } => "spin",
        Kind::Check => "check",
        Kind::Button => "button",
        Kind::Text => "string",
        Kind::Combo(_) => "combo",
    }
}

/// The option named `name` in either dialect (names are not case-sensitive).
pub fn find(name: &str) -> Option<&'static Spec> {
    OPTIONS.iter().find(|spec| {
        [spec.uci, spec.ucci]
            .into_iter()
            .flatten()
            .any(|n| n.eq_ignore_ascii_case(name))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_is_found_by_each_of_its_names_in_any_case() {
        for spec in &OPTIONS {
            for name in [spec.uci, spec.ucci].into_iter().flatten() {
                assert_eq!(find(name).map(|s| s.opt), Some(spec.opt));
                assert_eq!(
                    find(&name.to_ascii_uppercase()).map(|s| s.opt),
                    Some(spec.opt)
                );
            }
        }
        assert!(find("Hash Size").is_none());
    }

    #[test]
    fn announced_ranges_are_the_engines_limits() {
        let hash = find("Hash").unwrap();
        assert_eq!(
            hash.line(Dialect::Uci, "64").unwrap(),
            format!("option name Hash type spin default 64 min 1 max {MAX_HASH_MB}")
        );
        assert_eq!(
            find("threads").unwrap().line(Dialect::Ucci, "1").unwrap(),
            format!("option threads type spin min 1 max {MAX_THREADS} default 1")
        );
        assert_eq!(
            hash.read(Some(&(MAX_HASH_MB + 1).to_string())),
            Err(format!(
                "{} is outside 1–{MAX_HASH_MB}; unchanged",
                MAX_HASH_MB + 1
            ))
        );
        assert_eq!(
            hash.read(Some(&MAX_HASH_MB.to_string())),
            Ok(Value::Number(MAX_HASH_MB as i64))
        );
        assert!(find("Move Overhead")
            .unwrap()
            .line(Dialect::Ucci, "0")
            .is_none());
    }

    #[test]
    fn values_are_read_by_kind() {
        let check = find("OwnBook").unwrap();
        assert_eq!(check.read(Some(" TRUE ")), Ok(Value::Flag(true)));
        assert!(check.read(Some("maybe")).is_err());
        assert!(check.read(None).is_err());
        let spin = find("Level").unwrap();
        assert_eq!(
            spin.read(Some("0")),
            Err("0 is outside 1–10; unchanged".to_owned())
        );
        assert!(spin.read(Some("99999999999999999999999")).is_err());
        assert!(spin.read(Some("ten")).is_err());
        let combo = find("UCI_Variant").unwrap();
        assert_eq!(
            combo.read(Some("XiangQi")),
            Ok(Value::Text("xiangqi".into()))
        );
        assert!(combo.read(Some("shogi")).is_err());
        assert_eq!(find("Clear Hash").unwrap().read(None), Ok(Value::Press));
        assert_eq!(
            find("BookFile").unwrap().read(Some(" /tmp/x.bin ")),
            Ok(Value::Text("/tmp/x.bin".into()))
        );
    }
}
