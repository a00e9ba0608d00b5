//! The `Profiler` interface end to end through the shell: pages served by
//! the loopback test server (two origins, `Document-Policy` headers), run to
//! idle, their results read back from `window.result`.
//!
//! Determinism: sessions use a 100 s interval (the sampler's first timer
//! sample is one interval after the start, so none happens during a test)
//! and samples are taken with the Force Sample hook
//! (`TestBinding.forceProfilerSample()`); no timing assertion.

use crate::common;
use crate::common::{fetcher, html, html_with_policy, js, load, result, CROSS, SAME, SLOW};
use jsprof_script::JsRuntime;
use jsprof_test_server::TestServer;

/// Helpers every page gets: `tb` (the test hook object), `result`,
/// `findPath(trace, names)` (the frames of the first sample whose stack
/// has the frames named `names`, leaf first, consecutively).
const HELPERS: &str = r#"<script>
window.tb = new TestBinding();
window.result = "pending";
function stackFrames(trace, stackId) {
  const out = [];
  while (stackId !== undefined) {
    const stack = trace.stacks[stackId];
    out.push(trace.frames[stack.frameId]);
    stackId = stack.parentId;
  }
  return out; // leaf first
}
function findPath(trace, names) {
  for (const sample of trace.samples) {
    if (sample.stackId === undefined) continue;
    const frames = stackFrames(trace, sample.stackId);
    for (let i = 0; i + names.length <= frames.length; i++) {
      if (names.every((n, j) => frames[i + j].name === n)) return frames.slice(i, i + names.length);
    }
  }
  return null;
}
function frameNames(trace) { return trace.frames.map(f => f.name); }
</script>"#;

/// Serves `body` (with the policy) at /index.html of the same origin and
/// returns the loaded runtime.
fn page(server: &TestServer, body: &str) -> JsRuntime {
    common::page_with_policy(server, HELPERS, body)
}

#[test]
fn constructor_errors_and_attributes() {
    let server = TestServer::start().unwrap();
    let mut rt = page(
        &server,
        r#"<script>
const out = [];
function name(f) { try { f(); return "none"; } catch (e) { return e.name; } }
out.push(name(() => new Profiler({ maxBufferSize: 10 })));
out.push(name(() => new Profiler({ sampleInterval: 10 })));
out.push(name(() => new Profiler({ sampleInterval: NaN, maxBufferSize: 10 })));
out.push(name(() => new Profiler({ sampleInterval: Infinity, maxBufferSize: 10 })));
out.push(name(() => new Profiler({ sampleInterval: -Infinity, maxBufferSize: 10 })));
out.push(name(() => new Profiler({ sampleInterval: -1, maxBufferSize: 10 })));
out.push(name(() => Profiler({ sampleInterval: 1, maxBufferSize: 10 })));
const intervals = [0, 0.5, 1, 10, 10.5, 16, 1000].map(i => {
  const p = new Profiler({ sampleInterval: i, maxBufferSize: 10 });
  const v = p.sampleInterval;
  p.stop();
  return v;
});
const p = new Profiler({ sampleInterval: 10, maxBufferSize: 10 });
out.push(p.stopped, p instanceof EventTarget);
p.stop();
out.push(p.stopped, p.sampleInterval);
window.result = out.join() + "|" + intervals.join();
</script>"#,
    );
    assert_eq!(
        result(&mut rt),
        "TypeError,TypeError,TypeError,TypeError,TypeError,RangeError,TypeError,false,true,true,10\
         |1,1,1,10,11,16,1000"
    );
}

#[test]
fn policy_absent_or_disabled_throws_not_allowed() {
    let server = TestServer::start().unwrap();
    let probe = r#"<!DOCTYPE html><script>
try { new Profiler({ sampleInterval: 10, maxBufferSize: 10 }); window.result = "created"; }
catch (e) { window.result = e.name + ":" + (e instanceof DOMException) + ":" + e.code; }
</script>"#;
    server.route("/none.html", move |_| html(probe));
    server.route("/off.html", move |_| {
        html(probe).with_header("Document-Policy", "js-profiling=?0")
    });
    server.route("/lazy.html", move |_| {
        html(probe).with_header("Document-Policy", "js-profiling-mode=lazy")
    });
    for (path, expected) in [
        ("/none.html", "NotAllowedError:true:0"),
        ("/off.html", "NotAllowedError:true:0"),
        ("/lazy.html", "created"),
    ] {
        let result = std::thread::scope(|s| {
            s.spawn(|| {
                let mut rt = load(&server, &server.http_url(SAME, path));
                rt.evaluate("String(window.result)", "check.js", 1).unwrap()
            })
            .join()
            .unwrap()
        });
        assert_eq!(result, expected, "{path}");
    }
}

