//! The sampler's benchmark (not a pass/fail test). Run with
//! `cargo bench -p jsprof-sampler --bench sampler` (release profile, with the
//! workspace's target directory). Prints, in one run: overhead ratios,
//! achieved intervals, attribution error, session start cost, `stop()` cost
//! and bytes per sample.

#[path = "support/mod.rs"]
mod support;

use std::time::{Duration, Instant};

use jsprof_sampler::{
    AgentSampler, OriginTag, Preparation, ProfilerTrace, Session, SessionOptions,
};
use support::{median, percentile, Js};

/// The workloads (`now()` is defined by `support`).
const WORKLOADS: &str = include_str!("workloads.js");

fn start(agent: &AgentSampler, js: &Js, interval_ms: f64, isolated: bool) -> Session {
    start_with_markers(agent, js, interval_ms, isolated, None)
}

fn start_with_markers(
    agent: &AgentSampler,
    js: &Js,
    interval_ms: f64,
    isolated: bool,
    markers: Option<OriginTag>,
) -> Session {
    Session::start(
        agent,
        SessionOptions {
            sample_interval_ms: interval_ms,
            max_buffer_size: 10_000_000,
            realm_id: js.realm,
            time_origin: Instant::now(),
            cross_origin_isolated: isolated,
            markers,
            on_buffer_full: None,
        },
    )
}

/// Fastest wall time (ms) of `runs` evaluations after two warm-ups (the
/// minimum is the figure least disturbed by other load on a shared machine).
fn time(js: &mut Js, source: &str, runs: usize) -> f64 {
    time_and_switches(js, source, runs).0
}

/// This thread's (voluntary, involuntary) context switches so far.
fn context_switches() -> (u64, u64) {
    let status = std::fs::read_to_string("/proc/thread-self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(0)
    };
    (
        field("voluntary_ctxt_switches:"),
        field("nonvoluntary_ctxt_switches:"),
    )
}

/// [`time`], plus the JS thread's context switches per run (voluntary,
/// involuntary), over the timed runs.
fn time_and_switches(js: &mut Js, source: &str, runs: usize) -> (f64, f64, f64) {
    js.eval(source);
    js.eval(source);
    let mut best = f64::MAX;
    let before = context_switches();
    for _ in 0..runs {
        let t = Instant::now();
        js.eval(source);
        best = best.min(t.elapsed().as_secs_f64() * 1000.0);
    }
    let after = context_switches();
    let per_run = |a: u64, b: u64| (b - a) as f64 / runs as f64;
    (best, per_run(before.0, after.0), per_run(before.1, after.1))
}

fn intervals(trace: &ProfilerTrace) -> (f64, f64, f64) {
    let mut d: Vec<f64> = trace
        .samples
        .windows(2)
        .map(|w| w[1].timestamp - w[0].timestamp)
        .collect();
    let mean = d.iter().sum::<f64>() / d.len().max(1) as f64;
    d.sort_by(|a, b| a.partial_cmp(b).unwrap());
    (mean, percentile(&d, 0.5), percentile(&d, 0.99))
}

/// The deepest frame of sample `s` named one of `names`.
fn deepest_of<'a>(trace: &ProfilerTrace, s: usize, names: &[&'a str]) -> Option<&'a str> {
    let mut id = trace.samples[s].stack_id;
    while let Some(i) = id {
        let stack = &trace.stacks[i as usize];
        let name = trace.frames[stack.frame_id as usize].name.as_str();
        if let Some(n) = names.iter().find(|n| **n == name) {
            return Some(n);
        }
        id = stack.parent_id;
    }
    None
}

