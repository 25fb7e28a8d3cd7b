//! Game records in PGN (the Xiangqi convention of XQWizard and xqbase) and XQF (XQStudio).
//!
//! A [`GameRecord`] holds tags, a start position, and the main line with comments and
//! variations. [`read_pgn`] reads every game of a PGN file, [`write_pgn`] writes one, and
//! [`record_from_xqf`] converts an XQF file. Moves are read and written by a [`MoveCodec`], so
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

mod codec;
mod date;
mod decode;
mod error;
mod from_xqf;
mod lexer;
mod reader;
mod record;
mod writer;

#[cfg(test)]
mod proptests;
#[cfg(test)]
mod real_files_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod xqf_tests;

pub use codec::{IccsCodec, MoveCodec, NotationCodec};
pub use date::{civil_from_days, pgn_date};
pub use error::{PgnError, XqfImportError};
pub use from_xqf::record_from_xqf;
pub use reader::{read_pgn, read_pgn_str, MAX_VARIATION_DEPTH};
pub use record::{GameRecord, RecordMove, ROSTER};
pub use writer::write_pgn;
