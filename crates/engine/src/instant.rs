//! A monotonic clock that works wherever the engine runs.
//!
//! On every native target this is `std::time::Instant`. In a browser (`wasm32-unknown-unknown`)
//! the standard library has no clock (`Instant::now` panics), so the program that hosts the
//! engine there names a source of milliseconds once, with `set_source` (the page's
//! `performance.now()`), and [`Instant`] reads it. Everything that times a search, a clock or a
//! laboratory run uses this type, so the same code runs in both places.

#[cfg(not(target_arch = "wasm32"))]
pub use std::time::Instant;

/// Whole seconds since the Unix epoch, by the system's clock (in a browser, the host's).
pub fn unix_seconds() -> u64 {
    unix_nanos() / 1_000_000_000
}

/// Nanoseconds since the Unix epoch, by the system's clock.
#[cfg(not(target_arch = "wasm32"))]
pub fn unix_nanos() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

/// Nanoseconds since the Unix epoch, by the host's clock (which counts from the epoch).
#[cfg(target_arch = "wasm32")]
pub fn unix_nanos() -> u64 {
    Instant::now().nanos_since_origin()
}

#[cfg(target_arch = "wasm32")]
pub use browser::{set_source, Instant};

#[cfg(target_arch = "wasm32")]
mod browser {
    use std::ops::{Add, AddAssign, Sub};
    use std::sync::OnceLock;
    use std::time::Duration;

    /// The host's clock: milliseconds since a fixed moment, never going back (in a browser,
    /// `performance.timeOrigin + performance.now()`: since the epoch, so it also seeds
    /// randomness).
    static SOURCE: OnceLock<fn() -> f64> = OnceLock::new();

    /// Names the clock [`Instant::now`] reads. The first call wins; later ones are ignored.
    pub fn set_source(milliseconds: fn() -> f64) {
        let _ = SOURCE.set(milliseconds);
    }

    /// A moment, as the time since the host clock's origin.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub struct Instant(Duration);

    impl Instant {
        /// Now, by the host's clock.
        ///
        /// # Panics
        /// If the host named no clock: a build for the browser must call [`set_source`] first.
        pub fn now() -> Instant {
            let source = SOURCE
                .get()
                .expect("the host must name a clock with instant::set_source before searching");
            let ms = source();
            Instant(Duration::from_secs_f64(if ms.is_finite() {
                ms.max(0.0) / 1000.0
            } else {
                0.0
            }))
        }

        /// Nanoseconds from the host clock's origin to this moment (a seed for randomness).
        pub fn nanos_since_origin(&self) -> u64 {
            self.0.as_nanos() as u64
        }

        /// Time since this moment.
        pub fn elapsed(&self) -> Duration {
            Instant::now().saturating_duration_since(*self)
        }

        /// Time from `earlier` to this moment; zero if `earlier` is later.
        pub fn duration_since(&self, earlier: Instant) -> Duration {
            self.saturating_duration_since(earlier)
        }

        /// Time from `earlier` to this moment; zero if `earlier` is later.
        pub fn saturating_duration_since(&self, earlier: Instant) -> Duration {
            self.0.saturating_sub(earlier.0)
        }

        /// This moment plus `duration`, if representable.
        pub fn checked_add(&self, duration: Duration) -> Option<Instant> {
            self.0.checked_add(duration).map(Instant)
        }

        /// This moment less `duration`, if not before the clock's origin.
        pub fn checked_sub(&self, duration: Duration) -> Option<Instant> {
            self.0.checked_sub(duration).map(Instant)
        }
    }

    impl Add<Duration> for Instant {
        type Output = Instant;
        fn add(self, duration: Duration) -> Instant {
            Instant(self.0 + duration)
        }
    }

    impl AddAssign<Duration> for Instant {
        fn add_assign(&mut self, duration: Duration) {
            self.0 += duration;
        }
    }

    impl Sub<Duration> for Instant {
        type Output = Instant;
        fn sub(self, duration: Duration) -> Instant {
            Instant(self.0.saturating_sub(duration))
        }
    }

    impl Sub<Instant> for Instant {
        type Output = Duration;
        fn sub(self, earlier: Instant) -> Duration {
            self.saturating_duration_since(earlier)
        }
    }
}
