//! The XQF decoder on the sample file and on damaged copies of it.

use super::*;

/// The sample game (shared/testdata/pgn/sample.xqf), or `None` when the shared folder is
/// absent (see [`crate::testdata`]).
fn sample_bytes() -> Option<Vec<u8>> {
    crate::testdata::read("sample.xqf")
}

/// Main line of the sample, checked move by move against
/// sample-from-xqf.pgn (e.g. 1. 炮八平五 = b2e2, 1... 炮８平５ = h7e7,
/// 23. 前马退二 = g8h6, 27. 后马进二 = g2h4, 38. 车五平七 = e9c9).
const SAMPLE_MOVES: [&str; 75] = [
    "b2e2", "h7e7", "e2e7", "g9e7", "h2e2", "h9g7", "h0g2", "i9h9", "b0c2", "b9a7", // 1-5
    "a0d0", "a9b9", "d0d8", "b7b0", "i0i4", "b0a0", "c2b4", "a0a4", "b4c2", "a4a0", // 6-10
    "c2b4", "b9b7", "e2b2", "a0a4", "b2b7", "a4i4", "b7g7", "h9h7", "g7g8", "h7h5", // 11-15
    "b4d5", "i4e4", "g8i8", "f9e8", "d5f6", "h5e5", "e0d0", "e5f5", "f6g8", "e9f9", // 16-20
    "d8d4", "e6e5", "d4d6", "e4g4", "g8h6", "e7g5", "h6g4", "e5e4", "d6g6", "e4f4", // 21-25
    "g6g9", "f9f8", "g2h4", "e8f7", "h4g6", "f8e8", "g6h8", "e8e7", "g9d9", "f7e8", // 26-30
    "h8g6", "f5f6", "d9d6", "f6g6", "d6g6", "f4g4", "g6e6", "e7f7", "d0e0", "f7f8", // 31-35
    "e6e8", "f8f9", "e8e9", "f9f8", "e9c9", // 36-38
];

/// Plies of the sample (0-based) that carry a comment in the PGN.
const SAMPLE_COMMENTED_PLIES: [usize; 11] = [1, 4, 11, 12, 13, 21, 23, 36, 56, 62, 74];

fn sample() -> Option<XqfRecord> {
    Some(parse_xqf(&sample_bytes()?).expect("sample decodes"))
}

#[test]
fn sample_start_position_and_tags() {
    let Some(record) = sample() else { return };
    assert_eq!(
        record.fen,
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/9/1C5C1/9/RN2K2NR w - - 0 1"
    );
    let tags: Vec<(&str, &str)> = record
        .tags
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    assert_eq!(
        tags,
        [
            ("Event", "许银川让九子对聂棋圣"),
            ("Site", "广州"),
            ("Date", "1999.12.09"),
            ("Red", "许银川"),
            ("Black", "聂卫平"),
            ("Result", "1-0"),
        ]
    );
}

#[test]
fn sample_main_line_matches_pgn() {
    let Some(record) = sample() else { return };
    let iccs: Vec<&str> = record.moves.iter().map(|m| m.iccs.as_str()).collect();
    assert_eq!(iccs, SAMPLE_MOVES);
    assert!(record.moves.iter().all(|m| m.variations.is_empty()));
}

#[test]
fn sample_comments_match_pgn() {
    let Some(record) = sample() else { return };
    let initial = record.initial_comment.expect("initial comment");
    assert!(initial.starts_with("\u{3000}\u{3000}象棋让九子原属茶余饭后的娱乐"));
    assert!(initial.contains("不敢掉以轻心。 \n\u{3000}\u{3000}许银川让去５只兵和双士双相"));
    assert!(initial.ends_with("执红先行。"));

    let commented: Vec<usize> = record
        .moves
        .iter()
        .enumerate()
        .filter_map(|(i, m)| m.comment.as_ref().map(|_| i))
        .collect();
    assert_eq!(commented, SAMPLE_COMMENTED_PLIES);
    assert_eq!(
        record.moves[1].comment.as_deref(),
        Some("\u{3000}\u{3000}红方首着架中炮必走之着，聂棋圣还架中炮拼兑子力，战术对头。")
    );
    assert_eq!(
        record.moves[74].comment.as_deref(),
        Some(
            "\u{3000}\u{3000}至此，聂棋圣认负。与此同时，另一盘围棋对弈我被屠去一条大龙，\
             已无力再战，遂平分秋色，皆大欢喜。"
        )
    );
}

#[test]
fn every_truncation_of_the_sample_is_an_error() {
    // The sample has no bytes after its move tree, so every proper
    // prefix lacks something.
    let Some(sample) = sample_bytes() else { return };
    for len in 0..sample.len() {
        assert!(parse_xqf(&sample[..len]).is_err(), "prefix of {len} bytes");
    }
}

