//! The text the match sends to engines and reads back, as pure functions: `position` and `go`
//! commands, `info` and `bestmove` lines. Nothing here touches a process.

use super::config::Protocol;
use std::fmt::Write as _;
use std::time::Duration;
use xiangqi::{format_move, Move, Notation, Position};

/// An engine's evaluation, from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centi-soldiers (UCI `score cp X`; UCCI `score X`).
    Cp(i32),
    /// Mate in this many moves; negative when being mated (UCI `score mate N`).
    Mate(i32),
}

impl Score {
    /// The score on one scale for the adjudication thresholds: mates lie beyond any
    /// centi-soldier value.
    pub fn as_cp(self) -> i64 {
        const MATE: i64 = 1_000_000;
        match self {
            Score::Cp(cp) => i64::from(cp),
            Score::Mate(n) if n > 0 => MATE - i64::from(n),
            Score::Mate(n) => -MATE - i64::from(n),
        }
    }

    /// cutechess's PGN form: `+0.35`, `-1.20`, `+M3`, `-M2`.
    pub fn pgn_text(self) -> String {
        match self {
            Score::Cp(cp) => format!("{:+.2}", f64::from(cp) / 100.0),
            Score::Mate(n) if n > 0 => format!("+M{n}"),
            Score::Mate(n) => format!("-M{}", n.unsigned_abs()),
        }
    }
}

/// What an `info` line said that the match uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Info {
    /// `depth D`.
    pub depth: Option<u32>,
    /// `score …`.
    pub score: Option<Score>,
    /// The score is only a bound (`lowerbound` / `upperbound`).
    pub bound: bool,
    /// `multipv N`; lines of other PVs than the first are not the engine's opinion of the move.
    pub multipv: Option<u32>,
}

/// Reads an `info` line; `None` for any other line. Unknown tokens are skipped and reading stops
/// at `pv` or `string`, so garbage never fails the line as a whole.
pub fn parse_info(line: &str) -> Option<Info> {
    let mut tokens = line.split_whitespace().peekable();
    if tokens.next()? != "info" {
        return None;
    }
    let mut info = Info::default();
    while let Some(token) = tokens.next() {
        match token {
            "depth" => info.depth = tokens.next().and_then(|t| t.parse().ok()),
            "multipv" => info.multipv = tokens.next().and_then(|t| t.parse().ok()),
            "score" => {
                info.score = match tokens.peek().copied() {
                    Some("cp") => {
                        tokens.next();
                        tokens.next().and_then(|t| t.parse().ok()).map(Score::Cp)
                    }
                    Some("mate") => {
                        tokens.next();
                        tokens.next().and_then(|t| t.parse().ok()).map(Score::Mate)
                    }
                    // UCCI: the number right after `score`.
                    _ => tokens.next().and_then(|t| t.parse().ok()).map(Score::Cp),
                };
            }
            "lowerbound" | "upperbound" => info.bound = true,
            "pv" | "string" => break,
            _ => {}
        }
    }
    Some(info)
}

/// What a `bestmove` (or UCCI `nobestmove`) line said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BestMove {
    /// A move token, not yet checked.
    Move {
        /// The token after `bestmove`.
        text: String,
        /// The token after `ponder`: the reply the engine expects, not yet checked.
        ponder: Option<String>,
        /// UCCI `resign` after the move.
        resign: bool,
    },
    /// The engine says it has no move: `nobestmove`, `bestmove (none)`, `0000`, `none`.
    NoMove,
    /// `bestmove` with nothing after it.
    Empty,
}

/// Reads a `bestmove` or `nobestmove` line; `None` for any other line.
pub fn parse_bestmove(line: &str) -> Option<BestMove> {
    let mut tokens = line.split_whitespace();
    match tokens.next()? {
        "nobestmove" => Some(BestMove::NoMove),
        "bestmove" => {
            let Some(text) = tokens.next() else {
                return Some(BestMove::Empty);
            };
            if matches!(text, "(none)" | "0000" | "none" | "null") {
                return Some(BestMove::NoMove);
            }
            let rest: Vec<&str> = tokens.collect();
            let ponder = rest
                .iter()
                .position(|&t| t == "ponder")
                .and_then(|i| rest.get(i + 1))
                .filter(|p| !matches!(**p, "(none)" | "0000" | "none" | "null" | "resign"))
                .map(|p| p.to_string());
            Some(BestMove::Move {
                text: text.to_string(),
                ponder,
                resign: rest.contains(&"resign"),
            })
        }
        _ => None,
    }
}

/// How an engine writes moves: ICCS, or ranks 1–10 with `uci-variant=true` (Fairy-Stockfish).
pub fn notation(uci_variant: bool) -> Notation {
    if uci_variant {
        Notation::UciRanks1To10
    } else {
        Notation::Iccs
    }
}

