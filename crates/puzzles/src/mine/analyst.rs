//! The engine as the generator uses it: a fixed node budget, a fresh table for every search,
//! so that the same input always gives the same puzzles.

use std::sync::{Arc, Mutex};
use xiangqi::{Move, Position};
use xiangqi_engine::score::{self, MATE_BOUND};
use xiangqi_engine::{Engine, EngineOptions, Limits, SearchRequest};

/// What one search said about a position, for the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The best move.
    pub best: Move,
    /// Its score for the side to move.
    pub score: i32,
    /// The expected line, the best move first.
    pub pv: Vec<Move>,
    /// Nodes searched by the time the best move became the best for good: how hard it was to
    /// find.
    pub settled_at: u64,
}

impl Analysis {
    /// Moves to mate when the side to move mates (`None` otherwise).
    pub fn mates_in(&self) -> Option<u32> {
        match score::printed(self.score) {
            score::Printed::Mate(n) if n > 0 => Some(n as u32),
            _ => None,
        }
    }

    /// Whether the side to move is mated whatever it does.
    pub fn is_mated(&self) -> bool {
        self.score <= -MATE_BOUND
    }

    /// The side to move's winning chance, 0 to 1.
    pub fn chance(&self) -> f64 {
        score::winning_chance(self.score)
    }
}

/// A single-threaded engine searching to a node budget.
pub struct Analyst {
    engine: Engine,
}

impl Analyst {
    /// An engine with a `hash_mb` table, the built-in network and no book.
    pub fn new(hash_mb: usize) -> Analyst {
        Analyst {
            engine: Engine::new(EngineOptions {
                hash_mb,
                threads: 1,
                own_book: false,
                seed: Some(0),
                ..EngineOptions::default()
            }),
        }
    }

    /// Searches the position after `moves` from `start` for `nodes` nodes, leaving out the root
    /// moves in `banned`. `None` when no move is left to search.
    pub fn analyse(
        &mut self,
        start: &Position,
        moves: &[Move],
        nodes: u64,
        banned: &[Move],
    ) -> Option<Analysis> {
        let request = SearchRequest {
            moves: moves.to_vec(),
            banned: banned.to_vec(),
            ..SearchRequest::new(
                start.clone(),
                Limits {
                    nodes: Some(nodes),
                    ..Limits::default()
                },
            )
        };
        let root = request.root_position();
        if root
            .legal_moves()
            .as_slice()
            .iter()
            .all(|m| banned.contains(m))
        {
            return None;
        }
        // A fresh table each time: the result must not depend on what was searched before.
        self.engine.new_game();
        let firsts: Arc<Mutex<Vec<(u64, Move)>>> = Arc::default();
        let seen = Arc::clone(&firsts);
        let result = self.engine.search(request, move |info| {
            if let (Some(&first), Ok(mut seen)) = (info.pv.first(), seen.lock()) {
                seen.push((info.nodes, first));
            }
        });
        let best = result.best_move?;
        let firsts = firsts.lock().map(|f| f.clone()).unwrap_or_default();
        let settled_at = firsts
            .iter()
            .rev()
            .take_while(|(_, m)| *m == best)
            .last()
            .map_or(result.nodes, |(n, _)| *n);
        Some(Analysis {
            best,
            score: result.score,
            pv: result.pv,
            settled_at,
        })
    }
}
