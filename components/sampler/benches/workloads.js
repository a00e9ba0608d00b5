// The sampler benchmark's workloads (also run by the shell's marker cost
// measurement, components/script/tests/profiler_markers.rs). `now()` is the
// benchmark's clock.
function realistic(iter) {
  let acc = 0;
  for (let k = 0; k < iter; k++) {
    const items = [];
    for (let i = 0; i < 200; i++) items.push({ id: i, name: 'item' + i, score: (i * 7919) % 101 });
    items.sort((a, b) => a.score - b.score || a.id - b.id);
    const s = JSON.stringify(items.slice(0, 50));
    acc += JSON.parse(s).length;
    acc += items.filter(x => x.score > 50).map(x => x.name.length).reduce((a, b) => a + b, 0);
    const m = new Map();
    for (const it of items) m.set(it.name, it.score);
    acc += m.size + s.replace(/item/g, 'x').length;
    class Point { constructor(x, y) { this.x = x; this.y = y; } get norm() { return Math.hypot(this.x, this.y); } }
    for (let i = 0; i < 100; i++) acc += new Point(i, k).norm | 0;
  }
  return acc;
}
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
var bigJson = JSON.stringify(Array.from({ length: 60000 }, (_, i) => ({ i, s: 'v' + i, a: [i, i + 1] })));
function parsePart() { return JSON.parse(bigJson).length; }
function jsPart(n) { let x = 0; for (let i = 0; i < n; i++) x = (x + i * i) % 1000003; return x; }
var tParse = 0, tJs = 0;
function split(rounds, n) {
  for (let r = 0; r < rounds; r++) {
    const t0 = now(); parsePart(); const t1 = now(); jsPart(n); const t2 = now();
    tParse += t1 - t0; tJs += t2 - t1;
  }
  return tParse / (tParse + tJs);
}
function deep(n, work) { if (n === 0) { return jsPart(work); } return deep(n - 1, work) + 1; }