/// The `position` command for the game `start` + `moves`.
///
/// UCI engines get the start and every move (they need the whole game for repetitions). UCCI
/// engines get, as the protocol asks, the position after the last capture and the moves since:
/// a repetition can never reach back past a capture, and ElephantEye-style engines keep only a
/// short move list.
pub fn position_command(
    protocol: Protocol,
    notation: Notation,
    start: &Position,
    moves: &[Move],
) -> String {
    let (base, rest) = match protocol {
        Protocol::Uci => (start.clone(), moves),
        Protocol::Ucci => {
            let mut pos = start.clone();
            let mut base = (start.clone(), 0);
            for (i, &m) in moves.iter().enumerate() {
                pos.make_move(m);
                if pos.halfmove_clock() == 0 {
                    base = (pos.clone(), i + 1);
                }
            }
            (base.0, &moves[base.1..])
        }
    };
    let mut line = if protocol == Protocol::Uci && base == Position::startpos() {
        "position startpos".to_string()
    } else {
        format!("position fen {}", base.to_fen())
    };
    if !rest.is_empty() {
        line.push_str(" moves");
        let mut pos = base;
        for &m in rest {
            let _ = write!(line, " {}", format_move(&pos, m, notation));
            pos.make_move(m);
        }
    }
    line
}

/// One side's clock as a `go` command reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideTime {
    /// Time left.
    pub left: Duration,
    /// Time added after each move.
    pub inc: Duration,
    /// Moves until the clock is filled up again; `None` when the time is for the whole game.
    pub movestogo: Option<u32>,
    /// Byo-yomi period (zero: none), sent as `byoyomi` for the side to move.
    pub byoyomi: Duration,
}

/// The limit of one `go`, resolved for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoLimit {
    /// A fixed time for this move.
    MoveTime(Duration),
    /// A fixed depth.
    Depth(u32),
    /// A fixed number of nodes.
    Nodes(u64),
    /// Clocks: the mover's, and the opponent's when it plays on a clock.
    Clock {
        /// The side to move's clock.
        own: SideTime,
        /// The other side's clock, if it has one.
        opponent: Option<SideTime>,
        /// Whether the side to move is Red (UCI sends `wtime`/`btime` by colour).
        red_to_move: bool,
    },
}

/// The `go ponder` command: `go` with `ponder` right after it, as both protocols put it (UCCI:
/// `go ponder time …`).
pub fn go_ponder_command(protocol: Protocol, limit: GoLimit, millis: bool) -> String {
    let go = go_command(protocol, limit, millis);
    match go.strip_prefix("go") {
        Some(rest) => format!("go ponder{rest}"),
        None => go,
    }
}

/// The `go` command. UCCI times are in milliseconds when the engine accepted `usemillisec`,
/// else in whole seconds (rounded down, at least 1 where a time is required).
pub fn go_command(protocol: Protocol, limit: GoLimit, millis: bool) -> String {
    match (protocol, limit) {
        (_, GoLimit::Depth(d)) => format!("go depth {d}"),
        (_, GoLimit::Nodes(n)) => format!("go nodes {n}"),
        (Protocol::Uci, GoLimit::MoveTime(t)) => format!("go movetime {}", t.as_millis()),
        // UCCI has no movetime: the whole clock for one move comes closest.
        (Protocol::Ucci, GoLimit::MoveTime(t)) => {
            format!("go time {} movestogo 1", ucci_time(t, millis).max(1))
        }
        (
            Protocol::Uci,
            GoLimit::Clock {
                own,
                opponent,
                red_to_move,
            },
        ) => {
            let (me, them) = if red_to_move { ('w', 'b') } else { ('b', 'w') };
            let mut line = "go".to_string();
            for (c, side) in [(me, Some(own)), (them, opponent)] {
                if let Some(side) = side {
                    let (time, inc) = (side.left.as_millis(), side.inc.as_millis());
                    let _ = write!(line, " {c}time {time} {c}inc {inc}");
                }
            }
            // UCI has one `movestogo`, meant for the side to move.
            if let Some(n) = own.movestogo {
                let _ = write!(line, " movestogo {n}");
            }
            if !own.byoyomi.is_zero() {
                let _ = write!(line, " byoyomi {}", own.byoyomi.as_millis());
            }
            line
        }
        (Protocol::Ucci, GoLimit::Clock { own, opponent, .. }) => {
            let mut line = format!("go{}", ucci_clock("", own, millis));
            if let Some(side) = opponent {
                line.push_str(&ucci_clock("opp", side, millis));
            }
            if !own.byoyomi.is_zero() {
                let _ = write!(line, " byoyomi {}", ucci_time(own.byoyomi, millis).max(1));
            }
            line
        }
    }
}

