//! The order of the games: shuffled openings, and resuming a match from its PGN file.

use crate::support::*;
use std::path::Path;

#[test]
fn shuffled_openings_follow_the_seed() {
    let dir = TempDir::new("shuffle");
    let openings = dir.file("openings.txt");
    let file_order = ["h2e2", "b2e2", "c3c4", "g3g4", "h0g2", "b0c2"];
    std::fs::write(&openings, file_order.join("\n")).unwrap();
    let a = scripted("A", LINE, "depth:1");
    let b = scripted("B", LINE, "depth:1");
    // The book move fills the one ply allowed: no engine has to move.
    let play = |pgn: &Path, extra: &[&str]| {
        let mut args = vec![
            "--engine",
            &a,
            "--engine",
            &b,
            "--openings",
            openings.to_str().unwrap(),
            "--max-plies",
            "1",
            "--pgn",
            pgn.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let run = run_match(&args);
        assert!(run.ok, "{}", run.stderr);
        (first_moves(pgn), run.stderr)
    };
    let (plain, _) = play(&dir.file("plain.pgn"), &[]);
    let twice = |m: &[&str]| {
        m.iter()
            .flat_map(|m| [m.to_string(), m.to_string()])
            .collect()
    };
    let expected: Vec<String> = twice(&file_order);
    assert_eq!(plain, expected);
    let (first, stderr) = play(&dir.file("a.pgn"), &["--shuffle-openings", "--seed", "7"]);
    assert!(
        stderr.contains("openings shuffled with --seed 7"),
        "{stderr}"
    );
    let (again, _) = play(&dir.file("b.pgn"), &["--shuffle-openings", "--seed", "7"]);
    assert_eq!(first, again);
    assert_ne!(first, plain);
    let mut sorted = first.clone();
    sorted.sort();
    let mut expected_sorted = plain.clone();
    expected_sorted.sort();
    assert_eq!(sorted, expected_sorted);
    // Colour-swapped pairs stay together.
    assert!(first.chunks(2).all(|pair| pair[0] == pair[1]), "{first:?}");
    // Without --seed one is drawn and printed, and repeats the order.
    let (drawn, stderr) = play(&dir.file("c.pgn"), &["--shuffle-openings"]);
    let seed = stderr
        .split("--seed ")
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .unwrap()
        .to_string();
    let (repeated, _) = play(&dir.file("d.pgn"), &["--shuffle-openings", "--seed", &seed]);
    assert_eq!(drawn, repeated);
    let run = run_match(&["--engine", &a, "--engine", &b, "--seed", "3"]);
    assert!(!run.ok);
    assert!(run.stderr.contains("--shuffle-openings"), "{}", run.stderr);
}

#[test]
fn resume_skips_and_counts_the_games_in_the_pgn() {
    let dir = TempDir::new("resume");
    let openings = dir.file("openings.txt");
    std::fs::write(&openings, "h2e2\nc3c4\nb0c2\n").unwrap();
    let pgn = dir.file("games.pgn");
    let good = scripted("good", LINE, "depth:1");
    let bad = format!("name=bad {} tc=depth:1", fake("illegal"));
    let play = |engines: [&str; 2], extra: &[&str]| {
        let mut args = vec![
            "--engine",
            engines[0],
            "--engine",
            engines[1],
            "--openings",
            openings.to_str().unwrap(),
            "--pgn",
            pgn.to_str().unwrap(),
            "--resume",
        ];
        args.extend_from_slice(extra);
        run_match(&args)
    };
    // No file yet: everything is played.
    let run = play([&good, &bad], &[]);
    assert!(run.ok, "{}", run.stderr);
    assert!(
        run.stderr.contains("resuming: 0 of 6 games already in"),
        "{}",
        run.stderr
    );
    assert_eq!(played_numbers(&run), [1, 2, 3, 4, 5, 6]);
    // As if games 2 and 5 were still running when the match was stopped.
    keep_games(&pgn, |i| i != 1 && i != 4);
    let run = play([&good, &bad], &[]);
    assert!(run.ok, "{}", run.stderr);
    assert_eq!(played_numbers(&run), [2, 5]);
    assert!(
        run.stderr.contains("game 2/6: bad vs good 0-1"),
        "{}",
        run.stderr
    );
    assert!(run.stdout.starts_with("games 6 of 6;"), "{}", run.stdout);
    assert!(
        run.last_line().starts_with("good vs bad: W 6 D 0 L 0"),
        "{}",
        run.stdout
    );
    // More rounds: only the new ones are played, the totals hold all.
    let run = play([&good, &bad], &["--rounds", "2"]);
    assert!(run.ok, "{}", run.stderr);
    assert_eq!(played_numbers(&run), [7, 8, 9, 10, 11, 12]);
    assert!(
        run.last_line().starts_with("good vs bad: W 12 D 0 L 0"),
        "{}",
        run.stdout
    );
    let text = std::fs::read_to_string(&pgn).unwrap();
    let games = xiangqi::read_pgn(text.as_bytes(), &xiangqi::pgn::IccsCodec).unwrap();
    let mut rounds: Vec<usize> = games
        .iter()
        .map(|g| g.tag("Round").unwrap().parse().unwrap())
        .collect();
    rounds.sort_unstable();
    assert_eq!(rounds, (1..=12).collect::<Vec<_>>());
    // A finished match has nothing left to play.
    let run = play([&good, &bad], &["--rounds", "2"]);
    assert!(run.ok, "{}", run.stderr);
    assert!(played_numbers(&run).is_empty(), "{}", run.stderr);
    assert!(run.last_line().starts_with("good vs bad: W 12 D 0 L 0"));
}

#[test]
fn resume_refuses_another_match() {
    let dir = TempDir::new("resume-other");
    let openings = dir.file("openings.txt");
    std::fs::write(&openings, "h2e2\nc3c4\nb0c2\ng3g4\n").unwrap();
    let pgn = dir.file("games.pgn");
    let good = scripted("good", LINE, "depth:1");
    let bad = format!("name=bad {} tc=depth:1", fake("illegal"));
    let other = format!("name=other {} tc=depth:1", fake("illegal"));
    let path = pgn.to_str().unwrap();
    let opening_path = openings.to_str().unwrap();
    let base = ["--openings", opening_path, "--pgn", path];
    let mut args = vec!["--engine", &good, "--engine", &bad];
    args.extend(base);
    assert!(run_match(&args).ok);
    let resume = |engines: [&str; 2], extra: &[&str]| {
        let mut args = vec!["--engine", engines[0], "--engine", engines[1], "--resume"];
        args.extend(base);
        args.extend_from_slice(extra);
        run_match(&args)
    };
    let run = resume([&good, &other], &[]);
    assert!(!run.ok);
    assert!(
        run.stderr
            .contains("is good vs bad, but game 1 of this match is good vs other"),
        "{}",
        run.stderr
    );
    let run = resume([&bad, &good], &[]);
    assert!(!run.ok);
    assert!(
        run.stderr.contains("belongs to another match"),
        "{}",
        run.stderr
    );
    let run = resume([&good, &bad], &["--shuffle-openings", "--seed", "1"]);
    assert!(!run.ok);
    assert!(
        run.stderr.contains("did not start from opening"),
        "{}",
        run.stderr
    );
    std::fs::write(&openings, "h2e2\n").unwrap();
    let run = resume([&good, &bad], &[]);
    assert!(!run.ok);
    assert!(
        run.stderr.contains("not a game number of this schedule"),
        "{}",
        run.stderr
    );
    // --resume needs --pgn.
    let run = run_match(&["--engine", &good, "--engine", &bad, "--resume"]);
    assert!(!run.ok);
    assert!(run.stderr.contains("--pgn"), "{}", run.stderr);
}

#[test]
fn resumed_games_count_for_the_sprt() {
    let dir = TempDir::new("resume-sprt");
    let pgn = dir.file("games.pgn");
    let good = scripted("good", LINE, "depth:1");
    let bad = format!("name=bad {} tc=depth:1", fake("illegal"));
    let path = pgn.to_str().unwrap();
    let run = run_match(&[
        "--engine", &good, "--engine", &bad, "--rounds", "10", "--pgn", path,
    ]);
    assert!(run.ok, "{}", run.stderr);
    // Twenty won games are there; a few more decide [0, 100].
    let sprt = [
        "--engine", &good, "--engine", &bad, "--rounds", "50", "--pgn", path, "--resume", "--sprt",
        "elo0=0", "elo1=100",
    ];
    let run = run_match(&sprt);
    assert!(run.ok, "{}", run.stderr);
    assert!(
        run.stdout.contains("(stopped by the SPRT: H1 accepted)"),
        "{}",
        run.stdout
    );
    let played = played_numbers(&run);
    assert!(!played.is_empty() && played.len() < 10, "{played:?}");
    assert!(played.iter().all(|&n| n > 20), "{played:?}");
    // Resumed once more, the file alone decides: nothing is played.
    let run = run_match(&sprt);
    assert!(run.ok, "{}", run.stderr);
    assert!(played_numbers(&run).is_empty(), "{}", run.stderr);
    assert!(run.stdout.contains("(stopped by the SPRT: H1 accepted)"));
}
