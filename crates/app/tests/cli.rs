//! The command line as other tools use it: run the binary, read its output.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn xiangqi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xiangqi"))
        .args(args)
        .output()
        .expect("run xiangqi")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn last_line(o: &Output) -> String {
    stdout(o).lines().last().unwrap_or("").to_string()
}

/// The shared test data folder beside the checkout; `None` (with a note) when absent, except
/// under CI where it must exist.
fn shared_pgn() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/testdata/pgn");
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "CI must have {}",
        dir.display()
    );
    eprintln!("note: {} not found; skipping", dir.display());
    None
}

#[test]
fn perft_prints_nodes_last() {
    let o = xiangqi(&["perft", "3"]);
    assert!(o.status.success());
    assert_eq!(last_line(&o), "nodes 79666");
    let o = xiangqi(&[
        "perft",
        "2",
        "--divide",
        "--fen",
        "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
    ]);
    let text = stdout(&o);
    assert_eq!(text.lines().count(), 8, "{text}");
    assert!(text.lines().next().unwrap().contains(": "));
    assert_eq!(last_line(&o), "nodes 281");
    let o = xiangqi(&["perft", "2", "--fen", "not a fen"]);
    assert!(!o.status.success());
    // Beyond the limit: a clear refusal (depth 100000 used to overflow the stack).
    for depth in ["8", "100000"] {
        let o = xiangqi(&["perft", depth]);
        assert!(!o.status.success());
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(
            err.trim_end(),
            format!(
                "error: perft depth {depth} refused: the deepest perft is 7 (deeper takes hours)"
            )
        );
    }
}

#[test]
fn status_lines() {
    assert_eq!(last_line(&xiangqi(&["status"])), "ongoing");
    let o = xiangqi(&[
        "status",
        "--fen",
        "4k4/9/9/9/9/9/9/9/9/R2K5 w",
        "--moves",
        "a0a9",
        "e9e8",
        "a9a8",
        "e8e9",
        "a8a9",
        "e9e8",
        "a9a8",
        "e8e9",
        "a8a9",
    ]);
    assert_eq!(last_line(&o), "black wins: perpetual check");
    let o = xiangqi(&[
        "status",
        "--fen",
        "4k4/R8/9/9/9/9/9/9/9/1R1K5 w",
        "--moves",
        "b0b9",
    ]);
    assert_eq!(last_line(&o), "red wins: checkmate");
    let o = xiangqi(&["status", "--fen", "3ak4/4a4/4b4/9/9/9/9/4B4/4A4/3AK4 w"]);
    assert_eq!(last_line(&o), "draw: insufficient material");
    let o = xiangqi(&["status", "--moves", "h2e2", "h2h9"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("h2h9"));
}

#[test]
fn convert_all_notations() {
    let o = xiangqi(&["convert", "h2e2", "马８进７"]);
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "h2e2\tH2-E2\th3e3\tC2.5\t炮二平五");
    assert_eq!(lines[1], "h9g7\tH9-G7\th10g8\tH8+7\t马８进７");
    let o = xiangqi(&["convert", "--to", "wxf", "炮二平五"]);
    assert_eq!(stdout(&o).trim(), "C2.5");
    assert!(!xiangqi(&["convert", "h2h8"]).status.success());
}

#[test]
fn pgn_replays_real_files() {
    let Some(dir) = shared_pgn() else {
        return;
    };
    let file = dir.join("ccgc2006-02.pgn");
    let o = xiangqi(&["pgn", file.to_str().unwrap(), "--to", "chinese"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = stdout(&o);
    assert_eq!(text.lines().next(), Some("兵七进一"));
    assert!(last_line(&o).starts_with("fen "));
    // The XQF sample and its PGN conversion end in the same position.
    let xqf = dir.join("sample.xqf");
    let a = xiangqi(&["pgn", xqf.to_str().unwrap()]);
    // It holds one game: asking for another is an error, not the first game again.
    let one = xiangqi(&["pgn", xqf.to_str().unwrap(), "--game", "1"]);
    assert_eq!(stdout(&one), stdout(&a));
    for game in ["2", "0"] {
        let o = xiangqi(&["pgn", xqf.to_str().unwrap(), "--game", game]);
        assert!(!o.status.success());
        let err = String::from_utf8_lossy(&o.stderr);
        let want = format!("is an XQF file, which holds one game; there is no game {game}\n");
        assert!(err.ends_with(&want), "{err}");
    }
    let b = xiangqi(&["pgn", dir.join("sample-from-xqf.pgn").to_str().unwrap()]);
    assert_eq!(stdout(&a), stdout(&b));
    // Re-written as PGN, it reads back to the same game.
    let pgn = xiangqi(&["pgn", file.to_str().unwrap(), "--to", "pgn"]);
    let rewritten =
        std::env::temp_dir().join(format!("xiangqi-cli-test-{}.pgn", std::process::id()));
    let body: String = stdout(&pgn)
        .lines()
        .filter(|l| !l.starts_with("fen "))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&rewritten, body).unwrap();
    let again = xiangqi(&["pgn", rewritten.to_str().unwrap()]);
    let original = xiangqi(&["pgn", file.to_str().unwrap()]);
    let _ = std::fs::remove_file(&rewritten);
    assert_eq!(stdout(&again), stdout(&original));
}

#[test]
fn pgn_errors_name_the_problem() {
    let path = std::env::temp_dir().join(format!("xiangqi-bad-{}.pgn", std::process::id()));
    std::fs::write(
        &path,
        "[Game \"Chinese Chess\"]\n\n1. 炮二平五 马８进７ 2. 车九平九 *\n",
    )
    .unwrap();
    let o = xiangqi(&["pgn", path.to_str().unwrap()]);
    let _ = std::fs::remove_file(&path);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("line 3") && err.contains("车九平九"), "{err}");
}

