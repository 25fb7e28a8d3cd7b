//! A file of samples: the header and the records (the layout is drawn in the
//! [module documentation](super)). Reading never panics, whatever the bytes; every error names
//! the offset where the file stops being a sample file.

use super::record::{Problem, Sample, RECORD_SIZE};
use anyhow::Context as _;
use std::path::Path;

/// The first eight bytes of every sample file.
pub const MAGIC: [u8; 8] = *b"XQSAMPLE";
/// The version of the format this program writes and reads.
pub const VERSION: u16 = 1;
/// Bytes in the header.
pub const HEADER_SIZE: usize = 32;
/// The largest sample file read, in bytes: 1 GiB, 33 million positions. A chunk of
/// `datagen --dir` (200 games by default) is well under a megabyte; a file beyond this is no
/// chunk (a 10 GB one was once read whole).
pub const MAX_FILE_LEN: u64 = 1 << 30;

/// What the header says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// Records in the file.
    pub records: u32,
    /// Games they come from (0: not known).
    pub games: u32,
    /// FNV-1a of the record bytes.
    pub checksum: u64,
}

impl Header {
    /// The length of the file this header describes.
    pub fn file_len(&self) -> u64 {
        HEADER_SIZE as u64 + u64::from(self.records) * RECORD_SIZE as u64
    }
}

/// A whole file, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SampleFile {
    /// Games the samples come from (0: not known).
    pub games: u32,
    /// The samples, in file order.
    pub samples: Vec<Sample>,
}

/// Why bytes are not a sample file. Offsets count from the file's first byte.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FileError {
    /// The file does not start with [`MAGIC`].
    #[error("not a sample file: it starts with {found}, where a sample file has \"XQSAMPLE\"")]
    Magic {
        /// Its first bytes, quoted.
        found: String,
    },
    /// The file ends inside the header.
    #[error("truncated at offset {len}: a sample file starts with a {HEADER_SIZE}-byte header")]
    ShortHeader {
        /// The file's length.
        len: u64,
    },
    /// A version this program does not read.
    #[error("offset 8: version {0} of the sample format; this program reads version {VERSION}")]
    Version(u16),
    /// A record size other than the version's.
    #[error("offset 10: records of {0} bytes; version {VERSION} has {RECORD_SIZE}")]
    RecordSize(u16),
    /// Reserved header bytes that are not zero.
    #[error("offset 20: the reserved header bytes are not zero")]
    Reserved,
    /// The file ends before the records the header announces.
    #[error("truncated at offset {len}: the header announces {records} records, which end at offset {end}")]
    Truncated {
        /// The file's length.
        len: u64,
        /// Records announced.
        records: u32,
        /// Where they would end.
        end: u64,
    },
    /// Bytes after the last record.
    #[error(
        "offset {end}: {extra} bytes follow the last of the {records} records the header announces"
    )]
    Trailing {
        /// Where the records end.
        end: u64,
        /// How many bytes follow.
        extra: u64,
        /// Records announced.
        records: u32,
    },
    /// A record whose bytes break the format.
    #[error("offset {offset} (record {index}, byte {byte}): {problem}")]
    Record {
        /// The bad byte's offset in the file.
        offset: u64,
        /// The record's number, from 0.
        index: u32,
        /// The bad byte's offset in the record.
        byte: usize,
        /// What is wrong.
        problem: Problem,
    },
    /// The records do not hash to the header's checksum.
    #[error("checksum mismatch: the header says {expected:016x}, the records hash to {found:016x}; the file is corrupt")]
    Checksum {
        /// The header's checksum.
        expected: u64,
        /// The records'.
        found: u64,
    },
}

/// The file holding `samples`, from `games` games.
///
/// # Panics
/// With more than `u32::MAX` samples (a file is meant to be a chunk of a data set).
pub fn encode_file(samples: &[Sample], games: u32) -> Vec<u8> {
    let records = u32::try_from(samples.len()).expect("at most u32::MAX samples in a file");
    let mut bytes = Vec::with_capacity(HEADER_SIZE + samples.len() * RECORD_SIZE);
    bytes.extend_from_slice(&MAGIC);
    bytes.extend_from_slice(&VERSION.to_le_bytes());
    bytes.extend_from_slice(&(RECORD_SIZE as u16).to_le_bytes());
    bytes.extend_from_slice(&records.to_le_bytes());
    bytes.extend_from_slice(&games.to_le_bytes());
    bytes.extend_from_slice(&[0; 4]);
    bytes.extend_from_slice(&[0; 8]);
    for sample in samples {
        bytes.extend_from_slice(sample.as_bytes());
    }
    let checksum = fnv1a(&bytes[HEADER_SIZE..]);
    bytes[24..HEADER_SIZE].copy_from_slice(&checksum.to_le_bytes());
    bytes
}

