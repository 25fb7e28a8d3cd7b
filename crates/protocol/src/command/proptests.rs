//! Property tests: no input panics, errors stay short single lines, whitespace does not matter,
//! and well-formed lines give back what they carry.

use super::go::Clock;
use super::*;
use proptest::prelude::*;
use std::time::Duration;
use xiangqi::Color;

/// Every verb and keyword of both protocols, so token soups reach deep into the parsers.
const WORDS: &[&str] = &[
    "uci",
    "ucci",
    "debug",
    "on",
    "off",
    "isready",
    "setoption",
    "name",
    "value",
    "register",
    "ucinewgame",
    "position",
    "startpos",
    "fen",
    "moves",
    "banmoves",
    "go",
    "stop",
    "ponderhit",
    "probe",
    "d",
    "eval",
    "quit",
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
    "draw",
    "time",
    "increment",
    "opptime",
    "oppmovestogo",
    "oppincrement",
    "Hash",
    "Clear",
    "hashsize",
    "usemillisec",
    "true",
    "h2e2",
    "a10a9",
    "w",
    "b",
    "-",
];

/// The longest message any error can have: the longest template plus two quoted snippets.
const MAX_MESSAGE: usize = 600;

fn dialects() -> impl Strategy<Value = (Dialect, bool)> {
    prop_oneof![
        Just((Dialect::Uci, false)),
        Just((Dialect::Ucci, false)),
        Just((Dialect::Ucci, true)),
    ]
}

fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<u8>().prop_map(|n| n.to_string()),
        any::<i64>().prop_map(|n| n.to_string()),
        any::<u128>().prop_map(|n| n.to_string()),
        (any::<u32>(), any::<u32>()).prop_map(|(a, b)| format!("{a}.{b}")),
        "-?[0-9]{0,30}(\\.[0-9]{0,12})?",
    ]
}

fn token() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => proptest::sample::select(WORDS).prop_map(str::to_owned),
        3 => number(),
        2 => "[a-i](10|[0-9])[a-i](10|[0-9])",
        1 => "[rnbakcpRNBAKCP1-9/]{1,20}",
        1 => "\\PC{1,6}",
        1 => any::<String>(),
    ]
}

/// Runs of whitespace that may separate tokens.
fn gap() -> impl Strategy<Value = &'static str> {
    proptest::sample::select(&[" ", "  ", "\t", " \t ", "\u{3000}", "\u{a0}"][..])
}

/// A line: tokens separated by random whitespace, maybe padded, maybe with CRLF.
fn soup() -> impl Strategy<Value = (Vec<String>, String)> {
    prop::collection::vec((token(), gap()), 0..20).prop_flat_map(|parts| {
        let words: Vec<String> = parts
            .iter()
            .flat_map(|(t, _)| t.split_whitespace())
            .map(str::to_owned)
            .collect();
        let mut line = String::new();
        for (t, g) in &parts {
            line.push_str(g);
            line.push_str(t);
        }
        (
            Just(words),
            prop_oneof![Just(line.clone()), Just(format!("{line} \r\n"))],
        )
    })
}

/// Whether `parse_line` must see nothing in `line`.
fn is_blank(line: &str) -> bool {
    line.trim_start()
        .trim_start_matches('\u{feff}')
        .trim()
        .is_empty()
}

/// Checks what every result must satisfy, whatever the input.
fn check_result(result: &Result<Option<Command>, ParseError>) -> Result<(), TestCaseError> {
    if let Err(err) = result {
        let text = err.to_string();
        prop_assert!(!text.is_empty());
        prop_assert!(!text.chars().any(char::is_control), "{:?}", text);
        prop_assert!(text.chars().count() <= MAX_MESSAGE, "{} chars", text.len());
    }
    Ok(())
}

