// Runs BENCH.run() and prints one line (read by run.py) with the duration
// of each iteration (ms, performance.now()).
// * Timing runs: BENCH_ITERATIONS iterations.
// * Session start (run.py --start; START_INTERVAL is defined): BENCH_WARM
//   iterations, then, if START_INTERVAL > 0, `new Profiler()`, then
//   BENCH_AFTER iterations; also prints the constructor's duration and the
//   time from the constructor call to the trace's first sample (and first
//   sample with a stack).
(async function () {
  "use strict";
  var times = [];
  var check = null;
  function iteration() {
    var start = performance.now();
    var result = BENCH.run();
    times.push(performance.now() - start);
    // Every iteration must compute the same thing (a cheap guard against a
    // workload that silently does nothing).
    if (check === null) {
      check = result;
    } else if (check !== result) {
      throw new Error("iteration " + times.length + " returned " + result + ", expected " + check);
    }
  }
  var starting = typeof START_INTERVAL === "number";
  var first = starting ? BENCH_WARM : BENCH_ITERATIONS;
  for (var i = 0; i < first; i++) {
    iteration();
  }
  var out = { name: BENCH.name };
  if (starting) {
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
  }
  out.check = String(check);
  out.times = times;
  console.log("BENCH_RESULT " + JSON.stringify(out));
})();
