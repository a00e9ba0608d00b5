//! The start-rule fuzzer's run (the sampler's README, "Fuzzing the start
//! rules"; the fuzzer is this crate's `src/walk_fuzz.cpp`): a JS
//! workload that goes through every tier and most kinds of JIT code (Ion,
//! Baseline, the baseline interpreter, inlined calls, IC stubs for getters,
//! setters and proxies, natives calling back into JS, irregexp code,
//! exceptions thrown through JIT frames, bailouts, OSR, generators (not
//! async functions: `await` needs a job queue, which this bare runtime
//! lacks), `apply`/`call`/`bind` and the arguments rectifier, deep
//! recursion, wasm calling JS) is sampled by signal (1 ms) with the fuzzer
//! of the register-started walk on: every sample is walked again from many
//! mutated register states inside the signal handler, and each fuzzed walk
//! is checked (bounded, on the stack, in order, only real frames, its JIT
//! return addresses resolvable). Fails on any violation; a crash kills the
//! run. Only a SpiderMonkey with patch 0003 on x86-64 has the walk: other
//! builds print that the run is skipped.
//!
//! Budget: `JSPROF_WALK_FUZZ_SECONDS` (default 40), walks per sample
//! `JSPROF_WALK_FUZZ` (default 24), seed `JSPROF_WALK_FUZZ_SEED` (default:
//! from the clock, printed), sampling interval `JSPROF_WALK_FUZZ_INTERVAL_MS`
//! (default 1), `JSPROF_WALK_FUZZ_UNGUARDED=1` to let fuzzed walks go on past
//! a false frame, `JSPROF_WALK_FUZZ_SKIP=exceptions,...` to leave workload
//! pieces out (by function name).

use std::ffi::CString;
use std::ptr;
use std::time::{Duration, Instant};

use jsprof_sampler::{
    allocate_profiler_realm_id, jit_register_walk_available, jit_register_walk_selected,
    set_profiler_realm_id, AgentSampler, Preparation, ScriptInfo, ScriptRegistry, Session,
    SessionOptions, JIT_WALK_STARTS,
};
use jsprof_walk_fuzz::{WalkFuzzStats, KIND_NAMES, WALK_FUZZ_CLASSES};
use mozjs::jsapi::OnNewGlobalHookOption;
use mozjs::jsval::UndefinedValue;
use mozjs::rooted;
use mozjs::rust::wrappers2::JS_NewGlobalObject;
use mozjs::rust::{
    evaluate_script, CompileOptionsWrapper, JSEngine, RealmOptions, Runtime, SIMPLE_GLOBAL_CLASS,
};

const APP: &str = "https://example.com/walk-fuzz.js";

/// The workload: `round(ms)` runs every piece in turn until `ms` have
/// passed. Each piece is small enough to be called thousands of times in a
/// round, so it warms up through the baseline interpreter, Baseline and Ion
/// (and bails out, and is recompiled after each session's discard).
const WORKLOAD: &str = r#"
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
class Shape { constructor(k) { this.k = k; this._v = 0; }
  get v() { return this._v; } set v(x) { this._v = x | 0; } area() { return this.k; } }
class Square extends Shape { area() { return this.k * this.k; } }
class Circle extends Shape { area() { return 3.14 * this.k * this.k; } }
function shapes(n) { const a = []; for (let i = 0; i < n; i++) { const s = i % 3 ? new Square(i) : new Circle(i); s.v = i; a.push(s); }
  let t = 0; for (const s of a) t += s.area() + s.v; return t; }
const trap = { get(t, k, r) { return k === 'x' ? t.x * 2 : Reflect.get(t, k, r); }, set(t, k, v) { t[k] = v + 1; return true; } };
function proxies(n) { const p = new Proxy({ x: 1, y: 2 }, trap); let t = 0; for (let i = 0; i < n; i++) { p.y = i; t += p.x + p.y; } return t; }
function natives(n) { const a = []; for (let i = 0; i < n; i++) a.push((i * 7919) % 1000);
  a.sort((x, y) => x - y); const m = a.map(x => x * 2).filter(x => x % 3).reduce((s, x) => s + x, 0);
  return m + a.findIndex(x => x > 500) + [...a.slice(0, 10)].length + Math.max(...a.slice(0, 50)); }
function json(n) { const o = { a: [], b: { c: 'x' } }; for (let i = 0; i < n; i++) o.a.push({ i, s: 'v' + i });
  const t = JSON.stringify(o, (k, v) => (k === 's' ? v + '!' : v));
  return JSON.parse(t, (k, v) => (typeof v === 'number' ? v + 1 : v)).a.length; }
