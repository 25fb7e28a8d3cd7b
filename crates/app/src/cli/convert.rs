//! `xiangqi convert [--fen FEN] [--to NOTATION] MOVE…`: one move per line in every notation.

use anyhow::{bail, Result};
use clap::Args;
use xiangqi::{format_move, parse_move, Notation};
use xiangqi_files::outln;

/// Arguments of `convert`.
#[derive(Args)]
pub struct ConvertArgs {
    /// Position the first move is played from (default: the standard start).
    #[arg(long)]
    fen: Option<String>,
    /// Print only this notation: iccs, iccs-pgn, uci1 (ranks 1-10), wxf or chinese.
    #[arg(long)]
    to: Option<Notation>,
    /// Moves in any notation (ICCS, WXF or Chinese, detected), played in order.
    #[arg(required = true, value_name = "MOVE")]
    moves: Vec<String>,
}

/// Prints each move in the chosen notation, or in all of them separated by tabs
/// (ICCS, ICCS-PGN, UCI ranks 1–10, WXF, Chinese).
pub fn run(args: &ConvertArgs) -> Result<()> {
    let mut pos = super::position_from(args.fen.as_deref())?;
    for (i, text) in args.moves.iter().enumerate() {
        let m = match parse_move(&pos, text) {
            Ok(m) => m,
            Err(e) => bail!("move {} ({text}): {e}", i + 1),
        };
        let line = match args.to {
            Some(n) => format_move(&pos, m, n),
            None => Notation::ALL
                .iter()
                .map(|&n| format_move(&pos, m, n))
                .collect::<Vec<_>>()
                .join("\t"),
        };
        outln!("{line}");
        pos.make_move(m);
    }
    Ok(())
}
