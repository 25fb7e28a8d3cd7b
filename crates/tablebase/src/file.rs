//! A table as bytes on disk: a header (magic, version, material, size, longest mate, where
//! the perpetual-check rule's rounds begin, block size and each block's length), the values in compressed blocks, and a checksum over
//! everything before it. A file that does not check out is refused with the reason, never
//! read as a table.
//!
//! Each block holds up to [`BLOCK_ENTRIES`] entries of one side to move: the values' low bytes,
//! then their high bytes (most distances are under 126 plies, so the high bytes are mostly
//! zero), then the conversions' bytes (0 but for wins and losses by mate), deflated (RFC 1951,
//! `miniz_oxide`, safe Rust). Blocks are compressed on every core.

use crate::layout::Layout;
use crate::material::Material;
use crate::table::Table;
use crate::value::{Code, Value};

/// The first bytes of every table file.
const MAGIC: &[u8; 4] = b"XQTB";
/// The format's version.
const VERSION: u8 = 6;
/// Entries in a block (the last of a side may hold fewer).
pub const BLOCK_ENTRIES: usize = 1 << 16;
/// How hard blocks are compressed (deflate's levels are 0 to 10): a 5-man table's 150 MB
/// take seconds.
const LEVEL: u8 = 6;

/// The largest table file read: 2 GiB.
pub const MAX_TABLE_FILE_LEN: u64 = 2 << 30;

/// The file name of `material`'s table.
pub fn file_name(material: Material) -> String {
    format!("{material}.xqtb")
}

/// Why bytes are not a table.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FileError {
    /// Not a table file at all.
    #[error("not a tablebase file (no XQTB header)")]
    Magic,
    /// Written by another version of the format.
    #[error("tablebase format version {0}; this program reads version {VERSION} (build the table again)")]
    Version(u8),
    /// Shorter or longer than its header says.
    #[error("the file is {actual} bytes where its header says {expected}: cut short or damaged")]
    Length {
        /// What the header implies.
        expected: usize,
        /// What there is.
        actual: usize,
    },
    /// The checksum does not match: some byte changed.
    #[error("the checksum does not match: the file is damaged")]
    Checksum,
    /// The header names a material set that does not read, or not the one asked for.
    #[error("the file holds {found}, not {wanted}")]
    Material {
        /// What the file says.
        found: String,
        /// What was asked for.
        wanted: String,
    },
    /// A block that does not decompress to its entries.
    #[error("block {0} does not decompress to its entries")]
    Block(usize),
    /// The rounds of the perpetual-check rule are not in order.
    #[error("the rounds of the perpetual-check rule are out of order: the file is damaged")]
    Rounds,
    /// A value no table stores.
    #[error("entry {0} holds no valid value")]
    Value(usize),
}

/// FNV-1a, 64 bits: enough to tell a damaged file, and nothing to depend on.
fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The entries of each block of a side of `size` entries, as ranges.
fn blocks(size: usize) -> impl Iterator<Item = std::ops::Range<usize>> {
    (0..size)
        .step_by(BLOCK_ENTRIES)
        .map(move |first| first..(first + BLOCK_ENTRIES).min(size))
}

/// Bytes a block holds for each entry: its code's two and its conversion's one.
const ENTRY_BYTES: usize = 3;

/// A block's entries as bytes: the codes' low bytes, their high bytes, the conversions.
fn block_bytes((codes, conversions): &(&[Code], &[u8])) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(ENTRY_BYTES * codes.len());
    bytes.extend(codes.iter().map(|c| c.to_le_bytes()[0]));
    bytes.extend(codes.iter().map(|c| c.to_le_bytes()[1]));
    bytes.extend_from_slice(conversions);
    bytes
}

