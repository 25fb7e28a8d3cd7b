//! `xiangqi bench [DEPTH]`: the deterministic search benchmark with the built-in network
//! (`--hand-made`: with the hand-made evaluation); `xiangqi bench --eval` times the evaluation
//! alone.

use anyhow::Result;
use clap::Args;
use xiangqi_files::outln;

/// Arguments of `bench`.
#[derive(Args)]
pub struct BenchArgs {
    /// Search depth for every position.
    #[arg(default_value_t = xiangqi_engine::bench::DEFAULT_DEPTH)]
    depth: u32,
    /// Time the evaluation alone instead (the depth is then ignored).
    #[arg(long)]
    eval: bool,
    /// Search with the hand-made evaluation instead of the built-in network (its node count
    /// is a checksum of its own).
    #[arg(long)]
    hand_made: bool,
    /// Search threads: with more than one the node count varies from run to run, and the
    /// time to depth shows what the helpers bring.
    #[arg(long, default_value_t = 1)]
    threads: usize,
}

/// Rounds of `bench --eval`: about one and a half million evaluations, a fraction of a second.
const EVAL_ROUNDS: u32 = 2000;

/// Prints one line per position on stderr, then `N nodes M nps` as the last line on stdout.
pub fn run(args: &BenchArgs) -> Result<()> {
    if args.eval {
        let result = xiangqi_engine::bench::run_eval(EVAL_ROUNDS);
        eprintln!(
            "time {:.3} s, checksum {}",
            result.time.as_secs_f64(),
            result.checksum
        );
        outln!(
            "{} evaluations {} per second",
            result.evaluations,
            result.per_second()
        );
        return Ok(());
    }
    let network = (!args.hand_made).then(xiangqi_engine::nnue::embedded);
    let result = xiangqi_engine::bench::run(args.depth, network, args.threads, |i, nodes| {
        eprintln!("position {:>2}: {nodes} nodes", i + 1);
    });
    eprintln!("time {:.3} s", result.time.as_secs_f64());
    outln!("{} nodes {} nps", result.nodes, result.nps());
    Ok(())
}
