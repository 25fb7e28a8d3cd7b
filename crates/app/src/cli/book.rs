//! `xiangqi book build | probe | stats`: make the opening book from its source lines, and look
//! inside a book file.

use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use xiangqi::{format_move, parse_move, Move, Notation, Position};
use xiangqi_engine::book::format::{FLAG_MIRRORED, FLAG_VERIFIED};
use xiangqi_engine::book::{parse_lines, Book, Dropped, Line, Tree};
use xiangqi_engine::book_verify::{verify, VerifyOptions, DEFAULT_MARGIN};
use xiangqi_files::outln;

/// Where the book's source and the built file live, relative to the workspace root.
pub const DEFAULT_LINES: &str = "crates/engine/book/lines.txt";
/// See [`DEFAULT_LINES`].
pub const DEFAULT_OUT: &str = "crates/engine/book/book.bin";

/// Arguments of `book`.
#[derive(Args)]
pub struct BookArgs {
    #[command(subcommand)]
    command: BookCommand,
}

#[derive(Subcommand)]
enum BookCommand {
    /// Build a book file from opening lines (the same lines always give the same bytes).
    Build(BuildArgs),
    /// List the book moves of a position with their weights.
    Probe(ProbeArgs),
    /// Summarise a book file.
    Stats(StatsArgs),
}

#[derive(Args)]
struct BuildArgs {
    /// The source lines.
    #[arg(long, default_value = DEFAULT_LINES)]
    lines: PathBuf,
    /// The book file to write.
    #[arg(long, default_value = DEFAULT_OUT)]
    out: PathBuf,
    /// Search every book move this deep and drop those scoring more than --margin below the
    /// best book move of their position (0: no search).
    #[arg(long, default_value_t = 0)]
    verify_depth: u32,
    /// Largest score loss allowed by --verify-depth, in centi-soldiers.
    #[arg(long, default_value_t = DEFAULT_MARGIN)]
    margin: i32,
}

#[derive(Args)]
struct ProbeArgs {
    /// A book file (default: the built-in book).
    #[arg(long)]
    book: Option<PathBuf>,
    /// Start position (default: the standard start).
    #[arg(long)]
    fen: Option<String>,
    /// Moves played from it first, in any notation.
    #[arg(long, num_args = 0.., value_name = "MOVE")]
    moves: Vec<String>,
}

#[derive(Args)]
struct StatsArgs {
    /// A book file (default: the built-in book).
    #[arg(long)]
    book: Option<PathBuf>,
}

/// Runs a `book` subcommand.
pub fn run(args: &BookArgs) -> Result<()> {
    match &args.command {
        BookCommand::Build(a) => build(a),
        BookCommand::Probe(a) => probe(a),
        BookCommand::Stats(a) => stats(a),
    }
}

/// The longest source-lines file read: 16 MiB, thousands of times the built-in book's.
const MAX_LINES_LEN: u64 = 16 << 20;

fn read_lines(path: &Path) -> Result<Vec<Line>> {
    let bytes = xiangqi_files::reading::read(path, MAX_LINES_LEN)?;
    let text = String::from_utf8(bytes)
        .with_context(|| format!("{} is not UTF-8 text", path.display()))?;
    let lines = parse_lines(&text).with_context(|| format!("{}", path.display()))?;
    if lines.is_empty() {
        bail!("{} holds no opening line", path.display());
    }
    Ok(lines)
}

fn build(args: &BuildArgs) -> Result<()> {
    // Before the work (a verification searches for minutes): a regular file or nothing.
    xiangqi_files::disk::check_target(&args.out)?;
    let lines = read_lines(&args.lines)?;
    outln!("read {} lines from {}", lines.len(), args.lines.display());
    let verdict = if args.verify_depth > 0 {
        let plain = Tree::collect(&lines, false, &BTreeSet::new(), &BTreeMap::new());
        let options = VerifyOptions {
            depth: args.verify_depth,
            margin: args.margin,
        };
        let verdict = verify(&plain, options, |done, total| {
            if done % 50 == 0 || done == total {
                eprintln!(
                    "verified {done}/{total} book moves at depth {}",
                    options.depth
                );
            }
        });
        for d in &verdict.dropped {
            outln!("dropped {}", report_text(d, &lines));
        }
        for d in &verdict.doubtful {
            outln!("doubtful (kept) {}", report_text(d, &lines));
        }
        outln!(
            "dropped {} of {} moves, {} more doubtful (margin {} centi-soldiers)",
            verdict.dropped.len(),
            verdict.scores.len(),
            verdict.doubtful.len(),
            args.margin
        );
        Some(verdict)
    } else {
        None
    };
    let book = Book::build(&lines, verdict.as_ref());
    let bytes = book.to_bytes();
    xiangqi_files::disk::replace(&args.out, &bytes)?;
    let positions: BTreeSet<u64> = book.entries().iter().map(|e| e.key).collect();
    outln!(
        "wrote {}: {} positions, {} moves (mirror images included), {} bytes",
        args.out.display(),
        positions.len(),
        book.entries().len(),
        bytes.len()
    );
    Ok(())
}

