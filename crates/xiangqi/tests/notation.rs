//! Move notations: reference examples, the conventions for pieces sharing a file, round trips over
//! many positions (every legal move, every notation, unique strings), errors, and property tests.

use proptest::prelude::*;
use std::collections::HashSet;
use xiangqi::notation::{detect_notation, ParseNotationError};
use xiangqi::{
    format_move, parse_move, parse_move_as, Move, Notation, NotationError, Position, Validation,
    START_FEN,
};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn mv(text: &str) -> Move {
    Move::new(text[..2].parse().unwrap(), text[2..].parse().unwrap())
}

/// The start position with Black to move.
fn start_black() -> Position {
    pos(&START_FEN.replace(" w ", " b "))
}

/// FENs from the shared reference (perft positions).
const REFERENCE_FENS: [&str; 4] = [
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
    "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
];

/// Positions with several pieces of one kind on one file.
const DOUBLED_FENS: [&str; 6] = [
    // Two red chariots on file a; two black horses on file c.
    "r1bakab1r/9/1cn4c1/p1p1p1p1p/2n6/9/P1P1P1P1P/1C5C1/R8/R1BAKABN1 w - - 0 1",
    // Three red soldiers on file c.
    "3akab2/r8/2P1c4/2P6/2P3p2/4p4/4P1P2/1R5N1/4A4/3AK4 w - - 0 1",
    // Five red soldiers on file c.
    "4k3r/2P1a4/2P6/2P6/2P6/2P6/9/7C1/9/3K5 w - - 0 1",
    // Four on file c and one more.
    "4k3r/2P1a4/2P6/2P6/2P6/9/6P2/7C1/9/3K5 w - - 0 1",
    // Three on file c and two on file g.
    "3ak4/4a4/2P6/2P3P2/2P3P2/9/9/1C7/r8/3K1R3 w - - 0 1",
    // Two on file c, two on file e, one alone.
    "4k4/r7r/9/2P1P4/2P1P4/9/6P2/9/9/3K5 w - - 0 1",
];

/// Every legal move of `p` in every notation: strings unique, and both parsers read them back.
fn check_round_trip(p: &Position) {
    let legal = p.legal_moves();
    for notation in Notation::ALL {
        let mut seen = HashSet::new();
        for &m in legal.iter() {
            let text = format_move(p, m, notation);
            let ctx = || format!("{m} as {notation} {text:?} in {}", p.to_fen());
            assert!(seen.insert(text.clone()), "duplicate: {}", ctx());
            assert_eq!(parse_move_as(p, &text, notation), Ok(m), "{}", ctx());
            // Ranks 1-10 without a "10" look like ICCS: only parse_move_as can read those.
            if notation != Notation::UciRanks1To10 || text.contains("10") {
                assert_eq!(parse_move(p, &text), Ok(m), "auto: {}", ctx());
            }
        }
    }
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}

/// Plays up to `plies` random legal moves from `p`, checking the round trip in every position.
/// Returns how many positions were checked and how many legal moves needed front/rear words.
fn playout(mut p: Position, seed: u64, plies: usize) -> (usize, usize) {
    let mut rng = Rng(seed | 1);
    let (mut checked, mut tandem) = (0, 0);
    for _ in 0..=plies {
        check_round_trip(&p);
        checked += 1;
        tandem += p
            .legal_moves()
            .iter()
            .filter(|&&m| {
                let text = format_move(&p, m, Notation::Chinese);
                text.starts_with(['前', '中', '后', '一', '二', '三', '四', '五'])
            })
            .count();
        let legal = p.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.below(legal.len())];
        p.make_move(m);
    }
    (checked, tandem)
}