fn overheads(js: &mut Js, name: &str, source: &str, runs: usize) {
    // Three rounds; the best time of each state.
    let mut best = [f64::MAX; 5];
    let mut busy_1ms = (0.0, 0.0, 0.0);
    for round in 0..3 {
        let mut t = [0.0; 5];
        t[0] = time(js, source, runs);
        let agent = js.agent(Preparation::Lazy);
        t[1] = time(js, source, runs);
        let mut s = start(&agent, js, 1.0e7, true);
        t[2] = time(js, source, runs);
        s.stop().unwrap();
        let mut s = start(&agent, js, 10.0, true);
        t[3] = time(js, source, runs);
        s.stop().unwrap();
        let mut s = start(&agent, js, 1.0, true);
        let (t4, vol, invol) = time_and_switches(js, source, runs);
        t[4] = t4;
        let trace = s.stop().unwrap();
        busy_1ms = intervals(&trace);
        println!(
            "  {name} round {round} at 1 ms: {:.1} samples per run; JS thread context switches per run: {vol:.1} voluntary, {invol:.1} involuntary",
            trace.samples.len() as f64 / (runs + 2) as f64
        );
        drop(agent);
        println!(
            "  {name} round {round}: none {:.2} | stack {:.2} | instrumented {:.2} | 10 ms {:.2} | 1 ms {:.2} (ms)",
            t[0], t[1], t[2], t[3], t[4]
        );
        for (b, t) in best.iter_mut().zip(t) {
            *b = b.min(t);
        }
    }
    // Sampling over instrumentation from these sequential rounds is
    // dominated by the machine's drift; `sampling_overhead` measures it
    // interleaved.
    println!(
        "{name}: base {:.1} ms | stack installed x{:.3} | instrumentation on x{:.3} | \
         (sequential, noisy: sampling 10 ms x{:.3}, 1 ms x{:.3} over instrumentation)",
        best[0],
        best[1] / best[0],
        best[2] / best[0],
        best[3] / best[2],
        best[4] / best[2],
    );
    println!(
        "  busy 1 ms interval: mean {:.3} p50 {:.3} p99 {:.3} ms",
        busy_1ms.0, busy_1ms.1, busy_1ms.2
    );
}

/// The calling thread's CPU time (ms): excludes the time the thread waits
/// for a core while other processes run, the main noise on a shared
/// machine, but includes the signal handler and the kernel's delivery.
fn thread_cpu_ms() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: valid out-pointer.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 * 1000.0 + ts.tv_nsec as f64 / 1e6
}

