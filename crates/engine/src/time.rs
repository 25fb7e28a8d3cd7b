//! Time management: how long to think about one move.
//!
//! A fixed `movetime` is used whole, less the move overhead, of which a short move time keeps
//! at most a fifth (at 20 ms a 30 ms overhead would leave the search nothing). With a clock the engine aims for
//! an *optimum* (its share of the remaining time plus most of the increment) and never passes a
//! *maximum* that leaves the move overhead and a safety margin on the clock, so it cannot lose
//! on time. Under byo-yomi (读秒: once the main time is spent, every move must be made within a
//! fixed period) the period is a floor each move can count on, and the main time is spread on
//! top of it. On the clock the search also plays an easy move early (the search decides which
//! moves are easy; this module says when): the only legal move at once, and a best move clear
//! of every other once it has had [`EASY_MOVE_SHARE`] of the optimum, so that the clock keeps
//! the rest for the moves that need it.

use crate::instant::Instant;
use std::time::Duration;

/// A fixed move time keeps at most this fraction of itself (1/N) for the move overhead.
const MOVETIME_OVERHEAD_SHARE: u32 = 5;

/// On the clock, the share of the optimum an *easy* move gets: a best move that has stayed the
/// same for several iterations and that every other move, searched to half the depth, falls
/// short of by a clear margin (a recapture, the one defence). The time it does not take stays
/// on the clock for the moves that need it.
const EASY_MOVE_SHARE: f64 = 0.05;

/// A side's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left.
    pub time: Duration,
    /// Increment per move.
    pub increment: Duration,
    /// Moves until the next time control, if any.
    pub moves_to_go: Option<u32>,
    /// Byo-yomi period: once `time` is spent, each move may take this long (zero: none). A move
    /// that starts with main time left may use that and then the period.
    pub byoyomi: Duration,
}

impl Clock {
    /// A clock of `time` left with `increment` per move, no byo-yomi.
    pub fn new(time: Duration, increment: Duration) -> Clock {
        Clock {
            time,
            increment,
            moves_to_go: None,
            byoyomi: Duration::ZERO,
        }
    }
}

/// Everything that limits one search.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Stop after this many plies.
    pub depth: Option<u32>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// Think exactly this long.
    pub movetime: Option<Duration>,
    /// The mover's clock.
    pub clock: Option<Clock>,
    /// Search until told to stop.
    pub infinite: bool,
    /// Stop once a mate in this many moves is found.
    pub mate: Option<u32>,
    /// When the move's time began: the moment the command to search arrived, so that the time
    /// taken to hand it to the search (busy machines make it long) is counted. `None`: when the
    /// search starts.
    pub started: Option<Instant>,
}

impl Limits {
    /// Whether a limit ends the search by itself: a depth, a node count or a time, and not
    /// `infinite`.
    pub fn is_bounded(&self) -> bool {
        !self.infinite
            && (self.depth.is_some()
                || self.nodes.is_some()
                || self.movetime.is_some()
                || self.clock.is_some())
    }
}

/// The optimum and maximum thinking time on `clock`.
fn plan(clock: &Clock, overhead: Duration) -> (Duration, Duration) {
    // Keep a reserve on the clock beyond the overhead: 1% plus a few milliseconds.
    let reserve = overhead + clock.time / 100 + Duration::from_millis(5);
    let usable = clock.time.saturating_sub(reserve);
    let moves_left = clock.moves_to_go.unwrap_or(32).clamp(1, 40);
    let share = usable / moves_left + clock.increment * 3 / 4;
    if clock.byoyomi.is_zero() {
        let optimum = share.min(usable * 2 / 3);
        let maximum = (optimum * 4).min(usable * 3 / 4).max(optimum);
        return (optimum, maximum);
    }
    // The period is there for every move from now on; a move may run into it once the main
    // time is gone, and must end before it does: less the overhead and a margin of a tenth of
    // the period, and at least 200 ms where that is no more than a fifth of it. A busy machine
    // can hold a search up for a good part of a second: at 1 s a move while the machine was
    // compiling, a margin of 5 % lost one game in ten, a margin of 10 % one game in fifty.
    let margin = (clock.byoyomi / 10).max((clock.byoyomi / 5).min(Duration::from_millis(200)));
    let period = clock.byoyomi.saturating_sub(overhead + margin);
    if usable.is_zero() {
        // In byo-yomi proper: time not used now is lost, so use the period whole.
        return (period, period);
    }
    let optimum = share + period * 3 / 4;
    let maximum = (optimum * 4).min(usable * 3 / 4 + period).max(optimum);
    (optimum, maximum.min(usable + period))
}