#[test]
fn version_11_does_not_rotate_the_piece_table() {
    // Re-store the sample's piece table the version-11 way (unrotated)
    // and the start position must not change.
    let Some(sample) = sample_bytes() else { return };
    let keys = Keys::from_header(sample.first_chunk().unwrap()).unwrap();
    let rotation = usize::from(keys.piece) + 1;
    let mut bytes = sample.clone();
    bytes[OFF_VERSION] = 11;
    for i in 0..32 {
        bytes[OFF_PIECES + (i + rotation) % 32] = sample[OFF_PIECES + i];
    }
    let record = parse_xqf(&bytes).unwrap();
    assert_eq!(record, parse_xqf(&sample).unwrap());
}

// ----- Hand-built unencrypted (version 10) files -----

/// Square byte of an ICCS square name.
fn square(name: &str) -> u8 {
    let b = name.as_bytes();
    (b[0] - b'a') * 10 + (b[1] - b'0')
}

/// A version-10 header with the standard start position.
fn old_header() -> Vec<u8> {
    let mut header = vec![0u8; HEADER_LEN];
    header[..3].copy_from_slice(b"XQ\x0a");
    let squares = [
        "a0", "b0", "c0", "d0", "e0", "f0", "g0", "h0", "i0", "b2", "h2", "a3", "c3", "e3", "g3",
        "i3", "a9", "b9", "c9", "d9", "e9", "f9", "g9", "h9", "i9", "b7", "h7", "a6", "c6", "e6",
        "g6", "i6",
    ];
    for (i, name) in squares.iter().enumerate() {
        header[OFF_PIECES + i] = square(name);
    }
    header[OFF_RESULT] = 3;
    let title = encoding_rs::GBK.encode("测试").0;
    header[0x50] = title.len() as u8;
    header[0x51..0x51 + title.len()].copy_from_slice(&title);
    header[0x1E0] = 3;
    header[0x1E1..0x1E4].copy_from_slice(b"me ");
    header
}

/// A version-10 node: squares, "next"/"sibling" flags (any bit of the
/// nibble counts, so unusual bits are used), and a comment.
fn old_node(from: &str, to: &str, next: bool, sibling: bool, comment: &str) -> Vec<u8> {
    let text = encoding_rs::GBK.encode(comment).0;
    let flags = if next { 0x10 } else { 0 } | if sibling { 0x04 } else { 0 };
    let mut node = vec![
        square(from) + FROM_SQUARE_BIAS,
        square(to) + TO_SQUARE_BIAS,
        flags,
        0,
    ];
    node.extend_from_slice(&(text.len() as u32).to_le_bytes());
    node.extend_from_slice(&text);
    node
}

fn mv(iccs: &str, comment: Option<&str>, variations: Vec<Vec<XqfMove>>) -> XqfMove {
    XqfMove {
        iccs: iccs.to_owned(),
        comment: comment.map(str::to_owned),
        variations,
    }
}

#[test]
fn old_version_with_variations() {
    // Tree, in file (pre-)order:
    //   root -> h2e2 -> h9g7          main line
    //                   h9g7 | b7e7   alternative to h9g7
    //           h2e2 | b2e2 -> b9c7   alternatives to h2e2 ...
    //                | h0g2           ... chained as siblings
    let mut bytes = old_header();
    for node in [
        old_node("a0", "a0", true, false, "开局\r\n"),
        old_node("h2", "e2", true, true, "中炮"),
        old_node("h9", "g7", false, true, ""),
        old_node("b7", "e7", false, false, ""),
        old_node("b2", "e2", true, true, ""),
        old_node("b9", "c7", false, false, " \r\n"),
        old_node("h0", "g2", false, false, ""),
    ] {
        bytes.extend(node);
    }
    let record = parse_xqf(&bytes).unwrap();
    assert_eq!(
        record.fen,
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
    );
    assert_eq!(
        record.tags,
        [
            ("Result".to_owned(), "1/2-1/2".to_owned()),
            ("Title".to_owned(), "测试".to_owned()),
            ("Author".to_owned(), "me".to_owned()),
        ]
    );
    assert_eq!(record.initial_comment.as_deref(), Some("开局"));
    assert_eq!(
        record.moves,
        [
            mv(
                "h2e2",
                Some("中炮"),
                vec![
                    vec![mv("b2e2", None, vec![]), mv("b9c7", None, vec![])],
                    vec![mv("h0g2", None, vec![])],
                ],
            ),
            mv("h9g7", None, vec![vec![mv("b7e7", None, vec![])]]),
        ]
    );
}

#[test]
fn empty_game_has_no_moves() {
    let mut bytes = old_header();
    bytes.extend(old_node("a0", "a0", false, false, ""));
    let record = parse_xqf(&bytes).unwrap();
    assert!(record.moves.is_empty());
    assert_eq!(record.initial_comment, None);
}

#[test]
fn deeply_nested_variations_are_rejected_not_a_stack_overflow() {
    // Each pair "m (next) -> n (sibling)" opens one more level: n's
    // alternative is again such a pair, and so on.
    let mut bytes = old_header();
    bytes.extend(old_node("a0", "a0", true, false, ""));
    for _ in 0..100_000 {
        bytes.extend(old_node("h2", "e2", true, false, ""));
        bytes.extend(old_node("h9", "g7", false, true, ""));
    }
    assert!(matches!(parse_xqf(&bytes), Err(XqfError::TooDeep { .. })));
}

