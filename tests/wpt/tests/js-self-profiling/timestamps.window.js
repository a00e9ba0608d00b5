// META: title=Sample timestamps
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
  assert_greater_than(trace.samples.length, 0, "samples were taken");
  for (const sample of trace.samples) {
    assert_greater_than_equal(sample.timestamp, before, "not before the profiler started");
    assert_less_than_equal(sample.timestamp, after, "not after stop() was called");
  }
}, "timestamps lie between performance.now() before the profiler and after stop()");

promise_test(async () => {
  for (let i = 1; i < trace.samples.length; i++) {
    assert_greater_than_equal(trace.samples[i].timestamp, trace.samples[i - 1].timestamp);
  }
}, "timestamps do not decrease");

promise_test(async () => {
  assert_false(self.crossOriginIsolated === true, "this document is not cross-origin isolated");
  for (const sample of trace.samples) {
    const units = sample.timestamp / 0.1;
    assert_approx_equals(units, Math.round(units), 1e-6,
      "timestamp " + sample.timestamp + " is a multiple of 100 microseconds");
  }
}, "timestamps are coarsened like performance.now() (100 microseconds, not isolated)");
