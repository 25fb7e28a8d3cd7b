//! `xiangqi status [--fen FEN] [--moves M…]`: the rules' verdict after some moves.

use anyhow::{bail, Result};
use clap::Args;
use xiangqi::{parse_move_as, Game, Notation};
use xiangqi_files::outln;

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

/// Prints `ongoing` or the outcome (`red wins: checkmate`, `draw: repetition`, …).
pub fn run(args: &StatusArgs) -> Result<()> {
    let mut game = Game::new(super::position_from(args.fen.as_deref())?);
    for (i, text) in args.moves.iter().enumerate() {
        if let Some(outcome) = game.outcome() {
            bail!(
                "move {} ({text}) comes after the game ended ({outcome})",
                i + 1
            );
        }
        let m = match parse_move_as(game.position(), text, Notation::Iccs) {
            Ok(m) => m,
            Err(e) => bail!(
                "move {} ({text}) is not legal in position {}: {e}",
                i + 1,
                game.position().to_fen()
            ),
        };
        game.play(m)?;
    }
    match game.outcome() {
        Some(outcome) => outln!("{outcome}"),
        None => outln!("ongoing"),
    }
    Ok(())
}
