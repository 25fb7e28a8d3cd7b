//! Runs numbered jobs on a few threads and hands their results over in job order, so the
//! output does not depend on how many threads ran them or which finished first.

use anyhow::Result;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;

/// Runs `job(state, i)` for `i` in `0..count` on `threads` threads, each with its own state
/// from `init`, and calls `deliver(i, result)` on the calling thread in the order of `i`.
/// Stops at the first error (of a job or of `deliver`) and returns it.
pub fn run_in_order<S, T, I, J, D>(
    count: u64,
    threads: usize,
    init: I,
    job: J,
    mut deliver: D,
) -> Result<()>
where
    T: Send,
    I: Fn() -> S + Sync,
    J: Fn(&mut S, u64) -> Result<T> + Sync,
    D: FnMut(u64, T) -> Result<()>,
{
    let next = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<(u64, Result<T>)>();
        for _ in 0..threads.max(1) {
            let tx = tx.clone();
            let (next, stop, init, job) = (&next, &stop, &init, &job);
            scope.spawn(move || {
                let mut state = init();
                while !stop.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= count {
                        break;
                    }
                    if tx.send((i, job(&mut state, i))).is_err() {
                        break;
                    }
                }
            });
        }
        // Only the workers hold senders now: the loop below ends when all of them are done.
        drop(tx);
        let mut waiting = BTreeMap::new();
        let mut expected = 0;
        for (i, result) in rx {
            waiting.insert(i, result);
            while let Some(result) = waiting.remove(&expected) {
                let delivered = result.and_then(|value| deliver(expected, value));
                if let Err(e) = delivered {
                    stop.store(true, Ordering::Relaxed);
                    return Err(e);
                }
                expected += 1;
            }
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_in_job_order_whatever_the_threads() {
        for threads in [1, 2, 5] {
            let mut seen = Vec::new();
            run_in_order(
                20,
                threads,
                || 0u64,
                |calls, i| {
                    *calls += 1;
                    // Later jobs finish first, to shuffle the arrivals.
                    std::thread::sleep(std::time::Duration::from_micros(200 * (20 - i)));
                    Ok(i * i)
                },
                |i, v| {
                    seen.push((i, v));
                    Ok(())
                },
            )
            .unwrap();
            let expected: Vec<(u64, u64)> = (0..20).map(|i| (i, i * i)).collect();
            assert_eq!(seen, expected);
        }
    }

    #[test]
    fn an_error_stops_the_run() {
        let mut delivered = 0;
        let result = run_in_order(
            1000,
            2,
            || (),
            |_, i| {
                if i == 3 {
                    anyhow::bail!("job {i} failed")
                }
                Ok(i)
            },
            |_, _| {
                delivered += 1;
                Ok(())
            },
        );
        assert_eq!(result.unwrap_err().to_string(), "job 3 failed");
        assert_eq!(delivered, 3);
    }
}
