//! XQF files of any bytes. Invariants: the reader never panics; an error is short; every move of
//! the record is legal where it stands; the record writes as PGN that reads back the same.

#![no_main]

use libfuzzer_sys::fuzz_target;
use xiangqi::pgn::{read_pgn, write_pgn, NotationCodec};
use xiangqi::{record_from_xqf, Notation};

fuzz_target!(|data: &[u8]| {
    // The reader is meant for files starting "XQ"; give it that most of the time.
    let mut bytes = b"XQ".to_vec();
    bytes.extend_from_slice(data.get(2..).unwrap_or_default());
    let input = if data.first() == Some(&0) {
        data
    } else {
        &bytes[..]
    };
    match record_from_xqf(input) {
        Err(e) => assert!(e.to_string().len() <= 1000),
        Ok(record) => {
            let mut pos = record.start.clone();
            for m in record.main_line() {
                assert!(pos.is_legal(m), "illegal move {m} in {}", pos.to_fen());
                pos.make_move(m);
            }
            let codec = NotationCodec(Notation::Chinese);
            let text = write_pgn(&record, &codec, "Chinese");
            let again = read_pgn(text.as_bytes(), &codec).expect("the PGN of an XQF reads back");
            assert_eq!(again[0].main_line(), record.main_line());
        }
    }
});
