//! Move text of any kind, in every notation, on a few positions with many pieces of a kind on a
//! file (where notations are hardest). Invariants: never a panic; errors are short; a move read
//! is legal; each legal move, written in each notation, reads back as itself.

#![no_main]

use libfuzzer_sys::fuzz_target;
use xiangqi::{format_move, parse_move, parse_move_as, Notation, Position};

const POSITIONS: [&str; 6] = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
    // Three and more soldiers on one file, tandem chariots, horses and cannons.
    "3k5/4P4/4P4/2P1P4/4P4/4C4/4C4/9/4R4/4KR3 w - - 0 1",
    "4k4/4p4/4p4/4p4/2R1p1R2/9/4H4/4H4/9/3K5 b - - 0 1",
    "2bak4/4a4/4b4/P1P1P1P1P/9/9/P1P1P1P1P/4B4/4A4/4KAB2 w - - 0 1",
    "r1ba1a3/4k4/2n1b1n2/p1p1C1p1p/9/9/P1P1c1P1P/2N1B1N2/4A4/2BAK4 w - - 0 1",
];

fuzz_target!(|data: &[u8]| {
    let Some((&choice, rest)) = data.split_first() else {
        return;
    };
    let Ok(pos) = Position::from_fen_with(
        POSITIONS[usize::from(choice >> 4) % POSITIONS.len()],
        xiangqi::Validation::Lenient,
    ) else {
        return;
    };
    let notation = Notation::ALL[usize::from(choice & 15) % Notation::ALL.len()];
    let text = String::from_utf8_lossy(rest);
    for parsed in [
        parse_move_as(&pos, &text, notation),
        parse_move(&pos, &text),
    ] {
        match parsed {
            Ok(m) => assert!(pos.is_legal(m), "{text:?} read as the illegal {m}"),
            Err(e) => assert!(e.to_string().len() <= 1000),
        }
    }
    for &m in &pos.legal_moves() {
        let written = format_move(&pos, m, notation);
        let read = parse_move_as(&pos, &written, notation)
            .unwrap_or_else(|e| panic!("{m} written {written:?} in {notation} does not read: {e}"));
        assert_eq!(read, m, "{written:?} in {notation}");
    }
});
