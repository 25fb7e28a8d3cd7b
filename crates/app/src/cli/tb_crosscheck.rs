//! `xiangqi tb crosscheck`: the tables of a folder against the engine's own search, which
//! does not use them (see `xiangqi_engine::tablebases::check_against_search`).

use anyhow::{bail, Context, Result};
use clap::Args;
use std::path::PathBuf;
use std::time::Instant;
use xiangqi_engine::random::Rng;
use xiangqi_engine::tablebases::{
    check_against_search, checking_engine, random_positions, SearchCheck,
};
use xiangqi_files::outln;
use xiangqi_tablebase::folder::read_table;

/// `tb crosscheck`'s arguments.
#[derive(Args)]
pub struct CrosscheckArgs {
    /// The folder of the tables.
    #[arg(long)]
    dir: PathBuf,
    /// The material sets to check (default: every table in the folder, smallest first).
    material: Vec<String>,
    /// Random positions searched in each table.
    #[arg(long, default_value_t = 12)]
    positions: usize,
    /// The depth of each search, in plies.
    #[arg(long, default_value_t = 9)]
    depth: u32,
    /// The seed: the same seed gives the same positions.
    #[arg(long, default_value_t = 39)]
    seed: u64,
}

/// Runs `tb crosscheck`: every disagreement is printed, and any makes it fail.
pub fn run(args: &CrosscheckArgs) -> Result<()> {
    let wanted = super::tb_folder::chosen_tables(&args.dir, &args.material)?;
    let mut engine = checking_engine();
    let mut rng = Rng::new(args.seed);
    let all_started = Instant::now();
    let (mut searched, mut mates, mut disagreements) = (0, 0, 0);
    for (n, &material) in wanted.iter().enumerate() {
        let started = Instant::now();
        let table = read_table(&args.dir, material)?
            .with_context(|| format!("{material}: no table in {}", args.dir.display()))?;
        let mut proven = 0;
        for pos in random_positions(material, args.positions, &mut rng) {
            let value = table
                .value(&pos, false)
                .context("a position of the table has a value")?;
            match check_against_search(&mut engine, &pos, value, args.depth) {
                SearchCheck::Mate => proven += 1,
                SearchCheck::NoMate => {}
                SearchCheck::Disagrees(why) => {
                    outln!("{material}: {why}");
                    disagreements += 1;
                }
            }
            searched += 1;
        }
        mates += proven;
        eprintln!(
            "[{}/{}] {material}: {} positions, {proven} mates proven by the search, {:.1} s",
            n + 1,
            wanted.len(),
            args.positions,
            started.elapsed().as_secs_f64()
        );
    }
    if disagreements > 0 {
        bail!("{disagreements} of {searched} positions: the search and the tables disagree");
    }
    outln!(
        "{} tables, {searched} positions searched to depth {}, {mates} mates proven by the search, every one in the tables ({:.1} s)",
        wanted.len(),
        args.depth,
        all_started.elapsed().as_secs_f64()
    );
    Ok(())
}
