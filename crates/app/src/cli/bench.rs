//! `xiangqi bench [DEPTH]`: the deterministic search benchmark.

use anyhow::Result;
use clap::Args;

/// Arguments of `bench`.
#[derive(Args)]
pub struct BenchArgs {
    /// Search depth for every position.
    #[arg(default_value_t = engine::bench::DEFAULT_DEPTH)]
    depth: u32,
}

/// Prints one line per position on stderr, then `N nodes M nps` as the last line on stdout.
pub fn run(args: &BenchArgs) -> Result<()> {
    let result = engine::bench::run(args.depth, |i, nodes| {
        eprintln!("position {:>2}: {nodes} nodes", i + 1);
    });
    eprintln!("time {:.3} s", result.time.as_secs_f64());
    outln!("{} nodes {} nps", result.nodes, result.nps());
    Ok(())
}
