//! The book file's bytes: reading with full validation, and writing. `docs/BOOK.md` describes
//! the layout for people; this module is its only implementation.
//!
//! ```text
//! header, 24 bytes (all integers little-endian)
//!   0  4  magic "XQBK"
//!   4  2  version (u16) = 1
//!   6  2  flags (u16): bit 0 = mirror images included, bit 1 = some moves verified by search;
//!         other bits 0
//!   8  4  entry count N (u32)
//!  12  4  reserved (u32) = 0
//!  16  8  checksum (u64): FNV-1a 64 of the N entries' bytes
//! entries, 16 bytes each, sorted by (key, move) with no two equal
//!   0  8  key (u64): Position::key() of the position before the move
//!   8  2  move (u16): Move::bits(), from | to << 7, squares numbered rank * 9 + file
//!  10  2  weight (u16, at least 1)
//!  12  2  score (i16): centi-soldiers for the side to move, 0 when not verified
//!  14  1  verify depth (u8): search depth of the score, 0 = not verified
//!  15  1  ply (u8): fewest moves from the start position to the position in the source lines
//! ```

use std::path::{Path, PathBuf};
use xiangqi::Move;
use xiangqi_files::reading::Problem;

/// The four bytes every book file starts with.
pub const MAGIC: [u8; 4] = *b"XQBK";
/// The layout version this code reads and writes.
pub const VERSION: u16 = 1;
/// Header size in bytes.
pub const HEADER_LEN: usize = 24;
/// Entry size in bytes.
pub const ENTRY_LEN: usize = 16;
/// The most entries a book file this program reads may hold: 2²² = 4,194,304.
///
/// The engine consults a book for the first 40 plies only, so a book has at most one entry per
/// distinct (position, move) pair of those plies. Even one built from 100,000 games that never
/// shared a single opening position would have 4,000,000 of them; real games share most of
/// their opening plies, so this is room for a book of several hundred thousand games. The
/// built-in book has 732.
pub const MAX_ENTRIES: u64 = 1 << 22;
/// The largest book file read, in bytes: the header and [`MAX_ENTRIES`] entries, 64 MiB and 24
/// bytes. Larger files are refused before they are read, so that a wrong path (`/dev/zero`, a
/// disk image) cannot fill the memory.
pub const MAX_FILE_LEN: u64 = HEADER_LEN as u64 + MAX_ENTRIES * ENTRY_LEN as u64;

/// Flag: the mirror image of every line is in the book.
pub const FLAG_MIRRORED: u16 = 1;
/// Flag: some entries carry a score from a verification search.
pub const FLAG_VERIFIED: u16 = 2;
const KNOWN_FLAGS: u16 = FLAG_MIRRORED | FLAG_VERIFIED;

/// One book move: a position (by key), a move from it, and how often to choose it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Zobrist key of the position ([`xiangqi::Position::key`]).
    pub key: u64,
    /// The move.
    pub mv: Move,
    /// Relative frequency among the position's moves (at least 1).
    pub weight: u16,
    /// Score after a verification search, for the side to move; 0 when not verified.
    pub score: i16,
    /// Depth of that search; 0 when not verified.
    pub depth: u8,
    /// Fewest plies from the start position to this position in the source lines.
    pub ply: u8,
}

impl Entry {
    /// The sort order of the file: by key, then by move.
    pub fn order(&self) -> (u64, u16) {
        (self.key, self.mv.bits())
    }
}

/// Why a book could not be read.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    /// The file could not be read.
    #[error("cannot read book file {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// Not a regular file (a FIFO, a device, a directory): refused without reading it.
    #[error("cannot read book file {}: it is {what}, not a regular file", .path.display())]
    NotAFile {
        /// The file.
        path: PathBuf,
        /// What it is instead.
        what: &'static str,
    },
    /// More bytes than any book may have.
    #[error(
        "cannot read book file {}: it is larger than {MAX_FILE_LEN} bytes, the most a book may \
         have ({MAX_ENTRIES} entries)",
        .0.display()
    )]
    TooLarge(PathBuf),
    /// Fewer bytes than a header.
    #[error("not a book file: {0} bytes is shorter than the {HEADER_LEN}-byte header")]
    TooShort(usize),
    /// The first four bytes are not `XQBK`.
    #[error("not a book file: it does not start with \"XQBK\"")]
    BadMagic,
    /// A version this program does not know.
    #[error("book file version {0} is not supported (this program reads version {VERSION})")]
    UnsupportedVersion(u16),
    /// Flag bits this program does not know, or a reserved field that is not zero.
    #[error("book file header has unknown flags {0:#06x} or a reserved field set")]
    UnknownFlags(u16),
    /// The length does not match the entry count (a truncated or padded file).
    #[error("book file is {actual} bytes but its header promises {expected} (truncated?)")]
    Length {
        /// Bytes the header implies.
        expected: u64,
        /// Bytes present.
        actual: u64,
    },
    /// The entries do not hash to the stored checksum.
    #[error("book file is corrupt: checksum {actual:#018x} does not match {expected:#018x}")]
    Checksum {
        /// The header's checksum.
        expected: u64,
        /// The entries' checksum.
        actual: u64,
    },
    /// Entries out of order or repeated (the probe relies on the order).
    #[error("book file entry {0} is out of order or repeated")]
    Unsorted(usize),
    /// A move whose squares are off the board, or a null move.
    #[error("book file entry {index} holds an invalid move {bits:#06x}")]
    BadMove {
        /// The entry.
        index: usize,
        /// Its move field.
        bits: u16,
    },
    /// A weight of zero.
    #[error("book file entry {0} has weight 0")]
    ZeroWeight(usize),
}

