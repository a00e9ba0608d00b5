// META: title=The Profiler interface and the ProfilerTrace dictionary in a dedicated worker
// META: script=../resources/profiling-helpers.js
// META: script=resources/worker-helpers.js
// META: timeout=long
"use strict";

// Profiler is [Exposed=(Window,DedicatedWorker)]: in a worker allowed to
// profile (its script is served with the policy), it behaves as on a page.

let facts;
promise_setup(async () => {
  const worker = new WorkerClient(new Worker(WORKER_SCRIPT_WITH_POLICY), "worker");
  facts = await worker.call("shape");
  worker.worker.terminate();
});

promise_test(async () => {
  assert_true(facts.globalProperty !== undefined, "the global has a Profiler property");
  assert_true(facts.globalProperty.hasValue, "a data property");
  assert_true(facts.globalProperty.writable, "writable");
  assert_false(facts.globalProperty.enumerable, "not enumerable");
  assert_true(facts.globalProperty.configurable, "configurable");
}, "Profiler is an interface object on the worker's global");

promise_test(async () => {
  assert_equals(facts.length, 1, "Profiler.length");
  assert_true(String(facts.callWithoutNew).startsWith("threw TypeError"),
    "calling Profiler without new throws a TypeError: " + facts.callWithoutNew);
  assert_true(facts.protoIsEventTarget, "Profiler.prototype inherits from EventTarget.prototype");
  for (const accessor of facts.accessors) {
    assert_true(accessor.getter, accessor.name + " has a getter");
    assert_false(accessor.setter, accessor.name + " is readonly");
  }
  assert_true(facts.stopIsMethod, "stop() is a method");
}, "the Profiler interface's members in the worker");

promise_test(async () => {
  assert_equals(facts.typeofProfilerTrace, "undefined");
}, "ProfilerTrace is a dictionary: no interface object in the worker");

promise_test(async () => {
  assert_equals(facts.negativeInterval.outcome, "threw");
  assert_equals(facts.negativeInterval.name, "RangeError");
}, "a negative sampleInterval throws RangeError in the worker");

promise_test(async () => {
  assert_true(facts.instanceOfProfiler, "instanceof Profiler");
  assert_true(facts.instanceOfEventTarget, "instanceof EventTarget");
  assert_equals(facts.toStringTag, "[object Profiler]");
  assert_equals(typeof facts.sampleInterval, "number", "sampleInterval is a number");
  assert_true(Number.isFinite(facts.sampleInterval) && facts.sampleInterval > 0,
    "sampleInterval is positive: " + facts.sampleInterval);
}, "new Profiler() in the worker: a Profiler with a positive sampleInterval");

promise_test(async () => {
  assert_false(facts.stoppedBefore, "started");
  assert_true(facts.stoppedAfterStop, "stopped as soon as stop() returns");
  assert_true(facts.stoppedAfterResolve, "still stopped once the trace is delivered");
  assert_true(facts.stopReturnsPromise, "stop() returns a promise");
  assert_true(facts.secondStop.startsWith("InvalidStateError"), "a second stop() rejects: " + facts.secondStop);
  assert_true(facts.secondStopIsDOMException, "with a DOMException");
}, "stopped and stop() in the worker");

promise_test(async () => {
  assert_array_equals(facts.traceKeys, ["frames", "resources", "samples", "stacks"]);
  assert_true(facts.traceArrays, "the members are arrays");
  assertTraceIsWellFormed(facts.trace);
}, "stop() in the worker resolves with a ProfilerTrace: resources, frames, stacks and samples");
