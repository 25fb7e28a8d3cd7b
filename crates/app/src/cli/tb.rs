//! `xiangqi tb generate | probe`: build endgame tables into a folder, and look a position up
//! in them (docs/TABLEBASES.md).

use anyhow::{Context, Result};
use clap::{Args, Subcommand};
use std::path::PathBuf;
use std::time::Instant;
use xiangqi::Position;
use xiangqi_files::{disk, outln};
use xiangqi_tablebase::file::file_name;
use xiangqi_tablebase::folder::read_table;
use xiangqi_tablebase::{Material, Tables};

/// Arguments of `tb`.
#[derive(Args)]
pub struct TbArgs {
    #[command(subcommand)]
    command: TbCommand,
}

#[derive(Subcommand)]
enum TbCommand {
    /// Build the tables of material sets (and of every set a capture leads to) into a folder;
    /// tables already there are read, not built again.
    Generate(GenerateArgs),
    /// Print a position's value from the side to move's view: `win dtm N`, `loss dtm N` or
    /// `draw` (N in plies); exit 2 when its material has no table in the folder.
    Probe(ProbeArgs),
}

#[derive(Args)]
struct GenerateArgs {
    /// The folder of the tables (created if missing).
    #[arg(long)]
    dir: PathBuf,
    /// Material sets as the literature writes them, the stronger side first: `KRK`, `KHPKA`.
    #[arg(required = true)]
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
    #[arg(long)]
    fen: String,
}

/// Runs `tb`.
pub fn run(args: &TbArgs) -> Result<()> {
    match &args.command {
        TbCommand::Generate(a) => generate(a),
        TbCommand::Probe(a) => probe(a),
    }
}

fn generate(args: &GenerateArgs) -> Result<()> {
    let wanted = args
        .material
        .iter()
        .map(|name| name.parse::<Material>().with_context(|| name.clone()))
        .collect::<Result<Vec<Material>>>()?;
    std::fs::create_dir_all(&args.dir)
        .with_context(|| format!("cannot create {}", args.dir.display()))?;
    let mut tables = match args.threads {
        Some(n) => Tables::with_threads(n),
        None => Tables::new(),
    };
    for &material in &wanted {
        // Tables on disk are read first, so that only what is missing is built.
        for sub in xiangqi_tablebase::generate::needed(material) {
            if tables.get(sub).is_none() {
                if let Some(table) = read_table(&args.dir, sub)? {
                    tables.insert(table);
                }
            }
        }
        let mut started = Instant::now();
        let mut failure = None;
        tables.generate(material, &mut |table| {
            let path = args.dir.join(file_name(table.material()));
            if let Err(e) = disk::replace(&path, &table.to_bytes()) {
                failure.get_or_insert(anyhow::anyhow!("{}: {e}", path.display()));
            }
            let [wins, draws, losses] = table.counts();
            eprintln!(
                "{}: {wins} wins, {draws} draws, {losses} losses (side to move), longest mate {} plies, {:.1} s",
                table.material(),
                table.longest(),
                started.elapsed().as_secs_f64()
            );
            // Each table's own time: the next starts now.
            started = Instant::now();
        });
        if let Some(e) = failure {
            return Err(e);
        }
    }
    Ok(())
}

fn probe(args: &ProbeArgs) -> Result<()> {
    let pos = Position::from_fen(&args.fen).context("--fen")?;
    let (material, swapped) = Material::of(&pos);
    let Some(table) = read_table(&args.dir, material)? else {
        eprintln!(
            "{material}: no table in {} (`xiangqi tb generate --dir {} {material}` builds it)",
            args.dir.display(),
            args.dir.display()
        );
        std::process::exit(2);
    };
    let value = table
        .value(&pos, swapped)
        .context("the position has no entry in its table")?;
    outln!("{value}");
    Ok(())
}
