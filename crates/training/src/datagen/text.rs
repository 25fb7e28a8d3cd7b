//! `xiangqi datagen --out FILE`: the games as text, one `FEN;result;score` line per recorded
//! position (Red's point of view), for tuning the evaluation (`xiangqi tune`); the format is
//! in `docs/TUNING.md`.
//!
//! ```text
//! xiangqi datagen --games 3000 --seed 1 --nodes 5000 --concurrency 1 --out data.txt
//! ```
//!
//! The games are written in their order, game *i* seeded by [`game_seed`]`(seed, i)`: the file
//! is a function of the arguments alone, whatever `--concurrency`. They go to a temporary file
//! beside `FILE` (`disk::NewFile`), which replaces `FILE` once the last game is written: a
//! full disk, an error or Ctrl-C leaves an older `FILE` as it was.

use super::config::Config;
use super::schedule;
use super::searcher::Searcher;
use super::seeds::game_seed;
use super::selfplay::{self, GameResult, PlayedGame};
use anyhow::{bail, Context, Result};
use std::io::Write;
use std::path::Path;
use std::time::Instant;
use xiangqi_files::disk;

/// Everything a run needs besides where to write.
#[derive(Clone, Debug)]
pub struct Run {
    /// Number of games.
    pub games: u64,
    /// Seed of the whole run.
    pub seed: u64,
    /// Settings of each game.
    pub config: Config,
    /// Games at once.
    pub concurrency: usize,
}

/// Running totals for the progress line.
#[derive(Default)]
struct Totals {
    games: u64,
    positions: u64,
    plies: u64,
    rejected: u64,
    /// Red wins, draws, Black wins.
    wdl: [u64; 3],
}

impl Totals {
    fn add(&mut self, game: &PlayedGame) {
        self.games += 1;
        self.positions += game.recorded.len() as u64;
        self.plies += game.plies as u64;
        self.rejected += u64::from(game.rejected_openings);
        let slot = match game.result {
            GameResult::RedWin => 0,
            GameResult::Draw => 1,
            GameResult::BlackWin => 2,
        };
        self.wdl[slot] += 1;
    }
}

/// Plays the games of `run` and writes each one's lines to `out` in game order, calling
/// `progress` after each.
pub fn generate(
    run: &Run,
    out: &mut dyn Write,
    mut progress: impl FnMut(u64, &PlayedGame),
) -> Result<()> {
    let config = &run.config;
    schedule::run_in_order(
        run.games,
        run.concurrency,
        || Searcher::new(config),
        |searcher, index| {
            selfplay::play(searcher, config, game_seed(run.seed, index))
                .with_context(|| format!("game {}", index + 1))
        },
        |index, game| {
            // One write per game: a run stopped between games leaves whole games only.
            out.write_all(game.lines().as_bytes())?;
            out.flush()?;
            progress(index, &game);
            Ok(())
        },
    )
}

/// Runs `datagen --out`: the data to `out`, a progress line per game on stderr.
pub fn run(run: &Run, out: &Path) -> Result<()> {
    if run.games == 0 {
        bail!("--games must be at least 1");
    }
    let mut file = disk::NewFile::create(out)?;
    let started = Instant::now();
    let mut totals = Totals::default();
    generate(run, &mut file, |index, game| {
        totals.add(game);
        let t = &totals;
        let per_game = started.elapsed().as_secs_f64() / t.games as f64;
        let left = (run.games - t.games) as f64 * per_game;
        eprintln!(
            "game {}/{}: {}, {} plies, {} positions | {} positions, W/D/L {}/{}/{} (Red), \
             {:.0} plies/game, {} openings redrawn, {:.2} s/game, {:.0} min left",
            index + 1,
            run.games,
            game.ending,
            game.plies,
            game.recorded.len(),
            t.positions,
            t.wdl[0],
            t.wdl[1],
            t.wdl[2],
            t.plies as f64 / t.games as f64,
            t.rejected,
            per_game,
            left / 60.0,
        );
    })?;
    file.commit()?;
    eprintln!(
        "done: {} games, {} positions in {:.1} s",
        totals.games,
        totals.positions,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny(concurrency: usize) -> Run {
        Run {
            games: 3,
            seed: 11,
            config: Config::tiny(),
            concurrency,
        }
    }

    fn output(run: &Run) -> String {
        let mut out = Vec::new();
        generate(run, &mut out, |_, _| {}).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn same_arguments_same_file_whatever_the_concurrency() {
        let one = output(&tiny(1));
        assert!(one.lines().count() > 10, "{one}");
        assert_eq!(output(&tiny(1)), one);
        assert_eq!(output(&tiny(2)), one);
        let other_seed = Run {
            seed: 12,
            ..tiny(1)
        };
        assert_ne!(output(&other_seed), one);
    }

    #[test]
    fn every_line_is_fen_result_score() {
        for line in output(&tiny(2)).lines() {
            let fields: Vec<&str> = line.split(';').collect();
            assert_eq!(fields.len(), 3, "{line}");
            assert!(xiangqi::Position::from_fen(fields[0]).is_ok(), "{line}");
            assert!(["1.0", "0.5", "0.0"].contains(&fields[1]), "{line}");
            assert!(fields[2].parse::<i32>().is_ok(), "{line}");
        }
    }
}
