// META: title=Profiler.stopped
// META: script=resources/profiling-helpers.js
"use strict";

promise_test(async () => {
  const profiler = new Profiler({ sampleInterval: 10, maxBufferSize: 100 });
  assert_false(profiler.stopped, "a new profiler is started");
  const promise = profiler.stop();
  assert_true(profiler.stopped, "stopped as soon as stop() returns");
  await promise;
  assert_true(profiler.stopped, "still stopped once the trace is delivered");
}, "stopped is false until stop() is called, then true");

test(() => {
  const profiler = new Profiler({ sampleInterval: 10, maxBufferSize: 100 });
  assert_false(Reflect.set(profiler, "stopped", true), "[[Set]] fails while started");
  assert_false(profiler.stopped);
  profiler.stop();
  assert_false(Reflect.set(profiler, "stopped", false), "[[Set]] fails once stopped");
  assert_true(profiler.stopped);
  assert_throws_js(TypeError, () => {
    profiler.stopped = false; // strict mode code: a failed assignment throws
  });
}, "stopped is read-only");
