//! WebAssembly leak tests for the `Profiler` interface, built to leak, as
//! `profiler_security.rs` (same conventions: every secret name ends in
//! `_7f3a`; no secret name or URL may appear anywhere in a trace, and the
//! visible frames around the secret code must appear).
//!
//! The rule (sampler README, "WebAssembly frames"): a wasm function frame
//! appears iff the script SpiderMonkey names as the module's compiler is
//! registered and not muted, the module was compiled in the session's realm
//! (and in no other live realm at the same site), no muted or unknown
//! script compiled wasm in that realm, and the JS that called into it ran
//! in that realm; trampolines never appear.
//!
//! The modules are assembled from bytes in the page (`module.js` of the
//! sampler's tests: `wasmModule(leafName, middleName, runName)`, whose
//! `leaf` calls the imported `hook(i)` when `i % 1024 == 0`). Exact stacks
//! come from Force Sample in sessions that never sample on their own;
//! 1 ms sessions running at the same time cover the asynchronous sampler
//! (the thread stopped anywhere in the hot loops), checked for leaks and
//! for the visible frames only (no timing assertion).

use crate::common;
use crate::common::{html_with_policy, js, load, result, Report, CROSS, SAME, SLOW};
use jsprof_test_server::TestServer;

/// The asynchronous sampler, every millisecond.
const FAST: &str = "{ sampleInterval: 1, maxBufferSize: 100000 }";

const WASM_JS: &str = include_str!("../../../sampler/tests/wasm/module.js");

/// Helpers every page gets (as in `profiler_security.rs`): `tb`, `result`,
/// `report(trace)`: `"<stacks>|<resources>|<trace JSON>"`, each sample's
/// frame names leaf first joined by `<` (`-` for no stack), samples joined
/// by `;`; and the wasm module assembler.
fn helpers() -> String {
    format!(
        r#"<script>
window.tb = new TestBinding();
window.result = "pending";
function stackNames(trace, stackId) {{
  const out = [];
  while (stackId !== undefined) {{
    const stack = trace.stacks[stackId];
    out.push(trace.frames[stack.frameId].name);
    stackId = stack.parentId;
  }}
  return out.join("<");
}}
function report(trace) {{
  const stacks = trace.samples.map(s => s.stackId === undefined ? "-" : stackNames(trace, s.stackId));
  return stacks.join(";") + "|" + JSON.stringify(trace.resources) + "|" + JSON.stringify(trace);
}}
{WASM_JS}
</script>"#
    )
}

/// A trace as `report()` gives it, checked for leaks: no secret name, none
/// of `secret_urls`, no trampoline and no unnamed wasm function.
fn parse(out: &str, secret_urls: &[&str]) -> Report {
    let report = common::parse_report(out, secret_urls);
    assert!(!out.contains("trampoline"), "a stub frame appeared: {out}");
    assert!(!out.contains("(in wasm)"), "a stub frame appeared: {out}");
    report
}

/// `stack` (leaf first) is `leaf<W...<rest` where `W...` is a non-empty
/// in-order part of `wasm` (root first): SpiderMonkey's frame iterator
/// omits the wasm function that called a JS import through the JIT exit,
/// and functions Ion inlined.
fn assert_wasm_stack(stack: &str, leaf: &str, wasm: &[&str], rest: &str) {
    let inner = stack
        .strip_prefix(&format!("{leaf}<"))
        .and_then(|s| s.strip_suffix(rest))
        .and_then(|s| s.strip_suffix('<'))
        .unwrap_or_else(|| panic!("{stack} is not {leaf}<...<{rest}"));
    let root_first: Vec<&str> = inner.split('<').rev().collect();
    assert!(!root_first.is_empty(), "no wasm frame in {stack}");
    assert_in_order(&root_first, wasm, stack);
}

/// Every name of `names` is in `order`, in that order (some may be missing).
fn assert_in_order(names: &[&str], order: &[&str], stack: &str) {
    let mut next = 0;
    for name in names {
        let at = order[next..]
            .iter()
            .position(|n| n == name)
            .unwrap_or_else(|| panic!("unexpected or misordered {name} in {stack}"));
        next += at + 1;
    }
}