#[test]
fn stop_twice_rejects_and_the_trace_is_a_fresh_plain_object() {
    let server = TestServer::start().unwrap();
    let mut rt = page(
        &server,
        &format!(
            r#"<script>
const p = new Profiler({SLOW});
// A frame entered after the session started (the top-level frame of this
// script began before the instrumentation was on).
function work() {{ return tb.forceProfilerSample(); }}
work();
const first = p.stop();
const second = p.stop();
const out = [];
let sync = "sync";
Promise.all([
  first,
  second.then(() => "resolved", e => e.name + ":" + (e instanceof DOMException)),
  p.stop().then(() => "resolved", e => e.name),
]).then(([trace, r2, r3]) => {{
  out.push(sync, r2, r3);
  out.push(Object.getPrototypeOf(trace) === Object.prototype);
  out.push(Object.keys(trace).join("/"));
  out.push(trace.samples.length, "stackId" in trace.samples[0], "parentId" in (trace.stacks[0] || {{}}));
  out.push(JSON.stringify(Object.keys(trace.samples[0])));
  out.push(first !== second);
  window.result = out.join();
}});
sync = "async";
</script>"#
        ),
    );
    assert_eq!(
        result(&mut rt),
        "async,InvalidStateError:true,InvalidStateError,true,frames/resources/samples/stacks,\
         1,true,false,[\"stackId\",\"timestamp\"],true"
    );
}

/// `outer → middle → leaf` in an inline script and in an external script:
/// names, resources (`location.href` / the script URL), 1-based
/// definition line and column (SpiderMonkey's column is the `(`).
#[test]
fn nested_calls_inline_and_external() {
    let server = TestServer::start().unwrap();
    server.route("/nested.js", |_| {
        js("function xleaf() { return tb.forceProfilerSample(); }\n\
            function xmiddle() { return xleaf(); }\n\
            function xouter() { return xmiddle(); }\n")
    });
    let mut rt = page(
        &server,
        &format!(
            r#"<script>window.p = new Profiler({SLOW});</script>
<script src="nested.js"></script>
<script>
function leaf() {{ return tb.forceProfilerSample(); }}
function middle() {{ return leaf(); }}
function outer() {{ return middle(); }}
const n = outer() + xouter();
p.stop().then(trace => {{
  const describe = (path) => path && path.map(f => [f.name, trace.resources[f.resourceId], f.line, f.column].join(":")).join(" ");
  window.result = [n, describe(findPath(trace, ["leaf", "middle", "outer"])),
                   describe(findPath(trace, ["xleaf", "xmiddle", "xouter"])),
                   JSON.stringify(trace).startsWith('{{"frames":[')].join("|");
}});
</script>"#
        ),
    );
    let href = server.http_url(SAME, "/index.html");
    let ext = server.http_url(SAME, "/nested.js");
    let out = result(&mut rt);
    let parts: Vec<&str> = out.split('|').collect();
    assert_eq!(parts[0], "2", "{out}");
    // Lines: the helpers end on line `base`, where the page's first
    // script follows; `function leaf` is three lines further.
    let body = format!("<!DOCTYPE html>{HELPERS}");
    let base = body.lines().count() as u32;
    let leaf_line = base + 3;
    assert_eq!(
        parts[1],
        format!(
            "leaf:{href}:{leaf_line}:14 middle:{href}:{}:16 outer:{href}:{}:15",
            leaf_line + 1,
            leaf_line + 2
        ),
        "{out}"
    );
    assert_eq!(
        parts[2],
        format!("xleaf:{ext}:1:15 xmiddle:{ext}:2:17 xouter:{ext}:3:16"),
        "{out}"
    );
    assert_eq!(parts[3], "true", "{out}");
}

