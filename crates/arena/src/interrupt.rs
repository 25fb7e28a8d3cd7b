//! Ctrl-C stops a match cleanly. Engines run in process groups of their own, so the terminal's
//! SIGINT no longer reaches them: the match has to stop them itself, and it can then still
//! print what it has and leave a PGN file that `--resume` continues.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;

/// A flag that becomes true at the first Ctrl-C; a second Ctrl-C ends the program at once.
/// If the signal cannot be watched the flag simply never changes.
pub fn watch_ctrl_c() -> Arc<AtomicBool> {
    let flag = Arc::new(AtomicBool::new(false));
    let setter = Arc::clone(&flag);
    let watcher = move || {
        // A small runtime of its own: the match itself runs on plain threads.
        let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
        else {
            return;
        };
        runtime.block_on(async {
            if tokio::signal::ctrl_c().await.is_err() {
                return;
            }
            eprintln!("interrupted: stopping the games (Ctrl-C again to quit at once)");
            setter.store(true, Ordering::Relaxed);
            if tokio::signal::ctrl_c().await.is_ok() {
                std::process::exit(130);
            }
        });
    };
    // Without the thread Ctrl-C keeps its default effect, which is no worse than before.
    let _ = thread::Builder::new()
        .name("ctrl-c".to_string())
        .spawn(watcher);
    flag
}
