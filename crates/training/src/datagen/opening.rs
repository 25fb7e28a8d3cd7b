//! Random openings for self-play: a few uniformly random legal plies from the start position
//! give every game its own path; openings the engine already judges clearly lost for one side
//! (random moves often drop a piece) are thrown away and drawn again, so the games still
//! teach something about balanced play.

use super::searcher::Searcher;
use xiangqi::{Game, Position};
use xiangqi_engine::random::Rng;

/// An opening whose search score is beyond this (centi-soldiers) is drawn again.
pub const MAX_OPENING_SCORE: i32 = 150;
/// Attempts before the last opening is taken whatever its score.
pub const MAX_ATTEMPTS: u32 = 50;

/// A game after `plies` random plies, balanced if possible; also returns how many openings
/// were thrown away.
pub fn random_opening(searcher: &mut Searcher, rng: &mut Rng, plies: u32) -> (Game, u32) {
    let mut rejected = 0;
    loop {
        let game = random_plies(rng, plies);
        let last_try = rejected + 1 >= MAX_ATTEMPTS;
        // An opening that already ended the game is no use; one with no ply is the start.
        if game.outcome().is_none() {
            let score = searcher.search(&game).score;
            if score.abs() <= MAX_OPENING_SCORE || last_try {
                return (game, rejected);
            }
        } else if last_try {
            return (Game::new(Position::startpos()), rejected);
        }
        rejected += 1;
    }
}

/// Up to `plies` uniformly random legal plies from the start (fewer if the game ends).
fn random_plies(rng: &mut Rng, plies: u32) -> Game {
    let mut game = Game::new(Position::startpos());
    for _ in 0..plies {
        if game.outcome().is_some() {
            break;
        }
        let moves = game.position().legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves.as_slice()[rng.below(moves.len() as u64) as usize];
        if game.play(m).is_err() {
            break;
        }
    }
    game
}

#[cfg(test)]
mod tests {
    use super::super::config::Config;
    use super::*;

    #[test]
    fn same_seed_same_opening() {
        let mut searcher = Searcher::new(&Config {
            nodes: 500,
            ..Config::tiny()
        });
        let (a, _) = random_opening(&mut searcher, &mut Rng::new(9), 6);
        searcher.new_game();
        let (b, _) = random_opening(&mut searcher, &mut Rng::new(9), 6);
        assert_eq!(a.len(), 6);
        assert_eq!(a.moves().collect::<Vec<_>>(), b.moves().collect::<Vec<_>>());
        let (c, _) = random_opening(&mut searcher, &mut Rng::new(10), 6);
        assert_ne!(a.moves().collect::<Vec<_>>(), c.moves().collect::<Vec<_>>());
    }
}
