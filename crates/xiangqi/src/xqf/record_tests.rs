//! [`record_from_xqf`] on small hand-built XQF files (version 10: stored in the clear).

use super::*;
use crate::pgn::tests::assert_round_trip;
use crate::piece::Color;
use crate::testdata;

/// Square byte of an ICCS square name: `file * 10 + rank`.
fn square(name: &str) -> u8 {
    let b = name.as_bytes();
    (b[0] - b'a') * 10 + (b[1] - b'0')
}

/// A version-10 header: pieces in the XQF order `RNBAKABNRCCPPPPP` for Red then Black, each
/// given a square name or `None` (off the board); result byte 1 (Red won).
fn header(squares: [Option<&str>; 32]) -> Vec<u8> {
    let mut h = vec![0u8; 1024];
    h[..3].copy_from_slice(b"XQ\x0a");
    for (i, sq) in squares.iter().enumerate() {
        h[0x10 + i] = sq.map_or(0xFF, square);
    }
    h[0x33] = 1;
    let event = encoding_rs::GBK.encode("测试赛").0;
    h[0xD0] = event.len() as u8;
    h[0xD1..0xD1 + event.len()].copy_from_slice(&event);
    h
}

const START: [Option<&str>; 32] = [
    Some("a0"),
    Some("b0"),
    Some("c0"),
    Some("d0"),
    Some("e0"),
    Some("f0"),
    Some("g0"),
    Some("h0"),
    Some("i0"),
    Some("b2"),
    Some("h2"),
    Some("a3"),
    Some("c3"),
    Some("e3"),
    Some("g3"),
    Some("i3"),
    Some("a9"),
    Some("b9"),
    Some("c9"),
    Some("d9"),
    Some("e9"),
    Some("f9"),
    Some("g9"),
    Some("h9"),
    Some("i9"),
    Some("b7"),
    Some("h7"),
    Some("a6"),
    Some("c6"),
    Some("e6"),
    Some("g6"),
    Some("i6"),
];

/// A version-10 move node: squares, whether a continuation and a sibling follow, comment.
fn node(from: &str, to: &str, next: bool, sibling: bool, comment: &str) -> Vec<u8> {
    let text = encoding_rs::GBK.encode(comment).0;
    let flags = if next { 0xF0 } else { 0 } | if sibling { 0x0F } else { 0 };
    let mut n = vec![square(from) + 0x18, square(to) + 0x20, flags, 0];
    n.extend_from_slice(&(text.len() as u32).to_le_bytes());
    n.extend_from_slice(&text);
    n
}

fn file(nodes: &[Vec<u8>]) -> Vec<u8> {
    let mut bytes = header(START);
    for n in nodes {
        bytes.extend_from_slice(n);
    }
    bytes
}

#[test]
fn moves_comments_and_variations() {
    // root -> h2e2 -> h9g7, and b2e2 -> b9c7 as the alternative to h2e2.
    let bytes = file(&[
        node("a0", "a0", true, false, " 开局\r\n"),
        node("h2", "e2", true, true, "中炮"),
        node("h9", "g7", false, false, ""),
        node("b2", "e2", true, false, ""),
        node("b9", "c7", false, false, "\u{3000}屏风马 \r\n"),
    ]);
    let game = record_from_xqf(&bytes).unwrap();
    assert_eq!(game.start, crate::position::Position::startpos());
    assert_eq!(game.initial_comment.as_deref(), Some("开局"));
    assert_eq!(game.tag("Event"), Some("测试赛"));
    assert_eq!(game.result.as_deref(), Some("1-0"));
    assert_eq!(game.tag("Result"), Some("1-0"));
    let main: Vec<String> = game.main_line().iter().map(|m| m.to_string()).collect();
    assert_eq!(main, ["h2e2", "h9g7"]);
    assert_eq!(game.moves[0].comment.as_deref(), Some("中炮"));
    let variation = &game.moves[0].variations[0];
    assert_eq!(variation[0].mv.to_string(), "b2e2");
    assert_eq!(variation[1].comment.as_deref(), Some("\u{3000}屏风马"));
    assert_round_trip(&game);
}

#[test]
fn illegal_moves_are_errors() {
    let bytes = file(&[
        node("a0", "a0", true, false, ""),
        node("h2", "e3", false, false, ""),
    ]);
    let e = record_from_xqf(&bytes).unwrap_err();
    assert!(
        matches!(&e, XqfImportError::IllegalMove { line: "main line", mv, number: 1, side: Color::Red, .. } if mv == "h2e3"),
        "{e}"
    );
    assert!(
        e.to_string()
            .contains("h2e3: a piece cannot capture one of its own side"),
        "{e}"
    );

    // The alternative to Black's h9g7 is a Red move.
    let bytes = file(&[
        node("a0", "a0", true, false, ""),
        node("h2", "e2", true, false, ""),
        node("h9", "g7", false, true, ""),
        node("h0", "g2", false, false, ""),
    ]);
    let e = record_from_xqf(&bytes).unwrap_err();
    assert!(
        matches!(
            &e,
            XqfImportError::IllegalMove {
                line: "variation",
                side: Color::Black,
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn undecodable_files_and_bad_start_positions() {
    assert!(matches!(
        record_from_xqf(b"PK\x03\x04"),
        Err(XqfImportError::Decode(XqfError::NotXqf))
    ));
    let mut generals_only = [None; 32];
    generals_only[4] = Some("e0");
    generals_only[20] = Some("e9");
    let mut bytes = header(generals_only);
    bytes.extend(node("a0", "a0", false, false, ""));
    let e = record_from_xqf(&bytes).unwrap_err();
    assert!(
        matches!(
            &e,
            XqfImportError::Start {
                error: crate::fen::FenError::GeneralsFacing,
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn sample_xqf_converts_and_round_trips() {
    let Some(xqf) = testdata::read("sample.xqf") else {
        return;
    };
    let game = record_from_xqf(&xqf).unwrap();
    assert_eq!(
        game.start.to_fen(),
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/9/1C5C1/9/RN2K2NR w - - 0 1"
    );
    assert_eq!(game.moves.len(), 75);
    assert_eq!(game.moves[0].mv.to_string(), "b2e2");
    assert_eq!(game.moves[74].mv.to_string(), "e9c9");
    assert_eq!(game.result.as_deref(), Some("1-0"));
    assert_eq!(game.tag("Red"), Some("许银川"));
    assert_eq!(game.tag("Round"), Some("?"));
    let initial = game.initial_comment.as_deref().unwrap();
    assert!(initial.starts_with("\u{3000}\u{3000}象棋让九子"));
    let text = assert_round_trip(&game);
    assert!(text.contains("[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/9/1C5C1/9/RN2K2NR w - - 0 1\"]"));
}