function regexps(n) { let s = ''; for (let i = 0; i < n; i++) s += 'ab' + i + ' cd' + (i * 3) + ' ';
  const r = s.replace(/(\w)(\d+)/g, (m, a, d) => a + d.length); const m = s.match(/c(d)(\d+)/g);
  let k = 0; const re = /([a-z]+)(\d*)/g; while (re.exec(s) && k < 500) k++;
  return r.length + (m ? m.length : 0) + k + /^(a|b)*?c$/.test('ab'.repeat(40) + 'c') + s.split(/\s+/).length; }
function thrower(d) { if (d === 0) throw new RangeError('bottom'); return thrower(d - 1) + 1; }
function exceptions(n) { let t = 0; for (let i = 0; i < n; i++) { try { t += thrower(5 + (i % 30)); }
  catch (e) { t += e.message.length; } finally { t++; } } return t; }
function poly(x) { return x + x; }
function bailouts(n) { let t = 0; for (let i = 0; i < n; i++) t = poly(i) + 0; t += poly(0.5); t += poly('s').length;
  const o = { a: 1 }; for (let i = 0; i < n; i++) { if (i === n >> 1) { o.b = 2; delete o.a; } t += (o.a | 0) + (o.b | 0); }
  return t; }
function osr(n) { let t = 0; for (let i = 0; i < n * 100; i++) t = (t + i * i) % 1000003; return t; }
function* gen(n) { for (let i = 0; i < n; i++) yield i; }
function generators(n) { let t = 0; for (const v of gen(n)) t += v; const g = gen(n); let r;
  while (!(r = g.next()).done) t += r.value; return t; }
function sum3(a, b, c) { return (a | 0) + (b | 0) + (c | 0); }
function calls(n) { let t = 0; const bound = sum3.bind(null, 1); const args = [1, 2, 3];
  for (let i = 0; i < n; i++) t += sum3.apply(null, args) + sum3.call(null, i, i) + bound(i) + sum3(i)
    + sum3(i, i, i, i) + Reflect.apply(sum3, null, args) + sum3(...args);
  return t; }
function deep(d) { return d === 0 ? osr(1) : deep(d - 1) + 1; }
function collections(n) { const m = new Map(); const s = new Set();
  for (let i = 0; i < n; i++) { m.set('k' + (i % 50), i); s.add(i % 70); }
  let t = 0; for (const [k, v] of m) t += v + k.length; return t + s.size; }
function typed(n) { const f = new Float64Array(n); for (let i = 0; i < n; i++) f[i] = Math.sqrt(i) * Math.sin(i);
  return f.reduce((a, b) => a + b, 0); }
function interpreted(n) { let t = 0; for (let i = 0; i < n; i++) t += eval('i + 1'); return t; }
let wasmRun = null;
try {
  const inst = new WebAssembly.Instance(new WebAssembly.Module(wasmModule('leaf', 'middle', 'run')),
    { env: { hook(i) { return fib(6); } } });
  wasmRun = inst.exports.run;
} catch (e) { wasmRun = null; }
function wasmWork(n) { return wasmRun ? wasmRun(n) : 0; }
const work = [[fib, 18], [shapes, 300], [proxies, 300], [natives, 300], [json, 100], [regexps, 60],
  [exceptions, 40], [bailouts, 500], [osr, 100], [generators, 300], [calls, 300], [deep, 200],
  [collections, 300], [typed, 300], [interpreted, 20], [wasmWork, 5000], [deep, 1500]];
function round(ms, skip) { const end = Date.now() + ms; let t = 0, k = 0;
  const pieces = work.filter(([f]) => !skip.includes(f.name));
  while (Date.now() < end && pieces.length) { const [f, n] = pieces[k++ % pieces.length]; t += Number(f(n)) || 0; }
  return t; }
"#;

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Runs `source` as `APP` in `global`.
fn run(rt: &mut Runtime, global: *mut mozjs::jsapi::JSObject, line: u32, source: &str) {
    let cx = rt.cx();
    rooted!(&in(cx) let global = global);
    rooted!(&in(cx) let mut rval = UndefinedValue());
    let options = CompileOptionsWrapper::new(cx, CString::new(APP).unwrap(), line);
    let result = evaluate_script(cx, global.handle(), source, rval.handle_mut(), options);
    assert!(result.is_ok(), "the workload threw");
}

