//! Evaluations remembered by position key: the same positions come back in every iteration
//! and through transpositions, and an evaluation costs as much as a few nodes of search.

/// Entries in each thread's cache (a power of two): 256 KiB of 8-byte entries. A bigger cache
/// answers barely more often in long searches, and keeping it small leaves it in the core's own
/// cache beside the table's lines (1 MiB measured 2-3 % slower in a middlegame search).
const ENTRIES: usize = 1 << 15;

/// The bits of a key that an entry stores; the low bits are the score's place, and the slot
/// number (taken from the low bits of the key) stands for them.
const KEY_BITS: u64 = !0xFFFF;

/// A direct-mapped table of evaluations. Each entry packs the high 48 bits of the key with the
/// score as an `i16`, so a lookup is one load and one compare.
pub struct EvalCache {
    entries: Box<[u64]>,
}

impl Default for EvalCache {
    fn default() -> Self {
        // Written out in full now (`vec![0; n]` would leave the pages to be zeroed one by one
        // by the system while a search runs).
        #[allow(clippy::slow_vector_initialization)]
        let mut entries = Vec::with_capacity(ENTRIES);
        entries.resize(ENTRIES, 0);
        EvalCache {
            entries: entries.into_boxed_slice(),
        }
    }
}

impl EvalCache {
    #[inline]
    fn slot(key: u64) -> usize {
        key as usize & (ENTRIES - 1)
    }

    /// The entry of `key`, for [`crate::prefetch::prefetch`].
    #[inline]
    pub fn entry(&self, key: u64) -> &u64 {
        &self.entries[EvalCache::slot(key)]
    }

    /// The remembered evaluation of the position with `key`, if any. (An empty entry reads as
    /// a hit only for a key whose 48 high bits are all zero: about one in 2⁴⁸.)
    #[inline]
    pub fn get(&self, key: u64) -> Option<i32> {
        let entry = *self.entry(key);
        (entry & KEY_BITS == key & KEY_BITS).then_some(entry as u16 as i16 as i32)
    }

    /// Remembers `score` for `key` (scores beyond an `i16` are not remembered).
    #[inline]
    pub fn put(&mut self, key: u64, score: i32) {
        if let Ok(score) = i16::try_from(score) {
            self.entries[EvalCache::slot(key)] = key & KEY_BITS | score as u16 as u64;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembers_scores_by_key() {
        let mut cache = EvalCache::default();
        let key = 0x1234_5678_9ABC_DEF0;
        assert_eq!(cache.get(key), None);
        cache.put(key, -345);
        assert_eq!(cache.get(key), Some(-345));
        // Another key of the same slot replaces it, and the first no longer matches.
        let other = key ^ 0x0100_0000_0000_0000;
        cache.put(other, 77);
        assert_eq!(cache.get(other), Some(77));
        assert_eq!(cache.get(key), None);
        // Scores too big to pack are not remembered.
        cache.put(key, 40_000);
        assert_eq!(cache.get(key), None);
    }
}
