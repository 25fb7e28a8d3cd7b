//! The engine as self-play uses it: one thread, a fixed node budget per move, and a hash table
//! that only this game uses, so a game's moves depend on nothing but its own history.

use super::config::Config;
use xiangqi::Game;
use xiangqi_engine::{Engine, EngineOptions, Limits, SearchRequest, SearchResult};

/// A single-threaded, node-limited engine for one game at a time.
pub struct Searcher {
    engine: Engine,
    nodes: u64,
}

impl Searcher {
    /// An engine searching `config.nodes` nodes per move with a `config.hash_mb` MiB table
    /// and `config.network` as its evaluation.
    pub fn new(config: &Config) -> Searcher {
        let engine = Engine::new(EngineOptions {
            hash_mb: config.hash_mb,
            threads: 1,
            // The book's random choice would make the data depend on the clock.
            own_book: false,
            network: config.network.clone(),
            ..EngineOptions::default()
        });
        Searcher {
            engine,
            nodes: config.nodes,
        }
    }

    /// Empties the hash table, so the next game starts from the same state as any other.
    pub fn new_game(&mut self) {
        self.engine.new_game();
    }

    /// Searches the game's current position, with its history for the repetition rules.
    pub fn search(&mut self, game: &Game) -> SearchResult {
        let limits = Limits {
            nodes: Some(self.nodes),
            ..Limits::default()
        };
        let mut request = SearchRequest::new(game.start().clone(), limits);
        request.moves = game.moves().collect();
        self.engine.search(request, |_| {})
    }
}
