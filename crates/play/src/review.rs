//! A post-game review: every position of the game evaluated, and each move marked by how much
//! of its side's winning chance it gave away.
//!
//! A mark names a better move only when a check confirms it: the engine searches the move
//! played and its own suggestion side by side, to the same depth, in the position where the
//! move was played, and the suggestion must score higher by the mark's margin. Scores of two
//! separate searches (the position before the move and the one after it, each to the depth
//! its time allowed) are too far apart to judge by: at a few milliseconds a position they named
//! "better" moves that lose.

use crate::report::SCORE_CAP;
use serde::{Deserialize, Serialize};
use std::time::Duration;
use xiangqi::{format_move, Color, Move, Notation, Position};
use xiangqi_engine::score::winning_chance;

/// How hard the review looks at each position, as the person chose.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ReviewDepth {
    /// A quick look: about a third of a second a position.
    Quick,
    /// The default: about a second and a half a position.
    #[default]
    Normal,
    /// A long look: about six seconds a position.
    Deep,
}

impl ReviewDepth {
    /// The deepest search and the longest time for one position (the checks of a move get
    /// twice the time, as they search two moves to the depth this search reached).
    pub fn limits(self) -> (u32, Duration) {
        match self {
            ReviewDepth::Quick => (14, Duration::from_millis(300)),
            ReviewDepth::Normal => (20, Duration::from_millis(1500)),
            ReviewDepth::Deep => (32, Duration::from_secs(6)),
        }
    }
}

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
    /// The better move, in Chinese notation: only with a mark, which a check confirmed.
    pub best: Option<String>,
    /// The same in ICCS.
    pub best_iccs: Option<String>,
    /// The engine's line from the better move on (its principal variation where the move was
    /// played), kept in the game as a variation when the person keeps the review.
    #[serde(skip)]
    pub line: Vec<Move>,
    /// What the check found, when the move was checked against the engine's suggestion.
    pub check: Option<Check>,
}

/// The move played and the engine's suggestion in the same position, searched side by side to
/// the same depth: each one's score for the side that played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Check {
    /// The played move's score.
    pub played: i32,
    /// The suggestion's score.
    pub suggested: i32,
    /// The depth both were searched to.
    pub depth: u32,
}

/// A post-game review in progress or finished.
#[derive(Clone, Debug, Serialize, Default)]
pub struct Review {
    /// Positions evaluated so far.
    pub done: usize,
    /// Positions to evaluate (moves + 1).
    pub total: usize,
    /// How hard each position is looked at.
    pub depth: ReviewDepth,
    /// Whether every position has been evaluated.
    pub finished: bool,
    /// Score for Red after each position (index 0 = start), capped at ±2000.
    pub evals: Vec<i32>,
    /// One entry per move, once both positions around it are evaluated.
    pub plies: Vec<ReviewPly>,
}

/// Review marks by the winning chance a move gave away: from about 0.5, 1.2 and 3 soldiers lost
/// in a level position, much more in a position already decided, where nothing is marked.
pub const INACCURACY: f64 = 0.05;
/// See [`INACCURACY`].
pub const MISTAKE: f64 = 0.11;
/// See [`INACCURACY`].
pub const BLUNDER: f64 = 0.25;

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

/// The longest engine line a kept review writes as a variation, in plies.
pub const KEPT_LINE_PLIES: usize = 10;

/// A review's verdict on one move, as it is kept in the game: a glyph, and the better line as
/// a variation with the scores of the check before it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeptMark {
    /// The move's index in the main line.
    pub ply: usize,
    /// The mark's glyph: 6 `?!`, 2 `?` or 4 `??`.
    pub glyph: u8,
    /// The engine's line from the better move on.
    pub line: Vec<Move>,
    /// The check's scores, written before the line.
    pub comment: String,
}

