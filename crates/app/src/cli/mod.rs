//! One module per small subcommand (the rules and engine tools). Each parses its own arguments
//! and prints its own output.

pub mod analyse;
pub mod bench;
pub mod book;
pub mod convert;
pub mod eval;
pub mod lab;
pub mod opening;
pub mod perft;
pub mod pgn;
pub mod puzzle_check;
pub mod puzzle_files;
pub mod puzzles;
pub mod status;
pub mod tb;
pub mod tb_crosscheck;
pub mod tb_folder;

use anyhow::{bail, Context, Result};
use std::path::Path;
use xiangqi::pgn::NotationCodec;
use xiangqi::{parse_move, read_pgn, record_from_xqf, GameRecord, Notation, Position, Validation};

/// The largest game file read: 256 MiB, a database of some hundred thousand games.
const MAX_GAMES_FILE_LEN: u64 = 256 << 20;

/// The games of a PGN file (UTF-8, GBK or Big5; any number of games) or an XQF file.
pub fn games(file: &Path) -> Result<Vec<GameRecord>> {
    let bytes = xiangqi_files::reading::read(file, MAX_GAMES_FILE_LEN)?;
    let name = file.display();
    if bytes.starts_with(b"XQ") {
        let record =
            record_from_xqf(&bytes).with_context(|| format!("{name}: not a readable XQF file"))?;
        return Ok(vec![record]);
    }
    read_pgn(&bytes, &NotationCodec(Notation::Chinese)).with_context(|| format!("{name}"))
}

/// Parses `--fen` (or the start position when absent), accepting odd placements.
pub fn position_from(fen: Option<&str>) -> Result<Position> {
    match fen {
        None => Ok(Position::startpos()),
        Some(text) => Position::from_fen_with(text, Validation::Lenient)
            .with_context(|| format!("invalid FEN {:?}", xiangqi::excerpt(text))),
    }
}

/// The position after `--moves` (any notation, each legal in turn) from `--fen` (or the start
/// position).
pub fn root_position(fen: Option<&str>, moves: &[String]) -> Result<Position> {
    let mut pos = position_from(fen)?;
    for (i, text) in moves.iter().enumerate() {
        match parse_move(&pos, text) {
            Ok(m) => {
                pos.make_move(m);
            }
            Err(e) => bail!("move {} ({}): {e}", i + 1, xiangqi::excerpt(text)),
        }
    }
    Ok(pos)
}
