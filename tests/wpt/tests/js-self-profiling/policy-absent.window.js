// META: title=No Document-Policy header
// META: script=resources/profiling-helpers.js
"use strict";

test(() => {
  assert_equals(typeof Profiler, "function");
}, "Profiler is exposed whatever the policy");

test(() => {
  assert_throws_dom("NotAllowedError", () => new Profiler({ sampleInterval: 10, maxBufferSize: 100 }));
}, "new Profiler() throws NotAllowedError");

test(() => {
  assert_throws_js(RangeError, () => new Profiler({ sampleInterval: -1, maxBufferSize: 100 }));
}, "a negative sampleInterval throws RangeError before the policy is checked");