/// "line 12: after 炮二平五 马８进７, 炮五进四 (e2e6) scores -3.10, 马二进三 (h0g2) +0.20".
fn report_text(d: &Dropped, lines: &[Line]) -> String {
    let key = d.position.key();
    let mut before = Vec::new();
    if let Some(line) = d
        .lines
        .first()
        .and_then(|n| lines.iter().find(|l| l.number == *n))
    {
        let mut pos = Position::startpos();
        for &m in &line.moves {
            if pos.key() == key {
                break;
            }
            before.push(format_move(&pos, m, Notation::Chinese));
            pos.make_move(m);
        }
    }
    let numbers: Vec<String> = d.lines.iter().map(usize::to_string).collect();
    let after = if before.is_empty() {
        "at the start".to_owned()
    } else {
        format!("after {}", before.join(" "))
    };
    format!(
        "line {}: {after}, {} scores {}, {} {}",
        numbers.join(", "),
        move_text(&d.position, d.mv),
        pawns(d.score),
        move_text(&d.position, d.best.0),
        pawns(d.best.1)
    )
}

fn move_text(pos: &Position, m: Move) -> String {
    format!("{} ({m})", format_move(pos, m, Notation::Chinese))
}

fn pawns(score: i32) -> String {
    format!("{:+.2}", f64::from(score) / 100.0)
}

fn load(path: Option<&Path>) -> Result<Book> {
    match path {
        Some(path) => Ok(Book::load(path)?),
        None => match Book::builtin() {
            Some(book) => Ok((*book).clone()),
            None => bail!("the built-in book is damaged; rebuild it with `xiangqi book build`"),
        },
    }
}

fn probe(args: &ProbeArgs) -> Result<()> {
    let book = load(args.book.as_deref())?;
    let mut pos = super::position_from(args.fen.as_deref())?;
    for (i, text) in args.moves.iter().enumerate() {
        let m = parse_move(&pos, text).with_context(|| format!("move {} ({text})", i + 1))?;
        pos.make_move(m);
    }
    outln!(
        "position {}  ({} to move)",
        pos.to_fen(),
        pos.side_to_move()
    );
    let moves = book.probe(&pos);
    if moves.is_empty() {
        outln!("no book moves");
        return Ok(());
    }
    let total: f64 = moves.iter().map(|m| f64::from(m.weight)).sum();
    for m in &moves {
        let share = 100.0 * f64::from(m.weight) / total;
        let score = match m.score {
            Some((s, d)) => format!("  score {} depth {d}", pawns(i32::from(s))),
            None => String::new(),
        };
        outln!(
            "{}  {}  weight {:>5}  {share:>5.1}%{score}",
            format_move(&pos, m.mv, Notation::Chinese),
            m.mv,
            m.weight
        );
    }
    Ok(())
}

fn stats(args: &StatsArgs) -> Result<()> {
    let book = load(args.book.as_deref())?;
    let entries = book.entries();
    let mut per_ply: BTreeMap<u8, BTreeSet<u64>> = BTreeMap::new();
    for e in entries {
        per_ply.entry(e.ply).or_default().insert(e.key);
    }
    let positions: usize = per_ply.values().map(BTreeSet::len).sum();
    let flag = |bit: u16| if book.flags() & bit != 0 { "yes" } else { "no" };
    outln!("entries        {}", entries.len());
    outln!("positions      {positions}");
    outln!("mirror images  {}", flag(FLAG_MIRRORED));
    outln!("verified       {}", flag(FLAG_VERIFIED));
    let start = book.probe(&Position::startpos());
    outln!("first moves    {}", start.len());
    for (ply, keys) in &per_ply {
        outln!("ply {ply:>3}        {} positions", keys.len());
    }
    Ok(())
}
