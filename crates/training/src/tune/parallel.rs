//! Splits a slice into one contiguous chunk per thread, folds each chunk on its own scoped
//! thread, and combines the partial results in chunk order (so a run is repeatable for a given
//! thread count).

/// Folds `items` on `threads` threads: each chunk starts from `init()` and takes
/// `fold(acc, index, item)` for its items (`index` is the item's place in `items`); the
/// chunks' results are then combined left to right with `combine`.
pub fn fold_chunks<T, A, I, F, C>(items: &[T], threads: usize, init: I, fold: F, combine: C) -> A
where
    T: Sync,
    A: Send,
    I: Fn() -> A + Sync,
    F: Fn(&mut A, usize, &T) + Sync,
    C: Fn(A, A) -> A,
{
    fold_range(
        items.len(),
        threads,
        init,
        |acc, i| fold(acc, i, &items[i]),
        combine,
    )
}

/// [`fold_chunks`] over the indices `0..count`.
pub fn fold_range<A, I, F, C>(count: usize, threads: usize, init: I, fold: F, combine: C) -> A
where
    A: Send,
    I: Fn() -> A + Sync,
    F: Fn(&mut A, usize) + Sync,
    C: Fn(A, A) -> A,
{
    let threads = threads.clamp(1, count.max(1));
    if threads == 1 {
        let mut acc = init();
        for i in 0..count {
            fold(&mut acc, i);
        }
        return acc;
    }
    let chunk = count.div_ceil(threads);
    let partials: Vec<A> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..count)
            .step_by(chunk)
            .map(|start| {
                let (init, fold) = (&init, &fold);
                scope.spawn(move || {
                    let mut acc = init();
                    for i in start..(start + chunk).min(count) {
                        fold(&mut acc, i);
                    }
                    acc
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| match h.join() {
                Ok(acc) => acc,
                // A panic in a fold is a bug: pass it on rather than hide it.
                Err(panic) => std::panic::resume_unwind(panic),
            })
            .collect()
    });
    partials.into_iter().reduce(combine).unwrap_or_else(init)
}

/// The number of threads to use when none is given: all the machine has.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_sum_on_any_number_of_threads() {
        let items: Vec<u64> = (1..=1000).collect();
        for threads in [1, 2, 3, 7, 2000] {
            let (sum, index_sum) = fold_chunks(
                &items,
                threads,
                || (0u64, 0usize),
                |acc, i, &x| {
                    acc.0 += x;
                    acc.1 += i;
                },
                |a, b| (a.0 + b.0, a.1 + b.1),
            );
            assert_eq!(sum, 500_500);
            assert_eq!(index_sum, 499_500);
        }
        let empty: Vec<u64> = Vec::new();
        assert_eq!(fold_chunks(&empty, 4, || 7, |_, _, _| {}, |a, _| a), 7);
    }
}
