// META: title=Sample timestamps
// META: script=resources/profiling-helpers.js
"use strict";

let readings;
promise_setup(async () => {
  readings = await profileBetweenClockReadings(300);
});

testTimestampsBetweenClockReadings(() => readings);

promise_test(async () => {
  const samples = readings.trace.samples;
  for (let i = 1; i < samples.length; i++) {
    assert_greater_than_equal(samples[i].timestamp, samples[i - 1].timestamp);
  }
}, "timestamps do not decrease");

promise_test(async () => {
  assert_false(self.crossOriginIsolated === true, "this document is not cross-origin isolated");
  for (const sample of readings.trace.samples) {
    const units = sample.timestamp / 0.1;
    assert_approx_equals(units, Math.round(units), 1e-6,
      "timestamp " + sample.timestamp + " is a multiple of 100 microseconds");
  }
}, "timestamps are coarsened like performance.now() (100 microseconds, not isolated)");
