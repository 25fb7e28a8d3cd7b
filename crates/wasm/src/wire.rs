//! The engine's jobs in JSON, between the site's two workers: the games worker hands a search
//! order to the engine worker, which sends back its progress reports and its outcome. Every
//! move is ICCS, every time whole milliseconds.

use serde::{Deserialize, Serialize};
use std::time::Duration;
use xiangqi::{parse_move_as, Move, Notation, Position};
use xiangqi_engine::instant::Instant;
use xiangqi_engine::{Bound, Clock, Limits, SearchInfo, SearchRequest, SearchResult};
use xiangqi_play::job_run::{Order, Outcome};
use xiangqi_play::site_games::{Effects, StoredGame};

/// A clock as an order carries it.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockText {
    time_ms: u64,
    increment_ms: u64,
    byoyomi_ms: u64,
    moves_to_go: Option<u32>,
}

/// A search order ([`Order`]).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OrderText {
    /// The game's start.
    fen: String,
    /// The moves to the position searched.
    moves: Vec<String>,
    depth: Option<u32>,
    nodes: Option<u64>,
    movetime_ms: Option<u64>,
    clock: Option<ClockText>,
    level: Option<u8>,
    lines: usize,
    book: bool,
    overhead_ms: u64,
    compare: Vec<String>,
}

fn ms(duration: Duration) -> u64 {
    duration.as_millis() as u64
}

fn texts(moves: &[Move]) -> Vec<String> {
    moves.iter().map(Move::to_string).collect()
}

impl From<&Order> for OrderText {
    fn from(order: &Order) -> OrderText {
        let request = &order.request;
        let limits = &request.limits;
        OrderText {
            fen: request.start.to_fen(),
            moves: texts(&request.moves),
            depth: limits.depth,
            nodes: limits.nodes,
            movetime_ms: limits.movetime.map(ms),
            clock: limits.clock.as_ref().map(|c| ClockText {
                time_ms: ms(c.time),
                increment_ms: ms(c.increment),
                byoyomi_ms: ms(c.byoyomi),
                moves_to_go: c.moves_to_go,
            }),
            level: order.level,
            lines: order.lines,
            book: order.book,
            overhead_ms: ms(order.overhead),
            compare: texts(&order.compare),
        }
    }
}

/// ICCS moves played one after another from `start`, each checked.
pub fn line(start: &Position, moves: &[String]) -> Result<Vec<Move>, String> {
    let mut position = start.clone();
    let mut line = Vec::with_capacity(moves.len());
    for text in moves {
        let m = parse_move_as(&position, text, Notation::Iccs)
            .map_err(|e| format!("move {} ({text}): {e}", line.len() + 1))?;
        position.make_move(m);
        line.push(m);
    }
    Ok(line)
}

/// ICCS moves each legal in `position` (a comparison's candidates).
fn moves_in(position: &Position, moves: &[String]) -> Result<Vec<Move>, String> {
    moves
        .iter()
        .map(|text| {
            parse_move_as(position, text, Notation::Iccs).map_err(|e| format!("{text}: {e}"))
        })
        .collect()
}

impl OrderText {
    /// The order, its position and moves checked.
    pub fn order(&self) -> Result<Order, String> {
        let start = Position::from_fen(&self.fen).map_err(|e| format!("bad FEN: {e}"))?;
        let moves = line(&start, &self.moves)?;
        let limits = Limits {
            depth: self.depth,
            nodes: self.nodes,
            movetime: self.movetime_ms.map(Duration::from_millis),
            clock: self.clock.as_ref().map(|c| Clock {
                time: Duration::from_millis(c.time_ms),
                increment: Duration::from_millis(c.increment_ms),
                moves_to_go: c.moves_to_go,
                byoyomi: Duration::from_millis(c.byoyomi_ms),
            }),
            ..Limits::default()
        };
        if !limits.is_bounded() {
            return Err("an order needs a depth, nodes, a time or a clock".into());
        }
        let mut request = SearchRequest::new(start, limits);
        request.moves = moves;
        let root = request.root_position();
        Ok(Order {
            compare: moves_in(&root, &self.compare)?,
            request,
            level: self.level,
            lines: self.lines.max(1),
            book: self.book,
            overhead: Duration::from_millis(self.overhead_ms),
        })
    }
}

/// A progress report.
#[derive(Serialize, Deserialize)]
pub struct InfoText {
    depth: u32,
    seldepth: u32,
    multipv: usize,
    score: i32,
    bound: BoundText,
    nodes: u64,
    ms: u64,
    hashfull: u32,
    pv: Vec<String>,
}

/// Whether a report's score is exact or a bound ([`SearchInfo::bound`]).
#[derive(Clone, Copy, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum BoundText {
    Exact,
    Lower,
    Upper,
}

impl From<Bound> for BoundText {
    fn from(bound: Bound) -> BoundText {
        match bound {
            Bound::Exact => BoundText::Exact,
            Bound::Lower => BoundText::Lower,
            Bound::Upper => BoundText::Upper,
        }
    }
}

impl From<BoundText> for Bound {
    fn from(bound: BoundText) -> Bound {
        match bound {
            BoundText::Exact => Bound::Exact,
            BoundText::Lower => Bound::Lower,
            BoundText::Upper => Bound::Upper,
        }
    }
}

