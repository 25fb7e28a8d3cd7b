//! The chess clock of a web game: game time (局时), an increment per move (加时) and byo-yomi
//! (读秒: once the game time is spent, every move must be made within a fixed period), each
//! side with its own control (time odds).
//!
//! The clock does not know whose turn it is: the game tells it (`to_move`), so the two can never
//! disagree. Time is measured with [`Instant`] while the server runs; what is saved is the time
//! left after every move (for undo and the PGN's `[%clk]` comments) and the time left now.

use serde::{Deserialize, Serialize};
use std::time::Duration;
use xiangqi::Color;
use xiangqi_engine::instant::Instant;

/// The longest game time or period accepted: ten hours is more than any real game uses.
pub const MAX_CONTROL: Duration = Duration::from_secs(10 * 3600);

/// One side's time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeControl {
    /// Game time.
    pub main: Duration,
    /// Added after each of the side's moves.
    pub increment: Duration,
    /// Byo-yomi period (zero: none): once the game time is spent, each move within this.
    pub byoyomi: Duration,
}

impl TimeControl {
    /// A control of `main` game time, `increment` per move and a `byoyomi` period, checked:
    /// some time to play with, nothing absurdly long.
    pub fn new(main: Duration, increment: Duration, byoyomi: Duration) -> Result<Self, String> {
        if main.is_zero() && byoyomi.is_zero() {
            return Err("a clock needs game time or a byo-yomi period".into());
        }
        for (what, value) in [
            ("game time", main),
            ("increment", increment),
            ("byo-yomi", byoyomi),
        ] {
            if value > MAX_CONTROL {
                return Err(format!("the {what} is longer than 10 hours"));
            }
        }
        Ok(TimeControl {
            main,
            increment,
            byoyomi,
        })
    }

    /// The control as this program writes it in PGN: seconds of game time, then `+increment`
    /// and `b` with the period when there are any (`300+3`, `1200b30`; the first form is PGN's
    /// own `TimeControl` syntax).
    pub fn to_tag(self) -> String {
        let mut text = seconds(self.main);
        if !self.increment.is_zero() {
            text += &format!("+{}", seconds(self.increment));
        }
        if !self.byoyomi.is_zero() {
            text += &format!("b{}", seconds(self.byoyomi));
        }
        text
    }

    /// Reads [`TimeControl::to_tag`]'s form.
    pub fn from_tag(text: &str) -> Option<TimeControl> {
        let (rest, byoyomi) = match text.split_once('b') {
            Some((rest, byo)) => (rest, parse_seconds(byo)?),
            None => (text, Duration::ZERO),
        };
        let (main, increment) = match rest.split_once('+') {
            Some((main, inc)) => (parse_seconds(main)?, parse_seconds(inc)?),
            None => (parse_seconds(rest)?, Duration::ZERO),
        };
        TimeControl::new(main, increment, byoyomi).ok()
    }
}

fn seconds(d: Duration) -> String {
    let ms = d.as_millis();
    if ms % 1000 == 0 {
        (ms / 1000).to_string()
    } else {
        format!("{}", d.as_secs_f64())
    }
}

fn parse_seconds(text: &str) -> Option<Duration> {
    let value: f64 = text.trim().parse().ok()?;
    (value.is_finite() && value >= 0.0 && value <= MAX_CONTROL.as_secs_f64())
        .then(|| Duration::from_secs_f64(value))
}

/// A side's time as the page shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct TimeLeft {
    /// Game time left, in milliseconds.
    pub main_ms: u64,
    /// Within byo-yomi: what is left of this move's period, in milliseconds.
    pub byoyomi_ms: Option<u64>,
}

/// The side whose time ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flagged(pub Color);

/// Both sides' clocks.
#[derive(Clone, Debug)]
pub struct Clock {
    controls: [TimeControl; 2],
    /// Game time left per side, as of the start of the side to move's current turn (less what
    /// it used before a pause).
    left: [Duration; 2],
    /// What the side to move has used of its byo-yomi period before a pause.
    period_used: Duration,
    /// Since when the side to move's time runs; `None` while paused or over.
    since: Option<Instant>,
    /// Paused by the person.
    paused: bool,
    /// Game time left by the mover after each ply, in order (the `[%clk]` of each move).
    history: Vec<Duration>,
}

fn index(color: Color) -> usize {
    match color {
        Color::Red => 0,
        Color::Black => 1,
    }
}

impl Clock {
    /// A clock with Red's and Black's controls, not running yet.
    pub fn new(red: TimeControl, black: TimeControl) -> Clock {
        Clock {
            controls: [red, black],
            left: [red.main, black.main],
            period_used: Duration::ZERO,
            since: None,
            paused: false,
            history: Vec::new(),
        }
    }

