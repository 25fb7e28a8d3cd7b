//! Moves: the person's and the computer's, taken back and replayed.

use super::{refuse, tree, Refusal, WebGame, MAX_PLIES};
use crate::clock::Flagged;
use xiangqi::game::flag_outcome;
use xiangqi::Move;
use xiangqi_engine::instant::Instant;

impl WebGame {
    /// Plays `m` for the side to move and presses its clock. A move made after the mover's
    /// time ran out is not played: the game ends on time instead. The caller has checked that
    /// `m` is legal.
    fn push(&mut self, m: Move, now: Instant) -> Result<(), Refusal> {
        if !self.position().is_legal(m) {
            return refuse("illegal", format!("{m} is not legal here"));
        }
        let mover = self.position().side_to_move();
        if let Some(clock) = self.rec.clock.as_mut() {
            if let Err(Flagged(side)) = clock.press(mover, now) {
                self.end(flag_outcome(self.rec.game.position(), side), now);
                return Ok(());
            }
        }
        let at = self.rec.game.len();
        if let Err(e) = self.rec.game.play(m) {
            return refuse("illegal", e.to_string());
        }
        // The main line goes on with `m`: the move redo would replay, or a new one, and the
        // continuation taken back stays as a variation.
        tree::continue_with(&mut self.rec.line, at, m);
        if self.ending().is_some() {
            let to_move = self.position().side_to_move();
            if let Some(clock) = self.rec.clock.as_mut() {
                clock.stop(to_move, now);
            }
        }
        Ok(())
    }

    /// The person's move `m`, sent for `version` (if given).
    pub fn play(&mut self, m: Move, version: Option<u64>, now: Instant) -> Result<(), Refusal> {
        if version.is_some_and(|v| v != self.version) {
            return refuse("stale", "the game has changed since this page last saw it");
        }
        self.refuse_if_over()?;
        if self.rec.game.len() >= MAX_PLIES {
            return refuse(
                "too_long",
                format!("the game has reached {MAX_PLIES} plies, the most a game may have"),
            );
        }
        self.refuse_if_paused()?;
        let pos = self.position();
        if !self.rec.human.plays(pos.side_to_move()) {
            return refuse("not_your_turn", "wait for the computer's move");
        }
        if let Some(reason) = pos.why_illegal(m) {
            return refuse(reason.code(), reason.to_string());
        }
        let pushed = self.push(m, now);
        self.touch();
        pushed
    }

    /// The computer's move `m`, found at `now`.
    pub fn play_computer(&mut self, m: Move, now: Instant) -> Result<(), Refusal> {
        self.refuse_if_over()?;
        if !self.position().is_legal(m) {
            return refuse(
                "engine_failed",
                format!("the engine's move {m} is not legal"),
            );
        }
        let pushed = self.push(m, now);
        self.touch();
        pushed
    }

    /// How many plies to take back so that it is the person's turn again (at least one).
    fn undo_count(&self) -> usize {
        let mut game = self.rec.game.clone();
        let mut n = 0;
        while game.undo().is_some() {
            n += 1;
            if self.rec.human.plays(game.position().side_to_move()) {
                break;
            }
        }
        n
    }

    /// Takes back moves up to the person's turn (one ply on a board where they play both).
    pub fn undo(&mut self, now: Instant) -> Result<(), Refusal> {
        if self.rec.game.is_empty() {
            return refuse("nothing_to_undo", "no move to take back");
        }
        let plies = self.undo_count();
        // The moves stay in the main line, for redo.
        for _ in 0..plies {
            self.rec.game.undo();
        }
        let first_mover = self.rec.game.start().side_to_move();
        if let Some(clock) = self.rec.clock.as_mut() {
            clock.undo(plies, first_mover, now);
        }
        self.computer_scores.clear();
        self.rec.ended = None;
        self.touch();
        Ok(())
    }

    /// Replays the moves taken back, the person's and the computer's answer.
    pub fn redo(&mut self, now: Instant) -> Result<(), Refusal> {
        if self.redo_len() == 0 {
            return refuse("nothing_to_redo", "no move to replay");
        }
        self.refuse_if_over()?;
        self.refuse_if_paused()?;
        while let Some(m) = self.rec.line.get(self.rec.game.len()).map(|m| m.mv) {
            if !self.position().is_legal(m) {
                break;
            }
            if self.push(m, now).is_err() {
                break;
            }
            let side = self.position().side_to_move();
            if self.rec.human.plays(side) || self.ending().is_some() {
                break;
            }
        }
        self.touch();
        Ok(())
    }
}
