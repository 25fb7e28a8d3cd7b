//! The engine protocols' front end: UCCI (ElephantEye's protocol, spoken by XQWizard and many
//! Chinese GUIs) and UCI (as Pikafish and Fairy-Stockfish speak it).
//!
//! [`command`] turns one line of GUI text into a typed [`command::Command`] and does nothing else:
//! no I/O and no engine. The driver that reads standard input, keeps the session state (dialect,
//! `usemillisec`, the position) and executes the commands sits on top of it.

pub mod command;
