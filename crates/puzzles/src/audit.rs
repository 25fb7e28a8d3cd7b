//! Where the engine disagrees with a puzzle's or a book's line: every position of the line is
//! searched, and each move whose value falls clearly short of the engine's best (for either
//! side) is reported, with both values. `xiangqi puzzles check` prints the findings; for the
//! classics they are written down in docs/PUZZLES.md rather than hidden.

use crate::mine::analyst::Analyst;
use std::fmt;
use xiangqi::{Color, Move, Position};
use xiangqi_engine::score::{self, Printed, MATE, MATE_BOUND};

/// How much more winning chance the engine's move must keep than the line's before the line's
/// move is reported: less is within what two searches of neighbouring positions disagree by.
pub const GAP: f64 = 0.10;

/// The engine's view of one move of the line against its own best.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    /// The move's index in the line, from 0.
    pub index: usize,
    /// Who made it.
    pub mover: Color,
    /// The line's move.
    pub line_move: Move,
    /// Its value for the mover, as the search of the position after it gives it.
    pub line_score: i32,
    /// The engine's move there.
    pub engine_move: Move,
    /// Its value for the mover.
    pub engine_score: i32,
}

impl Finding {
    /// How much more winning chance the engine's move keeps.
    pub fn gap(&self) -> f64 {
        score::winning_chance(self.engine_score) - score::winning_chance(self.line_score)
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = match self.mover {
            Color::Red => "Red",
            Color::Black => "Black",
        };
        write!(
            f,
            "move {} ({side}) {}: {}; the engine plays {}: {} (winning chance {:+.2})",
            self.index + 1,
            self.line_move,
            shown(self.line_score),
            self.engine_move,
            shown(self.engine_score),
            self.gap()
        )
    }
}

/// A score as people read it: `+1.25`, `mate in 3`, `mated in 4`.
pub fn shown(score: i32) -> String {
    match score::printed(score) {
        Printed::Mate(n) if n > 0 => format!("mate in {n}"),
        Printed::Mate(n) => format!("mated in {}", -n),
        Printed::Cp(cp) => format!("{:+.2}", f64::from(cp) / 100.0),
    }
}

/// What the engine makes of a whole line.
#[derive(Clone, Debug, PartialEq)]
pub struct Audit {
    /// The engine's score of the start for the side to move there (`None`: no move there).
    pub start_score: Option<i32>,
    /// Its score of the line's last position for the side to move there (`None`: no move,
    /// the line ends in mate).
    pub end_score: Option<i32>,
    /// The moves that fall short of the engine's best by more than [`GAP`].
    pub findings: Vec<Finding>,
}

/// The value for the side that moved of a position whose side to move scores `child`: turned
/// round, and a mate one ply further away.
fn parent_score(child: i32) -> i32 {
    if child >= MATE_BOUND {
        -(child - 1)
    } else if child <= -MATE_BOUND {
        -(child + 1)
    } else {
        -child
    }
}

/// Searches every position of `line` from `start` for `nodes` nodes and reports where the
/// line's moves fall short. The searches see the line's history, so repetitions count.
pub fn audit(start: &Position, line: &[Move], analyst: &mut Analyst, nodes: u64) -> Audit {
    // The score of each position for its side to move; `None` when it has no move (mated).
    let scores: Vec<Option<(Move, i32)>> = (0..=line.len())
        .map(|i| {
            analyst
                .analyse(start, &line[..i], nodes, &[])
                .map(|a| (a.best, a.score))
        })
        .collect();
    let mut mover = start.side_to_move();
    let mut findings = Vec::new();
    for (index, &line_move) in line.iter().enumerate() {
        if let Some((engine_move, engine_score)) = scores[index] {
            // After the line's move the opponent is to move: its score, turned round. No
            // move left there means the line's move mated.
            let line_score = scores[index + 1].map_or(MATE - 1, |(_, s)| parent_score(s));
            let finding = Finding {
                index,
                mover,
                line_move,
                line_score,
                engine_move,
                engine_score,
            };
            if engine_move != line_move && finding.gap() > GAP {
                findings.push(finding);
            }
        }
        mover = mover.other();
    }
    Audit {
        start_score: scores[0].map(|(_, s)| s),
        end_score: scores[line.len()].map(|(_, s)| s),
        findings,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(start: &Position, moves: &[&str]) -> Vec<Move> {
        let mut pos = start.clone();
        moves
            .iter()
            .map(|text| {
                let m = xiangqi::parse_move_as(&pos, text, xiangqi::Notation::Iccs).unwrap();
                pos.make_move(m);
                m
            })
            .collect()
    }

    #[test]
    fn a_line_that_leaves_a_rook_hanging_is_reported() {
        // Red can take Black's only piece on a9; the line steps aside instead.
        let start = Position::from_fen("r4k3/9/9/9/9/9/9/9/9/R2K5 w - - 0 1").unwrap();
        let mut analyst = Analyst::new(4);
        let found = audit(&start, &line(&start, &["a0b0"]), &mut analyst, 20_000);
        assert_eq!(found.findings.len(), 1, "{:?}", found.findings);
        let finding = &found.findings[0];
        assert_eq!((finding.index, finding.mover), (0, Color::Red));
        assert_eq!(finding.engine_move.to_string(), "a0a9");
        assert!(finding.gap() > GAP, "{finding}");
        assert!(found.end_score.is_some());
    }

    #[test]
    fn a_child_s_mate_is_one_move_further_for_the_parent() {
        // The opponent mates in one after the move: the mover is mated in one.
        assert_eq!(shown(parent_score(MATE - 1)), "mated in 1");
        // The opponent is mated in one after the move: the mover mates in two.
        assert_eq!(shown(parent_score(-(MATE - 2))), "mate in 2");
        assert_eq!(parent_score(35), -35);
    }

    #[test]
    fn a_mating_line_is_not_reported_and_ends_in_mate() {
        // The chariot on a8 holds rank 8 and the generals' file is shut: b0b9 mates.
        let start = Position::from_fen("4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1").unwrap();
        let mut analyst = Analyst::new(4);
        let found = audit(&start, &line(&start, &["b0b9"]), &mut analyst, 20_000);
        assert!(found.findings.is_empty(), "{:?}", found.findings);
        assert_eq!(found.end_score, None, "the line ends in mate");
        assert!(found.start_score.is_some_and(|s| s >= MATE_BOUND));
        assert_eq!(shown(found.start_score.unwrap()), "mate in 1");
    }
}
