//! Timestamp coarsening, per High Resolution Time's "coarsen time".
//!
//! Resolution: 5 µs for a cross-origin isolated global, 100 µs otherwise.
//! Timestamps are floored to a multiple of the resolution; no jitter is
//! added (the spec allows it; the floor alone already bounds the precision).
//! Flooring is done in integer nanoseconds: a millisecond timestamp is first
//! rounded to the nearest nanosecond (below an f64's precision at these
//! magnitudes anyway), so a timestamp that is on the grid stays there despite
//! binary floating point; the result is therefore at most half a nanosecond
//! later than the input, never a full step earlier, and monotonic.

use std::time::Duration;

/// Resolution of a cross-origin isolated global.
pub(crate) const ISOLATED_RESOLUTION: Duration = Duration::from_micros(5);
/// Resolution of every other global.
pub(crate) const DEFAULT_RESOLUTION: Duration = Duration::from_micros(100);

/// Above this many milliseconds (2^53 ns, about 104 days) an f64 has no
/// sub-microsecond precision left and the value is returned as is.
const MAX_EXACT_MS: f64 = 9_007_199_254.740_992;

/// Steps 1-2 of <https://w3c.github.io/hr-time/#dfn-coarsen-time>.
pub fn time_resolution(cross_origin_isolated_capability: bool) -> Duration {
    // Step 1: Let time resolution be 100 microseconds, or a higher
    // implementation-defined value.
    // Step 2: If crossOriginIsolatedCapability is true, set time resolution
    // to be 5 microseconds, or a higher implementation-defined value.
    if cross_origin_isolated_capability {
        ISOLATED_RESOLUTION
    } else {
        DEFAULT_RESOLUTION
    }
}

/// <https://w3c.github.io/hr-time/#dfn-coarsen-time> for a duration since a
/// time origin.
pub fn coarsen_duration(timestamp: Duration, cross_origin_isolated_capability: bool) -> Duration {
    // Steps 1-2: the resolution.
    let resolution = time_resolution(cross_origin_isolated_capability).as_nanos();
    // Step 3: coarsen timestamp so that its resolution does not exceed time
    // resolution (floor to a multiple of it).
    let nanos = timestamp.as_nanos();
    let floored = nanos - nanos % resolution;
    // Step 4: Return timestamp. (`floored` <= the input, so it fits.)
    Duration::new(
        (floored / 1_000_000_000) as u64,
        (floored % 1_000_000_000) as u32,
    )
}

/// <https://w3c.github.io/hr-time/#dfn-coarsen-time> for a
/// `DOMHighResTimeStamp` in milliseconds (negative values are allowed and
/// floored towards minus infinity; NaN and infinities are returned as is).
pub fn coarsen_time(timestamp_ms: f64, cross_origin_isolated_capability: bool) -> f64 {
    if !timestamp_ms.is_finite() || timestamp_ms.abs() > MAX_EXACT_MS {
        return timestamp_ms;
    }
    // Steps 1-2: the resolution.
    let resolution = time_resolution(cross_origin_isolated_capability).as_nanos() as i64;
    // Step 3: to whole nanoseconds (below the f64's precision anyway), then
    // floor to a multiple of the resolution.
    let nanos = (timestamp_ms * 1e6).round() as i64;
    let floored = nanos.div_euclid(resolution) * resolution;
    // Step 4: Return timestamp.
    floored as f64 / 1e6
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolutions() {
        assert_eq!(time_resolution(true), Duration::from_micros(5));
        assert_eq!(time_resolution(false), Duration::from_micros(100));
    }

    #[test]
    fn durations_floor_to_the_grid() {
        let t = Duration::from_nanos(1_234_567_891);
        assert_eq!(
            coarsen_duration(t, true),
            Duration::from_nanos(1_234_565_000)
        );
        assert_eq!(
            coarsen_duration(t, false),
            Duration::from_nanos(1_234_500_000)
        );
        assert_eq!(coarsen_duration(Duration::ZERO, true), Duration::ZERO);
        let on_grid = Duration::from_micros(300);
        assert_eq!(coarsen_duration(on_grid, false), on_grid);
        assert_eq!(
            coarsen_duration(Duration::from_nanos(99_999), false),
            Duration::ZERO
        );
        let max = coarsen_duration(Duration::MAX, true);
        assert!(max <= Duration::MAX && Duration::MAX - max < ISOLATED_RESOLUTION);
    }

    #[test]
    fn milliseconds_floor_to_the_grid() {
        assert_eq!(coarsen_time(1.234_567, true), 1.230);
        assert_eq!(coarsen_time(1.234_567, false), 1.2);
        assert_eq!(coarsen_time(12.345_678, true), 12.345);
        assert_eq!(coarsen_time(12.349_999, true), 12.345);
        assert_eq!(coarsen_time(12.350_001, false), 12.3);
        assert_eq!(coarsen_time(0.0, false), 0.0);
        assert_eq!(coarsen_time(0.000_9, true), 0.0);
    }

    #[test]
    fn grid_values_survive_binary_floating_point() {
        // 0.3 ms and 1.005 ms are not exact in binary; a naive floor of
        // t / resolution would drop them a step.
        assert_eq!(coarsen_time(0.3, false), 0.3);
        assert_eq!(coarsen_time(1.005, true), 1.005);
        assert_eq!(coarsen_time(4.1, false), 4.1);
        for step in 0..10_000_i64 {
            // The double nearest to the grid value stays put...
            let grid = (step * 5_000) as f64 / 1e6;
            assert_eq!(coarsen_time(grid, true), grid, "step {step}");
            // ...and an accumulated product off by an ulp lands on it.
            assert_eq!(coarsen_time(step as f64 * 0.005, true), grid, "step {step}");
        }
    }

    #[test]
    fn isolated_resolution_is_finer() {
        let t = 1_000.123_456;
        let fine = coarsen_time(t, true);
        let coarse = coarsen_time(t, false);
        assert!(coarse <= fine && fine <= t);
        assert_eq!(fine, 1000.12);
        assert_eq!(coarse, 1000.1);
    }

    #[test]
    fn negative_and_special_values() {
        assert_eq!(coarsen_time(-0.000_1, true), -0.005);
        assert_eq!(coarsen_time(-1.0, false), -1.0);
        // Within half a nanosecond of the grid counts as on it.
        assert_eq!(coarsen_time(-0.000_000_4, true), 0.0);
        assert_eq!(coarsen_time(-0.000_000_6, true), -0.005);
        assert_eq!(coarsen_time(0.099_999_999_6, false), 0.1);
        assert!(coarsen_time(f64::NAN, true).is_nan());
        assert_eq!(coarsen_time(f64::INFINITY, true), f64::INFINITY);
        assert_eq!(coarsen_time(f64::NEG_INFINITY, false), f64::NEG_INFINITY);
        assert_eq!(coarsen_time(1e300, false), 1e300);
        // Just below the exactness limit it still floors.
        assert_eq!(coarsen_time(9_000_000_000.123_456, false), 9_000_000_000.1);
    }
}
