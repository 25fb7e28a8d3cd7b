//! Tests on the real files of the shared folder (see [`crate::testdata`]): eight games of the
//! 2006 Chinese computer championship and a commented human game, all GBK with CRLF and
//! Chinese notation, plus the same human game as XQF.
//!
//! Moves are read with the notation module's codec.

use super::tests::assert_round_trip;
use super::*;
use crate::testdata;
use crate::xqf::record_from_xqf;

/// The codec of the notation module, reading any notation and writing Chinese.
fn notation_codec() -> Box<dyn MoveCodec> {
    Box::new(NotationCodec(crate::notation::Notation::Chinese))
}

/// What each file holds: name, plies of the main line, result, players, last move as written.
const FILES: [(&str, usize, &str, &str, &str, &str); 9] = [
    (
        "ccgc2006-01.pgn",
        26,
        "0-1",
        "宝岛一号",
        "相眼竞技",
        "车７进１",
    ),
    (
        "ccgc2006-02.pgn",
        116,
        "0-1",
        "相眼竞技",
        "象棋旋风",
        "车７平６",
    ),
    (
        "ccgc2006-03.pgn",
        105,
        "1-0",
        "相眼竞技",
        "棋乐无穷",
        "炮六平四",
    ),
    (
        "ccgc2006-04.pgn",
        85,
        "1-0",
        "相眼竞技",
        "理治棋壮",
        "车六进一",
    ),
    (
        "ccgc2006-05.pgn",
        89,
        "1-0",
        "相眼竞技",
        "象棋ABC",
        "车一平六",
    ),
    (
        "ccgc2006-06.pgn",
        174,
        "0-1",
        "相眼竞技",
        "将神传说",
        "卒４进１",
    ),
    (
        "ccgc2006-07.pgn",
        61,
        "0-1",
        "相眼竞技",
        "梦入神机",
        "炮六退五",
    ),
    (
        "ccgc2006-08.pgn",
        80,
        "0-1",
        "相眼竞技",
        "棋天大圣",
        "车４平５",
    ),
    (
        "sample-from-xqf.pgn",
        75,
        "1-0",
        "许银川",
        "聂卫平",
        "车五平七",
    ),
];

/// Reads every file with `codec` and checks it against [`FILES`]; then writes each game in
/// Chinese with `codec` and in ICCS, and reads both back unchanged.
fn check_all_files(codec: &dyn MoveCodec) {
    for (name, plies, result, red, black, last) in FILES {
        let Some(bytes) = testdata::read(name) else {
            return;
        };
        let games = read_pgn(&bytes, codec).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(games.len(), 1, "{name}");
        let game = &games[0];
        assert_eq!(game.moves.len(), plies, "{name}");
        assert_eq!(game.result.as_deref(), Some(result), "{name}");
        assert_eq!(game.tag("Game"), Some("Chinese Chess"), "{name}");
        assert_eq!(game.tag("Red"), Some(red), "{name}");
        assert_eq!(game.tag("Black"), Some(black), "{name}");
        assert!(game.moves.iter().all(|m| m.variations.is_empty()), "{name}");

        let mut before_last = game.start.clone();
        for m in &game.moves[..plies - 1] {
            before_last.make_move(m.mv);
        }
        assert_eq!(
            codec.format(&before_last, game.moves[plies - 1].mv),
            last,
            "{name}"
        );

        let chinese = write_pgn(game, codec, "Chinese");
        assert_eq!(
            read_pgn(chinese.as_bytes(), codec).unwrap(),
            games,
            "{name}\n{chinese}"
        );
        assert_round_trip(game);
    }
}

#[test]
fn real_files_with_notation_module() {
    check_all_files(&*notation_codec());
}

/// Checks the commented game, read with `codec`, against its XQF twin and its known content.
fn check_sample_against_xqf(codec: &dyn MoveCodec) {
    let (Some(pgn), Some(xqf)) = (
        testdata::read("sample-from-xqf.pgn"),
        testdata::read("sample.xqf"),
    ) else {
        return;
    };
    let from_pgn = read_pgn(&pgn, codec).unwrap().remove(0);
    let from_xqf = record_from_xqf(&xqf).unwrap();
    assert_eq!(from_pgn.start, from_xqf.start);
    assert_eq!(from_pgn.initial_comment, from_xqf.initial_comment);
    assert_eq!(from_pgn.moves, from_xqf.moves);
    assert_eq!(from_pgn.result, from_xqf.result);
    for tag in ["Event", "Site", "Date", "Red", "Black", "Result"] {
        assert_eq!(from_pgn.tag(tag), from_xqf.tag(tag), "{tag}");
    }
    // The comment after Red's third move, with Black's reply "3.          马８进７" after it.
    assert!(from_pgn.moves[4]
        .comment
        .as_deref()
        .unwrap()
        .starts_with("\u{3000}\u{3000}再架中炮也属正着"));
    assert_eq!(
        codec.format(&from_pgn.start, from_pgn.moves[0].mv),
        "炮八平五"
    );
}

