//! Whether the solver's move is right: the solution's move always is; any other move is
//! searched, and it is right when it wins as surely and as fast as the move it replaces. The
//! checks are the engine's, not a comparison of strings, so a second mate in two counts.
//!
//! A classic composition asks to hold a draw or to keep a win for the book's number of moves:
//! there a move is right when the engine finds it keeps as good a game as the book's move (or,
//! off the book's line, as its own best move), and the defender's replies are the book's while
//! the solver follows it.

use crate::mine::analyst::{Analysis, Analyst};
use crate::mine::solve::WIN_CHANCE;
use crate::puzzle::Puzzle;
use crate::tag::{material_won_by, MATERIAL_GAIN};
use crate::theme::Theme;
use xiangqi::{Move, Position};

/// Nodes of each search that judges a move (about a tenth of a second natively).
pub const JUDGE_NODES: u64 = 200_000;
/// How much less winning chance than the reference move an accepted move may leave.
pub const TOLERANCE: f64 = 0.05;

/// What the puzzle wants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Mate within this many of the solver's moves.
    Mate(usize),
    /// Win at least [`MATERIAL_GAIN`] in this many of the solver's moves, keeping the win.
    Material(usize),
    /// Hold the draw for this many of the solver's moves (a classic whose verdict is a draw).
    Draw(usize),
    /// Keep the win for this many of the solver's moves (a classic won without a mate in the
    /// book's line).
    Win(usize),
}

impl Goal {
    /// The goal of `puzzle`: a draw when it has the `draw` theme, mate when its solution
    /// mates, a win for any other classic, else material.
    pub fn of(puzzle: &Puzzle) -> Goal {
        let n = puzzle.solver_moves();
        let mut end = puzzle.position.clone();
        puzzle.solution.iter().for_each(|&m| {
            end.make_move(m);
        });
        if puzzle.themes.contains(&Theme::Draw) {
            Goal::Draw(n)
        } else if end.has_no_legal_move() {
            Goal::Mate(n)
        } else if puzzle.themes.contains(&Theme::Classic) {
            Goal::Win(n)
        } else {
            Goal::Material(n)
        }
    }

    /// The solver's moves the goal allows.
    pub fn moves(self) -> usize {
        match self {
            Goal::Mate(n) | Goal::Material(n) | Goal::Draw(n) | Goal::Win(n) => n,
        }
    }
}

/// The judgement of one solver move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Right, and the puzzle is solved.
    Solved,
    /// Right; the defender answers with `reply` and the solver moves again.
    Right {
        /// The defender's answer.
        reply: Move,
    },
    /// Wrong; `refutation` is how the defender escapes (its first move, then the best play).
    Wrong {
        /// The defender's best line after the wrong move.
        refutation: Vec<Move>,
    },
}

/// A puzzle being solved: the moves played so far, and whether they are still the solution's.
#[derive(Clone, Debug)]
pub struct Attempt {
    puzzle: Puzzle,
    goal: Goal,
    /// Both sides' moves played so far.
    played: Vec<Move>,
    /// Whether every move so far was the solution's (the defender's replies then follow it).
    on_line: bool,
}

impl Attempt {
    /// A fresh attempt at `puzzle`.
    pub fn new(puzzle: Puzzle) -> Attempt {
        let goal = Goal::of(&puzzle);
        Attempt {
            puzzle,
            goal,
            played: Vec::new(),
            on_line: true,
        }
    }

    /// An attempt at `puzzle` that has come as far as `played` (both sides' moves, the
    /// solver's first and the defender's last); `None` if a move is illegal or the solver is
    /// not to move after them. The moves are not judged again.
    pub fn resume(puzzle: Puzzle, played: Vec<Move>) -> Option<Attempt> {
        let mut pos = puzzle.position.clone();
        for &m in &played {
            if !pos.is_legal(m) {
                return None;
            }
            pos.make_move(m);
        }
        let goal = Goal::of(&puzzle);
        let solver_turn = played.len() % 2 == 0 && played.len() / 2 < goal.moves();
        let on_line = puzzle.solution.starts_with(&played);
        solver_turn.then_some(Attempt {
            puzzle,
            goal,
            played,
            on_line,
        })
    }

    /// The puzzle.
    pub fn puzzle(&self) -> &Puzzle {
        &self.puzzle
    }

    /// What the puzzle wants.
    pub fn goal(&self) -> Goal {
        self.goal
    }

    /// The moves played so far, both sides'.
    pub fn played(&self) -> &[Move] {
        &self.played
    }

    /// The position the solver is to move in.
    pub fn position(&self) -> Position {
        let mut pos = self.puzzle.position.clone();
        self.played.iter().for_each(|&m| {
            pos.make_move(m);
        });
        pos
    }

