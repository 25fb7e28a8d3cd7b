//! What the tests share: scratch directories, fake engine specs, running the match.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A scratch directory, removed when dropped.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(name: &str) -> TempDir {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let n = COUNT.fetch_add(1, Ordering::Relaxed);
        let dir =
            std::env::temp_dir().join(format!("xiangqi-match-{name}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create temp dir");
        TempDir(dir)
    }

    pub fn file(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The `cmd=… args=…` part of an engine spec running the fake in `mode`.
pub fn fake(mode: &str) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/match_fakes/fake_engine.py");
    format!("cmd=python3 args='{} {mode}'", script.display())
}

/// The spec of a well-behaved fake playing `moves` (move k of the list at ply k).
pub fn scripted(name: &str, moves: &str, tc: &str) -> String {
    format!("name={name} {} tc={tc}", fake(&format!("script {moves}")))
}

/// The first moves of a quiet game, enough for any test that ends early.
pub const LINE: &str = "h2e2,h9g7,h0g2,i9h9,i0h0,b9c7,b0c2,a9b9,a0b0,c6c5";

/// LINE's moves of each side in another order: each side's moves stay legal whatever the
/// other side plays from either list, but they rarely are the replies LINE expects.
pub const OTHER_LINE: &str = "b0c2,b9c7,a0b0,a9b9,h2e2,h9g7,h0g2,i9h9,i0h0,c6c5";

pub struct Run {
    pub ok: bool,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    pub fn last_line(&self) -> &str {
        self.stdout.lines().last().unwrap_or("")
    }
}

pub fn run_match(args: &[&str]) -> Run {
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
pub fn against_good(bad: &str, extra: &[&str]) -> Run {
    let good = scripted("good", LINE, "depth:1");
    let mut args = vec!["--engine", bad, "--engine", &good];
    args.extend_from_slice(extra);
    run_match(&args)
}

pub fn assert_bad_lost_twice(run: &Run, reason: &str) {
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

/// Processes whose command line mentions `needle` (Linux `/proc`; empty elsewhere).
pub fn running_fakes(needle: &Path) -> Vec<String> {
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

/// The processes of `pids` still running after up to 10 s of waiting for them to go: a
/// killed process can outlive the match by a moment while the kernel tears it down.
#[cfg(unix)]
pub fn still_running<'a>(pids: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let mut left: Vec<&str> = pids.into_iter().collect();
    let start = std::time::Instant::now();
    loop {
        left.retain(|pid| !is_gone(pid));
        if left.is_empty() || start.elapsed().as_secs() >= 10 {
            return left;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// Whether process `pid` is gone: `kill -0` fails, or only a zombie is left (an orphan
/// whose new parent, the container's first process, may never reap it).
#[cfg(unix)]
pub fn is_gone(pid: &str) -> bool {
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
pub fn wrapper_script(dir: &TempDir) -> PathBuf {
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

/// The first move of every game in the PGN file, in file order.
pub fn first_moves(pgn: &Path) -> Vec<String> {
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

/// Keeps the games of a PGN file whose position in the file (from 0) passes `keep`.
pub fn keep_games(pgn: &Path, keep: impl Fn(usize) -> bool) {
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
pub fn played_numbers(run: &Run) -> Vec<usize> {
    run.stderr
        .lines()
        .filter_map(|l| l.strip_prefix("game "))
        .filter_map(|l| l.split('/').next()?.parse().ok())
        .collect()
}
