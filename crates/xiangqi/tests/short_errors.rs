//! Errors on enormous input quote an excerpt of it: every reader's message stays short, however
//! big the bad text (a file of NUL bytes once gave a 4 MB message).

use xiangqi::pgn::{IccsCodec, MoveCodec, NotationCodec};
use xiangqi::{
    parse_move, parse_move_as, read_pgn, record_from_xqf, Notation, Position, Square, EXCERPT_CHARS,
};

/// The longest message any of these errors may have: the fixed wording, plus an excerpt of
/// [`EXCERPT_CHARS`] characters written with `{:?}` (at most 10 bytes each, `\u{10ffff}`),
/// quoted up to twice.
const MAX_MESSAGE: usize = 300 + 2 * 10 * EXCERPT_CHARS;

/// A megabyte of `unit`.
fn huge(unit: &str) -> String {
    unit.repeat((1 << 20) / unit.len())
}

fn assert_short(what: &str, message: String) {
    assert!(
        message.len() <= MAX_MESSAGE,
        "{what}: {} bytes: {}…",
        message.len(),
        message.chars().take(MAX_MESSAGE).collect::<String>()
    );
    assert!(
        message.contains('…'),
        "{what}: no sign of the cut: {message}"
    );
}

/// Texts of a megabyte that each reader chokes on in a different way.
fn monsters() -> Vec<String> {
    vec![
        huge("\0"),
        huge("x"),
        huge("h2"),
        huge("炮"),
        format!("C2{}", huge("5")),
        // An illegal move (the soldier on a3 blocks the chariot) with long annotation marks.
        format!("a0a9{}", huge("!")),
        format!("炮二平{}", huge("五")),
        huge("\u{1b}"),
    ]
}

#[test]
fn move_errors_in_every_notation_are_short() {
    let pos = Position::startpos();
    for text in monsters() {
        assert_short(
            "any notation",
            parse_move(&pos, &text).unwrap_err().to_string(),
        );
        for notation in [
            Notation::Iccs,
            Notation::IccsPgn,
            Notation::UciRanks1To10,
            Notation::Wxf,
            Notation::Chinese,
        ] {
            let err = parse_move_as(&pos, &text, notation).unwrap_err();
            assert_short(&format!("{notation}"), err.to_string());
        }
        assert_short("ICCS codec", IccsCodec.parse(&pos, &text).unwrap_err());
        let codec = NotationCodec(Notation::Chinese);
        assert_short("notation codec", codec.parse(&pos, &text).unwrap_err());
        assert_short("square", text.parse::<Square>().unwrap_err().to_string());
        assert_short(
            "notation name",
            text.parse::<Notation>().unwrap_err().to_string(),
        );
    }
}

#[test]
fn fen_errors_are_short() {
    let board = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
    for text in monsters() {
        for fen in [
            format!("{text}/9/9/9/9/9/9/9/9/9 w"),
            format!("{board} {text}"),
            format!("{board} w - - {text} 1"),
            format!("{board} w - - 0 {text}"),
            format!("{board} w - - 0 1 {text}"),
        ] {
            let message = Position::from_fen(&fen).unwrap_err().to_string();
            // A rank of pieces or NULs has an unknown letter, not an over-long text, to report.
            if message.contains("unknown piece letter") {
                assert!(message.len() < 100, "{message}");
            } else {
                assert_short("FEN", message);
            }
        }
    }
}

#[test]
fn pgn_errors_are_short() {
    let start = "[Game \"Chinese Chess\"]\n";
    for text in monsters() {
        for file in [
            format!("{text} 1-0"),
            format!("{start}\n1. {text} 1-0\n"),
            format!("[{text} value]\n"),
            format!("[Event {text}]\n"),
            format!("[Event \"{text}\n"),
            format!("[FEN \"{text}\"]\n\n1-0\n"),
            format!("{start}\n1. h2e2 ${text}\n"),
        ] {
            let Err(err) = read_pgn(file.as_bytes(), &NotationCodec(Notation::Chinese)) else {
                panic!("no error for {:?}", xiangqi::excerpt(&file));
            };
            assert!(err.token().chars().count() <= EXCERPT_CHARS + 1);
            assert_short("PGN", err.to_string());
        }
    }
}

/// The file that once gave a 4 MB message: a megabyte of NUL bytes.
#[test]
fn a_file_of_nul_bytes_gets_a_short_error() {
    let err = read_pgn(&vec![0; 1 << 20], &NotationCodec(Notation::Chinese)).unwrap_err();
    assert_short("NUL file", err.to_string());
}

#[test]
fn xqf_errors_are_short() {
    // XQF errors name offsets, not text; a megabyte of junk after the magic still reads short.
    let mut bytes = b"XQ".to_vec();
    bytes.extend(huge("\u{7f}").bytes());
    let message = record_from_xqf(&bytes).unwrap_err().to_string();
    assert!(message.len() < 200, "{message}");
}
