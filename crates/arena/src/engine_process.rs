//! One engine program as a child process: start and handshake, `setoption`, new game, one
//! search with a deadline, pondering; and stopping it, with everything it started.
//!
//! A reader thread turns the engine's output into lines on a channel, stamped with the time they
//! arrived, so every wait has a deadline (`recv_timeout`) and the thinking time is measured when
//! `bestmove` arrived, not when the match got round to looking.

use super::config::{EngineSpec, Protocol};
use super::process_group;
use super::wire::{parse_bestmove, parse_info, BestMove, Info};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};
use std::{fmt, thread};

/// Longest line kept from an engine; the rest of a longer line arrives as further lines (an
/// engine spewing bytes without line breaks must not eat the memory).
const MAX_LINE: u64 = 64 * 1024;

/// Lines from an engine that may wait unread.
const LINE_QUEUE: usize = 4096;

/// How often a wait looks at the abort flag.
const POLL: Duration = Duration::from_millis(50);

/// How long a quitting engine gets before its process group is sent `SIGTERM`.
const QUIT_GRACE: Duration = Duration::from_millis(300);

/// How long the group gets after `SIGTERM` before `SIGKILL`.
const TERM_GRACE: Duration = Duration::from_millis(300);

/// `timeout` from now; a timeout too large for the clock (`--hang-timeout` of a few centuries)
/// means a year, not a panic.
fn deadline_after(timeout: Duration) -> Instant {
    let now = Instant::now();
    now.checked_add(timeout)
        .or_else(|| now.checked_add(Duration::from_secs(365 * 24 * 3600)))
        .unwrap_or(now)
}

/// Why talking to an engine failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineError {
    /// The program could not be started.
    Spawn(String),
    /// The engine's output closed: it exited or crashed. Holds the exit status if known.
    Crashed(Option<String>),
    /// No expected reply before the deadline.
    NoAnswer {
        /// The command that was waiting for a reply.
        command: String,
        /// The reply that never came.
        expected: &'static str,
        /// How long the match waited.
        waited: Duration,
    },
    /// The match is stopping.
    Aborted,
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Spawn(e) => write!(f, "could not be started: {e}"),
            EngineError::Crashed(Some(status)) => write!(f, "crashed ({status})"),
            EngineError::Crashed(None) => write!(f, "crashed (its output closed)"),
            EngineError::NoAnswer {
                command,
                expected,
                waited,
            } => write!(
                f,
                "sent no {expected} within {} ms of `{command}`",
                waited.as_millis()
            ),
            EngineError::Aborted => write!(f, "was stopped with the match"),
        }
    }
}

/// Settings shared by every engine process of a match.
#[derive(Clone, Copy, Debug)]
pub struct ProcessSettings {
    /// How long the handshake and `isready` may take.
    pub startup_timeout: Duration,
    /// Echo every line to and from the engines on stderr.
    pub debug: bool,
}

/// The answer to one `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchReply {
    /// The `bestmove` line, read.
    pub best: BestMove,
    /// The last `info` with a score (of the first PV; exact scores preferred over bounds).
    pub info: Option<Info>,
    /// Time from sending `go` to receiving `bestmove`.
    pub elapsed: Duration,
}

/// A line from the engine and when it arrived.
struct Line {
    text: String,
    at: Instant,
}

/// A running engine program.
pub struct EngineProcess {
    name: String,
    protocol: Protocol,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Line>,
    /// UCCI: the engine offered `usemillisec` and it was switched on.
    millis: bool,
    /// UCCI: the engine offered the `newgame` button.
    newgame_button: bool,
    /// A `go ponder` is running (no `ponderhit` or `stop` yet).
    pondering: bool,
    debug: bool,
}

