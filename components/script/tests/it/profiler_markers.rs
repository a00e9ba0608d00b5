//! Markers (the spec repository's markers extension,
//! <https://github.com/WICG/js-self-profiling/blob/main/markers.md>): each
//! sample of a cross-origin isolated profiler says what the agent was
//! doing (`script`, `gc`, `other`, none when idle), only for work whose
//! responsible document is same-origin with the profiler's; a profiler in
//! a realm that is not cross-origin isolated never sees a `marker` member.
//!
//! These tests sample for real (1 ms interval) and assert what each sample
//! of a time window may carry, with a control in every test that the
//! window is populated and that markers do show up where they should. The
//! only tolerance is the issue's: the `gc` share of samples against the
//! share of wall time the GC callbacks measured (a statistical agreement,
//! not a timing bound).

use std::time::Instant;

use crate::common::{html, js, load, CROSS, SAME};
use jsprof_script::JsRuntime;
use jsprof_test_server::{TestResponse, TestServer};
use serde_json::Value;

/// Helpers every page gets: `spin(ms)` busy-loops, `churn(ms)` allocates
/// (young and old garbage: minor and major GCs) for `ms` milliseconds,
/// `window.result`.
const HELPERS: &str = r#"<script>
window.result = "pending";
function spin(ms) { const end = performance.now() + ms; let x = 0; while (performance.now() < end) x++; return x; }
function churn(ms) {
  const end = performance.now() + ms;
  let keep = [];
  let n = 0;
  while (performance.now() < end) {
    for (let i = 0; i < 2000; i++) keep.push({ i, s: "x" + i, a: [i, i + 1] });
    if (keep.length > 200000) keep = [];
    n++;
  }
  return n;
}
</script>"#;

fn isolated(response: TestResponse) -> TestResponse {
    response
        .with_header("Document-Policy", "js-profiling")
        .with_header("Cross-Origin-Opener-Policy", "same-origin")
        .with_header("Cross-Origin-Embedder-Policy", "require-corp")
}

/// Loads `body` (after the helpers) as an isolated HTTPS page, or a plain
/// HTTP one with the policy only.
fn page(server: &TestServer, body: &str, cross_origin_isolated: bool) -> JsRuntime {
    let body = format!("<!DOCTYPE html>{HELPERS}{body}");
    if cross_origin_isolated {
        server.route("/index.html", move |_| isolated(html(&body)));
        load(server, &server.https_url(SAME, "/index.html"))
    } else {
        server.route("/index.html", move |_| {
            html(&body).with_header("Document-Policy", "js-profiling")
        });
        load(server, &server.http_url(SAME, "/index.html"))
    }
}

/// Runs the page to idle and parses `window.result` (JSON).
fn result(rt: &mut JsRuntime) -> Value {
    assert!(rt.run_until_idle(None));
    let errors = rt.reported_errors();
    assert!(errors.is_empty(), "page errors: {errors:?}");
    let out = rt.evaluate("String(window.result)", "check.js", 1).unwrap();
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"))
}

/// The samples of `trace` with timestamps in `[from, to]` (ms).
fn window(trace: &Value, from: f64, to: f64) -> Vec<&Value> {
    trace["samples"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| {
            let t = s["timestamp"].as_f64().unwrap();
            t >= from && t <= to
        })
        .collect()
}

fn marker(sample: &Value) -> Option<&str> {
    sample.get("marker").map(|m| m.as_str().expect("a string"))
}

fn count(samples: &[&Value], m: &str) -> usize {
    samples.iter().filter(|s| marker(s) == Some(m)).count()
}

/// One run of the GC-heavy page under a 1 ms session: the trace and
/// interval (`c0`, `c1`) and the GC and wall time measured around it.
struct GcRun {
    r: Value,
    gc: f64,
    wall: f64,
}

fn gc_heavy_run() -> GcRun {
    let server = TestServer::start().unwrap();
    let mut rt = page(&server, "", true);
    rt.evaluate(
        "window.p = new Profiler({ sampleInterval: 1, maxBufferSize: 100000 });",
        "start.js",
        1,
    )
    .unwrap();
    let gc0 = jsprof_script::runtime::profiling::gc_time_ns();
    let wall0 = Instant::now();
    rt.evaluate(
        "window.c0 = performance.now(); churn(5000); window.c1 = performance.now();",
        "churn.js",
        1,
    )
    .unwrap();
    let wall = wall0.elapsed().as_nanos() as f64;
    let gc = (jsprof_script::runtime::profiling::gc_time_ns() - gc0) as f64;
    rt.evaluate(
        "p.stop().then(t => { window.result = JSON.stringify({ c0, c1, t }); });",
        "stop.js",
        1,
    )
    .unwrap();
    GcRun {
        r: result(&mut rt),
        gc,
        wall,
    }
}

