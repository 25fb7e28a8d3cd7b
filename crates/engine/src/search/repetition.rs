//! The game rules inside the search: repetitions judged by the moves of the cycle (perpetual
//! check or chase loses), and the 120-ply no-capture draw.

use super::Worker;
use crate::score::{mate_in, mated_in, DRAW};
use xiangqi::game::NO_CAPTURE_LIMIT;
use xiangqi::{judge_repetition, Bitboard, CyclePly, Move, Outcome};

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
        if self.config.repetition_is_draw {
            return DRAW;
        }
        let n = self.line.len();
        let cycle = &self.line[n - back..];
        // Rewind a copy to the start of the cycle, then replay it to see what each move chased.
        let mut pos = self.pos.clone();
        for record in cycle.iter().rev() {
            pos.unmake_move(record.mv, record.undo);
        }
        // A cycle never reaches past the last capture, so it is at most the no-capture limit
        // long: a fixed array, no allocation.
        let mut plies = [CycleMove::default(); NO_CAPTURE_LIMIT as usize];
        for (slot, record) in plies.iter_mut().zip(cycle) {
            *slot = CycleMove {
                mv: record.mv,
                check: record.check,
                chased: pos.chased_by(record.mv),
            };
            pos.make_move(record.mv);
        }
        let to_move = self.pos.side_to_move();
        debug_assert!(cycle.len() <= plies.len());
        let judged = &plies[..cycle.len().min(plies.len())];
        match judge_repetition(judged, to_move) {
            Outcome::Draw(_) => DRAW,
            Outcome::Win { winner, .. } if winner == to_move => mate_in(ply),
            Outcome::Win { .. } => mated_in(ply),
        }
    }
}

/// One move of a repeated cycle, as the rules judge it.
#[derive(Clone, Copy, Default)]
struct CycleMove {
    mv: Move,
    check: bool,
    chased: Bitboard,
}

impl CyclePly for CycleMove {
    fn gave_check(&self) -> bool {
        self.check
    }

    fn chased(&self) -> Bitboard {
        self.chased
    }

    fn played(&self) -> Option<Move> {
        Some(self.mv)
    }
}