/// A UCCI time: milliseconds with `usemillisec`, else whole seconds.
fn ucci_time(d: Duration, millis: bool) -> u128 {
    if millis {
        d.as_millis()
    } else {
        u128::from(d.as_secs())
    }
}

/// One side's part of a UCCI `go`, its words prefixed with `prefix` (`opp` for the opponent):
/// ` time T increment I`, or in a moves-per-period control ` time T movestogo N` with
/// ` increment I` only when there is one (UCCI names one or the other; engines that read both
/// get the whole truth, the others still the usual form).
fn ucci_clock(prefix: &str, side: SideTime, millis: bool) -> String {
    let time = ucci_time(side.left, millis).max(1);
    let inc = ucci_time(side.inc, millis);
    match side.movestogo {
        None => format!(" {prefix}time {time} {prefix}increment {inc}"),
        Some(n) => {
            let mut text = format!(" {prefix}time {time} {prefix}movestogo {n}");
            if !side.inc.is_zero() {
                let _ = write!(text, " {prefix}increment {inc}");
            }
            text
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi::parse_move;

    fn moves(start: &Position, texts: &[&str]) -> Vec<Move> {
        let mut pos = start.clone();
        texts
            .iter()
            .map(|t| {
                let m = parse_move(&pos, t).unwrap();
                pos.make_move(m);
                m
            })
            .collect()
    }

    #[test]
    fn info_lines() {
        let info = parse_info(
            "info depth 7 seldepth 9 multipv 1 score cp -35 nodes 1 pv h2e2 h9g7 depth 99",
        )
        .unwrap();
        assert_eq!(info.depth, Some(7));
        assert_eq!(info.score, Some(Score::Cp(-35)));
        assert_eq!(info.multipv, Some(1));
        assert!(!info.bound);
        let info = parse_info("info depth 3 score mate -2 upperbound").unwrap();
        assert_eq!(info.score, Some(Score::Mate(-2)));
        assert!(info.bound);
        let ucci = parse_info("info depth 5 score 120 pv b2e2").unwrap();
        assert_eq!(ucci.score, Some(Score::Cp(120)));
        assert_eq!(parse_info("info string score cp 5"), Some(Info::default()));
        // Garbage gives an empty info, never an error or a panic.
        let junk = parse_info("info depth x score cp score mate").unwrap();
        assert_eq!((junk.depth, junk.score), (None, None));
        assert_eq!(parse_info("bestmove h2e2"), None);
        assert_eq!(parse_info(""), None);
    }

    #[test]
    fn bestmove_lines() {
        let mv = |t: &str, ponder: Option<&str>, resign| BestMove::Move {
            text: t.to_string(),
            ponder: ponder.map(str::to_string),
            resign,
        };
        assert_eq!(
            parse_bestmove("bestmove h2e2 ponder h9g7"),
            Some(mv("h2e2", Some("h9g7"), false))
        );
        assert_eq!(
            parse_bestmove("bestmove h2e2 resign"),
            Some(mv("h2e2", None, true))
        );
        assert_eq!(
            parse_bestmove("bestmove h2e2 ponder h9g7 resign"),
            Some(mv("h2e2", Some("h9g7"), true))
        );
        assert_eq!(
            parse_bestmove("bestmove h2e2 ponder"),
            Some(mv("h2e2", None, false))
        );
        assert_eq!(
            parse_bestmove("bestmove h2e2 ponder (none)"),
            Some(mv("h2e2", None, false))
        );
        assert_eq!(parse_bestmove("bestmove ???"), Some(mv("???", None, false)));
        assert_eq!(parse_bestmove("bestmove"), Some(BestMove::Empty));
        assert_eq!(parse_bestmove("bestmove (none)"), Some(BestMove::NoMove));
        assert_eq!(parse_bestmove("nobestmove"), Some(BestMove::NoMove));
        assert_eq!(parse_bestmove("info depth 1"), None);
        assert_eq!(parse_bestmove("bestmoves h2e2"), None);
    }

    #[test]
    fn scores_for_pgn_and_thresholds() {
        assert_eq!(Score::Cp(35).pgn_text(), "+0.35");
        assert_eq!(Score::Cp(-120).pgn_text(), "-1.20");
        assert_eq!(Score::Cp(0).pgn_text(), "+0.00");
        assert_eq!(Score::Mate(3).pgn_text(), "+M3");
        assert_eq!(Score::Mate(-2).pgn_text(), "-M2");
        assert!(Score::Mate(5).as_cp() > Score::Cp(30_000).as_cp());
        assert!(Score::Mate(-5).as_cp() < Score::Cp(-30_000).as_cp());
        assert!(Score::Mate(1).as_cp() > Score::Mate(2).as_cp());
        assert!(Score::Mate(-1).as_cp() < Score::Mate(-2).as_cp());
    }

    #[test]
    fn uci_positions() {
        let start = Position::startpos();
        assert_eq!(
            position_command(Protocol::Uci, Notation::Iccs, &start, &[]),
            "position startpos"
        );
        let ms = moves(&start, &["h2e2", "h9g7"]);
        assert_eq!(
            position_command(Protocol::Uci, Notation::Iccs, &start, &ms),
            "position startpos moves h2e2 h9g7"
        );
        assert_eq!(
            position_command(Protocol::Uci, Notation::UciRanks1To10, &start, &ms),
            "position startpos moves h3e3 h10g8"
        );
        let fen = "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 3 10";
        let other = Position::from_fen(fen).unwrap();
        assert_eq!(
            position_command(Protocol::Uci, Notation::Iccs, &other, &[]),
            format!("position fen {}", other.to_fen())
        );
    }

    #[test]
    fn ucci_positions_start_after_the_last_capture() {
        let start = Position::startpos();
        let ms = moves(&start, &["h2e2", "h9g7", "e2e6", "b9c7", "h0g2"]);
        let line = position_command(Protocol::Ucci, Notation::Iccs, &start, &ms);
        // e2e6 took the soldier on e6: the FEN after it, then the two moves since.
        let mut after = start.clone();
        for &m in &ms[..3] {
            after.make_move(m);
        }
        assert_eq!(
            line,
            format!("position fen {} moves b9c7 h0g2", after.to_fen())
        );
        let quiet = &ms[..2];
        assert_eq!(
            position_command(Protocol::Ucci, Notation::Iccs, &start, quiet),
            format!("position fen {} moves h2e2 h9g7", start.to_fen())
        );
    }

    #[test]
    fn go_commands() {
        let ms = Duration::from_millis;
        assert_eq!(
            go_command(Protocol::Uci, GoLimit::Depth(3), false),
            "go depth 3"
        );
        assert_eq!(
            go_command(Protocol::Ucci, GoLimit::Nodes(500), true),
            "go nodes 500"
        );
        assert_eq!(
            go_command(Protocol::Uci, GoLimit::MoveTime(ms(250)), false),
            "go movetime 250"
        );
        assert_eq!(
            go_command(Protocol::Ucci, GoLimit::MoveTime(ms(250)), true),
            "go time 250 movestogo 1"
        );
        assert_eq!(
            go_command(Protocol::Ucci, GoLimit::MoveTime(ms(250)), false),
            "go time 1 movestogo 1"
        );
        let side = |left, inc, movestogo| SideTime {
            left: ms(left),
            inc: ms(inc),
            movestogo,
            byoyomi: Duration::ZERO,
        };
        let clock = GoLimit::Clock {
            own: side(59_000, 500, None),
            opponent: Some(side(61_500, 1000, None)),
            red_to_move: false,
        };
        assert_eq!(
            go_command(Protocol::Uci, clock, false),
            "go btime 59000 binc 500 wtime 61500 winc 1000"
        );
        assert_eq!(
            go_command(Protocol::Ucci, clock, true),
            "go time 59000 increment 500 opptime 61500 oppincrement 1000"
        );
        assert_eq!(
            go_command(Protocol::Ucci, clock, false),
            "go time 59 increment 0 opptime 61 oppincrement 1"
        );
        assert_eq!(
            go_ponder_command(Protocol::Ucci, clock, true),
            "go ponder time 59000 increment 500 opptime 61500 oppincrement 1000"
        );
        assert_eq!(
            go_ponder_command(Protocol::Uci, clock, false),
            "go ponder btime 59000 binc 500 wtime 61500 winc 1000"
        );
        // Moves per period: `movestogo` for the mover in UCI, for both sides in UCCI.
        let periods = GoLimit::Clock {
            own: side(30_000, 0, Some(7)),
            opponent: Some(side(45_000, 0, Some(8))),
            red_to_move: true,
        };
        assert_eq!(
            go_command(Protocol::Uci, periods, false),
            "go wtime 30000 winc 0 btime 45000 binc 0 movestogo 7"
        );
        assert_eq!(
            go_command(Protocol::Ucci, periods, true),
            "go time 30000 movestogo 7 opptime 45000 oppmovestogo 8"
        );
        let with_inc = GoLimit::Clock {
            own: side(30_000, 250, Some(1)),
            opponent: None,
            red_to_move: false,
        };
        assert_eq!(
            go_command(Protocol::Uci, with_inc, false),
            "go btime 30000 binc 250 movestogo 1"
        );
        assert_eq!(
            go_command(Protocol::Ucci, with_inc, true),
            "go time 30000 movestogo 1 increment 250"
        );
    }
}