/// Compresses `parts` on every core, each part's result in its place.
fn compress_all(parts: &[(&[Code], &[u8])]) -> Vec<Vec<u8>> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let share = parts.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let workers: Vec<_> = parts
            .chunks(share)
            .map(|chunk| {
                scope.spawn(move || {
                    chunk
                        .iter()
                        .map(|part| {
                            miniz_oxide::deflate::compress_to_vec(&block_bytes(part), LEVEL)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a compressing thread does not panic"))
            .collect()
    })
}

/// The header as read, up to the blocks.
struct Header {
    longest: u16,
    rounds: Vec<u16>,
    /// Each block's compressed length, Red to move's blocks first.
    lengths: Vec<usize>,
    /// Where the blocks start.
    blocks_at: usize,
}

/// Reads and checks the header and the checksum of a file said to hold `material`'s table.
fn read_header(material: Material, layout: &Layout, bytes: &[u8]) -> Result<Header, FileError> {
    let rest = bytes.strip_prefix(MAGIC).ok_or(FileError::Magic)?;
    let (&version, rest) = rest.split_first().ok_or(FileError::Magic)?;
    if version != VERSION {
        return Err(FileError::Version(version));
    }
    let short = || FileError::Length {
        expected: bytes.len() + 1,
        actual: bytes.len(),
    };
    let mut at = 6;
    let mut take = |n: usize| -> Result<&[u8], FileError> {
        let part = bytes.get(at..at + n).ok_or_else(short)?;
        at += n;
        Ok(part)
    };
    let name_len = usize::from(rest.first().copied().ok_or_else(short)?);
    let found = String::from_utf8_lossy(take(name_len)?).into_owned();
    if found != material.to_string() {
        return Err(FileError::Material {
            found,
            wanted: material.to_string(),
        });
    }
    let size = u64::from_le_bytes(take(8)?.try_into().expect("8 bytes"));
    let longest = u16::from_le_bytes(take(2)?.try_into().expect("2 bytes"));
    let round_count = u16::from_le_bytes(take(2)?.try_into().expect("2 bytes"));
    let mut rounds = Vec::with_capacity(usize::from(round_count));
    for _ in 0..round_count {
        rounds.push(u16::from_le_bytes(take(2)?.try_into().expect("2 bytes")));
    }
    let block_entries = u32::from_le_bytes(take(4)?.try_into().expect("4 bytes"));
    if size != layout.size() as u64 || block_entries as usize != BLOCK_ENTRIES {
        return Err(FileError::Material {
            found: format!("{found} of {size} entries in blocks of {block_entries}"),
            wanted: format!("{} entries in blocks of {BLOCK_ENTRIES}", layout.size()),
        });
    }
    let count = 2 * blocks(layout.size()).count();
    let mut lengths = Vec::with_capacity(count);
    for _ in 0..count {
        lengths.push(u32::from_le_bytes(take(4)?.try_into().expect("4 bytes")) as usize);
    }
    let blocks_at = at;
    let expected = blocks_at + lengths.iter().sum::<usize>() + 8;
    if bytes.len() != expected {
        return Err(FileError::Length {
            expected,
            actual: bytes.len(),
        });
    }
    let (body, sum) = bytes.split_at(expected - 8);
    if checksum(body) != u64::from_le_bytes(sum.try_into().expect("8 bytes")) {
        return Err(FileError::Checksum);
    }
    if !rounds.is_sorted_by(|a, b| a < b) {
        return Err(FileError::Rounds);
    }
    Ok(Header {
        longest,
        rounds,
        lengths,
        blocks_at,
    })
}

/// Checks that `bytes` are a sound file of `material`'s table (header, length, checksum)
/// without decompressing it.
pub fn check(material: Material, bytes: &[u8]) -> Result<(), FileError> {
    read_header(material, &Layout::new(material), bytes).map(|_| ())
}

impl Table {
    /// The table as a file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let name = self.material().to_string();
        let parts: Vec<(&[Code], &[u8])> = self
            .codes()
            .iter()
            .zip(self.conversions())
            .flat_map(|(codes, conversions)| {
                blocks(codes.len()).map(move |range| (&codes[range.clone()], &conversions[range]))
            })
            .collect();
        let compressed = compress_all(&parts);
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        out.push(VERSION);
        out.push(name.len() as u8);
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(&(self.size() as u64).to_le_bytes());
        out.extend_from_slice(&self.longest().to_le_bytes());
        out.extend_from_slice(&(self.rounds().len() as u16).to_le_bytes());
        for first in self.rounds() {
            out.extend_from_slice(&first.to_le_bytes());
        }
        out.extend_from_slice(&(BLOCK_ENTRIES as u32).to_le_bytes());
        for block in &compressed {
            out.extend_from_slice(&(block.len() as u32).to_le_bytes());
        }
        for block in &compressed {
            out.extend_from_slice(block);
        }
        let sum = checksum(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a table of `material` from a file's bytes.
    pub fn from_bytes(material: Material, bytes: &[u8]) -> Result<Table, FileError> {
        let layout = Layout::new(material);
        let header = read_header(material, &layout, bytes)?;
        let size = layout.size();
        let mut codes: [Vec<Code>; 2] = [Vec::with_capacity(size), Vec::with_capacity(size)];
        let mut conversions: [Vec<u8>; 2] = [Vec::with_capacity(size), Vec::with_capacity(size)];
        let mut at = header.blocks_at;
        let ranges: Vec<_> = blocks(size).collect();
        for (i, &length) in header.lengths.iter().enumerate() {
            let side = i / ranges.len();
            let entries = ranges[i % ranges.len()].len();
            let raw = miniz_oxide::inflate::decompress_to_vec_with_limit(
                &bytes[at..at + length],
                ENTRY_BYTES * entries,
            )
            .map_err(|_| FileError::Block(i))?;
            at += length;
            if raw.len() != ENTRY_BYTES * entries {
                return Err(FileError::Block(i));
            }
            let (low, rest) = raw.split_at(entries);
            let (high, conversion) = rest.split_at(entries);
            for ((&lo, &hi), &c) in low.iter().zip(high).zip(conversion) {
                let code = u16::from_le_bytes([lo, hi]);
                let by_mate = Value::from_code(code).is_some_and(Value::is_by_mate);
                if code == crate::value::UNKNOWN || (c != 0 && !by_mate) {
                    return Err(FileError::Value(codes[side].len()));
                }
                codes[side].push(code);
                conversions[side].push(c);
            }
        }
        Ok(Table::from_parts(
            material,
            layout,
            codes,
            conversions,
            header.longest,
            header.rounds,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Tables;

    #[test]
    fn the_rounds_of_the_rule_survive_their_file_and_out_of_order_they_are_refused() {
        let mut tables = Tables::new();
        let krk: Material = "KRK".parse().unwrap();
        tables.generate(krk, &mut |_| {});
        let table = tables.get(krk).unwrap();
        let with = |rounds: Vec<u16>| {
            Table::from_parts(
                krk,
                table.layout().clone(),
                table.codes().clone(),
                table.conversions().clone(),
                table.longest(),
                rounds,
            )
            .to_bytes()
        };
        let read = Table::from_bytes(krk, &with(vec![0, 3, 9])).unwrap();
        assert_eq!(read.rounds(), [0, 3, 9]);
        assert_eq!(
            Table::from_bytes(krk, &with(vec![0, 9, 3])).unwrap_err(),
            FileError::Rounds
        );
    }

    #[test]
    fn a_conversion_stored_for_a_draw_is_refused() {
        let mut tables = Tables::new();
        let krk: Material = "KRK".parse().unwrap();
        tables.generate(krk, &mut |_| {});
        let table = tables.get(krk).unwrap();
        // Black to move: the general takes the chariot.
        let draw = table.codes()[1]
            .iter()
            .position(|&c| Value::from_code(c) == Some(Value::Draw))
            .unwrap();
        let mut conversions = table.conversions().clone();
        conversions[1][draw] = 7;
        let bytes = Table::from_parts(
            krk,
            table.layout().clone(),
            table.codes().clone(),
            conversions,
            table.longest(),
            Vec::new(),
        )
        .to_bytes();
        assert_eq!(
            Table::from_bytes(krk, &bytes).unwrap_err(),
            FileError::Value(draw)
        );
        assert!(Table::from_bytes(krk, &table.to_bytes()).is_ok());
    }

    #[test]
    fn a_table_survives_its_file_and_a_damaged_file_is_refused() {
        let mut tables = Tables::new();
        let krk: Material = "KRK".parse().unwrap();
        tables.generate(krk, &mut |_| {});
        let table = tables.get(krk).unwrap();
        let bytes = table.to_bytes();
        let read = Table::from_bytes(krk, &bytes).unwrap();
        assert_eq!(read.codes(), table.codes());
        assert_eq!(read.conversions(), table.conversions());
        assert_eq!(read.longest(), table.longest());

        let mut flipped = bytes.clone();
        let middle = flipped.len() / 2;
        flipped[middle] ^= 1;
        assert_eq!(
            Table::from_bytes(krk, &flipped).unwrap_err(),
            FileError::Checksum
        );
        assert!(matches!(
            Table::from_bytes(krk, &bytes[..bytes.len() - 3]).unwrap_err(),
            FileError::Length { .. }
        ));
        assert_eq!(
            Table::from_bytes(krk, b"PK\x03\x04").unwrap_err(),
            FileError::Magic
        );
        assert!(matches!(
            Table::from_bytes("KCK".parse().unwrap(), &bytes).unwrap_err(),
            FileError::Material { .. }
        ));
        // A block changed and the checksum written again: the block itself is refused.
        let mut rewritten = bytes[..bytes.len() - 8].to_vec();
        let last_block_byte = rewritten.len() - 3;
        rewritten[last_block_byte] ^= 0x5a;
        let sum = checksum(&rewritten);
        rewritten.extend_from_slice(&sum.to_le_bytes());
        assert!(matches!(
            Table::from_bytes(krk, &rewritten).unwrap_err(),
            FileError::Block(_) | FileError::Value(_)
        ));
        // Compressed, the table is far smaller than its two bytes an entry.
        assert!(bytes.len() * 4 < 4 * table.size(), "{} bytes", bytes.len());
        let mut newer = bytes.clone();
        newer[4] = 9;
        assert_eq!(
            Table::from_bytes(krk, &newer).unwrap_err(),
            FileError::Version(9)
        );
    }
}
