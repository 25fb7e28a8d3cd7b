//! A small, fast, seedable random number generator (SplitMix64) for the places where the engine
//! wants variety: book choices, weakened levels, self-play openings. Not for cryptography.
//!
//! Seeded explicitly so tests and data generation can be reproduced; [`Rng::from_time`] gives a
//! different sequence for each game a person plays.

/// SplitMix64: one 64-bit word of state, passes BigCrush, and needs no dependency.
#[derive(Clone, Debug)]
pub struct Rng {
    state: u64,
}

impl Rng {
    /// A generator that always produces the same sequence for the same seed.
    pub fn new(seed: u64) -> Rng {
        Rng { state: seed }
    }

    /// A generator seeded from the clock and a per-process counter, so two generators made in
    /// the same instant still differ.
    pub fn from_time() -> Rng {
        use std::sync::atomic::{AtomicU64, Ordering};
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        #[cfg(not(target_arch = "wasm32"))]
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        // A browser has no system time in the standard library; its host clock counts from
        // the epoch (see `instant`).
        #[cfg(target_arch = "wasm32")]
        let nanos = crate::instant::Instant::now().nanos_since_origin();
        let count = COUNTER.fetch_add(1, Ordering::Relaxed);
        Rng::new(nanos ^ count.wrapping_mul(0xD6E8_FEB8_6659_FD93))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform number in `0..n` (`n` must not be 0).
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        // Multiply-shift: bias below 2^-64 * n, far under anything observable here.
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }

    /// A uniform number in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// An index into `weights` chosen with probability proportional to its weight; `None` when
    /// the weights are empty or all zero or not finite.
    pub fn weighted_index(&mut self, weights: &[f64]) -> Option<usize> {
        let total: f64 = weights.iter().filter(|w| w.is_finite() && **w > 0.0).sum();
        if total <= 0.0 || !total.is_finite() {
            return None;
        }
        let mut target = self.unit() * total;
        let mut last = None;
        for (i, &w) in weights.iter().enumerate() {
            if !(w.is_finite() && w > 0.0) {
                continue;
            }
            last = Some(i);
            if target < w {
                return Some(i);
            }
            target -= w;
        }
        // Rounding can leave a sliver past the last weight.
        last
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_sequence() {
        let mut a = Rng::new(42);
        let mut b = Rng::new(42);
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
        assert_ne!(Rng::new(1).next_u64(), Rng::new(2).next_u64());
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut rng = Rng::new(7);
        let mut seen = [false; 5];
        for _ in 0..1000 {
            let x = rng.below(5);
            assert!(x < 5);
            seen[x as usize] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn weighted_index_follows_weights() {
        let mut rng = Rng::new(3);
        let mut counts = [0u32; 3];
        for _ in 0..30_000 {
            counts[rng.weighted_index(&[1.0, 0.0, 3.0]).unwrap()] += 1;
        }
        assert_eq!(counts[1], 0);
        // Expected 7500 and 22500; allow a generous margin.
        assert!((6900..8100).contains(&counts[0]), "{counts:?}");
        assert_eq!(rng.weighted_index(&[]), None);
        assert_eq!(rng.weighted_index(&[0.0, -1.0, f64::NAN]), None);
    }
}
