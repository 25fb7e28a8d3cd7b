//! `xiangqi lab [--fen FEN] [--moves M…] --depth D [--algo A,B,…|all] [--eval simple|engine]
//! [--limit-seconds S]`: the search laboratory's algorithms side by side on one position.
//!
//! Standard output holds two tables of space-separated words. The first is for scripts: the
//! header `algorithm nodes leaves cutoffs time_ms value bestmove`, then one row per algorithm,
//! and it ends at the first empty line. `value` is the root's value for the side to move in
//! centi-soldiers (a mate is `31000` less the plies to it, negative when being mated), or
//! `unfinished` when the algorithm ran out of time; its counts are then those of the moment
//! it stopped, and `bestmove` is `-`. The engine counts no leaves or cutoffs (`-`). The
//! second table is for people: the leaves beside Knuth and Moore's minimal tree for the root's
//! number of moves, where the cutoffs came from, the table's work, the re-searches, the value
//! in soldiers and the principal variation.

use anyhow::{bail, Result};
use clap::Args;
use std::time::Duration;
use xiangqi_engine::lab::{self, minimal_tree_leaves, Algorithm, Evaluation, Report, Settings};
use xiangqi_engine::score::{printed, Printed};
use xiangqi_files::outln;

/// Arguments of `lab`.
#[derive(Args)]
pub struct LabArgs {
    /// Start position (default: the standard start).
    #[arg(long)]
    fen: Option<String>,
    /// Moves played from it first, in any notation.
    #[arg(long, num_args = 0.., value_name = "MOVE")]
    moves: Vec<String>,
    /// Plies to search (1 to 30).
    #[arg(long)]
    depth: u32,
    /// Algorithms to run, comma-separated, or `all` (the nine: minimax, negamax, alphabeta,
    /// alphabeta-mvvlva, alphabeta-history, alphabeta-tt, pvs-tt-history, pvs-id-aspiration,
    /// engine). Also `pvs`, `pvs-tt`, `pvs-history`: NegaScout without one or both helpers;
    /// and the engine's ideas, each added to `alphabeta-mvvlva`: `alphabeta-killer`,
    /// `alphabeta-qs`, `alphabeta-qs-mvvlva`, `alphabeta-nullmove`, `alphabeta-lmr`.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "all",
        value_name = "ALGORITHMS"
    )]
    algo: Vec<String>,
    /// How leaves are scored: `simple` (the reports' evaluation) or `engine` (the engine's).
    /// The `engine` row always uses the engine's.
    #[arg(long, default_value = "simple", value_name = "EVALUATION")]
    eval: String,
    /// Stop each algorithm after this many seconds; it is then reported as unfinished.
    #[arg(long, default_value_t = 60.0, value_name = "S")]
    limit_seconds: f64,
}

/// The longest `--limit-seconds` accepted: a week.
const MAX_LIMIT_SECONDS: f64 = 7.0 * 24.0 * 3600.0;

/// The algorithms named on the command line, in the order given (`all` expands in place).
fn algorithms(names: &[String]) -> Result<Vec<Algorithm>> {
    let mut out = Vec::new();
    for name in names {
        if name == "all" {
            out.extend(Algorithm::ALL);
        } else {
            out.push(name.parse()?);
        }
    }
    Ok(out)
}

/// A value for people: `+0.35` soldiers, or `mate-in-2` / `mated-in-1` (moves, not plies).
fn value_text(value: i32) -> String {
    match printed(value) {
        Printed::Cp(cp) => format!("{:+.2}", f64::from(cp) / 100.0),
        Printed::Mate(n) if n > 0 => format!("mate-in-{n}"),
        Printed::Mate(n) => format!("mated-in-{}", -n),
    }
}

/// `n`, or `-` for the engine, which does not count it.
fn counted(report: &Report, n: u64) -> String {
    if report.algorithm.counts_tree() {
        n.to_string()
    } else {
        "-".to_string()
    }
}

/// The row of the first table.
fn row(report: &Report) -> String {
    let (value, best) = match &report.outcome {
        None => ("unfinished".to_string(), "-".to_string()),
        Some(outcome) => (
            outcome.value.to_string(),
            outcome
                .best_move
                .map_or("none".to_string(), |m| m.to_string()),
        ),
    };
    format!(
        "{} {} {} {} {} {value} {best}",
        report.algorithm.name(),
        report.stats.nodes,
        counted(report, report.stats.leaves),
        counted(report, report.stats.cutoffs),
        report.time.as_millis(),
    )
}

