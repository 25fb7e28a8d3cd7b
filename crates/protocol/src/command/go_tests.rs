//! Hand-written cases for `go` in both dialects, and for time values.

use super::go::{parse_duration, Clock, Clocks, GoParams, SideClock, TimeUnit};
use super::tests::{ucci, uci};
use super::*;
use std::time::Duration;
use xiangqi::Color::{Black, Red};

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

fn secs(n: u64) -> Duration {
    Duration::from_secs(n)
}

fn go(result: Result<Option<Command>, ParseError>) -> GoParams {
    match result {
        Ok(Some(Command::Go(params))) => params,
        other => panic!("expected a go command, got {other:?}"),
    }
}

fn ucci_ms(line: &str) -> Result<Option<Command>, ParseError> {
    parse_line(line, Dialect::Ucci, true)
}

fn clock(time: Duration, inc: Duration, movestogo: Option<u32>) -> Option<Clock> {
    Some(Clock {
        time,
        inc,
        movestogo,
    })
}

#[test]
fn uci_clocks() {
    let p = go(uci("go wtime 300000 btime 300000 winc 2000 binc 2000"));
    let side = SideClock {
        time: Some(secs(300)),
        inc: Some(secs(2)),
        movestogo: None,
    };
    assert_eq!(
        p,
        GoParams {
            clocks: Clocks::ByColor {
                red: side,
                black: side
            },
            ..GoParams::default()
        }
    );
    assert_eq!(p.clock_for(Red), clock(secs(300), secs(2), None));
    assert_eq!(p.clock_for(Black), clock(secs(300), secs(2), None));
}

#[test]
fn uci_clocks_are_per_colour() {
    let p = go(uci("go btime 2000 wtime 1000 binc 20 winc 10 movestogo 5"));
    assert_eq!(p.clock_for(Red), clock(ms(1000), ms(10), Some(5)));
    assert_eq!(p.clock_for(Black), clock(ms(2000), ms(20), Some(5)));
    assert_eq!(p.opponent_clock_for(Black), p.clock_for(Red));
    assert_eq!(p.opponent_clock_for(Red), p.clock_for(Black));

    // Only one side's time, no increments.
    let p = go(uci("go btime 5000"));
    assert_eq!(p.clock_for(Red), None);
    assert_eq!(p.clock_for(Black), clock(ms(5000), Duration::ZERO, None));
    // An increment without a time is no clock.
    let p = go(uci("go winc 100"));
    assert_ne!(p.clocks, Clocks::NotGiven);
    assert_eq!(p.clock_for(Red), None);
}

#[test]
fn negative_times_clamp_to_zero() {
    let p = go(uci("go wtime -50 btime 100 winc -1"));
    assert_eq!(
        p.clock_for(Red),
        clock(Duration::ZERO, Duration::ZERO, None)
    );
    let p = go(ucci("go time -3.5 opptime 10"));
    assert_eq!(
        p.clock_for(Red),
        clock(Duration::ZERO, Duration::ZERO, None)
    );
    assert_eq!(
        p.opponent_clock_for(Red),
        clock(secs(10), Duration::ZERO, None)
    );
}

#[test]
fn uci_limits() {
    let cases = [
        (
            "go movetime 1000",
            GoParams {
                movetime: Some(secs(1)),
                ..GoParams::default()
            },
        ),
        (
            "go depth 10",
            GoParams {
                depth: Some(10),
                ..GoParams::default()
            },
        ),
        (
            "go infinite",
            GoParams {
                infinite: true,
                ..GoParams::default()
            },
        ),
        (
            "go nodes 18446744073709551615",
            GoParams {
                nodes: Some(u64::MAX),
                ..GoParams::default()
            },
        ),
        (
            "go mate 3",
            GoParams {
                mate: Some(3),
                ..GoParams::default()
            },
        ),
        (
            "go depth 5 depth 7",
            GoParams {
                depth: Some(7),
                ..GoParams::default()
            },
        ),
        (
            "go searchmoves h2e2 b0c2 depth 5",
            GoParams {
                depth: Some(5),
                searchmoves: vec!["h2e2".into(), "b0c2".into()],
                ..GoParams::default()
            },
        ),
        (
            "go depth 5 searchmoves a10a9",
            GoParams {
                depth: Some(5),
                searchmoves: vec!["a10a9".into()],
                ..GoParams::default()
            },
        ),
        (
            "go searchmoves h2e2 searchmoves b0c2 c3c4",
            GoParams {
                searchmoves: vec!["b0c2".into(), "c3c4".into()],
                ..GoParams::default()
            },
        ),
        ("go", GoParams::default()),
        ("  go \t\r\n", GoParams::default()),
    ];
    for (line, expected) in cases {
        assert_eq!(go(uci(line)), expected, "{line:?}");
    }
}

#[test]
fn uci_ponder() {
    let p = go(uci("go ponder wtime 60000 btime 50000 winc 1000 binc 1000"));
    assert!(p.ponder && !p.infinite);
    assert_eq!(p.clock_for(Black), clock(secs(50), secs(1), None));
    assert_eq!(p.opponent_clock_for(Black), clock(secs(60), secs(1), None));
}

