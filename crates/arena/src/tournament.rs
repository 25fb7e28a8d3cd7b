//! The threads that play a match's schedule, and the results they count.
//!
//! Worker threads (`--concurrency`) take the next game from a shared counter and play it with
//! their own engine processes, which they keep between games. Finished games come back to the
//! calling thread over a channel: it alone counts results, prints progress, writes PGN and runs
//! the SPRT, so none of that needs a lock. Stopping (SPRT decided, an error, or Ctrl-C) sets a
//! flag that every wait of every worker looks at; games still running are then dropped
//! uncounted.

use super::config::EngineSpec;
use super::engine_process::ProcessSettings;
use super::engine_slot::EngineSlot;
use super::game_rules::GameRules;
use super::game_runner::{play_game, GameEnd, PlayedGame, Termination};
use super::openings::Opening;
use super::resume::DoneGame;
use super::schedule::{schedule, ScheduledGame};
use super::sprt::{Decision, Sprt};
use super::stats::PairingStats;
use anyhow::Result;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::thread;
use std::time::Duration;
use xiangqi::Color;

/// How often the collecting thread looks at the interrupt flag while no game finishes.
const INTERRUPT_POLL: Duration = Duration::from_millis(100);

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The engines, in command-line order.
    pub engines: Vec<EngineSpec>,
    /// The openings, each played twice per pairing and round.
    pub openings: Vec<Opening>,
    /// How many times the whole schedule is repeated.
    pub rounds: usize,
    /// Games played at once.
    pub concurrency: usize,
    /// Rules for every game.
    pub rules: GameRules,
    /// Engine process settings.
    pub process: ProcessSettings,
    /// The SPRT (two engines only).
    pub sprt: Option<Sprt>,
}

/// Results so far.
#[derive(Clone, Debug, Default)]
pub struct MatchResults {
    /// The pairings, `(first, second)` engine indices.
    pub pairings: Vec<(usize, usize)>,
    /// Per pairing, from the first engine's point of view.
    pub stats: Vec<PairingStats>,
    /// Games counted.
    pub played: usize,
    /// Games scheduled.
    pub scheduled: usize,
    /// Wins of Red, wins of Black, draws.
    pub by_colour: [u32; 3],
    /// Games per kind of ending, in first-seen order.
    pub endings: Vec<(Termination, u32)>,
    /// The SPRT's decision when it stopped the match.
    pub stopped_by_sprt: Option<Decision>,
    /// The match was interrupted (Ctrl-C); games still running were dropped.
    pub interrupted: bool,
    /// First engine's points in the first game of pairs still waiting for their second game.
    pending: HashMap<usize, f64>,
}

impl MatchResults {
    /// No results yet for the given pairings.
    pub fn new(pairings: Vec<(usize, usize)>, scheduled: usize) -> Self {
        MatchResults {
            stats: vec![PairingStats::default(); pairings.len()],
            pairings,
            scheduled,
            ..MatchResults::default()
        }
    }

    /// Counts a finished game.
    pub fn record(&mut self, game: &ScheduledGame, end: &GameEnd) {
        let first = self.pairings[game.pairing].0;
        let points = match end.winner {
            None => 0.5,
            Some(Color::Red) if game.red == first => 1.0,
            Some(Color::Black) if game.black == first => 1.0,
            Some(_) => 0.0,
        };
        let stats = &mut self.stats[game.pairing];
        stats.add_game(points);
        match self.pending.remove(&game.pair) {
            Some(earlier) => stats.add_pair(earlier + points),
            None => {
                self.pending.insert(game.pair, points);
            }
        }
        self.played += 1;
        self.by_colour[match end.winner {
            Some(Color::Red) => 0,
            Some(Color::Black) => 1,
            None => 2,
        }] += 1;
        match self.endings.iter_mut().find(|(t, _)| *t == end.termination) {
            Some((_, n)) => *n += 1,
            None => self.endings.push((end.termination, 1)),
        }
    }

    /// The SPRT's log-likelihood ratio for the (only) pairing.
    pub fn llr(&self, sprt: &Sprt) -> f64 {
        self.stats.first().map_or(0.0, |s| sprt.llr(&s.model().1))
    }
}

/// The schedule of `cfg`: its pairings and games.
pub fn schedule_of(cfg: &MatchConfig) -> (Vec<(usize, usize)>, Vec<ScheduledGame>) {
    schedule(cfg.engines.len(), cfg.openings.len(), cfg.rounds)
}