/// A score for the comment of a kept mark: soldiers (`+0.25`, `-2.80`), or a won or lost
/// game (a mate, or more than the cap).
fn soldiers(score: i32) -> String {
    if score >= SCORE_CAP {
        "winning".into()
    } else if score <= -SCORE_CAP {
        "losing".into()
    } else {
        format!("{:+.2}", f64::from(score) / 100.0)
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
    /// A review of a game of `plies` moves at `depth`, nothing evaluated yet.
    pub fn new(plies: usize, depth: ReviewDepth) -> Review {
        Review {
            total: plies + 1,
            depth,
            ..Review::default()
        }
    }

    /// Adds the next position of the game, `root`, evaluated as `now`; for every position but
    /// the first, `before` is the one before it, its evaluation, the engine's line there and
    /// the move played, which is then judged, with the `check` of that move if it needed one
    /// ([`needs_check`]).
    pub fn add(
        &mut self,
        root: &Position,
        now: Evaluated,
        before: Option<(&Position, Evaluated, &[Move], Move)>,
        check: Option<Check>,
    ) {
        let red = root.side_to_move() == Color::Red;
        self.evals.push(if red { now.score } else { -now.score });
        self.done += 1;
        if let Some((prev, then, line, played)) = before {
            let mut ply = judge(prev, then, played, -now.score, check);
            if ply.best_iccs.is_some() && line.first() == then.best.as_ref() {
                ply.line = line.iter().copied().take(KEPT_LINE_PLIES).collect();
            } else if let Some(best) = ply.best_iccs.as_ref().and(then.best) {
                ply.line = vec![best];
            }
            self.plies.push(ply);
        }
        self.finished = self.done == self.total;
    }

    /// The marks with a better move, as they are kept in the game (a finished review's).
    pub fn kept_marks(&self) -> Vec<KeptMark> {
        self.plies
            .iter()
            .enumerate()
            .filter_map(|(ply, p)| {
                let glyph = match p.mark? {
                    "blunder" => 4,
                    "mistake" => 2,
                    _ => 6,
                };
                let check = p.check?;
                (!p.line.is_empty()).then(|| KeptMark {
                    ply,
                    glyph,
                    line: p.line.clone(),
                    comment: format!(
                        "Review, depth {}: this line {}, the move played {}",
                        check.depth,
                        soldiers(check.suggested),
                        soldiers(check.played)
                    ),
                })
            })
            .collect()
    }
}

/// The engine's suggestion to check the move `played` against: its own move in the position
/// (scored `then` for the mover), when that differs from `played` and the position after
/// `played`, worth `after` for the mover, seems to give away at least half an inaccuracy's
/// winning chance. A move that seems to lose less is not marked, so it needs no check.
pub fn needs_check(then: Evaluated, played: Move, after: i32) -> Option<Move> {
    let best = then.best.filter(|&b| b != played)?;
    let seeming = winning_chance(then.score) - winning_chance(after);
    (seeming >= INACCURACY / 2.0).then_some(best)
}

/// The move `played` in `prev`, which the engine scored `then` (for the mover), leading to a
/// position worth `after` for the mover; `check` is what searching the move and the engine's
/// suggestion side by side found. Without a check no move is marked: the move was the
/// engine's own, or it seemed to lose too little to need one.
fn judge(
    prev: &Position,
    then: Evaluated,
    played: Move,
    after: i32,
    check: Option<Check>,
) -> ReviewPly {
    let suggestion = then.best.filter(|&b| b != played && prev.is_legal(b));
    let (loss, chance_lost) = match (suggestion, check) {
        (Some(_), Some(check)) => (
            (check.suggested - check.played).max(0),
            (winning_chance(check.suggested) - winning_chance(check.played)).max(0.0),
        ),
        // Too small to check: the seeming loss, which [`needs_check`] found below any mark.
        (Some(_), None) => (
            (then.score - after).max(0),
            (winning_chance(then.score) - winning_chance(after)).max(0.0),
        ),
        (None, _) => (0, 0.0),
    };
    let mark = if check.is_some() {
        mark(chance_lost)
    } else {
        None
    };
    let best = suggestion.filter(|_| mark.is_some());
    ReviewPly {
        loss,
        chance_lost,
        mark,
        best: best.map(|b| format_move(prev, b, Notation::Chinese)),
        best_iccs: best.map(|b| b.to_string()),
        line: Vec::new(),
        check: check.filter(|_| suggestion.is_some()),
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

    fn mv(text: &str) -> Move {
        xiangqi::parse_move(&Position::startpos(), text).unwrap()
    }

    /// The start position, where Red's engine preferred the central cannon `h2e2`.
    fn start() -> (Position, Evaluated) {
        let then = Evaluated {
            score: 30,
            best: Some(mv("h2e2")),
        };
        (Position::startpos(), then)
    }

    #[test]
    fn a_move_is_marked_only_when_the_check_confirms_the_better_one() {
        let (pos, then) = start();
        let played = mv("a0a1");
        // The position after the move seemed three soldiers worse: worth a check.
        assert_eq!(needs_check(then, played, -270), Some(mv("h2e2")));
        // The check, both moves to depth 12: the suggestion is really better by a blunder.
        let check = Check {
            played: -280,
            suggested: 25,
            depth: 12,
        };
        let ply = judge(&pos, then, played, -270, Some(check));
        assert_eq!(ply.mark, Some("blunder"));
        assert_eq!(ply.best.as_deref(), Some("炮二平五"));
        assert_eq!(ply.best_iccs.as_deref(), Some("h2e2"));
        assert_eq!(ply.loss, 305);
        assert_eq!(ply.check, Some(check));
    }

    #[test]
    fn a_suggestion_the_check_refutes_is_not_named() {
        // The case: two separate searches made the move look like a loss, but searched
        // side by side the move played is the better one. No mark, no "better" move.
        let (pos, then) = start();
        let played = mv("b2e2");
        let check = Check {
            played: 40,
            suggested: -380,
            depth: 14,
        };
        let ply = judge(&pos, then, played, -200, Some(check));
        assert_eq!(ply.mark, None);
        assert_eq!(ply.best, None);
        assert_eq!(ply.best_iccs, None);
        assert_eq!(ply.loss, 0);
        assert_eq!(ply.check, Some(check));
    }

    #[test]
    fn small_seeming_losses_and_the_engines_own_move_are_not_checked_or_marked() {
        let (pos, then) = start();
        assert_eq!(needs_check(then, mv("b2e2"), 20), None);
        let ply = judge(&pos, then, mv("b2e2"), 20, None);
        assert_eq!(
            (ply.mark, ply.best.as_deref(), ply.check),
            (None, None, None)
        );
        assert_eq!(ply.loss, 10);
        assert_eq!(needs_check(then, mv("h2e2"), -500), None);
        let own = judge(&pos, then, mv("h2e2"), -500, None);
        assert_eq!((own.mark, own.loss, own.chance_lost), (None, 0, 0.0));
    }

    #[test]
    fn depths_are_read_by_name_and_grow_in_time() {
        let depth: ReviewDepth = serde_json::from_str("\"deep\"").unwrap();
        assert_eq!(depth, ReviewDepth::Deep);
        assert!(serde_json::from_str::<ReviewDepth>("\"deeper\"").is_err());
        let times: Vec<Duration> = [ReviewDepth::Quick, ReviewDepth::Normal, ReviewDepth::Deep]
            .iter()
            .map(|d| d.limits().1)
            .collect();
        assert!(times.windows(2).all(|w| w[0] < w[1]));
    }
}
