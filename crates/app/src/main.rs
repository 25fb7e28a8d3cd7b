//! The `xiangqi` command: the web GUI (the default in a terminal), rules tools (perft, status,
//! PGN, notation conversion), analysis, the search laboratory, the opening book, and the
//! UCCI/UCI engine protocols.
//!
//! This file only parses the command line and hands each subcommand to its owner: the small
//! tools in [`cli`], the web GUI to `xiangqi_web`, the protocols to `xiangqi_protocol`, `match`
//! to `xiangqi_arena`, `datagen`, `train` and `tune` to `xiangqi_training`.

mod cli;

use clap::{Parser, Subcommand};
use std::io::IsTerminal;
use std::process::ExitCode;
use xiangqi_arena as matches;
use xiangqi_protocol as protocol;
use xiangqi_protocol::command::Dialect;
use xiangqi_training::{datagen, train, tune};
use xiangqi_web as web;

/// Xiangqi (Chinese chess): rules tools, engine and GUI in one binary.
#[derive(Parser)]
#[command(name = "xiangqi", version, about, long_about = None)]
struct Args {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Play in the browser: serve the GUI on 127.0.0.1 and open it (the default in a terminal).
    Serve(web::ServeArgs),
    /// Count the leaf nodes of the legal move tree (a move generator checksum).
    Perft(cli::perft::PerftArgs),
    /// Print whether a game is over: `ongoing`, `red wins: …`, `black wins: …` or `draw: …`.
    Status(cli::status::StatusArgs),
    /// Convert moves between notations (ICCS, UCI ranks 1-10, WXF, Chinese).
    Convert(cli::convert::ConvertArgs),
    /// Replay a PGN or XQF file: its main line in a notation, or the game as PGN; then `fen …`.
    Pgn(cli::pgn::PgnArgs),
    /// The ECCO opening (code, Chinese and English name) of each game in PGN or XQF files;
    /// `--check` measures how often it agrees with the codes the files give.
    Opening(cli::opening::OpeningArgs),
    /// Analyse a position: score, depth and best line in Chinese notation and ICCS.
    Analyse(cli::analyse::AnalyseArgs),
    /// Search a fixed set of positions to a fixed depth; prints `N nodes M nps` last.
    Bench(cli::bench::BenchArgs),
    /// The search laboratory: minimax to NegaScout on one position, their work side by side.
    Lab(cli::lab::LabArgs),
    /// Every term of the engine's evaluation and of the simple one, for Red and for Black.
    Eval(cli::eval::EvalArgs),
    /// Build the opening book from its source lines, or look inside a book file.
    Book(cli::book::BookArgs),
    /// Puzzles: mine them from games and prove them (`generate`), print them for other
    /// engines to check (`export`), retag a file, or count a file's puzzles.
    Puzzles(cli::puzzles::PuzzlesArgs),
    /// Endgame tablebases: build a material set's tables into a folder (`generate`), or look a
    /// position up (`probe`).
    Tb(cli::tb::TbArgs),
    /// Self-play games by the engine: positions with scores and results, as text for `tune`
    /// or as binary sample chunks for training a network (`--stats` sums a data set up).
    Datagen(datagen::DatagenArgs),
    /// Fit the evaluation weights to game results (Texel tuning) on `datagen` data.
    Tune(tune::TuneArgs),
    /// Train an evaluation network on `datagen --dir` sample chunks; writes a network file.
    Train(train::TrainArgs),
    /// Play engines (UCI or UCCI) against each other: round robin, openings, PGN, Elo, SPRT.
    Match(matches::MatchArgs),
    /// Speak UCCI or UCI on stdin/stdout, chosen by the first command (`ucci` or `uci`).
    Engine,
    /// Speak UCCI on stdin/stdout.
    Ucci,
    /// Speak UCI on stdin/stdout.
    Uci,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let result = match args.command {
        Some(Command::Serve(a)) => web::serve(&a),
        Some(Command::Perft(a)) => cli::perft::run(&a),
        Some(Command::Status(a)) => cli::status::run(&a),
        Some(Command::Convert(a)) => cli::convert::run(&a),
        Some(Command::Pgn(a)) => cli::pgn::run(&a),
        Some(Command::Opening(a)) => cli::opening::run(&a),
        Some(Command::Bench(a)) => cli::bench::run(&a),
        Some(Command::Analyse(a)) => cli::analyse::run(&a),
        Some(Command::Lab(a)) => cli::lab::run(&a),
        Some(Command::Eval(a)) => cli::eval::run(&a),
        Some(Command::Book(a)) => cli::book::run(&a),
        Some(Command::Puzzles(a)) => cli::puzzles::run(&a),
        Some(Command::Tb(a)) => cli::tb::run(&a),
        Some(Command::Match(a)) => matches::run(&a),
        Some(Command::Datagen(a)) => datagen::run(&a),
        Some(Command::Tune(a)) => tune::run(&a),
        Some(Command::Train(a)) => train::run(&a),
        Some(Command::Engine) => protocol::driver::run_stdio(None),
        Some(Command::Ucci) => protocol::driver::run_stdio(Some(Dialect::Ucci)),
        Some(Command::Uci) => protocol::driver::run_stdio(Some(Dialect::Uci)),
        None => {
            if std::io::stdin().is_terminal() {
                // A person at a terminal: open the GUI (`xiangqi --help` lists the commands).
                web::serve(&web::ServeArgs::default())
            } else {
                // Started by a GUI with a pipe for stdin: speak its protocol. A person who ran
                // it from an IDE or a pipe by mistake learns why nothing opened (GUIs read
                // stdout only, so this line does not disturb them).
                eprintln!(
                    "xiangqi: no terminal, so speaking UCI/UCCI on standard input; \
                     `xiangqi serve` starts the GUI, `xiangqi --help` lists the commands"
                );
                protocol::driver::run_stdio(None)
            }
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // A reader that stopped reading (`xiangqi pgn … | head`) is not a failure.
            let broken_pipe = e
                .downcast_ref::<std::io::Error>()
                .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe);
            if broken_pipe {
                return ExitCode::SUCCESS;
            }
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
