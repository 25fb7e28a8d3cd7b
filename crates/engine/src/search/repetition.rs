//! The game rules inside the search: repetitions judged by the moves of the cycle (perpetual
//! check or chase loses), and the 120-ply no-capture draw.

use super::Worker;
use crate::score::{mate_in, mated_in, DRAW};
use xiangqi::game::NO_CAPTURE_LIMIT;
use xiangqi::{judge_repetition, Outcome};

impl Worker<'_> {
    /// The rules' verdict on the current node, `ply` plies below the root, as a score for the
    /// side to move; `None` when the rules have nothing to say.
    ///
    /// A repetition whose earlier occurrence lies inside the search is judged at once; one that
    /// reaches back into the game before the root needs a third occurrence, as in a game.
    pub(super) fn rule_verdict(&self, ply: usize) -> Option<i32> {
        let clock = self.pos.halfmove_clock();
        if clock >= NO_CAPTURE_LIMIT {
            if self.pos.in_check() && self.pos.has_no_legal_move() {
                return Some(mated_in(ply));
            }
            return Some(DRAW);
        }
        let n = self.keys.len() - 1;
        let key = self.keys[n];
        let window = (clock as usize).min(n);
        let mut back = 2;
        let mut first_match = None;
        while back <= window {
            if self.keys[n - back] == key {
                // A null move breaks any repetition through it, and any further back too.
                if self.line[n - back..].iter().any(|record| record.null) {
                    return None;
                }
                if back <= ply {
                    return Some(self.judge(back, ply));
                }
                match first_match {
                    None => first_match = Some(back),
                    Some(_) => return Some(self.judge(back, ply)),
                }
            }
            back += 2;
        }
        None
    }

    /// Judges the cycle of the last `back` plies and scores it for the side to move.
    fn judge(&self, back: usize, ply: usize) -> i32 {
        let n = self.line.len();
        let cycle = &self.line[n - back..];
        // Rewind a copy to the start of the cycle, then replay it to see which moves chased.
        let mut pos = self.pos.clone();
        for record in cycle.iter().rev() {
            pos.unmake_move(record.mv, record.undo);
        }
        let mut flags = Vec::with_capacity(cycle.len());
        for record in cycle {
            let chase = pos.chased_by(record.mv).any();
            flags.push((record.check, chase));
            pos.make_move(record.mv);
        }
        let to_move = self.pos.side_to_move();
        match judge_repetition(&flags, to_move) {
            Outcome::Draw(_) => DRAW,
            Outcome::Win { winner, .. } if winner == to_move => mate_in(ply),
            Outcome::Win { .. } => mated_in(ply),
        }
    }
}