/// Sampling's cost over the instrumentation alone, interleaved so that
/// drift in the machine's load hits every state alike: a session that never
/// samples keeps the instrumentation on (no JIT discard between runs); each
/// run is timed with no other session, a 10 ms one, or a 1 ms one, in
/// rotating order, `n` runs per state. Ratios of minima and of medians, of
/// wall time and of the JS thread's CPU time. A 100 µs session (ten times
/// the samples of 1 ms) measures the cost of one sample well above the
/// noise; ten times less of it is what 1 ms costs if the cost per sample
/// does not depend on the rate.
fn sampling_overhead(js: &mut Js, name: &str, source: &str, n: usize) {
    let agent = js.agent(Preparation::Lazy);
    let mut keep = start(&agent, js, 1.0e7, true);
    for _ in 0..3 {
        js.eval(source);
    }
    let before = agent.stats();
    let mut wall: [Vec<f64>; 4] = Default::default();
    let mut cpu: [Vec<f64>; 4] = Default::default();
    let mut samples = [0usize; 4];
    for i in 0..n {
        for k in 0..4 {
            let state = (i + k) % 4;
            let mut session = match state {
                0 => None,
                1 => Some(start(&agent, js, 10.0, true)),
                2 => Some(start(&agent, js, 1.0, true)),
                _ => Some(start(&agent, js, 0.1, true)),
            };
            let t = Instant::now();
            let c = thread_cpu_ms();
            js.eval(source);
            cpu[state].push(thread_cpu_ms() - c);
            wall[state].push(t.elapsed().as_secs_f64() * 1000.0);
            if let Some(s) = session.as_mut() {
                samples[state] += s.stop().unwrap().samples.len();
            }
        }
    }
    keep.stop().unwrap();
    let after = agent.stats();
    drop(agent);
    let min = |v: &Vec<f64>| v.iter().cloned().fold(f64::MAX, f64::min);
    let med = |v: &Vec<f64>| median(v.clone());
    let ratios = |t: &[Vec<f64>; 4], k: usize| (min(&t[k]) / min(&t[0]), med(&t[k]) / med(&t[0]));
    println!(
        "{name} interleaved ({n} runs each; instrumented: wall min {:.2} median {:.2} ms, CPU min {:.2} median {:.2} ms):",
        min(&wall[0]),
        med(&wall[0]),
        min(&cpu[0]),
        med(&cpu[0]),
    );
    for (k, label) in [(1, "10 ms"), (2, "1 ms"), (3, "100 us")] {
        let (wmin, wmed) = ratios(&wall, k);
        let (cmin, cmed) = ratios(&cpu, k);
        println!(
            "  sampling {label} over instrumentation: wall x{wmin:.3} (min) x{wmed:.3} (median) | JS thread CPU x{cmin:.3} (min) x{cmed:.3} (median)"
        );
    }
    // The cost of one sample, from the 100 µs runs (medians and minima).
    let per_sample = |t: &[Vec<f64>; 4], f: &dyn Fn(&Vec<f64>) -> f64| {
        (f(&t[3]) - f(&t[0])) * 1000.0 / (samples[3] as f64 / n as f64)
    };
    println!(
        "  one sample costs (100 us runs): wall {:.1} us (medians) {:.1} us (minima), JS thread CPU {:.1} us (medians) {:.1} us (minima); \
         at 1 ms that is +{:.2} % of wall time, +{:.2} % of CPU (medians)",
        per_sample(&wall, &med),
        per_sample(&wall, &min),
        per_sample(&cpu, &med),
        per_sample(&cpu, &min),
        per_sample(&wall, &med) / 1000.0 * 100.0,
        per_sample(&cpu, &med) / 1000.0 * 100.0,
    );
    let captures = (after.handler_captures - before.handler_captures).max(1) as f64;
    let ticks = (after.ticks - before.ticks).max(1) as f64;
    println!(
        "  per 1 ms run: {:.1} samples | per capture: JS thread in the handler {:.2} us | \
         sampling thread CPU per tick {:.2} us ({} ticks)",
        samples[2] as f64 / n as f64,
        (after.handler_ns - before.handler_ns) as f64 / captures / 1000.0,
        (after.sampler_cpu_ns - before.sampler_cpu_ns) as f64 / ticks / 1000.0,
        ticks
    );
}

/// Markers: sessions with and without marker tracking (the handler's marker
/// reads and the per-sample same-origin check), interleaved in rotating
/// order at 1 ms and 100 µs, `n` runs per state. Ratios of minima and
/// medians of wall time, markers on over off.
fn marker_overhead(js: &mut Js, name: &str, source: &str, n: usize) {
    let agent = js.agent(Preparation::Lazy);
    let origin = OriginTag::of("https://bench.test");
    jsprof_sampler::set_realm_origin(js.realm, origin);
    let mut keep = start(&agent, js, 1.0e7, true);
    for _ in 0..3 {
        js.eval(source);
    }
    let mut wall: [Vec<f64>; 4] = Default::default();
    let mut marked = [0usize; 4];
    for i in 0..n {
        for k in 0..4 {
            let state = (i + k) % 4;
            let interval = if state < 2 { 1.0 } else { 0.1 };
            let markers = (state % 2 == 1).then_some(origin);
            let mut session = start_with_markers(&agent, js, interval, true, markers);
            let t = Instant::now();
            js.eval(source);
            wall[state].push(t.elapsed().as_secs_f64() * 1000.0);
            let trace = session.stop().unwrap();
            marked[state] += trace.samples.iter().filter(|s| s.marker.is_some()).count();
        }
    }
    keep.stop().unwrap();
    drop(agent);
    let min = |v: &Vec<f64>| v.iter().cloned().fold(f64::MAX, f64::min);
    let med = |v: &Vec<f64>| median(v.clone());
    println!("{name} markers on vs off ({n} runs each, interleaved):");
    for (off, on, label) in [(0, 1, "1 ms"), (2, 3, "100 us")] {
        println!(
            "  {label}: off min {:.2} median {:.2} ms | on min {:.2} median {:.2} ms | on/off x{:.4} (min) x{:.4} (median) | marked samples per run {:.1} (off: {})",
            min(&wall[off]),
            med(&wall[off]),
            min(&wall[on]),
            med(&wall[on]),
            min(&wall[on]) / min(&wall[off]),
            med(&wall[on]) / med(&wall[off]),
            marked[on] as f64 / n as f64,
            marked[off],
        );
    }
}

