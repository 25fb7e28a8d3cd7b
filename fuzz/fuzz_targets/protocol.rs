//! A GUI session of any lines, in UCI or UCCI: searches, perft, options, positions, probes.
//! Invariants: never a panic; every line the engine prints is short (a bad line is quoted in
//! part) and free of control characters; the session ends on `quit` with nothing left running.

#![no_main]

use xiangqi_engine::EngineOptions;
use libfuzzer_sys::fuzz_target;
use std::io::Write;
use std::sync::{Arc, Mutex};
use xiangqi_protocol::command::Dialect;
use xiangqi_protocol::driver::{Flow, Session};
use xiangqi_protocol::output::Output;

/// The longest line the engine may print: an `info` line with a long principal variation.
const MAX_LINE: usize = 4000;
/// Lines of one input fed to the session (more only repeats what these exercise).
const MAX_LINES: usize = 64;

/// What the session printed.
#[derive(Clone, Default)]
struct Capture(Arc<Mutex<Vec<u8>>>);

impl Write for Capture {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Whether to feed `line`: the engine does give a GUI the 8 GiB hash table or the 256 threads
/// it asks for, which is right for a GUI and only slows fuzzing down (and trips its memory
/// limit), so such requests are left out.
fn affordable(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    let big = |limit: u64| {
        lower.split(|c: char| !c.is_ascii_digit()).any(|digits| {
            digits
                .parse::<u64>()
                .map_or(!digits.is_empty(), |n| n > limit)
        })
    };
    !(lower.contains("hash") && big(16) || lower.contains("thread") && big(4))
}

fuzz_target!(|data: &[u8]| {
    let Some((&choice, script)) = data.split_first() else {
        return;
    };
    let dialect = [None, Some(Dialect::Uci), Some(Dialect::Ucci)][usize::from(choice) % 3];
    let capture = Capture::default();
    let out: Output = Arc::new(Mutex::new(Box::new(capture.clone())));
    let options = EngineOptions {
        hash_mb: 1,
        ..EngineOptions::default()
    };
    let mut session = Session::with_options(dialect, out, options);
    let mut quit = false;
    for line in script.split(|&b| b == b'\n').take(MAX_LINES) {
        let line = String::from_utf8_lossy(line);
        if !affordable(&line) {
            continue;
        }
        if session.handle_line(&line) == Flow::Quit {
            quit = true;
            break;
        }
    }
    if !quit {
        // Whatever was started is stopped and waited for.
        assert_eq!(session.handle_line("quit"), Flow::Quit);
    }
    let printed = capture.0.lock().unwrap().clone();
    let text = String::from_utf8(printed).expect("the engine prints UTF-8");
    for line in text.lines() {
        assert!(line.len() <= MAX_LINE, "a line of {} bytes", line.len());
        assert!(
            !line.chars().any(|c| c.is_control() && c != '\t'),
            "a control character in {line:?}"
        );
    }
});
