// META: title=ProfilerInitOptions validation
// META: script=resources/profiling-helpers.js
"use strict";

const VALID = { sampleInterval: 10, maxBufferSize: 100 };

function construct(options) {
  const profiler = new Profiler(options);
  profiler.stop();
  return profiler;
}

test(() => {
  assert_throws_js(TypeError, () => new Profiler());
  assert_throws_js(TypeError, () => new Profiler(undefined));
  assert_throws_js(TypeError, () => new Profiler({}));
}, "the options dictionary is required and its members are required");

test(() => {
  assert_throws_js(TypeError, () => new Profiler({ maxBufferSize: 100 }));
}, "a missing sampleInterval throws TypeError");

test(() => {
  assert_throws_js(TypeError, () => new Profiler({ sampleInterval: 10 }));
}, "a missing maxBufferSize throws TypeError");

test(() => {
  assert_throws_js(RangeError, () => new Profiler({ sampleInterval: -1, maxBufferSize: 100 }));
  assert_throws_js(RangeError, () => new Profiler({ sampleInterval: -0.001, maxBufferSize: 100 }));
}, "a negative sampleInterval throws RangeError");

test(() => {
  for (const value of [NaN, Infinity, -Infinity]) {
    assert_throws_js(TypeError, () => new Profiler({ sampleInterval: value, maxBufferSize: 100 }),
      String(value));
  }
}, "a non-finite sampleInterval throws TypeError (DOMHighResTimeStamp is a restricted double)");

test(() => {
  assert_true(construct({ sampleInterval: 0, maxBufferSize: 100 }) instanceof Profiler);
}, "a sampleInterval of 0 is accepted");

test(() => {
  construct({ sampleInterval: "10", maxBufferSize: "100" });
  construct({ sampleInterval: 10, maxBufferSize: 0 });
  construct({ sampleInterval: 10, maxBufferSize: -1 });
}, "members are converted as WebIDL double and unsigned long (no range enforcement on maxBufferSize)");

test(() => {
  const order = [];
  const options = {
    get sampleInterval() { order.push("sampleInterval"); return 10; },
    get maxBufferSize() { order.push("maxBufferSize"); return 100; },
  };
  construct(options);
  assert_array_equals(order, ["maxBufferSize", "sampleInterval"]);
}, "dictionary members are read once each, in lexicographic order");

test(() => {
  assert_throws_js(TypeError, () => Profiler(VALID));
}, "calling Profiler without new throws TypeError");

test(() => {
  assert_throws_js(TypeError, () => new Profiler(42));
}, "a non-object options argument throws TypeError");