/// The issue's acceptance test: on a GC-heavy page in an isolated realm,
/// the share of `gc` samples matches, within 2 points, the share of wall
/// time SpiderMonkey spent in GC over the same interval (measured by the
/// sampler's GC and nursery callbacks).
///
/// The comparison means something only when the sampler kept its 1 ms
/// schedule: when the machine starves the sampling thread (a CI run once
/// got 4,300 samples where 5,000 were due, and a 4.7-point gap), the lost
/// samples are not spread evenly over GC and script. Such a run is
/// repeated (at most three runs); the assertions are checked on the first
/// run that sampled at least 90 % of its ticks, and a machine that never
/// lets the sampler keep up fails the test with that reason.
#[test]
fn gc_share_matches_the_time_spent_in_gc() {
    let mut attempts = Vec::new();
    let run = loop {
        let run = gc_heavy_run();
        let (c0, c1) = (run.r["c0"].as_f64().unwrap(), run.r["c1"].as_f64().unwrap());
        let due = (c1 - c0).floor();
        let got = window(&run.r["t"], c0, c1).len() as f64;
        if got >= 0.9 * due {
            break run;
        }
        attempts.push(format!("{got} samples of {due} due"));
        assert!(
            attempts.len() < 3,
            "the sampler never kept its 1 ms schedule: {attempts:?}"
        );
    };
    let GcRun { r, gc, wall } = &run;
    let (c0, c1) = (r["c0"].as_f64().unwrap(), r["c1"].as_f64().unwrap());
    let samples = window(&r["t"], c0, c1);
    let gc_samples = count(&samples, "gc");
    let script_samples = count(&samples, "script");
    let sampled = gc_samples as f64 / samples.len() as f64;
    let measured = gc / wall;
    eprintln!(
        "{} samples: {gc_samples} gc, {script_samples} script; gc share sampled {:.1} %, measured {:.1} % (runs starved before: {attempts:?})",
        samples.len(),
        sampled * 100.0,
        measured * 100.0
    );
    assert!(samples.len() >= 1000, "too few samples: {}", samples.len());
    // The page is GC-heavy and the rest is script: every sample in the
    // window says which (the handler reads the state at each capture).
    assert!(measured > 0.03, "not GC-heavy enough: {measured}");
    assert!(script_samples > 0);
    assert!(
        (sampled - measured).abs() <= 0.02,
        "gc share sampled {sampled:.3}, measured {measured:.3}"
    );
    // A GC inside script keeps its stack.
    assert!(
        samples
            .iter()
            .any(|s| marker(s) == Some("gc") && s.get("stackId").is_some()),
        "no gc sample with a stack"
    );
}

/// A profiler whose realm is not cross-origin isolated never sees a
/// `marker` member, though its samples are the same kinds of work.
#[test]
fn a_page_that_is_not_isolated_never_has_a_marker() {
    let server = TestServer::start().unwrap();
    let mut rt = page(
        &server,
        r#"<script>
const p = new Profiler({ sampleInterval: 1, maxBufferSize: 100000 });
spin(100); churn(200);
setTimeout(() => p.stop().then(t => { window.result = JSON.stringify({ isolated: crossOriginIsolated, t }); }), 100);
</script>"#,
        false,
    );
    let r = result(&mut rt);
    assert_eq!(r["isolated"], false);
    let samples = r["t"]["samples"].as_array().unwrap();
    assert!(
        samples
            .iter()
            .filter(|s| s.get("stackId").is_some())
            .count()
            > 10
    );
    assert!(!r["t"].to_string().contains("marker"), "{}", r["t"]);
}

