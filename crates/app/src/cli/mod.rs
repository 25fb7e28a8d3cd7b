//! One module per subcommand. Each parses its own arguments and prints its own output.

pub mod bench;
pub mod convert;
pub mod perft;
pub mod status;

use anyhow::{Context, Result};
use xiangqi::{Position, Validation};

/// Parses `--fen` (or the start position when absent), accepting odd placements.
pub fn position_from(fen: Option<&str>) -> Result<Position> {
    match fen {
        None => Ok(Position::startpos()),
        Some(text) => Position::from_fen_with(text, Validation::Lenient)
            .with_context(|| format!("invalid FEN {text:?}")),
    }
}