proptest! {
    #[test]
    fn arbitrary_strings_never_panic(line in any::<String>(), (dialect, millis) in dialects()) {
        let result = parse_line(&line, dialect, millis);
        check_result(&result)?;
        if is_blank(&line) {
            prop_assert_eq!(result, Ok(None));
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..200),
                                   (dialect, millis) in dialects()) {
        let line = String::from_utf8_lossy(&bytes);
        check_result(&parse_line(&line, dialect, millis))?;
    }

    #[test]
    fn token_soups_never_panic_and_ignore_spacing((words, line) in soup(),
                                                  (dialect, millis) in dialects()) {
        let result = parse_line(&line, dialect, millis);
        check_result(&result)?;
        // The same tokens with single spaces parse the same way.
        prop_assert_eq!(&result, &parse_line(&words.join(" "), dialect, millis));
        prop_assert_eq!(result == Ok(None), is_blank(&words.join(" ")));
    }

    #[test]
    fn verb_led_soups_never_panic(verb in proptest::sample::select(WORDS),
                                  (_, line) in soup(),
                                  (dialect, millis) in dialects()) {
        check_result(&parse_line(&format!("{verb} {line}"), dialect, millis))?;
    }

    #[test]
    fn uci_clocks_round_trip(
        w in any::<u64>(), b in any::<u64>(), wi in any::<u64>(), bi in any::<u64>(),
        movestogo in proptest::option::of(any::<u32>()),
        shuffle in any::<prop::sample::Index>(),
    ) {
        let mut parts = vec![
            format!("wtime {w}"), format!("btime {b}"),
            format!("winc {wi}"), format!("binc {bi}"),
        ];
        if let Some(n) = movestogo {
            parts.push(format!("movestogo {n}"));
        }
        let turn = shuffle.index(parts.len());
        parts.rotate_left(turn);
        let line = format!("go {}", parts.join(" "));
        let Ok(Some(Command::Go(params))) = parse_line(&line, Dialect::Uci, false) else {
            return Err(TestCaseError::fail(format!("{line:?} did not parse")));
        };
        let ms = Duration::from_millis;
        let red = Clock { time: ms(w), inc: ms(wi), movestogo };
        let black = Clock { time: ms(b), inc: ms(bi), movestogo };
        prop_assert_eq!(params.clock_for(Color::Red), Some(red));
        prop_assert_eq!(params.clock_for(Color::Black), Some(black));
        prop_assert_eq!(params.opponent_clock_for(Color::Red), Some(black));
    }

    #[test]
    fn ucci_times_round_trip(
        whole in any::<u32>(), thousandths in 0u64..1000, opp in any::<u32>(), millis in any::<bool>(),
    ) {
        let line = format!("go time {whole}.{thousandths:03} opptime {opp}");
        let Ok(Some(Command::Go(params))) = parse_line(&line, Dialect::Ucci, millis) else {
            return Err(TestCaseError::fail(format!("{line:?} did not parse")));
        };
        let (time, opp_time) = if millis {
            (Duration::from_micros(u64::from(whole) * 1000 + thousandths),
             Duration::from_millis(u64::from(opp)))
        } else {
            (Duration::from_millis(u64::from(whole) * 1000 + thousandths),
             Duration::from_secs(u64::from(opp)))
        };
        for to_move in Color::ALL {
            prop_assert_eq!(params.clock_for(to_move).map(|c| c.time), Some(time));
            prop_assert_eq!(params.opponent_clock_for(to_move).map(|c| c.time), Some(opp_time));
        }
    }

    #[test]
    fn position_moves_round_trip(moves in prop::collection::vec("\\S{1,8}", 0..50),
                                 (dialect, millis) in dialects()) {
        let line = format!("position startpos moves {}", moves.join(" "));
        let moves: Vec<String> = moves.iter().flat_map(|m| m.split_whitespace()).map(str::to_owned).collect();
        let expected = Command::Position(PositionSpec { fen: None, moves });
        prop_assert_eq!(parse_line(&line, dialect, millis), Ok(Some(expected)));
    }

    #[test]
    fn uci_option_names_and_values_round_trip(
        name in prop::collection::vec("[A-Za-z_0-9]{1,10}", 1..4),
        value in proptest::option::of(prop::collection::vec("\\S{1,10}", 0..4)),
    ) {
        prop_assume!(name.iter().all(|w| w != "value"));
        let value_words: Option<Vec<String>> = value.map(|v| {
            v.iter().flat_map(|w| w.split_whitespace()).map(str::to_owned).collect()
        });
        let mut line = format!("setoption name {}", name.join(" "));
        if let Some(words) = &value_words {
            line.push_str(" value ");
            line.push_str(&words.join(" "));
        }
        let expected = Command::SetOption {
            name: name.join(" "),
            value: value_words.map(|w| w.join(" ")),
        };
        prop_assert_eq!(parse_line(&line, Dialect::Uci, false), Ok(Some(expected)));
    }
}