/// Reads and checks the header at the start of `bytes` (which may be the first
/// [`HEADER_SIZE`] bytes of a file); [`Header::file_len`] is the length the file must have.
pub fn decode_header(bytes: &[u8]) -> Result<Header, FileError> {
    let start = &bytes[..bytes.len().min(MAGIC.len())];
    if start != &MAGIC[..start.len()] {
        return Err(FileError::Magic {
            found: format!("{:?}", String::from_utf8_lossy(start)),
        });
    }
    let Some(header) = bytes.get(..HEADER_SIZE) else {
        return Err(FileError::ShortHeader {
            len: bytes.len() as u64,
        });
    };
    let u16_at = |i: usize| u16::from_le_bytes([header[i], header[i + 1]]);
    let u32_at =
        |i: usize| u32::from_le_bytes([header[i], header[i + 1], header[i + 2], header[i + 3]]);
    if u16_at(8) != VERSION {
        return Err(FileError::Version(u16_at(8)));
    }
    if usize::from(u16_at(10)) != RECORD_SIZE {
        return Err(FileError::RecordSize(u16_at(10)));
    }
    if u32_at(20) != 0 {
        return Err(FileError::Reserved);
    }
    let mut checksum = [0u8; 8];
    checksum.copy_from_slice(&header[24..HEADER_SIZE]);
    Ok(Header {
        records: u32_at(12),
        games: u32_at(16),
        checksum: u64::from_le_bytes(checksum),
    })
}

/// Reads a whole sample file: the header, the length it implies, every record, the checksum.
pub fn decode_file(bytes: &[u8]) -> Result<SampleFile, FileError> {
    let header = decode_header(bytes)?;
    let (len, end) = (bytes.len() as u64, header.file_len());
    if len < end {
        return Err(FileError::Truncated {
            len,
            records: header.records,
            end,
        });
    }
    if len > end {
        return Err(FileError::Trailing {
            end,
            extra: len - end,
            records: header.records,
        });
    }
    let body = &bytes[HEADER_SIZE..];
    let mut samples = Vec::with_capacity(header.records as usize);
    for (index, record) in (0u32..).zip(body.chunks_exact(RECORD_SIZE)) {
        let mut raw = [0u8; RECORD_SIZE];
        raw.copy_from_slice(record);
        let sample = Sample::from_bytes(raw).map_err(|e| FileError::Record {
            offset: (HEADER_SIZE + index as usize * RECORD_SIZE + e.byte) as u64,
            index,
            byte: e.byte,
            problem: e.problem,
        })?;
        samples.push(sample);
    }
    let found = fnv1a(body);
    if found != header.checksum {
        return Err(FileError::Checksum {
            expected: header.checksum,
            found,
        });
    }
    Ok(SampleFile {
        games: header.games,
        samples,
    })
}

/// Reads the sample file at `path` (a regular file of at most [`MAX_FILE_LEN`] bytes); errors
/// name it.
pub fn read_file(path: &Path) -> anyhow::Result<SampleFile> {
    let bytes = xiangqi_files::reading::read(path, MAX_FILE_LEN)?;
    decode_file(&bytes).with_context(|| format!("{} is not a valid sample file", path.display()))
}

/// FNV-1a, 64 bits: a checksum that catches any single changed byte, written out in full.
fn fnv1a(bytes: &[u8]) -> u64 {
    const OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    bytes.iter().fold(OFFSET_BASIS, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(PRIME)
    })
}

#[cfg(test)]
mod tests {
    use super::super::record::Wdl;
    use super::*;
    use proptest::prelude::*;
    use xiangqi::Position;

    /// A file of a few positions from a short game.
    fn small_file() -> (Vec<Sample>, Vec<u8>) {
        let mut pos = Position::startpos();
        let mut samples = Vec::new();
        for ply in 0..6 {
            let result = if ply % 2 == 0 { Wdl::Win } else { Wdl::Loss };
            samples.push(Sample::new(&pos, 10 * ply as i32 - 20, result, ply));
            let m = pos.legal_moves().as_slice()[ply * 3];
            pos.make_move(m);
        }
        let bytes = encode_file(&samples, 1);
        (samples, bytes)
    }

    #[test]
    fn a_file_round_trips() {
        let (samples, bytes) = small_file();
        assert_eq!(bytes.len(), HEADER_SIZE + 6 * RECORD_SIZE);
        assert_eq!(&bytes[..8], b"XQSAMPLE");
        let read = decode_file(&bytes).unwrap();
        assert_eq!(read.games, 1);
        assert_eq!(read.samples, samples);
        assert_eq!(encode_file(&read.samples, read.games), bytes);
        let empty = encode_file(&[], 0);
        assert_eq!(decode_file(&empty).unwrap().samples, vec![]);
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }

