//! Reader and writer tests on hand-written ICCS text.

use super::*;
use crate::piece::Color;
use crate::position::Position;

pub(super) fn read(text: &str) -> Vec<GameRecord> {
    read_pgn_str(text, &IccsCodec).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

pub(super) fn read1(text: &str) -> GameRecord {
    let mut games = read(text);
    assert_eq!(games.len(), 1, "{text}");
    games.remove(0)
}

fn err(text: &str) -> PgnError {
    match read_pgn_str(text, &IccsCodec) {
        Ok(games) => panic!("read {} games from {text:?}", games.len()),
        Err(e) => e,
    }
}

fn iccs(line: &[RecordMove]) -> Vec<String> {
    line.iter().map(|m| m.mv.to_string()).collect()
}

/// Writes `game` in ICCS, reads it back, and checks that nothing changed (and that writing
/// again gives the same text).
pub(crate) fn assert_round_trip(game: &GameRecord) -> String {
    let text = write_pgn(game, &IccsCodec, "ICCS");
    let back = read1(&text);
    assert_eq!(&back, game, "\n{text}");
    assert_eq!(write_pgn(&back, &IccsCodec, "ICCS"), text);
    text
}

#[test]
fn annotation_glyphs_are_kept() {
    let game = read1(
        "[Format \"ICCS\"]\n1. H2-E2! H9-G7?! $14 2. H0-G2 $1 $22 {a note} (2. B0-C2?? $4) *\n",
    );
    let nags: Vec<&[u8]> = game.moves.iter().map(|m| m.nags.as_slice()).collect();
    assert_eq!(nags, [&[1u8][..], &[6, 14], &[1, 22]]);
    assert_eq!(game.moves[2].comment.as_deref(), Some("a note"));
    assert_eq!(game.moves[2].variations[0][0].nags, [4, 4]);
    // Written as `$n`, and read back the same.
    let text = assert_round_trip(&game);
    assert!(
        text.contains("1. H2-E2 $1 H9-G7 $6 $14 2. H0-G2 $1 $22 {a note}"),
        "{text}"
    );
}

#[test]
fn a_comment_before_a_variations_first_move_stays_before_it() {
    let game =
        read1("[Format \"ICCS\"]\n1. H2-E2 {after} ({before} 1. H0-G2 {in} H9-G7) H9-G7 *\n");
    let variation = &game.moves[0].variations[0];
    assert_eq!(variation[0].comment_before.as_deref(), Some("before"));
    assert_eq!(variation[0].comment.as_deref(), Some("in"));
    assert_eq!(game.moves[0].comment.as_deref(), Some("after"));
    let text = assert_round_trip(&game);
    assert!(
        text.contains("({before} 1. H0-G2 {in} 1... H9-G7)"),
        "{text}"
    );
}

const BLACK_FIRST: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";

#[test]
fn a_plain_game() {
    let game = read1(
        "[Game \"Chinese Chess\"]\r\n[Event \"Test \\\"cup\\\"\"]\r\n[Red \"红方\"]\r\n\
         [Black \"黑方\"]\r\n[Result \"1-0\"]\r\n[Format \"ICCS\"]\r\n\r\n\
         1. H2-E2 H9-G7 2. H0-G2 I9-H9 1-0\r\n",
    );
    let tags: Vec<(&str, &str)> = game
        .tags
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    assert_eq!(
        tags,
        [
            ("Game", "Chinese Chess"),
            ("Event", "Test \"cup\""),
            ("Site", "?"),
            ("Date", "????.??.??"),
            ("Round", "?"),
            ("Red", "红方"),
            ("Black", "黑方"),
            ("Result", "1-0"),
        ]
    );
    assert_eq!(iccs(&game.moves), ["h2e2", "h9g7", "h0g2", "i9h9"]);
    assert_eq!(game.result.as_deref(), Some("1-0"));
    assert_eq!(game.start, Position::startpos());
    let mut pos = Position::startpos();
    for m in game.main_line() {
        pos.make_move(m);
    }
    assert_eq!(game.final_position(), pos);
    assert_round_trip(&game);
}

#[test]
fn move_numbers_in_all_forms() {
    let game = read1("1.h2e2 1...h9g7 2… h0g2 2. ... i9h9 3.b0c2 3…b9c7 ...i0h0 *");
    assert_eq!(
        iccs(&game.moves),
        ["h2e2", "h9g7", "h0g2", "i9h9", "b0c2", "b9c7", "i0h0"]
    );
}

#[test]
fn numbers_need_not_match() {
    // As in sample-from-xqf.pgn: Black's move after a comment repeats "3." without dots.
    let game = read1("1. h2e2 h9g7 7. h0g2 {comment}\n 7.     i9h9 *");
    assert_eq!(iccs(&game.moves), ["h2e2", "h9g7", "h0g2", "i9h9"]);
}

#[test]
fn fen_with_black_to_move_and_wxf_letters() {
    let text = "[FEN \"rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RHEAKAEHR b - - 1 1\"]\n\
                1... h9g7 2. h0g2 *";
    let game = read1(text);
    assert_eq!(game.start.to_fen(), BLACK_FIRST);
    assert_eq!(game.start.side_to_move(), Color::Black);
    assert_eq!(
        game.tag("FEN"),
        None,
        "the FEN is the start position, not a tag"
    );
    assert_eq!(iccs(&game.moves), ["h9g7", "h0g2"]);
    let written = assert_round_trip(&game);
    assert!(written.contains(&format!("[FEN \"{BLACK_FIRST}\"]\n")));
    assert!(written.contains("\n1... H9-G7 2. H0-G2 *\n"), "{written}");
}

#[test]
fn empty_fen_means_the_start() {
    assert_eq!(read1("[FEN \"\"]\n1. h2e2 *").start, Position::startpos());
}

#[test]
fn comments() {
    let game = read1(
        "{  开局\n说明 } 1. h2e2 {a\nmulti-line} {second} h9g7 ; rest of the line {not a brace\n\
         2. h0g2 {\u{3000}\u{3000}缩进 } *",
    );
    assert_eq!(game.initial_comment.as_deref(), Some("开局\n说明"));
    let comments: Vec<Option<&str>> = game.moves.iter().map(|m| m.comment.as_deref()).collect();
    assert_eq!(
        comments,
        [
            Some("a\nmulti-line\nsecond"),
            Some("rest of the line {not a brace"),
            Some("\u{3000}\u{3000}缩进"),
        ]
    );
    assert_round_trip(&game);
}

#[test]
fn comments_with_closing_braces_survive() {
    let mut game = read1("1. h2e2 h9g7 *");
    game.initial_comment = Some("a } b\n  indented }".to_owned());
    game.moves[0].comment = Some("x}".to_owned());
    game.moves[1].comment = Some("{ok}".to_owned());
    let text = assert_round_trip(&game);
    assert!(
        text.contains("\n\n;a } b\n;  indented }\n1. H2-E2 ;x}\n1... H9-G7 ;{ok}\n*\n"),
        "{text}"
    );
}

#[test]
fn variations_are_played_from_the_right_position() {
    let game = read1(
        "1. h2e2 (1. b2e2 h9g7) h9g7 (1... h7e7 2. h0g2 (2. b0c2 b9c7) 2... b9c7) (1... b9c7) \
         2. h0g2 *",
    );
    assert_eq!(iccs(&game.moves), ["h2e2", "h9g7", "h0g2"]);
    assert_eq!(game.moves[0].variations.len(), 1);
    assert_eq!(iccs(&game.moves[0].variations[0]), ["b2e2", "h9g7"]);
    let alternatives = &game.moves[1].variations;
    assert_eq!(alternatives.len(), 2);
    assert_eq!(iccs(&alternatives[0]), ["h7e7", "h0g2", "b9c7"]);
    assert_eq!(iccs(&alternatives[0][1].variations[0]), ["b0c2", "b9c7"]);
    assert_eq!(iccs(&alternatives[1]), ["b9c7"]);
    assert_round_trip(&game);
}

#[test]
fn a_variation_move_is_checked_where_the_variation_starts() {
    // The variation replaces Black's h9g7, so h0g2 (Red) is not playable there.
    let e = err("1. h2e2 h9g7 (2. h0g2) *");
    assert!(
        matches!(&e, PgnError::Move { line: 1, token, side: Color::Black, number: 1, .. } if token == "h0g2"),
        "{e}"
    );
}

#[test]
fn comment_before_a_variation_move_stays_with_it() {
    let game = read1("1. h2e2 ({why not} 1. b2e2 {this} h9g7) *");
    let first = &game.moves[0].variations[0][0];
    assert_eq!(first.comment_before.as_deref(), Some("why not"));
    assert_eq!(first.comment.as_deref(), Some("this"));
}

#[test]
fn annotations_are_skipped() {
    let game = read1("1. h2e2! $1 h9g7?! !! 2. h0g2 $14 ?? i9h9!? *");
    assert_eq!(iccs(&game.moves), ["h2e2", "h9g7", "h0g2", "i9h9"]);
}

#[test]
fn results() {
    for (text, result) in [
        ("1. h2e2 1-0", Some("1-0")),
        ("1. h2e2 0-1", Some("0-1")),
        ("1. h2e2 1/2-1/2", Some("1/2-1/2")),
        ("1. h2e2 *", None),
        ("1. h2e2", None),
        ("[Result \"0-1\"]\n1. h2e2", Some("0-1")),
        ("[Result \"0-1\"]\n1. h2e2 *", Some("0-1")),
        ("[Result \"1-0\"]\n1. h2e2 0-1", Some("0-1")),
        ("[Result \"*\"]\n1. h2e2", None),
        ("[Result \"红胜\"]\n1. h2e2", None),
    ] {
        let game = read1(text);
        assert_eq!(game.result.as_deref(), result, "{text}");
        assert_eq!(game.tag("Result"), Some(result.unwrap_or("*")), "{text}");
    }
}

#[test]
fn several_games_and_trailing_text() {
    let games = read(
        "[Event \"1\"]\n1. h2e2 h9g7 1-0\n============================\n欢迎访问《象棋百科全书》网站\n\
         https://www.xqbase.com/\n\n[Event \"2\"]\n1. b0c2 0-1 [Event \"3\"]\n1. h0g2\n\
         [Event \"4\"]\n\n",
    );
    let events: Vec<&str> = games.iter().map(|g| g.tag("Event").unwrap()).collect();
    assert_eq!(events, ["1", "2", "3", "4"]);
    let plies: Vec<usize> = games.iter().map(|g| g.moves.len()).collect();
    assert_eq!(plies, [2, 1, 1, 0]);
    assert_eq!(games[2].result, None);
}

#[test]
fn empty_inputs() {
    assert!(read("").is_empty());
    assert!(read(" \n\r\n\u{3000}").is_empty());
    let games = read("*");
    assert_eq!(games.len(), 1);
    assert!(games[0].moves.is_empty());
    let game = read1("{only a comment}");
    assert_eq!(game.initial_comment.as_deref(), Some("only a comment"));
    assert_round_trip(&game);
}

#[test]
fn errors_name_line_and_token() {
    let e = err("[Event \"x\"]\n\n1. h2e2 h9g7\n2. 炮二平五 *");
    assert!(
        matches!(&e, PgnError::Move { line: 4, token, side: Color::Red, number: 2, reason }
            if token == "炮二平五" && reason.contains("not an ICCS move")),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        "line 4: cannot play \"炮二平五\" (red's move 2): \"炮二平五\" is not an ICCS move such \
         as H2-E2 or h2e2"
    );
    let e = err("1. h2e2 h2e2");
    assert_eq!((e.line(), e.token()), (1, "h2e2"));
    assert!(e.to_string().contains("there is no piece on h2"), "{e}");
    let e = err("1. h2e2!? h2e2?");
    assert_eq!(e.token(), "h2e2?");
}

#[test]
fn syntax_errors() {
    let cases: [(&str, usize, &str, &str); 15] = [
        ("1. h2e2\n{unclosed", 2, "{", "never closed"),
        ("1. h2e2 }", 1, "}", "without a '{'"),
        ("1. h2e2 h9g7 (1... h7e7\n", 2, "", "line 1 is not closed"),
        ("1. h2e2 (1. b2e2\n[Event \"x\"]", 2, "", "not closed"),
        ("1. h2e2 )", 1, ")", "without a '('"),
        ("(1. h2e2)", 1, "(", "must follow"),
        ("1. h2e2 (1. b2e2 1-0)", 1, "1-0", "inside a variation"),
        ("[Event x]", 1, "x", "in quotes"),
        ("[Event \"x\"\n1. h2e2", 2, "1.", "expected ']'"),
        ("[Event \"x\"", 1, "", "expected ']'"),
        ("[1 \"x\"]", 1, "1", "tag name"),
        ("[]", 1, "]", "tag name"),
        ("1. h2e2 \"str\"", 1, "\"str\"", "before the moves"),
        ("1. h2e2 ]", 1, "]", "before the moves"),
        ("$", 1, "$", "NAG"),
    ];
    for (text, line, token, reason) in cases {
        match err(text) {
            PgnError::Syntax {
                line: l,
                token: t,
                reason: r,
            } => {
                assert_eq!((l, t.as_str()), (line, token), "{text:?}");
                assert!(r.contains(reason), "{text:?}: {r}");
            }
            other => panic!("{text:?}: {other:?}"),
        }
    }
    assert_eq!(
        err("1. h2e2 )").to_string(),
        "line 1: at \")\": ')' without a '(' before it"
    );
    assert!(err("1. h2e2 (1. b2e2")
        .to_string()
        .starts_with("line 1: at the end of the text:"));
}

#[test]
fn bad_fen_tag() {
    let e = err("[Event \"x\"]\n[FEN \"4k4/9/9/9/9/9/9/9/9/4K4 w\"]\n*");
    assert!(
        matches!(&e, PgnError::Fen { line: 2, token, error: crate::fen::FenError::GeneralsFacing }
            if token == "4k4/9/9/9/9/9/9/9/9/4K4 w"),
        "{e:?}"
    );
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let mut text = "1. h2e2 ".to_owned();
    for _ in 0..MAX_VARIATION_DEPTH {
        text.push_str("(1. h2e2 ");
    }
    let ok = format!("{text}{} *", ")".repeat(MAX_VARIATION_DEPTH));
    assert_eq!(read1(&ok).moves.len(), 1);
    text.push_str("(1. h2e2 ");
    assert!(err(&text).to_string().contains("nest more than"));
    let mut text = "1. h2e2 ".to_owned();
    for _ in 0..100_000 {
        text.push_str("(1. h2e2 ");
    }
    assert!(err(&text).to_string().contains("nest more than"));
    assert!(read_pgn_str(&"(".repeat(100_000), &IccsCodec).is_err());
}

#[test]
fn garbage_is_an_error() {
    for text in [
        "\u{0}\u{1}xyz",
        "[[[[",
        "]]]]",
        "{{{{",
        "))))",
        "$$$$",
        "\"\"\"\"",
        "1.",
        "???",
        "\u{FFFD}\u{FFFD}",
        "[Game \"Chinese Chess\"] x",
    ] {
        let _ = read_pgn_str(text, &IccsCodec);
    }
    assert!(read_pgn(&[0xFF, 0xFE, 0x00, 0xD8], &IccsCodec).is_err());
    assert!(read_pgn(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", &IccsCodec).is_err());
}

#[test]
fn exact_output() {
    let text = format!(
        "[Red \"A\"]\n[Opening \"x\"]\n[FEN \"{BLACK_FIRST}\"]\n\
         {{start}} 1... h9g7 {{reply}} 2. h0g2 (2. b0c2 b9c7) 2... i9h9 1/2-1/2"
    );
    let game = read1(&text);
    assert_eq!(
        write_pgn(&game, &IccsCodec, "ICCS"),
        format!(
            "[Game \"Chinese Chess\"]\n[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n\
             [Round \"?\"]\n[Red \"A\"]\n[Black \"?\"]\n[Result \"1/2-1/2\"]\n[Opening \"x\"]\n\
             [FEN \"{BLACK_FIRST}\"]\n[Format \"ICCS\"]\n\n\
             {{start}} 1... H9-G7 {{reply}} 2. H0-G2 (2. B0-C2 B9-C7) 2... I9-H9 1/2-1/2\n"
        )
    );
    assert_eq!(
        write_pgn(&game, &IccsCodec, "").matches("Format").count(),
        0
    );
}

#[test]
fn long_games_are_wrapped_and_round_trip() {
    let mut game = GameRecord::new(Position::startpos());
    let mut pos = game.start.clone();
    for ply in 0..150 {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[(ply * 7) % moves.len()];
        let mut rm = RecordMove::new(m);
        if ply % 17 == 0 {
            rm.comment = Some(format!("第{ply}手 comment"));
        }
        if ply % 23 == 5 {
            rm.variations.push(vec![RecordMove::new(moves[0])]);
        }
        game.moves.push(rm);
        pos.make_move(m);
    }
    game.result = Some("0-1".to_owned());
    game.set_tag("Result", "0-1");
    let text = assert_round_trip(&game);
    for line in text.lines() {
        assert!(line.chars().count() <= 80, "{line}");
    }
}

#[test]
fn hand_built_records_with_illegal_moves_do_not_panic() {
    let mut game = read1("1. h2e2 (1. b2e2) h9g7 *");
    // Black cannot play h2e2; nobody can play e5e6 from the start.
    game.moves[1].mv = game.moves[0].mv;
    game.moves[0].variations[0][0].mv =
        crate::moves::Move::new("e5".parse().unwrap(), "e6".parse().unwrap());
    let text = write_pgn(&game, &IccsCodec, "ICCS");
    assert!(text.ends_with("\n1. H2-E2 *\n"), "{text}");
    assert_eq!(game.final_position().side_to_move(), Color::Black);
}
