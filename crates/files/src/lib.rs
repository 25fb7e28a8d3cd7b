//! The program's rules for the files and lines a person names, each with one owner:
//! [`reading`] opens only regular files and never reads past a bound (the engine's network and
//! book, the tools' inputs, the web GUI's imports), [`disk`] writes so that a crash leaves the
//! old file or the new one and never half of one (saved games, data sets, networks, books,
//! match PGN), [`lines`] reads text lines of bounded length (the engine protocols, tuning
//! data), and [`outln!`]/[`out!`] print to standard output without panicking when it is closed.
//!
//! It depends on nothing of the project, so the engine and every tool can use it.

pub mod disk;
pub mod lines;
pub mod reading;

/// `println!` that returns an error instead of panicking when stdout is closed (`| head`).
#[macro_export]
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*)?
    }};
}

/// `print!` counterpart of [`outln!`].
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        write!(std::io::stdout().lock(), $($arg)*)?
    }};
}
