//! The network's arithmetic on slices of `H` units, twice: [`simd`] with 16-lane integer
//! vectors (the `wide` crate, which compiles them to SSE instructions on x86-64-v2 and to plain
//! loops elsewhere) and [`scalar`], one unit at a time. Every operation is exact integer
//! arithmetic that cannot overflow for a network that loaded (the checks in
//! [`Network::from_bytes`](super::file::Network::from_bytes)), so both give the same results; the
//! tests compare them.
//!
//! Slices are `H` long, `H` a multiple of 16.

/// One unit at a time: the reference the SIMD kernels must equal.
pub mod scalar {
    use super::super::numbers::QA;

    /// `dst = src + add − sub`, unit by unit.
    #[inline]
    pub fn add_sub(dst: &mut [i16], src: &[i16], add: &[i16], sub: &[i16]) {
        for (((d, &s), &a), &b) in dst.iter_mut().zip(src).zip(add).zip(sub) {
            *d = s.wrapping_add(a).wrapping_sub(b);
        }
    }

    /// `dst = src + add − sub − sub2` (a capture removes a second piece).
    #[inline]
    pub fn add_sub_sub(dst: &mut [i16], src: &[i16], add: &[i16], sub: &[i16], sub2: &[i16]) {
        for ((((d, &s), &a), &b), &c) in dst.iter_mut().zip(src).zip(add).zip(sub).zip(sub2) {
            *d = s.wrapping_add(a).wrapping_sub(b).wrapping_sub(c);
        }
    }

    /// `dst += add`, unit by unit.
    #[inline]
    pub fn add_assign(dst: &mut [i16], add: &[i16]) {
        for (d, &a) in dst.iter_mut().zip(add) {
            *d = d.wrapping_add(a);
        }
    }

    /// `Σ clamp(a, 0, QA)² · w`.
    #[inline]
    pub fn output(sums: &[i16], weights: &[i16]) -> i64 {
        sums.iter()
            .zip(weights)
            .map(|(&a, &w)| {
                let clipped = i64::from(a.clamp(0, QA as i16));
                clipped * clipped * i64::from(w)
            })
            .sum()
    }
}

/// Sixteen units at a time.
pub mod simd {
    use super::super::numbers::QA;
    use wide::{i16x16, i32x8};

    const LANES: usize = 16;

    #[inline]
    fn load(chunk: &[i16]) -> i16x16 {
        let mut lanes = [0; LANES];
        lanes.copy_from_slice(chunk);
        i16x16::new(lanes)
    }

    /// `dst = src + add − sub`.
    #[inline]
    pub fn add_sub(dst: &mut [i16], src: &[i16], add: &[i16], sub: &[i16]) {
        let chunks = dst
            .chunks_exact_mut(LANES)
            .zip(src.chunks_exact(LANES))
            .zip(add.chunks_exact(LANES))
            .zip(sub.chunks_exact(LANES));
        for (((d, s), a), b) in chunks {
            d.copy_from_slice(&(load(s) + load(a) - load(b)).to_array());
        }
    }

    /// `dst = src + add − sub − sub2`.
    #[inline]
    pub fn add_sub_sub(dst: &mut [i16], src: &[i16], add: &[i16], sub: &[i16], sub2: &[i16]) {
        let chunks = dst
            .chunks_exact_mut(LANES)
            .zip(src.chunks_exact(LANES))
            .zip(add.chunks_exact(LANES))
            .zip(sub.chunks_exact(LANES))
            .zip(sub2.chunks_exact(LANES));
        for ((((d, s), a), b), c) in chunks {
            d.copy_from_slice(&(load(s) + load(a) - load(b) - load(c)).to_array());
        }
    }

    /// `dst += add`.
    #[inline]
    pub fn add_assign(dst: &mut [i16], add: &[i16]) {
        for (d, a) in dst.chunks_exact_mut(LANES).zip(add.chunks_exact(LANES)) {
            d.copy_from_slice(&(load(d) + load(a)).to_array());
        }
    }

    /// `Σ clamp(a, 0, QA)² · w`: `clamp · w` fits an `i16` (`|w| ≤ 127`), and multiplying it
    /// by `clamp` again while adding neighbouring lanes (one `pmaddwd`) gives 32-bit sums.
    /// Each 32-bit lane adds `H / 8` products of at most `255² · 127`, below 2³¹ for
    /// `H ≤ 1024`; the lanes are added in 64 bits.
    #[inline]
    pub fn output(sums: &[i16], weights: &[i16]) -> i64 {
        let zero = i16x16::splat(0);
        let top = i16x16::splat(QA as i16);
        let mut total = i32x8::splat(0);
        for (a, w) in sums.chunks_exact(LANES).zip(weights.chunks_exact(LANES)) {
            let clipped = load(a).max(zero).min(top);
            total += (clipped * load(w)).dot(clipped);
        }
        total.to_array().iter().map(|&lane| i64::from(lane)).sum()
    }
}