#[test]
fn reference_examples() {
    let red = Position::startpos();
    let black = start_black();
    // After 1. 马二进三 马８进７ the chariot can go to h0.
    let mut developed = Position::startpos();
    developed.make_move(mv("h0g2"));
    developed.make_move(mv("h9g7"));
    // After 1. 炮二平五 马８进７ the central cannon can take the centre soldier.
    let mut central = Position::startpos();
    central.make_move(mv("h2e2"));
    central.make_move(mv("h9g7"));
    let cases: [(&Position, &str, &str, &str); 6] = [
        (&red, "h2e2", "炮二平五", "C2.5"),
        (&black, "h7e7", "炮８平５", "C8.5"),
        (&black, "h9g7", "马８进７", "H8+7"),
        (&red, "b0c2", "马八进七", "H8+7"),
        (&developed, "i0h0", "车一平二", "R1.2"),
        (&central, "e2e6", "炮五进四", "C5+4"),
    ];
    for (p, iccs, chinese, wxf) in cases {
        let m = mv(iccs);
        assert_eq!(format_move(p, m, Notation::Chinese), chinese);
        assert_eq!(format_move(p, m, Notation::Wxf), wxf);
        assert_eq!(format_move(p, m, Notation::Iccs), iccs);
        assert_eq!(
            format_move(p, m, Notation::IccsPgn),
            format!("{}-{}", &iccs[..2], &iccs[2..]).to_uppercase()
        );
        for text in [chinese, wxf, iccs] {
            assert_eq!(parse_move(p, text), Ok(m), "{text}");
        }
    }
    // Black written with ASCII digits or Chinese numerals, and traditional characters.
    for text in ["炮8平5", "炮８平５", "砲8平5", "炮八平五", "包８平５"] {
        assert_eq!(parse_move(&black, text), Ok(mv("h7e7")), "{text}");
    }
    for text in ["馬8進7", "马８进７", "H8+7", "N8+7", "h8+7"] {
        assert_eq!(parse_move(&black, text), Ok(mv("h9g7")), "{text}");
    }
    for text in ["俥一平二", "車一平二", "车1平2", "R1.2", "R1=2"] {
        assert_eq!(parse_move(&developed, text), Ok(mv("i0h0")), "{text}");
    }
    for text in [
        "C2.5",
        "C2=5",
        "H2-E2",
        "h2-e2",
        "h2e2",
        " h2e2 ",
        "砲二平五",
        "炮２平５",
    ] {
        assert_eq!(parse_move(&red, text), Ok(mv("h2e2")), "{text}");
    }
    assert_eq!(
        parse_move_as(&red, "H2-E2", Notation::IccsPgn),
        Ok(mv("h2e2"))
    );
    assert_eq!(
        parse_move_as(&red, "h2e2", Notation::IccsPgn),
        Ok(mv("h2e2"))
    );
}

#[test]
fn uci_ranks_one_to_ten() {
    let red = Position::startpos();
    assert_eq!(
        format_move(&red, mv("h2e2"), Notation::UciRanks1To10),
        "h3e3"
    );
    assert_eq!(
        parse_move_as(&red, "h3e3", Notation::UciRanks1To10),
        Ok(mv("h2e2"))
    );
    let black = start_black();
    assert_eq!(
        format_move(&black, mv("a9a8"), Notation::UciRanks1To10),
        "a10a9"
    );
    assert_eq!(parse_move(&black, "a10a9"), Ok(mv("a9a8")));
    assert_eq!(detect_notation("a10a9"), Some(Notation::UciRanks1To10));
    assert_eq!(detect_notation("h3e3"), Some(Notation::Iccs));
    assert!(matches!(
        parse_move_as(&red, "h0e0", Notation::UciRanks1To10),
        Err(NotationError::Malformed { .. })
    ));
    assert!(matches!(
        parse_move_as(&red, "a11a10", Notation::UciRanks1To10),
        Err(NotationError::Malformed { .. })
    ));
}

#[test]
fn notation_names() {
    for n in Notation::ALL {
        assert_eq!(n.to_string().parse::<Notation>(), Ok(n));
    }
    assert_eq!("uci".parse::<Notation>(), Ok(Notation::Iccs));
    assert_eq!("ICCS".parse::<Notation>(), Ok(Notation::Iccs));
    assert_eq!("uci1".parse::<Notation>(), Ok(Notation::UciRanks1To10));
    assert_eq!("ranks1-10".parse::<Notation>(), Ok(Notation::UciRanks1To10));
    assert_eq!("wxf".parse::<Notation>(), Ok(Notation::Wxf));
    assert_eq!("chinese".parse::<Notation>(), Ok(Notation::Chinese));
    assert_eq!(
        "san".parse::<Notation>(),
        Err(ParseNotationError("san".to_string()))
    );
}

/// Asserts the Chinese and WXF forms of moves in a position, and that each alias reads back.
fn assert_forms(fen: &str, black: bool, cases: &[(&str, &str, &str)]) {
    let mut p = pos(fen);
    if black {
        p = p.mirror_colors();
    }
    for &(iccs, chinese, wxf) in cases {
        let m = mv(iccs);
        assert!(p.is_legal(m), "{iccs} in {}", p.to_fen());
        assert_eq!(format_move(&p, m, Notation::Chinese), chinese, "{iccs}");
        assert_eq!(format_move(&p, m, Notation::Wxf), wxf, "{iccs}");
        assert_eq!(parse_move(&p, chinese), Ok(m));
        assert_eq!(parse_move(&p, wxf), Ok(m));
    }
}

