//! The settings every self-play game of a run shares: the engine's node budget, hash table and
//! evaluation, and the plies played at random, left unrecorded or capped.

use std::sync::Arc;
use xiangqi_engine::nnue::Network;

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
    /// The evaluation network the engine plays with; `None` is the hand-made evaluation.
    pub network: Option<Arc<Network>>,
}

#[cfg(test)]
impl Config {
    /// Short, shallow games for the tests of datagen's modules.
    pub(crate) fn tiny() -> Config {
        Config {
            nodes: 300,
            random_plies: 4,
            skip_plies: 4,
            max_plies: 50,
            hash_mb: 1,
            network: Some(xiangqi_engine::nnue::embedded()),
        }
    }
}
