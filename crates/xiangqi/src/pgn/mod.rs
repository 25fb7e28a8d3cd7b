//! Game records in PGN (the Xiangqi convention of XQWizard and xqbase).
//!
//! A [`GameRecord`] holds tags, a start position, and the main line with comments and
//! variations. [`read_pgn`] reads every game of a PGN file and [`write_pgn`] writes one (an XQF
//! file becomes a record through [`crate::xqf::record_from_xqf`]). Moves are read and written by a [`MoveCodec`], so
//! the same code serves ICCS (`H2-E2`, built in as [`IccsCodec`]), WXF (`C2.5`) and Chinese
//! (`炮二平五`) files.
//!
//! ```
//! use xiangqi::pgn::{read_pgn, write_pgn, IccsCodec};
//! let pgn = "[Game \"Chinese Chess\"]\n[Red \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\
//!            [Format \"ICCS\"]\n\n1. H2-E2 H9-G7 2. H0-G2 I9-H9 1-0\n";
//! let games = read_pgn(pgn.as_bytes(), &IccsCodec).unwrap();
//! assert_eq!(games[0].tag("Red"), Some("A"));
//! assert_eq!(games[0].main_line().len(), 4);
//! let again = read_pgn(write_pgn(&games[0], &IccsCodec, "ICCS").as_bytes(), &IccsCodec).unwrap();
//! assert_eq!(again, games);
//! ```

pub(crate) mod codec;
pub mod date;
mod decode;
mod error;
mod lexer;
mod reader;
pub(crate) mod record;
mod writer;

#[cfg(test)]
mod proptests;
#[cfg(test)]
mod real_files_tests;
#[cfg(test)]
pub(crate) mod tests;

pub use codec::{IccsCodec, MoveCodec, NotationCodec};
pub use error::PgnError;
pub use reader::{read_pgn, read_pgn_str, MAX_VARIATION_DEPTH};
pub use record::{normalize_comment, GameRecord, RecordMove, ROSTER};
pub use writer::write_pgn;