#[test]
fn sample_pgn_matches_xqf_with_notation_module() {
    check_sample_against_xqf(&*notation_codec());
}

/// A real file in Chinese read with the ICCS codec: an error naming the first move, no panic.
#[test]
fn chinese_file_read_as_iccs_names_the_first_move() {
    let Some(bytes) = testdata::read("ccgc2006-01.pgn") else {
        return;
    };
    let e = read_pgn(&bytes, &IccsCodec).unwrap_err();
    assert_eq!((e.line(), e.token()), (14, "炮八平五"), "{e}");
}

/// Reads every prefix of `bytes` with `codec`: never a panic, and whatever reads is the start
/// of the full game.
fn check_truncations(bytes: &[u8], codec: &dyn MoveCodec) {
    let full = read_pgn(bytes, codec).unwrap().remove(0).main_line();
    let mut read = 0;
    for len in 0..bytes.len() {
        if let Ok(games) = read_pgn(&bytes[..len], codec) {
            read += 1;
            assert!(games.len() <= 1, "prefix of {len} bytes");
            if let Some(game) = games.first() {
                let line = game.main_line();
                assert_eq!(line[..], full[..line.len()], "prefix of {len} bytes");
            }
        }
    }
    assert!(read > 0);
}

#[test]
fn every_truncation_of_real_files_with_notation_module() {
    for name in ["sample-from-xqf.pgn", "ccgc2006-01.pgn"] {
        let Some(bytes) = testdata::read(name) else {
            return;
        };
        check_truncations(&bytes, &*notation_codec());
    }
}

/// Truncations of a real file, and of the same game rewritten in ICCS, read with the ICCS codec
/// (which stops at the first Chinese move of the original).
#[test]
fn every_truncation_with_iccs_codec() {
    let Some(bytes) = testdata::read("sample-from-xqf.pgn") else {
        return;
    };
    for len in 0..bytes.len() {
        let _ = read_pgn(&bytes[..len], &IccsCodec);
    }
    let Some(xqf) = testdata::read("sample.xqf") else {
        return;
    };
    let iccs = write_pgn(&record_from_xqf(&xqf).unwrap(), &IccsCodec, "ICCS");
    check_truncations(iccs.as_bytes(), &IccsCodec);
}

/// `text` as a Taiwanese or Hong Kong file writes it: the notation in traditional characters,
/// encoded in Big5 (characters Big5 lacks, such as simplified names, become `&#…;`; 俥 and 傌
/// are not in Big5 either, so its files write 車 and 馬).
fn as_big5(text: &str) -> Vec<u8> {
    let traditional: String = text
        .chars()
        .map(|c| match c {
            '车' => '車',
            '马' => '馬',
            '炮' => '砲',
            '帅' => '帥',
            '将' => '將',
            '进' => '進',
            '后' => '後',
            c => c,
        })
        .collect();
    encoding_rs::BIG5.encode(&traditional).0.into_owned()
}

#[test]
fn real_files_in_big5_read_as_in_gbk() {
    for (name, ..) in FILES {
        let Some(bytes) = testdata::read(name) else {
            return;
        };
        let codec = notation_codec();
        let gbk = read_pgn(&bytes, codec.as_ref()).unwrap();
        let big5 = as_big5(&super::decode::decode(&bytes));
        assert!(std::str::from_utf8(&big5).is_err(), "{name}");
        let read = read_pgn(&big5, codec.as_ref()).unwrap_or_else(|e| panic!("{name}: {e}"));
        let moves = |games: &[GameRecord]| games[0].moves.iter().map(|m| m.mv).collect::<Vec<_>>();
        assert_eq!(moves(&read), moves(&gbk), "{name}");
        assert_eq!(read[0].result, gbk[0].result, "{name}");
        assert_eq!(read[0].tag("Date"), gbk[0].tag("Date"), "{name}");
    }
}
