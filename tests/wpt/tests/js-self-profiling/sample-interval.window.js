// META: title=Profiler.sampleInterval
// META: script=resources/profiling-helpers.js
"use strict";

test(() => {
  const profiler = new Profiler({ sampleInterval: 10, maxBufferSize: 100 });
  const value = profiler.sampleInterval;
  profiler.stop();
  assert_equals(typeof value, "number");
  assert_true(Number.isFinite(value), "finite");
  assert_greater_than(value, 0, "positive for a positive request");
  assert_equals(profiler.sampleInterval, value, "the same value on every read");
}, "sampleInterval is a positive number");

test(() => {
  const first = new Profiler({ sampleInterval: 10, maxBufferSize: 100 });
  const supported = first.sampleInterval;
  first.stop();
  const second = new Profiler({ sampleInterval: supported, maxBufferSize: 100 });
  second.stop();
  assert_equals(second.sampleInterval, supported);
}, "an interval the user agent supports is reflected unchanged");

test(() => {
  const values = [1, 5, 10, 16, 100, 1000].map((requested) => {
    const profiler = new Profiler({ sampleInterval: requested, maxBufferSize: 100 });
    profiler.stop();
    return profiler.sampleInterval;
  });
  for (let i = 1; i < values.length; i++) {
    assert_greater_than_equal(values[i], values[i - 1], "requests " + values);
  }
}, "a longer requested interval never gives a shorter one");

test(() => {
  const profiler = new Profiler({ sampleInterval: 10, maxBufferSize: 100 });
  const value = profiler.sampleInterval;
  assert_false(Reflect.set(profiler, "sampleInterval", value + 1000), "[[Set]] fails");
  assert_equals(profiler.sampleInterval, value, "the value is unchanged");
  assert_throws_js(TypeError, () => {
    profiler.sampleInterval = 1; // strict mode code: a failed assignment throws
  });
  profiler.stop();
  assert_equals(profiler.sampleInterval, value, "unchanged by stop()");
}, "sampleInterval is read-only and survives stop()");
