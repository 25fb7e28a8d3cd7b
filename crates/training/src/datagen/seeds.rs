//! The seeds of a run's games and chunks, each mixed from the run's seed and its number, so
//! that every game has its own random openings and the output depends on the arguments alone.

use xiangqi_engine::random::Rng;

/// The seed of game `index` of a run (or chunk) seeded with `seed`: mixed, so neighbouring
/// seeds and indices give unrelated games.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    Rng::new(seed ^ index.wrapping_mul(0xA076_1D64_78BD_642F)).next_u64()
}

/// The seed of chunk `chunk` of a `--dir` run seeded with `seed`; its games are seeded with
/// [`game_seed`]`(chunk_seed(seed, chunk), i)`. A different mixing constant from
/// [`game_seed`]'s, so chunk seeds and game seeds do not coincide.
pub fn chunk_seed(seed: u64, chunk: u64) -> u64 {
    Rng::new(seed ^ chunk.wrapping_mul(0xE703_7ED1_A0B4_28DB) ^ 0x8EBC_6AF0_9C88_C6E3).next_u64()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_differ() {
        assert_ne!(game_seed(1, 0), game_seed(1, 1));
        assert_ne!(game_seed(1, 0), game_seed(2, 0));
        assert_eq!(game_seed(7, 3), game_seed(7, 3));
        assert_ne!(chunk_seed(1, 0), chunk_seed(1, 1));
        assert_ne!(chunk_seed(1, 0), chunk_seed(2, 0));
        assert_ne!(chunk_seed(1, 0), game_seed(1, 0));
    }
}