    /// `color`'s control.
    pub fn control(&self, color: Color) -> TimeControl {
        self.controls[index(color)]
    }

    /// Whether the person paused it.
    pub fn is_paused(&self) -> bool {
        self.paused
    }

    /// Whether a side's time is running.
    pub fn is_running(&self) -> bool {
        self.since.is_some()
    }

    /// Game time left by the mover after each ply, in order.
    pub fn history(&self) -> &[Duration] {
        &self.history
    }

    /// Starts the side to move's time now (at the start of a game, or after a load), unless
    /// paused.
    pub fn start(&mut self, now: Instant) {
        if !self.paused {
            self.since = Some(now);
        }
    }

    /// Stops the time for good (the game is over).
    pub fn stop(&mut self, to_move: Color, now: Instant) {
        self.bank(to_move, now);
        self.since = None;
    }

    /// Moves the time the side to move has used so far into `left` and `period_used`.
    fn bank(&mut self, to_move: Color, now: Instant) {
        let Some(since) = self.since.take() else {
            return;
        };
        let used = now.saturating_duration_since(since);
        let left = &mut self.left[index(to_move)];
        let from_main = used.min(*left);
        *left -= from_main;
        self.period_used += used - from_main;
        self.since = Some(now);
    }

    /// The time left of `color` at `now`, `to_move` being the side to move.
    pub fn time_left(&self, color: Color, to_move: Color, now: Instant) -> TimeLeft {
        let mut left = self.left[index(color)];
        let mut period_used = Duration::ZERO;
        if color == to_move {
            period_used = self.period_used;
            if let Some(since) = self.since {
                let used = now.saturating_duration_since(since);
                let from_main = used.min(left);
                left -= from_main;
                period_used += used - from_main;
            }
        }
        let byoyomi = self.control(color).byoyomi;
        let in_period = left.is_zero() && !byoyomi.is_zero();
        TimeLeft {
            main_ms: left.as_millis() as u64,
            byoyomi_ms: in_period.then(|| byoyomi.saturating_sub(period_used).as_millis() as u64),
        }
    }

    /// When the side to move runs out of time, if its time is running.
    pub fn deadline(&self, to_move: Color) -> Option<Instant> {
        let since = self.since?;
        let allowed = self.left[index(to_move)]
            + self
                .control(to_move)
                .byoyomi
                .saturating_sub(self.period_used);
        Some(since + allowed)
    }

    /// Whether the side to move has run out of time at `now`.
    pub fn is_flagged(&self, to_move: Color, now: Instant) -> bool {
        self.deadline(to_move)
            .is_some_and(|deadline| now >= deadline)
    }

    /// The side to move (`mover`) has made its move at `now`: its time is charged (its clock
    /// falls when it took longer than it had), its increment added, and the other side's time
    /// starts.
    pub fn press(&mut self, mover: Color, now: Instant) -> Result<(), Flagged> {
        if self.is_flagged(mover, now) {
            return Err(Flagged(mover));
        }
        self.bank(mover, now);
        let control = self.control(mover);
        let left = &mut self.left[index(mover)];
        *left += control.increment;
        self.history.push(*left);
        self.period_used = Duration::ZERO;
        self.since = (!self.paused).then_some(now);
        Ok(())
    }

    /// How long each move so far took on its side's clock, the first move by `first_mover`:
    /// its game time before the move, less what was left after it before the increment. Not
    /// known (`None`) for a move that ran into byo-yomi, whose periods leave no trace.
    pub fn times_taken(&self, first_mover: Color) -> Vec<Option<Duration>> {
        let mut before = [self.controls[0].main, self.controls[1].main];
        let mut mover = first_mover;
        self.history
            .iter()
            .map(|&after| {
                let control = self.control(mover);
                let side = &mut before[index(mover)];
                let kept = after.saturating_sub(control.increment);
                let taken = (!kept.is_zero()).then(|| side.saturating_sub(kept));
                *side = after;
                mover = mover.other();
                taken
            })
            .collect()
    }

    /// Takes back the last `plies` moves: each side's time is what it had after its last move
    /// still standing (or its game time), and the side to move's time starts afresh.
    pub fn undo(&mut self, plies: usize, first_mover: Color, now: Instant) {
        let keep = self.history.len().saturating_sub(plies);
        self.history.truncate(keep);
        for color in [Color::Red, Color::Black] {
            // The plies of `color` are every other one, from the first if it moved first.
            let first = usize::from(color != first_mover);
            let last = (first..self.history.len()).step_by(2).next_back();
            self.left[index(color)] =
                last.map_or(self.control(color).main, |ply| self.history[ply]);
        }
        self.period_used = Duration::ZERO;
        self.since = (!self.paused).then_some(now);
    }

