import { computePrimes } from "./math.js";

// Bundled and minified by esbuild in tests/it/trace_tools.rs; profiled with
// `jsprof profile --sourcemaps`, the trace must name these functions.

function renderReport(primes) {
  let text = "";
  for (const prime of primes) text += prime.toString(16) + ",";
  return text.length;
}

function runApplication() {
  const start = Date.now();
  let total = 0;
  while (Date.now() - start < 300) {
    total += renderReport(computePrimes(3000));
  }
  return total;
}

runApplication();