/// An isolated page: script samples carry `script`, idle samples (waiting
/// for a timer) carry nothing, and the shell's HTML parsing of the rest
/// of the document, outside script, carries `other`.
#[test]
fn script_idle_and_other_work() {
    let server = TestServer::start().unwrap();
    // A large document after the profiler starts: parsing it is the
    // shell's own work.
    let filler = "<div><span>text</span></div>".repeat(40_000);
    let body = format!(
        r#"<script>
window.p = new Profiler({{ sampleInterval: 1, maxBufferSize: 100000 }});
window.parse0 = performance.now();
</script>{filler}<script>
window.parse1 = performance.now();
window.s0 = performance.now(); spin(150); window.s1 = performance.now();
window.i0 = performance.now();
setTimeout(() => {{
  window.i1 = performance.now();
  p.stop().then(t => {{ window.result = JSON.stringify({{ parse0, parse1, s0, s1, i0, i1, t }}); }});
}}, 250);
</script>"#
    );
    let mut rt = page(&server, &body, true);
    let r = result(&mut rt);
    let at = |k: &str| r[k].as_f64().unwrap();
    // Script: every sample inside the spin (1 ms margins) is `script`.
    let spin = window(&r["t"], at("s0") + 1.0, at("s1") - 1.0);
    assert!(spin.len() > 20, "{}", spin.len());
    let script = count(&spin, "script");
    // (A GC may interrupt the loop; nothing else may. A tick whose capture
    // could not be taken, the signal not handled in time on a loaded
    // machine, has neither stack nor marker: fail closed.)
    let failed = spin
        .iter()
        .filter(|s| marker(s).is_none() && s.get("stackId").is_none())
        .count();
    assert_eq!(script + count(&spin, "gc") + failed, spin.len(), "{spin:?}");
    assert!(script > spin.len() / 2);
    // Idle: waiting for the timer, no marker and no stack.
    let idle = window(&r["t"], at("i0") + 2.0, at("i1") - 2.0);
    assert!(idle.len() > 20, "{}", idle.len());
    for s in &idle {
        assert!(marker(s).is_none() && s.get("stackId").is_none(), "{s}");
    }
    // Parsing: `other` without a stack (or `gc`, or `script` if a sample
    // caught the inline scripts).
    let parsing = window(&r["t"], at("parse0"), at("parse1"));
    let other = count(&parsing, "other");
    assert!(
        other > 0,
        "no other sample in {} parsing samples",
        parsing.len()
    );
    for s in parsing.iter().filter(|s| marker(s) == Some("other")) {
        assert!(s.get("stackId").is_none(), "{s}");
    }
}

/// The proposal's Privacy and Security rule: work whose responsible
/// document is cross-origin to the profiler's shows no marker. A
/// cross-origin iframe in the same agent spins (and allocates) on a
/// message; the parent's samples while it runs have no marker and no
/// stack; the parent's own spin right after does have `script`.
#[test]
fn a_cross_origin_iframes_work_carries_no_marker() {
    let server = TestServer::start().unwrap();
    let child = server.https_url(CROSS, "/child.html");
    let parent_origin = server.https_url(SAME, "/").origin().ascii_serialization();
    let child_origin = child.origin().ascii_serialization();
    server.route("/child.html", move |_| {
        isolated(html(&format!(
            "<!DOCTYPE html>{HELPERS}<script>\
             addEventListener('message', () => {{ spin(150); churn(150); parent.postMessage('done', '{parent_origin}'); }});\
             parent.postMessage('ready', '{parent_origin}');</script>"
        )))
        .with_header("Cross-Origin-Resource-Policy", "cross-origin")
    });
    let body = format!(
        r#"<script>
window.p = new Profiler({{ sampleInterval: 1, maxBufferSize: 100000 }});
window.marks = {{}};
addEventListener('message', e => {{
  if (e.data === 'ready') {{
    frames[0].postMessage('go', '{child_origin}');
    marks.sent = performance.now();
  }} else if (e.data === 'done') {{
    marks.back = performance.now();
    marks.s0 = performance.now(); spin(100); marks.s1 = performance.now();
    p.stop().then(t => {{ window.result = JSON.stringify({{ marks, t }}); }});
  }}
}});
</script><iframe src="{child}"></iframe>"#
    );
    let mut rt = page(&server, &body, true);
    let r = result(&mut rt);
    let at = |k: &str| r["marks"][k].as_f64().unwrap();
    let foreign = window(&r["t"], at("sent") + 1.0, at("back") - 1.0);
    assert!(foreign.len() > 20, "{}", foreign.len());
    for s in &foreign {
        assert!(
            marker(s).is_none() && s.get("stackId").is_none(),
            "the iframe's work shows: {s}"
        );
    }
    // The control: the parent's own script is marked.
    let own = window(&r["t"], at("s0") + 1.0, at("s1") - 1.0);
    assert!(count(&own, "script") > own.len() / 2, "{own:?}");
}