    /// Pauses (the person left the board); the side to move keeps what it had.
    pub fn pause(&mut self, to_move: Color, now: Instant) {
        self.bank(to_move, now);
        self.since = None;
        self.paused = true;
    }

    /// Resumes after a pause.
    pub fn resume(&mut self, now: Instant) {
        self.paused = false;
        self.since = Some(now);
    }

    /// What is saved besides the history: each side's game time left now (the side to move's
    /// charged up to `now`) and the part of its period used. Saving a running clock banks its
    /// time, so what was used before a restart is not given back twice.
    pub fn snapshot(&mut self, to_move: Color, now: Instant) -> ([Duration; 2], Duration) {
        self.bank(to_move, now);
        (self.left, self.period_used)
    }

    /// A clock read back: its controls, the time left after every move, and the time left
    /// when it was saved. It starts running at [`Clock::start`] (the time the server was down
    /// is not counted).
    pub fn restore(
        controls: [TimeControl; 2],
        history: Vec<Duration>,
        left: [Duration; 2],
        period_used: Duration,
        paused: bool,
    ) -> Clock {
        Clock {
            controls,
            left,
            period_used,
            since: None,
            paused,
            history,
        }
    }
}

/// A duration as `h:mm:ss` (PGN's `[%clk]` form).
pub fn clk(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// Reads `h:mm:ss` (also with a fraction of a second).
pub fn parse_clk(text: &str) -> Option<Duration> {
    let mut parts = text.trim().split(':');
    let (h, m, s) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() {
        return None;
    }
    let h: u64 = h.parse().ok()?;
    let m: u64 = m.parse().ok()?;
    let s: f64 = s.parse().ok()?;
    if m >= 60 || !(0.0..60.0).contains(&s) || h > 99 {
        return None;
    }
    Some(Duration::from_secs(h * 3600 + m * 60) + Duration::from_secs_f64(s))
}

#[cfg(test)]
mod tests {
    use super::*;
    use Color::{Black, Red};

    fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    fn control(main: u64, inc: u64, byo: u64) -> TimeControl {
        TimeControl::new(secs(main), secs(inc), secs(byo)).unwrap()
    }

    #[test]
    fn a_move_charges_its_time_and_adds_the_increment() {
        let t0 = Instant::now();
        let mut clock = Clock::new(control(300, 3, 0), control(300, 3, 0));
        clock.start(t0);
        clock.press(Red, t0 + secs(10)).unwrap();
        assert_eq!(clock.time_left(Red, Black, t0 + secs(20)).main_ms, 293_000);
        // Black's time runs from Red's move on.
        assert_eq!(
            clock.time_left(Black, Black, t0 + secs(20)).main_ms,
            290_000
        );
        clock.press(Black, t0 + secs(30)).unwrap();
        assert_eq!(clock.history(), &[secs(293), secs(283)]);
    }

    #[test]
    fn byoyomi_gives_each_move_its_period_once_the_game_time_is_spent() {
        let t0 = Instant::now();
        let mut clock = Clock::new(control(10, 0, 5), control(10, 0, 5));
        clock.start(t0);
        // Red spends its 10 s and 3 s of the period: still in time.
        clock.press(Red, t0 + secs(13)).unwrap();
        assert_eq!(
            clock.time_left(Red, Black, t0 + secs(13)),
            TimeLeft {
                main_ms: 0,
                byoyomi_ms: Some(5_000)
            }
        );
        clock.press(Black, t0 + secs(14)).unwrap();
        // Each move gets the whole period again; 5.5 s is too long.
        clock.press(Red, t0 + secs(18)).unwrap();
        assert_eq!(
            clock.deadline(Black),
            Some(t0 + secs(18) + secs(9) + secs(5))
        );
        clock.press(Black, t0 + secs(19)).unwrap();
        assert!(!clock.is_flagged(Red, t0 + secs(23)));
        assert!(clock.is_flagged(Red, t0 + secs(24)));
        assert_eq!(clock.press(Red, t0 + secs(25)), Err(Flagged(Red)));
    }

    #[test]
    fn each_move_took_what_its_clock_lost_until_byoyomi() {
        let t0 = Instant::now();
        let mut clock = Clock::new(control(20, 2, 5), control(300, 0, 0));
        clock.start(t0);
        clock.press(Red, t0 + secs(8)).unwrap(); // 8 s of Red's 20, then 2 more
        clock.press(Black, t0 + secs(11)).unwrap(); // 3 s
        clock.pause(Red, t0 + secs(15));
        clock.resume(t0 + secs(100));
        clock.press(Red, t0 + secs(106)).unwrap(); // 4 s, a pause, 6 s: 10 of Red's 14
        clock.press(Black, t0 + secs(107)).unwrap(); // 1 s
        clock.press(Red, t0 + secs(116)).unwrap(); // 6 s left, 9 taken: into byo-yomi
        let taken = clock.times_taken(Red);
        assert_eq!(
            taken,
            [
                Some(secs(8)),
                Some(secs(3)),
                Some(secs(10)),
                Some(secs(1)),
                None
            ]
        );
        // Black moving first counts from Black.
        let mut clock = Clock::new(control(60, 0, 0), control(60, 0, 0));
        clock.start(t0);
        clock.press(Black, t0 + secs(7)).unwrap();
        assert_eq!(clock.times_taken(Black), [Some(secs(7))]);
    }

    #[test]
    fn a_pause_keeps_the_time_and_the_used_part_of_the_period() {
        let t0 = Instant::now();
        let mut clock = Clock::new(control(2, 0, 10), control(60, 0, 0));
        clock.start(t0);
        clock.pause(Red, t0 + secs(5));
        assert!(!clock.is_flagged(Red, t0 + secs(1000)));
        clock.resume(t0 + secs(1000));
        // 2 s of game time and 3 s of the period were used before the pause.
        assert_eq!(
            clock.time_left(Red, Red, t0 + secs(1001)),
            TimeLeft {
                main_ms: 0,
                byoyomi_ms: Some(6_000)
            }
        );
        assert!(clock.is_flagged(Red, t0 + secs(1007)));
    }

    #[test]
    fn undo_gives_back_the_time_of_the_moves_taken_back() {
        let t0 = Instant::now();
        let mut clock = Clock::new(control(100, 0, 0), control(100, 0, 0));
        clock.start(t0);
        clock.press(Red, t0 + secs(10)).unwrap();
        clock.press(Black, t0 + secs(30)).unwrap();
        clock.press(Red, t0 + secs(35)).unwrap();
        clock.undo(2, Red, t0 + secs(50));
        assert_eq!(clock.history(), &[secs(90)]);
        assert_eq!(
            clock.time_left(Black, Black, t0 + secs(50)).main_ms,
            100_000
        );
        clock.undo(1, Red, t0 + secs(60));
        assert_eq!(clock.time_left(Red, Red, t0 + secs(60)).main_ms, 100_000);
    }

    #[test]
    fn a_saved_clock_comes_back_with_the_same_times() {
        let t0 = Instant::now();
        let mut clock = Clock::new(control(300, 0, 0), control(180, 2, 0));
        clock.start(t0);
        clock.press(Red, t0 + secs(20)).unwrap();
        let (left, used) = clock.snapshot(Black, t0 + secs(25));
        assert_eq!(left, [secs(280), secs(175)]);
        let mut back = Clock::restore(
            [clock.control(Red), clock.control(Black)],
            clock.history().to_vec(),
            left,
            used,
            false,
        );
        // The time the server was down does not count.
        let t1 = t0 + secs(3600);
        back.start(t1);
        assert_eq!(back.time_left(Black, Black, t1 + secs(5)).main_ms, 170_000);
        assert_eq!(back.history(), &[secs(280)]);
    }

    #[test]
    fn controls_and_clocks_read_back_as_written() {
        for tc in [control(300, 3, 0), control(1200, 0, 30), control(0, 0, 10)] {
            assert_eq!(TimeControl::from_tag(&tc.to_tag()), Some(tc));
        }
        assert_eq!(control(300, 3, 0).to_tag(), "300+3");
        assert_eq!(control(1200, 0, 30).to_tag(), "1200b30");
        let half = TimeControl::new(Duration::from_millis(30_000), secs(0), secs(0)).unwrap();
        assert_eq!(TimeControl::from_tag(&half.to_tag()), Some(half));
        for bad in ["", "-5", "abc", "100000", "0", "5+x", "nan"] {
            assert_eq!(TimeControl::from_tag(bad), None, "{bad}");
        }
        assert_eq!(clk(secs(597)), "0:09:57");
        assert_eq!(parse_clk("0:09:57"), Some(secs(597)));
        assert_eq!(
            parse_clk("1:00:00.5"),
            Some(Duration::from_millis(3_600_500))
        );
        assert_eq!(parse_clk("0:60:00"), None);
        assert!(TimeControl::new(secs(0), secs(5), secs(0)).is_err());
        assert!(TimeControl::new(secs(40_000), secs(0), secs(0)).is_err());
    }
}
