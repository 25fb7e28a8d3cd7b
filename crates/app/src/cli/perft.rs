//! `xiangqi perft DEPTH [--fen FEN] [--divide]`.

use anyhow::{bail, Result};
use clap::Args;
use std::time::Instant;

/// The deepest perft the program runs, here and as the protocols' `go perft`.
///
/// Depth 7 from the start position has some 40 times the 5.4·10⁹ leaves of depth 6, which took
/// 32–48 s on one core of the project's machine: 20 to 30 minutes. Depth 8 would take some 40
/// times longer again, many hours, which is more likely a typo than a test. A bound is needed
/// anyway: the count recurses once per ply, and `perft 100000` overflowed the stack and aborted.
pub const MAX_DEPTH: u32 = 7;

/// Why a perft to `depth` is not run (the depth is beyond [`MAX_DEPTH`]), or `None`.
pub fn depth_refusal(depth: u32) -> Option<String> {
    (depth > MAX_DEPTH).then(|| {
        format!(
            "perft depth {depth} refused: the deepest perft is {MAX_DEPTH} (deeper takes hours)"
        )
    })
}

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
    if let Some(refusal) = depth_refusal(args.depth) {
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