#[test]
fn two_pieces_on_a_file() {
    // Red chariots a1 (front) and a0; the plain file is ambiguous when both can go.
    let fen = DOUBLED_FENS[0];
    assert_forms(
        fen,
        false,
        &[
            ("a1a2", "前车进一", "R++1"),
            ("a0b0", "后车平八", "R-.8"),
            ("a1d1", "前车平六", "R+.6"),
        ],
    );
    let p = pos(fen);
    assert_eq!(parse_move(&p, "车前平六"), Ok(mv("a1d1")), "older order");
    assert_eq!(parse_move(&p, "後車平八"), Ok(mv("a0b0")));
    // Black horses c5 (front: lower rank for Black) and c7.
    let black = pos(&fen.replace(" w ", " b "));
    for (iccs, chinese, wxf) in [("c5b3", "前马进２", "H++2"), ("c7b9", "后马退２", "H--2")]
    {
        assert_eq!(format_move(&black, mv(iccs), Notation::Chinese), chinese);
        assert_eq!(format_move(&black, mv(iccs), Notation::Wxf), wxf);
        assert_eq!(parse_move(&black, chinese), Ok(mv(iccs)));
    }
    // Advisors and elephants keep their file: direction tells the two apart.
    let p = pos("2b1k4/4a4/3a5/9/9/2B6/9/3A5/9/2BAK4 w - - 0 1");
    assert_forms(
        "2b1k4/4a4/3a5/9/9/2B6/9/3A5/9/2BAK4 w - - 0 1",
        false,
        &[
            ("c0e2", "相七进五", "E7+5"),
            ("c4e2", "相七退五", "E7-5"),
            ("d0e1", "仕六进五", "A6+5"),
            ("d2e1", "仕六退五", "A6-5"),
        ],
    );
    check_round_trip(&p);
}

#[test]
fn elephants_that_direction_cannot_tell_apart() {
    // A composed position: elephants on c2 and c4 can both retreat to file 九.
    let fen = "3k5/9/9/9/9/2B6/9/2B6/9/4K4 w - - 0 1";
    assert!(
        Position::from_fen(fen).is_err(),
        "c2 is unreachable in a game"
    );
    let p = Position::from_fen_with(fen, Validation::Lenient).unwrap();
    for (iccs, chinese, wxf) in [
        ("c4a2", "前相退九", "E+-9"),
        ("c2a0", "后相退九", "E--9"),
        ("c4e2", "相七退五", "E7-5"),
        ("c2a4", "相七进九", "E7+9"),
    ] {
        assert_eq!(format_move(&p, mv(iccs), Notation::Chinese), chinese);
        assert_eq!(format_move(&p, mv(iccs), Notation::Wxf), wxf);
    }
    assert!(matches!(
        parse_move(&p, "相七退九"),
        Err(NotationError::Ambiguous { count: 2, .. })
    ));
    check_round_trip(&p);
    check_round_trip(&p.mirror_colors());
}

#[test]
fn three_soldiers_on_a_file() {
    let cases = [
        ("c7d7", "前兵平六", "P+.6"),
        ("c6d6", "中兵平六", "P7.6"),
        ("c5b5", "后兵平八", "P-.8"),
        ("c7c8", "前兵进一", "P++1"),
        ("g3g4", "兵三进一", "P3+1"),
    ];
    assert_forms(DOUBLED_FENS[1], false, &cases);
    // The same for Black, mirrored: files and front are Black's own.
    assert_forms(
        DOUBLED_FENS[1],
        true,
        &[
            ("c2d2", "前卒平４", "P+.4"),
            ("c3d3", "中卒平４", "P3.4"),
            ("c4b4", "后卒平２", "P-.2"),
            ("c2c1", "前卒进１", "P++1"),
        ],
    );
}

