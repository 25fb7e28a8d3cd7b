//! The transposition table: a fixed array of 64-byte buckets shared by every search thread
//! without locks.
//!
//! Each entry is two atomic words. The data word packs the move, score, depth, bound and age;
//! the other word stores `key ^ data`. A reader accepts an entry only if `stored ^ data` equals
//! its key, so an entry torn by two threads writing at once reads as a miss, never as a wrong
//! hit (the "lockless hashing" of Hyatt and Mann).
//!
//! Data word layout (least significant bit first):
//! ```text
//!  0..16  move bits (0 = none)
//! 16..32  score (i16, mate scores relative to the node)
//! 32..48  unused (zero)
//! 48..56  depth (u8, offset by DEPTH_OFFSET so quiescence entries fit)
//! 56..58  bound (1 = upper, 2 = lower, 3 = exact)
//! 58..64  age (generation of the search that wrote it, modulo 64)
//! ```

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use xiangqi::Move;

/// Which side of the true score a stored score is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at most this (fail low).
    Upper = 1,
    /// The true score is at least this (fail high).
    Lower = 2,
    /// The exact score.
    Exact = 3,
}

impl Bound {
    /// What a score found with the window (`alpha`, `beta`) says of the true score: at or
    /// above `beta` the search failed high, at or below `alpha` it failed low, and strictly
    /// between them it is exact.
    pub fn of_window(score: i32, alpha: i32, beta: i32) -> Bound {
        if score >= beta {
            Bound::Lower
        } else if score <= alpha {
            Bound::Upper
        } else {
            Bound::Exact
        }
    }
}

/// What the hash table holds about a position: the move, score and depth of a search that
/// passed through it ([`crate::Engine::probe`]).
#[derive(Clone, Copy, Debug)]
pub struct HashEntry {
    /// Best move found, if any (not necessarily legal: check before use).
    pub mv: Option<Move>,
    /// Score, still relative to the node where it was stored.
    pub score: i32,
    /// Depth searched.
    pub depth: i32,
    /// Bound type of `score`.
    pub bound: Bound,
}

#[derive(Default)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

const ENTRIES_PER_BUCKET: usize = 4;
const DEPTH_OFFSET: i32 = 8;

#[repr(align(64))]
#[derive(Default)]
struct Bucket {
    entries: [Entry; ENTRIES_PER_BUCKET],
}

const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

/// The shared table. Resizing and clearing need `&mut`; probing and storing take `&self`.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    age: AtomicU8,
}

fn pack(mv: Option<Move>, score: i32, depth: i32, bound: Bound, age: u8) -> u64 {
    let m = mv.map_or(0, |m| m.bits()) as u64;
    let s = (score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16) as u64;
    let d = (depth + DEPTH_OFFSET).clamp(0, 255) as u64;
    m | s << 16 | d << 48 | (bound as u64) << 56 | ((age & 63) as u64) << 58
}

fn unpack(data: u64) -> Option<HashEntry> {
    let bound = match (data >> 56) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => return None,
    };
    let bits = data as u16;
    Some(HashEntry {
        mv: if bits == 0 {
            None
        } else {
            Move::from_bits(bits)
        },
        score: (data >> 16) as u16 as i16 as i32,
        depth: ((data >> 48) & 255) as i32 - DEPTH_OFFSET,
        bound,
    })
}

fn age_of(data: u64) -> u8 {
    (data >> 58) as u8 & 63
}

fn depth_of(data: u64) -> i32 {
    ((data >> 48) & 255) as i32
}

impl TranspositionTable {
    /// A table using about `megabytes` MiB, or the largest size that could be allocated
    /// (halving until it succeeds; at least one MiB).
    pub fn new(megabytes: usize) -> TranspositionTable {
        let mut tt = TranspositionTable {
            buckets: Vec::new(),
            age: AtomicU8::new(0),
        };
        let mut mb = megabytes.max(1);
        while tt.resize(mb).is_err() && mb > 1 {
            mb /= 2;
        }
        tt
    }

    /// Reallocates to about `megabytes` MiB, emptying the table. Fails, leaving the table
    /// empty but usable (one bucket), when the memory cannot be had.
    pub fn resize(&mut self, megabytes: usize) -> Result<(), std::collections::TryReserveError> {
        let count =
            (megabytes.max(1).saturating_mul(1 << 20) / std::mem::size_of::<Bucket>()).max(1);
        self.buckets = Vec::new();
        let reserved = self.buckets.try_reserve_exact(count);
        let count = if reserved.is_ok() { count } else { 1 };
        // Before the first write touches the pages, so they come huge from the start.
        advise_huge_pages(&self.buckets);
        self.buckets.resize_with(count, Bucket::default);
        reserved
    }

    /// Size in MiB.
    pub fn megabytes(&self) -> usize {
        (self.buckets.len() * std::mem::size_of::<Bucket>()) >> 20
    }

    /// Empties every entry.
    pub fn clear(&mut self) {
        for bucket in &mut self.buckets {
            *bucket = Bucket::default();
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Starts a new search generation, so older entries are replaced first.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        // Multiply-shift maps the key onto the bucket count without a division.
        let index = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
    }

    /// Starts loading the bucket of `key` into the cache, so that a probe soon after does not
    /// wait as long for memory.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        crate::prefetch::prefetch(self.bucket(key));
    }

