// META: title=No sample markers in a document that is not cross-origin isolated
// META: script=resources/profiling-helpers.js
// https://github.com/WICG/js-self-profiling/blob/main/markers.md: the
// marker member is [CrossOriginIsolated].
"use strict";

promise_test(async () => {
  assert_false(self.crossOriginIsolated);
  const profiler = new Profiler({ sampleInterval: 1, maxBufferSize: 10000 });
  busyWait(100);
  const trace = await profiler.stop();
  assert_greater_than(trace.samples.length, 0, "samples were taken");
  for (const sample of trace.samples) {
    assert_false("marker" in sample, "no marker member");
  }
}, "samples have no marker member");
