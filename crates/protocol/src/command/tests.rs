//! Hand-written cases for every command except `go` (see `go_tests`).

use super::*;

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

pub(super) fn uci(line: &str) -> Result<Option<Command>, ParseError> {
    parse_line(line, Dialect::Uci, false)
}

pub(super) fn ucci(line: &str) -> Result<Option<Command>, ParseError> {
    parse_line(line, Dialect::Ucci, false)
}

/// Parses `line` in both dialects and checks they agree.
fn both(line: &str) -> Result<Option<Command>, ParseError> {
    let result = uci(line);
    assert_eq!(result, ucci(line), "dialects disagree on {line:?}");
    assert_eq!(result, parse_line(line, Dialect::Ucci, true), "{line:?}");
    result
}

fn cmd(command: Command) -> Result<Option<Command>, ParseError> {
    Ok(Some(command))
}

fn moves(list: &[&str]) -> Vec<String> {
    list.iter().map(|m| m.to_string()).collect()
}

fn option(name: &str, value: Option<&str>) -> Result<Option<Command>, ParseError> {
    cmd(Command::SetOption {
        name: name.to_owned(),
        value: value.map(str::to_owned),
    })
}

fn position(fen: Option<&str>, list: &[&str]) -> Result<Option<Command>, ParseError> {
    cmd(Command::Position(PositionSpec {
        fen: fen.map(str::to_owned),
        moves: moves(list),
    }))
}

#[test]
fn blank_lines_are_nothing() {
    for line in [
        "",
        " ",
        "\t \t",
        "\r\n",
        "\n",
        "  \r",
        "\u{feff}",
        "\u{feff}  \r\n",
    ] {
        assert_eq!(both(line), Ok(None), "{line:?}");
    }
}

#[test]
fn simple_verbs_in_both_dialects() {
    let cases = [
        ("uci", Command::Uci),
        ("ucci", Command::Ucci),
        ("isready", Command::IsReady),
        ("ucinewgame", Command::NewGame),
        ("stop", Command::Stop),
        ("quit", Command::Quit),
        ("d", Command::Display),
        ("eval", Command::Eval),
        ("ponderhit", Command::PonderHit { draw: false }),
        ("ponderhit draw", Command::PonderHit { draw: true }),
        ("debug on", Command::Debug(true)),
        ("debug off", Command::Debug(false)),
        ("register later", Command::Register),
        ("register name Stefan MK code 4359874324", Command::Register),
        ("register", Command::Register),
    ];
    for (line, expected) in cases {
        assert_eq!(both(line), cmd(expected.clone()), "{line:?}");
        let padded = format!(" \t {line}  \t\r\n");
        assert_eq!(both(&padded), cmd(expected.clone()), "{padded:?}");
        let with_bom = format!("\u{feff}{line}");
        assert_eq!(both(&with_bom), cmd(expected), "{with_bom:?}");
    }
}

#[test]
fn unknown_commands() {
    for (line, word) in [
        ("foo", "foo"),
        ("flip", "flip"),
        ("bench 16 1 13", "bench"),
        ("UCI", "UCI"),
        ("Go depth 3", "Go"),
        ("bestmove h2e2", "bestmove"),
        ("\u{0}", "\\u{0}"),
        ("\u{1b}[31mred", "\\u{1b}[31mred"),
        ("象棋", "象棋"),
    ] {
        assert_eq!(both(line), Err(ParseError::UnknownCommand(word.into())));
    }
}

#[test]
fn words_after_a_complete_command() {
    for (line, after, token) in [
        ("isready now", "isready", "now"),
        ("quit 1", "quit", "1"),
        ("uci  uci", "uci", "uci"),
        ("ponderhit draw draw", "ponderhit", "draw"),
        ("ponderhit h2e2", "ponderhit", "h2e2"),
        ("debug on off", "debug", "off"),
        ("d 3", "d", "3"),
    ] {
        let expected = ParseError::UnexpectedToken {
            after: after.into(),
            token: token.into(),
        };
        assert_eq!(both(line), Err(expected), "{line:?}");
    }
}

