//! `xiangqi opening FILE…`: the ECCO opening of every game in PGN or XQF files, and with
//! `--check`, how often it agrees with the code the files give.

use super::games;
use anyhow::Result;
use clap::Args;
use std::path::PathBuf;
use xiangqi::ecco::{self, Opening};
use xiangqi_files::outln;

/// Arguments of `opening`.
#[derive(Args)]
pub struct OpeningArgs {
    /// PGN files (UTF-8, GBK or Big5; any number of games) or XQF files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Compare with the `ECCO` tag of each game that has one; print the disagreements and
    /// the share of games that agree instead of every game's opening.
    #[arg(long)]
    check: bool,
}

/// What `--check` counts.
#[derive(Default)]
struct Tally {
    tagged: usize,
    agree: usize,
    /// Same letter and first digit (`C4x`): the same family.
    same_family: usize,
}

fn describe(opening: Option<&Opening>) -> String {
    match opening {
        Some(o) => format!("{}\t{}\t{}", o.code, o.name(), o.english()),
        None => "-\t(not from the start position)\t".to_owned(),
    }
}

/// Prints each game's opening, or with `--check` the disagreements and the agreement.
pub fn run(args: &OpeningArgs) -> Result<()> {
    let mut tally = Tally::default();
    let mut total = 0;
    for file in &args.files {
        for (i, record) in games(file)?.iter().enumerate() {
            total += 1;
            let ours = ecco::classify_record(record);
            let theirs = record
                .tag("ECCO")
                .map(str::trim)
                .filter(|c| c.len() == 3 && c.is_ascii());
            if !args.check {
                outln!("{}#{}\t{}", file.display(), i + 1, describe(ours));
                continue;
            }
            let Some(theirs) = theirs else {
                continue;
            };
            tally.tagged += 1;
            let code = ours.map_or("-", |o| o.code);
            if code == theirs {
                tally.agree += 1;
            } else {
                if code.get(..2) == theirs.get(..2) {
                    tally.same_family += 1;
                }
                outln!(
                    "{}#{}\tfile {theirs}\tours {}",
                    file.display(),
                    i + 1,
                    describe(ours)
                );
            }
        }
    }
    if args.check {
        let share = |n: usize| 100.0 * n as f64 / tally.tagged.max(1) as f64;
        outln!(
            "{total} games, {} with an ECCO code: {} agree ({:.1}%), {} more in the same family ({:.1}% with them)",
            tally.tagged,
            tally.agree,
            share(tally.agree),
            tally.same_family,
            share(tally.agree + tally.same_family)
        );
    }
    Ok(())
}