#[test]
fn long_main_line_is_fine() {
    let mut bytes = old_header();
    bytes.extend(old_node("a0", "a0", true, false, ""));
    for i in 0..100_000 {
        bytes.extend(old_node("h2", "e2", i + 1 < 100_000, false, ""));
    }
    assert_eq!(parse_xqf(&bytes).unwrap().moves.len(), 100_000);
}

#[test]
fn specific_errors() {
    assert!(matches!(parse_xqf(b""), Err(XqfError::Truncated { .. })));
    assert!(matches!(parse_xqf(b"PK\x03\x04"), Err(XqfError::NotXqf)));
    assert!(matches!(
        parse_xqf(b"XQ\x13"),
        Err(XqfError::UnsupportedVersion(19))
    ));

    if let Some(mut bad_checksum) = sample_bytes() {
        bad_checksum[OFF_KEY_XY] ^= 1;
        assert!(matches!(
            parse_xqf(&bad_checksum),
            Err(XqfError::BadKeyChecksum { .. })
        ));
    }

    let mut bad_side = old_header();
    bad_side[OFF_SIDE_TO_MOVE] = 2;
    bad_side.extend(old_node("a0", "a0", false, false, ""));
    assert!(matches!(
        parse_xqf(&bad_side),
        Err(XqfError::BadSideToMove { value: 2, .. })
    ));

    let mut overlap = old_header();
    overlap[OFF_PIECES + 1] = square("a0");
    overlap.extend(old_node("a0", "a0", false, false, ""));
    let err = parse_xqf(&overlap).unwrap_err();
    assert!(matches!(err, XqfError::PiecesOverlap { offset: 0x11, .. }));
    assert!(err.to_string().contains("a0"), "{err}");

    let mut long_string = old_header();
    long_string[0x110] = 16; // the date field holds 15 bytes
    long_string.extend(old_node("a0", "a0", false, false, ""));
    assert!(matches!(
        parse_xqf(&long_string),
        Err(XqfError::BadStringLength {
            offset: 0x110,
            len: 16,
            capacity: 15
        })
    ));

    let mut bad_square = old_header();
    bad_square.extend(old_node("a0", "a0", true, false, ""));
    let mut node = old_node("a0", "a0", false, false, "");
    node[1] = 90 + TO_SQUARE_BIAS;
    bad_square.extend(node);
    let err = parse_xqf(&bad_square).unwrap_err();
    assert!(
        matches!(
            err,
            XqfError::BadSquare {
                offset: 0x409,
                value: 90
            }
        ),
        "{err}"
    );
}

#[test]
fn negative_comment_length_is_an_error() {
    // In the encrypted sample, the root's comment length is stored
    // plus a key; storing exactly zero there makes it negative.
    let Some(sample) = sample_bytes() else { return };
    let mut bytes = sample.clone();
    for i in 0..4 {
        bytes[HEADER_LEN + 4 + i] = Keys::from_header(sample.first_chunk().unwrap())
            .unwrap()
            .stream[4 + i];
    }
    assert!(matches!(
        parse_xqf(&bytes),
        Err(XqfError::BadCommentLength { offset: 0x404, .. })
    ));
}

/// Deterministic xorshift64 generator, enough for fuzzing.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn byte(&mut self) -> u8 {
        self.next() as u8
    }
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..3000 {
        let len = rng.below(3000);
        let mut bytes: Vec<u8> = (0..len).map(|_| rng.byte()).collect();
        // Mostly give it a plausible magic and version so that the
        // deeper code is reached too.
        if len >= 3 && rng.below(8) != 0 {
            bytes[..2].copy_from_slice(b"XQ");
            bytes[2] = rng.below(usize::from(MAX_VERSION) + 1) as u8;
        }
        let _ = parse_xqf(&bytes);
    }
}

#[test]
fn random_tails_after_valid_headers_never_panic() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    // Without the shared sample, only the hand-built header is used.
    let sample = sample_bytes();
    for round in 0..3000 {
        let mut bytes = match &sample {
            Some(sample) if round % 2 == 0 => sample[..HEADER_LEN].to_vec(),
            _ => old_header(),
        };
        let len = rng.below(400);
        bytes.extend((0..len).map(|_| rng.byte()));
        let _ = parse_xqf(&bytes);
    }
}

#[test]
fn mutated_sample_never_panics() {
    let Some(sample) = sample_bytes() else { return };
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    let mut decoded = 0;
    for _ in 0..5000 {
        let mut bytes = sample.clone();
        for _ in 0..=rng.below(4) {
            let at = rng.below(bytes.len());
            bytes[at] = rng.byte();
        }
        if parse_xqf(&bytes).is_ok() {
            decoded += 1;
        }
    }
    // Some mutations (in unused header bytes, comments) are harmless.
    assert!(decoded > 0);
}

#[test]
fn errors_say_where() {
    let Some(sample) = sample_bytes() else { return };
    let err = parse_xqf(&sample[..HEADER_LEN + 6]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "XQF data truncated: comment length at offset 0x404 runs past the end of the file"
    );
}
