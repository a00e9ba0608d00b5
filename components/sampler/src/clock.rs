//! Session time: integer nanosecond ticks on the monotonic clock that
//! `performance.now()` uses (`std::time::Instant`, CLOCK_MONOTONIC on Linux),
//! coarsened as HR-Time requires and converted to milliseconds only once.

use std::time::Instant;

use crate::glue;

/// HR-Time's coarsening: 100 µs, or 5 µs when cross-origin isolated.
/// <https://w3c.github.io/hr-time/#dfn-coarsen-time>
pub fn coarsening_ns(cross_origin_isolated: bool) -> u64 {
    if cross_origin_isolated {
        5_000
    } else {
        100_000
    }
}

/// A session's time origin on the sampler's raw clock.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SessionClock {
    origin_ns: u64,
    resolution_ns: u64,
}

impl SessionClock {
    /// Maps `time_origin` (an `Instant`) onto CLOCK_MONOTONIC nanoseconds.
    pub(crate) fn new(time_origin: Instant, cross_origin_isolated: bool) -> SessionClock {
        let now_instant = Instant::now();
        let now_ns = glue::monotonic_ns();
        let since = now_instant
            .saturating_duration_since(time_origin)
            .as_nanos() as u64;
        SessionClock {
            origin_ns: now_ns.saturating_sub(since),
            resolution_ns: coarsening_ns(cross_origin_isolated),
        }
    }

    /// The coarsened time of `raw_ns` relative to the origin, in ns.
    pub(crate) fn relative(&self, raw_ns: u64) -> u64 {
        let rel = raw_ns.saturating_sub(self.origin_ns);
        rel - rel % self.resolution_ns
    }
}

/// Converts integer nanoseconds into milliseconds for `DOMHighResTimeStamp`.
/// The division of two exact integers is correctly rounded, so a coarsened
/// value prints exactly (`643.7`, not `643.6999999999534`).
pub fn ns_to_ms(ns: u64) -> f64 {
    ns as f64 / 1_000_000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coarsened_values_print_exactly() {
        assert_eq!(ns_to_ms(643_700_000).to_string(), "643.7");
        assert_eq!(ns_to_ms(5_000).to_string(), "0.005");
    }
}
