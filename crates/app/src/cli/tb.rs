//! `xiangqi tb generate | probe`: build endgame tables into a folder, and look a position up
//! in them (docs/TABLEBASES.md).

use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use std::path::PathBuf;
use std::time::Instant;
use xiangqi::{Color, Position};
use xiangqi_engine::random::Rng;
use xiangqi_files::{disk, outln};
use xiangqi_tablebase::file::file_name;
use xiangqi_tablebase::folder::read_table;
use xiangqi_tablebase::generate::{after_captures, default_set, needed, Step};
use xiangqi_tablebase::layout::Layout;
use xiangqi_tablebase::{Material, Probe, Tables, Value};

/// Arguments of `tb`.
#[derive(Args)]
pub struct TbArgs {
    #[command(subcommand)]
    command: TbCommand,
}

#[derive(Subcommand)]
enum TbCommand {
    /// Build the tables of material sets (and of every set a capture leads to) into a folder,
    /// or the default set; sound tables already there are kept, so a stopped run goes on.
    Generate(GenerateArgs),
    /// Print a position's value from the side to move's view: `win dtm N dtc C`, `loss dtm N
    /// dtc C` (N plies to mate, C to the next capture or mate), `win by rule`, `loss by rule`
    /// or `draw`; exit 2 when its material has no table in the folder. With `--file`, every
    /// position of a file, each with its value as a comment.
    Probe(ProbeArgs),
    /// Print random positions of a table, one FEN a line with its value as a `#` comment:
    /// openings for `xiangqi match` and test sets.
    Sample(SampleArgs),
    /// Check tables forwards, position by position: every stored value must be what the
    /// position's moves make it (exit 1 at the first that is not).
    Verify(VerifyArgs),
    /// Check tables against the engine's own search without them: on random positions of
    /// each, every mate the search proves must be in the table (exit 1 if one is not).
    Crosscheck(super::tb_crosscheck::CrosscheckArgs),
}

#[derive(Args)]
struct VerifyArgs {
    /// The folder of the tables.
    #[arg(long)]
    dir: PathBuf,
    /// The material sets to check (default: every table in the folder, smallest first).
    material: Vec<String>,
    /// Threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
}

#[derive(Args)]
struct GenerateArgs {
    /// The folder of the tables (created if missing).
    #[arg(long)]
    dir: PathBuf,
    /// Material sets as the literature writes them, the stronger side first: `KRK`, `KHPKA`.
    /// None: the default set (every set of up to five men, KRKAABB, KRKHAA, KHPKAABB and
    /// KCPKAABB).
    material: Vec<String>,
    /// Threads that build each table (default: every core).
    #[arg(long)]
    threads: Option<usize>,
}

#[derive(Args)]
struct ProbeArgs {
    /// The folder of the tables.
    #[arg(long)]
    dir: PathBuf,
    /// The position.
    #[arg(long, required_unless_present = "file", conflicts_with = "file")]
    fen: Option<String>,
    /// Positions to look up, one FEN a line (`#` starts a comment): each is printed back
    /// with its value (or why it has none) as a comment.
    #[arg(long)]
    file: Option<PathBuf>,
}

#[derive(Args)]
struct SampleArgs {
    /// The folder of the tables.
    #[arg(long)]
    dir: PathBuf,
    /// The material set, as `generate` takes it.
    material: String,
    /// How many positions.
    #[arg(long, default_value_t = 10)]
    count: usize,
    /// Only positions of this value for the side to move.
    #[arg(long, value_enum)]
    value: Option<Outcome>,
    /// Only wins and losses at least this many plies from mate (wins and losses by the
    /// perpetual-check rule have no distance and always pass; 65535 keeps only those).
    #[arg(long, default_value_t = 0)]
    min_dtm: u16,
    /// The seed: the same seed gives the same positions.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// A value without its distance, to choose positions by.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Outcome {
    Win,
    Draw,
    Loss,
}

/// How often `generate` says how a big table's building goes.
const PROGRESS_EVERY: std::time::Duration = std::time::Duration::from_secs(10);

/// Runs `tb`.
pub fn run(args: &TbArgs) -> Result<()> {
    match &args.command {
        TbCommand::Generate(a) => generate(a),
        TbCommand::Probe(a) => probe(a),
        TbCommand::Sample(a) => sample(a),
        TbCommand::Verify(a) => verify(a),
        TbCommand::Crosscheck(a) => super::tb_crosscheck::run(a),
    }
}