/// The per-start and per-class counters, as `name count/false/unverified`.
fn report(stats: &WalkFuzzStats) {
    let starts: Vec<String> = JIT_WALK_STARTS
        .iter()
        .chain(std::iter::once(&"not-started"))
        .enumerate()
        .filter(|(i, _)| stats.walks_by_start[*i] + stats.reference_by_start[*i] > 0)
        .map(|(i, n)| {
            format!(
                "{n} {}/{}/{}/{}",
                stats.reference_by_start[i],
                stats.walks_by_start[i],
                stats.false_by_start[i],
                stats.unverified_by_start[i]
            )
        })
        .collect();
    println!(
        "  by start (reference/fuzzed/false/unverified): {}",
        starts.join(", ")
    );
    let classes = |walks: &[u64], bad: &[u64]| -> String {
        (0..WALK_FUZZ_CLASSES as usize)
            .map(|c| format!("{c}:{}/{}", walks[c], bad[c]))
            .collect::<Vec<_>>()
            .join(" ")
    };
    println!(
        "  by pc class (walks/violations): {}",
        classes(&stats.walks_by_pc, &stats.violations_by_pc)
    );
    println!(
        "  by fp class (walks/violations): {}",
        classes(&stats.walks_by_fp, &stats.violations_by_fp)
    );
    let kinds: Vec<String> = KIND_NAMES
        .iter()
        .zip(stats.violations.iter())
        .map(|(n, c)| format!("{n} {c}"))
        .collect();
    println!(
        "  samples {}, walks {} (skipped {}), frames {}, unverified {}, return addresses queued {} resolved {} dropped {}; violations: {} (false frames from reachable states {})",
        stats.samples,
        stats.walks,
        stats.skipped,
        stats.frames,
        stats.unverified,
        stats.queued,
        stats.resolved,
        stats.dropped,
        kinds.join(", "),
        stats.false_reachable
    );
    for v in jsprof_walk_fuzz::violations() {
        let start = jsprof_walk_fuzz::start_name;
        println!(
            "  violation {}: pc {:#x} sp {:#x} fp {:#x} (real pc {:#x} sp {:#x} fp {:#x}, base {:#x}) frame {:#x} #{} start {} reference {} mutation pc {} fp {} sp {}; minimal {}, on the fp chain {}, header {:#x?}",
            KIND_NAMES.get(v.kind as usize).unwrap_or(&"?"),
            v.pc,
            v.sp,
            v.fp,
            v.real_pc,
            v.real_sp,
            v.real_fp,
            v.base,
            v.frame,
            v.index,
            start(v.start),
            start(v.reference_start),
            v.mutation & 15,
            (v.mutation >> 4) & 15,
            (v.mutation >> 8) & 15,
            ["?", "pc", "fp", "pc+fp", "sp", "pc+sp", "fp+sp", "all"][v.minimal as usize & 7],
            v.in_chain != 0,
            v.words
        );
    }
}

fn main() {
    // Everything of the engine is dropped before the process exits (its
    // static destructors assert that no runtime is left).
    if !fuzz() {
        std::process::exit(1);
    }
}

