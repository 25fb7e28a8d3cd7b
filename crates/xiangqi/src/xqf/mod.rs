//! XQF, the binary game format of XQStudio (象棋演播室): [`parse_xqf`] decodes a file (every
//! version, the obfuscated ones from 11 on included) and [`record_from_xqf`] turns it into a
//! [`GameRecord`](crate::pgn::GameRecord), every move checked, ready to write as PGN.
//!
//! Layout, as read here:
//!
//! * A 1024-byte header: magic `"XQ"`, a version byte, key bytes, the squares
//!   of the 32 pieces, side to move, result, and length-prefixed (Pascal)
//!   GBK strings for the title, event, date, site, players and so on.
//! * From offset 1024, the game tree in pre-order. Each node is a 4-byte
//!   record `from, to, flags, reserved`, optionally followed by a 4-byte
//!   little-endian comment length and that many bytes of GBK text. A node's
//!   "next move" subtree comes first, then the subtree of its "sibling", the
//!   alternative move from the same position. The first node is a dummy
//!   that only carries the comment on the start position.
//!
//! Versions 10 and below are stored in the clear. From version 11 on, the
//! piece squares, move squares, comment lengths and the whole move area are
//! obfuscated with per-file keys taken from the header (see `Keys` in `decode.rs`).
//!
//! Neither step panics: every read is bounds-checked and reports an [`XqfError`] naming the
//! offset at which the data stopped making sense.

mod decode;
mod record;
#[cfg(test)]
mod record_tests;

pub use decode::{parse_xqf, XqfError, XqfMove, XqfRecord};
pub use record::{record_from_xqf, XqfImportError};
