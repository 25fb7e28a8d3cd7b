//! The progress line on stderr: positions a second, how far the epoch is, the time left. On a
//! terminal it rewrites itself (`\r`) a few times a second; otherwise (a log file) it is one
//! line per epoch.

use std::io::Write as _;
use std::time::{Duration, Instant};

/// How often a terminal's line is redrawn at most.
const REDRAW: Duration = Duration::from_millis(250);

/// The state of the progress display for one run of the trainer.
pub struct Progress {
    terminal: bool,
    epochs: usize,
    per_epoch: usize,
    started: Instant,
    /// Positions trained by this run before the current epoch.
    done_before: u64,
    /// Epochs left to run when this run started (a resumed run has fewer).
    epochs_this_run: usize,
    last_draw: Option<Instant>,
}

impl Progress {
    /// A display for `epochs` epochs of `per_epoch` positions, of which `first` are done;
    /// `terminal` says whether stderr is one.
    pub fn new(terminal: bool, epochs: usize, first: usize, per_epoch: usize) -> Progress {
        Progress {
            terminal,
            epochs,
            per_epoch,
            started: Instant::now(),
            done_before: 0,
            epochs_this_run: epochs.saturating_sub(first),
            last_draw: None,
        }
    }

    /// Positions a second so far in this run, and the seconds left, after `done` positions of
    /// epoch `epoch` (from 0).
    fn rate_and_eta(&self, done: usize) -> (f64, f64) {
        let trained = self.done_before + done as u64;
        let seconds = self.started.elapsed().as_secs_f64().max(1e-9);
        let rate = trained as f64 / seconds;
        let total = self.epochs_this_run as u64 * self.per_epoch as u64;
        let left = total.saturating_sub(trained) as f64 / rate.max(1e-9);
        (rate, left)
    }

    /// After a batch: `done` positions of epoch `epoch` (from 0). Draws on a terminal only.
    pub fn batch(&mut self, epoch: usize, done: usize) {
        if !self.terminal || self.last_draw.is_some_and(|t| t.elapsed() < REDRAW) {
            return;
        }
        self.last_draw = Some(Instant::now());
        let (rate, left) = self.rate_and_eta(done);
        let share = 100.0 * done as f64 / self.per_epoch.max(1) as f64;
        let mut err = std::io::stderr().lock();
        // A failing stderr must not stop a training: the line is only a display.
        let _ = write!(
            err,
            "\repoch {}/{}: {share:5.1} %, {rate:.0} positions/s, {} left   ",
            epoch + 1,
            self.epochs,
            duration(left)
        );
        let _ = err.flush();
    }

    /// After epoch `epoch` (from 0): clears the terminal's line, or writes the epoch's line.
    pub fn epoch_done(&mut self, epoch: usize) {
        let (rate, left) = self.rate_and_eta(self.per_epoch);
        self.done_before += self.per_epoch as u64;
        let mut err = std::io::stderr().lock();
        if self.terminal {
            let _ = write!(err, "\r{:70}\r", "");
        } else {
            let _ = writeln!(
                err,
                "epoch {}/{} trained: {rate:.0} positions/s, {} left",
                epoch + 1,
                self.epochs,
                duration(left)
            );
        }
        let _ = err.flush();
        self.last_draw = None;
    }
}

/// Seconds as `1h02m`, `3m05s` or `12s`.
pub fn duration(seconds: f64) -> String {
    let s = seconds.max(0.0).round() as u64;
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, s % 3600 / 60)
    } else if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{s}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_naturally() {
        assert_eq!(duration(0.4), "0s");
        assert_eq!(duration(59.0), "59s");
        assert_eq!(duration(185.0), "3m05s");
        assert_eq!(duration(3720.0), "1h02m");
    }
}
