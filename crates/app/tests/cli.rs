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

#[test]
fn pgn_reads_a_big5_file() {
    let path = std::env::temp_dir().join(format!("xiangqi-big5-{}.pgn", std::process::id()));
    let text = "[Red \"許銀川\"]\n\n1. 炮二平五 馬８進７ 2. 馬二進三 車９平８ *\n";
    std::fs::write(&path, encoding_rs::BIG5.encode(text).0).unwrap();
    let o = xiangqi(&["pgn", path.to_str().unwrap(), "--to", "chinese"]);
    let _ = std::fs::remove_file(&path);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let moves: Vec<String> = stdout(&o).lines().take(4).map(str::to_owned).collect();
    assert_eq!(moves, ["炮二平五", "马８进７", "马二进三", "车９平８"]);
}

#[test]
fn openings_are_named_and_checked_against_the_files_codes() {
    let dir = scratch("opening");
    let untagged = dir.join("untagged.pgn");
    // The horse opening, then the edge cannon after Black's seventh pawn: A42.
    std::fs::write(&untagged, "1. h0g2 g6g5 2. h2i2 h9g7 *\n").unwrap();
    let o = xiangqi(&["opening", untagged.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let line = stdout(&o);
    assert!(
        line.contains("#1\tA42\t起马转边炮对进７卒\tHorse Opening into Edge Cannon"),
        "{line}"
    );
    // Written as PGN, the game gets its tags; a code the file gives is never changed.
    let o = xiangqi(&["pgn", untagged.to_str().unwrap(), "--to", "pgn"]);
    let text = stdout(&o);
    assert!(
        text.contains("[ECCO \"A42\"]") && text.contains("[Opening \"起马转边炮对进７卒\"]"),
        "{text}"
    );
    let tagged = dir.join("tagged.pgn");
    std::fs::write(&tagged, "[ECCO \"A40\"]\n\n1. h0g2 g6g5 2. h2i2 h9g7 *\n").unwrap();
    let o = xiangqi(&["pgn", tagged.to_str().unwrap(), "--to", "pgn"]);
    assert!(stdout(&o).contains("[ECCO \"A40\"]"), "{}", stdout(&o));
    // --check counts the agreement and lists the games that differ.
    let o = xiangqi(&[
        "opening",
        "--check",
        tagged.to_str().unwrap(),
        untagged.to_str().unwrap(),
    ]);
    let text = stdout(&o);
    assert!(text.contains("file A40\tours A42"), "{text}");
    assert_eq!(
        last_line(&o),
        "2 games, 1 with an ECCO code: 0 agree (0.0%), 1 more in the same family (100.0% with them)"
    );
    let _ = std::fs::remove_dir_all(&dir);
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

/// A fresh folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xiangqi-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[cfg(unix)]
fn mkfifo(path: &std::path::Path) {
    let made = Command::new("mkfifo").arg(path).status();
    assert!(made.unwrap().success());
}

/// A network or book named by a FIFO nobody writes to, or by `/dev/stdin` (here the pipe the
/// commands come through), once left the engine waiting in `open` or `read`: it answered
/// neither `isready` nor `quit`, nor stopped at the end of its input. Each is refused in one
/// line and the engine goes on.
#[test]
#[cfg(unix)]
fn engine_refuses_a_fifo_as_network_or_book_and_goes_on() {
    let dir = scratch("engine-fifo");
    let fifo = dir.join("fifo");
    mkfifo(&fifo);
    let mut child = Command::new(env!("CARGO_BIN_EXE_xiangqi"))
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let lines = line_channel(child.stdout.take().unwrap());
    let f = fifo.display();
    let commands = format!(
        "setoption name EvalFile value {f}\nsetoption name BookFile value {f}\n\
         setoption name EvalFile value /dev/stdin\nisready\n"
    );
    stdin.write_all(commands.as_bytes()).unwrap();
    let before = read_until(&lines, "readyok");
    assert_eq!(
        before,
        [
            format!(
                "info string cannot read {f}: it is a FIFO, not a regular file; the network is \
                 unchanged"
            ),
            format!(
                "info string cannot read book file {f}: it is a FIFO, not a regular file; the \
                 book is unchanged"
            ),
            "info string cannot read /dev/stdin: it is a FIFO, not a regular file; the network \
             is unchanged"
                .to_owned(),
        ]
    );
    stdin.write_all(b"quit\n").unwrap();
    assert!(exit_status(&mut child).success());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs `xiangqi ARGS` in `dir` with a file size limit of `blocks` (as the shell counts them)
/// standing in for a disk with that little room: a write beyond it fails with "File too
/// large", as one on a full disk fails with "No space left on device". (The signal such a
/// write raises is ignored, as a shell's `trap` passes it on to the program.)
#[cfg(unix)]
fn xiangqi_on_a_small_disk(dir: &std::path::Path, blocks: u32, args: &[&str]) -> Output {
    Command::new("sh")
        .arg("-c")
        .arg(format!(
            "trap '' XFSZ; ulimit -f {blocks}; exec \"$0\" \"$@\""
        ))
        .arg(env!("CARGO_BIN_EXE_xiangqi"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run xiangqi under sh")
}

/// The names in `dir`, sorted: a failed write must leave no temporary file.
fn names_in(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// `datagen --out` on a disk without room for the new file leaves the old one whole (it used
/// to be cut to a partial file) and no temporary file.
#[test]
#[cfg(unix)]
fn datagen_out_on_a_full_disk_keeps_the_old_file() {
    let dir = scratch("datagen-full");
    let old = "an older complete data file\n".repeat(10);
    std::fs::write(dir.join("data.txt"), &old).unwrap();
    let gen = [
        "datagen",
        "--games",
        "2",
        "--nodes",
        "300",
        "--max-plies",
        "60",
    ];
    let o = xiangqi_on_a_small_disk(&dir, 1, &[&gen[..], &["--out", "data.txt"]].concat());
    assert!(!o.status.success());
    assert_eq!(std::fs::read_to_string(dir.join("data.txt")).unwrap(), old);
    assert_eq!(names_in(&dir), ["data.txt"]);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(
        err.lines().last().unwrap(),
        "error: could not save data.txt: the disk reported an error (File too large (os error \
         27))"
    );
    std::fs::remove_dir_all(&dir).unwrap();
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

/// `datagen --dir` killed while it runs and started again (on one thread instead of two)
/// writes the same bytes as a run that was never stopped; `--stats` reads them; the text
/// output and these flags do not mix.
#[test]
fn datagen_chunks_survive_a_kill() {
    let dir = std::env::temp_dir().join(format!("xiangqi-datagen-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (whole, killed) = (dir.join("whole"), dir.join("killed"));
    let args = |out: &PathBuf, threads: &str| -> Vec<String> {
        let fixed = "datagen --chunks 5 --chunk-games 2 --nodes 1000 --max-plies 80 --seed 9";
        let mut args: Vec<String> = fixed.split(' ').map(String::from).collect();
        args.extend(["--concurrency".into(), threads.into(), "--dir".into()]);
        args.push(out.to_str().unwrap().to_owned());
        args
    };
    let run = |args: &[String]| {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        xiangqi(&args)
    };
    let o = run(&args(&whole, "2"));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(
        err.contains("0 of 5 chunks (chunks 0-4) present, making 5"),
        "{err}"
    );
    assert!(err.contains("done: "), "{err}");

    // Killed (SIGKILL on unix) once its first chunk is on disk.
    let mut child = Command::new(env!("CARGO_BIN_EXE_xiangqi"))
        .args(args(&killed, "2"))
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let first = killed.join("chunk-000000.samples");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !first.exists() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    let _ = child.kill();
    child.wait().unwrap();
    let o = run(&args(&killed, "1"));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let read = |d: &PathBuf| {
        let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                let name = e.file_name().to_string_lossy().into_owned();
                (name, std::fs::read(e.path()).unwrap())
            })
            .collect();
        files.sort();
        files
    };
    let expected = read(&whole);
    assert_eq!(expected.len(), 6);
    assert!(
        read(&killed) == expected,
        "the resumed run wrote other bytes"
    );

    let o = xiangqi(&["datagen", "--stats", whole.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let report = stdout(&o);
    assert!(report.starts_with("5 files, 10 games, "), "{report}");
    assert!(
        report.contains("positions the rules library refuses: 0"),
        "{report}"
    );
    let o = xiangqi(&["datagen", "--stats", dir.join("nothing").to_str().unwrap()]);
    assert!(!o.status.success());

    let o = xiangqi(&["datagen", "--games", "2", "--dir", whole.to_str().unwrap()]);
    assert!(!o.status.success());
    let o = xiangqi(&["datagen", "--dir", whole.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("--dir needs --chunks"));
    let empty = dir.join("empty");
    let o = xiangqi(&["datagen", "--dir", empty.to_str().unwrap(), "--chunks", "0"]);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(
        o.status.success() && err.contains("holds no chunks;"),
        "{err}"
    );
    let not_a_network = dir.join("datagen.txt-is-not-a-network");
    std::fs::write(&not_a_network, "no network here").unwrap();
    let network_args = |extra: &[&str]| {
        let mut args = vec!["datagen", "--games", "1", "--out", "/dev/null", "--network"];
        args.push(not_a_network.to_str().unwrap());
        args.extend_from_slice(extra);
        xiangqi(&args)
    };
    let o = network_args(&[]);
    assert!(!o.status.success());
    let error = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(error.contains("as --network"), "{error}");
    let o = network_args(&["--hand-made"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot be used with"));
    let _ = std::fs::remove_dir_all(&dir);
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

/// The chunk files of a `datagen --dir` directory with their bytes, by name.
fn chunk_files(dir: &PathBuf) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.file_name().to_string_lossy().starts_with("chunk-"))
        .map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            (name, std::fs::read(e.path()).unwrap())
        })
        .collect();
    files.sort();
    files
}
/// `datagen --dir` makes a few chunks and `train` turns them into a network file the engine
/// loads; stdout is a header and one line per epoch; a bad option is a one-line error. Two
/// workers on disjoint `--chunks A..B` make the same chunks and the same network.
#[test]
fn datagen_then_train() {
    let dir = std::env::temp_dir().join(format!("xiangqi-train-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let chunks = dir.join("chunks");
    let net = dir.join("first.nnue");
    let (chunks_arg, net_arg) = (chunks.to_str().unwrap(), net.to_str().unwrap());
    let gen = [
        "datagen",
        "--dir",
        chunks_arg,
        "--chunks",
        "3",
        "--chunk-games",
        "2",
    ];
    let o = xiangqi(&[&gen[..], &["--nodes", "300", "--max-plies", "80"]].concat());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let train = [
        "train", "--data", chunks_arg, "--hidden", "16", "--batch", "64",
    ];
    // A bare file name: the folder to sync after the rename is the current one.
    let o = Command::new(env!("CARGO_BIN_EXE_xiangqi"))
        .args([&train[..], &["--epochs", "2", "--out", "first.nnue"]].concat())
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "epoch train_loss val_loss val_loss_int seconds");
    assert_eq!(lines.len(), 3, "{text}");
    for (i, line) in lines[1..].iter().enumerate() {
        let fields: Vec<&str> = line.split(' ').collect();
        assert_eq!(fields.len(), 5, "{line}");
        assert_eq!(fields[0], (i + 1).to_string());
        assert!(
            fields[1..].iter().all(|f| f.parse::<f64>().is_ok()),
            "{line}"
        );
    }
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("K = ") && err.contains("wrote"), "{err}");
    let bytes = std::fs::read(&net).unwrap();
    let network = xiangqi_engine::nnue::Network::from_bytes(&bytes).unwrap();
    assert_eq!(network.hidden(), 16);
    // Two workers at once on disjoint ranges, each into its own directory: their chunks are
    // the single run's, byte for byte, and training on both directories gives its network.
    let workers: Vec<_> = [("worker-a", "0..0"), ("worker-b", "1..2")]
        .into_iter()
        .map(|(name, range)| {
            let out = dir.join(name);
            let child = Command::new(env!("CARGO_BIN_EXE_xiangqi"))
                .args(&gen[..2])
                .arg(&out)
                .args(["--chunks", range, "--chunk-games", "2"])
                .args(["--nodes", "300", "--max-plies", "80"])
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            (out, child)
        })
        .collect();
    let mut split_files = Vec::new();
    for (out, child) in workers {
        let o = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert!(o.status.success(), "{err}");
        split_files.extend(chunk_files(&out));
        let manifest = |d: &PathBuf| std::fs::read(d.join("datagen.txt")).unwrap();
        assert_eq!(manifest(&out), manifest(&chunks));
    }
    assert!(
        split_files == chunk_files(&chunks),
        "the workers' chunks differ from the single run's"
    );
    let split_net = dir.join("split.nnue");
    let (a, b) = (dir.join("worker-a"), dir.join("worker-b"));
    let o = xiangqi(
        &[
            &train[..2],
            &[a.to_str().unwrap(), "--data", b.to_str().unwrap()],
            &train[3..],
            &["--epochs", "2", "--out", split_net.to_str().unwrap()],
        ]
        .concat(),
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        std::fs::read(&split_net).unwrap() == bytes,
        "training on the workers' directories gave another network"
    );
    // A chunk given twice (the whole run and a worker's share) is refused, not trained on twice.
    let o = xiangqi(
        &[
            &train[..3],
            &["--data", b.to_str().unwrap(), "--out", net_arg],
        ]
        .concat(),
    );
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(
        !o.status.success() && err.contains("the same chunk given twice"),
        "{err}"
    );
    for (range, why) in [
        ("3..1", "ends before it starts"),
        ("x", "not a chunk count"),
    ] {
        let o = xiangqi(&[&gen[..3], &["--chunks", range]].concat());
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert!(!o.status.success() && err.contains(why), "{err}");
    }

    let o = xiangqi(&[
        "train", "--data", chunks_arg, "--hidden", "20", "--out", net_arg,
    ]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("--hidden 20") && err.contains("multiple of 16"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `train` on a disk without room for its network stops before the first epoch, with the
/// reason (it used to train every epoch and then fail to save the network), and leaves no
/// file behind.
#[test]
#[cfg(unix)]
fn train_on_a_full_disk_stops_before_training() {
    let dir = scratch("train-full");
    let chunks = dir.join("chunks");
    let gen = [
        "datagen",
        "--dir",
        chunks.to_str().unwrap(),
        "--chunks",
        "2",
    ];
    let o = xiangqi(
        &[
            &gen[..],
            &["--chunk-games", "1", "--nodes", "300", "--max-plies", "60"],
        ]
        .concat(),
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let train = [
        "train", "--data", "chunks", "--hidden", "16", "--epochs", "2",
    ];
    let o = xiangqi_on_a_small_disk(&dir, 1, &[&train[..], &["--out", "net.nnue"]].concat());
    assert!(!o.status.success());
    assert_eq!(stdout(&o), "", "no epoch ran");
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(
        err.trim_end(),
        "error: could not save net.nnue: the disk reported an error (File too large (os error \
         27))"
    );
    assert_eq!(names_in(&dir), ["chunks"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The first table of `xiangqi lab`, checked for its header and split into columns.
fn lab_rows(o: &Output) -> Vec<Vec<String>> {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = stdout(o);
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("algorithm nodes leaves cutoffs time_ms value bestmove")
    );
    let rows: Vec<Vec<String>> = lines
        .take_while(|line| !line.is_empty())
        .map(|line| line.split(' ').map(str::to_string).collect())
        .collect();
    for row in &rows {
        assert_eq!(row.len(), 7, "{row:?}");
        // nodes and time_ms are numbers on every row; leaves and cutoffs too, but the engine's.
        let number = |i: usize| row[i].parse::<u64>().is_ok();
        assert!(number(1) && number(4), "{row:?}");
        let engine = row[0] == "engine";
        assert!(engine || (number(2) && number(3)), "{row:?}");
        assert!(!engine || row[2..4] == ["-", "-"], "{row:?}");
        // The value is a number (centi-soldiers or a mate score) or `unfinished`.
        let unfinished = row[5] == "unfinished";
        assert!(unfinished || row[5].parse::<i32>().is_ok(), "{row:?}");
        assert!(!unfinished || row[6] == "-", "{row:?}");
    }
    rows
}

const LAB_NAMES: [&str; 9] = [
    "minimax",
    "negamax",
    "alphabeta",
    "alphabeta-mvvlva",
    "alphabeta-history",
    "alphabeta-tt",
    "pvs-tt-history",
    "pvs-id-aspiration",
    "engine",
];

#[test]
fn lab_prints_a_row_per_algorithm_and_the_minimal_tree() {
    let o = xiangqi(&["lab", "--depth", "2"]);
    let rows = lab_rows(&o);
    let names: Vec<&str> = rows.iter().map(|r| r[0].as_str()).collect();
    assert_eq!(names, LAB_NAMES);
    // Minimax sees every leaf: perft 2 from the start is 1920; the root and its 44 children
    // are the other nodes.
    assert_eq!(rows[0][1..4], ["1965", "1920", "0"]);
    // Every algorithm of the laboratory agrees on the value and the move.
    for row in &rows[1..8] {
        assert_eq!(row[5..], rows[0][5..], "{row:?}");
        assert!(row[2].parse::<u64>().unwrap() <= 1920, "{row:?}");
    }
    assert_ne!(rows[8][5], "unfinished");
    let text = stdout(&o);
    assert!(text
        .contains("minimal tree for 44 moves at every node, depth 2: 44^1 + 44^1 - 1 = 87 leaves"));
    // The second table: a row per algorithm, the leaves beside the minimal tree.
    let details: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("algorithm leaves minimal_tree"))
        .skip(1)
        .collect();
    assert_eq!(details.len(), 9, "{text}");
    assert!(details[0].starts_with("minimax 1920 87 22.07 "), "{text}");
}

#[test]
fn lab_reports_what_did_not_finish() {
    // No time at all: each stops at its first check, deterministically.
    let o = xiangqi(&["lab", "--depth", "6", "--limit-seconds", "0"]);
    let rows = lab_rows(&o);
    assert_eq!(rows.len(), 9);
    for row in &rows {
        assert_eq!(row[5..], ["unfinished", "-"], "{row:?}");
    }
    // A little time: minimax cannot finish depth 5 in 0.3 s (it takes minutes), and is not
    // left running past its limit; it reports the nodes it had visited.
    let started = std::time::Instant::now();
    let o = xiangqi(&[
        "lab",
        "--depth",
        "5",
        "--limit-seconds",
        "0.3",
        "--algo",
        "minimax,engine",
    ]);
    let rows = lab_rows(&o);
    assert_eq!(rows[0][5], "unfinished", "{rows:?}");
    assert!(rows[0][1].parse::<u64>().unwrap() > 0, "{rows:?}");
    assert!(started.elapsed().as_secs() < 20);
    assert!(stdout(&o).contains("minimax unfinished after "));
}

#[test]
fn lab_reads_positions_and_moves() {
    // --moves plays moves from --fen (or the start): the same search as from the FEN after them.
    let fen = "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2";
    let search = |extra: &[&str]| {
        let mut args = vec!["lab", "--depth", "2", "--algo", "alphabeta,pvs-tt-history"];
        args.extend_from_slice(extra);
        let rows = lab_rows(&xiangqi(&args));
        // Everything but the time.
        rows.into_iter()
            .map(|r| [&r[..4], &r[5..]].concat())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        search(&["--moves", "h2e2", "h9g7"]),
        search(&["--fen", fen])
    );
    assert_eq!(
        search(&["--moves", "炮二平五", "马８进７"]),
        search(&["--fen", fen])
    );
    // A mate in one: the value is a mate score, the move the mate, for the engine too.
    let o = xiangqi(&[
        "lab",
        "--fen",
        "4k4/R8/9/9/9/9/9/9/9/1R1K5 w",
        "--depth",
        "1",
        "--algo",
        "alphabeta,pvs,engine",
        "--eval",
        "engine",
    ]);
    for row in lab_rows(&o) {
        assert_eq!(row[5..], ["30999", "b0b9"], "{row:?}");
    }
    // No legal move: lost, no best move.
    let o = xiangqi(&[
        "lab",
        "--fen",
        "4k4/R8/9/9/9/9/9/9/9/3K1R3 b",
        "--depth",
        "2",
    ]);
    for row in lab_rows(&o) {
        assert_eq!(row[5..], ["-31000", "none"], "{row:?}");
    }
}

#[test]
fn lab_and_eval_refuse_bad_input_with_one_line() {
    for (bad, code) in [
        (&["lab", "--depth", "0"][..], 1),
        (&["lab", "--depth", "31"], 1),
        (&["lab", "--depth", "-1"], 2),
        (&["lab"], 2),
        (&["lab", "--depth", "2", "--algo", "alpha-beta"], 1),
        (&["lab", "--depth", "2", "--algo", ""], 1),
        (&["lab", "--depth", "2", "--eval", "fancy"], 1),
        (&["lab", "--depth", "2", "--limit-seconds=-1"], 1),
        (&["lab", "--depth", "2", "--limit-seconds", "1e9"], 1),
        (&["lab", "--depth", "2", "--limit-seconds", "NaN"], 1),
        (&["lab", "--depth", "2", "--fen", "rnbakabnr/9/9 w"], 1),
        (&["lab", "--depth", "2", "--moves", "h2h9x"], 1),
        (&["lab", "--depth", "2", "--moves", "h2e2", "h2e2"], 1),
        (&["eval", "--fen", "not a fen"], 1),
        (&["eval", "--moves", "a0a5"], 1),
    ] {
        let o = xiangqi(bad);
        assert_eq!(o.status.code(), Some(code), "{bad:?}");
        // Refused before the first line of output.
        assert!(o.stdout.is_empty(), "{bad:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        if code == 1 {
            // Our own refusals: one line naming the problem, no panic.
            assert_eq!(err.lines().count(), 1, "{bad:?}: {err}");
            assert!(err.starts_with("error: "), "{bad:?}: {err}");
            assert!(!err.contains("panicked"), "{bad:?}: {err}");
        }
    }
    let o = xiangqi(&["lab", "--depth", "2", "--algo", "alpha-beta"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("unknown algorithm \"alpha-beta\" (one of: minimax,"),
        "{err}"
    );
    let o = xiangqi(&["lab", "--depth", "2", "--moves", "h2e2", "h2e2"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.starts_with("error: move 2 (h2e2)"), "{err}");
}

/// The numbers of a line of `xiangqi eval`'s tables (the term's name dropped).
fn numbers(line: &str) -> Vec<f64> {
    line.split_whitespace()
        .skip(1)
        .map(|word| word.parse().unwrap())
        .collect()
}

#[test]
fn eval_terms_are_given_per_side_and_add_up_to_the_evaluation() {
    use xiangqi_engine::lab::simple;
    use xiangqi_engine::tuning::DEFAULT_EVALUATOR;
    let middlegame = "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w";
    let cases: [(&[&str], Option<&str>); 3] = [
        (&[], None),
        (&["h2e2", "h9g7", "h0g2", "h7h3"], None),
        (&[], Some(middlegame)),
    ];
    for (moves, fen) in cases {
        let mut args = vec!["eval"];
        if let Some(fen) = fen {
            args.extend(["--fen", fen]);
        }
        if !moves.is_empty() {
            args.push("--moves");
            args.extend_from_slice(moves);
        }
        let o = xiangqi(&args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let text = stdout(&o);
        // The position it evaluated, to evaluate it here too.
        let printed = text
            .lines()
            .next()
            .unwrap()
            .strip_prefix("position ")
            .unwrap();
        let printed_fen = printed.split(" (").next().unwrap();
        let pos = xiangqi::Position::from_fen(printed_fen).unwrap();
        let engine_terms: Vec<&str> = text
            .lines()
            .skip_while(|l| !l.starts_with("term "))
            .skip(1)
            .take_while(|l| !l.starts_with("sum "))
            .collect();
        assert!(engine_terms.len() >= 15, "{text}");
        for line in &engine_terms {
            // red_mg red_eg red black_mg black_eg black red-black
            let n = numbers(line);
            assert_eq!(n.len(), 7, "{line}");
            assert!((n[2] - n[5] - n[6]).abs() < 0.11, "{line}");
        }
        let total = |prefix: &str| -> i32 {
            let line = text.lines().find(|l| l.starts_with(prefix)).unwrap();
            line.rsplit(' ').next().unwrap().parse().unwrap()
        };
        // The total is exactly the engine's evaluation of the position.
        let side = total("engine total for the side to move");
        assert_eq!(side, DEFAULT_EVALUATOR.evaluate(&pos), "{text}");
        let red = total("engine total for red:");
        let red_to_move = pos.side_to_move() == xiangqi::Color::Red;
        assert_eq!(side, if red_to_move { red } else { -red }, "{text}");
        // The simple evaluation: each term's difference, the sums, the total.
        let simple_rows: Vec<Vec<f64>> = text
            .lines()
            .skip_while(|l| !l.starts_with("simple evaluation"))
            .skip(2)
            .take(6)
            .map(numbers)
            .collect();
        for row in &simple_rows {
            assert_eq!(row[0] - row[1], row[2], "{text}");
        }
        let sums: Vec<f64> = (0..3)
            .map(|c| simple_rows[..5].iter().map(|r| r[c]).sum())
            .collect();
        assert_eq!(sums, simple_rows[5], "{text}");
        let simple_side = total("simple total for the side to move");
        assert_eq!(simple_side, simple::evaluate(&pos), "{text}");
    }
}
