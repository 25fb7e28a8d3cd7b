//! `go perft N` on a thread of its own, so the session keeps reading `isready`, `stop` and
//! `quit` while it counts.
//!
//! Output: one `move: count` line per root move as soon as that move's subtree is counted, then
//! an empty line and `Nodes searched: N`. A `stop` ends the count within a fraction of a
//! millisecond (the cancellable perft looks at the flag deep inside every subtree): the lines
//! already printed stay exact, the root move being counted and those after it are dropped, no
//! total is printed, and the last line is `info string perft stopped: K of M root moves
//! counted; no total`.

use super::output::{say, Output};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use xiangqi::{format_move, perft_cancellable, Notation, Position};

/// A perft counting on its own thread. Dropping it stops the count and waits for the thread.
pub struct PerftJob {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl PerftJob {
    /// Starts counting the divide of `pos` to `depth` plies, printing to `out` with moves in
    /// `notation`. The caller has checked `depth` with [`xiangqi::perft_depth_refusal`].
    pub fn start(pos: Position, depth: u32, notation: Notation, out: Output) -> PerftJob {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let thread = std::thread::spawn(move || divide(pos, depth, notation, &flag, &out));
        PerftJob {
            stop,
            thread: Some(thread),
        }
    }

    /// Waits for the count to finish by itself.
    pub fn wait(mut self) {
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for PerftJob {
    /// Stops the count and waits for its last line, so nothing is printed after the session
    /// has moved on.
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Counts and prints the divide of `pos` to `depth` (see the module's doc for the lines).
fn divide(mut pos: Position, depth: u32, notation: Notation, stop: &AtomicBool, out: &Output) {
    let moves = pos.legal_moves();
    let mut total = 0;
    for (counted, &m) in moves.iter().enumerate() {
        let undo = pos.make_move(m);
        // As in `perft_divide`: depth 0 and 1 count each root move as one node.
        let below = if depth <= 1 {
            Some(1)
        } else {
            perft_cancellable(&mut pos, depth - 1, stop)
        };
        pos.unmake_move(m, undo);
        let Some(nodes) = below else {
            let of = moves.len();
            say(
                out,
                &format!(
                    "info string perft stopped: {counted} of {of} root moves counted; no total"
                ),
            );
            return;
        };
        say(out, &format!("{}: {nodes}", format_move(&pos, m, notation)));
        total += nodes;
    }
    say(out, "");
    say(out, &format!("Nodes searched: {total}"));
}
