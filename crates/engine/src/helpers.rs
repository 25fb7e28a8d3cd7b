//! Where the helper searches of Lazy SMP run: natively on threads of their own, in a browser on
//! the Web Workers its host lends the module ([`LENT`]), and nowhere when it lends none.
//!
//! A browser's WebAssembly cannot start a thread (`std::thread::spawn` fails there). A module
//! built for threads shares its memory with other instances of itself, each in a worker the page
//! started; such a worker calls [`LentThreads::serve`] on [`LENT`] and waits there for helper
//! searches to run. The engine asks [`capacity`] how many helpers it can have and hands them to
//! [`run_beside`], the same call on every target.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

/// One helper search, owning all it needs.
pub type Job = Box<dyn FnOnce() + Send + 'static>;

/// The threads lent to this module by its host (none unless a browser's worker serves).
pub static LENT: LentThreads = LentThreads::new();

/// Set by a browser host to stop the running search: the thread searching cannot be called
/// while it searches, but another worker sharing the module's memory can write this flag
/// (the host clears it before the next search). Only a browser build reads it.
pub static HOST_STOP: AtomicBool = AtomicBool::new(false);

/// Set by a browser host to pause the running search where it is (the game's clock was
/// paused), and cleared to let it go on: its threads wait, and its time stands still, as with
/// `Engine::pause`. Only a browser build reads it.
pub static HOST_PAUSE: AtomicBool = AtomicBool::new(false);

/// Whether the browser host asked the running search to stop ([`HOST_STOP`]); never natively.
pub fn host_stopped() -> bool {
    cfg!(target_arch = "wasm32") && HOST_STOP.load(Ordering::Relaxed)
}

/// Whether the browser host asked the running search to wait ([`HOST_PAUSE`]); never natively.
pub fn host_paused() -> bool {
    cfg!(target_arch = "wasm32") && HOST_PAUSE.load(Ordering::Relaxed)
}

/// How many helper searches can run beside the calling thread: natively any number, in a
/// browser as many as the workers lent to [`LENT`].
pub fn capacity() -> usize {
    if cfg!(target_arch = "wasm32") {
        LENT.lent()
    } else {
        usize::MAX
    }
}

/// Runs `jobs` beside `main`, which runs on the calling thread, and returns `main`'s result
/// once every job has finished (a job that panicked panics here, after the others ended).
/// No more jobs than [`capacity`] allows.
pub fn run_beside<R>(jobs: Vec<Job>, main: impl FnOnce() -> R) -> R {
    #[cfg(target_arch = "wasm32")]
    {
        LENT.run_beside(jobs, main)
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        // A helper that cannot be started is a helper fewer: the search is still right.
        let handles: Vec<_> = jobs
            .into_iter()
            .filter_map(|job| {
                std::thread::Builder::new()
                    .stack_size(16 << 20)
                    .spawn(job)
                    .ok()
            })
            .collect();
        let result = main();
        let mut panic = None;
        for handle in handles {
            if let Err(payload) = handle.join() {
                panic = Some(payload);
            }
        }
        if let Some(payload) = panic {
            std::panic::resume_unwind(payload);
        }
        result
    }
}

/// Threads that a host started and lent: each waits in [`LentThreads::serve`] for jobs.
pub struct LentThreads {
    state: Mutex<State>,
    /// Signalled when jobs are queued.
    work: Condvar,
    /// Signalled when the last unfinished job ends.
    done: Condvar,
}

struct State {
    queue: VecDeque<Job>,
    /// Threads serving.
    lent: usize,
    /// Jobs queued or running.
    unfinished: usize,
    /// Jobs begun since the start.
    begun: u64,
}

impl LentThreads {
    /// No threads yet.
    pub const fn new() -> LentThreads {
        LentThreads {
            state: Mutex::new(State {
                queue: VecDeque::new(),
                lent: 0,
                unfinished: 0,
                begun: 0,
            }),
            work: Condvar::new(),
            done: Condvar::new(),
        }
    }

    /// Lends the calling thread for good: it runs the jobs it is given, one at a time.
    pub fn serve(&self) -> ! {
        let mut state = self.lock();
        state.lent += 1;
        loop {
            let job = match state.queue.pop_front() {
                Some(job) => {
                    state.begun += 1;
                    job
                }
                None => {
                    state = self
                        .work
                        .wait(state)
                        .unwrap_or_else(PoisonError::into_inner);
                    continue;
                }
            };
            drop(state);
            {
                // Counted as finished even if it panics, so that `run_beside` never waits for
                // a job that will not end.
                let _finished = Finished(self);
                job();
            }
            state = self.lock();
        }
    }