#[test]
fn debug_needs_on_or_off() {
    let err = both("debug").unwrap_err();
    assert_eq!(
        err.to_string(),
        "expected `on` or `off` after `debug`, found the end of the line"
    );
    let err = both("debug true").unwrap_err();
    assert_eq!(
        err.to_string(),
        "expected `on` or `off` after `debug`, found `true`"
    );
}

#[test]
fn uci_setoption() {
    assert_eq!(
        uci("setoption name Hash value 128"),
        option("Hash", Some("128"))
    );
    assert_eq!(uci("setoption name Clear Hash"), option("Clear Hash", None));
    assert_eq!(
        uci("setoption name UCI_Variant value xiangqi"),
        option("UCI_Variant", Some("xiangqi"))
    );
    assert_eq!(
        uci("setoption  name \t Clear   Hash \r\n"),
        option("Clear Hash", None)
    );
    assert_eq!(
        uci("setoption name EvalFile value /nets/my  net.nnue"),
        option("EvalFile", Some("/nets/my net.nnue"))
    );
    assert_eq!(
        uci("setoption name Skill Level value 20"),
        option("Skill Level", Some("20"))
    );
    assert_eq!(uci("setoption name Foo value"), option("Foo", Some("")));
    assert_eq!(
        uci("setoption name Threads value 2 value 3"),
        option("Threads", Some("2 value 3"))
    );
}

#[test]
fn uci_setoption_errors() {
    assert_eq!(uci("setoption"), Err(ParseError::MissingValue("setoption")));
    assert_eq!(uci("setoption name"), Err(ParseError::MissingValue("name")));
    assert_eq!(
        uci("setoption name value 5"),
        Err(ParseError::MissingValue("name"))
    );
    let err = uci("setoption hashsize 64").unwrap_err();
    assert_eq!(
        err,
        ParseError::Expected {
            expected: "`name`",
            after: "`setoption`",
            found: Some("hashsize".into()),
        }
    );
    assert_eq!(
        err.to_string(),
        "expected `name` after `setoption`, found `hashsize`"
    );
}

#[test]
fn ucci_setoption() {
    assert_eq!(
        ucci("setoption hashsize 64"),
        option("hashsize", Some("64"))
    );
    assert_eq!(
        ucci("setoption usemillisec true"),
        option("usemillisec", Some("true"))
    );
    assert_eq!(ucci("setoption batch on"), option("batch", Some("on")));
    assert_eq!(ucci("setoption newgame"), option("newgame", None));
    assert_eq!(ucci("setoption loadbook \r\n"), option("loadbook", None));
    assert_eq!(
        ucci("setoption bookfiles BOOK.DAT;my  book.obk"),
        option("bookfiles", Some("BOOK.DAT;my book.obk"))
    );
    // The UCI form is understood too.
    assert_eq!(
        ucci("setoption name Hash value 128"),
        option("Hash", Some("128"))
    );
    assert_eq!(
        ucci("setoption"),
        Err(ParseError::MissingValue("setoption"))
    );
}

#[test]
fn position_startpos() {
    assert_eq!(both("position startpos"), position(None, &[]));
    assert_eq!(both("position startpos moves"), position(None, &[]));
    assert_eq!(
        both("position startpos moves h2e2 h9g7"),
        position(None, &["h2e2", "h9g7"])
    );
    assert_eq!(
        both("position\tstartpos  moves  h2e2\th9g7 \r\n"),
        position(None, &["h2e2", "h9g7"])
    );
    // Fairy-Stockfish writes ranks 1–10; the tokens are kept as sent.
    assert_eq!(
        both("position startpos moves h3e3 a10a9"),
        position(None, &["h3e3", "a10a9"])
    );
}

