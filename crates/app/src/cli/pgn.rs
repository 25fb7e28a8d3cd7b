//! `xiangqi pgn FILE [--to iccs|wxf|chinese|pgn]`: replays a game file (PGN or XQF).

use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};
use std::path::PathBuf;
use xiangqi::pgn::NotationCodec;
use xiangqi::{format_move, read_pgn, record_from_xqf, write_pgn, GameRecord, Notation};
use xiangqi_files::{out, outln};

/// What `pgn` prints.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Output {
    /// ICCS coordinates, `h2e2`.
    Iccs,
    /// WXF, `C2.5`.
    Wxf,
    /// Chinese, `炮二平五`.
    Chinese,
    /// The whole game re-written as PGN (moves in `--notation`), with `ECCO`, `Opening` and
    /// `Variation` tags where it has no code.
    Pgn,
}

/// Arguments of `pgn`.
#[derive(Args)]
pub struct PgnArgs {
    /// A PGN file (UTF-8, GBK or Big5, any line ends) or an XQF file.
    file: PathBuf,
    /// Output: the main line in a notation, one move per line, or the game as PGN.
    #[arg(long, value_enum, default_value = "iccs")]
    to: Output,
    /// Move notation of the PGN written by `--to pgn`: iccs-pgn, wxf or chinese.
    #[arg(long, default_value = "chinese")]
    notation: Notation,
    /// Which game of a file with several (1 = the first; an XQF file holds only game 1).
    #[arg(long, default_value_t = 1)]
    game: usize,
}

/// The largest file read: 256 MiB, a database of some hundred thousand games.
const MAX_FILE_LEN: u64 = 256 << 20;

fn load(args: &PgnArgs) -> Result<GameRecord> {
    let bytes = xiangqi_files::reading::read(&args.file, MAX_FILE_LEN)?;
    let name = args.file.display();
    if bytes.starts_with(b"XQ") {
        if args.game != 1 {
            bail!(
                "{name} is an XQF file, which holds one game; there is no game {}",
                args.game
            );
        }
        return record_from_xqf(&bytes).with_context(|| format!("{name}: not a readable XQF file"));
    }
    let mut games =
        read_pgn(&bytes, &NotationCodec(Notation::Chinese)).with_context(|| format!("{name}"))?;
    let count = games.len();
    if args.game == 0 || args.game > count {
        bail!(
            "{name} holds {count} game(s); there is no game {}",
            args.game
        );
    }
    Ok(games.swap_remove(args.game - 1))
}

/// Prints the main line (or the PGN), then `fen FINAL_FEN`.
pub fn run(args: &PgnArgs) -> Result<()> {
    let mut record = load(args)?;
    let notation = match args.to {
        Output::Iccs => Notation::Iccs,
        Output::Wxf => Notation::Wxf,
        Output::Chinese => Notation::Chinese,
        Output::Pgn => {
            let format = match args.notation {
                Notation::Wxf => "WXF",
                Notation::Chinese => "Chinese",
                _ => "ICCS",
            };
            let codec_notation = match args.notation {
                Notation::Iccs | Notation::UciRanks1To10 => Notation::IccsPgn,
                other => other,
            };
            // A game without an opening code gets its ECCO tags; a file's own tags stay.
            xiangqi::ecco::tag_record(&mut record);
            out!(
                "{}",
                write_pgn(&record, &NotationCodec(codec_notation), format)
            );
            outln!("fen {}", record.final_position().to_fen());
            return Ok(());
        }
    };
    let mut pos = record.start.clone();
    for m in record.main_line() {
        outln!("{}", format_move(&pos, m, notation));
        pos.make_move(m);
    }
    outln!("fen {}", pos.to_fen());
    Ok(())
}
