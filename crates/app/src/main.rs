//! The `xiangqi` command: rules tools (perft, status, PGN, notation conversion).

mod cli;
// The driver that executes protocol commands comes next; until it lands nothing calls the parser.
#[allow(dead_code)]
mod protocol;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Xiangqi (Chinese chess): rules tools, engine and GUI in one binary.
#[derive(Parser)]
#[command(name = "xiangqi", version, about, long_about = None)]
struct Args {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaf nodes of the legal move tree (a move generator checksum).
    Perft(cli::perft::PerftArgs),
    /// Print whether a game is over: `ongoing`, `red wins: …`, `black wins: …` or `draw: …`.
    Status(cli::status::StatusArgs),
    /// Convert moves between notations (ICCS, UCI ranks 1-10, WXF, Chinese).
    Convert(cli::convert::ConvertArgs),
}

fn main() -> ExitCode {
    let args = Args::parse();
    let result = match args.command {
        Some(Command::Perft(a)) => cli::perft::run(&a),
        Some(Command::Status(a)) => cli::status::run(&a),
        Some(Command::Convert(a)) => cli::convert::run(&a),
        None => {
            use clap::CommandFactory;
            let _ = Args::command().print_help();
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