/// A megabyte of NUL bytes once gave a 4 MB error line; the message quotes an excerpt.
#[test]
fn pgn_errors_on_garbage_are_short() {
    let path = std::env::temp_dir().join(format!("xiangqi-nul-{}.pgn", std::process::id()));
    std::fs::write(&path, vec![0u8; 1 << 20]).unwrap();
    let o = xiangqi(&["pgn", path.to_str().unwrap()]);
    let _ = std::fs::remove_file(&path);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.len() < 500, "{} bytes", err.len());
    assert!(err.contains("line 1: cannot play \"\\0\\0"), "{err}");
}

#[test]
fn bench_is_deterministic() {
    let a = xiangqi(&["bench", "5"]);
    let b = xiangqi(&["bench", "5"]);
    let nodes = |o: &Output| last_line(o).split_whitespace().next().unwrap().to_string();
    assert!(last_line(&a).ends_with(" nps"), "{}", last_line(&a));
    assert_eq!(nodes(&a), nodes(&b));
}

#[test]
fn engine_mode_on_piped_stdin() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_xiangqi"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"ucci\nisready\nposition startpos moves h2e2\ngo depth 3\n")
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(500));
    stdin.write_all(b"quit\n").unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("ucciok"), "{text}");
    assert!(text.contains("readyok"), "{text}");
    assert!(text.lines().any(|l| l.starts_with("bestmove ")), "{text}");
    assert_eq!(text.lines().last(), Some("bye"));
    // One line on stderr says why no GUI opened; GUIs read stdout only.
    let note = String::from_utf8_lossy(&out.stderr);
    assert_eq!(note.lines().count(), 1, "{note}");
    assert!(
        note.contains("UCI/UCCI") && note.contains("xiangqi serve"),
        "{note}"
    );
}

/// The lines a child prints, read on a thread of their own so a test can give up on a hung
/// child instead of hanging with it.
fn line_channel(out: std::process::ChildStdout) -> std::sync::mpsc::Receiver<String> {
    use std::io::BufRead;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(out).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

/// How long a test waits for an engine that should answer at once before calling it hung.
const HUNG: std::time::Duration = std::time::Duration::from_secs(20);

/// Reads lines until one equals `wanted`; returns the lines before it.
fn read_until(lines: &std::sync::mpsc::Receiver<String>, wanted: &str) -> Vec<String> {
    let mut seen = Vec::new();
    loop {
        match lines.recv_timeout(HUNG) {
            Ok(line) if line == wanted => return seen,
            Ok(line) => seen.push(line),
            Err(e) => panic!("no {wanted:?} ({e}) after {seen:?}"),
        }
    }
}

/// Waits for `child` to exit, failing (and killing it) if it runs on.
fn exit_status(child: &mut std::process::Child) -> std::process::ExitStatus {
    let deadline = std::time::Instant::now() + HUNG;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("the engine did not exit");
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// `go perft 7` counts for many minutes; meanwhile the engine answers `isready`, `stop` ends
/// the perft, and the end of the input ends the program.
#[test]
fn engine_answers_while_a_perft_runs_and_exits_at_the_end_of_input() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_xiangqi"))
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let lines = line_channel(child.stdout.take().unwrap());
    stdin.write_all(b"go perft 7\nisready\n").unwrap();
    let before = read_until(&lines, "readyok");
    assert!(before.iter().all(|l| !l.starts_with("Nodes")), "{before:?}");
    stdin.write_all(b"stop\nisready\n").unwrap();
    let stopped = read_until(&lines, "readyok");
    assert!(
        stopped
            .last()
            .is_some_and(|l| l.starts_with("info string perft stopped: ")),
        "{stopped:?}"
    );
    // Another perft, then the end of the input while it counts.
    stdin.write_all(b"go perft 7\nisready\n").unwrap();
    read_until(&lines, "readyok");
    drop(stdin);
    assert!(exit_status(&mut child).success());
    let rest: Vec<String> = lines.iter().collect();
    assert!(rest.iter().all(|l| !l.starts_with("Nodes")), "{rest:?}");
}

/// A line longer than the engine's limit (1 MiB) is read, dropped and complained about; the
/// lines after it are answered.
#[test]
fn engine_ignores_an_over_long_line_and_goes_on() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_xiangqi"))
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let lines = line_channel(child.stdout.take().unwrap());
    let mut input = b"position startpos moves".to_vec();
    while input.len() <= 3 << 20 {
        input.extend_from_slice(b" h2e2 h7e7 e2h2 e7h7");
    }
    input.extend_from_slice(b"\ngo perft 1\n");
    // Written from a thread: the engine may answer before it has read everything.
    let writer = std::thread::spawn(move || {
        stdin.write_all(&input).unwrap();
        stdin
    });
    // The position was not set: perft 1 counts the start position's 44 moves.
    let before = read_until(&lines, "Nodes searched: 44");
    assert_eq!(
        before[0],
        "info string line ignored: longer than 1048576 bytes (it starts `position startpos moves \
         h2e2 h7e7 e2h2 e…`)"
    );
    drop(writer.join().unwrap());
    assert!(exit_status(&mut child).success());
}

