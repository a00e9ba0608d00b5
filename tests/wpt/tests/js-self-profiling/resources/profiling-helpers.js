// Helpers for the js-self-profiling tests (written for this repository from
// the JS Self-Profiling specification).
"use strict";

// A short interval so that a few hundred milliseconds of work give samples.
const DEFAULT_OPTIONS = Object.freeze({ sampleInterval: 10, maxBufferSize: 10000 });

// Keeps the calling frame on the stack for `ms` milliseconds.
function busyWait(ms) {
  const end = performance.now() + ms;
  let x = 0;
  while (performance.now() < end) {
    for (let i = 0; i < 1000; i++) {
      x = (x + Math.sqrt(i + x)) % 1e6;
    }
  }
  return x;
}

// The frames of the stack `stackId` (innermost first), as frame objects.
function framesOfStack(trace, stackId) {
  const frames = [];
  const seen = new Set();
  while (stackId !== undefined) {
    assert_false(seen.has(stackId), "stack chain has a cycle at " + stackId);
    seen.add(stackId);
    const stack = trace.stacks[stackId];
    assert_true(stack !== undefined, "stackId " + stackId + " is in range");
    frames.push(trace.frames[stack.frameId]);
    stackId = stack.parentId;
  }
  return frames;
}

// Every sampled stack, as arrays of frames (innermost first).
function sampledStacks(trace) {
  return trace.samples
    .filter((sample) => sample.stackId !== undefined)
    .map((sample) => framesOfStack(trace, sample.stackId));
}

// The frames (objects) named `name` that appear in some sampled stack.
function sampledFramesNamed(trace, name) {
  const found = [];
  for (const stack of sampledStacks(trace)) {
    for (const frame of stack) {
      if (frame.name === name && !found.includes(frame)) {
        found.push(frame);
      }
    }
  }
  return found;
}

function frameNames(trace) {
  return trace.frames.map((frame) => frame.name);
}

// Checks the structure the ProfilerTrace dictionary and the "get an element
// ID" algorithm guarantee: every id is an index into its list.
function assertTraceIsWellFormed(trace) {
  for (const key of ["resources", "frames", "stacks", "samples"]) {
    assert_true(Array.isArray(trace[key]), key + " is an array");
  }
  for (const resource of trace.resources) {
    assert_equals(typeof resource, "string", "resource is a string");
  }
  for (const frame of trace.frames) {
    assert_equals(typeof frame.name, "string", "frame name is a string");
    if (frame.resourceId !== undefined) {
      assert_true(frame.resourceId < trace.resources.length, "frame resourceId in range");
    }
  }
  trace.stacks.forEach((stack, index) => {
    assert_true(stack.frameId < trace.frames.length, "stack frameId in range");
    if (stack.parentId !== undefined) {
      assert_true(stack.parentId < trace.stacks.length, "stack parentId in range");
      assert_not_equals(stack.parentId, index, "a stack is not its own parent");
    }
  });
  let previous = -Infinity;
  for (const sample of trace.samples) {
    assert_equals(typeof sample.timestamp, "number", "sample timestamp is a number");
    assert_greater_than_equal(sample.timestamp, previous, "sample timestamps do not decrease");
    previous = sample.timestamp;
    if (sample.stackId !== undefined) {
      assert_true(sample.stackId < trace.stacks.length, "sample stackId in range");
    }
  }
}

// Profiles `work` (called synchronously) and returns the trace. Sampling is
// best effort, so when `accept(trace)` is false the profile is taken again,
// at most `attempts` times; the last trace is returned either way.
async function profileWork(work, { options = DEFAULT_OPTIONS, accept = () => true, attempts = 3 } = {}) {
  let trace;
  for (let i = 0; i < attempts; i++) {
    const profiler = new Profiler(options);
    work();
    trace = await profiler.stop();
    if (accept(trace)) {
      break;
    }
  }
  return trace;
}

// Profiles busyWait(`ms`) between two readings of performance.now(): one
// just before the profiler starts, one just after stop() is called.
// Returns `{ before, after, trace }`; taken again (at most three times in
// all) while the trace has no sample.
async function profileBetweenClockReadings(ms) {
  let readings;
  for (let attempt = 0; attempt < 3; attempt++) {
    const before = performance.now();
    const profiler = new Profiler(DEFAULT_OPTIONS);
    busyWait(ms);
    const stopping = profiler.stop();
    const after = performance.now();
    readings = { before, after, trace: await stopping };
    if (readings.trace.samples.length > 0) {
      break;
    }
  }
  return readings;
}

// The subtest of the timestamps tests: every sample of
// profileBetweenClockReadings's trace (`readings()`, once set up) lies
// between the two readings.
function testTimestampsBetweenClockReadings(readings) {
  promise_test(async () => {
    const { before, after, trace } = readings();
    assert_greater_than(trace.samples.length, 0, "samples were taken");
    for (const sample of trace.samples) {
      assert_greater_than_equal(sample.timestamp, before, "not before the profiler started");
      assert_less_than_equal(sample.timestamp, after, "not after stop() was called");
    }
  }, "timestamps lie between performance.now() before the profiler and after stop()");
}

// Profiles `work` until a frame named `name` is sampled; returns the trace.
function profileUntilSampled(work, name, options) {
  return profileWork(work, {
    options,
    accept: (trace) => sampledFramesNamed(trace, name).length > 0,
  });
}

function assertSampled(trace, name) {
  const frames = sampledFramesNamed(trace, name);
  assert_greater_than(
    frames.length,
    0,
    "a frame named " + JSON.stringify(name) + " was sampled (frames: " +
      JSON.stringify(frameNames(trace)) + ")"
  );
  return frames[0];
}

// The subtests of a document whose policy allows profiling (the
// policy-*.window.js files differ only in their .headers).
function testProfilingAllowed() {
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
}

// The subtests of a document whose policy does not allow profiling.
function testProfilingNotAllowed() {
  test(() => {
    assert_equals(typeof Profiler, "function");
  }, "Profiler is exposed whatever the policy");

  test(() => {
    assert_throws_dom("NotAllowedError", () => new Profiler({ sampleInterval: 10, maxBufferSize: 100 }));
  }, "new Profiler() throws NotAllowedError");

  test(() => {
    assert_throws_js(RangeError, () => new Profiler({ sampleInterval: -1, maxBufferSize: 100 }));
  }, "a negative sampleInterval throws RangeError before the policy is checked");
}