/// The run; false when it failed (true when it passed or was skipped).
fn fuzz() -> bool {
    let walks: u32 = env_or("JSPROF_WALK_FUZZ", 24);
    let seconds: u64 = env_or("JSPROF_WALK_FUZZ_SECONDS", 40);
    let interval_ms: f64 = env_or("JSPROF_WALK_FUZZ_INTERVAL_MS", 1.0);
    let unguarded = std::env::var("JSPROF_WALK_FUZZ_UNGUARDED").is_ok_and(|v| v == "1");
    // Workload pieces to leave out, by function name (comma-separated), to
    // fuzz the rest past a known crash: none by default (patches 0005 and
    // 0006 fixed what the fuzzer found, README, "Fuzzing the start rules").
    // Fuzzed fp and sp stay where a thread's can be by default
    // (JSPROF_WALK_FUZZ_MODEL=frames, read by the fuzzer when it is
    // configured; "all" for garbage too).
    if std::env::var_os("JSPROF_WALK_FUZZ_MODEL").is_none() {
        std::env::set_var("JSPROF_WALK_FUZZ_MODEL", "frames");
    }
    let skip: Vec<String> = std::env::var("JSPROF_WALK_FUZZ_SKIP")
        .unwrap_or_default()
        .split(',')
        .filter(|p| !p.is_empty())
        .map(str::to_owned)
        .collect();
    let clock = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64);
    let seed: u64 = env_or("JSPROF_WALK_FUZZ_SEED", clock);
    let engine = JSEngine::init().unwrap();
    let mut rt = Runtime::new(engine.handle());
    // The walk is what sessions use by default (the sampler's
    // glue_engine.cpp, kRegisterWalkByDefault); chosen here explicitly
    // unless JSPROF_BENCH_JIT says otherwise. Without patch 0003 the option
    // is refused, and the run is skipped below.
    let spec = std::env::var("JSPROF_BENCH_JIT")
        .unwrap_or_else(|_| "profiler.jit-frame-bookkeeping=0".to_owned());
    if jsprof_sampler::set_jit_options(rt.cx(), &spec).is_err() && jit_register_walk_available() {
        println!("test walk_fuzz ... FAILED: JIT options `{spec}` refused");
        return false;
    }
    if !jit_register_walk_available() {
        println!("test walk_fuzz ... skipped: SpiderMonkey without patch 0003 (no register-started walk to fuzz)");
        return true;
    }
    if !jit_register_walk_selected() {
        println!("test walk_fuzz ... skipped: profiler.jit-frame-bookkeeping=1 (SpiderMonkey's bookkeeping, not the walk)");
        return true;
    }
    if !jsprof_walk_fuzz::configure(walks, seed, unguarded) {
        println!("test walk_fuzz ... skipped: no start-rule fuzzer in this build (x86-64 only)");
        return true;
    }
    println!(
        "walk_fuzz: {walks} fuzzed walks per sample, seed {seed:#x}, {seconds} s, interval {interval_ms} ms{}, pieces left out {skip:?}",
        if unguarded { ", unguarded" } else { "" }
    );
    let registry = ScriptRegistry::new();
    registry.register(
        APP,
        ScriptInfo {
            url: APP.to_owned(),
            muted_errors: false,
        },
    );
    let realm = allocate_profiler_realm_id();
    let mut options = RealmOptions::default();
    set_profiler_realm_id(&mut options, realm);
    let cx = rt.cx();
    // SAFETY: `options` outlives the call; the global is rooted at once and
    // for the whole run.
    rooted!(&in(cx) let global = unsafe {
        JS_NewGlobalObject(
            cx,
            &SIMPLE_GLOBAL_CLASS,
            ptr::null_mut(),
            OnNewGlobalHookOption::FireOnNewGlobalHook,
            &*options,
        )
    });
    assert!(!global.get().is_null());
    let agent = AgentSampler::new(rt.cx(), registry, Preparation::Lazy);
    let wasm = include_str!("../../tests/wasm/module.js");
    run(&mut rt, global.get(), 1, &format!("{wasm}{WORKLOAD}"));
    let end = Instant::now() + Duration::from_secs(seconds);
    let mut rounds = 0u32;
    let mut samples = 0usize;
    while Instant::now() < end {
        // A session per round: each stop discards the JIT code, so every
        // round warms up through the tiers again.
        let mut session = Session::start(
            &agent,
            SessionOptions {
                sample_interval_ms: interval_ms,
                max_buffer_size: 1_000_000,
                realm_id: realm,
                time_origin: Instant::now(),
                cross_origin_isolated: false,
                markers: None,
                on_buffer_full: None,
            },
        );
        let left = end.saturating_duration_since(Instant::now()).as_millis();
        run(
            &mut rt,
            global.get(),
            1000,
            &format!("round({}, {skip:?});", left.clamp(200, 5000)),
        );
        let trace = session.stop().expect("the session stops");
        samples += trace.samples.len();
        rounds += 1;
    }
    let stats = jsprof_walk_fuzz::stats().unwrap();
    println!(
        "walk_fuzz: {rounds} rounds, {samples} samples in the traces, {} signal captures",
        agent.stats().handler_captures
    );
    report(&stats);
    drop(agent);
    // Fails on every violation but the false frames of states no thread
    // can be in (function code with fp not its frame: counted and printed
    // above, see `WalkFuzzStats::false_reachable`).
    let v = &stats.violations;
    let failing = v[jsprof_walk_fuzz::FUZZ_BOUND as usize]
        + v[jsprof_walk_fuzz::FUZZ_RANGE as usize]
        + v[jsprof_walk_fuzz::FUZZ_ORDER as usize]
        + v[jsprof_walk_fuzz::FUZZ_UNRESOLVED as usize]
        + stats.false_reachable;
    // The run tested something: samples were fuzzed, walks started through
    // the rules, return addresses resolved.
    let coverage = stats.samples >= 100 && stats.walks >= 1000 && stats.resolved > 0;
    if failing > 0 || !coverage {
        println!("test walk_fuzz ... FAILED (violations {failing}, coverage {coverage})");
        return false;
    }
    println!("test walk_fuzz ... ok");
    true
}
