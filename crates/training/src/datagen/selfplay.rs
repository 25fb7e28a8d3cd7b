//! One self-play game: a random opening, then the engine against itself until the rules or
//! the adjudicator end the game, keeping the quiet positions the evaluation can learn from.

use super::adjudicate::{Adjudicator, Verdict};
use super::config::Config;
use super::opening::random_opening;
use super::searcher::Searcher;
use crate::samples::{Sample, Wdl};
use anyhow::{Context, Result};
use std::fmt::{self, Write as _};
use xiangqi::{Color, Game, Outcome, Position};
use xiangqi_engine::random::Rng;
use xiangqi_engine::score::MATE_BOUND;

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

    /// Who won, if anyone.
    pub fn winner(self) -> Option<Color> {
        match self {
            GameResult::RedWin => Some(Color::Red),
            GameResult::Draw => None,
            GameResult::BlackWin => Some(Color::Black),
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

/// A recorded position with the search's score for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recorded {
    /// The position, as FEN (with its move counters).
    pub fen: String,
    /// Whose move it is.
    pub side_to_move: Color,
    /// The search score for the side to move, centi-soldiers (never a mate).
    pub score: i32,
    /// Plies played from the start position to this one.
    pub ply: usize,
}

impl Recorded {
    /// The score from Red's point of view.
    pub fn red_score(&self) -> i32 {
        match self.side_to_move {
            Color::Red => self.score,
            Color::Black => -self.score,
        }
    }
}

/// A finished game with its recorded positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedGame {
    /// Quiet positions, in game order.
    pub recorded: Vec<Recorded>,
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
    /// The data lines of this game, `FEN;result;score` each (Red's view).
    pub fn lines(&self) -> String {
        let mut text = String::new();
        for r in &self.recorded {
            let _ = writeln!(
                text,
                "{};{};{}",
                r.fen,
                self.result.as_text(),
                r.red_score()
            );
        }
        text
    }

    /// The training samples of this game (the side to move's view).
    pub fn samples(&self) -> Result<Vec<Sample>> {
        let winner = self.result.winner();
        self.recorded
            .iter()
            .map(|r| {
                let pos = Position::from_fen(&r.fen)
                    .with_context(|| format!("a recorded position {:?}", r.fen))?;
                let result = Wdl::for_side(winner, r.side_to_move);
                Ok(Sample::new(&pos, r.score, result, r.ply))
            })
            .collect()
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
    let mut recorded = Vec::new();
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
            recorded.push(Recorded {
                fen: pos.to_fen(),
                side_to_move: pos.side_to_move(),
                score: found.score,
                ply: game.len(),
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
        recorded,
        result: GameResult::of(winner),
        ending,
        plies: game.len(),
        rejected_openings,
    })
}

/// Whether the current position is recorded: the positions an evaluation is asked about in a
/// search are the quiet ones at the end of its quiescence search, so those are the ones to
/// learn from. Exactly:
///
/// - the game is at least `skip_plies` plies long: the random opening and the moves just after
///   it are not the engine's play;
/// - the side to move is not in check: a position in check is never evaluated statically (the
///   search extends checks, the quiescence search answers them);
/// - the search's best move is not a capture: when it is, the score belongs to the exchange
///   under way, which a static evaluation cannot see, and the position after it is the one
///   worth learning;
/// - the score is not a mate: a mate is found by search, and says nothing about the material
///   and placement an evaluation weighs.
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

    #[test]
    fn a_game_is_a_function_of_its_seed() {
        let tiny = Config::tiny;
        let mut searcher = Searcher::new(&tiny());
        let a = play(&mut searcher, &tiny(), 5).unwrap();
        let b = play(&mut Searcher::new(&tiny()), &tiny(), 5).unwrap();
        assert_eq!(a, b);
        assert!(a.plies <= tiny().max_plies);
        assert!(!a.recorded.is_empty());
        let c = play(&mut searcher, &tiny(), 6).unwrap();
        assert_ne!(a.recorded, c.recorded);
        // Every recorded position is quiet as `is_quiet_sample` says.
        for r in &a.recorded {
            let pos = Position::from_fen(&r.fen).unwrap();
            assert!(!pos.in_check(), "{}", r.fen);
            assert!(r.ply >= tiny().skip_plies);
            assert!(r.score.abs() < MATE_BOUND);
        }
    }

    #[test]
    fn lines_and_samples_carry_result_and_score() {
        let black_to_move = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
        let game = PlayedGame {
            recorded: vec![
                Recorded {
                    fen: xiangqi::START_FEN.to_string(),
                    side_to_move: Color::Red,
                    score: -12,
                    ply: 0,
                },
                Recorded {
                    fen: black_to_move.to_string(),
                    side_to_move: Color::Black,
                    score: 30,
                    ply: 1,
                },
            ],
            result: GameResult::BlackWin,
            ending: Ending::PlyCap,
            plies: 2,
            rejected_openings: 0,
        };
        assert_eq!(
            game.lines(),
            format!("{};0.0;-12\n{black_to_move};0.0;-30\n", xiangqi::START_FEN)
        );
        let samples = game.samples().unwrap();
        assert_eq!(samples[0].result(), Wdl::Loss);
        assert_eq!(samples[0].score(), -12);
        assert_eq!(samples[1].result(), Wdl::Win);
        assert_eq!(samples[1].side_to_move(), Color::Black);
        assert_eq!(samples[1].score(), 30);
        assert_eq!(samples[1].ply(), 1);
    }
}
