// META: title=A worker's sample timestamps are relative to the worker's time origin
// META: script=../resources/profiling-helpers.js
// META: script=resources/worker-helpers.js
// META: timeout=long
"use strict";

// A profiling session's time origin is the time origin of the global that
// made it; a worker's time origin is set when the worker starts, after
// `new Worker()`. The page waits until its own clock reads at least
// PAGE_CLOCK_LEAD ms before making the worker, so that timestamps measured
// from the page's time origin would be at least that much too large.
const PAGE_CLOCK_LEAD = 1000;
// performance.timeOrigin is a wall-clock value; what separates it from the
// page's, reading it on two threads, is not the point here.
const TIME_ORIGIN_SLACK = 20;

let pageTimeOrigin, pageNowAtCreate, result;
promise_setup(async () => {
  while (performance.now() < PAGE_CLOCK_LEAD) {
    await delay(50);
  }
  pageTimeOrigin = performance.timeOrigin;
  pageNowAtCreate = performance.now();
  const worker = new WorkerClient(new Worker(WORKER_SCRIPT_WITH_POLICY), "worker");
  result = await worker.call("profile", { ms: 300, minSamples: 3 });
  worker.worker.terminate();
  assertTraceIsWellFormed(result.trace);
});

promise_test(async () => {
  assert_greater_than(result.trace.samples.length, 0, "samples were taken");
  assert_greater_than(result.samplesInBusyLoop, 0, "samples of the worker's busy function were taken");
}, "the worker's profiler took samples");

promise_test(async () => {
  assert_equals(typeof result.timeOrigin, "number");
  assert_greater_than_equal(result.timeOrigin, pageTimeOrigin + pageNowAtCreate - TIME_ORIGIN_SLACK,
    "the worker's time origin is not before new Worker() was called");
}, "the worker has its own time origin, later than the page's");

promise_test(async () => {
  for (const sample of result.trace.samples) {
    assert_greater_than_equal(sample.timestamp, 0, "not negative");
    assert_greater_than_equal(sample.timestamp, result.before,
      "not before the worker's performance.now() when its profiler started");
    assert_less_than_equal(sample.timestamp, result.atStop,
      "not after the worker's performance.now() when stop() was called");
  }
}, "timestamps lie between the worker's performance.now() before the profiler and after stop()");

promise_test(async () => {
  const samples = result.trace.samples;
  for (let i = 1; i < samples.length; i++) {
    assert_greater_than_equal(samples[i].timestamp, samples[i - 1].timestamp);
  }
}, "the worker's timestamps do not decrease");

promise_test(async () => {
  for (const sample of result.trace.samples) {
    const units = sample.timestamp / 0.1;
    assert_approx_equals(units, Math.round(units), 1e-6,
      "timestamp " + sample.timestamp + " is a multiple of 100 microseconds");
  }
}, "the worker's timestamps are coarsened like its performance.now() (100 microseconds, not isolated)");
