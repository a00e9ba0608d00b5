// META: title=Document-Policy: js-profiling=?1
// META: script=resources/profiling-helpers.js
"use strict";

test(() => {
  const profiler = new Profiler({ sampleInterval: 10, maxBufferSize: 100 });
  assert_true(profiler instanceof Profiler, "a Profiler");
  assert_false(profiler.stopped, "started");
  profiler.stop();
}, "new Profiler() is allowed");

promise_test(async () => {
  const trace = await profileUntilSampled(() => busyWait(300), "busyWait");
  assertTraceIsWellFormed(trace);
  assertSampled(trace, "busyWait");
}, "the profiler samples the running script");
