//! `xiangqi puzzles generate | export | tag | stats | merge` (`check` is in
//! [`super::puzzle_check`]): mine puzzles from games, print the
//! shipped ones for other engines to check, recompute a file's themes, sum a file up, and join
//! files without duplicates.

use super::games;
use super::puzzle_files::{load, read_text};
use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use std::collections::{BTreeMap, HashSet};
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use xiangqi::{Move, Position};
use xiangqi_files::{disk, outln};
use xiangqi_puzzles::mine::seen::{Fingerprint, Seen};
use xiangqi_puzzles::mine::{selfplay, Generator, Settings};
use xiangqi_puzzles::{read_puzzles, tag, Puzzle};

/// Arguments of `puzzles`.
#[derive(Args)]
pub struct PuzzlesArgs {
    #[command(subcommand)]
    command: PuzzlesCommand,
}

#[derive(Subcommand)]
enum PuzzlesCommand {
    /// Mine puzzles from games (PGN or XQF files, then self-play between the difficulty
    /// levels), prove each with a deep search and append them to a file. Stopped, the same
    /// command goes on where it stopped.
    Generate(GenerateArgs),
    /// Print every puzzle as `id<TAB>fen<TAB>solution<TAB>themes<TAB>rating` (the solution in
    /// ICCS, both sides' moves, the solver's first).
    Export(FileArgs),
    /// Recompute the themes of every puzzle in a file and write it back.
    Tag(TagArgs),
    /// Count a puzzle file's puzzles by theme, rating and length.
    Stats(FileArgs),
    /// Join puzzle files into one, leaving out duplicates and near-duplicates (the first one
    /// found stays); the files' comment lines are kept.
    Merge(MergeArgs),
    /// Search every position of the classics' book lines (or of a file's solutions) and print
    /// where the engine disagrees with them.
    Check(super::puzzle_check::CheckArgs),
}

#[derive(Args)]
struct MergeArgs {
    /// The file to write (replaced).
    #[arg(long)]
    out: PathBuf,
    /// The files to join, in order.
    #[arg(required = true)]
    files: Vec<PathBuf>,
}

#[derive(Args)]
struct GenerateArgs {
    /// The puzzle file to add to (created if missing).
    #[arg(long)]
    out: PathBuf,
    /// Game files to mine first, in order (PGN in UTF-8, GBK or Big5, or XQF).
    #[arg(long)]
    pgn: Vec<PathBuf>,
    /// Self-play games to play and mine after the files.
    #[arg(long, default_value_t = 0)]
    games: u64,
    /// Seed of the self-play games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The difficulty levels that play the self-play games, as `LOW-HIGH` (every pairing in
    /// turn).
    #[arg(long, default_value = "2-6", value_parser = parse_levels)]
    levels: RangeInclusive<u8>,
    /// Nodes of the scan over every position.
    #[arg(long, default_value_t = Settings::default().scan_nodes)]
    scan_nodes: u64,
    /// Nodes of each search that builds a solution.
    #[arg(long, default_value_t = Settings::default().line_nodes)]
    line_nodes: u64,
    /// Nodes of each proving search.
    #[arg(long, default_value_t = Settings::default().verify_nodes)]
    verify_nodes: u64,
    /// Print every candidate position and what became of it.
    #[arg(long)]
    verbose: bool,
}

#[derive(Args)]
struct FileArgs {
    /// A puzzle file (default: the puzzles built into the program).
    #[arg(long)]
    file: Option<PathBuf>,
}

#[derive(Args)]
struct TagArgs {
    /// The puzzle file to retag in place.
    #[arg(long)]
    file: PathBuf,
}

/// Runs `puzzles`.
pub fn run(args: &PuzzlesArgs) -> Result<()> {
    match &args.command {
        PuzzlesCommand::Generate(a) => generate(a),
        PuzzlesCommand::Export(a) => {
            for puzzle in load(a.file.as_deref())? {
                outln!("{}", puzzle.export_line());
            }
            Ok(())
        }
        PuzzlesCommand::Tag(a) => retag(&a.file),
        PuzzlesCommand::Stats(a) => stats(&load(a.file.as_deref())?),
        PuzzlesCommand::Merge(a) => merge(a),
        PuzzlesCommand::Check(a) => super::puzzle_check::run(a),
    }
}

