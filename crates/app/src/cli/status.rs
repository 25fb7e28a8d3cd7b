//! `xiangqi status [--fen FEN] [--moves M…]`: the rules' verdict after some moves.

use anyhow::{bail, Result};
use clap::Args;
use xiangqi::{Game, Move, Square};

/// Arguments of `status`.
#[derive(Args)]
pub struct StatusArgs {
    /// Start position (default: the standard start).
    #[arg(long)]
    fen: Option<String>,
    /// Moves in ICCS coordinates (`h2e2` or `H2-E2`), played in order.
    #[arg(long, num_args = 0.., value_name = "MOVE")]
    moves: Vec<String>,
}

/// Parses an ICCS move (`h2e2`, `H2-E2`) without checking legality.
pub fn parse_iccs(text: &str) -> Option<Move> {
    let t: String = text.chars().filter(|&c| c != '-').collect();
    if t.len() != 4 || !t.is_ascii() {
        return None;
    }
    let from: Square = t[..2].parse().ok()?;
    let to: Square = t[2..].parse().ok()?;
    Some(Move::new(from, to))
}

/// Prints `ongoing` or the outcome (`red wins: checkmate`, `draw: repetition`, …).
pub fn run(args: &StatusArgs) -> Result<()> {
    let mut game = Game::new(super::position_from(args.fen.as_deref())?);
    for (i, text) in args.moves.iter().enumerate() {
        let Some(m) = parse_iccs(text) else {
            bail!("move {} ({text:?}) is not an ICCS move like h2e2", i + 1);
        };
        if let Some(outcome) = game.outcome() {
            bail!(
                "move {} ({text}) comes after the game ended ({outcome})",
                i + 1
            );
        }
        if game.play(m).is_err() {
            bail!(
                "move {} ({text}) is illegal in position {}",
                i + 1,
                game.position().to_fen()
            );
        }
    }
    match game.outcome() {
        Some(outcome) => println!("{outcome}"),
        None => println!("ongoing"),
    }
    Ok(())
}