#[test]
fn position_fen() {
    assert_eq!(
        both(&format!("position fen {START}")),
        position(Some(START), &[])
    );
    assert_eq!(
        both(&format!("position fen {START} moves h2e2 h7e7")),
        position(Some(START), &["h2e2", "h7e7"])
    );
    // The UCCI spec's example: the FEN after the last capture, then the moves since.
    let after_capture = "rnbakabnr/9/1c2c4/p1p1C1p1p/9/9/P1P1P1P1P/1C7/9/RNBAKABNR b - - 0 2";
    assert_eq!(
        ucci(&format!("position fen {after_capture} moves d9e8")),
        position(Some(after_capture), &["d9e8"])
    );
    // One to six fields.
    let placement = "4k4/9/9/9/9/9/9/9/9/4K4";
    assert_eq!(
        both(&format!("position fen {placement}")),
        position(Some(placement), &[])
    );
    assert_eq!(
        both(&format!("position fen {placement} w moves e0e1")),
        position(Some(&format!("{placement} w")), &["e0e1"])
    );
    assert_eq!(
        both(&format!("position fen  {placement}  b  -  - \t 0 1  ")),
        position(Some(&format!("{placement} b - - 0 1")), &[])
    );
}

#[test]
fn position_errors() {
    let err = both("position").unwrap_err();
    assert_eq!(
        err.to_string(),
        "expected `startpos` or `fen` after `position`, found the end of the line"
    );
    let err = both("position moves h2e2").unwrap_err();
    assert_eq!(
        err.to_string(),
        "expected `startpos` or `fen` after `position`, found `moves`"
    );
    assert_eq!(both("position fen"), Err(ParseError::MissingValue("fen")));
    assert_eq!(
        both("position fen moves h2e2"),
        Err(ParseError::MissingValue("fen"))
    );
    let err = both("position startpos h2e2").unwrap_err();
    assert_eq!(
        err.to_string(),
        "expected `moves` after `startpos`, found `h2e2`"
    );
    let err = both(&format!("position fen {START} h2e2")).unwrap_err();
    assert_eq!(
        err,
        ParseError::Expected {
            expected: "`moves`",
            after: "the FEN (it has at most 6 fields)",
            found: Some("h2e2".into()),
        }
    );
    assert!(both("position startpos fen x").is_err());
}

#[test]
fn probe_takes_a_position() {
    assert_eq!(
        ucci("probe startpos moves h2e2"),
        cmd(Command::Probe(PositionSpec {
            fen: None,
            moves: moves(&["h2e2"]),
        }))
    );
    assert_eq!(
        ucci(&format!("probe fen {START}")),
        cmd(Command::Probe(PositionSpec {
            fen: Some(START.into()),
            moves: vec![],
        }))
    );
    let err = ucci("probe").unwrap_err();
    assert_eq!(
        err.to_string(),
        "expected `startpos` or `fen` after `probe`, found the end of the line"
    );
}

#[test]
fn banmoves() {
    assert_eq!(
        both("banmoves h2e2 b0c2"),
        cmd(Command::BanMoves(moves(&["h2e2", "b0c2"])))
    );
    assert_eq!(both("banmoves"), cmd(Command::BanMoves(vec![])));
}

#[test]
fn long_lines() {
    let many: Vec<String> = (0..100_000).map(|i| format!("m{i}")).collect();
    let line = format!("position startpos moves {}", many.join(" "));
    match both(&line) {
        Ok(Some(Command::Position(spec))) => assert_eq!(spec.moves, many),
        other => panic!("unexpected {other:?}"),
    }

    // A megabyte of junk: an error whose message stays short.
    let junk = "x".repeat(1 << 20);
    let err = both(&junk).unwrap_err();
    assert_eq!(
        err,
        ParseError::UnknownCommand(format!("{}…", "x".repeat(xiangqi::EXCERPT_CHARS)))
    );
    assert!(err.to_string().len() < 100);

    let digits = "9".repeat(1 << 20);
    let err = both(&format!("go depth {digits}")).unwrap_err();
    assert!(err.to_string().len() < 100, "{err}");
}

#[test]
fn messages_are_single_printable_lines() {
    let lines = [
        "setoption name",
        "foo\u{7}bar",
        "position fen \u{1}\u{2}\u{3}\u{4}\u{5}\u{6}\u{7}\u{8} \u{7f} - - 0 1 \u{90}",
        "isready \u{0}",
        "go \u{9b}",
    ];
    for line in lines {
        for err in [uci(line).unwrap_err(), ucci(line).unwrap_err()] {
            let text = err.to_string();
            assert!(!text.chars().any(char::is_control), "{text:?}");
            assert!(!text.is_empty());
        }
    }
}