#[test]
fn four_and_five_soldiers_on_a_file() {
    assert_forms(
        DOUBLED_FENS[2],
        false,
        &[
            ("c8d8", "一兵平六", "++.6"),
            ("c8c9", "一兵进一", "+++1"),
            ("c7d7", "二兵平六", "P+.6"),
            ("c6d6", "三兵平六", "P7.6"),
            ("c5d5", "四兵平六", "P-.6"),
        ],
    );
    assert_forms(
        DOUBLED_FENS[3],
        false,
        &[
            ("c8b8", "一兵平八", "++.8"),
            ("c7b7", "二兵平八", "P+.8"),
            ("c6b6", "三兵平八", "P-.8"),
            ("c5b5", "四兵平八", "--.8"),
        ],
    );
    // Ordinals stay Chinese numerals for Black (xqbase: 一卒平５).
    assert_forms(
        DOUBLED_FENS[2],
        true,
        &[("c1d1", "一卒平４", "++.4"), ("c4b4", "四卒平２", "P-.2")],
    );
    // 前 and 后 for the ends are read too.
    let p = pos(DOUBLED_FENS[3]);
    assert_eq!(parse_move(&p, "前兵平六"), Ok(mv("c8d8")));
    assert_eq!(parse_move(&p, "后兵平六"), Ok(mv("c5d5")));
}

#[test]
fn soldiers_doubled_on_two_files() {
    assert_forms(
        DOUBLED_FENS[4],
        false,
        &[
            ("c7d7", "前兵七平六", "7+.6"),
            ("c6d6", "中兵七平六", "77.6"),
            ("c5d5", "后兵七平六", "7-.6"),
            ("g6f6", "前兵三平四", "3+.4"),
            ("g5f5", "后兵三平四", "3-.4"),
            ("g6g7", "前兵三进一", "3++1"),
        ],
    );
    let p = pos(DOUBLED_FENS[4]);
    // The short traditional form without the piece.
    assert_eq!(parse_move(&p, "前七平六"), Ok(mv("c7d7")));
    // xqbase numbers across both files: files from Red's right (三 before 七), front to back.
    assert_eq!(parse_move(&p, "一兵平四"), Ok(mv("g6f6")));
    assert_eq!(parse_move(&p, "二兵平四"), Ok(mv("g5f5")));
    assert_eq!(parse_move(&p, "三兵平六"), Ok(mv("c7d7")));
    assert_eq!(parse_move(&p, "五兵平六"), Ok(mv("c5d5")));
    // Without the file, 前兵 fits a soldier on either file.
    assert!(matches!(
        parse_move(&p, "前兵平六"),
        Ok(m) if m == mv("c7d7")
    ));
    assert!(matches!(
        parse_move(&p, "P+.2"),
        Ok(m) if m == mv("g6h6")
    ));
    assert_forms(
        DOUBLED_FENS[5],
        true,
        &[
            ("c3c2", "前卒３进１", "3++1"),
            ("e4f4", "后卒５平６", "5-.6"),
            ("g6g5", "卒７进１", "P7+1"),
        ],
    );
}

#[test]
fn ambiguous_text() {
    // Both red chariots on file 九 (a0, a1) can go sideways.
    let p = pos(DOUBLED_FENS[0]);
    for text in ["车九平八", "車九平八", "R9.8", "R9=8"] {
        assert!(
            matches!(
                parse_move(&p, text),
                Err(NotationError::Ambiguous { count: 2, .. })
            ),
            "{text}: {:?}",
            parse_move(&p, text)
        );
    }
    // Two doubled files: without the file, the front soldiers of both can go to file 六.
    let p = pos(DOUBLED_FENS[5]);
    assert!(matches!(
        parse_move(&p, "前兵平六"),
        Err(NotationError::Ambiguous { count: 2, .. })
    ));
    assert!(matches!(
        parse_move(&p, "P+.6"),
        Err(NotationError::Ambiguous { count: 2, .. })
    ));
    // Three on one file: the plain file does not say which.
    let p = pos(DOUBLED_FENS[1]);
    assert!(matches!(
        parse_move(&p, "兵七平六"),
        Err(NotationError::Ambiguous { count: 3, .. })
    ));
}

