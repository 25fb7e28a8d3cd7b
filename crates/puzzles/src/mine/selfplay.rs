//! Games to mine: the engine's difficulty levels playing each other. Their mistakes are the
//! kind people make (a level misses what its short search does not see), so the positions after
//! them hold the tactics a person should learn to find.

use std::ops::RangeInclusive;
use xiangqi::{Game, Move, Position};
use xiangqi_engine::strength::Strength;
use xiangqi_engine::{Engine, EngineOptions, Limits, SearchRequest};

/// The weakest and strongest level that play the mined games, unless told otherwise.
pub const LEVELS: RangeInclusive<u8> = 2..=6;
/// Games longer than this are cut off (the rules' draws end most long games before).
const MOST_PLIES: usize = 300;

/// The levels of game `number` when `levels` play: every pairing in turn.
pub fn pairing(levels: &RangeInclusive<u8>, number: u64) -> (u8, u8) {
    let span = u64::from(levels.end().saturating_sub(*levels.start())) + 1;
    let red = levels.start() + (number % span) as u8;
    let black = levels.start() + ((number / span) % span) as u8;
    (red, black)
}

/// Plays game `number` of the run seeded `seed` between `levels` and returns its moves from the
/// start position.
pub fn play(seed: u64, number: u64, levels: &RangeInclusive<u8>) -> Vec<Move> {
    let (red, black) = pairing(levels, number);
    let engine = |level: u8, side: u64| {
        Engine::new(EngineOptions {
            hash_mb: 8,
            strength: Some(Strength::level(level)),
            seed: Some(seed.wrapping_mul(1_000_003).wrapping_add(number * 2 + side)),
            own_book: true,
            ..EngineOptions::default()
        })
    };
    let mut engines = [engine(red, 0), engine(black, 1)];
    let mut game = Game::new(Position::startpos());
    while game.outcome().is_none() && game.len() < MOST_PLIES {
        let side = game.position().side_to_move().index();
        let request = SearchRequest {
            moves: game.moves().collect(),
            ..SearchRequest::new(Position::startpos(), Limits::default())
        };
        let Some(m) = engines[side].search(request, |_| {}).best_move else {
            break;
        };
        if game.play(m).is_err() {
            break;
        }
    }
    game.moves().collect()
}
