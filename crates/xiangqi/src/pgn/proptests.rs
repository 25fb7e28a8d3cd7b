//! Property tests: no input makes the reader panic, and whatever it reads (or any record in
//! export form) survives writing and reading back.

use super::record::{export_tags, normalize_comment};
use super::NotationCodec;
use super::*;
use crate::notation::Notation;
use crate::position::Position;
use proptest::prelude::*;

/// Pieces of PGN, well-formed and not, to glue into token soups.
const VOCABULARY: &[&str] = &[
    "h2e2",
    "H2-E2",
    "h9g7",
    "H9-G7",
    "b0c2",
    "b9c7",
    "h0g2",
    "i9h9",
    "h7e7",
    "b2e2",
    "e3e4",
    "1.",
    "2.",
    "1...",
    "2…",
    "...",
    "(",
    ")",
    "{c}",
    "{",
    "}",
    ";x",
    "$1",
    "$",
    "!?",
    "!",
    "1-0",
    "0-1",
    "1/2-1/2",
    "*",
    "[",
    "]",
    "\"",
    "\\",
    "%",
    "[Event \"a\"]",
    "[Result \"1-0\"]",
    "[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1\"]",
    "[FEN \"x\"]",
    "炮二平五",
    "马８进７",
    "\u{3000}",
    "====",
    "x",
    "\u{FEFF}",
];
const SEPARATORS: &[&str] = &[" ", "\n", "", "\r\n", "\t", "\r"];

/// A small deterministic generator (xorshift), so that one proptest seed drives a whole record.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    /// Text mixing the characters that matter to PGN.
    fn text(&mut self, max_len: usize) -> String {
        const PIECES: &[&str] = &[
            "a", "Z", " ", "  ", "\n", "}", "{", ";", "(", ")", "\"", "\\", "%", "[", "]", "1-0",
            "*", "炮", "\u{3000}", "１", "\t", "$1",
        ];
        (0..self.below(max_len + 1))
            .map(|_| PIECES[self.below(PIECES.len())])
            .collect()
    }

    /// A random legal line of up to `max_len` moves from `pos`, with comments and (up to
    /// `depth` levels of) variations.
    fn line(&mut self, pos: &Position, max_len: usize, depth: usize) -> Vec<RecordMove> {
        let mut pos = pos.clone();
        let mut line = Vec::new();
        for _ in 0..self.below(max_len + 1) {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mut m = RecordMove::new(moves[self.below(moves.len())]);
            if self.chance(30) {
                m.comment = normalize_comment(&self.text(12));
            }
            while self.chance(15) {
                m.nags.push(self.below(256) as u8);
            }
            while depth > 0 && self.chance(15) {
                let mut variation = self.line(&pos, 4, depth - 1);
                // Only a variation's first move can have a comment before it.
                if let Some(first) = variation.first_mut().filter(|_| self.chance(30)) {
                    first.comment_before = normalize_comment(&self.text(12));
                }
                if !variation.is_empty() {
                    m.variations.push(variation);
                }
            }
            pos.make_move(m.mv);
            line.push(m);
        }
        line
    }
}

/// A random record in export form.
fn random_record(seed: u64) -> GameRecord {
    let mut rng = Rng(seed | 1);
    let starts = [
        crate::position::START_FEN,
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
        "r1bakab1r/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 4 7",
        "3k5/4a4/4b4/9/2p6/9/9/4B4/4A4/2R1K4 b - - 30 60",
    ];
    let start = Position::from_fen(starts[rng.below(starts.len())]).unwrap();
    let names = [
        "Event", "Red", "Opening", "ECCO", "Date", "Game", "红方", "FEN",
    ];
    let tags: Vec<(String, String)> = (0..rng.below(6))
        .map(|_| (names[rng.below(names.len())].to_owned(), rng.text(8)))
        .collect();
    let result = [None, Some("1-0"), Some("0-1"), Some("1/2-1/2")][rng.below(4)];
    let moves = rng.line(&start, 30, 3);
    let initial_comment = if rng.chance(40) {
        normalize_comment(&rng.text(20))
    } else {
        None
    };
    GameRecord {
        tags: export_tags(&tags, result),
        start,
        initial_comment,
        moves,
        result: result.map(str::to_owned),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..1500)) {
        let _ = read_pgn(&bytes, &IccsCodec);
        let _ = read_pgn(&bytes, &NotationCodec(Notation::Chinese));
    }

    #[test]
    fn random_text_never_panics(text in "\\PC{0,300}") {
        let _ = read_pgn_str(&text, &IccsCodec);
    }

    #[test]
    fn token_soups_never_panic_and_what_reads_round_trips(
        tokens in proptest::collection::vec(
            (proptest::sample::select(VOCABULARY), proptest::sample::select(SEPARATORS)),
            0..40,
        )
    ) {
        let text: String = tokens.iter().flat_map(|(t, s)| [*t, *s]).collect();
        if let Ok(games) = read_pgn_str(&text, &IccsCodec) {
            for game in &games {
                let written = write_pgn(game, &IccsCodec, "ICCS");
                let back = read_pgn_str(&written, &IccsCodec);
                prop_assert_eq!(back.as_ref(), Ok(&vec![game.clone()]), "{}\n{}", text, written);
            }
        }
    }

    #[test]
    fn random_records_round_trip(seed in any::<u64>()) {
        let game = random_record(seed);
        let written = write_pgn(&game, &IccsCodec, "ICCS");
        let back = read_pgn(written.as_bytes(), &IccsCodec);
        prop_assert_eq!(back.as_ref(), Ok(&vec![game.clone()]), "{}", written);
        for line in written.lines().filter(|l| !l.contains('{') && !l.contains(';')) {
            prop_assert!(line.chars().count() <= 80 || line.starts_with('['), "{}", line);
        }
    }
}
