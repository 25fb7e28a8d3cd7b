//! The engine protocols' front end: UCCI (ElephantEye's protocol, spoken by XQWizard and many
//! Chinese GUIs) and UCI (as Pikafish and Fairy-Stockfish speak it).
//!
//! [`command`] turns one line of GUI text into a typed [`command::Command`] and does nothing else;
//! [`driver`] keeps the session state and drives the engine; [`format`](mod@format) writes its output;
//! [`options`] is the one table of the options it offers; [`output`] is where its lines go;
//! [`perft`] runs `go perft` beside the session. Lines are read with a bound on their length
//! ([`xiangqi_files::lines`]).
//!
//! It serves the engine user, whose GUI or tool starts `xiangqi` and talks to it over a pipe.
//! It stands on the rules, the engine and the file rules, and on nothing of the web GUI or the
//! developer's tools (the `xiangqi` binary's `engine`, `ucci` and `uci` commands call
//! [`driver::run_stdio`]).

pub mod command;
pub mod driver;
pub mod format;
pub mod options;
pub mod output;
pub mod perft;

#[cfg(test)]
mod tests;
