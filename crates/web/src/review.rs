//! A post-game review: every position of the game evaluated, and each move marked by how much
//! of its side's winning chance it gave away.

use serde::Serialize;
use xiangqi::{format_move, Color, Move, Notation, Position};

/// What the review says about one move.
#[derive(Clone, Debug, Serialize)]
pub struct ReviewPly {
    /// How much worse than the best move it was, for the side that played it (centi-soldiers).
    pub loss: i32,
    /// How much of its winning chance (0 to 1) the side that played it gave away.
    pub chance_lost: f64,
    /// `inaccuracy`, `mistake`, `blunder`, or none: by the chance lost, so that moves in a
    /// position already won or lost are not marked for the points they leave.
    pub mark: Option<&'static str>,
    /// The engine's move there, in Chinese notation and ICCS, when it differs from the move played.
    pub best: Option<String>,
    /// The same in ICCS.
    pub best_iccs: Option<String>,
}

/// A post-game review in progress or finished.
#[derive(Clone, Debug, Serialize, Default)]
pub struct Review {
    /// Positions evaluated so far.
    pub done: usize,
    /// Positions to evaluate (moves + 1).
    pub total: usize,
    /// Whether every position has been evaluated.
    pub finished: bool,
    /// Score for Red after each position (index 0 = start), capped at ±2000.
    pub evals: Vec<i32>,
    /// One entry per move, once both positions around it are evaluated.
    pub plies: Vec<ReviewPly>,
}

/// The scale of the winning chance: a side ahead by this many centi-soldiers wins about three
/// games in four (the page's evaluation bar uses the same curve).
pub const CHANCE_SCALE: f64 = 250.0;
/// Review marks by the winning chance a move gave away: from about 0.5, 1.2 and 3 soldiers lost
/// in a level position, much more in a position already decided, where nothing is marked.
pub const INACCURACY: f64 = 0.05;
/// See [`INACCURACY`].
pub const MISTAKE: f64 = 0.11;
/// See [`INACCURACY`].
pub const BLUNDER: f64 = 0.25;

/// The winning chance, 0 to 1, of a side with evaluation `score`.
pub fn winning_chance(score: i32) -> f64 {
    1.0 / (1.0 + (-f64::from(score) / CHANCE_SCALE).exp())
}

fn mark(chance_lost: f64) -> Option<&'static str> {
    if chance_lost >= BLUNDER {
        Some("blunder")
    } else if chance_lost >= MISTAKE {
        Some("mistake")
    } else if chance_lost >= INACCURACY {
        Some("inaccuracy")
    } else {
        None
    }
}

/// What the review learns of one position: its score for the side to move (capped) and the
/// engine's best move there.
#[derive(Clone, Copy, Debug)]
pub struct Evaluated {
    /// Score for the side to move, capped at ±2000.
    pub score: i32,
    /// The engine's move, if the position has one.
    pub best: Option<Move>,
}

impl Review {
    /// A review of a game of `plies` moves, nothing evaluated yet.
    pub fn new(plies: usize) -> Review {
        Review {
            total: plies + 1,
            ..Review::default()
        }
    }

    /// Adds the next position of the game, `root`, evaluated as `now`; for every position but
    /// the first, `before` is the one before it, its evaluation and the move played there,
    /// which is then judged.
    pub fn add(
        &mut self,
        root: &Position,
        now: Evaluated,
        before: Option<(&Position, Evaluated, Move)>,
    ) {
        let red = root.side_to_move() == Color::Red;
        self.evals.push(if red { now.score } else { -now.score });
        self.done += 1;
        if let Some((prev, then, played)) = before {
            self.plies.push(judge(prev, then, played, -now.score));
        }
        self.finished = self.done == self.total;
    }
}

/// The move `played` in `prev`, which the engine scored `then` (for the mover), leading to a
/// position worth `after` for the mover.
fn judge(prev: &Position, then: Evaluated, played: Move, after: i32) -> ReviewPly {
    let loss = if then.best == Some(played) {
        0
    } else {
        (then.score - after).max(0)
    };
    let chance_lost = if loss == 0 {
        0.0
    } else {
        (winning_chance(then.score) - winning_chance(after)).max(0.0)
    };
    let best = then.best.filter(|&b| b != played && prev.is_legal(b));
    ReviewPly {
        loss,
        chance_lost,
        mark: mark(chance_lost),
        best: best.map(|b| format_move(prev, b, Notation::Chinese)),
        best_iccs: best.map(|b| b.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_follow_the_winning_chance_not_the_points() {
        let lost = |before: i32, after: i32| winning_chance(before) - winning_chance(after);
        // In a level position the marks fall about where the points would put them.
        assert_eq!(mark(lost(0, -40)), None);
        assert_eq!(mark(lost(0, -60)), Some("inaccuracy"));
        assert_eq!(mark(lost(0, -130)), Some("mistake"));
        assert_eq!(mark(lost(0, -300)), Some("blunder"));
        // A blunder to −8 is one; four more soldiers lost in the lost position are not marked.
        assert_eq!(mark(lost(0, -800)), Some("blunder"));
        assert_eq!(mark(lost(-800, -1200)), None);
        assert_eq!(mark(lost(-900, -1100)), None);
    }
}
