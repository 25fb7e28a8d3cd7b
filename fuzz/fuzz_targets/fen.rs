//! FEN text of any kind, strict and lenient. Invariants: never a panic; errors are short; a
//! position read writes back as a FEN that reads as the same position; its key is the key
//! computed afresh; every generated move is legal, and making then unmaking it restores the
//! position and key; the FEN after each move reads back too.

#![no_main]

use libfuzzer_sys::fuzz_target;
use xiangqi::{Position, Validation};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for validation in [Validation::Strict, Validation::Lenient] {
        let pos = match Position::from_fen_with(&text, validation) {
            Ok(pos) => pos,
            Err(e) => {
                assert!(e.to_string().len() <= 1000);
                continue;
            }
        };
        let fen = pos.to_fen();
        let again = Position::from_fen_with(&fen, validation).expect("a written FEN reads back");
        assert_eq!(again.to_fen(), fen);
        assert_eq!(pos.key(), pos.compute_key());
        assert_eq!(again.key(), pos.key());
        let mut work = pos.clone();
        for &m in &pos.legal_moves() {
            assert!(pos.is_legal(m), "{m} in {fen}");
            let undo = work.make_move(m);
            assert_eq!(work.key(), work.compute_key(), "{m} in {fen}");
            let after = work.to_fen();
            Position::from_fen_with(&after, Validation::Lenient)
                .unwrap_or_else(|e| panic!("the FEN after {m} in {fen} does not read: {e}"));
            work.unmake_move(m, undo);
            assert_eq!(work.to_fen(), fen);
            assert_eq!(work.key(), pos.key());
        }
    }
});
