//! Engine processes die with their process group: wrapper scripts, hangs, Ctrl-C.

use crate::support::*;
use std::process::Command;

#[cfg(unix)]
#[test]
fn wrapped_engines_die_with_their_process_group() {
    let dir = TempDir::new("group");
    let wrapper = wrapper_script(&dir);
    let pids = dir.file("pids");
    // Hangs on `go`, ignores `quit`, SIGTERM and the end of its input.
    let hung = format!(
        "name=bad cmd={} args='hang --stubborn --pidfile {}' tc=movetime:100",
        wrapper.display(),
        pids.display()
    );
    let run = against_good(&hung, &[]);
    assert_bad_lost_twice(&run, "bad hung (no bestmove within 11");
    // Plays well but ignores `quit` when the match is over.
    let stubborn = format!(
        "name=A cmd={} args='script {LINE} --stubborn --pidfile {}' tc=depth:1",
        wrapper.display(),
        pids.display()
    );
    let other = scripted("B", LINE, "depth:1");
    let run = run_match(&[
        "--engine",
        &stubborn,
        "--engine",
        &other,
        "--max-plies",
        "4",
    ]);
    assert!(run.ok, "{}", run.stderr);
    assert_eq!(run.stderr.matches("(ply limit (4) reached)").count(), 2);
    let text = std::fs::read_to_string(&pids).unwrap();
    let started: Vec<&str> = text.lines().collect();
    // The start-up check and one process per game (the hung ones were replaced), then one
    // start-up check and one process for both games of the second match.
    assert!(started.len() >= 4, "{text}");
    let left = still_running(started.iter().copied());
    assert!(left.is_empty(), "still running: {left:?}");
}

/// Ctrl-C (SIGINT to the match alone, as the engines are in groups of their own) stops the
/// games, kills the engines, prints the summary so far and fails with a hint to resume.
#[cfg(unix)]
#[test]
fn ctrl_c_stops_the_match_and_its_engines() {
    let dir = TempDir::new("interrupt");
    let wrapper = wrapper_script(&dir);
    let pids = dir.file("pids");
    let engine = |name: &str| {
        format!(
            "name={name} cmd={} args='script {LINE} --delay 0.2 --stubborn --pidfile {}' \
             tc=movetime:1000",
            wrapper.display(),
            pids.display()
        )
    };
    let (out, err) = (dir.file("out"), dir.file("err"));
    let pgn = dir.file("games.pgn");
    let mut child = Command::new(env!("CARGO_BIN_EXE_xiangqi"))
        .arg("match")
        .args(["--engine", &engine("A"), "--engine", &engine("B")])
        .args(["--rounds", "50", "--pgn", pgn.to_str().unwrap()])
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(&err).unwrap())
        .spawn()
        .unwrap();
    // Two start-up checks, then the two engines of the first game.
    let started = std::time::Instant::now();
    while std::fs::read_to_string(&pids)
        .unwrap_or_default()
        .lines()
        .count()
        < 4
    {
        assert!(
            started.elapsed().as_secs() < 30,
            "the engines did not start"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    std::thread::sleep(std::time::Duration::from_millis(500));
    let pid = child.id().to_string();
    assert!(Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .unwrap()
        .success());
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(started.elapsed().as_secs() < 60, "the match did not stop");
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    let stdout = std::fs::read_to_string(&out).unwrap();
    let stderr = std::fs::read_to_string(&err).unwrap();
    assert!(!status.success(), "{stderr}");
    assert!(stdout.contains(" of 100 (interrupted)"), "{stdout}");
    assert!(
        stderr.contains("of 100 games; --resume continues it"),
        "{stderr}"
    );
    let text = std::fs::read_to_string(&pids).unwrap();
    let left = still_running(text.lines());
    assert!(left.is_empty(), "still running: {left:?}");
}
