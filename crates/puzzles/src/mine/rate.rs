//! How hard a puzzle is, estimated before anyone has tried it: from how long the engine looked
//! before the first move became its choice for good, how many moves the solver must find, and
//! how many forcing moves (captures and checks) tempt the solver away from the right one.

use crate::puzzle::RATINGS;
use xiangqi::{Move, Position};

/// The rating of a puzzle the engine solves at once in one move with nothing else to try.
const BASE: f64 = 600.0;
/// Rating per doubling of the nodes the engine needed.
const PER_DOUBLING: f64 = 110.0;
/// Nodes that count as "at once".
const INSTANT_NODES: f64 = 64.0;
/// Rating per solver move after the first.
const PER_MOVE: f64 = 80.0;
/// Rating per tempting alternative, counted up to [`MOST_TEMPTING`].
const PER_TEMPTATION: f64 = 20.0;
const MOST_TEMPTING: usize = 10;

/// Captures and checks in `start` other than `key`: the moves a person looks at first.
pub fn tempting_moves(start: &Position, key: Move) -> usize {
    let legal = start.legal_moves();
    legal
        .as_slice()
        .iter()
        .filter(|&&m| m != key && (start.piece_at(m.to()).is_some() || start.gives_check(m)))
        .count()
}

/// The estimated rating, on the scale of [`RATINGS`].
pub fn estimate(settled_at: u64, solver_moves: usize, tempting: usize) -> u16 {
    let doublings = (settled_at as f64 / INSTANT_NODES).max(1.0).log2();
    let rating = BASE
        + PER_DOUBLING * doublings
        + PER_MOVE * solver_moves.saturating_sub(1) as f64
        + PER_TEMPTATION * tempting.min(MOST_TEMPTING) as f64;
    (rating.round() as u16).clamp(*RATINGS.start(), *RATINGS.end())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn harder_to_find_longer_and_more_tempting_puzzles_rate_higher() {
        let easy = estimate(100, 1, 0);
        assert!(estimate(100_000, 1, 0) > easy);
        assert!(estimate(100, 3, 0) > easy);
        assert!(estimate(100, 1, 5) > easy);
        assert_eq!(estimate(0, 1, 0), 600);
        assert_eq!(estimate(u64::MAX, 50, 50), *RATINGS.end());
    }
}
