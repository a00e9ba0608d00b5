// META: title=maxBufferSize and samplebufferfull
// META: script=resources/profiling-helpers.js
"use strict";

// Works in slices, yielding to the event loop, until `profiler` fires
// samplebufferfull (or a bounded amount of work is done).
async function workUntilFull(t, profiler) {
  let event = null;
  profiler.addEventListener("samplebufferfull", (e) => { event = e; });
  for (let i = 0; i < 60 && event === null; i++) {
    busyWait(25);
    await new Promise((resolve) => t.step_timeout(resolve, 0));
  }
  return event;
}

// The trace, if stop() still delivers one after the buffer filled (the
// explainer says it does; the specification's stop() rejects once stopped).
async function traceAfterFull(profiler) {
  try {
    return await profiler.stop();
  } catch (e) {
    assert_equals(e.name, "InvalidStateError", "stop() may only reject with InvalidStateError");
    return null;
  }
}

promise_test(async (t) => {
  const profiler = new Profiler({ sampleInterval: 10, maxBufferSize: 2 });
  const event = await workUntilFull(t, profiler);
  assert_not_equals(event, null, "samplebufferfull was fired");
  assert_equals(event.type, "samplebufferfull");
  assert_true(event instanceof Event, "an Event");
  assert_equals(event.target, profiler, "fired at the profiler");
  assert_true(profiler.stopped, "the profiler is stopped");
  const trace = await traceAfterFull(profiler);
  if (trace) {
    assertTraceIsWellFormed(trace);
    assert_less_than_equal(trace.samples.length, 2, "no more samples than maxBufferSize");
  }
}, "samplebufferfull fires and stops the profiler when maxBufferSize samples are taken");

promise_test(async (t) => {
  const profiler = new Profiler({ sampleInterval: 10, maxBufferSize: 0 });
  const event = await workUntilFull(t, profiler);
  assert_not_equals(event, null, "samplebufferfull was fired");
  assert_true(profiler.stopped);
  const trace = await traceAfterFull(profiler);
  if (trace) {
    assert_equals(trace.samples.length, 0, "no sample kept");
  }
}, "a maxBufferSize of 0 fires samplebufferfull at the first sample");

promise_test(async (t) => {
  const profiler = new Profiler({ sampleInterval: 10, maxBufferSize: 100000 });
  let fired = false;
  profiler.addEventListener("samplebufferfull", () => { fired = true; });
  busyWait(100);
  await new Promise((resolve) => t.step_timeout(resolve, 0));
  const trace = await profiler.stop();
  assert_false(fired, "no samplebufferfull below the limit");
  assert_less_than(trace.samples.length, 100000);
}, "no samplebufferfull while the buffer has room");
