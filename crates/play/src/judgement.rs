//! The computer's judgement of a game, beside its moves: when it accepts a draw, when it offers
//! one, and when it resigns. Each rule is one sentence, written in the README.
//!
//! - It **accepts** a draw offer when its evaluation is −1.50 or worse for itself, or when the
//!   position is dead drawn: within ±0.30 with at most one attacking piece (chariot, horse,
//!   cannon, or soldier across the river) on each side.
//! - It **offers** a draw when the position has been dead drawn after each of its last three
//!   moves.
//! - At levels 7 to 10 it **resigns** when its evaluation has been −10.00 or worse (or a mate
//!   against it) after each of its last three searches.

use xiangqi::attacks::OWN_HALVES;
use xiangqi::{Color, PieceKind, Position};
use xiangqi_engine::score::MATE_BOUND;

/// The computer accepts a draw at this evaluation or worse for itself (centi-soldiers): clearly
/// worse, beyond the half soldier or so that the first move is worth at the start.
pub const ACCEPT_WHEN_WORSE_CP: i32 = -150;
/// Within this of level, a position with few attackers is dead drawn.
pub const LEVEL_CP: i32 = 30;
/// The computer resigns at this evaluation or worse for itself, at levels [`RESIGNING_LEVELS`].
pub const RESIGN_CP: i32 = -1000;
/// The levels that resign hopeless positions (the weaker ones play on: a beginner's opponent
/// may still go wrong).
pub const RESIGNING_LEVELS: std::ops::RangeInclusive<u8> = 7..=10;
/// How many of the computer's searches in a row must agree before it offers a draw or resigns.
pub const STREAK: usize = 3;

/// Attacking pieces of `color`: chariots, horses, cannons, and soldiers that crossed the river
/// (one that has not crossed cannot yet reach the enemy palace).
fn attackers(pos: &Position, color: Color) -> u32 {
    let pieces: u32 = [PieceKind::Chariot, PieceKind::Horse, PieceKind::Cannon]
        .into_iter()
        .map(|kind| pos.pieces(color, kind).count())
        .sum();
    let crossed = pos.pieces(color, PieceKind::Soldier) & !OWN_HALVES[color.index()];
    pieces + crossed.count()
}

/// Whether `pos` is dead drawn at `score` (for either side): level, and at most one attacking
/// piece a side.
pub fn dead_drawn(score: i32, pos: &Position) -> bool {
    score.abs() <= LEVEL_CP && attackers(pos, Color::Red) <= 1 && attackers(pos, Color::Black) <= 1
}

/// Whether the computer accepts a draw at `score` (its evaluation, for itself) in `pos`.
pub fn accepts_draw(score: i32, pos: &Position) -> bool {
    score <= ACCEPT_WHEN_WORSE_CP || dead_drawn(score, pos)
}

/// Whether the computer offers a draw, given its scores after its last moves (newest last)
/// and the position now.
pub fn offers_draw(scores: &[i32], pos: &Position) -> bool {
    scores.len() >= STREAK
        && scores[scores.len() - STREAK..]
            .iter()
            .all(|&s| dead_drawn(s, pos))
}

/// Whether the computer at `level` resigns, given its scores after its last searches (newest
/// last).
pub fn resigns(level: u8, scores: &[i32]) -> bool {
    RESIGNING_LEVELS.contains(&level)
        && scores.len() >= STREAK
        && scores[scores.len() - STREAK..]
            .iter()
            .all(|&s| s <= RESIGN_CP || s <= -MATE_BOUND)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    #[test]
    fn draws_are_accepted_only_when_worse_or_dead_drawn() {
        let start = Position::startpos();
        // The start, for either side: about level, and far from simplified.
        for score in [-40, 0, 30] {
            assert!(!accepts_draw(score, &start), "{score}");
        }
        assert!(!accepts_draw(-60, &start));
        assert!(accepts_draw(-150, &start));
        // A chariot each: dead drawn when level.
        let rooks = pos("3k5/9/9/r8/9/9/9/9/9/4KR3 w");
        assert!(accepts_draw(10, &rooks));
        assert!(!accepts_draw(200, &rooks));
        // Soldiers at home do not count; two across the river are two attackers.
        let soldiers = pos("3k5/9/9/p8/9/P1P6/9/9/9/4K4 w");
        assert!(dead_drawn(0, &soldiers));
        let crossed = pos("3k5/9/9/p1P1P4/9/P8/9/9/9/4K4 w");
        assert!(!dead_drawn(0, &crossed));
    }

    #[test]
    fn offers_and_resignations_need_three_searches_in_a_row() {
        let rooks = pos("3k5/9/9/r8/9/9/9/9/9/4KR3 w");
        assert!(!offers_draw(&[0, 0], &rooks));
        assert!(offers_draw(&[400, 0, 5, -10], &rooks));
        assert!(!offers_draw(&[0, 0, 40], &rooks));
        assert!(resigns(10, &[-1200, -1500, -MATE_BOUND - 3]));
        assert!(!resigns(10, &[-1200, -900, -1500]));
        assert!(!resigns(6, &[-2000, -2000, -2000]));
    }
}