/// The bytes of the book file at `path`, refusing a file of more than [`MAX_FILE_LEN`] bytes.
pub fn read_file(path: &Path) -> Result<Vec<u8>, BookError> {
    read_at_most(path, MAX_FILE_LEN)
}

/// The bytes of the regular file at `path`, refusing one of more than `limit` bytes
/// ([`BookError::TooLarge`]) and anything but a regular file ([`BookError::NotAFile`]), as
/// [`xiangqi_files::reading::read`] does.
fn read_at_most(path: &Path, limit: u64) -> Result<Vec<u8>, BookError> {
    xiangqi_files::reading::read(path, limit).map_err(|e| match e.problem {
        Problem::Io(source) => BookError::Io {
            path: e.path,
            source,
        },
        Problem::NotAFile(what) => BookError::NotAFile { path: e.path, what },
        Problem::TooLarge(_) => BookError::TooLarge(e.path),
    })
}

/// FNV-1a, 64 bits: a simple published hash, enough to notice damaged files.
pub fn checksum(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// The bytes of a book file holding `entries`, which must already be sorted by
/// [`Entry::order`] without repeats.
pub fn encode(entries: &[Entry], flags: u16) -> Vec<u8> {
    debug_assert!(entries.windows(2).all(|w| w[0].order() < w[1].order()));
    let mut body = Vec::with_capacity(entries.len() * ENTRY_LEN);
    for e in entries {
        body.extend_from_slice(&e.key.to_le_bytes());
        body.extend_from_slice(&e.mv.bits().to_le_bytes());
        body.extend_from_slice(&e.weight.to_le_bytes());
        body.extend_from_slice(&e.score.to_le_bytes());
        body.push(e.depth);
        body.push(e.ply);
    }
    let count = u32::try_from(entries.len()).unwrap_or(u32::MAX);
    let mut out = Vec::with_capacity(HEADER_LEN + body.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&flags.to_le_bytes());
    out.extend_from_slice(&count.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&checksum(&body).to_le_bytes());
    out.extend_from_slice(&body);
    out
}

/// Fixed-size little-endian fields; the callers have checked the lengths.
fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut word = [0u8; 8];
    word.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(word)
}