#[test]
fn uci_perft() {
    assert_eq!(uci("go perft 3"), Ok(Some(Command::Perft(3))));
    assert_eq!(uci("go perft 0"), Ok(Some(Command::Perft(0))));
    assert_eq!(uci("go perft"), Err(ParseError::MissingValue("perft")));
    assert!(matches!(
        uci("go perft -1"),
        Err(ParseError::InvalidNumber {
            keyword: "perft",
            ..
        })
    ));
    assert_eq!(uci("go perft 3 depth 2"), Err(ParseError::PerftNotAlone));
    assert_eq!(uci("go depth 2 perft 3"), Err(ParseError::PerftNotAlone));
    assert_eq!(uci("go perft 3 h2e2"), Err(ParseError::PerftNotAlone));
    // Not a UCCI parameter.
    assert!(matches!(
        ucci("go perft 3"),
        Err(ParseError::UnknownGoParameter { .. })
    ));
}

#[test]
fn ucci_clocks_in_seconds_and_millis() {
    let line = "go time 300 increment 2 opptime 300 oppincrement 2";
    let p = go(ucci(line));
    let side = SideClock {
        time: Some(secs(300)),
        inc: Some(secs(2)),
        movestogo: None,
    };
    assert_eq!(
        p,
        GoParams {
            clocks: Clocks::ToMove {
                own: side,
                opponent: side
            },
            ..GoParams::default()
        }
    );
    // Relative to the side to move, whichever colour that is.
    for to_move in [Red, Black] {
        assert_eq!(p.clock_for(to_move), clock(secs(300), secs(2), None));
        assert_eq!(
            p.opponent_clock_for(to_move),
            clock(secs(300), secs(2), None)
        );
    }
    let p = go(ucci_ms(line));
    assert_eq!(p.clock_for(Black), clock(ms(300), ms(2), None));
}

#[test]
fn ucci_draw_and_movestogo() {
    let line = "go draw time 60 movestogo 40";
    let p = go(ucci(line));
    assert!(p.draw_offered && !p.ponder);
    assert_eq!(p.clock_for(Red), clock(secs(60), Duration::ZERO, Some(40)));
    assert_eq!(p.opponent_clock_for(Red), None);
    let p = go(ucci_ms(line));
    assert!(p.draw_offered);
    assert_eq!(p.clock_for(Red), clock(ms(60), Duration::ZERO, Some(40)));

    let p = go(ucci("go time 60 movestogo 20 opptime 50 oppmovestogo 10"));
    assert_eq!(
        p.clock_for(Black),
        clock(secs(60), Duration::ZERO, Some(20))
    );
    assert_eq!(
        p.opponent_clock_for(Black),
        clock(secs(50), Duration::ZERO, Some(10))
    );
}

#[test]
fn ucci_ponder_as_in_the_spec() {
    let p = go(ucci_ms("go ponder time 295000 increment 0"));
    assert!(p.ponder);
    assert_eq!(p.clock_for(Red), clock(secs(295), Duration::ZERO, None));
}

#[test]
fn ucci_decimal_seconds() {
    let p = go(ucci("go time 12.5"));
    assert_eq!(p.clock_for(Red), clock(ms(12_500), Duration::ZERO, None));
    let p = go(ucci_ms("go time 12.5"));
    let expected = ms(12) + Duration::from_micros(500);
    assert_eq!(p.clock_for(Red), clock(expected, Duration::ZERO, None));
}

#[test]
fn ucci_limits() {
    let p = go(ucci("go depth 10"));
    assert_eq!(p.depth, Some(10));
    assert_eq!(p.clocks, Clocks::NotGiven);
    assert_eq!(go(ucci("go depth 0")).depth, Some(0));
    assert_eq!(go(ucci("go nodes 5000000")).nodes, Some(5_000_000));
    assert!(go(ucci("go infinite")).infinite);
    let p = go(ucci("go depth infinite"));
    assert!(p.infinite && p.depth.is_none());
    assert!(go(ucci("go ponder infinite")).ponder);
}

#[test]
fn dialect_specific_parameters() {
    for word in [
        "time",
        "increment",
        "opptime",
        "oppincrement",
        "oppmovestogo",
        "draw",
    ] {
        let err = uci(&format!("go {word} 5")).unwrap_err();
        assert_eq!(
            err,
            ParseError::UnknownGoParameter {
                token: word.into(),
                dialect: Dialect::Uci
            }
        );
    }
    for word in [
        "wtime",
        "btime",
        "winc",
        "binc",
        "movetime",
        "mate",
        "searchmoves",
    ] {
        let err = ucci(&format!("go {word} 5")).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("`{word}` is not a UCCI `go` parameter")
        );
    }
}

