//! `xiangqi datagen`: self-play games by our own engine, written as positions labelled with the
//! game's result, for tuning the evaluation (`xiangqi tune`).
//!
//! ```text
//! xiangqi datagen --games 3000 --seed 1 --nodes 5000 --concurrency 1 --out data.txt
//! ```
//!
//! Each game gets its own random generator (from the seed and the game's number), its own
//! single-threaded node-limited engine and an empty hash table, and the games are written in
//! their order: the file is a function of the arguments alone, whatever `--concurrency`.
//! A game is written (and flushed) as soon as it and all before it are done, so a run stopped
//! with Ctrl-C leaves a file of whole games. The format is in `docs/TUNING.md`.
//!
//! Files: [`searcher`] is the engine as self-play uses it, [`opening`] draws random openings,
//! [`selfplay`] plays one game, [`adjudicate`] ends decided games, [`schedule`] runs games on
//! threads and returns them in order.

pub mod adjudicate;
pub mod opening;
pub mod schedule;
pub mod searcher;
pub mod selfplay;

use anyhow::{bail, Context, Result};
use clap::Args;
use searcher::Searcher;
use selfplay::{Config, GameResult, PlayedGame};
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;
use xiangqi_engine::random::Rng;

/// Arguments of `datagen`.
#[derive(Args)]
pub struct DatagenArgs {
    /// Number of games to play.
    #[arg(long, value_name = "N")]
    games: u64,
    /// Seed of the random openings: the same arguments give the same file.
    #[arg(long, default_value_t = 1, value_name = "S")]
    seed: u64,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 5000, value_name = "K")]
    nodes: u64,
    /// Uniformly random plies at the start of each game.
    #[arg(long, default_value_t = 8, value_name = "R")]
    random_plies: u32,
    /// Positions before this ply are not written.
    #[arg(long, default_value_t = 12, value_name = "PLIES")]
    skip_plies: usize,
    /// Games still going at this many plies are drawn.
    #[arg(long, default_value_t = 400, value_name = "PLIES")]
    max_plies: usize,
    /// Hash table of each game's engine, in MiB.
    #[arg(long, default_value_t = 16, value_name = "MB")]
    hash: usize,
    /// Games played at once, one thread each (does not change the output).
    #[arg(long, default_value_t = 1, value_name = "C")]
    concurrency: usize,
    /// The data file to write (replaced if it exists).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
}

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

/// The seed of game `index` of a run seeded with `seed`: mixed, so neighbouring seeds and
/// indices give unrelated games.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    Rng::new(seed ^ index.wrapping_mul(0xA076_1D64_78BD_642F)).next_u64()
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
        self.positions += game.samples.len() as u64;
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
        || Searcher::new(config.nodes, config.hash_mb),
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

/// Runs `datagen`: the data to `--out`, a progress line per game on stderr.
pub fn run(args: &DatagenArgs) -> Result<()> {
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    if args.nodes == 0 {
        bail!("--nodes must be at least 1");
    }
    let run = Run {
        games: args.games,
        seed: args.seed,
        config: Config {
            nodes: args.nodes,
            random_plies: args.random_plies,
            skip_plies: args.skip_plies,
            max_plies: args.max_plies.max(1),
            hash_mb: args.hash.max(1),
        },
        concurrency: args.concurrency.max(1),
    };
    let mut file = std::fs::File::create(&args.out)
        .with_context(|| format!("cannot create {}", args.out.display()))?;
    let started = Instant::now();
    let mut totals = Totals::default();
    generate(&run, &mut file, |index, game| {
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
            game.samples.len(),
            t.positions,
            t.wdl[0],
            t.wdl[1],
            t.wdl[2],
            t.plies as f64 / t.games as f64,
            t.rejected,
            per_game,
            left / 60.0,
        );
    })
    .with_context(|| format!("writing {}", args.out.display()))?;
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
            config: Config {
                nodes: 300,
                random_plies: 4,
                skip_plies: 4,
                max_plies: 50,
                hash_mb: 1,
            },
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

    #[test]
    fn game_seeds_differ() {
        assert_ne!(game_seed(1, 0), game_seed(1, 1));
        assert_ne!(game_seed(1, 0), game_seed(2, 0));
        assert_eq!(game_seed(7, 3), game_seed(7, 3));
    }
}
