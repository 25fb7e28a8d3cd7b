//! What the engine's searches tell the page: the latest report of a search (depth, score for
//! Red, the line in each notation), with mates capped for graphs.

use crate::job::JobKind;
use crate::move_names::{line_names, MoveNames};
use serde::Serialize;
use xiangqi::{Move, Position};
use xiangqi_engine::score::{printed, Printed};
use xiangqi_engine::{Bound, SearchInfo};

/// The most lines an analysis shows (MultiPV): more would not fit beside the board, and each
/// one costs the search about as much as the first.
pub const MAX_ANALYSIS_LINES: usize = 5;

/// Scores are capped here for reviews and graphs (a mate counts as this much).
pub const SCORE_CAP: i32 = 2000;

/// A search report as the page shows it.
#[derive(Clone, Debug, Serialize)]
pub struct Analysis {
    /// Which job produced it.
    pub kind: JobKind,
    /// Iteration depth.
    pub depth: u32,
    /// Score for Red in centi-soldiers (mates capped at ±2000).
    pub score_red: i32,
    /// Moves to mate, positive when Red mates.
    pub mate_red: Option<i32>,
    /// Whether the score is Red's exact score or only a bound on it.
    pub bound_red: RedBound,
    /// Nodes searched.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Milliseconds searched.
    pub time_ms: u64,
    /// Principal variation, ICCS.
    pub pv: Vec<String>,
    /// Principal variation, each move in each notation.
    pub pv_names: Vec<MoveNames>,
    /// Every line searched (MultiPV), best first; the first is the one above.
    pub lines: Vec<Line>,
}

/// Which side of Red's true score a reported score is. A search stopped inside an iteration
/// reports the line of the move it plays, whose score may be only a bound
/// ([`SearchInfo::bound`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RedBound {
    /// The score.
    Exact,
    /// Red's score is at least this.
    AtLeast,
    /// Red's score is at most this.
    AtMost,
}

impl RedBound {
    /// The bound for Red of `bound`, a bound for the side to move of `root`.
    fn of(bound: Bound, root: &Position) -> RedBound {
        let red_to_move = root.side_to_move() == xiangqi::Color::Red;
        match (bound, red_to_move) {
            (Bound::Exact, _) => RedBound::Exact,
            (Bound::Lower, true) | (Bound::Upper, false) => RedBound::AtLeast,
            (Bound::Upper, true) | (Bound::Lower, false) => RedBound::AtMost,
        }
    }
}

/// One line of a search with several (MultiPV): its score and its moves.
#[derive(Clone, Debug, Serialize)]
pub struct Line {
    /// The depth the line was searched to: the report's, or one less for a line a search
    /// stopped inside a depth had not searched again (see [`Analysis::add_line`]).
    pub depth: u32,
    /// Score for Red in centi-soldiers (mates capped at ±2000).
    pub score_red: i32,
    /// Moves to mate, positive when Red mates.
    pub mate_red: Option<i32>,
    /// Whether the score is exact or a bound.
    pub bound_red: RedBound,
    /// The line, ICCS.
    pub pv: Vec<String>,
    /// The line, each move in each notation.
    pub pv_names: Vec<MoveNames>,
}

impl Line {
    /// The line of `info`, a search of `root`.
    fn new(root: &Position, info: &SearchInfo) -> Line {
        let sign = if root.side_to_move() == xiangqi::Color::Red {
            1
        } else {
            -1
        };
        let mate = match printed(info.score) {
            Printed::Mate(n) => Some(n * sign),
            Printed::Cp(_) => None,
        };
        let (pv, pv_names) = line(root, &info.pv);
        Line {
            depth: info.depth,
            score_red: capped(info.score) * sign,
            mate_red: mate,
            bound_red: RedBound::of(info.bound, root),
            pv,
            pv_names,
        }
    }
}

