//! One self-play game: a random opening, then the engine against itself until the rules or
//! the adjudicator end the game, keeping the quiet positions the evaluation can learn from.

use super::adjudicate::{Adjudicator, Verdict};
use super::opening::random_opening;
use super::searcher::Searcher;
use anyhow::{Context, Result};
use std::fmt::{self, Write as _};
use xiangqi::{Color, Game, Outcome};
use xiangqi_engine::random::Rng;
use xiangqi_engine::score::MATE_BOUND;

/// What shapes every game of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Nodes per move.
    pub nodes: u64,
    /// Random plies at the start.
    pub random_plies: u32,
    /// Positions before this ply are not recorded (openings say little about the evaluation).
    pub skip_plies: usize,
    /// Games still running at this many plies are drawn.
    pub max_plies: usize,
    /// Hash table per game, in MiB.
    pub hash_mb: usize,
}

/// A game's result from Red's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// Red won.
    RedWin,
    /// Drawn.
    Draw,
    /// Black won.
    BlackWin,
}

impl GameResult {
    /// The result of a game `winner` won, or a draw.
    fn of(winner: Option<Color>) -> GameResult {
        match winner {
            Some(Color::Red) => GameResult::RedWin,
            Some(Color::Black) => GameResult::BlackWin,
            None => GameResult::Draw,
        }
    }

    /// Red's score as written in the data: `1.0`, `0.5` or `0.0`.
    pub fn as_text(self) -> &'static str {
        match self {
            GameResult::RedWin => "1.0",
            GameResult::Draw => "0.5",
            GameResult::BlackWin => "0.0",
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The rules ended it (mate, stalemate, repetition verdicts, 120 plies, material).
    Rules(Outcome),
    /// The searches' scores ended it.
    Adjudicated(Verdict),
    /// It reached the ply cap and counts as drawn.
    PlyCap,
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ending::Rules(outcome) => write!(f, "{outcome}"),
            Ending::Adjudicated(Verdict::Win(color)) => write!(f, "{color} wins: adjudication"),
            Ending::Adjudicated(Verdict::Draw) => write!(f, "draw: adjudication"),
            Ending::PlyCap => write!(f, "draw: ply cap"),
        }
    }
}

/// A recorded position: its FEN and the search's score for it from Red's point of view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The position.
    pub fen: String,
    /// The search score, Red's view, centi-soldiers.
    pub red_score: i32,
}

/// A finished game with its recorded positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedGame {
    /// Quiet positions, in game order.
    pub samples: Vec<Sample>,
    /// The result.
    pub result: GameResult,
    /// Why the game ended.
    pub ending: Ending,
    /// Plies played, the random ones included.
    pub plies: usize,
    /// Random openings thrown away before this game's.
    pub rejected_openings: u32,
}

impl PlayedGame {
    /// The data lines of this game, `FEN;result;score` each.
    pub fn lines(&self) -> String {
        let mut text = String::new();
        for s in &self.samples {
            let _ = writeln!(text, "{};{};{}", s.fen, self.result.as_text(), s.red_score);
        }
        text
    }
}

/// Plays one game with a fresh hash table; everything random comes from `seed`.
pub fn play(searcher: &mut Searcher, config: &Config, seed: u64) -> Result<PlayedGame> {
    let mut rng = Rng::new(seed);
    searcher.new_game();
    let (mut game, rejected_openings) = random_opening(searcher, &mut rng, config.random_plies);
    // The opening's check searches filled the table: start the game proper from empty.
    searcher.new_game();
    let mut adjudicator = Adjudicator::default();
    let mut samples = Vec::new();
    let ending = loop {
        if let Some(outcome) = game.outcome() {
            break Ending::Rules(outcome);
        }
        if game.len() >= config.max_plies {
            break Ending::PlyCap;
        }
        let found = searcher.search(&game);
        let pos = game.position();
        let Some(best) = found.best_move else {
            // Only a position without legal moves has no best move, and the rules end those.
            anyhow::bail!("the search found no move in {}", pos.to_fen());
        };
        let red_score = match pos.side_to_move() {
            Color::Red => found.score,
            Color::Black => -found.score,
        };
        if is_quiet_sample(&game, config, best, found.score) {
            samples.push(Sample {
                fen: pos.to_fen(),
                red_score,
            });
        }
        if let Some(verdict) = adjudicator.after_search(red_score, game.len()) {
            break Ending::Adjudicated(verdict);
        }
        let fen = pos.to_fen();
        game.play(best)
            .with_context(|| format!("the search's move in {fen}"))?;
    };
    let winner = match ending {
        Ending::Rules(outcome) => outcome.winner(),
        Ending::Adjudicated(Verdict::Win(color)) => Some(color),
        Ending::Adjudicated(Verdict::Draw) | Ending::PlyCap => None,
    };
    Ok(PlayedGame {
        samples,
        result: GameResult::of(winner),
        ending,
        plies: game.len(),
        rejected_openings,
    })
}

/// Whether the current position suits a static evaluation: past the opening, not in check,
/// the best move not a capture (the position is quiet), and the score not a mate.
fn is_quiet_sample(game: &Game, config: &Config, best: xiangqi::Move, score: i32) -> bool {
    let pos = game.position();
    game.len() >= config.skip_plies
        && !pos.in_check()
        && pos.piece_at(best.to()).is_none()
        && score.abs() < MATE_BOUND
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> Config {
        Config {
            nodes: 300,
            random_plies: 4,
            skip_plies: 4,
            max_plies: 60,
            hash_mb: 1,
        }
    }

    #[test]
    fn a_game_is_a_function_of_its_seed() {
        let mut searcher = Searcher::new(tiny().nodes, 1);
        let a = play(&mut searcher, &tiny(), 5).unwrap();
        let b = play(&mut Searcher::new(tiny().nodes, 1), &tiny(), 5).unwrap();
        assert_eq!(a, b);
        assert!(a.plies <= 60);
        assert!(!a.samples.is_empty());
        let c = play(&mut searcher, &tiny(), 6).unwrap();
        assert_ne!(a.samples, c.samples);
    }

    #[test]
    fn lines_carry_fen_result_and_score() {
        let game = PlayedGame {
            samples: vec![Sample {
                fen: xiangqi::START_FEN.to_string(),
                red_score: -12,
            }],
            result: GameResult::BlackWin,
            ending: Ending::PlyCap,
            plies: 1,
            rejected_openings: 0,
        };
        assert_eq!(game.lines(), format!("{};0.0;-12\n", xiangqi::START_FEN));
    }
}
