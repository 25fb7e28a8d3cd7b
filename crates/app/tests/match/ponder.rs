//! Pondering: `go ponder`, `ponderhit` and `stop`, and what is charged to the clock.

use crate::support::*;

#[test]
fn pondering_hits_and_misses() {
    let dir = TempDir::new("ponder");
    let log = dir.file("a.log");
    let a = format!(
        "name=A ponder=true {}",
        fake(&format!("script {LINE} --ponder --log {}", log.display()))
    );
    let b = scripted("B", LINE, "clock:10");
    let run = run_match(&[
        "--engine",
        &a,
        "--engine",
        &b,
        "--each",
        "tc=clock:10",
        "--max-plies",
        "8",
    ]);
    assert!(run.ok, "{}", run.stderr);
    assert_eq!(run.stderr.matches("(ply limit (8) reached)").count(), 2);
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines.contains(&"setoption name Ponder value true"),
        "{text}"
    );
    // After its first move as Red, A ponders on LINE's reply with its own clock.
    let at = lines
        .iter()
        .position(|l| *l == "position startpos moves h2e2 h9g7")
        .unwrap();
    assert!(lines[at + 1].starts_with("go ponder wtime "), "{text}");
    assert!(lines[at + 1].contains(" btime 10000 binc 0"), "{text}");
    // Every reply was the expected one: three hits per game; the game that B ends leaves A
    // pondering, which `stop` ends.
    assert_eq!(
        lines.iter().filter(|l| **l == "ponderhit").count(),
        6,
        "{text}"
    );
    assert_eq!(lines.iter().filter(|l| **l == "stop").count(), 1, "{text}");

    // Against other replies: `stop`, then a normal search of the real position.
    let miss_log = dir.file("miss.log");
    let a = format!(
        "name=A ponder=true proto=ucci {}",
        fake(&format!(
            "script {LINE} --ponder --ucci --log {}",
            miss_log.display()
        ))
    );
    let b = scripted("B", OTHER_LINE, "clock:10");
    let run = run_match(&[
        "--engine",
        &a,
        "--engine",
        &b,
        "--each",
        "tc=clock:10",
        "--max-plies",
        "8",
    ]);
    assert!(run.ok, "{}", run.stderr);
    assert_eq!(run.stderr.matches("(ply limit (8) reached)").count(), 2);
    let text = std::fs::read_to_string(&miss_log).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.contains(&"setoption ponder true"), "{text}");
    assert!(
        lines.iter().any(|l| l.starts_with("go ponder time ")),
        "{text}"
    );
    assert!(!lines.contains(&"ponderhit"), "{text}");
    let stop = lines.iter().position(|l| *l == "stop").unwrap();
    assert_eq!(lines[stop + 1], "isready", "{text}");
    assert!(lines[stop + 2].starts_with("position "), "{text}");
    assert!(lines[stop + 3].starts_with("go time "), "{text}");
}

/// A's clock of 0.6 s could not pay for B's 0.25 s a move if pondering were charged; the
/// time after `ponderhit` is.
#[test]
fn pondering_is_free_but_ponderhit_time_counts() {
    let ponderer = |extra: &str| {
        format!(
            "name=A ponder=true tc=clock:0.6 {}",
            fake(&format!("script {LINE} --ponder {extra}"))
        )
    };
    let slow = format!(
        "name=B tc=clock:30 {}",
        fake(&format!("script {LINE} --delay 0.25"))
    );
    let run = run_match(&[
        "--engine",
        &ponderer(""),
        "--engine",
        &slow,
        "--max-plies",
        "10",
    ]);
    assert!(run.ok, "{}", run.stderr);
    assert_eq!(
        run.stderr.matches("(ply limit (10) reached)").count(),
        2,
        "{}",
        run.stderr
    );
    let quick = scripted("B", LINE, "clock:30");
    let run = run_match(&[
        "--engine",
        &ponderer("--hit-delay 0.25"),
        "--engine",
        &quick,
        "--max-plies",
        "10",
    ]);
    assert!(run.ok, "{}", run.stderr);
    assert!(
        run.stderr.contains("game 1/2: A vs B 0-1 (A lost on time"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("game 2/2: B vs A 1-0 (A lost on time"),
        "{}",
        run.stderr
    );
}

/// Our own engine ponders in both protocols (UCI `go ponder wtime …`, UCCI `go ponder time …`).
#[test]
fn real_engine_ponders_in_uci_and_ucci() {
    let bin = env!("CARGO_BIN_EXE_xiangqi");
    let uci = format!("name=uci cmd={bin} args=uci ponder=true tc=clock:3+0.05");
    let ucci = format!("name=ucci cmd={bin} args=ucci proto=ucci ponder=true tc=clock:3+0.05");
    let run = run_match(&[
        "--engine",
        &uci,
        "--engine",
        &ucci,
        "--max-plies",
        "24",
        "--time-margin",
        "1000",
        "--debug",
    ]);
    assert!(run.ok, "{}", run.stderr);
    let games: Vec<&str> = run
        .stderr
        .lines()
        .filter(|l| l.starts_with("game "))
        .collect();
    assert_eq!(games.len(), 2, "{}", run.stderr);
    for game in &games {
        for bad in [
            "hung",
            "crashed",
            "lost on time",
            "illegal",
            "malformed",
            "sent no",
        ] {
            assert!(!game.contains(bad), "{game}");
        }
    }
    for expected in ["uci < go ponder wtime ", "ucci < go ponder time "] {
        assert!(run.stderr.contains(expected), "{expected}");
    }
    assert!(
        run.stderr.contains("uci < ponderhit") || run.stderr.contains("ucci < ponderhit"),
        "no ponder hit in 24 plies"
    );
}
