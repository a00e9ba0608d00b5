// META: title=Sample timestamps in a cross-origin isolated document
// META: script=resources/profiling-helpers.js
"use strict";

let readings;
promise_setup(async () => {
  readings = await profileBetweenClockReadings(300);
});

promise_test(async () => {
  assert_true(self.crossOriginIsolated);
}, "COOP same-origin and COEP require-corp make the document cross-origin isolated");

testTimestampsBetweenClockReadings(() => readings);

promise_test(async () => {
  for (const sample of readings.trace.samples) {
    const units = sample.timestamp / 0.005;
    assert_approx_equals(units, Math.round(units), 1e-6,
      "timestamp " + sample.timestamp + " is a multiple of 5 microseconds");
  }
}, "timestamps are coarsened like performance.now() (5 microseconds when isolated)");