/// A no-cors cross-origin script (muted) compiles a module from bytes
/// (named `*_7f3a`, and one named exactly like the page's own module) and
/// hands out its exports; the page calls them, once with a sample forced
/// in a visible import the module calls, and in a hot loop under a 1 ms
/// session. No frame of the muted module, its trampolines, or the muted
/// script appears; the visible callers and the visible import do. The
/// page's own module is hidden too: once a muted script has compiled wasm in
/// a realm, no wasm label of that realm is attributable (a name section may
/// hold a NUL that cuts the label to a visible site; sampler README). The
/// control (a realm with only visible compilations shows its module) is
/// `cross_origin_iframe_module`'s iframe profiler.
#[test]
fn muted_script_module_called_by_visible_code() {
    let server = TestServer::start().unwrap();
    let muted = server.http_url(CROSS, "/muted-wasm.js");
    server.route("/muted-wasm.js", |_| {
        js(&format!(
            "{WASM_JS}\n\
             var secretModule_7f3a = new WebAssembly.Module(wasmModule('leaf_7f3a', 'middle_7f3a', 'run_7f3a'));\n\
             var secretLookalike_7f3a = new WebAssembly.Module(wasmModule('pageLeaf', 'pageMiddle', 'pageRun'));\n\
             window.mutedWasm = function mutedWasm_7f3a(hook, lookalike) {{\n\
               return new WebAssembly.Instance(lookalike ? secretLookalike_7f3a : secretModule_7f3a, {{ env: {{ hook }} }}).exports;\n\
             }};\n"
        ))
    });
    let index = server.http_url(SAME, "/index.html");
    let body = format!(
        r#"<!DOCTYPE html>{helpers}<script>window.p = new Profiler({SLOW}); window.fast = new Profiler({FAST});</script>
<script src="{muted}"></script>
<script>
function visibleHook(i) {{ if (i === 0) tb.forceProfilerSample(); }}
function quietHook(i) {{}}
const secret = mutedWasm(visibleHook, false);
const lookalike = mutedWasm(visibleHook, true);
const hot = mutedWasm(quietHook, false);
const own = new WebAssembly.Instance(new WebAssembly.Module(wasmModule('pageLeaf', 'pageMiddle', 'pageRun')), {{ env: {{ hook: visibleHook }} }}).exports;
function visibleCaller() {{ return secret.run(1); }}
function visibleMiddle() {{ return secret.middle(0); }}
function visibleLookalike() {{ return lookalike.run(1); }}
function visibleHotLoop() {{ let s = 0; for (let k = 0; k < 400; k++) s += hot.run(50000); return s; }}
function visibleOwn() {{ return own.run(1); }}
const ownQuiet = new WebAssembly.Instance(new WebAssembly.Module(wasmModule('hotLeaf', 'hotMiddle', 'hotRun')), {{ env: {{ hook: quietHook }} }}).exports;
function visibleOwnHotLoop() {{ let s = 0; for (let k = 0; k < 400; k++) s += ownQuiet.run(50000); return s; }}
visibleCaller();
visibleMiddle();
visibleLookalike();
visibleHotLoop();
visibleOwn();
visibleOwnHotLoop();
Promise.all([p.stop(), fast.stop()]).then(([a, b]) => {{ window.result = report(a) + "\n" + report(b); }});
</script>"#,
        helpers = helpers()
    );
    server.route("/index.html", move |_| html_with_policy(&body));
    let mut rt = load(&server, &index);
    let out = result(&mut rt);
    let (slow, fast) = out.split_once('\n').unwrap();
    let r = parse(slow, &[muted.as_str()]);
    assert_eq!(r.stacks.len(), 4, "{out}");
    assert_eq!(
        r.stacks[..3],
        [
            "visibleHook<visibleCaller<",
            "visibleHook<visibleMiddle<",
            "visibleHook<visibleLookalike<"
        ],
        "{out}"
    );
    assert_eq!(r.stacks[3], "visibleHook<visibleOwn<", "{out}");
    assert_eq!(r.resources, format!("[\"{index}\"]"), "{out}");
    // The 1 ms session: no leak anywhere (checked by `parse`), and the hot
    // loop's visible frame is there.
    let f = parse(fast, &[muted.as_str()]);
    assert!(
        f.stacks.iter().any(|s| s.ends_with("visibleHotLoop<")),
        "no sample in the hot loop: {fast}"
    );
    for s in f.stacks.iter().filter(|s| s.contains("visibleHotLoop")) {
        assert!(
            s == "visibleHotLoop<" || s == "quietHook<visibleHotLoop<",
            "{s} in {fast}"
        );
    }
    // The page's own module in the same kind of loop: hidden as well (the
    // realm has a muted compilation), its visible caller stays.
    assert!(
        f.stacks.iter().any(|s| s.ends_with("visibleOwnHotLoop<")),
        "no sample in the page's own loop: {fast}"
    );
    for s in f.stacks.iter().filter(|s| s.contains("visibleOwnHotLoop")) {
        assert!(
            s == "visibleOwnHotLoop<" || s == "quietHook<visibleOwnHotLoop<",
            "{s} in {fast}"
        );
    }
}

