//! Training-sample files of any bytes. Invariants: the reader never panics; an error is short
//! and names an offset within the file; a file that reads writes back byte for byte; every
//! sample's position that the rules library accepts encodes back to the same record.

#![no_main]

use libfuzzer_sys::fuzz_target;
use xiangqi_training::samples::{decode_file, encode_file, Sample, HEADER_SIZE, MAGIC, RECORD_SIZE};

fuzz_target!(|data: &[u8]| {
    // A valid header and checksum are hard to guess: unless the first byte is 0, the input is
    // taken as the records and given a header that matches them, so the records get read.
    let input = if data.first() == Some(&0) {
        data.to_vec()
    } else {
        let whole = data.len() / RECORD_SIZE;
        let mut file = encode_file(&[], 0);
        file.extend_from_slice(&data[..whole * RECORD_SIZE]);
        fix_header(&mut file, whole as u32);
        // An odd tail makes a file that is too long.
        file.extend_from_slice(&data[whole * RECORD_SIZE..]);
        file
    };
    match decode_file(&input) {
        Err(e) => {
            let text = e.to_string();
            assert!(text.len() <= 300, "{text}");
        }
        Ok(file) => {
            assert_eq!(input[..8], MAGIC);
            assert_eq!(encode_file(&file.samples, file.games), input);
            for sample in &file.samples {
                let fen = sample.to_fen();
                assert_eq!(sample.pieces().count() as u32, sample.piece_count());
                let Ok(pos) = sample.to_position() else {
                    continue;
                };
                let score = i32::from(sample.score());
                if score.abs() < 30_880 || score.abs() == 32_000 {
                    let again = Sample::new(&pos, score, sample.result(), sample.ply().into());
                    assert_eq!(&again, sample, "{fen}");
                }
            }
        }
    }
});

/// Writes the record count and the records' checksum into the header: FNV-1a, 64 bits, as
/// the format documents it (written out again here, so the two are checked against each
/// other).
fn fix_header(file: &mut [u8], records: u32) {
    file[12..16].copy_from_slice(&records.to_le_bytes());
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in &file[HEADER_SIZE..] {
        hash = (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
    }
    file[24..32].copy_from_slice(&hash.to_le_bytes());
}