    /// The solver's moves still to make, this one included.
    pub fn moves_left(&self) -> usize {
        self.goal.moves() - self.played.len() / 2
    }

    /// The move the solver should make now: the solution's while the attempt follows it, else
    /// the engine's best. The hints show its piece, then the move.
    pub fn reference_move(&self, analyst: &mut Analyst) -> Option<Move> {
        if self.on_line {
            return self.puzzle.solution.get(self.played.len()).copied();
        }
        analyst
            .analyse(&self.puzzle.position, &self.played, JUDGE_NODES, &[])
            .map(|a| a.best)
    }

    /// Judges the solver's move `m` (legal in [`Attempt::position`]) and, when it is right,
    /// plays it and the defender's answer.
    pub fn play(&mut self, m: Move, analyst: &mut Analyst) -> Verdict {
        let start = self.puzzle.position.clone();
        let step = self.played.len();
        let expected = self.on_line.then(|| self.puzzle.solution[step]);
        let right = expected == Some(m) || self.wins_as_well(m, analyst);
        if !right {
            let mut line = self.played.clone();
            line.push(m);
            let refutation = analyst
                .analyse(&start, &line, JUDGE_NODES, &[])
                .map(|a| a.pv)
                .unwrap_or_default();
            return Verdict::Wrong { refutation };
        }
        self.on_line &= expected == Some(m);
        self.played.push(m);
        if self.is_complete() {
            return Verdict::Solved;
        }
        let reply = if self.on_line {
            self.puzzle.solution[step + 1]
        } else {
            match analyst.analyse(&start, &self.played, JUDGE_NODES, &[]) {
                Some(a) => a.best,
                None => return Verdict::Solved,
            }
        };
        self.played.push(reply);
        if self.position().has_no_legal_move() {
            // The engine let a losing move through: the reply mates, and it was wrong.
            self.played.truncate(step);
            return Verdict::Wrong {
                refutation: vec![reply],
            };
        }
        Verdict::Right { reply }
    }

    /// Whether the moves played so far reach the goal.
    fn is_complete(&self) -> bool {
        let solver_moves = self.played.len().div_ceil(2);
        let end = self.position();
        if end.has_no_legal_move() {
            return true;
        }
        match self.goal {
            Goal::Mate(_) => false,
            Goal::Draw(_) if xiangqi::game::is_insufficient_material(&end) => true,
            Goal::Material(n) | Goal::Draw(n) | Goal::Win(n) => {
                solver_moves >= n
                    || (self.on_line && self.played.len() == self.puzzle.solution.len())
            }
        }
    }

    /// Whether `m`, not the solution's move, wins as surely and as fast as the reference.
    fn wins_as_well(&self, m: Move, analyst: &mut Analyst) -> bool {
        let start = &self.puzzle.position;
        let mut line = self.played.clone();
        line.push(m);
        let mut after = self.position();
        after.make_move(m);
        if after.has_no_legal_move() {
            return true;
        }
        let Some(reply) = analyst.analyse(start, &line, JUDGE_NODES, &[]) else {
            return true;
        };
        let left = self.moves_left();
        let chance = 1.0 - reply.chance();
        match self.goal {
            Goal::Mate(_) => mated_within(&reply, left - 1),
            Goal::Material(_) | Goal::Win(_) if chance < WIN_CHANCE => false,
            Goal::Material(_) if left == 1 => {
                // The last move must have the material won by then.
                material_won_by(start, &line) >= MATERIAL_GAIN
            }
            // A move the defender mates after never holds anything.
            Goal::Draw(_) if reply.mates_in().is_some() => false,
            Goal::Material(_) | Goal::Win(_) | Goal::Draw(_) => {
                chance >= self.reference_chance(analyst) - TOLERANCE
            }
        }
    }

    /// The solver's winning chance after the reference move (1 when there is none to compare).
    fn reference_chance(&self, analyst: &mut Analyst) -> f64 {
        let Some(reference) = self.reference_move(analyst) else {
            return 1.0;
        };
        let mut line = self.played.clone();
        line.push(reference);
        analyst
            .analyse(&self.puzzle.position, &line, JUDGE_NODES, &[])
            .map_or(1.0, |a| 1.0 - a.chance())
    }
}

/// Whether the side to move in `analysis` is mated in at most `moves` of the other side's
/// moves.
fn mated_within(analysis: &Analysis, moves: usize) -> bool {
    analysis.is_mated()
        && match xiangqi_engine::score::printed(analysis.score) {
            xiangqi_engine::score::Printed::Mate(n) => n.unsigned_abs() as usize <= moves,
            xiangqi_engine::score::Printed::Cp(_) => false,
        }
}

#[cfg(test)]
mod tests;