    /// The entry for `key`, if present.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<HashEntry> {
        for entry in &self.bucket(key).entries {
            let data = entry.data.load(Ordering::Relaxed);
            if entry.check.load(Ordering::Relaxed) ^ data == key {
                return unpack(data);
            }
        }
        None
    }

    /// Stores a result for `key`. An existing entry for the same key keeps its move when the
    /// new result has none; otherwise the least valuable entry of the bucket (shallow and old)
    /// is replaced.
    pub fn store(&self, key: u64, mv: Option<Move>, score: i32, depth: i32, bound: Bound) {
        let age = self.age.load(Ordering::Relaxed) & 63;
        let bucket = self.bucket(key);
        let mut victim = &bucket.entries[0];
        let mut victim_worth = i32::MAX;
        for entry in &bucket.entries {
            let data = entry.data.load(Ordering::Relaxed);
            if entry.check.load(Ordering::Relaxed) ^ data == key {
                let old = unpack(data);
                // Keep a deeper exact result of this search over a shallower bound.
                if let Some(old) = old {
                    if bound != Bound::Exact && old.depth > depth + 2 && age_of(data) == age {
                        return;
                    }
                }
                let mv = mv.or(old.and_then(|o| o.mv));
                write(entry, key, pack(mv, score, depth, bound, age));
                return;
            }
            let staleness = (age.wrapping_sub(age_of(data)) & 63) as i32;
            let worth = depth_of(data) - 8 * staleness;
            if worth < victim_worth {
                victim_worth = worth;
                victim = entry;
            }
        }
        write(victim, key, pack(mv, score, depth, bound, age));
    }

    /// Permille of sampled entries written by the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed) & 63;
        let sample = self.buckets.len().min(250);
        let mut used = 0;
        for bucket in &self.buckets[..sample] {
            for entry in &bucket.entries {
                let data = entry.data.load(Ordering::Relaxed);
                if data != 0 && age_of(data) == age {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * ENTRIES_PER_BUCKET).max(1)) as u32
    }
}

/// Asks the kernel to back the table's memory with huge pages. Probes land at random all
/// over the table, so with ordinary 4 KiB pages nearly every probe also misses the address
/// translation cache; 2 MiB pages cut those misses (measured in `xiangqi bench`).
#[cfg(target_os = "linux")]
fn advise_huge_pages(buckets: &Vec<Bucket>) {
    const PAGE: usize = 4096;
    const HUGE_PAGE: usize = 2 << 20;
    let start = buckets.as_ptr() as usize;
    let end = start + buckets.capacity() * std::mem::size_of::<Bucket>();
    // Only whole pages inside the allocation: the advice covers pages, not bytes.
    let first = start.next_multiple_of(PAGE);
    let len = end.saturating_sub(first) / PAGE * PAGE;
    if len < HUGE_PAGE {
        return;
    }
    #[allow(unsafe_code)]
    // SAFETY: the range is whole pages inside the vector's own allocation; MADV_HUGEPAGE
    // only changes how the kernel backs them, never their contents or mapping. A failure
    // (a kernel without huge pages) leaves ordinary pages, so the result is ignored.
    unsafe {
        libc::madvise(first as *mut libc::c_void, len, libc::MADV_HUGEPAGE);
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_buckets: &Vec<Bucket>) {}

#[inline]
fn write(entry: &Entry, key: u64, data: u64) {
    entry.check.store(key ^ data, Ordering::Relaxed);
    entry.data.store(data, Ordering::Relaxed);
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi::Square;

    #[test]
    fn stores_and_probes() {
        let tt = TranspositionTable::new(1);
        let m = Move::new(Square::new(7, 2).unwrap(), Square::new(4, 2).unwrap());
        tt.store(0xDEAD_BEEF, Some(m), -1234, 7, Bound::Lower);
        let hit = tt.probe(0xDEAD_BEEF).unwrap();
        assert_eq!(hit.mv, Some(m));
        assert_eq!((hit.score, hit.depth, hit.bound), (-1234, 7, Bound::Lower));
        assert!(tt.probe(0xDEAD_BEEE).is_none());
        // Quiescence depths below zero survive the offset.
        tt.store(42, None, -30000, -3, Bound::Upper);
        let hit = tt.probe(42).unwrap();
        assert_eq!((hit.mv, hit.score, hit.depth), (None, -30000, -3));
    }

    #[test]
    fn keeps_move_when_new_result_has_none() {
        let tt = TranspositionTable::new(1);
        let m = Move::new(Square::new(0, 0).unwrap(), Square::new(0, 1).unwrap());
        tt.store(7, Some(m), 10, 5, Bound::Exact);
        tt.store(7, None, 20, 6, Bound::Upper);
        assert_eq!(tt.probe(7).unwrap().mv, Some(m));
    }

    #[test]
    fn a_window_edge_is_a_bound_and_its_inside_is_exact() {
        assert_eq!(Bound::of_window(50, 10, 50), Bound::Lower);
        assert_eq!(Bound::of_window(90, 10, 50), Bound::Lower);
        assert_eq!(Bound::of_window(10, 10, 50), Bound::Upper);
        assert_eq!(Bound::of_window(-90, 10, 50), Bound::Upper);
        assert_eq!(Bound::of_window(11, 10, 50), Bound::Exact);
        assert_eq!(Bound::of_window(49, 10, 50), Bound::Exact);
        // A null window has no inside.
        assert_eq!(Bound::of_window(10, 10, 11), Bound::Upper);
        assert_eq!(Bound::of_window(11, 10, 11), Bound::Lower);
    }
}
