//! `xiangqi puzzles check`: searches every position of each puzzle's solution, or of each
//! classic's book line from its diagram, and prints where the engine disagrees (a move that
//! keeps clearly less winning chance than the engine's own, for either side) and what it
//! makes of the start, so that disagreements are written down rather than hidden.

use anyhow::{bail, Result};
use clap::Args;
use std::path::PathBuf;
use xiangqi::{Color, Move, Position};
use xiangqi_files::outln;
use xiangqi_puzzles::audit::{self, shown};
use xiangqi_puzzles::classic::{self, Verdict};
use xiangqi_puzzles::mine::analyst::Analyst;
use xiangqi_puzzles::mine::solve::WIN_CHANCE;
use xiangqi_puzzles::Puzzle;

/// Hash table of each search, in MiB.
const CHECK_HASH_MB: usize = 64;

/// Arguments of `puzzles check`.
#[derive(Args)]
pub struct CheckArgs {
    /// Check the classics' book lines from their diagrams (the default when no file is given).
    #[arg(long, conflicts_with = "file")]
    classics: bool,
    /// A puzzle file whose solutions to check.
    #[arg(long)]
    file: Option<PathBuf>,
    /// Only the puzzles or classics with these ids.
    #[arg(long)]
    id: Vec<String>,
    /// Nodes of the search of each position.
    #[arg(long, default_value_t = 1_000_000)]
    nodes: u64,
}

/// One line to check: a name, where it starts and its moves, and the verdict it claims.
struct Item {
    title: String,
    start: Position,
    line: Vec<Move>,
    verdict: Option<Verdict>,
}

fn items(args: &CheckArgs) -> Result<Vec<Item>> {
    let wanted = |id: &str| args.id.is_empty() || args.id.iter().any(|w| w == id);
    let items: Vec<Item> = match &args.file {
        Some(path) => super::puzzle_files::load(Some(path))?
            .into_iter()
            .filter(|p| wanted(&p.id))
            .map(|p: Puzzle| Item {
                title: p.id.clone(),
                start: p.position,
                line: p.solution,
                verdict: None,
            })
            .collect(),
        None => classic::classics()
            .iter()
            .filter(|c| wanted(&c.puzzle.id))
            .map(|c| Item {
                title: format!("{} {} ({})", c.puzzle.id, c.name, c.verdict_text),
                start: c.diagram.clone(),
                line: c.line.clone(),
                verdict: Some(c.verdict),
            })
            .collect(),
    };
    if items.is_empty() {
        bail!("nothing to check: no puzzle has the ids given");
    }
    Ok(items)
}

fn side(color: Color) -> &'static str {
    match color {
        Color::Red => "Red",
        Color::Black => "Black",
    }
}

/// Whether the engine's score of the diagram for the side to move agrees with the verdict:
/// a win is a winning chance of at least [`WIN_CHANCE`], a draw anything between.
fn agrees(verdict: Verdict, mover: Color, score: Option<i32>) -> bool {
    let Some(score) = score else {
        return false;
    };
    let chance = xiangqi_engine::score::winning_chance(score);
    match verdict {
        Verdict::Draw => (1.0 - WIN_CHANCE..WIN_CHANCE).contains(&chance),
        Verdict::Win(side) if side == mover => chance >= WIN_CHANCE,
        Verdict::Win(_) => chance <= 1.0 - WIN_CHANCE,
    }
}

/// Runs `puzzles check`.
pub fn run(args: &CheckArgs) -> Result<()> {
    let items = items(args)?;
    let mut analyst = Analyst::new(CHECK_HASH_MB);
    let (mut disagreeing, mut findings) = (0, 0);
    for (number, item) in items.iter().enumerate() {
        eprintln!("{}/{}: {}", number + 1, items.len(), item.title);
        let found = audit::audit(&item.start, &item.line, &mut analyst, args.nodes);
        let mover = item.start.side_to_move();
        let start = found.start_score.map_or("no move".into(), shown);
        let mut head = format!("{}: start {start} for {}", item.title, side(mover));
        if let Some(verdict) = item.verdict {
            let agree = agrees(verdict, mover, found.start_score);
            disagreeing += usize::from(!agree);
            head += if agree {
                ", agrees with the verdict"
            } else {
                ", DISAGREES with the verdict"
            };
        }
        let last = if item.line.len() % 2 == 0 {
            mover
        } else {
            mover.other()
        };
        let end = found.end_score.map_or("mated".into(), shown);
        head += &format!(
            "; after the {} moves {end} for {}; {} finding(s)",
            item.line.len(),
            side(last),
            found.findings.len()
        );
        outln!("{head}");
        for finding in &found.findings {
            outln!("  {finding}");
        }
        findings += found.findings.len();
    }
    outln!(
        "{} lines checked at {} nodes a position: {findings} finding(s){}",
        items.len(),
        args.nodes,
        if args.file.is_none() {
            format!(", {disagreeing} start(s) that disagree with the book's verdict")
        } else {
            String::new()
        }
    );
    Ok(())
}