/// A game to mine: its start, its moves and where it comes from.
struct Source {
    start: Position,
    moves: Vec<Move>,
    name: String,
}

/// The run's games in order: every game of the files, then the self-play games (played only
/// when reached).
fn file_games(files: &[PathBuf]) -> Result<Vec<Source>> {
    let mut all = Vec::new();
    for file in files {
        let name = file.file_name().map_or_else(
            || file.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        for (i, record) in games(file)?.into_iter().enumerate() {
            all.push(Source {
                moves: record.moves.iter().map(|m| m.mv).collect(),
                start: record.start,
                name: format!("{name} game {}", i + 1),
            });
        }
    }
    Ok(all)
}

fn parse_levels(text: &str) -> Result<RangeInclusive<u8>, String> {
    let bad = || format!("{text:?}: levels are written LOW-HIGH, from 1 to 9 (as 2-6)");
    let (low, high) = text.split_once('-').ok_or_else(bad)?;
    let (low, high): (u8, u8) = (
        low.parse().map_err(|_| bad())?,
        high.parse().map_err(|_| bad())?,
    );
    if !(1..=9).contains(&low) || !(low..=9).contains(&high) {
        return Err(bad());
    }
    Ok(low..=high)
}

fn self_play_game(seed: u64, number: u64, levels: &RangeInclusive<u8>) -> Source {
    let (red, black) = selfplay::pairing(levels, number);
    Source {
        start: Position::startpos(),
        moves: selfplay::play(seed, number, levels),
        name: format!("selfplay seed {seed} game {number} levels {red}-{black}"),
    }
}

/// The progress file beside the puzzle file: which run it belongs to and how many games it
/// has finished.
fn progress_path(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".progress");
    PathBuf::from(name)
}

fn read_progress(path: &Path, run: &str) -> Result<u64> {
    if !path.exists() {
        return Ok(0);
    }
    let text = read_text(path)?;
    let mut lines = text.lines();
    let (Some(saved_run), Some(games)) = (lines.next(), lines.next()) else {
        bail!("{}: not a progress file", path.display());
    };
    if saved_run != run {
        bail!(
            "{} belongs to another run ({saved_run}); this one is {run}: give another --out",
            path.display()
        );
    }
    games
        .strip_prefix("games done ")
        .and_then(|n| n.parse().ok())
        .with_context(|| format!("{}: not a progress file", path.display()))
}

/// The puzzle file's text with a line cut short by a crash taken off (and the file fixed).
fn whole_lines(out: &Path) -> Result<String> {
    let text = read_text(out)?;
    if text.is_empty() || text.ends_with('\n') {
        return Ok(text);
    }
    let whole = &text[..text.rfind('\n').map_or(0, |i| i + 1)];
    disk::replace(out, whole.as_bytes())?;
    Ok(whole.to_string())
}

