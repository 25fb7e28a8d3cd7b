//! Parallel work whose result does not depend on the number of threads: the work is cut into a
//! fixed number of shards, each shard computed on its own (so its floating-point sums are the
//! same on any thread), and the caller combines the shards in shard order.

/// Shards a batch is cut into, whatever `--threads` says: enough to keep up to 8 threads busy,
/// few enough that each shard's gradient buffer stays cheap to sum.
pub const SHARDS: usize = 8;

/// The range of items `0..len` that shard `shard` of `shards` takes (contiguous, sizes
/// differing by at most one).
pub fn range(len: usize, shards: usize, shard: usize) -> std::ops::Range<usize> {
    let start = len * shard / shards;
    let end = len * (shard + 1) / shards;
    start..end
}

/// Runs `work(shard, state)` for each shard's state, on `threads` threads (each taking a
/// contiguous run of shards). The states are the caller's, so buffers are reused from one call
/// to the next.
pub fn run<S, F>(states: &mut [S], threads: usize, work: F)
where
    S: Send,
    F: Fn(usize, &mut S) + Sync,
{
    let threads = threads.clamp(1, states.len().max(1));
    if threads == 1 {
        for (shard, state) in states.iter_mut().enumerate() {
            work(shard, state);
        }
        return;
    }
    let per_thread = states.len().div_ceil(threads);
    std::thread::scope(|scope| {
        for (t, group) in states.chunks_mut(per_thread).enumerate() {
            let work = &work;
            scope.spawn(move || {
                for (j, state) in group.iter_mut().enumerate() {
                    work(t * per_thread + j, state);
                }
            });
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_cover_the_items_once() {
        for len in [0, 1, 7, 8, 9, 100] {
            let mut next = 0;
            for shard in 0..SHARDS {
                let r = range(len, SHARDS, shard);
                assert_eq!(r.start, next);
                next = r.end;
            }
            assert_eq!(next, len);
        }
    }

    #[test]
    fn every_shard_runs_once_with_its_own_index() {
        for threads in [1, 2, 3, 8, 20] {
            let mut states = vec![usize::MAX; SHARDS];
            run(&mut states, threads, |shard, s| *s = shard * 10);
            assert_eq!(states, (0..SHARDS).map(|s| s * 10).collect::<Vec<_>>());
        }
    }
}