#[test]
fn garbled_go_lines() {
    let missing = [
        ("go depth", "depth"),
        ("go depth movetime 100", "depth"),
        ("go wtime", "wtime"),
        ("go wtime 100 btime", "btime"),
        ("go movestogo", "movestogo"),
        ("go searchmoves", "searchmoves"),
        ("go searchmoves depth 3", "searchmoves"),
        ("go searchmoves h2e2 searchmoves", "searchmoves"),
        ("go nodes infinite", "nodes"),
    ];
    for (line, keyword) in missing {
        assert_eq!(
            uci(line),
            Err(ParseError::MissingValue(keyword)),
            "{line:?}"
        );
    }
    assert_eq!(ucci("go time"), Err(ParseError::MissingValue("time")));
    assert_eq!(
        ucci("go time 10 opptime"),
        Err(ParseError::MissingValue("opptime"))
    );

    let invalid = [
        ("go depth -1", "depth", "-1"),
        (
            "go depth 99999999999999999999",
            "depth",
            "99999999999999999999",
        ),
        ("go depth 4294967296", "depth", "4294967296"),
        ("go depth 1.5", "depth", "1.5"),
        ("go depth ten", "depth", "ten"),
        (
            "go nodes 18446744073709551616",
            "nodes",
            "18446744073709551616",
        ),
        ("go nodes 1e6", "nodes", "1e6"),
        ("go wtime abc", "wtime", "abc"),
        ("go wtime 1e3", "wtime", "1e3"),
        ("go movetime inf", "movetime", "inf"),
        ("go movetime NaN", "movetime", "NaN"),
        ("go movetime 0x10", "movetime", "0x10"),
        ("go binc 1.2.3", "binc", "1.2.3"),
        ("go mate --3", "mate", "--3"),
        ("go movestogo -5", "movestogo", "-5"),
    ];
    for (line, keyword, value) in invalid {
        let expected = ParseError::InvalidNumber {
            keyword,
            value: value.into(),
        };
        assert_eq!(uci(line), Err(expected), "{line:?}");
    }
    let err = uci("go depth -1").unwrap_err();
    assert_eq!(err.to_string(), "invalid number `-1` after `depth`");

    let err = uci("go foo").unwrap_err();
    assert_eq!(err.to_string(), "`foo` is not a UCI `go` parameter");
    assert!(uci("go depth 3 h2e2").is_err());
    assert!(ucci("go time 10 draw ponder 5").is_err());
}

#[test]
fn huge_times_saturate() {
    let p = go(uci("go wtime 99999999999999999999999999999 btime 1"));
    assert_eq!(p.clock_for(Red).map(|c| c.time), Some(Duration::MAX));
    let p = go(ucci("go time 18446744073709551615.999999999"));
    assert_eq!(p.clock_for(Red).map(|c| c.time), Some(Duration::MAX));
    let p = go(ucci("go time 18446744073709551616"));
    assert_eq!(p.clock_for(Red).map(|c| c.time), Some(Duration::MAX));
    let p = go(ucci("go time 18446744073709551615"));
    assert_eq!(p.clock_for(Red).map(|c| c.time), Some(secs(u64::MAX)));
    let long = format!("go movetime {}", "9".repeat(100_000));
    assert_eq!(go(uci(&long)).movetime, Some(Duration::MAX));
}

#[test]
fn time_values() {
    let s = |t| parse_duration(t, TimeUnit::Seconds);
    let m = |t| parse_duration(t, TimeUnit::Millis);
    assert_eq!(s("0"), Some(Duration::ZERO));
    assert_eq!(s("12.5"), Some(ms(12_500)));
    assert_eq!(s(".5"), Some(ms(500)));
    assert_eq!(s("5."), Some(secs(5)));
    assert_eq!(s("+7"), Some(secs(7)));
    assert_eq!(s("-0"), Some(Duration::ZERO));
    assert_eq!(s("-12.5"), Some(Duration::ZERO));
    assert_eq!(s("007"), Some(secs(7)));
    // Below a nanosecond is dropped.
    assert_eq!(s("1.0000000019"), Some(Duration::new(1, 1)));
    assert_eq!(m("1.000001"), Some(ms(1) + Duration::from_nanos(1)));
    assert_eq!(m("1.0000009"), Some(ms(1)));
    assert_eq!(m("250"), Some(ms(250)));
    for bad in [
        "", ".", "-", "+", "-.", "1.2.3", "1e3", "inf", "NaN", "0x10", " 1", "1 ", "--1", "+-1",
        "١", "１", "1_000", "1,5",
    ] {
        assert_eq!(s(bad), None, "{bad:?}");
        assert_eq!(m(bad), None, "{bad:?}");
    }
}

#[test]
fn byoyomi_in_both_dialects() {
    let p = go(uci("go wtime 0 btime 0 byoyomi 1500"));
    assert_eq!(p.byoyomi, Some(ms(1500)));
    assert_eq!(p.clock_for(Red), clock(ms(0), ms(0), None));
    // UCCI counts in seconds unless usemillisec is on.
    assert_eq!(go(ucci("go time 60 byoyomi 10")).byoyomi, Some(secs(10)));
    assert_eq!(go(ucci_ms("go byoyomi 250")).byoyomi, Some(ms(250)));
    assert!(uci("go byoyomi").is_err());
    assert!(uci("go byoyomi soon").is_err());
}