/// The header of the second table.
const DETAIL_HEADER: &str = "algorithm leaves minimal_tree leaves_per_minimal \
                             first_move_cutoffs later_cutoffs table_hits table_answers \
                             researches value pv";

/// The row of the second table: the leaves against the minimal tree, and the details.
fn detail(report: &Report, minimal: u128) -> String {
    let name = report.algorithm.name();
    let Some(outcome) = &report.outcome else {
        return format!(
            "{name} unfinished after {} nodes and {:.1} s",
            report.stats.nodes,
            report.time.as_secs_f64()
        );
    };
    let pv: Vec<String> = outcome.pv.iter().map(|m| m.to_string()).collect();
    let value = value_text(outcome.value);
    if !report.algorithm.counts_tree() {
        return format!("{name} - {minimal} - - - - - - {value} {}", pv.join(" "));
    }
    let s = &report.stats;
    format!(
        "{name} {} {minimal} {:.2} {} {} {} {} {} {value} {}",
        s.leaves,
        s.leaves as f64 / minimal.max(1) as f64,
        s.first_move_cutoffs,
        s.later_cutoffs(),
        s.table_hits,
        s.table_answers,
        s.researches + s.aspiration_researches,
        pv.join(" ")
    )
}

/// Runs the algorithms one after the other, printing each row as it finishes, then the
/// details beside the minimal tree.
pub fn run(args: &LabArgs) -> Result<()> {
    let evaluation: Evaluation = args.eval.parse()?;
    let settings = Settings::new(args.depth, evaluation);
    settings.check()?;
    // NaN is in no range, so it is refused too.
    if !(0.0..=MAX_LIMIT_SECONDS).contains(&args.limit_seconds) {
        bail!(
            "--limit-seconds {} refused: from 0 to {MAX_LIMIT_SECONDS} (a week)",
            args.limit_seconds
        );
    }
    let limit = Duration::from_secs_f64(args.limit_seconds);
    let algorithms = algorithms(&args.algo)?;
    let root = super::root_position(args.fen.as_deref(), &args.moves)?;
    eprintln!(
        "position {} ({} to move), depth {}, {evaluation} evaluation, at most {} s each",
        root.to_fen(),
        root.side_to_move(),
        args.depth,
        args.limit_seconds
    );
    outln!("algorithm nodes leaves cutoffs time_ms value bestmove");
    let mut reports = Vec::new();
    for algorithm in algorithms {
        // Each algorithm has the whole limit, from its own start.
        let settings = settings.clone().with_time_limit(limit);
        let report = lab::run(algorithm, &root, &settings)?;
        outln!("{}", row(&report));
        reports.push(report);
    }
    let branching = root.count_legal_moves() as u64;
    let depth = args.depth;
    let minimal = minimal_tree_leaves(branching, depth);
    let full = u128::from(branching).saturating_pow(depth);
    outln!();
    outln!(
        "minimal tree for {branching} moves at every node, depth {depth}: \
         {branching}^{} + {branching}^{} - 1 = {minimal} leaves, against {branching}^{depth} = {full}",
        depth.div_ceil(2),
        depth / 2,
    );
    outln!("{DETAIL_HEADER}");
    for report in &reports {
        outln!("{}", detail(report, minimal));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_for_people() {
        assert_eq!(value_text(35), "+0.35");
        assert_eq!(value_text(-120), "-1.20");
        assert_eq!(value_text(xiangqi_engine::score::mate_in(1)), "mate-in-1");
        assert_eq!(value_text(xiangqi_engine::score::mated_in(2)), "mated-in-1");
    }

    #[test]
    fn all_expands_in_place_and_unknown_names_are_refused() {
        let names = |list: &[&str]| {
            algorithms(&list.iter().map(|s| s.to_string()).collect::<Vec<_>>())
                .map(|v| v.iter().map(|a| a.name()).collect::<Vec<_>>().join(","))
        };
        assert_eq!(names(&["pvs", "minimax"]).unwrap(), "pvs,minimax");
        assert_eq!(names(&["all"]).unwrap().split(',').count(), 9);
        let error = names(&["alphabeta", "alpha-beta"]).unwrap_err().to_string();
        assert!(
            error.starts_with("unknown algorithm \"alpha-beta\""),
            "{error}"
        );
    }
}
