//! `xiangqi analyse [--fen FEN] [--moves M…] [--depth N | --movetime MS] [--tablebases DIR]`: a
//! readable analysis.

use anyhow::{bail, Result};
use clap::Args;
use std::io::Write as _;
use std::path::PathBuf;
use std::time::Duration;
use xiangqi::{format_move, parse_move, Move, Notation, Position};
use xiangqi_engine::score::{printed, Printed};
use xiangqi_engine::{Bound, Engine, EngineOptions, Limits, SearchInfo, SearchRequest, Tablebases};
use xiangqi_files::outln;

/// Arguments of `analyse`.
#[derive(Args)]
pub struct AnalyseArgs {
    /// Start position (default: the standard start).
    #[arg(long)]
    fen: Option<String>,
    /// Moves played from it first, in any notation.
    #[arg(long, num_args = 0.., value_name = "MOVE")]
    moves: Vec<String>,
    /// Search this many plies.
    #[arg(long, conflicts_with = "movetime")]
    depth: Option<u32>,
    /// Search this many milliseconds (default 3000 when no depth is given).
    #[arg(long)]
    movetime: Option<u64>,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Hash table size in MiB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// A folder of endgame tables (`xiangqi tb generate`) for the search to probe.
    #[arg(long, value_name = "DIR")]
    tablebases: Option<PathBuf>,
}

/// Renders a line of moves from `pos` as "炮二平五 马８进７ … (h2e2 h9g7 …)".
fn line_text(pos: &Position, pv: &[Move]) -> String {
    let mut chinese = Vec::new();
    let mut iccs = Vec::new();
    let mut p = pos.clone();
    for &m in pv {
        if !p.is_legal(m) {
            break;
        }
        chinese.push(format_move(&p, m, Notation::Chinese));
        iccs.push(format_move(&p, m, Notation::Iccs));
        p.make_move(m);
    }
    format!("{}  ({})", chinese.join(" "), iccs.join(" "))
}

fn score_text(score: i32) -> String {
    match printed(score) {
        Printed::Cp(cp) => format!("{:+.2}", cp as f64 / 100.0),
        Printed::Mate(n) if n > 0 => format!("mate in {n}"),
        Printed::Mate(n) => format!("mated in {}", -n),
    }
}

/// A score, marked `>=` or `<=` when the search stopped with only a bound on it (the line of
/// an iteration it was stopped in, and then its result).
fn marked_score_text(score: i32, bound: Bound) -> String {
    let mark = match bound {
        Bound::Exact => "",
        Bound::Lower => ">=",
        Bound::Upper => "<=",
    };
    format!("{mark}{}", score_text(score))
}

/// Prints one line per completed depth (and one for a depth the search stopped in, when it
/// changed the best move or its score), then the best move and the expected line.
pub fn run(args: &AnalyseArgs) -> Result<()> {
    let start = super::position_from(args.fen.as_deref())?;
    let mut root = start.clone();
    let mut moves = Vec::new();
    for (i, text) in args.moves.iter().enumerate() {
        match parse_move(&root, text) {
            Ok(m) => {
                root.make_move(m);
                moves.push(m);
            }
            Err(e) => bail!("move {} ({text}): {e}", i + 1),
        }
    }
    let limits = Limits {
        depth: args.depth,
        movetime: match (args.depth, args.movetime) {
            (None, None) => Some(Duration::from_millis(3000)),
            (_, ms) => ms.map(Duration::from_millis),
        },
        ..Limits::default()
    };
    let mut engine = Engine::new(EngineOptions {
        hash_mb: args.hash,
        threads: args.threads,
        move_overhead: Duration::ZERO,
        // An analysis wants the engine's own judgement, not a book move.
        own_book: false,
        ..EngineOptions::default()
    });
    let side = root.side_to_move();
    outln!("position {}  ({} to move)", root.to_fen(), side);
    if let Some(dir) = &args.tablebases {
        let (tablebases, refused) = Tablebases::read(dir)?;
        for problem in &refused {
            eprintln!("{problem}; that table is not used");
        }
        let (material, _) = xiangqi_tablebase::Material::of(&root);
        match tablebases.tables().lookup(&root) {
            Some(probe) => outln!("tablebase {material}: {probe}"),
            None => outln!("tablebase: no table for {material}"),
        }
        engine.set_tablebases(Some(tablebases));
    }
    let printer_root = root.clone();
    let mut request = SearchRequest::new(start, limits);
    request.moves = moves;
    let result = engine.search(request, move |info: &SearchInfo| {
        let nps = info.nodes * 1000 / (info.time.as_millis().max(1) as u64);
        let tbhits = if info.tbhits > 0 {
            format!("  tbhits {}", info.tbhits)
        } else {
            String::new()
        };
        // A reader that has gone (`| head`) is no reason to stop the search with a panic; the
        // result's own lines after it report the closed output.
        let _ = writeln!(
            std::io::stdout().lock(),
            "depth {:>2}  score {:>8}  nodes {:>10}  nps {:>9}{tbhits}  {}",
            info.depth,
            marked_score_text(info.score, info.bound),
            info.nodes,
            nps,
            line_text(&printer_root, &info.pv)
        );
    });
    match result.best_move {
        None => outln!("no legal move: {side} has lost"),
        Some(best) => {
            outln!(
                "best move {} ({})  score {} for {side}",
                format_move(&root, best, Notation::Chinese),
                format_move(&root, best, Notation::Iccs),
                marked_score_text(result.score, result.bound)
            );
            outln!("line {}", line_text(&root, &result.pv));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bound_is_marked_and_an_exact_score_is_not() {
        assert_eq!(marked_score_text(47, Bound::Exact), "+0.47");
        assert_eq!(marked_score_text(47, Bound::Lower), ">=+0.47");
        assert_eq!(marked_score_text(-120, Bound::Upper), "<=-1.20");
    }
}