/// Deadlines for one search, measured from its start.
#[derive(Clone, Copy, Debug)]
pub struct TimeManager {
    start: Instant,
    optimum: Option<Duration>,
    maximum: Option<Duration>,
}

impl TimeManager {
    /// Plans a search whose time began at `limits.started` (or now). `overhead` is the time
    /// lost per move between engine and GUI (communication, process scheduling).
    pub fn new(limits: &Limits, overhead: Duration) -> TimeManager {
        let start = limits.started.unwrap_or_else(Instant::now);
        if limits.infinite {
            return TimeManager {
                start,
                optimum: None,
                maximum: None,
            };
        }
        if let Some(movetime) = limits.movetime {
            // The GUI gave the move this long: the overhead may take a fifth of it at most.
            let budget = movetime
                .saturating_sub(overhead.min(movetime / MOVETIME_OVERHEAD_SHARE))
                .max(Duration::from_millis(1));
            // Time not used now cannot be saved for later moves: search until the budget is
            // spent (a last, unfinished iteration can still replace the best move).
            return TimeManager {
                start,
                optimum: None,
                maximum: Some(budget),
            };
        }
        let Some(clock) = limits.clock else {
            return TimeManager {
                start,
                optimum: None,
                maximum: None,
            };
        };
        let (optimum, maximum) = plan(&clock, overhead);
        TimeManager {
            start,
            optimum: Some(optimum.max(Duration::from_millis(1))),
            maximum: Some(maximum.max(Duration::from_millis(1))),
        }
    }

    /// Restarts the clock now (on `ponderhit`, when the engine's own time begins to run).
    pub fn restart(&mut self) {
        self.start = Instant::now();
    }