/// A cross-origin script without CORS: its functions and the built-ins
/// it calls never appear, its samples remain without a stackId. With
/// CORS, its functions appear with its URL.
#[test]
fn cross_origin_scripts() {
    let server = TestServer::start().unwrap();
    let muted = server.http_url(CROSS, "/muted.js");
    let cors = server.http_url(CROSS, "/cors.js");
    server.route("/muted.js", |_| {
        js("function mutedOuter() {\n\
              return JSON.parse('[1]', function mutedReviver(k, v) { tb.forceProfilerSample(); return v; });\n\
            }\n\
            mutedOuter();\n")
    });
    server.route("/cors.js", |r| {
        js("function corsOuter() { return tb.forceProfilerSample(); }\ncorsOuter();\n")
            .with_cors_echo(r)
    });
    let mut rt = page(
        &server,
        &format!(
            r#"<script>window.muted = new Profiler({SLOW});</script>
<script src="{muted}"></script>
<script>window.mutedTrace = muted.stop(); window.cors = new Profiler({SLOW});</script>
<script src="{cors}" crossorigin></script>
<script>
Promise.all([mutedTrace, cors.stop()]).then(([m, c]) => {{
  window.result = [
    m.samples.length, m.samples.every(s => s.stackId === undefined), JSON.stringify(m.frames), JSON.stringify(m.resources),
    JSON.stringify(frameNames(c)), JSON.stringify(c.resources),
  ].join("|");
}});
</script>"#
        ),
    );
    assert_eq!(
        result(&mut rt),
        format!(
            // The CORS script's top-level code is a frame named "".
            "2|true|[]|[]|[\"\",\"corsOuter\"]|[\"{cors}\"]"
        )
    );
}

/// A function running in an iframe's realm is absent from the parent's
/// trace; the parent's function it calls is present.
#[test]
fn iframe_realm_is_separate() {
    let server = TestServer::start().unwrap();
    server.route("/frame.html", |_| {
        html_with_policy(
            "<!DOCTYPE html><script>\
             function frameFn() { return parent.parentFn(); }\n\
             window.frameCount = frameFn();\
             </script>",
        )
    });
    let mut rt = page(
        &server,
        &format!(
            r#"<script>
window.p = new Profiler({SLOW});
function parentFn() {{ return tb.forceProfilerSample(); }}
</script>
<iframe src="frame.html"></iframe>
<script>
addEventListener("load", () => {{
  p.stop().then(trace => {{
    window.result = [trace.samples.length, JSON.stringify(frameNames(trace)),
                     findPath(trace, ["parentFn"]) !== null].join("|");
  }});
}});
</script>"#
        ),
    );
    assert_eq!(result(&mut rt), "1|[\"parentFn\"]|true");
}

/// Two sessions at once, each with its own buffer and trace; the
/// samplebufferfull event goes to the full one only, which stays started
/// and still delivers its trace.
#[test]
fn concurrent_profilers_and_samplebufferfull() {
    let server = TestServer::start().unwrap();
    let mut rt = page(
        &server,
        r#"<script>
const small = new Profiler({ sampleInterval: 100000, maxBufferSize: 2 });
const big = new Profiler({ sampleInterval: 50000, maxBufferSize: 100 });
const events = [];
small.addEventListener("samplebufferfull", e => {
  events.push("small:" + e.type + ":" + (e instanceof Event) + ":" + (e.target === small) + ":" + small.stopped);
  // As in the explainer's example: collect the trace from the listener.
  Promise.all([small.stop(), big.stop()]).then(([s, b]) => {
    window.result = [counts.join("/"), syncEvents, events.join(";"), s.samples.length, b.samples.length,
                     small.sampleInterval, big.sampleInterval].join("|");
  });
});
big.addEventListener("samplebufferfull", e => events.push("big"));
const counts = [tb.forceProfilerSample(), tb.forceProfilerSample(), tb.forceProfilerSample()];
const syncEvents = events.length;
</script>"#,
    );
    assert_eq!(
        result(&mut rt),
        "2/2/2|0|small:samplebufferfull:true:true:false|2|3|100000|50000"
    );
}

/// A Profiler that becomes garbage while started: its session is freed
/// (the shell's count of live sessions goes back), no crash; the agent's
/// sessions are all gone after the page is done.
#[test]
fn profiler_garbage_collected_while_started() {
    let server = TestServer::start().unwrap();
    let mut rt = page(
        &server,
        &format!(
            r#"<script>
const before = tb.liveProfilingSessions;
(function () {{
  const p = new Profiler({SLOW});
  p.addEventListener("samplebufferfull", () => {{}});
  tb.forceProfilerSample();
}})();
const during = tb.liveProfilingSessions;
tb.collectGarbage();
setTimeout(() => {{
  const kept = new Profiler({SLOW});
  window.result = [before, during, tb.liveProfilingSessions, tb.forceProfilerSample()].join();
  kept.stop();
}}, 0);
</script>"#
        ),
    );
    assert_eq!(result(&mut rt), "0,1,1,1");
    drop(rt);
}

