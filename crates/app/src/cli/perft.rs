//! `xiangqi perft DEPTH [--fen FEN] [--divide]`.

use anyhow::{bail, Result};
use clap::Args;
use std::time::Instant;
use xiangqi::perft_depth_refusal;
use xiangqi_files::outln;

/// Arguments of `perft`.
#[derive(Args)]
pub struct PerftArgs {
    /// Plies to search (at most 7).
    depth: u32,
    /// Start position (default: the standard start).
    #[arg(long)]
    fen: Option<String>,
    /// Print the count below each root move first (`h2e2: 1234`).
    #[arg(long)]
    divide: bool,
}

/// Prints `move: count` lines when dividing, the time and speed on stderr, then `nodes N`.
pub fn run(args: &PerftArgs) -> Result<()> {
    if let Some(refusal) = perft_depth_refusal(args.depth) {
        bail!(refusal);
    }
    let mut pos = super::position_from(args.fen.as_deref())?;
    let started = Instant::now();
    let nodes = if args.divide {
        let mut total = 0;
        for (m, n) in xiangqi::perft_divide(&mut pos, args.depth) {
            outln!("{m}: {n}");
            total += n;
        }
        if args.depth == 0 {
            1
        } else {
            total
        }
    } else {
        xiangqi::perft(&mut pos, args.depth)
    };
    let seconds = started.elapsed().as_secs_f64();
    eprintln!(
        "time {:.3} s, {:.0} nodes/s",
        seconds,
        nodes as f64 / seconds.max(1e-9)
    );
    outln!("nodes {nodes}");
    Ok(())
}
