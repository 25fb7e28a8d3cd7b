//! Everything an engine can do wrong loses for it: illegal, malformed or missing moves,
//! crashes, hangs, time; and configuration errors.

use crate::support::*;

#[test]
fn illegal_move_loses() {
    let bad = format!("name=bad {} tc=depth:1", fake("illegal"));
    let run = against_good(&bad, &[]);
    assert_bad_lost_twice(&run, "bad played an illegal move e3e5)");
}

#[test]
fn claiming_no_move_loses() {
    let bad = format!("name=bad {} tc=depth:1", fake("nomove"));
    let run = against_good(&bad, &[]);
    assert_bad_lost_twice(&run, "bad claimed to have no move (");
}

#[test]
fn garbage_is_skipped_and_malformed_bestmove_loses() {
    let dir = TempDir::new("garbage");
    let pgn = dir.file("games.pgn");
    let bad = format!("name=bad {} tc=depth:1", fake("garbage-then-h2e2"));
    let good = scripted("good", LINE, "depth:1");
    let run = run_match(&[
        "--engine",
        &bad,
        "--engine",
        &good,
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert!(run.ok, "{}", run.stderr);
    // Game 1: after garbage lines its first move h2e2 counts; the second answer is malformed.
    assert!(
        run.stderr
            .contains("game 1/2: bad vs good 0-1 (bad sent a malformed bestmove \"zz9\")"),
        "{}",
        run.stderr
    );
    let text = std::fs::read_to_string(&pgn).unwrap();
    let games = xiangqi::read_pgn(text.as_bytes(), &xiangqi::pgn::IccsCodec).unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].tag("Red"), Some("bad"));
    assert_eq!(games[0].tag("Termination"), Some("rules infraction"));
    assert_eq!(games[0].result.as_deref(), Some("0-1"));
    let moves: Vec<String> = games[0].main_line().iter().map(|m| m.to_string()).collect();
    assert_eq!(moves, ["h2e2", "h9g7"]);
    // The scored info among the garbage gives the comment; the reason follows the last one.
    let first = games[0].moves[0].comment.as_deref().unwrap();
    assert!(first.starts_with("+0.17/5 "), "{first}");
    let last = games[0].moves[1].comment.as_deref().unwrap();
    assert!(
        last.ends_with(", bad sent a malformed bestmove \"zz9\""),
        "{last}"
    );
}

#[test]
fn crash_loses_and_the_engine_is_restarted() {
    let dir = TempDir::new("crash");
    let marker = dir.file("crashed");
    let bad = format!(
        "name=bad {} tc=depth:1",
        fake(&format!("crash-once {}", marker.display()))
    );
    let run = against_good(&bad, &[]);
    assert!(run.ok, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("game 1/2: bad vs good 0-1 (bad crashed (exit status: 3))"),
        "{}",
        run.stderr
    );
    // A new process played game 2: it answered (illegally) instead of being dead.
    assert!(
        run.stderr
            .contains("game 2/2: good vs bad 1-0 (bad played an illegal move e3e5)"),
        "{}",
        run.stderr
    );
}

#[test]
fn always_crashing_engine_loses_every_game() {
    let bad = format!("name=bad {} tc=depth:1", fake("crash"));
    let run = against_good(&bad, &[]);
    assert_bad_lost_twice(&run, "bad crashed (exit status: 3))");
}

#[test]
fn hung_engine_loses_and_is_killed() {
    let dir = TempDir::new("hang");
    let log = dir.file("log");
    let bad = format!(
        "name=bad {} tc=movetime:100",
        fake(&format!("hang --log {}", log.display()))
    );
    let started = std::time::Instant::now();
    let run = against_good(&bad, &[]);
    assert_bad_lost_twice(&run, "bad hung (no bestmove within 11");
    // movetime 100 ms + 1000 ms of grace, twice; not the 60 s of --hang-timeout.
    assert!(started.elapsed().as_secs() < 30);
    let depth = format!("name=bad {} tc=depth:1", fake("hang"));
    let run = against_good(&depth, &["--hang-timeout", "300"]);
    assert_bad_lost_twice(&run, "bad hung (no bestmove within 3");
    // The hung processes got `quit` and were then killed: no fake is left running.
    let pids = running_fakes(&log);
    assert!(pids.is_empty(), "still running: {pids:?}");
}

#[test]
fn slow_engine_loses_on_time() {
    let bad = format!("name=bad {} tc=clock:0.3+0", fake("slow 1.5"));
    let run = against_good(&bad, &["--time-margin", "50"]);
    assert_bad_lost_twice(&run, "bad lost on time (no move after 3");
}

#[test]
fn configuration_errors() {
    let good = scripted("good", LINE, "depth:1");
    let run = run_match(&["--engine", &good]);
    assert!(!run.ok);
    assert!(run.stderr.contains("at least two"), "{}", run.stderr);
    let missing = "name=x cmd=/nonexistent/engine tc=depth:1";
    let run = run_match(&["--engine", &good, "--engine", missing]);
    assert!(!run.ok);
    assert!(
        run.stderr.contains("could not be started"),
        "{}",
        run.stderr
    );
    let run = run_match(&["--engine", &good, "--engine", "name=y cmd=python3"]);
    assert!(run.stderr.contains("no tc="), "{}", run.stderr);
    let run = run_match(&[
        "--engine",
        &good,
        "--engine",
        "name=y cmd=python3 tc=movetime:100 ponder=true",
    ]);
    assert!(!run.ok);
    assert!(
        run.stderr
            .contains("engine y: ponder=true needs a clock (tc=clock:…), not tc=movetime:100"),
        "{}",
        run.stderr
    );
    let run = run_match(&["--engine", &good, "--engine", &good]);
    assert!(
        run.stderr.contains("two engines are named"),
        "{}",
        run.stderr
    );
    let other = scripted("other", LINE, "depth:1");
    let run = run_match(&[
        "--engine", &good, "--engine", &other, "--sprt", "elo0=5", "elo1=0",
    ]);
    assert!(run.stderr.contains("bad --sprt"), "{}", run.stderr);
}
