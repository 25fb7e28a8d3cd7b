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
pub mod status;

use anyhow::{bail, Context, Result};
use xiangqi::{parse_move, Position, Validation};

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