/// Plays the match. The games in `done` (from `--resume`) count first and are not played again.
/// `on_game` sees every finished game with the results including it; an error from it stops
/// the match, and so does `interrupt` becoming true (Ctrl-C). Returns the results (complete
/// unless the SPRT or an interruption stopped the match early).
pub fn run(
    cfg: &MatchConfig,
    done: &[DoneGame],
    interrupt: &AtomicBool,
    mut on_game: impl FnMut(&ScheduledGame, &PlayedGame, &MatchResults) -> Result<()>,
) -> Result<MatchResults> {
    let (pairings, games) = schedule_of(cfg);
    let mut results = MatchResults::new(pairings, games.len());
    let mut skip = vec![false; games.len()];
    for game in done {
        if let Some(scheduled) = games.get(game.index) {
            results.record(scheduled, &game.end);
            skip[game.index] = true;
        }
    }
    if let Some(sprt) = &cfg.sprt {
        let decision = sprt.decide(results.llr(sprt));
        if decision != Decision::Continue {
            results.stopped_by_sprt = Some(decision);
            return Ok(results);
        }
    }
    let todo: Vec<usize> = (0..games.len()).filter(|&i| !skip[i]).collect();
    let next = AtomicUsize::new(0);
    let abort = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(usize, PlayedGame)>();
    let workers = cfg.concurrency.clamp(1, todo.len().max(1));
    thread::scope(|scope| {
        for _ in 0..workers {
            let tx = tx.clone();
            let (games, todo, next, abort) = (&games, &todo, &next, &abort);
            scope.spawn(move || worker(cfg, games, todo, next, abort, tx));
        }
        drop(tx);
        let outcome = (|| -> Result<()> {
            loop {
                let (index, played) = match rx.recv_timeout(INTERRUPT_POLL) {
                    Ok(finished) => finished,
                    Err(RecvTimeoutError::Timeout) => {
                        if interrupt.load(Ordering::Relaxed) {
                            results.interrupted = true;
                            break;
                        }
                        continue;
                    }
                    Err(RecvTimeoutError::Disconnected) => break,
                };
                let game = &games[index];
                results.record(game, &played.end);
                on_game(game, &played, &results)?;
                if let Some(sprt) = &cfg.sprt {
                    let decision = sprt.decide(results.llr(sprt));
                    if decision != Decision::Continue {
                        results.stopped_by_sprt = Some(decision);
                        break;
                    }
                }
            }
            Ok(())
        })();
        // Whatever ended the loop, the workers stop (they are done already if it ran out).
        abort.store(true, Ordering::Relaxed);
        outcome
    })?;
    Ok(results)
}

/// One worker: plays the games of `todo` (indices into `games`) that the shared counter `next`
/// hands it, until none are left or the match stops.
fn worker(
    cfg: &MatchConfig,
    games: &[ScheduledGame],
    todo: &[usize],
    next: &AtomicUsize,
    abort: &AtomicBool,
    tx: Sender<(usize, PlayedGame)>,
) {
    let mut slots: Vec<EngineSlot<'_>> = cfg
        .engines
        .iter()
        .map(|spec| EngineSlot::new(spec, cfg.process))
        .collect();
    while !abort.load(Ordering::Relaxed) {
        let Some(&index) = todo.get(next.fetch_add(1, Ordering::Relaxed)) else {
            break;
        };
        let Some(game) = games.get(index) else {
            break;
        };
        let Some((red, black)) = two_mut(&mut slots, game.red, game.black) else {
            break;
        };
        let opening = &cfg.openings[game.opening];
        let Some(played) = play_game(opening, [red, black], &cfg.rules, abort) else {
            break;
        };
        if tx.send((index, played)).is_err() {
            break;
        }
    }
    // Dropping the slots quits (or kills) this worker's engines.
}

/// Mutable references to two different elements.
fn two_mut<T>(items: &mut [T], a: usize, b: usize) -> Option<(&mut T, &mut T)> {
    if a == b || a.max(b) >= items.len() {
        return None;
    }
    if a < b {
        let (low, high) = items.split_at_mut(b);
        Some((&mut low[a], &mut high[0]))
    } else {
        let (low, high) = items.split_at_mut(a);
        Some((&mut high[0], &mut low[b]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_count_pairs() {
        let (pairings, games) = schedule(2, 1, 2);
        let mut results = MatchResults::new(pairings, games.len());
        let end = |winner| GameEnd {
            winner,
            termination: Termination::Normal,
            reason: String::new(),
        };
        // Engine 0 wins as Red, then wins as Black: a 2-point pair.
        results.record(&games[0], &end(Some(Color::Red)));
        assert_eq!(results.stats[0].pairs(), 0);
        results.record(&games[1], &end(Some(Color::Black)));
        assert_eq!(results.stats[0].pentanomial, [0, 0, 0, 0, 1]);
        // A draw, then engine 0 loses as Black: half a point.
        results.record(&games[3], &end(None));
        results.record(&games[2], &end(Some(Color::Black)));
        let s = results.stats[0];
        assert_eq!((s.wins, s.draws, s.losses), (2, 1, 1));
        assert_eq!(s.pentanomial, [0, 1, 0, 0, 1]);
        assert_eq!(results.by_colour, [1, 2, 1]);
        assert_eq!(results.endings, vec![(Termination::Normal, 4)]);
    }

    #[test]
    fn two_mut_gives_distinct_elements() {
        let mut v = [1, 2, 3];
        let (a, b) = two_mut(&mut v, 2, 0).unwrap();
        std::mem::swap(a, b);
        assert_eq!(v, [3, 2, 1]);
        assert!(two_mut(&mut v, 1, 1).is_none());
        assert!(two_mut(&mut v, 1, 3).is_none());
    }
}
