// Session start: BENCH_WARM iterations of BENCH.run(), then (if
// START_INTERVAL > 0) `new Profiler()`, then BENCH_AFTER iterations; prints
// every iteration's duration, the constructor's duration, and the time from
// the constructor call to the trace's first sample (run.py --start).
(async function () {
  "use strict";
  var times = [];
  var check = null;
  function iteration() {
    var start = performance.now();
    var result = BENCH.run();
    times.push(performance.now() - start);
    if (check === null) {
      check = result;
    } else if (check !== result) {
      throw new Error("iteration returned " + result + ", expected " + check);
    }
  }
  for (var i = 0; i < BENCH_WARM; i++) {
    iteration();
  }
  var out = { name: BENCH.name };
  var profiler = null;
  var t0 = performance.now();
  if (START_INTERVAL > 0) {
    profiler = new Profiler({ sampleInterval: START_INTERVAL, maxBufferSize: 1000000 });
  }
  out.construct_ms = performance.now() - t0;
  for (var j = 0; j < BENCH_AFTER; j++) {
    iteration();
  }
  if (profiler) {
    var trace = await profiler.stop();
    out.samples = trace.samples.length;
    out.first_sample_ms = trace.samples.length ? trace.samples[0].timestamp - t0 : null;
    var withStack = trace.samples.filter(function (s) { return s.stackId !== undefined; });
    out.first_stack_ms = withStack.length ? withStack[0].timestamp - t0 : null;
  }
  out.check = String(check);
  out.times = times;
  console.log("BENCH_RESULT " + JSON.stringify(out));
})();