/// Dedicated workers: a worker of an isolated page is isolated (its
/// owner's policy) and its profiler's samples carry markers; a worker of
/// a page that is not isolated gets none.
#[test]
fn markers_in_dedicated_workers() {
    let worker = r#"
const p = new Profiler({ sampleInterval: 1, maxBufferSize: 100000 });
const end = performance.now() + 150; let x = 0; while (performance.now() < end) x++;
let keep = []; const end2 = performance.now() + 150;
while (performance.now() < end2) { for (let i = 0; i < 2000; i++) keep.push({ i }); if (keep.length > 100000) keep = []; }
p.stop().then(t => {
  const count = m => t.samples.filter(s => s.marker === m).length;
  postMessage({ isolated: crossOriginIsolated, script: count('script'), gc: count('gc'),
                keys: t.samples.some(s => 'marker' in s), samples: t.samples.length });
});"#;
    for isolated_page in [true, false] {
        let server = TestServer::start().unwrap();
        server.route("/worker.js", move |_| {
            js(worker)
                .with_header("Document-Policy", "js-profiling")
                .with_header("Cross-Origin-Embedder-Policy", "require-corp")
        });
        let mut rt = page(
            &server,
            "<script>new Worker('/worker.js').onmessage = e => { window.result = JSON.stringify(e.data); };</script>",
            isolated_page,
        );
        let r = result(&mut rt);
        assert_eq!(r["isolated"], isolated_page, "{r}");
        assert!(r["samples"].as_u64().unwrap() > 20, "{r}");
        if isolated_page {
            assert!(r["script"].as_u64().unwrap() > 10, "{r}");
        } else {
            assert_eq!(r["keys"], false, "{r}");
        }
    }
}

/// A measurement, not a pass/fail test (run it with `--ignored
/// --nocapture`): the cost of marker tracking on the sampler benchmark's
/// call-dense (`fib`) and realistic workloads under a 1 ms session in an
/// isolated page, with and without markers, interleaved in one run. Prints
/// the median wall time of each and the ratio with its spread over the
/// pairs (see `components/sampler/README.md`).
#[test]
#[ignore]
fn marker_tracking_cost() {
    // The sampler benchmark's workloads, and a timed run under a 1 ms session.
    let work = format!(
        "<script>var now = () => performance.now();\n{}\n</script>{TIMED}",
        include_str!("../../../sampler/benches/workloads.js")
    );
    const TIMED: &str = r#"<script>
function timed(work) {
  const p = new Profiler({ sampleInterval: 1, maxBufferSize: 1000000 });
  const t0 = performance.now(); work(); const t = performance.now() - t0;
  p.stop();
  return t;
}
</script>"#;
    let server = TestServer::start().unwrap();
    let mut rt = page(&server, &work, true);
    let rounds = 20;
    for (name, call) in [
        ("call-dense fib(32)", "timed(() => fib(32))"),
        ("realistic(1500)", "timed(() => realistic(1500))"),
    ] {
        let mut on = Vec::new();
        let mut off = Vec::new();
        for round in 0..rounds * 2 + 2 {
            let markers = round % 2 == 0;
            jsprof_script::runtime::profiling::set_marker_tracking(markers);
            let t: f64 = rt.evaluate(call, "bench.js", 1).unwrap().parse().unwrap();
            assert!(rt.run_until_idle(None));
            if round >= 2 {
                if markers {
                    on.push(t)
                } else {
                    off.push(t)
                }
            }
        }
        jsprof_script::runtime::profiling::set_marker_tracking(true);
        let median = |v: &mut Vec<f64>| {
            v.sort_by(|a, b| a.partial_cmp(b).unwrap());
            v[v.len() / 2]
        };
        let mut ratios: Vec<f64> = on.iter().zip(&off).map(|(a, b)| a / b).collect();
        let min = |v: &[f64]| v.iter().copied().fold(f64::MAX, f64::min);
        let (m_on, m_off) = (median(&mut on.clone()), median(&mut off.clone()));
        eprintln!(
            "{name}: fastest on {:.1} ms, off {:.1} ms (x{:.4})",
            min(&on),
            min(&off),
            min(&on) / min(&off)
        );
        let r = median(&mut ratios);
        eprintln!(
            "{name}: markers on {m_on:.1} ms, off {m_off:.1} ms (medians of {rounds}); \
             ratio on/off median x{r:.4}, pairs x{:.3}..x{:.3}",
            ratios[0],
            ratios[ratios.len() - 1]
        );
    }
}
