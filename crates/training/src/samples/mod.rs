//! Training samples for an evaluation network: one quiet position from a self-play game, the
//! search's score for it and the game's result, in a compact binary file format of our own.
//! `xiangqi datagen --dir` writes these files, `xiangqi datagen --stats` reads them, and a
//! trainer reads them with [`decode_file`] (or [`read_file`]).
//!
//! # The file, byte by byte
//!
//! All integers are little-endian. A file is a 32-byte header followed by fixed-size records.
//!
//! ```text
//! offset size  header
//!  0      8    magic: the ASCII bytes "XQSAMPLE"
//!  8      2    version: u16, 1 (a reader refuses any other)
//! 10      2    record size: u16, 32
//! 12      4    records: u32, the number of records that follow
//! 16      4    games: u32, how many games the records come from (0 if unknown)
//! 20      4    reserved: zero
//! 24      8    checksum: u64, FNV-1a (64 bits) of all the record bytes, in file order
//! 32           the records, 32 bytes each; the file ends exactly after the last one
//! ```
//!
//! A record is one position (squares are numbered `rank × 9 + file`: `a0` = 0, `i0` = 8,
//! `a1` = 9, …, `i9` = 89; rank 0 is Red's back rank):
//!
//! ```text
//! offset size  record
//!  0     12    occupancy: a 96-bit integer; bit i is set when square i holds a piece;
//!              bits 90–95 are zero
//! 12     16    pieces: a 4-bit code for each occupied square, in increasing square order;
//!              the n-th piece (from 0) is in byte 12 + n/2, in the low half when n is even
//!              and the high half when n is odd; halves after the last piece are zero.
//!              Code = colour × 7 + kind, colour 0 Red, 1 Black; kind 0 general, 1 advisor,
//!              2 elephant, 3 horse, 4 chariot, 5 cannon, 6 soldier (so 0–6 are Red's
//!              K A B N R C P, 7–13 Black's k a b n r c p; 14 and 15 are invalid)
//! 28      2    score: i16, the search's score from the side to move's point of view, in
//!              centi-soldiers, within ±32000; a mate found by the search is ±32000 (the
//!              engine's other scores stay below 30880 in absolute value)
//! 30      2    u16, three fields:
//!                bits  0–11  ply: plies played from the game's start position to this one
//!                            (longer games saturate at 4095)
//!                bit   12    side to move: 0 Red, 1 Black
//!                bits 13–14  the game's result from the side to move's point of view:
//!                            0 lost, 1 drawn, 2 won (3 is invalid)
//!                bit   15    zero
//! ```
//!
//! The two generals are always there and 32 pieces fill the 16 bytes exactly. A record holds
//! the placement and the side to move, not the no-capture count or the moves before it: what
//! an evaluation sees. Score and result are both from the side to move's point of view, as a
//! network that evaluates for the side to move is trained.
//!
//! The encoding is canonical: a file that reads without error is written back byte for byte
//! by [`encode_file`]. Reading checks every byte whose value is constrained (piece codes,
//! counts of each kind — at most the standard set, one general a side —, zero padding, the
//! score's range, the result code, the length, the checksum), and every error names the byte
//! offset where the file went wrong. Whether the placement is a legal position (generals in
//! their palaces, not facing) is the rules library's to judge: [`Sample::to_position`].

mod file;
mod record;

pub use file::{decode_file, decode_header, encode_file, read_file, FileError, Header, SampleFile};
pub use file::{HEADER_SIZE, MAGIC, MAX_FILE_LEN, VERSION};
pub use record::{Problem, RecordError, Sample, Wdl, MATE_SCORE, MAX_PLY, RECORD_SIZE};