    /// How many threads serve.
    pub fn lent(&self) -> usize {
        self.lock().lent
    }

    /// How many jobs the serving threads have begun since the start.
    pub fn begun(&self) -> u64 {
        self.lock().begun
    }

    /// Queues `jobs` for the serving threads, runs `main` on the calling thread and returns its
    /// result once every job has finished.
    pub fn run_beside<R>(&self, jobs: Vec<Job>, main: impl FnOnce() -> R) -> R {
        if !jobs.is_empty() {
            let mut state = self.lock();
            state.unfinished += jobs.len();
            state.queue.extend(jobs);
            drop(state);
            self.work.notify_all();
        }
        let result = main();
        let mut state = self.lock();
        while state.unfinished > 0 {
            state = self
                .done
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
        result
    }

    /// The state, also after a job panicked (the counts are kept right by [`Finished`]).
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Default for LentThreads {
    fn default() -> LentThreads {
        LentThreads::new()
    }
}

/// Counts a job as finished when dropped.
struct Finished<'a>(&'a LentThreads);

impl Drop for Finished<'_> {
    fn drop(&mut self) {
        let mut state = self.0.lock();
        state.unfinished -= 1;
        if state.unfinished == 0 {
            self.0.done.notify_all();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    /// A pool with `n` threads serving it (they serve until the test process ends).
    fn pool_with(n: usize) -> &'static LentThreads {
        let pool: &'static LentThreads = Box::leak(Box::new(LentThreads::new()));
        for _ in 0..n {
            std::thread::spawn(move || pool.serve());
        }
        while pool.lent() < n {
            std::thread::yield_now();
        }
        pool
    }

    #[test]
    fn every_job_has_finished_when_run_beside_returns() {
        let pool = pool_with(2);
        for round in 0..20 {
            let ran = Arc::new(AtomicUsize::new(0));
            let jobs: Vec<Job> = (0..2)
                .map(|_| {
                    let ran = Arc::clone(&ran);
                    Box::new(move || {
                        std::thread::sleep(std::time::Duration::from_millis(1));
                        ran.fetch_add(1, Ordering::SeqCst);
                    }) as Job
                })
                .collect();
            let main = pool.run_beside(jobs, || round * 10);
            assert_eq!(main, round * 10);
            assert_eq!(ran.load(Ordering::SeqCst), 2, "round {round}");
        }
        assert_eq!(pool.begun(), 40);
    }

    #[test]
    fn jobs_run_on_the_lent_threads_beside_the_caller() {
        let pool = pool_with(1);
        let caller = std::thread::current().id();
        let (tx, rx) = std::sync::mpsc::channel();
        let job: Job = Box::new(move || tx.send(std::thread::current().id()).unwrap());
        // The caller waits for the job's answer inside `main`: it can only come from another
        // thread.
        let helper = pool.run_beside(vec![job], || rx.recv().unwrap());
        assert_ne!(helper, caller);
    }

    #[test]
    fn a_job_that_panics_still_counts_as_finished() {
        let pool = pool_with(1);
        let job: Job = Box::new(|| panic!("a helper's bug"));
        assert_eq!(pool.run_beside(vec![job], || 7), 7);
    }

    #[test]
    fn with_no_jobs_main_just_runs() {
        let pool = LentThreads::new();
        assert_eq!(pool.lent(), 0);
        assert_eq!(pool.run_beside(Vec::new(), || 3), 3);
    }

    #[test]
    fn native_helpers_run_and_their_panics_reach_the_caller() {
        assert_eq!(capacity(), usize::MAX);
        let ran = Arc::new(AtomicUsize::new(0));
        let counted = Arc::clone(&ran);
        let job: Job = Box::new(move || {
            counted.fetch_add(1, Ordering::SeqCst);
        });
        assert_eq!(run_beside(vec![job], || 5), 5);
        assert_eq!(ran.load(Ordering::SeqCst), 1);
        let failing: Job = Box::new(|| panic!("a helper's bug"));
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            run_beside(vec![failing], || 5)
        }));
        assert!(caught.is_err());
    }
}