impl Analysis {
    /// The report of `info`, a search of `root` by a job of `kind`.
    pub fn new(kind: JobKind, root: &Position, info: &SearchInfo) -> Analysis {
        let first = Line::new(root, info);
        let ms = info.time.as_millis() as u64;
        Analysis {
            kind,
            depth: info.depth,
            score_red: first.score_red,
            mate_red: first.mate_red,
            bound_red: first.bound_red,
            nodes: info.nodes,
            nps: info.nodes * 1000 / ms.max(1),
            time_ms: ms,
            pv: first.pv.clone(),
            pv_names: first.pv_names.clone(),
            lines: vec![first],
        }
    }

    /// Adds the next line (`info.multipv` after the first) of the same depth, or of the
    /// depth before: a search stopped inside a depth sends its lines again, the move it plays
    /// first, and the lines it had not searched again keep the depth before. A line of
    /// another depth, or out of order, is not this report's and is left out.
    pub fn add_line(&mut self, root: &Position, info: &SearchInfo) {
        let depth_fits = info.depth == self.depth || info.depth + 1 == self.depth;
        if depth_fits && info.multipv == self.lines.len() + 1 {
            self.lines.push(Line::new(root, info));
        }
    }
}

/// A line of moves in ICCS and named in each notation, stopping at the first move that is not
/// legal.
pub fn line(root: &Position, moves: &[Move]) -> (Vec<String>, Vec<MoveNames>) {
    let names = line_names(root, moves);
    (names.iter().map(|n| n.iccs.clone()).collect(), names)
}

/// A score with mates replaced by ±[`SCORE_CAP`].
pub fn capped(score: i32) -> i32 {
    score.clamp(-SCORE_CAP, SCORE_CAP)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn info(score: i32, bound: Bound) -> SearchInfo {
        SearchInfo {
            depth: 6,
            seldepth: 8,
            multipv: 1,
            score,
            bound,
            nodes: 3073,
            tbhits: 0,
            time: Duration::from_millis(2),
            hashfull: 0,
            pv: Vec::new(),
        }
    }

    #[test]
    fn a_bound_for_the_side_to_move_is_turned_into_one_for_red() {
        let red = Position::startpos();
        let black = Position::from_fen(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
        )
        .unwrap();
        let report =
            |root: &Position, bound| Analysis::new(JobKind::Analysis, root, &info(47, bound));
        assert_eq!(report(&red, Bound::Lower).bound_red, RedBound::AtLeast);
        assert_eq!(report(&red, Bound::Upper).bound_red, RedBound::AtMost);
        assert_eq!(report(&red, Bound::Exact).bound_red, RedBound::Exact);
        let black_lower = report(&black, Bound::Lower);
        assert_eq!(
            (black_lower.score_red, black_lower.bound_red),
            (-47, RedBound::AtMost)
        );
        assert_eq!(report(&black, Bound::Upper).bound_red, RedBound::AtLeast);
        let json = serde_json::to_value(&black_lower).unwrap();
        assert_eq!(json["bound_red"], "at_most");
        assert_eq!(json["lines"][0]["bound_red"], "at_most");
    }

    #[test]
    fn a_line_one_depth_shallower_joins_the_report_and_says_its_depth() {
        let root = Position::startpos();
        let at = |depth, multipv| SearchInfo {
            depth,
            multipv,
            ..info(47, Bound::Exact)
        };
        let mut report = Analysis::new(JobKind::Analysis, &root, &at(9, 1));
        report.add_line(&root, &at(9, 2));
        // The lines a stopped search had not searched again keep the depth before.
        report.add_line(&root, &at(8, 3));
        report.add_line(&root, &at(7, 4));
        report.add_line(&root, &at(9, 6));
        assert_eq!(report.lines.len(), 3);
        let json = serde_json::to_value(&report).unwrap();
        assert_eq!(json["depth"], 9);
        assert_eq!(json["lines"][1]["depth"], 9);
        assert_eq!(json["lines"][2]["depth"], 8);
    }
}
