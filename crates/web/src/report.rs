//! What the engine's searches tell the page: the latest report of a search (depth, score for
//! Red, the line in two notations), with mates capped for graphs.

use super::job::JobKind;
use serde::Serialize;
use xiangqi::{format_move, Move, Notation, Position};
use xiangqi_engine::score::{printed, Printed};
use xiangqi_engine::SearchInfo;

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
    /// Nodes searched.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Milliseconds searched.
    pub time_ms: u64,
    /// Principal variation, ICCS.
    pub pv: Vec<String>,
    /// Principal variation in Chinese notation.
    pub pv_chinese: Vec<String>,
}

impl Analysis {
    /// The report of `info`, a search of `root` by a job of `kind`.
    pub fn new(kind: JobKind, root: &Position, info: &SearchInfo) -> Analysis {
        let red = root.side_to_move() == xiangqi::Color::Red;
        let sign = if red { 1 } else { -1 };
        let mate = match printed(info.score) {
            Printed::Mate(n) => Some(n * sign),
            Printed::Cp(_) => None,
        };
        let (pv, pv_chinese) = line(root, &info.pv);
        let ms = info.time.as_millis() as u64;
        Analysis {
            kind,
            depth: info.depth,
            score_red: capped(info.score) * sign,
            mate_red: mate,
            nodes: info.nodes,
            nps: info.nodes * 1000 / ms.max(1),
            time_ms: ms,
            pv,
            pv_chinese,
        }
    }
}

/// A line of moves in ICCS and Chinese, stopping at the first move that is not legal.
pub fn line(root: &Position, moves: &[Move]) -> (Vec<String>, Vec<String>) {
    let mut pos = root.clone();
    let mut iccs = Vec::new();
    let mut chinese = Vec::new();
    for &m in moves {
        if !pos.is_legal(m) {
            break;
        }
        iccs.push(m.to_string());
        chinese.push(format_move(&pos, m, Notation::Chinese));
        pos.make_move(m);
    }
    (iccs, chinese)
}

/// A score with mates replaced by ±[`SCORE_CAP`].
pub fn capped(score: i32) -> i32 {
    score.clamp(-SCORE_CAP, SCORE_CAP)
}
