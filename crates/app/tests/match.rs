//! `xiangqi match` end to end: fake engines (a Python script in `match_fakes/`, one mode per
//! kind of misbehaviour) and the real binary as an engine.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A scratch directory, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let n = COUNT.fetch_add(1, Ordering::Relaxed);
        let dir =
            std::env::temp_dir().join(format!("xiangqi-match-{name}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create temp dir");
        TempDir(dir)
    }

    fn file(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The `cmd=… args=…` part of an engine spec running the fake in `mode`.
fn fake(mode: &str) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/match_fakes/fake_engine.py");
    format!("cmd=python3 args='{} {mode}'", script.display())
}

/// The spec of a well-behaved fake playing `moves` (move k of the list at ply k).
fn scripted(name: &str, moves: &str, tc: &str) -> String {
    format!("name={name} {} tc={tc}", fake(&format!("script {moves}")))
}

/// The first moves of a quiet game, enough for any test that ends early.
const LINE: &str = "h2e2,h9g7,h0g2,i9h9,i0h0,b9c7,b0c2,a9b9,a0b0,c6c5";

struct Run {
    ok: bool,
    stdout: String,
    stderr: String,
}

impl Run {
    fn last_line(&self) -> &str {
        self.stdout.lines().last().unwrap_or("")
    }
}

fn run_match(args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_xiangqi"))
        .arg("match")
        .args(args)
        .output()
        .expect("run xiangqi match");
    Run {
        ok: out.status.success(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Plays `bad` against the scripted `good` for one opening, both colours.
fn against_good(bad: &str, extra: &[&str]) -> Run {
    let good = scripted("good", LINE, "depth:1");
    let mut args = vec!["--engine", bad, "--engine", &good];
    args.extend_from_slice(extra);
    run_match(&args)
}

fn assert_bad_lost_twice(run: &Run, reason: &str) {
    assert!(run.ok, "{}", run.stderr);
    let line1 = format!("game 1/2: bad vs good 0-1 ({reason}");
    let line2 = format!("game 2/2: good vs bad 1-0 ({reason}");
    assert!(run.stderr.contains(&line1), "{line1}\n{}", run.stderr);
    assert!(run.stderr.contains(&line2), "{line2}\n{}", run.stderr);
    assert!(
        run.last_line()
            .starts_with("bad vs good: W 0 D 0 L 2 (0.0%) Elo -inf"),
        "{}",
        run.stdout
    );
}

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

/// Processes whose command line mentions `needle` (Linux `/proc`; empty elsewhere).
fn running_fakes(needle: &Path) -> Vec<String> {
    let needle = needle.display().to_string();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| {
            let cmdline = std::fs::read(e.path().join("cmdline")).ok()?;
            let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            cmdline.contains(&needle).then_some(cmdline)
        })
        .collect()
}

/// Whether process `pid` is gone: `kill -0` fails, or only a zombie is left (an orphan
/// whose new parent, the container's first process, may never reap it).
fn is_gone(pid: &str) -> bool {
    let alive = Command::new("kill")
        .args(["-0", pid])
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    let zombie = std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|stat| {
            let (_, rest) = stat.rsplit_once(')')?;
            rest.split_whitespace().next().map(|state| state == "Z")
        })
        .unwrap_or(false);
    !alive || zombie
}

/// A shell script in `dir` that runs the fake engine as its child (not with `exec`), the way
/// engines are often wrapped.
#[cfg(unix)]
fn wrapper_script(dir: &TempDir) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/match_fakes/fake_engine.py");
    let path = dir.file("engine.sh");
    let text = format!(
        "#!/bin/sh\npython3 '{}' \"$@\"\nexit $?\n",
        script.display()
    );
    std::fs::write(&path, text).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

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
    let left: Vec<&&str> = started.iter().filter(|pid| !is_gone(pid)).collect();
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
    let left: Vec<&str> = text.lines().filter(|pid| !is_gone(pid)).collect();
    assert!(left.is_empty(), "still running: {left:?}");
}

#[test]
fn slow_engine_loses_on_time() {
    let bad = format!("name=bad {} tc=clock:0.3+0", fake("slow 1.5"));
    let run = against_good(&bad, &["--time-margin", "50"]);
    assert_bad_lost_twice(&run, "bad lost on time (no move after 3");
}

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

/// The first move of every game in the PGN file, in file order.
fn first_moves(pgn: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(pgn).unwrap();
    let games = xiangqi::read_pgn(text.as_bytes(), &xiangqi::pgn::IccsCodec).unwrap();
    games
        .iter()
        .map(|g| {
            g.main_line()
                .first()
                .map(|m| m.to_string())
                .unwrap_or_default()
        })
        .collect()
}

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

/// Keeps the games of a PGN file whose position in the file (from 0) passes `keep`.
fn keep_games(pgn: &Path, keep: impl Fn(usize) -> bool) {
    let text = std::fs::read_to_string(pgn).unwrap();
    let mut games: Vec<String> = Vec::new();
    for line in text.lines() {
        if line.starts_with("[Game ") || games.is_empty() {
            games.push(String::new());
        }
        if let Some(game) = games.last_mut() {
            game.push_str(line);
            game.push('\n');
        }
    }
    let kept: String = games
        .into_iter()
        .enumerate()
        .filter(|(i, _)| keep(*i))
        .map(|(_, g)| g)
        .collect();
    std::fs::write(pgn, kept).unwrap();
}

/// The numbers of the games a run played, from its progress lines.
fn played_numbers(run: &Run) -> Vec<usize> {
    run.stderr
        .lines()
        .filter_map(|l| l.strip_prefix("game "))
        .filter_map(|l| l.split('/').next()?.parse().ok())
        .collect()
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

/// LINE's moves of each side in another order: each side's moves stay legal whatever the
/// other side plays from either list, but they rarely are the replies LINE expects.
const OTHER_LINE: &str = "b0c2,b9c7,a0b0,a9b9,h2e2,h9g7,h0g2,i9h9,i0h0,c6c5";

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
