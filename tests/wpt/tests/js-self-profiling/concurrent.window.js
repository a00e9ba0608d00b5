// META: title=Concurrent profilers
// META: script=resources/profiling-helpers.js
"use strict";

function workWhileBothRun() {
  return busyWait(250);
}

function workAfterFirstStopped() {
  return busyWait(250);
}

// Two profilers; the first is stopped halfway. Retried when sampling was
// too sparse to see both phases.
async function profileTwo() {
  let result;
  for (let attempt = 0; attempt < 3; attempt++) {
    const first = new Profiler(DEFAULT_OPTIONS);
    const second = new Profiler(DEFAULT_OPTIONS);
    workWhileBothRun();
    const firstTrace = first.stop();
    const secondStoppedEarly = second.stopped;
    workAfterFirstStopped();
    const secondTrace = second.stop();
    result = { first: await firstTrace, second: await secondTrace, secondStoppedEarly };
    if (sampledFramesNamed(result.first, "workWhileBothRun").length &&
        sampledFramesNamed(result.second, "workWhileBothRun").length &&
        sampledFramesNamed(result.second, "workAfterFirstStopped").length) {
      break;
    }
  }
  return result;
}

let traces;
promise_setup(async () => {
  traces = await profileTwo();
});

promise_test(async () => {
  assertTraceIsWellFormed(traces.first);
  assertTraceIsWellFormed(traces.second);
  assert_not_equals(traces.first, traces.second);
}, "both profilers deliver a trace");

promise_test(async () => {
  assert_false(traces.secondStoppedEarly);
}, "stopping one profiler does not stop the other");

promise_test(async () => {
  assertSampled(traces.first, "workWhileBothRun");
  assertSampled(traces.second, "workWhileBothRun");
}, "both profilers sample the work done while both run");

promise_test(async () => {
  assertSampled(traces.second, "workAfterFirstStopped");
  assert_equals(sampledFramesNamed(traces.first, "workAfterFirstStopped").length, 0,
    "no sample of the stopped profiler shows later work");
}, "only the running profiler samples the work done after the other stopped");
