//! Moves-per-period clocks.

use crate::support::*;

/// `clock:2/0.5`: 0.2 s a move would run out after three moves, but the clock is filled up
/// again after every second move; `movestogo` counts down to the end of each period.
#[test]
fn moves_per_period_clocks() {
    let dir = TempDir::new("periods");
    let (log_a, log_b) = (dir.file("a.log"), dir.file("b.log"));
    let a = format!(
        "name=A tc=clock:2/0.5 {}",
        fake(&format!(
            "script {LINE} --delay 0.2 --log {}",
            log_a.display()
        ))
    );
    let b = format!(
        "name=B proto=ucci tc=clock:3/10+0.1 {}",
        fake(&format!("script {LINE} --ucci --log {}", log_b.display()))
    );
    let run = run_match(&["--engine", &a, "--engine", &b, "--max-plies", "8"]);
    assert!(run.ok, "{}", run.stderr);
    assert_eq!(
        run.stderr.matches("(ply limit (8) reached)").count(),
        2,
        "{}",
        run.stderr
    );
    let a_log = std::fs::read_to_string(&log_a).unwrap();
    let a_gos: Vec<&str> = a_log.lines().filter(|l| l.starts_with("go ")).collect();
    assert_eq!(a_gos.len(), 8, "{a_log}");
    // Game 1, A is Red: full clocks, then movestogo 1, 2, 1.
    assert_eq!(
        a_gos[0],
        "go wtime 500 winc 0 btime 10000 binc 100 movestogo 2"
    );
    for (i, go) in a_gos[..4].iter().enumerate() {
        let expected = if i % 2 == 0 {
            " movestogo 2"
        } else {
            " movestogo 1"
        };
        assert!(go.ends_with(expected), "{go}\n{a_log}");
    }
    // Game 2, A is Black.
    assert!(
        a_gos[4].starts_with("go btime 500 binc 0 wtime "),
        "{a_log}"
    );
    let b_log = std::fs::read_to_string(&log_b).unwrap();
    let b_gos: Vec<&str> = b_log.lines().filter(|l| l.starts_with("go ")).collect();
    assert!(
        b_gos[0].starts_with("go time 10000 movestogo 3 increment 100 opptime "),
        "{b_log}"
    );
    assert!(b_gos[0].ends_with(" oppmovestogo 1"), "{b_log}");
    assert!(b_gos[1].contains(" movestogo 2 increment 100 "), "{b_log}");
}