impl From<&SearchInfo> for InfoText {
    fn from(info: &SearchInfo) -> InfoText {
        InfoText {
            depth: info.depth,
            seldepth: info.seldepth,
            multipv: info.multipv,
            score: info.score,
            bound: info.bound.into(),
            nodes: info.nodes,
            ms: ms(info.time),
            hashfull: info.hashfull,
            pv: texts(&info.pv),
        }
    }
}

impl InfoText {
    /// The report, its line read from `root`.
    pub fn info(&self, root: &Position) -> Result<SearchInfo, String> {
        Ok(SearchInfo {
            depth: self.depth,
            seldepth: self.seldepth,
            multipv: self.multipv,
            score: self.score,
            bound: self.bound.into(),
            nodes: self.nodes,
            // A browser has no endgame tables to probe.
            tbhits: 0,
            time: Duration::from_millis(self.ms),
            hashfull: self.hashfull,
            pv: line(root, &self.pv)?,
        })
    }
}

/// A plain search's result.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FoundText {
    best: Option<String>,
    ponder: Option<String>,
    score: i32,
    bound: BoundText,
    depth: u32,
    nodes: u64,
    ms: u64,
    pv: Vec<String>,
    from_book: bool,
}

impl From<&SearchResult> for FoundText {
    fn from(result: &SearchResult) -> FoundText {
        FoundText {
            best: result.best_move.map(|m| m.to_string()),
            ponder: result.ponder_move.map(|m| m.to_string()),
            score: result.score,
            bound: result.bound.into(),
            depth: result.depth,
            nodes: result.nodes,
            ms: ms(result.time),
            pv: texts(&result.pv),
            from_book: result.from_book,
        }
    }
}

impl FoundText {
    /// The result, its moves read from `root`.
    fn result(&self, root: &Position) -> Result<SearchResult, String> {
        let best = self
            .best
            .as_ref()
            .map(|t| parse_move_as(root, t, Notation::Iccs).map_err(|e| e.to_string()))
            .transpose()?;
        Ok(SearchResult {
            best_move: best,
            // The reply is a move of the position after the best one: not checked here.
            ponder_move: self
                .ponder
                .as_deref()
                .and_then(xiangqi_play::game_file::iccs_move),
            score: self.score,
            bound: self.bound.into(),
            depth: self.depth,
            nodes: self.nodes,
            time: Duration::from_millis(self.ms),
            pv: line(root, &self.pv)?,
            from_book: self.from_book,
        })
    }
}

/// What a search of an order found ([`Outcome`]).
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum OutcomeText {
    /// A plain search's result.
    Found(FoundText),
    /// A comparison's scores and depth.
    Compared(Option<(Vec<i32>, u32)>),
}

impl From<&Outcome> for OutcomeText {
    fn from(outcome: &Outcome) -> OutcomeText {
        match outcome {
            Outcome::Found { result, .. } => OutcomeText::Found(result.into()),
            Outcome::Compared(scores) => OutcomeText::Compared(scores.clone()),
        }
    }
}

impl OutcomeText {
    /// The outcome, its moves read from `root`; a plain search's moment is now (when its
    /// answer reached the games).
    pub fn outcome(&self, root: &Position) -> Result<Outcome, String> {
        Ok(match self {
            OutcomeText::Found(found) => Outcome::Found {
                result: found.result(root)?,
                at: Instant::now(),
            },
            OutcomeText::Compared(scores) => Outcome::Compared(scores.clone()),
        })
    }
}

/// What the host is to do, as it reads it.
#[derive(Serialize)]
pub struct EffectsText {
    put: Vec<StoredText>,
    delete: Vec<String>,
    start: Option<StartText>,
    stop: bool,
    pause: Option<bool>,
    wake_ms: Option<u64>,
    puzzles: Option<String>,
}

/// A search for the engine worker.
#[derive(Serialize)]
struct StartText {
    ticket: u64,
    order: OrderText,
}

/// A game as the host stores it.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoredText {
    id: String,
    pgn: String,
    #[serde(default)]
    updated: u64,
}

impl From<StoredText> for StoredGame {
    fn from(text: StoredText) -> StoredGame {
        StoredGame {
            id: text.id,
            pgn: text.pgn,
            updated: text.updated,
        }
    }
}

impl From<Effects> for EffectsText {
    fn from(effects: Effects) -> EffectsText {
        EffectsText {
            put: effects
                .put
                .into_iter()
                .map(|g| StoredText {
                    id: g.id,
                    pgn: g.pgn,
                    updated: g.updated,
                })
                .collect(),
            delete: effects.delete,
            start: effects.start.map(|(ticket, order)| StartText {
                ticket,
                order: OrderText::from(&order),
            }),
            stop: effects.stop,
            pause: effects.pause,
            puzzles: effects.puzzles,
            wake_ms: effects.wake_in.map(ms),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_results_bound_crosses_the_wire() {
        let root = Position::startpos();
        let best = parse_move_as(&root, "h2e2", Notation::Iccs).unwrap();
        let result = SearchResult {
            best_move: Some(best),
            ponder_move: None,
            score: 47,
            bound: Bound::Lower,
            depth: 9,
            nodes: 3_073,
            time: Duration::from_millis(12),
            pv: vec![best],
            from_book: false,
        };
        let json = serde_json::to_string(&FoundText::from(&result)).unwrap();
        assert!(json.contains(r#""bound":"lower""#), "{json}");
        let found: FoundText = serde_json::from_str(&json).unwrap();
        let back = found.result(&root).unwrap();
        assert_eq!((back.score, back.bound), (47, Bound::Lower));
        assert_eq!(back.best_move, Some(best));
    }
}
