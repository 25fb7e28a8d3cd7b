//! The ways a game ends besides the rules' verdicts: resignation, an agreed draw (offered by
//! either side), and time; and the computer's recent scores its judgement reads.

use super::{refuse, Human, Notice, Refusal, WebGame};
use crate::ending::Ending;
use xiangqi::game::flag_outcome;
use xiangqi::{Color, DrawReason, Outcome, WinReason};
use xiangqi_engine::instant::Instant;

impl WebGame {
    /// Ends the game with `outcome` and stops the clock.
    pub(super) fn end(&mut self, outcome: Outcome, now: Instant) {
        let to_move = self.position().side_to_move();
        if let Some(clock) = self.rec.clock.as_mut() {
            clock.stop(to_move, now);
        }
        self.rec.ended = Some(Ending::Outcome(outcome));
        self.touch();
    }

    /// The person resigns (on a board where they play both, the side to move resigns).
    pub fn resign(&mut self, now: Instant) -> Result<(), Refusal> {
        self.refuse_if_over()?;
        let side = self.position().side_to_move();
        let loser = match self.rec.human {
            Human::Red => Color::Red,
            Human::Black => Color::Black,
            Human::Both => side,
        };
        self.end(
            Outcome::Win {
                winner: loser.other(),
                reason: WinReason::Resignation,
            },
            now,
        );
        Ok(())
    }

    /// The computer's answer to a draw offer: `accept` ends the game drawn.
    pub fn answer_draw_offer(&mut self, accept: bool, now: Instant) {
        if accept && self.ending().is_none() {
            self.end(Outcome::Draw(DrawReason::Agreement), now);
            self.notice = Some((self.version, Notice::DrawAccepted));
        } else {
            self.notice = Some((self.version, Notice::DrawDeclined));
        }
    }

    /// Ends the game if the side to move's time has run out at `now`; whether it did.
    pub fn flag_if_due(&mut self, now: Instant) -> bool {
        let to_move = self.position().side_to_move();
        let fallen = self.ending().is_none()
            && self
                .rec
                .clock
                .as_ref()
                .is_some_and(|clock| clock.is_flagged(to_move, now));
        if fallen {
            self.end(flag_outcome(self.position(), to_move), now);
        }
        fallen
    }

    /// The computer resigns: the person wins.
    pub fn computer_resigns(&mut self, now: Instant) {
        let computer = self.position().side_to_move();
        self.end(
            Outcome::Win {
                winner: computer.other(),
                reason: WinReason::Resignation,
            },
            now,
        );
        self.notice = Some((self.version, Notice::ComputerResigns));
    }

    /// The computer offers a draw, for the person's next move.
    pub fn offer_draw_to_person(&mut self) {
        self.draw_offer = Some(self.version);
        self.notice = Some((self.version, Notice::ComputerOffersDraw));
    }

    /// Whether the computer's draw offer stands.
    pub fn draw_offer_open(&self) -> bool {
        self.draw_offer == Some(self.version) && self.ending().is_none()
    }

    /// The person accepts the computer's draw offer.
    pub fn accept_draw_offer(&mut self, now: Instant) -> Result<(), Refusal> {
        if !self.draw_offer_open() {
            return refuse("no_offer", "the computer has not offered a draw");
        }
        self.end(Outcome::Draw(DrawReason::Agreement), now);
        Ok(())
    }

    /// The computer's evaluations after its last moves, newest last.
    pub fn computer_scores(&self) -> &[i32] {
        &self.computer_scores
    }

    /// Remembers the computer's evaluation of its move (a few are kept).
    pub fn note_computer_score(&mut self, score: i32) {
        self.computer_scores.push(score);
        let excess = self.computer_scores.len().saturating_sub(8);
        self.computer_scores.drain(..excess);
    }
}
