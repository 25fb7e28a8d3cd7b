//! The game's clock: time left, the next deadline, pausing, and the clock the engine plays on.

use super::{refuse, Refusal, WebGame};
use crate::clock::{Clock, TimeLeft};
use xiangqi::Color;
use xiangqi_engine::instant::Instant;

impl WebGame {
    /// The clock, in a game on the clock.
    pub fn clock(&self) -> Option<&Clock> {
        self.rec.clock.as_ref()
    }

    /// Each side's time left now, in a game on the clock.
    pub fn time_left(&self, now: Instant) -> Option<[TimeLeft; 2]> {
        let clock = self.rec.clock.as_ref()?;
        let to_move = self.position().side_to_move();
        Some([
            clock.time_left(Color::Red, to_move, now),
            clock.time_left(Color::Black, to_move, now),
        ])
    }

    /// When the side to move's time runs out, if it runs.
    pub fn deadline(&self) -> Option<Instant> {
        let to_move = self.position().side_to_move();
        self.rec.clock.as_ref()?.deadline(to_move)
    }

    /// Pauses the clock (and the computer's thinking).
    pub fn pause(&mut self, now: Instant) -> Result<(), Refusal> {
        self.refuse_if_over()?;
        let to_move = self.position().side_to_move();
        let Some(clock) = self.rec.clock.as_mut() else {
            return refuse("no_clock", "this game has no clock");
        };
        if !clock.is_paused() {
            clock.pause(to_move, now);
            self.touch();
        }
        Ok(())
    }

    /// Restarts the clock after a pause.
    pub fn resume(&mut self, now: Instant) -> Result<(), Refusal> {
        self.refuse_if_over()?;
        let Some(clock) = self.rec.clock.as_mut() else {
            return refuse("no_clock", "this game has no clock");
        };
        if clock.is_paused() {
            clock.resume(now);
            self.touch();
        }
        Ok(())
    }

    /// The engine's clock for the side to move at `now`, in a game on the clock.
    pub fn engine_clock(&self, now: Instant) -> Option<xiangqi_engine::Clock> {
        let clock = self.rec.clock.as_ref()?;
        let to_move = self.position().side_to_move();
        let left = clock.time_left(to_move, to_move, now);
        let control = clock.control(to_move);
        let main = std::time::Duration::from_millis(left.main_ms);
        let period = left
            .byoyomi_ms
            .map_or(control.byoyomi, std::time::Duration::from_millis);
        Some(xiangqi_engine::Clock {
            byoyomi: period,
            ..xiangqi_engine::Clock::new(main, control.increment)
        })
    }
}