#[test]
fn book_build_is_reproducible_and_probe_and_stats_read_it() {
    let dir = std::env::temp_dir().join(format!("xiangqi-book-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let lines = dir.join("lines.txt");
    let out = dir.join("book.bin");
    std::fs::write(&lines, "# test\n30 炮二平五 马８进７ # 中炮\n10 相三进五\n").unwrap();
    let args = [
        "book",
        "build",
        "--lines",
        lines.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    let o = xiangqi(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(last_line(&o).contains("wrote"), "{}", stdout(&o));
    let first = std::fs::read(&out).unwrap();
    assert!(xiangqi(&args).status.success());
    assert_eq!(std::fs::read(&out).unwrap(), first);

    let book = out.to_str().unwrap();
    let text = stdout(&xiangqi(&["book", "probe", "--book", book]));
    assert!(
        text.contains("炮二平五  h2e2  weight    30   37.5%"),
        "{text}"
    );
    assert!(
        text.contains("相七进五  c0e2  weight    10   12.5%"),
        "{text}"
    );
    let text = stdout(&xiangqi(&[
        "book", "probe", "--book", book, "--moves", "h2e2",
    ]));
    assert!(
        text.contains("马８进７  h9g7  weight    30  100.0%"),
        "{text}"
    );
    let text = stdout(&xiangqi(&[
        "book", "probe", "--book", book, "--moves", "a3a4",
    ]));
    assert_eq!(last_line_of(&text), "no book moves");
    let text = stdout(&xiangqi(&["book", "stats", "--book", book]));
    assert!(text.contains("entries        6"), "{text}");
    assert!(text.contains("mirror images  yes"), "{text}");

    // The built-in book knows the central cannon.
    let text = stdout(&xiangqi(&["book", "probe"]));
    assert!(text.contains("炮二平五  h2e2"), "{text}");

    // A bad line fails the build with its number; a damaged file fails the probe.
    std::fs::write(&lines, "炮二平五\n炮二平五 马８进６\n").unwrap();
    let o = xiangqi(&args);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("line 2: move 2 \"马８进６\""), "{err}");
    std::fs::write(&out, &first[..first.len() - 3]).unwrap();
    let o = xiangqi(&["book", "probe", "--book", book]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("truncated"));
    std::fs::remove_dir_all(&dir).unwrap();
}

fn last_line_of(text: &str) -> &str {
    text.lines().last().unwrap_or("")
}

#[test]
fn datagen_then_tune() {
    let dir = std::env::temp_dir().join(format!("xiangqi-tune-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("data.txt");
    let tuned = dir.join("tuned.rs.txt");
    let (data_arg, tuned_arg) = (data.to_str().unwrap(), tuned.to_str().unwrap());
    let gen = ["datagen", "--games", "2", "--nodes", "300", "--seed", "4"];
    let o = xiangqi(&[&gen[..], &["--max-plies", "60", "--out", data_arg]].concat());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("done: 2 games"));
    let first = std::fs::read_to_string(&data).unwrap();
    assert!(first.lines().count() > 20, "{first}");
    let o = xiangqi(&[
        "tune",
        "--data",
        data_arg,
        "--iterations",
        "1",
        "--steps",
        "20",
        "--out",
        tuned_arg,
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        stdout(&o).starts_with("Tuned by `xiangqi tune`"),
        "{}",
        stdout(&o)
    );
    let literal = std::fs::read_to_string(&tuned).unwrap();
    assert!(literal.contains("pub const DEFAULT: Weights = Weights {"));
    // A broken line is reported with its number.
    std::fs::write(&data, format!("{first}not a position;1.0;0\n")).unwrap();
    let o = xiangqi(&["tune", "--data", data_arg, "--out", tuned_arg]);
    assert!(!o.status.success());
    let line = first.lines().count() + 1;
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(
        err.contains(&format!("data.txt:{line}: invalid FEN")),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