    #[test]
    fn every_truncation_is_reported_with_its_offset() {
        let (_, bytes) = small_file();
        for len in 0..bytes.len() {
            let error = decode_file(&bytes[..len]).unwrap_err().to_string();
            assert!(
                error.starts_with(&format!("truncated at offset {len}:")),
                "{len}: {error}"
            );
        }
        assert_eq!(
            decode_file(&bytes[..HEADER_SIZE + 40])
                .unwrap_err()
                .to_string(),
            "truncated at offset 72: the header announces 6 records, which end at offset 224"
        );
    }

    #[test]
    fn other_files_are_refused_clearly() {
        let text = b"2baka3/9/3r3c1/p4R3/3n2R2/P8/2P5P/9/4C4/2BAKA3 w - - 11 27;1.0;1141\n";
        assert_eq!(
            decode_file(text).unwrap_err().to_string(),
            "not a sample file: it starts with \"2baka3/9\", where a sample file has \"XQSAMPLE\""
        );
        assert!(matches!(
            decode_file(b"XQ\xff"),
            Err(FileError::Magic { .. })
        ));
        let (_, bytes) = small_file();
        let mut later = bytes.clone();
        later[8] = 2;
        assert_eq!(
            decode_file(&later).unwrap_err().to_string(),
            "offset 8: version 2 of the sample format; this program reads version 1"
        );
        let mut wider = bytes.clone();
        wider[10] = 40;
        assert_eq!(decode_file(&wider).unwrap_err(), FileError::RecordSize(40));
        let mut reserved = bytes.clone();
        reserved[22] = 1;
        assert_eq!(decode_file(&reserved).unwrap_err(), FileError::Reserved);
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(
            decode_file(&longer).unwrap_err().to_string(),
            "offset 224: 1 bytes follow the last of the 6 records the header announces"
        );
    }

    #[test]
    fn corruption_is_found_in_the_record_or_by_the_checksum() {
        let (_, bytes) = small_file();
        // Record 2's score set beyond the range: named by its offset.
        let mut bad = bytes.clone();
        bad[HEADER_SIZE + 2 * RECORD_SIZE + 29] = 0x7f;
        assert_eq!(
            decode_file(&bad).unwrap_err().to_string(),
            format!(
                "offset {} (record 2, byte 28): score {} is beyond ±32000",
                HEADER_SIZE + 2 * RECORD_SIZE + 28,
                i16::from_le_bytes([bad[HEADER_SIZE + 2 * RECORD_SIZE + 28], 0x7f])
            )
        );
        // A change that leaves a valid record: only the checksum sees it.
        let mut subtle = bytes.clone();
        subtle[HEADER_SIZE + RECORD_SIZE + 28] ^= 1;
        assert!(matches!(
            decode_file(&subtle),
            Err(FileError::Checksum { .. })
        ));
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

        /// Any bytes: an error or a file that encodes back to the same bytes, never a panic.
        #[test]
        fn any_bytes_read_without_panic(tail in proptest::collection::vec(any::<u8>(), 0..200)) {
            let mut bytes = MAGIC.to_vec();
            bytes.extend_from_slice(&tail);
            if let Ok(file) = decode_file(&bytes) {
                prop_assert_eq!(encode_file(&file.samples, file.games), bytes);
            }
        }

        /// A valid file with some bytes changed: the same.
        #[test]
        fn changed_bytes_read_without_panic(
            changes in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..4),
            cut in any::<usize>(),
        ) {
            let (_, mut bytes) = small_file();
            for (at, value) in changes {
                let at = at % bytes.len();
                bytes[at] = value;
            }
            bytes.truncate(bytes.len() - cut % 3);
            if let Ok(file) = decode_file(&bytes) {
                prop_assert_eq!(encode_file(&file.samples, file.games), bytes);
            }
        }
    }

    /// A sparse file of a little over a gibibyte is refused by its length, unread (a 10 GB
    /// one was read whole); FIFOs and devices are refused unread too.
    #[test]
    fn a_file_beyond_the_limit_or_not_a_file_is_refused_unread() {
        let dir = std::env::temp_dir().join(format!("xq-samples-huge-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("chunk-000000.samples");
        let file = std::fs::File::create(&path).unwrap();
        file.set_len(MAX_FILE_LEN + 1).unwrap();
        let err = format!("{:#}", read_file(&path).unwrap_err());
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(
            err,
            format!(
                "cannot read {}: it is larger than 1073741824 bytes",
                path.display()
            )
        );
        #[cfg(unix)]
        {
            let err = format!("{:#}", read_file(Path::new("/dev/zero")).unwrap_err());
            assert_eq!(
                err,
                "cannot read /dev/zero: it is a character device, not a regular file"
            );
        }
    }
}