impl EngineProcess {
    /// Starts the program of `spec`, does the handshake (`uci`/`ucci`, options, `isready`).
    pub fn start(spec: &EngineSpec, settings: ProcessSettings) -> Result<Self, EngineError> {
        let mut command = Command::new(&spec.cmd);
        command
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if settings.debug {
                Stdio::inherit()
            } else {
                Stdio::null()
            });
        process_group::start_own_group(&mut command);
        let mut child = command
            .spawn()
            .map_err(|e| EngineError::Spawn(format!("{}: {e}", spec.cmd)))?;
        let (stdin, stdout) = (child.stdin.take(), child.stdout.take());
        let Some(stdout) = stdout else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(EngineError::Spawn("no pipe to the engine".to_string()));
        };
        // Bounded: an engine that floods output while the match is busy elsewhere blocks on
        // its pipe instead of filling memory.
        let (tx, lines) = mpsc::sync_channel(LINE_QUEUE);
        let reader = thread::Builder::new()
            .name(format!("{}-out", spec.name))
            .spawn(move || {
                let mut out = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match out.by_ref().take(MAX_LINE).read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            // Bytes, not strings: invalid UTF-8 must not end the reading.
                            let text = String::from_utf8_lossy(&buf).trim().to_string();
                            let line = Line {
                                text,
                                at: Instant::now(),
                            };
                            if tx.send(line).is_err() {
                                break;
                            }
                        }
                    }
                }
            });
        let mut engine = EngineProcess {
            name: spec.name.clone(),
            protocol: spec.protocol,
            child,
            stdin,
            lines,
            millis: false,
            newgame_button: false,
            pondering: false,
            debug: settings.debug,
        };
        if let Err(e) = reader {
            return Err(EngineError::Spawn(format!("no reader thread: {e}")));
        }
        engine.handshake(spec, settings.startup_timeout)?;
        Ok(engine)
    }

    fn handshake(&mut self, spec: &EngineSpec, timeout: Duration) -> Result<(), EngineError> {
        let (hello, ok) = match self.protocol {
            Protocol::Uci => ("uci", "uciok"),
            Protocol::Ucci => ("ucci", "ucciok"),
        };
        self.send(hello)?;
        let mut offered = Vec::new();
        self.wait_for(hello, ok, deadline_after(timeout), None, |text| {
            if let Some(rest) = text.strip_prefix("option ") {
                offered.push(rest.to_ascii_lowercase());
            }
            (text == ok).then_some(())
        })?;
        let offers = |name: &str| {
            offered.iter().any(|o| {
                let o = o.strip_prefix("name ").unwrap_or(o);
                o.split_whitespace().next() == Some(name)
            })
        };
        if self.protocol == Protocol::Ucci {
            self.millis = offers("usemillisec");
            self.newgame_button = offers("newgame");
            if self.millis {
                self.send("setoption usemillisec true")?;
            }
        }
        if spec.uci_variant {
            self.set_option("UCI_Variant", "xiangqi")?;
        }
        // Engines that offer it may plan their time knowing they will ponder.
        if spec.ponder && offers("ponder") {
            match self.protocol {
                Protocol::Uci => self.set_option("Ponder", "true")?,
                Protocol::Ucci => self.set_option("ponder", "true")?,
            }
        }
        for (name, value) in &spec.options {
            self.set_option(name, value)?;
        }
        self.sync(timeout)
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        let line = match self.protocol {
            Protocol::Uci => format!("setoption name {name} value {value}"),
            Protocol::Ucci => format!("setoption {name} {value}"),
        };
        self.send(&line)
    }

    /// Whether UCCI times are sent in milliseconds.
    pub fn millis(&self) -> bool {
        self.millis
    }

    /// `isready` → `readyok`.
    pub fn sync(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.send("isready")?;
        let deadline = deadline_after(timeout);
        self.wait_for("isready", "readyok", deadline, None, |text| {
            (text == "readyok").then_some(())
        })
        .map(|_| ())
    }

    /// Tells the engine a new game starts and waits until it is ready.
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), EngineError> {
        match self.protocol {
            Protocol::Uci => self.send("ucinewgame")?,
            Protocol::Ucci if self.newgame_button => self.send("setoption newgame")?,
            Protocol::Ucci => {}
        }
        self.sync(timeout)
    }

    /// Sends `position` and `go` and waits for `bestmove` until `limit` after the `go`.
    ///
    /// First `isready` must be answered within `sync_timeout` (not charged to the clock): it
    /// finds an engine that stopped answering before its clock runs, and gives one still
    /// winding down its previous search a moment (some drop a `position` that arrives too soon
    /// after their `bestmove`).
    pub fn search(
        &mut self,
        position: &str,
        go: &str,
        limit: Duration,
        sync_timeout: Duration,
        abort: &AtomicBool,
    ) -> Result<SearchReply, EngineError> {
        let sent = self.start_search(position, go, sync_timeout)?;
        self.await_bestmove(go, sent, limit, abort)
    }

    /// Starts a ponder search: `position` (the game with the expected reply played) and a
    /// `go ponder …` command, after `isready` as for [`EngineProcess::search`]. The engine
    /// thinks until [`EngineProcess::ponderhit`] or [`EngineProcess::stop_pondering`].
    pub fn ponder(
        &mut self,
        position: &str,
        go_ponder: &str,
        sync_timeout: Duration,
    ) -> Result<(), EngineError> {
        self.start_search(position, go_ponder, sync_timeout)?;
        self.pondering = true;
        Ok(())
    }

    /// The opponent played the expected move: `ponderhit`, then waits for `bestmove` until
    /// `limit` after it. The time counts from the `ponderhit`: pondering is free.
    pub fn ponderhit(
        &mut self,
        limit: Duration,
        abort: &AtomicBool,
    ) -> Result<SearchReply, EngineError> {
        self.pondering = false;
        self.send("ponderhit")?;
        self.await_bestmove("ponderhit", Instant::now(), limit, abort)
    }

    /// The opponent played another move (or the game ended): `stop`, and the `bestmove` that
    /// answers it is read and thrown away within `timeout`, so that it cannot pass for the
    /// answer to the next search.
    pub fn stop_pondering(
        &mut self,
        timeout: Duration,
        abort: &AtomicBool,
    ) -> Result<(), EngineError> {
        if !self.pondering {
            return Ok(());
        }
        self.pondering = false;
        self.send("stop")?;
        self.await_bestmove("stop", Instant::now(), timeout, abort)
            .map(|_| ())
    }

    /// Sends `position` and `go` after an `isready` within `sync_timeout`; returns when the
    /// `go` went out.
    fn start_search(
        &mut self,
        position: &str,
        go: &str,
        sync_timeout: Duration,
    ) -> Result<Instant, EngineError> {
        self.sync(sync_timeout)?;
        // Lines left over from before (late `info`) must not count for this move.
        while let Ok(line) = self.lines.try_recv() {
            self.log_in(&line.text);
        }
        self.send(position)?;
        self.send(go)?;
        Ok(Instant::now())
    }

    /// Waits until `limit` from now for `bestmove`, which answers `command` sent at `sent`;
    /// keeps the best-looking scored `info` on the way (of the first PV, exact over bounds).
    fn await_bestmove(
        &mut self,
        command: &str,
        sent: Instant,
        limit: Duration,
        abort: &AtomicBool,
    ) -> Result<SearchReply, EngineError> {
        let deadline = deadline_after(limit);
        let mut info: Option<Info> = None;
        let (best, at) = self.wait_for(command, "bestmove", deadline, Some(abort), |text| {
            if let Some(new) = parse_info(text).filter(|i| i.score.is_some()) {
                let first_pv = new.multipv.is_none_or(|n| n == 1);
                let better = !new.bound || info.is_none_or(|old| old.bound);
                if first_pv && better {
                    info = Some(new);
                }
            }
            parse_bestmove(text)
        })?;
        Ok(SearchReply {
            best,
            info,
            elapsed: at.saturating_duration_since(sent),
        })
    }

    /// Whether the program is still running.
    pub fn is_alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Writes one line to the engine.
    fn send(&mut self, line: &str) -> Result<(), EngineError> {
        if self.debug {
            eprintln!("{} < {line}", self.name);
        }
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(EngineError::Crashed(None));
        };
        let written = writeln!(stdin, "{line}").and_then(|()| stdin.flush());
        if written.is_err() {
            // A closed pipe: the engine is gone.
            return Err(EngineError::Crashed(self.exit_status()));
        }
        Ok(())
    }

    fn log_in(&self, text: &str) {
        if self.debug {
            eprintln!("{} > {text}", self.name);
        }
    }

    /// Reads lines until `accept` returns something, the deadline passes, the output closes or
    /// `abort` is set. Returns the accepted value and when its line arrived.
    fn wait_for<T>(
        &mut self,
        command: &str,
        expected: &'static str,
        deadline: Instant,
        abort: Option<&AtomicBool>,
        mut accept: impl FnMut(&str) -> Option<T>,
    ) -> Result<(T, Instant), EngineError> {
        let started = Instant::now();
        loop {
            if abort.is_some_and(|a| a.load(Ordering::Relaxed)) {
                return Err(EngineError::Aborted);
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(EngineError::NoAnswer {
                    command: command.to_string(),
                    expected,
                    waited: now - started,
                });
            }
            match self.lines.recv_timeout((deadline - now).min(POLL)) {
                Ok(line) => {
                    self.log_in(&line.text);
                    if let Some(value) = accept(&line.text) {
                        return Ok((value, line.at));
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(EngineError::Crashed(self.exit_status()))
                }
            }
        }
    }

    /// Reads (and drops) output until it closes or `timeout` passes; whether it closed.
    fn wait_closed(&mut self, timeout: Duration) -> bool {
        let deadline = deadline_after(timeout);
        loop {
            let now = Instant::now();
            if now >= deadline {
                return false;
            }
            match self.lines.recv_timeout(deadline - now) {
                Ok(line) => self.log_in(&line.text),
                Err(RecvTimeoutError::Timeout) => return false,
                Err(RecvTimeoutError::Disconnected) => return true,
            }
        }
    }

    /// The exit status once the program has exited (waiting briefly, as the output closes just
    /// before the process is gone), or `None`.
    fn exit_status(&mut self) -> Option<String> {
        let deadline = Instant::now() + Duration::from_millis(200);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status.to_string()),
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(5)),
                _ => return None,
            }
        }
    }
}

impl Drop for EngineProcess {
    /// Asks the engine to quit and closes its input; then whatever is left of its process group
    /// (a hung engine, the programs a wrapper script started) gets `SIGTERM` and, if its output
    /// is still open after a short grace time, `SIGKILL`. Always reaps the process.
    fn drop(&mut self) {
        if let Some(stdin) = self.stdin.as_mut() {
            if self.debug {
                eprintln!("{} < quit", self.name);
            }
            // Straight to the pipe, not through `send`: a dead engine needs no diagnosis here.
            let _ = writeln!(stdin, "quit").and_then(|()| stdin.flush());
        }
        self.stdin = None;
        // The output closes once the engine and everything it started have exited.
        let closed = self.wait_closed(QUIT_GRACE);
        // Signalled before the leader is reaped (unless a crash was reaped earlier), so its
        // process id, the group's id, cannot have been reused by an unrelated process.
        let leader = self.child.id();
        if process_group::signal_group(leader, "TERM") && !closed {
            self.wait_closed(TERM_GRACE);
        }
        process_group::signal_group(leader, "KILL");
        // Without process groups (or without `kill`), at least the program itself.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
