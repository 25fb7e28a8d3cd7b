//! One side's chess clock in a game: time left, the increment, and the periods of a
//! moves-per-period control (`clock:40/60` fills the clock up by 60 s after every 40 moves).
//!
//! Only the engine's own moves count towards a period: book moves are played before the clocks
//! start.

use super::config::TimeControl;
use super::wire::SideTime;
use std::time::Duration;

/// A running clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameClock {
    /// Time given at the start and again at the start of every period.
    base: Duration,
    /// Time added after each move.
    inc: Duration,
    /// Moves per period; `None` when `base` is for the whole game.
    period: Option<u32>,
    /// Time left now.
    left: Duration,
    /// Moves made on this clock.
    made: u32,
    /// Byo-yomi period: once `left` is spent, each move within this.
    byoyomi: Duration,
}

impl GameClock {
    /// A full clock for `tc`; `None` for controls without a clock (movetime, depth, nodes).
    pub fn new(tc: TimeControl) -> Option<GameClock> {
        match tc {
            TimeControl::Clock {
                base,
                inc,
                moves,
                byoyomi,
            } => Some(GameClock::full(base, inc, moves).with_byoyomi(byoyomi)),
            _ => None,
        }
    }

    /// A full clock of `base` time, `inc` per move, `moves` per period.
    pub fn full(base: Duration, inc: Duration, moves: Option<u32>) -> GameClock {
        GameClock {
            base,
            inc,
            period: moves,
            left: base,
            made: 0,
            byoyomi: Duration::ZERO,
        }
    }

    /// The same clock with a byo-yomi period.
    pub fn with_byoyomi(self, byoyomi: Duration) -> GameClock {
        GameClock { byoyomi, ..self }
    }

    /// How long the next move may take before the clock falls: the time left, then the period.
    pub fn allowed(&self) -> Duration {
        self.left + self.byoyomi
    }

    /// Time left.
    pub fn left(&self) -> Duration {
        self.left
    }

    /// Moves until the end of the current period (at least 1); `None` without periods.
    pub fn movestogo(&self) -> Option<u32> {
        // `checked_rem`: a period of 0 moves (never parsed, but constructible) means none.
        let n = self.period?;
        self.made.checked_rem(n).map(|done| n - done)
    }

    /// The clock as a `go` command reports it.
    pub fn side_time(&self) -> SideTime {
        SideTime {
            left: self.left,
            inc: self.inc,
            movestogo: self.movestogo(),
            byoyomi: self.byoyomi,
        }
    }

    /// Charges a move that took `elapsed` (the caller has checked it was in time): the time
    /// comes off (a move that ran into the byo-yomi period leaves none), the increment goes on,
    /// and the last move of a period brings the base time back on top of what is left.
    pub fn punch(&mut self, elapsed: Duration) {
        self.left = self.left.saturating_sub(elapsed).saturating_add(self.inc);
        self.made = self.made.saturating_add(1);
        if self.period.and_then(|n| self.made.checked_rem(n)) == Some(0) {
            self.left = self.left.saturating_add(self.base);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn sudden_death_with_increment() {
        let tc = TimeControl::Clock {
            base: ms(1000),
            inc: ms(100),
            moves: None,
            byoyomi: Duration::ZERO,
        };
        let mut clock = GameClock::new(tc).unwrap();
        assert_eq!(clock.movestogo(), None);
        clock.punch(ms(300));
        assert_eq!(clock.left(), ms(800));
        // Over time (within the margin): empty, then the increment.
        clock.punch(ms(5000));
        assert_eq!(clock.left(), ms(100));
        assert_eq!(GameClock::new(TimeControl::Depth(3)), None);
    }

    #[test]
    fn periods_refill_after_every_n_moves() {
        let tc = TimeControl::Clock {
            base: ms(1000),
            inc: ms(0),
            moves: Some(3),
            byoyomi: Duration::ZERO,
        };
        let mut clock = GameClock::new(tc).unwrap();
        assert_eq!(clock.movestogo(), Some(3));
        clock.punch(ms(100));
        assert_eq!(clock.movestogo(), Some(2));
        clock.punch(ms(100));
        assert_eq!(clock.movestogo(), Some(1));
        assert_eq!(clock.left(), ms(800));
        clock.punch(ms(100));
        // 700 left from the first period plus the second period's 1000.
        assert_eq!(clock.left(), ms(1700));
        assert_eq!(clock.movestogo(), Some(3));
        assert_eq!(
            clock.side_time(),
            SideTime {
                left: ms(1700),
                inc: ms(0),
                movestogo: Some(3),
                byoyomi: ms(0),
            }
        );
    }

    #[test]
    fn byoyomi_allows_the_period_after_the_time_is_spent() {
        let tc = super::super::config::parse_time_control("clock:10b1").unwrap();
        assert_eq!(tc.to_string(), "clock:10+0b1");
        let mut clock = GameClock::new(tc).unwrap();
        assert_eq!(clock.allowed(), ms(11_000));
        // A move that ran into the period leaves no game time, and the next gets the period.
        clock.punch(ms(10_500));
        assert_eq!(clock.left(), ms(0));
        assert_eq!(clock.allowed(), ms(1_000));
        assert_eq!(clock.side_time().byoyomi, ms(1_000));
        assert!(super::super::config::parse_time_control("clock:0b0").is_err());
        assert!(super::super::config::parse_time_control("clock:5bx").is_err());
    }

    #[test]
    fn periods_with_increment() {
        let tc = TimeControl::Clock {
            base: ms(1000),
            inc: ms(50),
            moves: Some(1),
            byoyomi: Duration::ZERO,
        };
        let mut clock = GameClock::new(tc).unwrap();
        clock.punch(ms(900));
        assert_eq!(clock.left(), ms(1150));
        assert_eq!(clock.movestogo(), Some(1));
        // A period of no moves is no period (and no division by zero).
        let mut odd = GameClock::full(ms(1000), ms(0), Some(0));
        assert_eq!(odd.movestogo(), None);
        odd.punch(ms(100));
        assert_eq!(odd.left(), ms(900));
    }
}
