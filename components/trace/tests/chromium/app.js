// A small workload profiled by Chromium's JS Self-Profiling API; the trace
// is posted back to record.py, which saves it as a fixture.
function fib(n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}
function sortNumbers(count) {
  const values = [];
  for (let i = 0; i < count; i++) values.push((i * 7919) % 10007);
  return values.sort((a, b) => a - b).length;
}
const buildStrings = (count) => {
  let out = "";
  for (let i = 0; i < count; i++) out += String.fromCharCode(97 + (i % 26));
  return out.length;
};
function work(deadline) {
  let total = 0;
  while (performance.now() < deadline) {
    total += fib(18) + sortNumbers(2000) + buildStrings(5000);
  }
  return total;
}
async function main() {
  const profiler = new Profiler({ sampleInterval: 1, maxBufferSize: 10000 });
  work(performance.now() + 300);
  await new Promise((resolve) => setTimeout(resolve, 30));
  work(performance.now() + 200);
  const trace = await profiler.stop();
  await fetch("/trace", { method: "POST", body: JSON.stringify(trace) });
  document.title = "posted";
}
main().catch((e) => fetch("/trace", { method: "POST", body: "ERROR " + e }));