/// A cross-origin iframe compiles its own module and runs it (a hot loop,
/// and one sample forced in its wasm-called hook) while the parent
/// profiles: the parent's traces hold nothing of it (no frame, name or URL:
/// the forced sample has no stack). The control: the iframe's own profiler
/// shows its module's frames with the iframe's URL.
#[test]
fn cross_origin_iframe_module() {
    let server = TestServer::start().unwrap();
    let frame_url = server.http_url(CROSS, "/frame.html");
    let frame_body = format!(
        r#"<!DOCTYPE html>{helpers}<script>
window.fp = new Profiler({SLOW});
let sampled_7f3a = false;
function frameHook_7f3a(i) {{ if (!sampled_7f3a) {{ sampled_7f3a = true; tb.forceProfilerSample(); }} }}
const frameExports_7f3a = new WebAssembly.Instance(new WebAssembly.Module(wasmModule('frameLeaf_7f3a', 'frameMiddle_7f3a', 'frameRun_7f3a')), {{ env: {{ hook: frameHook_7f3a }} }}).exports;
addEventListener("message", function frameOnMessage_7f3a() {{
  let s = 0;
  for (let k = 0; k < 400; k++) s += frameExports_7f3a.run(50000);
  fp.stop().then(t => parent.postMessage(report(t).replace(/_7f3a/g, "_IFRAME"), "*"));
}});
</script>"#,
        helpers = helpers()
    );
    server.route("/frame.html", move |_| html_with_policy(&frame_body));
    let index = server.http_url(SAME, "/index.html");
    let body = format!(
        r#"<!DOCTYPE html>{helpers}<script>window.p = new Profiler({SLOW}); window.fast = new Profiler({FAST});</script>
<iframe src="{frame_url}"></iframe>
<script>
addEventListener("load", function parentOnLoad() {{ frames[0].postMessage("go", "*"); }});
addEventListener("message", function parentOnMessage(e) {{
  Promise.all([p.stop(), fast.stop()]).then(([a, b]) => {{ window.result = report(a) + "\n" + report(b) + "\n" + e.data; }});
}});
</script>"#,
        helpers = helpers()
    );
    server.route("/index.html", move |_| html_with_policy(&body));
    let mut rt = load(&server, &index);
    let out = result(&mut rt);
    let mut parts = out.splitn(3, '\n');
    let (slow, fast, frame) = (
        parts.next().unwrap(),
        parts.next().unwrap(),
        parts.next().expect("the iframe's report"),
    );
    let r = parse(slow, &[frame_url.as_str()]);
    assert_eq!(r.stacks, ["-"], "{out}");
    let f = parse(fast, &[frame_url.as_str()]);
    // The parent ran no JS during the iframe's loop: only its own frames
    // (its top-level scripts, the load and message handlers, helpers) can
    // appear; `parse` has already checked that no frame names the iframe's
    // URL.
    for s in &f.stacks {
        assert!(
            s == "-"
                || s.is_empty()
                || s.ends_with("parentOnLoad")
                || s.ends_with("parentOnMessage")
                || s.ends_with('<'),
            "{s} in {fast}"
        );
    }
    // The control: the iframe's own session sees its module.
    let fr = parse(frame, &[index.as_str()]);
    assert_eq!(fr.stacks.len(), 1, "{frame}");
    assert_wasm_stack(
        &fr.stacks[0],
        "frameHook_IFRAME",
        &["frameRun_IFRAME", "frameMiddle_IFRAME", "frameLeaf_IFRAME"],
        "frameOnMessage_IFRAME",
    );
    assert_eq!(fr.resources, format!("[\"{frame_url}\"]"), "{frame}");
}