fn generate(args: &GenerateArgs) -> Result<()> {
    let wanted = if args.material.is_empty() {
        default_set()
    } else {
        args.material
            .iter()
            .map(|name| name.parse::<Material>().with_context(|| name.clone()))
            .collect::<Result<Vec<Material>>>()?
    };
    std::fs::create_dir_all(&args.dir)
        .with_context(|| format!("cannot create {}", args.dir.display()))?;
    // Every table needed, each once, those a capture leads to before the tables that need them.
    let mut order: Vec<Material> = Vec::new();
    for &material in &wanted {
        for sub in needed(material) {
            if !order.contains(&sub) {
                order.push(sub);
            }
        }
    }
    order.sort_by_key(|m| m.men());
    let all_started = Instant::now();
    let (mut built, mut bytes) = (0, 0u64);
    for (n, &material) in order.iter().enumerate() {
        let step_name = format!("[{}/{}] {material}", n + 1, order.len());
        let path = args.dir.join(file_name(material));
        // A sound table already there is kept: an interrupted run goes on where it stopped.
        match read_table(&args.dir, material) {
            Ok(Some(_)) => {
                eprintln!("{step_name}: in {} already", args.dir.display());
                continue;
            }
            Ok(None) => {}
            Err(e) => eprintln!("{step_name}: {e}; building it again"),
        }
        let mut tables = match args.threads {
            Some(n) => Tables::with_threads(n),
            None => Tables::new(),
        };
        for sub in after_captures(material) {
            let table = read_table(&args.dir, sub)?
                .with_context(|| format!("{sub} was to be built before {material}"))?;
            tables.insert(table);
        }
        let started = Instant::now();
        let mut written = Ok(0);
        let mut last_said = Instant::now();
        tables.generate_with_steps(
            material,
            &mut |table| {
                let file = table.to_bytes();
                written = disk::replace(&path, &file)
                    .map(|()| file.len() as u64)
                    .with_context(|| path.display().to_string());
            },
            // A big table takes minutes: say how it goes every so often.
            &mut |_, step| {
                if last_said.elapsed() < PROGRESS_EVERY {
                    return;
                }
                last_said = Instant::now();
                let so_far = started.elapsed().as_secs_f64();
                match step {
                    Step::Moves { side, entries } => eprintln!(
                        "{step_name}: the moves of {entries} entries with {side} to move, {so_far:.0} s"
                    ),
                    Step::Distance { plies, decided } => eprintln!(
                        "{step_name}: {plies} plies from mate, {decided} positions decided, {so_far:.0} s"
                    ),
                    Step::Rule {
                        chases,
                        round,
                        decided,
                    } => eprintln!(
                        "{step_name}: {} round {round}, {decided} positions decided, {so_far:.0} s",
                        if chases {
                            "chase flag,"
                        } else {
                            "perpetual-check rule,"
                        }
                    ),
                    Step::Conversion { plies, measured } => eprintln!(
                        "{step_name}: conversion {plies} plies away, {measured} positions measured, {so_far:.0} s"
                    ),
                }
            },
        );
        let size = written?;
        let table = tables.get(material).context("the table just built")?;
        let [wins, draws, losses] = table.counts();
        let (longest_conversion, too_late) = table.conversion_counts();
        eprintln!(
            "{step_name}: {wins} wins, {draws} draws, {losses} losses (side to move; {} by the perpetual-check rule, {} draws flagged for the chase rule), longest mate {} plies, longest conversion {longest_conversion} plies ({too_late} wins and losses by mate converting too late for the 120-ply rule), {size} bytes, {:.1} s",
            table.by_rule(),
            table.chase_flags(),
            table.longest(),
            started.elapsed().as_secs_f64()
        );
        built += 1;
        bytes += size;
    }
    eprintln!(
        "{built} tables built ({bytes} bytes), {} already there, {:.1} s",
        order.len() - built,
        all_started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn probe(args: &ProbeArgs) -> Result<()> {
    let Some(fen) = &args.fen else {
        let file = args.file.as_ref().context("--fen or --file")?;
        return probe_file(&args.dir, file);
    };
    let pos = Position::from_fen(fen).context("--fen")?;
    let (material, swapped) = Material::of(&pos);
    let Some(table) = read_table(&args.dir, material)? else {
        eprintln!(
            "{material}: no table in {} (`xiangqi tb generate --dir {} {material}` builds it)",
            args.dir.display(),
            args.dir.display()
        );
        std::process::exit(2);
    };
    let probe = table
        .lookup(&pos, swapped)
        .context("the position has no entry in its table")?;
    outln!(
        "{}",
        verdict(probe, table.chase_flag(&pos, swapped), pos.halfmove_clock())
    );
    Ok(())
}

/// A value as `probe` prints it: with the conversion of a win or loss by mate, and whether the
/// no-capture count `no_capture` leaves it time; with the chase rule's flag on a draw it could
/// change.
fn verdict(probe: Probe, chase_flag: bool, no_capture: u16) -> String {
    if chase_flag {
        format!("{probe} (chase rule could change it)")
    } else if !probe.in_time(no_capture) {
        format!("{probe} (a draw by the 120-ply rule after {no_capture} plies without a capture)")
    } else {
        probe.to_string()
    }
}

/// The largest file of positions `probe --file` reads.
const MAX_FEN_FILE_LEN: u64 = 64 << 20;

/// Looks up every position of `file`, keeping each table read once.
fn probe_file(dir: &std::path::Path, file: &std::path::Path) -> Result<()> {
    let bytes = xiangqi_files::reading::read(file, MAX_FEN_FILE_LEN)?;
    let text = String::from_utf8_lossy(&bytes);
    let mut tables = Tables::with_threads(1);
    let mut missing = Vec::new();
    for line in text.lines() {
        let fen = line.split('#').next().unwrap_or("").trim();
        if fen.is_empty() {
            continue;
        }
        let said = match Position::from_fen(fen) {
            Err(e) => format!("not a position: {e}"),
            Ok(pos) => {
                let (material, _) = Material::of(&pos);
                if tables.get(material).is_none() && !missing.contains(&material) {
                    match read_table(dir, material)? {
                        Some(table) => tables.insert(table),
                        None => missing.push(material),
                    }
                }
                match tables.lookup(&pos) {
                    Some(probe) => verdict(probe, tables.chase_flag(&pos), pos.halfmove_clock()),
                    None => format!("{material}: no table"),
                }
            }
        };
        outln!("{fen}  # {said}");
    }
    Ok(())
}

/// How many entries `sample` tries for each position asked for before it gives up: a filter
/// that almost nothing passes ends with a message rather than running on.
const SAMPLE_TRIES_EACH: usize = 100_000;

fn sample(args: &SampleArgs) -> Result<()> {
    let material: Material = args.material.parse().context("material")?;
    let Some(table) = read_table(&args.dir, material)? else {
        bail!(
            "{material}: no table in {} (`xiangqi tb generate --dir {} {material}` builds it)",
            args.dir.display(),
            args.dir.display()
        );
    };
    let layout = Layout::new(material);
    let mut rng = Rng::new(args.seed);
    let mut found = 0;
    for _ in 0..args.count.saturating_mul(SAMPLE_TRIES_EACH) {
        if found == args.count {
            break;
        }
        let side = if rng.below(2) == 0 {
            Color::Red
        } else {
            Color::Black
        };
        let Some((pieces, len)) = layout.decode(rng.below(layout.size() as u64) as usize) else {
            continue;
        };
        let Some(pos) = Position::from_pieces(side, &pieces[..len]) else {
            continue;
        };
        let Some(probe) = table.lookup(&pos, false) else {
            continue;
        };
        let (outcome, dtm) = match probe.value {
            Value::Win(n) => (Outcome::Win, n),
            Value::Draw => (Outcome::Draw, u16::MAX),
            Value::Loss(n) => (Outcome::Loss, n),
            // No distance to mate: as far as a filter on it goes, the farthest.
            Value::RuleWin(_) => (Outcome::Win, u16::MAX),
            Value::RuleLoss(_) => (Outcome::Loss, u16::MAX),
        };
        if pos.has_no_legal_move() || args.value.is_some_and(|v| v != outcome) || dtm < args.min_dtm
        {
            continue;
        }
        let said = verdict(probe, table.chase_flag(&pos, false), pos.halfmove_clock());
        outln!("{}  # {said}", pos.to_fen());
        found += 1;
    }
    if found < args.count {
        bail!(
            "only {found} of {} positions of {material} pass the filter",
            args.count
        );
    }
    Ok(())
}

fn verify(args: &VerifyArgs) -> Result<()> {
    let wanted = super::tb_folder::chosen_tables(&args.dir, &args.material)?;
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let all_started = Instant::now();
    let mut positions = 0;
    for (n, &material) in wanted.iter().enumerate() {
        let started = Instant::now();
        // Only the table and those its captures lead to are held, so memory stays that of one
        // table and its neighbours however many are checked.
        let mut tables = Tables::with_threads(threads);
        for m in std::iter::once(material).chain(after_captures(material)) {
            let table = read_table(&args.dir, m)?
                .with_context(|| format!("{m}: no table in {}", args.dir.display()))?;
            tables.insert(table);
        }
        let checked = xiangqi_tablebase::verify::verify(&tables, material, threads)
            .with_context(|| format!("{material}"))?;
        positions += checked;
        eprintln!(
            "[{}/{}] {material}: {checked} positions agree with their moves, {:.1} s",
            n + 1,
            wanted.len(),
            started.elapsed().as_secs_f64()
        );
    }
    outln!(
        "{} tables, {positions} positions, every value agrees with its moves ({:.1} s)",
        wanted.len(),
        all_started.elapsed().as_secs_f64()
    );
    Ok(())
}
