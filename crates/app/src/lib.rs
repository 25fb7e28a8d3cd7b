//! The `xiangqi` program: its subcommands ([`cli`]), the engine protocols ([`protocol`]), the
//! web GUI ([`web`]) and the training-sample file format ([`samples`]). The binary
//! (`src/main.rs`) only parses the command line and calls these; being a library lets the fuzz
//! targets drive the protocol session as a GUI would, and read sample files.

pub mod cli;
pub mod samples;
