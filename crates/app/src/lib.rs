//! The `xiangqi` program: its subcommands ([`cli`]), the engine protocols ([`protocol`]) and the
//! web GUI ([`web`]). The binary (`src/main.rs`) only parses the command line and calls these;
//! being a library lets the fuzz targets drive the protocol session as a GUI would.

pub mod cli;
pub mod dates;
pub mod protocol;
pub mod web;
