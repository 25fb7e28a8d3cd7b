//! Ending games early on the engines' own scores (optional; the rules end games by themselves).
//!
//! - Resign: a side whose score was at or below `−cp` for `moves` of its moves in a row loses.
//! - Draw: once the game is `after` plies long, if both sides' scores stayed within `±cp` for
//!   `moves` moves each in a row (the last `2 · moves` plies), the game is drawn.
//!
//! A move without a score breaks every streak it belongs to: the match cannot vouch for it.

use super::wire::Score;
use xiangqi::Color;

/// `--resign-score CP --resign-moves N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    /// Score (centi-soldiers, positive) at or below whose negative a side counts as lost.
    pub cp: i64,
    /// Consecutive own moves needed.
    pub moves: u32,
}

/// `--draw-score CP --draw-moves N --draw-after PLIES`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    /// Scores within `±cp` count as drawish.
    pub cp: i64,
    /// Consecutive moves of each side needed.
    pub moves: u32,
    /// The game must be at least this many plies long.
    pub after: usize,
}

/// What adjudication decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// This side's scores said it was lost.
    Resign(Color),
    /// Both sides' scores said it was a draw.
    Draw,
}

/// Follows the scores of one game.
#[derive(Clone, Debug)]
pub struct Adjudicator {
    resign: Option<ResignRule>,
    draw: Option<DrawRule>,
    /// Per side: its latest moves in a row with a losing score.
    losing: [u32; 2],
    /// Latest plies in a row with a drawish score.
    drawish: u32,
}

impl Adjudicator {
    /// An adjudicator with no streaks yet.
    pub fn new(resign: Option<ResignRule>, draw: Option<DrawRule>) -> Self {
        Adjudicator {
            resign,
            draw,
            losing: [0; 2],
            drawish: 0,
        }
    }

    /// Takes the score `mover` reported for the move it just played (from its own point of
    /// view); `plies` is the game's length after the move.
    pub fn after_move(
        &mut self,
        mover: Color,
        score: Option<Score>,
        plies: usize,
    ) -> Option<Verdict> {
        let cp = score.map(Score::as_cp);
        let losing = &mut self.losing[mover.index()];
        match (self.resign, cp) {
            (Some(rule), Some(cp)) if cp <= -rule.cp => *losing += 1,
            _ => *losing = 0,
        }
        match (self.draw, cp) {
            (Some(rule), Some(cp)) if cp.abs() <= rule.cp => self.drawish += 1,
            _ => self.drawish = 0,
        }
        if let Some(rule) = self.resign {
            if self.losing[mover.index()] >= rule.moves {
                return Some(Verdict::Resign(mover));
            }
        }
        if let Some(rule) = self.draw {
            if plies >= rule.after && self.drawish >= 2 * rule.moves {
                return Some(Verdict::Draw);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Color::{Black, Red};

    #[test]
    fn resign_needs_consecutive_own_moves() {
        let rule = ResignRule { cp: 500, moves: 2 };
        let mut a = Adjudicator::new(Some(rule), None);
        assert_eq!(a.after_move(Red, Some(Score::Cp(-600)), 1), None);
        // The other side's scores do not break Red's streak.
        assert_eq!(a.after_move(Black, Some(Score::Cp(600)), 2), None);
        assert_eq!(
            a.after_move(Red, Some(Score::Cp(-500)), 3),
            Some(Verdict::Resign(Red))
        );
        let mut a = Adjudicator::new(Some(rule), None);
        a.after_move(Black, Some(Score::Mate(-3)), 1);
        a.after_move(Black, Some(Score::Cp(-100)), 3);
        assert_eq!(a.after_move(Black, Some(Score::Mate(-2)), 5), None);
        assert_eq!(a.after_move(Black, None, 7), None, "no score breaks it");
        assert_eq!(a.after_move(Black, Some(Score::Mate(-1)), 9), None);
        assert_eq!(
            a.after_move(Black, Some(Score::Cp(-30_000)), 11),
            Some(Verdict::Resign(Black))
        );
    }

    #[test]
    fn draw_needs_both_sides_and_enough_plies() {
        let rule = DrawRule {
            cp: 10,
            moves: 2,
            after: 6,
        };
        let mut a = Adjudicator::new(None, Some(rule));
        let quiet = Some(Score::Cp(-10));
        assert_eq!(a.after_move(Red, quiet, 1), None);
        assert_eq!(a.after_move(Black, quiet, 2), None);
        assert_eq!(a.after_move(Red, quiet, 3), None);
        // Four quiet plies, but the game is too young.
        assert_eq!(a.after_move(Black, quiet, 4), None);
        assert_eq!(a.after_move(Red, Some(Score::Cp(11)), 5), None);
        for (i, side) in [Black, Red, Black].into_iter().enumerate() {
            assert_eq!(a.after_move(side, quiet, 6 + i), None);
        }
        assert_eq!(a.after_move(Red, quiet, 9), Some(Verdict::Draw));
    }

    #[test]
    fn nothing_without_rules() {
        let mut a = Adjudicator::new(None, None);
        for ply in 1..100 {
            let side = if ply % 2 == 1 { Red } else { Black };
            assert_eq!(a.after_move(side, Some(Score::Mate(-1)), ply), None);
        }
    }
}
