// Runs BENCH.run() BENCH_ITERATIONS times and prints one line with the
// duration of each iteration (ms, performance.now()). The runner (run.py)
// reads that line; everything else the page prints is ignored.
(function () {
  "use strict";
  var times = [];
  var check = null;
  for (var i = 0; i < BENCH_ITERATIONS; i++) {
    var start = performance.now();
    var result = BENCH.run();
    times.push(performance.now() - start);
    // Every iteration must compute the same thing (a cheap guard against a
    // workload that silently does nothing).
    if (check === null) {
      check = result;
    } else if (check !== result) {
      throw new Error("iteration " + i + " returned " + result + ", expected " + check);
    }
  }
  console.log("BENCH_RESULT " + JSON.stringify({ name: BENCH.name, check: String(check), times: times }));
})();
