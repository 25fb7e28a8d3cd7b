//! Which protocol a line is read in, and the tokens every parser of a line takes its words
//! from.

use std::fmt;
use std::iter::Peekable;
use std::str::SplitWhitespace;

/// The tokens of one line, with one token of look-ahead.
pub(super) type Tokens<'a> = Peekable<SplitWhitespace<'a>>;

/// Which protocol a session speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// UCCI, ElephantEye's protocol: `setoption NAME VALUE`; `go time … opptime …` with times in
    /// seconds, or in milliseconds once the GUI has sent `setoption usemillisec true`.
    Ucci,
    /// UCI as Pikafish and Fairy-Stockfish speak it: `setoption name X value Y`;
    /// `go wtime … btime …` with times in milliseconds.
    Uci,
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Dialect::Ucci => "UCCI",
            Dialect::Uci => "UCI",
        })
    }
}
