//! Where the engine's lines go: one writer shared by the session and the threads that search
//! or count beside it, each line written and flushed whole under its lock, so lines never
//! interleave.

use std::io::Write;
use std::sync::{Arc, Mutex};

/// Where every line the engine prints goes.
pub type Output = Arc<Mutex<Box<dyn Write + Send>>>;

/// Writes one line and flushes (GUIs read line by line from a pipe).
pub fn say(out: &Output, line: &str) {
    if let Ok(mut w) = out.lock() {
        let _ = writeln!(w, "{line}");
        let _ = w.flush();
    }
}