/// Reads a book file's bytes, checking everything a probe relies on: returns the flags and
/// the entries, or says what is wrong.
pub fn decode(bytes: &[u8]) -> Result<(u16, Vec<Entry>), BookError> {
    if bytes.len() < HEADER_LEN {
        return Err(BookError::TooShort(bytes.len()));
    }
    if bytes[0..4] != MAGIC {
        return Err(BookError::BadMagic);
    }
    let version = u16_at(bytes, 4);
    if version != VERSION {
        return Err(BookError::UnsupportedVersion(version));
    }
    let flags = u16_at(bytes, 6);
    if flags & !KNOWN_FLAGS != 0 || u32_at(bytes, 12) != 0 {
        return Err(BookError::UnknownFlags(flags));
    }
    let count = u32_at(bytes, 8) as u64;
    let expected = HEADER_LEN as u64 + count * ENTRY_LEN as u64;
    if bytes.len() as u64 != expected {
        return Err(BookError::Length {
            expected,
            actual: bytes.len() as u64,
        });
    }
    let body = &bytes[HEADER_LEN..];
    let stored = u64_at(bytes, 16);
    let actual = checksum(body);
    if stored != actual {
        return Err(BookError::Checksum {
            expected: stored,
            actual,
        });
    }
    let mut entries: Vec<Entry> = Vec::with_capacity(body.len() / ENTRY_LEN);
    for (index, raw) in body.chunks_exact(ENTRY_LEN).enumerate() {
        let bits = u16_at(raw, 8);
        let mv = Move::from_bits(bits)
            .filter(|m| m.from() != m.to())
            .ok_or(BookError::BadMove { index, bits })?;
        let entry = Entry {
            key: u64_at(raw, 0),
            mv,
            weight: u16_at(raw, 10),
            score: u16_at(raw, 12) as i16,
            depth: raw[14],
            ply: raw[15],
        };
        if entry.weight == 0 {
            return Err(BookError::ZeroWeight(index));
        }
        if entries.last().is_some_and(|p| p.order() >= entry.order()) {
            return Err(BookError::Unsorted(index));
        }
        entries.push(entry);
    }
    Ok((flags, entries))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<Entry> {
        let pos = xiangqi::Position::startpos();
        let moves = pos.legal_moves();
        let mut entries: Vec<Entry> = moves
            .iter()
            .take(3)
            .enumerate()
            .map(|(i, &mv)| Entry {
                key: pos.key(),
                mv,
                weight: 10 + i as u16,
                score: -5 * i as i16,
                depth: i as u8,
                ply: 0,
            })
            .collect();
        entries.sort_by_key(Entry::order);
        entries
    }

    #[test]
    fn round_trip() {
        let entries = sample();
        let bytes = encode(&entries, FLAG_MIRRORED);
        assert_eq!(bytes.len(), HEADER_LEN + 3 * ENTRY_LEN);
        let (flags, back) = decode(&bytes).unwrap();
        assert_eq!(flags, FLAG_MIRRORED);
        assert_eq!(back, entries);
        assert_eq!(decode(&encode(&[], 0)).unwrap().1, Vec::new());
    }

    #[test]
    fn files_beyond_the_limit_are_refused_before_or_while_reading() {
        let dir = std::env::temp_dir().join(format!("xq-book-limit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("big.bin");
        // A sparse file: its length says too large, and nothing is read.
        let file = std::fs::File::create(&path).unwrap();
        file.set_len(MAX_FILE_LEN + 1).unwrap();
        let err = read_file(&path).unwrap_err();
        assert!(matches!(err, BookError::TooLarge(_)), "{err}");
        assert!(
            err.to_string().contains("is larger than 67108888 bytes"),
            "{err}"
        );
        // Up to the limit the bytes are read.
        file.set_len(100).unwrap();
        assert_eq!(read_at_most(&path, 100).unwrap(), vec![0; 100]);
        assert!(matches!(
            read_at_most(&path, 99),
            Err(BookError::TooLarge(_))
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A device says its length is 0 and never ends: it is refused as what it is, unread.
    #[test]
    #[cfg(unix)]
    fn an_endless_device_is_refused() {
        let err = read_file(Path::new("/dev/zero")).unwrap_err();
        assert!(
            matches!(
                err,
                BookError::NotAFile {
                    what: "a character device",
                    ..
                }
            ),
            "{err}"
        );
        assert_eq!(
            err.to_string(),
            "cannot read book file /dev/zero: it is a character device, not a regular file"
        );
    }

    #[test]
    fn damaged_files_are_rejected() {
        let good = encode(&sample(), 0);
        let err = |bytes: &[u8]| decode(bytes).unwrap_err().to_string();
        assert!(err(&good[..10]).contains("shorter"));
        assert!(err(&good[..good.len() - 1]).contains("truncated"));
        let mut padded = good.clone();
        padded.push(0);
        assert!(err(&padded).contains("truncated"));
        let mut bad = good.clone();
        bad[0] = b'Y';
        assert!(err(&bad).contains("XQBK"));
        let mut bad = good.clone();
        bad[4] = 9;
        assert!(err(&bad).contains("version 9"));
        let mut bad = good.clone();
        bad[7] = 0x80;
        assert!(err(&bad).contains("flags"));
        let mut bad = good.clone();
        let last = bad.len() - 1;
        bad[last] ^= 1;
        assert!(err(&bad).contains("checksum"));
    }

    /// Rewrites one entry field and the checksum, so the check under test is the one that fires.
    fn with_entry_bytes(entries: &[Entry], index: usize, at: usize, value: &[u8]) -> Vec<u8> {
        let mut bytes = encode(entries, 0);
        let start = HEADER_LEN + index * ENTRY_LEN + at;
        bytes[start..start + value.len()].copy_from_slice(value);
        let sum = checksum(&bytes[HEADER_LEN..]);
        bytes[16..24].copy_from_slice(&sum.to_le_bytes());
        bytes
    }

    #[test]
    fn bad_entries_are_rejected_even_with_a_good_checksum() {
        let entries = sample();
        let err = |bytes: Vec<u8>| decode(&bytes).unwrap_err().to_string();
        assert!(err(with_entry_bytes(&entries, 1, 8, &[0xff, 0xff])).contains("invalid move"));
        assert!(err(with_entry_bytes(&entries, 1, 8, &[0, 0])).contains("invalid move"));
        assert!(err(with_entry_bytes(&entries, 2, 10, &[0, 0])).contains("weight 0"));
        let swapped = entries[0].mv.bits().to_le_bytes();
        assert!(err(with_entry_bytes(&entries, 1, 8, &swapped)).contains("out of order"));
    }
}