fn generate(args: &GenerateArgs) -> Result<()> {
    let settings = Settings {
        scan_nodes: args.scan_nodes,
        line_nodes: args.line_nodes,
        verify_nodes: args.verify_nodes,
        ..Settings::default()
    };
    let files = file_games(&args.pgn)?;
    let total = files.len() as u64 + args.games;
    let run = format!(
        "run: files {:?} selfplay seed {} levels {}-{} nodes {}/{}/{}",
        args.pgn,
        args.seed,
        args.levels.start(),
        args.levels.end(),
        args.scan_nodes,
        args.line_nodes,
        args.verify_nodes
    );
    let progress = progress_path(&args.out);
    let done = read_progress(&progress, &run)?;
    let mut generator = Generator::new(settings);
    if args.out.exists() {
        let old = read_puzzles(&whole_lines(&args.out)?)
            .with_context(|| format!("{}", args.out.display()))?;
        old.iter().for_each(|p| generator.remember(p));
        eprintln!("{}: {} puzzles already", args.out.display(), old.len());
    } else {
        disk::append(
            &args.out,
            format!("# xiangqi puzzles generate, {run}\n").as_bytes(),
        )?;
    }
    if done >= total {
        eprintln!("all {total} games of this run are mined already");
    }
    for index in done..total {
        let game = match files.get(index as usize) {
            Some(source) => Source {
                start: source.start.clone(),
                moves: source.moves.clone(),
                name: source.name.clone(),
            },
            None => self_play_game(args.seed, index - files.len() as u64, &args.levels),
        };
        let found = generator.mine_game_reporting(
            &game.start,
            &game.moves,
            &game.name,
            |ply, pos, what| {
                if args.verbose {
                    let what = match what {
                        Ok(p) => format!("puzzle {} {}", p.id, p.solution_text()),
                        Err(reason) => format!("{reason:?}"),
                    };
                    eprintln!("  ply {ply} {}: {what}", pos.to_fen());
                }
            },
        );
        let lines: String = found.iter().map(|p| p.line() + "\n").collect();
        disk::append(&args.out, lines.as_bytes())?;
        disk::replace(
            &progress,
            format!("{run}\ngames done {}\n", index + 1).as_bytes(),
        )?;
        let stats = &generator.stats;
        eprintln!(
            "game {}/{total} ({}): {} puzzles; this session {} kept of {} candidates in {} positions",
            index + 1,
            game.name,
            found.len(),
            stats.kept,
            stats.candidates,
            stats.positions
        );
    }
    eprintln!("rejected: {:?}", generator.stats.rejected);
    Ok(())
}

fn retag(file: &Path) -> Result<()> {
    let text = read_text(file)?;
    // Reading the whole file first refuses a broken one before anything is written.
    read_puzzles(&text).with_context(|| format!("{}", file.display()))?;
    let mut out = String::with_capacity(text.len());
    let mut changed = 0;
    for line in text.lines() {
        if line.trim().is_empty() || line.starts_with('#') {
            out.push_str(line);
        } else {
            let mut puzzle = Puzzle::from_line(line)?;
            let themes = tag::retag(&puzzle);
            changed += usize::from(themes != puzzle.themes);
            puzzle.themes = themes;
            out.push_str(&puzzle.line());
        }
        out.push('\n');
    }
    disk::replace(file, out.as_bytes())?;
    eprintln!("{}: themes changed in {changed} puzzles", file.display());
    Ok(())
}

fn merge(args: &MergeArgs) -> Result<()> {
    let mut seen = Seen::default();
    let mut ids = HashSet::new();
    let (mut comments, mut lines) = (String::new(), String::new());
    let (mut kept, mut dropped) = (0, 0);
    for file in &args.files {
        let text = read_text(file)?;
        let puzzles = read_puzzles(&text).with_context(|| format!("{}", file.display()))?;
        for line in text.lines().filter(|l| l.starts_with('#')) {
            comments.push_str(line);
            comments.push('\n');
        }
        for puzzle in puzzles {
            let print = Fingerprint::of(&puzzle.position, &puzzle.solution);
            if seen.check_and_insert(print) || !ids.insert(puzzle.id.clone()) {
                dropped += 1;
                continue;
            }
            kept += 1;
            lines.push_str(&puzzle.line());
            lines.push('\n');
        }
    }
    disk::replace(&args.out, (comments + &lines).as_bytes())?;
    eprintln!(
        "{}: {kept} puzzles, {dropped} duplicates left out",
        args.out.display()
    );
    Ok(())
}

fn stats(puzzles: &[Puzzle]) -> Result<()> {
    let mut themes: BTreeMap<String, usize> = BTreeMap::new();
    let mut ratings: BTreeMap<u16, usize> = BTreeMap::new();
    let mut lengths: BTreeMap<usize, usize> = BTreeMap::new();
    for p in puzzles {
        for t in &p.themes {
            *themes.entry(t.name()).or_default() += 1;
        }
        *ratings.entry(p.rating / 200 * 200).or_default() += 1;
        *lengths.entry(p.solver_moves()).or_default() += 1;
    }
    outln!("puzzles\t{}", puzzles.len());
    for (name, n) in &themes {
        outln!("theme\t{name}\t{n}");
    }
    for (from, n) in &ratings {
        outln!("rating\t{from}-{}\t{n}", from + 199);
    }
    for (moves, n) in &lengths {
        outln!("solver moves\t{moves}\t{n}");
    }
    Ok(())
}