#[test]
fn errors() {
    let p = Position::startpos();
    let malformed = [
        "",
        "   ",
        "hello",
        "h2",
        "h2e",
        "h2e2e2",
        "C2*5",
        "C2.0",
        "C2.",
        "炮二",
        "炮二平",
        "炮二平五五",
        "炮二走五",
        "++.",
        "3x.4",
        "12.4",
        "+-.4",
        "?",
        "h2--e2",
    ];
    for text in malformed {
        let r = parse_move(&p, text);
        assert!(
            matches!(r, Err(NotationError::Malformed { .. })),
            "{text:?}: {r:?}"
        );
    }
    for (text, piece) in [
        ("Z2.5", 'Z'),
        ("狗二平五", '狗'),
        ("前狗平五", '狗'),
        ("G5+1", 'G'),
        ("j0j1", 'j'),
    ] {
        let r = parse_move(&p, text);
        assert_eq!(
            r,
            Err(NotationError::UnknownPiece {
                text: text.to_string(),
                piece
            }),
            "{text}"
        );
    }
    for text in [
        "炮三平五",
        "C3.5",
        "前炮平五",
        "C+.5",
        "e5e6",
        "E5-E6",
        "兵二进一",
        "++.4",
    ] {
        let r = parse_move(&p, text);
        assert!(
            matches!(r, Err(NotationError::NoSuchPiece { .. })),
            "{text:?}: {r:?}"
        );
    }
    for text in [
        "h2h8",
        "炮二进九",
        "炮二平二",
        "马二进二",
        "马二进五",
        "C2+6",
        "e0e2",
        "i0i4",
    ] {
        let r = parse_move(&p, text);
        assert!(
            matches!(r, Err(NotationError::IllegalMove { .. })),
            "{text:?}: {r:?}"
        );
    }
    // The text of a move of the wrong side is not there for the side to move.
    assert!(matches!(
        parse_move(&p, "h7e7"),
        Err(NotationError::NoSuchPiece { .. })
    ));
    // Messages carry the offending text.
    let e = parse_move(&p, "炮三平五").unwrap_err();
    assert!(e.to_string().contains("炮三平五"), "{e}");
    // Notation names the wrong shape.
    assert!(matches!(
        parse_move_as(&p, "h2e2", Notation::Wxf),
        Err(NotationError::Malformed { .. })
    ));
    assert!(matches!(
        parse_move_as(&p, "C2.5", Notation::Iccs),
        Err(NotationError::Malformed { .. })
    ));
    assert!(matches!(
        parse_move_as(&p, "h2e2", Notation::Chinese),
        Err(NotationError::Malformed { .. })
    ));
}

#[test]
fn round_trip_fixed_positions() {
    let mut positions = vec![Position::startpos(), start_black()];
    for fen in REFERENCE_FENS.iter().chain(DOUBLED_FENS.iter()) {
        let p = pos(fen);
        positions.push(p.mirror_colors());
        positions.push(p);
    }
    for p in &positions {
        check_round_trip(p);
    }
}

#[test]
fn round_trip_playouts() {
    let mut starts = vec![Position::startpos()];
    for fen in REFERENCE_FENS.iter().chain(DOUBLED_FENS.iter()) {
        let p = pos(fen);
        starts.push(p.mirror_colors());
        starts.push(p);
    }
    let (mut checked, mut tandem) = (0, 0);
    for (i, start) in starts.into_iter().enumerate() {
        for seed in 0..4u64 {
            let (c, t) = playout(start.clone(), 0x9E37_79B9 * (i as u64 + 1) + seed, 150);
            checked += c;
            tandem += t;
        }
    }
    assert!(checked > 3000, "only {checked} positions checked");
    assert!(
        tandem > 1000,
        "only {tandem} moves of pieces sharing a file"
    );
}

/// Characters that make up moves in the notations, to steer random texts near real ones.
const ALPHABET: &[char] = &[
    'a', 'e', 'h', 'i', 'j', 'A', 'C', 'E', 'H', 'K', 'N', 'P', 'R', 'Z', '0', '1', '2', '5', '9',
    '+', '-', '.', '=', ' ', '前', '中', '后', '後', '一', '二', '三', '五', '九', '炮', '马',
    '車', '兵', '卒', '相', '仕', '帅', '进', '退', '平', '８', '１', 'é', '\u{0}',
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn random_playouts_round_trip(seed in any::<u64>(), plies in 0usize..150, fen in 0usize..11) {
        let start = match fen {
            0 => Position::startpos(),
            1..=6 => pos(DOUBLED_FENS[fen - 1]),
            _ => pos(DOUBLED_FENS[fen - 7]).mirror_colors(),
        };
        playout(start, seed, plies);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn parsing_never_panics(
        text in ".{0,12}",
        chars in prop::collection::vec(prop::sample::select(ALPHABET), 0..8),
        bytes in prop::collection::vec(any::<u8>(), 0..10),
        fen in 0usize..6,
    ) {
        let p = pos(DOUBLED_FENS[fen]);
        let near: String = chars.into_iter().collect();
        let raw: String = bytes.into_iter().map(char::from).collect();
        for t in [&text, &near, &raw] {
            if let Ok(m) = parse_move(&p, t) {
                prop_assert!(p.is_legal(m));
            }
            for n in Notation::ALL {
                if let Ok(m) = parse_move_as(&p, t, n) {
                    prop_assert!(p.is_legal(m));
                }
            }
        }
    }
}
