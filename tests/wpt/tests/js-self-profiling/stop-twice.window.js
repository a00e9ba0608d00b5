// META: title=Calling Profiler.stop() twice
// META: script=resources/profiling-helpers.js
"use strict";

promise_test(async (t) => {
  const profiler = new Profiler({ sampleInterval: 10, maxBufferSize: 100 });
  const first = profiler.stop();
  const second = profiler.stop();
  assert_true(second instanceof Promise, "the second call returns a promise, it does not throw");
  assert_not_equals(first, second);
  await promise_rejects_dom(t, "InvalidStateError", second);
  assertTraceIsWellFormed(await first);
}, "a second stop() before the first resolves rejects with InvalidStateError");

promise_test(async (t) => {
  const profiler = new Profiler({ sampleInterval: 10, maxBufferSize: 100 });
  await profiler.stop();
  await promise_rejects_dom(t, "InvalidStateError", profiler.stop());
}, "stop() after the trace was delivered rejects with InvalidStateError");