fn main() {
    let mut js = Js::init();
    js.eval(WORKLOADS);
    println!("== jsprof-sampler benchmark ==");

    // `JSPROF_BENCH_ONLY=stop` runs only the last part.
    let only = std::env::var("JSPROF_BENCH_ONLY").unwrap_or_default();
    if only == "install" {
        // Interleaved: no sampler vs an installed (disabled) stack.
        for round in 0..6 {
            let none = time(&mut js, "fib(30)", 15);
            let agent = js.agent(Preparation::Lazy);
            let stack = time(&mut js, "fib(30)", 15);
            drop(agent);
            println!("fib(30) round {round}: none {none:.2} ms | stack installed {stack:.2} ms");
        }
        return;
    }
    if only == "overhead" {
        let n = std::env::var("JSPROF_BENCH_RUNS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(30);
        sampling_overhead(&mut js, "realistic", "realistic(600)", n);
        sampling_overhead(&mut js, "call-dense fib(30)", "fib(30)", n);
        return;
    }
    if only == "markers" {
        let n = std::env::var("JSPROF_BENCH_RUNS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(30);
        marker_overhead(&mut js, "realistic", "realistic(600)", n);
        marker_overhead(&mut js, "call-dense fib(30)", "fib(30)", n);
        return;
    }
    let only_stop = only == "stop";
    if !only_stop {
        first_parts(&mut js);
    }
    let agent = js.agent(Preparation::Lazy);
    last_part(&mut js, agent);
}

fn first_parts(js: &mut Js) {
    // Overheads.
    overheads(js, "realistic", "realistic(600)", 7);
    overheads(js, "call-dense fib(30)", "fib(30)", 7);
    sampling_overhead(js, "realistic", "realistic(600)", 30);
    sampling_overhead(js, "call-dense fib(30)", "fib(30)", 30);
    marker_overhead(js, "realistic", "realistic(600)", 30);
    marker_overhead(js, "call-dense fib(30)", "fib(30)", 30);

    // Idle intervals.
    let agent = js.agent(Preparation::Lazy);
    for (interval, secs) in [(1.0, 2.0), (10.0, 3.0)] {
        let mut s = start(&agent, js, interval, true);
        std::thread::sleep(Duration::from_secs_f64(secs));
        let (mean, p50, p99) = intervals(&s.stop().unwrap());
        println!("idle {interval} ms interval: mean {mean:.3} p50 {p50:.3} p99 {p99:.3} ms");
    }

    // Attribution: JSON.parse (native) vs a JS loop, known split.
    js.eval("split(3, 500000)");
    let mut s = start(&agent, js, 1.0, true);
    let truth = js.eval("tParse = 0; tJs = 0; split(60, 500000)");
    let trace = s.stop().unwrap();
    let (mut parse, mut jsl) = (0usize, 0usize);
    for i in 0..trace.samples.len() {
        match deepest_of(&trace, i, &["parsePart", "jsPart"]) {
            Some("parsePart") => parse += 1,
            Some("jsPart") => jsl += 1,
            _ => {}
        }
    }
    let measured = parse as f64 / (parse + jsl).max(1) as f64;
    println!(
        "attribution: JSON.parse share truth {:.1} %, sampled {:.1} % ({} samples), error {:.1} points",
        truth * 100.0,
        measured * 100.0,
        parse + jsl,
        (measured - truth).abs() * 100.0
    );

    // Session start cost, lazy vs eager, with warm JIT code.
    for prep in [Preparation::Lazy, Preparation::Eager] {
        let agent = js.agent(prep);
        let mut costs = Vec::new();
        for _ in 0..7 {
            js.eval("realistic(20)");
            let t = Instant::now();
            let mut s = start(&agent, js, 10.0, true);
            costs.push(t.elapsed().as_secs_f64() * 1000.0);
            s.stop().unwrap();
        }
        costs.sort_by(|a, b| a.partial_cmp(b).unwrap());
        println!(
            "session start cost ({prep:?}, warm JIT code): min {:.3} median {:.3} ms",
            costs[0],
            median(costs.clone())
        );
    }
}

/// `stop()` of 100,000 samples of a 30-frame-deep workload; bytes per sample.
fn last_part(js: &mut Js, agent: AgentSampler) {
    let mut s = start(&agent, js, 0.1, true);
    let t = Instant::now();
    while s.sample_count() < 100_000 && t.elapsed() < Duration::from_secs(120) {
        js.eval("deep(28, 200000)");
    }
    let samples = s.sample_count();
    let bytes = s.heap_bytes();
    let t = Instant::now();
    let trace = s.stop().unwrap();
    let stop_ms = t.elapsed().as_secs_f64() * 1000.0;
    let depth = trace
        .samples
        .iter()
        .filter_map(|x| x.stack_id)
        .map(|mut id| {
            let mut n = 1;
            while let Some(p) = trace.stacks[id as usize].parent_id {
                id = p;
                n += 1;
            }
            n
        })
        .max()
        .unwrap_or(0);
    println!(
        "stop(): {stop_ms:.2} ms for {samples} samples (max depth {depth}); session memory {bytes} bytes = {:.1} bytes/sample; \
         1,000,000 samples ~ {:.1} MB",
        bytes as f64 / samples.max(1) as f64,
        bytes as f64 / samples.max(1) as f64 * 1e6 / 1048576.0
    );
    let stats = agent.stats();
    println!(
        "sampler stats: handler captures {}, truncated samples {}, JIT addresses resolved {}, unresolved {}",
        stats.handler_captures, stats.truncated_samples, stats.resolved_addresses, stats.unresolved_addresses
    );
    println!(
        "per sample (31-frame stacks): JS thread stopped {:.2} us, resolution on the JS thread {:.2} us",
        stats.handler_ns as f64 / stats.handler_captures.max(1) as f64 / 1000.0,
        stats.resolve_ns as f64 / samples.max(1) as f64 / 1000.0
    );
    // The register-started walk (SpiderMonkey patch 0003): how the walks of
    // the whole run started; the `lost-*` ones walked no frame of the
    // innermost JIT activation.
    match jsprof_sampler::jit_walk_counts() {
        Some(counts) => {
            let walked: u64 = counts[1..].iter().sum();
            let lost: u64 = counts[8..].iter().sum();
            let parts: Vec<String> = jsprof_sampler::JIT_WALK_STARTS
                .iter()
                .zip(counts.iter())
                .skip(1)
                .map(|(n, c)| format!("{n} {c}"))
                .collect();
            println!(
                "register-started walk: {walked} walks, {lost} lost ({:.2} %): {}",
                lost as f64 * 100.0 / walked.max(1) as f64,
                parts.join(", ")
            );
        }
        None => println!("register-started walk: not in this SpiderMonkey (JIT frame bookkeeping)"),
    }
    drop(agent);
}