/// Navigating a window (a new document in its realm) stops its sessions.
#[test]
fn navigation_stops_the_realms_sessions() {
    let server = TestServer::start().unwrap();
    let mut rt = page(
        &server,
        &format!("<script>window.p = new Profiler({SLOW});</script>"),
    );
    assert_eq!(
        rt.evaluate("String(p.stopped)", "c.js", 1).unwrap(),
        "false"
    );
    server.route("/second.html", |_| {
        html_with_policy("<!DOCTYPE html><p>second")
    });
    rt.load_page(&server.http_url(SAME, "/second.html"), fetcher(&server))
        .unwrap();
    assert!(rt.run_until_idle(None));
    assert_eq!(
        rt.evaluate(
            "window.r = 'pending'; p.stop().then(() => r = 'resolved', e => r = e.name); ''",
            "c.js",
            1
        )
        .unwrap(),
        ""
    );
    assert!(rt.run_until_idle(None));
    assert_eq!(
        rt.evaluate("String(p.stopped) + r", "c.js", 1).unwrap(),
        "trueInvalidStateError"
    );
}

/// Removing an `<iframe>` stops the sessions of its realm; the parent's
/// session goes on.
#[test]
fn removing_an_iframe_stops_its_sessions() {
    let server = TestServer::start().unwrap();
    server.route("/frame.html", |_| {
        html_with_policy(
            "<!DOCTYPE html><script>\
             parent.frameProfiler = new Profiler({ sampleInterval: 100000, maxBufferSize: 10 });\
             </script>",
        )
    });
    let mut rt = page(
        &server,
        &format!(
            r#"<script>window.p = new Profiler({SLOW});</script>
<iframe src="frame.html"></iframe>
<script>
addEventListener("load", () => {{
  const before = [frameProfiler.stopped, p.stopped];
  const forcedBefore = tb.forceProfilerSample();
  const frame = document.querySelector("iframe"); frame.parentNode.removeChild(frame);
  const after = [frameProfiler.stopped, p.stopped];
  frameProfiler.stop().then(() => "resolved", e => e.name).then(r => {{
    window.result = [before, forcedBefore, after, tb.forceProfilerSample(), r].join("|");
  }});
}});
</script>"#
        ),
    );
    assert_eq!(
        result(&mut rt),
        "false,false|2|true,false|1|InvalidStateError"
    );
}

/// `js-profiling-mode=eager` prepares the agent's sampler at document
/// creation, SpiderMonkey's profiler instrumentation included, and keeps the
/// instrumentation on after the last session; `lazy` prepares it at the
/// first `new Profiler()` and turns the instrumentation off after `stop()`.
#[test]
fn eager_and_lazy_sampler_setup() {
    for (policy, at_creation) in [
        ("js-profiling-mode=eager", true),
        ("js-profiling", true),
        ("js-profiling-mode=lazy", false),
    ] {
        let server = TestServer::start().unwrap();
        server.route("/p.html", move |_| {
            html("<!DOCTYPE html><p>no profiler").with_header("Document-Policy", policy)
        });
        let created = std::thread::scope(|s| {
            s.spawn(|| {
                let mut rt = load(&server, &server.http_url(SAME, "/p.html"));
                let before = (
                    jsprof_script::runtime::profiling::sampler_created(),
                    jsprof_script::runtime::profiling::instrumentation_enabled(),
                );
                rt.evaluate(
                    "new Profiler({ sampleInterval: 10, maxBufferSize: 10 }).stop(); ''",
                    "c.js",
                    1,
                )
                .unwrap();
                (
                    before,
                    jsprof_script::runtime::profiling::sampler_created(),
                    jsprof_script::runtime::profiling::instrumentation_enabled(),
                )
            })
            .join()
            .unwrap()
        });
        assert_eq!(
            created,
            ((at_creation, at_creation), true, at_creation),
            "{policy}"
        );
    }
}

/// Many profilers left running and dropped: every session is freed.
#[test]
fn dropped_profilers_do_not_leak_sessions() {
    let server = TestServer::start().unwrap();
    let mut rt = page(
        &server,
        &format!(
            r#"<script>
(function () {{
  for (let i = 0; i < 200; i++) {{
    const p = new Profiler({SLOW});
    if (i % 2) p.addEventListener("samplebufferfull", () => p.stop());
  }}
}})();
const during = tb.liveProfilingSessions;
const sampled = tb.forceProfilerSample();
tb.collectGarbage();
setTimeout(() => {{ window.result = [during, sampled, tb.liveProfilingSessions, tb.forceProfilerSample()].join(); }}, 0);
</script>"#
        ),
    );
    assert_eq!(result(&mut rt), "200,200,0,0");
}