    /// Moves the start later by `pause` (the search waited that long with the clock stopped).
    pub fn delay(&mut self, pause: Duration) {
        self.start += pause;
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether to start another iteration, given how unstable the best move has been
    /// (`instability` 1.0 = normal; larger when the best move keeps changing).
    pub fn can_start_iteration(&self, instability: f64) -> bool {
        match self.optimum {
            None => true,
            // An iteration costs several times the previous ones: don't start one that would
            // end far past the optimum.
            Some(optimum) => {
                self.elapsed().as_secs_f64() < optimum.as_secs_f64() * 0.55 * instability
            }
        }
    }

    /// Whether the search plays on a clock, where time saved now is there for later moves (a
    /// fixed move time or a node count is not).
    pub fn on_the_clock(&self) -> bool {
        self.optimum.is_some()
    }

    /// Whether an easy move has had its share of the optimum ([`EASY_MOVE_SHARE`]): the moment
    /// to check whether the move is easy, and to play it if it is. Never on a fixed move time.
    pub fn easy_move_time_spent(&self) -> bool {
        self.optimum.is_some_and(|optimum| {
            self.elapsed().as_secs_f64() >= optimum.as_secs_f64() * EASY_MOVE_SHARE
        })
    }

    /// Whether the hard limit has passed: stop searching at once.
    pub fn out_of_time(&self) -> bool {
        self.maximum.is_some_and(|m| self.elapsed() >= m)
    }

    /// The hard limit, if any.
    #[cfg(test)]
    pub fn maximum(&self) -> Option<Duration> {
        self.maximum
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(ms: u64, inc: u64, mtg: Option<u32>) -> Limits {
        byoyomi(ms, inc, mtg, 0)
    }

    fn byoyomi(ms: u64, inc: u64, mtg: Option<u32>, byo: u64) -> Limits {
        Limits {
            clock: Some(Clock {
                time: Duration::from_millis(ms),
                increment: Duration::from_millis(inc),
                moves_to_go: mtg,
                byoyomi: Duration::from_millis(byo),
            }),
            ..Limits::default()
        }
    }

    #[test]
    fn under_byoyomi_a_move_never_passes_main_time_and_period() {
        let overhead = Duration::from_millis(30);
        for (ms, inc, byo) in [
            (0, 0, 1_000),
            (0, 0, 30_000),
            (500, 0, 1_000),
            (10_000, 0, 1_000),
            (600_000, 0, 30_000),
            (5, 0, 100),
            (0, 0, 40),
        ] {
            let tm = TimeManager::new(&byoyomi(ms, inc, None, byo), overhead);
            let max = tm.maximum().unwrap();
            let allowed = Duration::from_millis(ms + byo);
            assert!(
                max + overhead <= allowed.max(Duration::from_millis(1) + overhead),
                "{ms}+{inc} byo {byo}: {max:?}"
            );
        }
        // In byo-yomi proper the period is used almost whole: time not used is lost.
        let tm = TimeManager::new(&byoyomi(0, 0, None, 10_000), overhead);
        assert!(tm.maximum().unwrap() >= Duration::from_millis(8_500));
        // With main time left, a move may count on part of the period as well.
        let with_main = TimeManager::new(&byoyomi(60_000, 0, None, 10_000), overhead);
        let without = TimeManager::new(&clock(60_000, 0, None), overhead);
        assert!(with_main.optimum > without.optimum);
    }

    #[test]
    fn never_plans_past_the_clock() {
        let overhead = Duration::from_millis(30);
        for (ms, inc, mtg) in [
            (60_000, 0, None),
            (1_000, 0, None),
            (100, 0, Some(1)),
            (50, 1000, None),
            (10, 0, None),
            (300_000, 2_000, Some(40)),
        ] {
            let tm = TimeManager::new(&clock(ms, inc, mtg), overhead);
            let max = tm.maximum().unwrap();
            assert!(
                max + overhead
                    <= Duration::from_millis(ms).max(Duration::from_millis(1)) + overhead,
                "{ms} {inc} {mtg:?}: {max:?}"
            );
            assert!(max.as_millis() as u64 <= ms.saturating_sub(30).max(1));
        }
    }

    #[test]
    fn movetime_is_used_minus_overhead() {
        let limits = Limits {
            movetime: Some(Duration::from_millis(1000)),
            ..Limits::default()
        };
        let tm = TimeManager::new(&limits, Duration::from_millis(30));
        assert_eq!(tm.maximum(), Some(Duration::from_millis(970)));
        // No iteration is skipped to save time: all of it is for this move.
        assert!(tm.can_start_iteration(0.1));
        assert!(!tm.on_the_clock() && !tm.easy_move_time_spent());
        // A short move time keeps four fifths of itself: 16 of 20 ms, not 1.
        let short = Limits {
            movetime: Some(Duration::from_millis(20)),
            ..Limits::default()
        };
        let tm = TimeManager::new(&short, Duration::from_millis(30));
        assert_eq!(tm.maximum(), Some(Duration::from_millis(16)));
    }

    #[test]
    fn an_easy_move_gets_a_small_share_of_the_optimum() {
        // 10 minutes, 32 moves to plan for: an optimum of about 18 s, of which an easy move
        // takes a twentieth.
        let limits = Limits {
            started: Instant::now().checked_sub(Duration::from_millis(500)),
            ..clock(600_000, 0, None)
        };
        let tm = TimeManager::new(&limits, Duration::from_millis(30));
        assert!(tm.on_the_clock());
        assert!(
            !tm.easy_move_time_spent(),
            "half a second is not yet its share"
        );
        let limits = Limits {
            started: Instant::now().checked_sub(Duration::from_millis(1_000)),
            ..clock(600_000, 0, None)
        };
        assert!(TimeManager::new(&limits, Duration::from_millis(30)).easy_move_time_spent());
    }

    #[test]
    fn time_runs_from_when_the_command_arrived() {
        // A command that waited a second before its search started has no time left of a
        // half-second move.
        let limits = Limits {
            movetime: Some(Duration::from_millis(500)),
            started: Instant::now().checked_sub(Duration::from_secs(1)),
            ..Limits::default()
        };
        assert!(limits.started.is_some());
        let tm = TimeManager::new(&limits, Duration::from_millis(30));
        assert!(tm.out_of_time());
        // Without it, the move's time starts with the search.
        let fresh = Limits {
            movetime: Some(Duration::from_secs(60)),
            ..Limits::default()
        };
        let fresh = TimeManager::new(&fresh, Duration::ZERO);
        assert!(!fresh.out_of_time());
    }
}
