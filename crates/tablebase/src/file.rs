//! A table as bytes on disk: a header (magic, version, material, size, longest mate), the
//! values, and a checksum over everything before it. A file that does not check out is refused
//! with the reason, never read as a table.

use crate::generate::Table;
use crate::layout::Layout;
use crate::material::Material;
use crate::value::Code;

/// The first bytes of every table file.
const MAGIC: &[u8; 4] = b"XQTB";
/// The format's version.
const VERSION: u8 = 1;

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
    #[error("tablebase format version {0}; this program reads version {VERSION}")]
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

impl Table {
    /// The table as a file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let name = self.material().to_string();
        let mut out = Vec::with_capacity(32 + 4 * self.size());
        out.extend_from_slice(MAGIC);
        out.push(VERSION);
        out.push(name.len() as u8);
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(&(self.size() as u64).to_le_bytes());
        out.extend_from_slice(&self.longest().to_le_bytes());
        for codes in self.codes() {
            for code in codes {
                out.extend_from_slice(&code.to_le_bytes());
            }
        }
        let sum = checksum(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a table of `material` from a file's bytes.
    pub fn from_bytes(material: Material, bytes: &[u8]) -> Result<Table, FileError> {
        let rest = bytes.strip_prefix(MAGIC).ok_or(FileError::Magic)?;
        let (&version, rest) = rest.split_first().ok_or(FileError::Magic)?;
        if version != VERSION {
            return Err(FileError::Version(version));
        }
        let short = || FileError::Length {
            expected: bytes.len() + 1,
            actual: bytes.len(),
        };
        let (&name_len, rest) = rest.split_first().ok_or_else(short)?;
        let name = rest.get(..usize::from(name_len)).ok_or_else(short)?;
        let found = String::from_utf8_lossy(name).into_owned();
        if found != material.to_string() {
            return Err(FileError::Material {
                found,
                wanted: material.to_string(),
            });
        }
        let rest = &rest[usize::from(name_len)..];
        let size = u64::from_le_bytes(rest.get(..8).ok_or_else(short)?.try_into().expect("8"));
        let longest = u16::from_le_bytes(rest.get(8..10).ok_or_else(short)?.try_into().expect("2"));
        let layout = Layout::new(material);
        let header = 4 + 1 + 1 + usize::from(name_len) + 8 + 2;
        let expected = header + 4 * layout.size() + 8;
        if size != layout.size() as u64 || bytes.len() != expected {
            return Err(FileError::Length {
                expected,
                actual: bytes.len(),
            });
        }
        let (body, sum) = bytes.split_at(expected - 8);
        if checksum(body) != u64::from_le_bytes(sum.try_into().expect("8")) {
            return Err(FileError::Checksum);
        }
        let values = &body[header..];
        let mut codes: [Vec<Code>; 2] = [Vec::new(), Vec::new()];
        for (i, pair) in values.chunks_exact(2).enumerate() {
            let code = u16::from_le_bytes([pair[0], pair[1]]);
            if code == crate::value::UNKNOWN {
                return Err(FileError::Value(i));
            }
            codes[i / layout.size()].push(code);
        }
        Ok(Table::from_parts(material, layout, codes, longest))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Tables;

    #[test]
    fn a_table_survives_its_file_and_a_damaged_file_is_refused() {
        let mut tables = Tables::new();
        let krk: Material = "KRK".parse().unwrap();
        tables.generate(krk, &mut |_| {});
        let table = tables.get(krk).unwrap();
        let bytes = table.to_bytes();
        let read = Table::from_bytes(krk, &bytes).unwrap();
        assert_eq!(read.codes(), table.codes());
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
        let mut newer = bytes.clone();
        newer[4] = 9;
        assert_eq!(
            Table::from_bytes(krk, &newer).unwrap_err(),
            FileError::Version(9)
        );
    }
}
