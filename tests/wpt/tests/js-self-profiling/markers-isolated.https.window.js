// META: title=Sample markers in a cross-origin isolated document (markers extension)
// META: script=resources/profiling-helpers.js
// https://github.com/WICG/js-self-profiling/blob/main/markers.md
"use strict";

const MARKERS = ["script", "gc", "style", "layout", "paint", "other"];

let trace, spinFrom, spinTo;
promise_setup(async () => {
  for (let attempt = 0; attempt < 3; attempt++) {
    const profiler = new Profiler({ sampleInterval: 1, maxBufferSize: 10000 });
    spinFrom = performance.now();
    let keep = [];
    for (const end = performance.now() + 200; performance.now() < end;) {
      keep.push({ a: [1, 2, 3] });
      if (keep.length > 50000) keep = [];
    }
    spinTo = performance.now();
    trace = await profiler.stop();
    if (trace.samples.some(s => s.timestamp > spinFrom && s.timestamp < spinTo)) {
      break;
    }
  }
});

promise_test(async () => {
  assert_true(self.crossOriginIsolated);
  for (const sample of trace.samples) {
    if ("marker" in sample) {
      assert_in_array(sample.marker, MARKERS, "a ProfilerMarker value");
    }
  }
}, "markers are ProfilerMarker values, absent (never null) when there is none");

promise_test(async () => {
  const during = trace.samples.filter(s => s.timestamp > spinFrom + 1 && s.timestamp < spinTo - 1);
  assert_greater_than(during.length, 0, "samples were taken while script ran");
  for (const sample of during) {
    if (!("marker" in sample)) {
      // A tick whose capture could not be taken (the thread did not handle
      // the sampling signal in time) has neither stack nor marker.
      assert_false("stackId" in sample, "a sample with a stack has a marker");
      continue;
    }
    assert_in_array(sample.marker, ["script", "gc"], "script or a GC it triggered");
  }
  const marked = during.filter(s => s.marker === "script" || s.marker === "gc");
  assert_greater_than(marked.length, during.length / 2, "most samples are marked");
  assert_true(during.some(s => s.marker === "script"), "a script sample");
}, "samples taken while script runs carry script (or gc)");

promise_test(async () => {
  for (const sample of trace.samples) {
    assert_false(["style", "layout", "paint"].includes(sample.marker),
      "the shell computes no style, does no layout and paints nothing");
  }
}, "no rendering markers");
