//! Ends self-play games early on the searches' own scores, so games that are decided (or dead
//! drawn) do not run on to the rules' limits and fill the data with near-copies.
//!
//! - Win: Red's-view scores beyond ±[`WIN_SCORE`] for [`WIN_PLIES`] plies in a row, each side's
//!   search agreeing on who is winning.
//! - Draw: once the game is [`DRAW_AFTER`] plies long, scores within ±[`DRAW_SCORE`] for
//!   [`DRAW_PLIES`] plies in a row.

use xiangqi::Color;

/// Score (centi-soldiers) from which a side counts as winning.
pub const WIN_SCORE: i32 = 1000;
/// Plies in a row with a winning score: two searches by each side.
pub const WIN_PLIES: u32 = 4;
/// Scores within this many centi-soldiers of zero count as drawish.
pub const DRAW_SCORE: i32 = 20;
/// Plies in a row with a drawish score.
pub const DRAW_PLIES: u32 = 16;
/// Games shorter than this are never adjudicated drawn.
pub const DRAW_AFTER: usize = 120;

/// What the scores decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// This side won.
    Win(Color),
    /// A draw.
    Draw,
}

/// Follows the scores of one game.
#[derive(Clone, Debug, Default)]
pub struct Adjudicator {
    /// Plies in a row with Red winning (positive) or Black winning (negative).
    winning: i32,
    /// Plies in a row with a drawish score.
    drawish: u32,
}

impl Adjudicator {
    /// Takes the score of the search made at ply `ply` (0-based, before its move), from Red's
    /// point of view.
    pub fn after_search(&mut self, red_score: i32, ply: usize) -> Option<Verdict> {
        self.winning = if red_score >= WIN_SCORE {
            self.winning.max(0) + 1
        } else if red_score <= -WIN_SCORE {
            self.winning.min(0) - 1
        } else {
            0
        };
        if self.winning.unsigned_abs() >= WIN_PLIES {
            let winner = if self.winning > 0 {
                Color::Red
            } else {
                Color::Black
            };
            return Some(Verdict::Win(winner));
        }
        if red_score.abs() <= DRAW_SCORE {
            self.drawish += 1;
        } else {
            self.drawish = 0;
        }
        if self.drawish >= DRAW_PLIES && ply + 1 >= DRAW_AFTER {
            return Some(Verdict::Draw);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn win_needs_consecutive_agreeing_scores() {
        let mut a = Adjudicator::default();
        assert_eq!(a.after_search(1200, 10), None);
        assert_eq!(a.after_search(1100, 11), None);
        assert_eq!(a.after_search(900, 12), None);
        for ply in 13..16 {
            assert_eq!(a.after_search(1500, ply), None);
        }
        assert_eq!(a.after_search(1500, 16), Some(Verdict::Win(Color::Red)));
        let mut b = Adjudicator::default();
        for ply in 0..3 {
            assert_eq!(b.after_search(-2000, ply), None);
        }
        assert_eq!(b.after_search(-1000, 3), Some(Verdict::Win(Color::Black)));
    }

    #[test]
    fn draw_needs_a_long_game_and_a_quiet_stretch() {
        let mut a = Adjudicator::default();
        for ply in 0..DRAW_AFTER - 1 {
            assert_eq!(a.after_search(5, ply), None);
        }
        assert_eq!(a.after_search(5, DRAW_AFTER - 1), Some(Verdict::Draw));
        let mut b = Adjudicator::default();
        for ply in 200..200 + DRAW_PLIES as usize - 1 {
            assert_eq!(b.after_search(-20, ply), None);
        }
        assert_eq!(b.after_search(21, 300), None);
        assert_eq!(b.after_search(0, 301), None);
    }
}
