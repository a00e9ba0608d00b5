// META: title=Sample timestamps in a cross-origin isolated document
// META: script=resources/profiling-helpers.js
"use strict";

let before, after, trace;
promise_setup(async () => {
  for (let attempt = 0; attempt < 3; attempt++) {
    before = performance.now();
    const profiler = new Profiler(DEFAULT_OPTIONS);
    busyWait(300);
    const stopping = profiler.stop();
    after = performance.now();
    trace = await stopping;
    if (trace.samples.length > 0) {
      break;
    }
  }
});

promise_test(async () => {
  assert_true(self.crossOriginIsolated);
}, "COOP same-origin and COEP require-corp make the document cross-origin isolated");

promise_test(async () => {
  assert_greater_than(trace.samples.length, 0, "samples were taken");
  for (const sample of trace.samples) {
    assert_greater_than_equal(sample.timestamp, before, "not before the profiler started");
    assert_less_than_equal(sample.timestamp, after, "not after stop() was called");
  }
}, "timestamps lie between performance.now() before the profiler and after stop()");

promise_test(async () => {
  for (const sample of trace.samples) {
    const units = sample.timestamp / 0.005;
    assert_approx_equals(units, Math.round(units), 1e-6,
      "timestamp " + sample.timestamp + " is a multiple of 5 microseconds");
  }
}, "timestamps are coarsened like performance.now() (5 microseconds when isolated)");
