//! What every request and job shares: the games, the engines, the laboratory's runs.

use super::lab_runs::LabRuns;
use super::pool::SearchPool;
use super::puzzle_book::PuzzleBook;
use super::store::GameStore;
use super::tablebases;
use anyhow::{Context, Result};
use std::path::Path;
use std::sync::Arc;

/// Hash table of each pooled engine, in MiB.
const ENGINE_HASH_MB: usize = 32;

/// Everything the handlers share.
pub struct AppState {
    /// The games.
    pub games: GameStore,
    /// The engines.
    pub pool: Arc<SearchPool>,
    /// The search laboratory's runs in progress, to stop them.
    pub lab: Arc<LabRuns>,
    /// The player's puzzle record.
    pub puzzles: PuzzleBook,
}

impl AppState {
    /// State with games saved under `data_dir` and at most `searches` searches at once, whose
    /// engines probe the endgame tables of `data_dir/tablebases/` when there are any (what
    /// became of them is said on stderr, see `tablebases::load`).
    pub fn new(data_dir: &Path, searches: usize) -> Result<Arc<AppState>> {
        let games = GameStore::open(data_dir)
            .with_context(|| format!("cannot use the data directory {}", data_dir.display()))?;
        let tables = tablebases::load(data_dir, &mut |line| eprintln!("xiangqi: {line}"));
        Ok(Arc::new(AppState {
            games,
            pool: SearchPool::with_tablebases(searches, ENGINE_HASH_MB, tables),
            lab: Arc::default(),
            puzzles: PuzzleBook::open(data_dir),
        }))
    }
}

#[cfg(test)]
impl AppState {
    /// State with games saved under `data_dir` and searches from `pool`.
    pub fn with_pool(data_dir: &Path, pool: Arc<SearchPool>) -> Arc<AppState> {
        Arc::new(AppState {
            games: GameStore::open(data_dir).unwrap(),
            pool,
            lab: Arc::default(),
            puzzles: PuzzleBook::open(data_dir),
        })
    }
}
