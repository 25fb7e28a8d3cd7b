//! A hint to the processor to start loading memory the search will read soon.

/// Starts loading the cache line of `value`, without waiting for it. The transposition table
/// and the evaluation cache are read at random places, so their lines usually come from main
/// memory; asking for them when the move is made, before the child's bookkeeping, hides part
/// of that wait (measured with `xiangqi bench`).
#[inline]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    #[allow(unsafe_code)]
    // SAFETY: a prefetch is only a hint to the cache: it never faults, reads nothing into the
    // program and changes no memory; the address is that of a live value anyway.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(value).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
