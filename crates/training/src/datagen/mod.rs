//! `xiangqi datagen`: self-play games by our own engine, their quiet positions labelled with
//! the search's score and the game's result. Two outputs:
//!
//! - `--out FILE`: text lines for tuning the hand-made evaluation ([`text`], read by
//!   `xiangqi tune`);
//! - `--dir DIR`: binary sample chunks for training an evaluation network ([`chunks`], in the
//!   format of [`crate::samples`]), resumable, and summed up by `--stats DIR` ([`stats`]).
//!
//! ```text
//! xiangqi datagen --games 3000 --seed 1 --nodes 5000 --out data.txt
//! xiangqi datagen --dir data/run1 --chunks 1000 --seed 1 --nodes 5000 --concurrency 2
//! xiangqi datagen --dir data/worker7 --chunks 700..799 --seed 1 --nodes 5000
//! xiangqi datagen --stats data/run1
//! ```
//!
//! Each game gets its own random generator (from a seed derived from the run's seed and the
//! game's number), its own single-threaded node-limited engine and an empty hash table, and
//! results are written in game order: the output is a function of the arguments alone, whatever
//! `--concurrency`.
//!
//! Files: [`config`] holds the settings every game shares, [`seeds`] derives each game's seed,
//! [`searcher`] is the engine as self-play uses it, [`opening`] draws random openings,
//! [`selfplay`] plays one game and chooses the positions to record, [`adjudicate`] ends
//! decided games, [`schedule`] runs games on threads and returns them in order.

pub mod adjudicate;
pub mod chunks;
pub mod config;
pub mod opening;
pub mod schedule;
pub mod searcher;
pub mod seeds;
pub mod selfplay;
pub mod stats;
pub mod text;

use anyhow::{bail, Context, Result};
use clap::{ArgGroup, Args};
use config::Config;
use std::path::PathBuf;
use std::sync::Arc;
use xiangqi_engine::nnue::Network;

/// Arguments of `datagen`.
#[derive(Args)]
#[command(group(ArgGroup::new("output").required(true).args(["out", "dir", "stats"])))]
pub struct DatagenArgs {
    /// Text output for `xiangqi tune`: one `FEN;result;score` line per position (the file is
    /// replaced). Needs --games.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Number of games to play (with --out).
    #[arg(long, value_name = "N", requires = "out")]
    games: Option<u64>,
    /// Binary output for training a network: a directory of sample chunks. Run the same
    /// command again to resume a stopped run (or, with a larger --chunks, to extend it).
    /// Needs --chunks.
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
    /// Chunks the directory holds when the run is done (with --dir): M for chunks 0 to M-1,
    /// or A..B for chunks A to B alone (both included), one worker's share of a data set made
    /// by many; the chunk files are the same whichever way the numbers are split.
    #[arg(long, value_name = "M|A..B", requires = "dir", value_parser = chunks::parse_chunks)]
    chunks: Option<std::ops::Range<u64>>,
    /// Games per chunk (with --dir).
    #[arg(long, default_value_t = 200, value_name = "G", requires = "dir")]
    chunk_games: u32,
    /// Print a summary of the sample chunks in DIR (or of one sample file) and exit.
    #[arg(long, value_name = "PATH")]
    stats: Option<PathBuf>,
    /// Seed of the random openings: the same arguments give the same data.
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
    /// Play with the hand-made evaluation instead of the built-in network.
    #[arg(long, conflicts_with = "network")]
    hand_made: bool,
    /// Play with this evaluation network file instead of the built-in one.
    #[arg(long, value_name = "FILE")]
    network: Option<PathBuf>,
    /// Games played at once, one thread each (does not change the output).
    #[arg(long, default_value_t = 1, value_name = "C")]
    concurrency: usize,
}

/// Runs `datagen`.
pub fn run(args: &DatagenArgs) -> Result<()> {
    if let Some(path) = &args.stats {
        return stats::run(path);
    }
    if args.nodes == 0 {
        bail!("--nodes must be at least 1");
    }
    let network = match (&args.network, args.hand_made) {
        (_, true) => None,
        (Some(path), false) => {
            Some(Arc::new(Network::load(path).with_context(|| {
                format!("cannot use {} as --network", path.display())
            })?))
        }
        (None, false) => Some(xiangqi_engine::nnue::embedded()),
    };
    let config = Config {
        nodes: args.nodes,
        random_plies: args.random_plies,
        skip_plies: args.skip_plies,
        max_plies: args.max_plies.max(1),
        hash_mb: args.hash.max(1),
        network,
    };
    let concurrency = args.concurrency.max(1);
    if let Some(out) = &args.out {
        let games = args.games.context("--out needs --games N")?;
        let run = text::Run {
            games,
            seed: args.seed,
            config,
            concurrency,
        };
        return text::run(&run, out);
    }
    let Some(dir) = &args.dir else {
        bail!("one of --out, --dir or --stats is needed");
    };
    let run = chunks::ChunkRun {
        chunks: args.chunks.clone().context("--dir needs --chunks M")?,
        chunk_games: args.chunk_games,
        seed: args.seed,
        config,
        concurrency,
    };
    chunks::run(&run, dir)
}
