//! How games end and are judged: the rules, adjudication, the protocol text, the SPRT, and the
//! real engine playing itself.

use crate::support::*;

#[test]
fn rules_end_games_in_a_round_robin() {
    let dir = TempDir::new("robin");
    let openings = dir.file("openings.txt");
    // Red mates at once with b0b9.
    std::fs::write(
        &openings,
        "# mate in one\n4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1\n",
    )
    .unwrap();
    let engines: Vec<String> = ["A", "B", "C"]
        .iter()
        .map(|n| scripted(n, "b0b9", "depth:1"))
        .collect();
    let mut args = vec![
        "--openings",
        openings.to_str().unwrap(),
        "--concurrency",
        "3",
    ];
    for e in &engines {
        args.extend(["--engine", e.as_str()]);
    }
    let run = run_match(&args);
    assert!(run.ok, "{}", run.stderr);
    assert_eq!(
        run.stderr.matches("1-0 (checkmate)").count(),
        6,
        "{}",
        run.stderr
    );
    assert!(
        run.stdout.contains("A vs B: W 1 D 0 L 1 (50.0%)"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("B vs C: W 1 D 0 L 1 (50.0%)"),
        "{}",
        run.stdout
    );
    assert_eq!(
        run.last_line(),
        "standings: A 2/4 (50.0%), B 2/4 (50.0%), C 2/4 (50.0%)"
    );
}

/// Red checks forever with the chariot; the general steps between e9 and e8.
const PERPETUAL: &str = "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1";
const PERPETUAL_LINE: &str = "a0a9,e9e8,a9a8,e8e9,a8a9,e9e8,a9a8,e8e9,a8a9,e9e8";

#[test]
fn perpetual_check_loses_and_the_ply_cap_draws() {
    let dir = TempDir::new("perpetual");
    let openings = dir.file("openings.txt");
    std::fs::write(&openings, format!("{PERPETUAL}\n")).unwrap();
    let a = scripted("A", PERPETUAL_LINE, "depth:1");
    let b = scripted("B", PERPETUAL_LINE, "depth:1");
    let path = openings.to_str().unwrap();
    let run = run_match(&["--engine", &a, "--engine", &b, "--openings", path]);
    assert!(run.ok, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("game 1/2: A vs B 0-1 (perpetual check by A)"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("game 2/2: B vs A 0-1 (perpetual check by B)"),
        "{}",
        run.stderr
    );
    let run = run_match(&[
        "--engine",
        &a,
        "--engine",
        &b,
        "--openings",
        path,
        "--max-plies",
        "4",
    ]);
    assert!(
        run.stderr.contains("1/2-1/2 (ply limit (4) reached)"),
        "{}",
        run.stderr
    );
    assert!(run.last_line().starts_with("A vs B: W 0 D 2 L 0 (50.0%)"));
}

#[test]
fn score_adjudication() {
    let quiet = scripted("A", LINE, "depth:1");
    let other = scripted("B", LINE, "depth:1");
    let run = run_match(&[
        "--engine",
        &quiet,
        "--engine",
        &other,
        "--draw-score",
        "10",
        "--draw-moves",
        "1",
        "--draw-after",
        "0",
    ]);
    assert!(
        run.stderr
            .contains("game 1/2: A vs B 1/2-1/2 (scores within ±10 cp for 1 moves each)"),
        "{}",
        run.stderr
    );
    let losing = format!(
        "name=L {} tc=depth:1",
        fake(&format!("script {LINE} --score -1000"))
    );
    let run = run_match(&[
        "--engine",
        &losing,
        "--engine",
        &other,
        "--resign-score",
        "500",
        "--resign-moves",
        "2",
    ]);
    assert!(
        run.stderr
            .contains("game 1/2: L vs B 0-1 (L's score was -500 cp or worse for 2 moves)"),
        "{}",
        run.stderr
    );
    assert!(
        run.last_line().starts_with("L vs B: W 0 D 0 L 2"),
        "{}",
        run.stdout
    );
}

#[test]
fn protocol_text_ucci_and_uci_variant() {
    let dir = TempDir::new("protocol");
    let (log_a, log_b) = (dir.file("a.log"), dir.file("b.log"));
    let a = format!(
        "name=A proto=ucci {}",
        fake(&format!(
            "script h2e2,h9g7,h0g2,i9h9 --ucci --log {}",
            log_a.display()
        ))
    );
    let b = format!(
        "name=B uci-variant=true option.Hash=8 {}",
        fake(&format!(
            "script h3e3,h10g8,h1g3,i10h10 --log {}",
            log_b.display()
        ))
    );
    let run = run_match(&[
        "--engine",
        &a,
        "--engine",
        &b,
        "--each",
        "tc=clock:10+0.5",
        "--max-plies",
        "4",
    ]);
    assert!(run.ok, "{}", run.stderr);
    assert_eq!(run.stderr.matches("(ply limit (4) reached)").count(), 2);
    let a_log = std::fs::read_to_string(&log_a).unwrap();
    let b_log = std::fs::read_to_string(&log_b).unwrap();
    for expected in [
        "ucci",
        "setoption usemillisec true",
        "setoption newgame",
        "go time 10000 increment 500 opptime 10000 oppincrement 500",
        "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2 h9g7",
        "quit",
    ] {
        assert!(a_log.lines().any(|l| l == expected), "{expected}\n{a_log}");
    }
    for expected in [
        "uci",
        "setoption name UCI_Variant value xiangqi",
        "setoption name Hash value 8",
        "ucinewgame",
        "position startpos moves h3e3",
        "position startpos moves h3e3 h10g8 h1g3",
        "go wtime 10000 winc 500 btime 10000 binc 500",
        "quit",
    ] {
        assert!(b_log.lines().any(|l| l == expected), "{expected}\n{b_log}");
    }
}

/// A sweep adds about ln(s1/s0) to the LLR per game: with [0, 100] twelve won pairs decide.
#[test]
fn sprt_stops_a_one_sided_match() {
    let good = scripted("good", LINE, "depth:1");
    let bad = format!("name=bad {} tc=depth:1", fake("illegal"));
    let run = run_match(&[
        "--engine",
        &good,
        "--engine",
        &bad,
        "--rounds",
        "50",
        "--sprt",
        "elo0=0",
        "elo1=100",
        "alpha=0.05",
        "beta=0.05",
    ]);
    assert!(run.ok, "{}", run.stderr);
    assert!(
        run.stdout.contains("(stopped by the SPRT: H1 accepted)"),
        "{}",
        run.stdout
    );
    let last = run.last_line();
    assert!(last.starts_with("good vs bad: W "), "{last}");
    assert!(last.ends_with("[-2.94, 2.94] H1 accepted"), "{last}");
    let games: u32 = last
        .split("W ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|w| w.parse().ok())
        .unwrap();
    assert!((20..30).contains(&games), "{last}");
}

/// The real engine at depth 1 against depth 3.
///
/// Only the shape of the result is checked: which side wins a handful of games is not
/// certain, and the engine's own protocol driver can drop a `position` that follows its
/// `bestmove` too closely on a loaded machine (its search thread has not exited yet), which
/// then shows up here as a hung game.
#[test]
fn real_engine_depth_1_against_depth_3() {
    let dir = TempDir::new("real");
    let openings = dir.file("openings.txt");
    let pgn = dir.file("games.pgn");
    std::fs::write(
        &openings,
        "炮二平五 马８进７\nrnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 | c3c4\n",
    )
    .unwrap();
    let bin = env!("CARGO_BIN_EXE_xiangqi");
    let d1 = format!("name=d1 cmd={bin} args=uci tc=depth:1");
    let d3 = format!("name=d3 cmd={bin} args=uci tc=depth:3");
    let run = run_match(&[
        "--engine",
        &d1,
        "--engine",
        &d3,
        "--openings",
        openings.to_str().unwrap(),
        "--concurrency",
        "2",
        "--max-plies",
        "200",
        "--hang-timeout",
        "5000",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert!(run.ok, "{}", run.stderr);
    let finished = run
        .stderr
        .lines()
        .filter(|l| l.starts_with("game "))
        .count();
    assert_eq!(finished, 4, "{}", run.stderr);
    let last = run.last_line();
    let fields: Vec<&str> = last.split_whitespace().collect();
    assert_eq!(&fields[..4], ["d1", "vs", "d3:", "W"], "{last}");
    let count = |i: usize| fields[i].parse::<u32>().unwrap();
    assert_eq!(count(4) + count(6) + count(8), 4, "{last}");
    assert!(
        fields[9].starts_with('(') && fields[9].ends_with("%)"),
        "{last}"
    );
    assert_eq!(fields[10], "Elo", "{last}");
    assert_eq!(fields[12], "±", "{last}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    let games = xiangqi::read_pgn(text.as_bytes(), &xiangqi::pgn::IccsCodec).unwrap();
    assert_eq!(games.len(), 4);
    for game in &games {
        assert!(game.result.is_some());
        assert!(matches!(game.tag("Red"), Some("d1" | "d3")));
        assert!(game.tag("Termination").is_some());
        assert!(!game.moves.is_empty());
    }
}
