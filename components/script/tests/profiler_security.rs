//! Security tests for the `Profiler` interface, built to leak: every test
//! makes a script with muted errors (a cross-origin classic script fetched
//! without CORS) or another realm run code in every way a page can make it
//! run while a visible page script profiles, and checks that
//!
//! * none of its frames appears: no frame name (every secret name ends in
//!   `_7f3a`) and no resource URL of it anywhere in the trace, and
//! * the visible frames around it do appear, with the exact stacks, so a
//!   test cannot pass by returning empty traces.
//!
//! The rule (sampler README): a scripted frame is included iff same realm
//! and not muted; a built-in iff its nearest scripted caller is included.
//!
//! Determinism: sessions use a 100 s interval (no timer sample during a
//! test) and samples are taken with Force Sample
//! (`TestBinding.forceProfilerSample()`), from inside the secret code where
//! possible; no timing assertion.

mod common;

use common::{html_with_policy, js, parse_report as parse, result, Report, CROSS, SAME, SLOW};
use jsprof_script::JsRuntime;
use jsprof_test_server::{TestResponse, TestServer};

/// Helpers every page gets: `tb` (the test hook object), `result`,
/// `report(trace)`: `"<stacks>|<resources>|<trace JSON>"` where `<stacks>`
/// lists each sample's frame names, leaf first, joined by `<` (`-` for a
/// sample without a stack), samples joined by `;`; `waitFor(cond, f)` runs
/// `f` in the first task (after this one) in which `cond()` holds.
const HELPERS: &str = r#"<script>
window.tb = new TestBinding();
window.result = "pending";
function stackNames(trace, stackId) {
  const out = [];
  while (stackId !== undefined) {
    const stack = trace.stacks[stackId];
    out.push(trace.frames[stack.frameId].name);
    stackId = stack.parentId;
  }
  return out.join("<"); // leaf first
}
function report(trace) {
  const stacks = trace.samples.map(s => s.stackId === undefined ? "-" : stackNames(trace, s.stackId));
  return stacks.join(";") + "|" + JSON.stringify(trace.resources) + "|" + JSON.stringify(trace);
}
function waitFor(cond, f) {
  setTimeout(() => cond() ? f() : waitFor(cond, f), 0);
}
</script>"#;

fn resources(urls: &[&url::Url]) -> String {
    let quoted: Vec<String> = urls.iter().map(|u| format!("\"{u}\"")).collect();
    format!("[{}]", quoted.join(","))
}

/// `<script src>` elements for `srcs`, in order.
fn scripts(srcs: &[&str]) -> String {
    srcs.iter()
        .map(|src| format!("<script src=\"{src}\"></script>\n"))
        .collect()
}

/// A page that ran: its server, its runtime (idle) and `window.result`.
struct Run {
    server: TestServer,
    rt: JsRuntime,
    out: String,
}

/// Serves (with the policy) at /index.html of the same origin a page that
/// starts the visible session `p`, then has `head` (the scripts or frames
/// under test), then runs the inline script `body`; loads it and returns
/// what it left in `window.result`.
fn run(server: TestServer, head: &str, body: &str) -> Run {
    let page = format!(
        "<script>window.p = new Profiler({SLOW});</script>\n{head}\n<script>\n{body}\n</script>"
    );
    let mut rt = common::page_with_policy(&server, HELPERS, &page);
    let out = result(&mut rt);
    Run { server, rt, out }
}

/// A server serving `muted_js` as /muted.js of the other origin (fetched
/// without CORS: muted), and that URL.
fn serve_muted(muted_js: &'static str) -> (TestServer, url::Url) {
    let server = TestServer::start().unwrap();
    let muted = server.http_url(CROSS, "/muted.js");
    server.route("/muted.js", move |_| js(muted_js));
    (server, muted)
}

/// Parses the report `out` (no secret name and none of `secret_urls`
/// anywhere in it) and checks that its stacks are `stacks`.
fn check(out: &str, secret_urls: &[&str], stacks: &[&str]) -> Report {
    let r = parse(out, secret_urls);
    assert_eq!(r.stacks, stacks, "{out}");
    r
}

/// Runs `body` on a page that loads `muted_js` (see [`serve_muted`]) and
/// checks its report: no secret name, no muted URL, the stacks `stacks`.
fn muted_case(muted_js: &'static str, body: &str, stacks: &[&str]) -> (Run, Report) {
    let (server, muted) = serve_muted(muted_js);
    let run = run(server, &scripts(&[muted.as_str()]), body);
    let r = check(&run.out, &[muted.as_str()], stacks);
    (run, r)
}

/// The trace's only resource is the page.
fn assert_only_the_page_resource(run: &Run, r: &Report) {
    let href = run.server.http_url(SAME, "/index.html");
    assert_eq!(r.resources, resources(&[&href]), "{}", run.out);
}

/// Case 1: a muted script's functions (a declaration, a nested call, a
/// bound function, a class constructor) called from visible code, with the
/// sample forced inside the muted code, and a visible callback the muted
/// code calls back: only the visible frames appear, each sample keeps its
/// visible stack with the muted frames cut out.
#[test]
fn muted_function_called_from_visible_code() {
    let (run, r) = muted_case(
        "function mutedSecretFn_7f3a(cb) { return mutedInner_7f3a(cb); }\n\
        function mutedInner_7f3a(cb) { return cb ? cb() : tb.forceProfilerSample(); }\n\
        class MutedClass_7f3a { constructor() { this.n = mutedInner_7f3a(); } }\n\
        window.mutedEntry = mutedSecretFn_7f3a;\n\
        window.mutedBound = mutedSecretFn_7f3a.bind(null);\n\
        window.MutedCtor = MutedClass_7f3a;\n",
        r#"function visibleCallback() { return tb.forceProfilerSample(); }
function visibleCaller() { return mutedEntry(); }
function visibleCallsBack() { return mutedEntry(visibleCallback); }
function visibleBound() { return mutedBound(); }
function visibleNew() { return new MutedCtor().n; }
const n = [visibleCaller(), visibleCallsBack(), visibleBound(), visibleNew()];
p.stop().then(t => { window.result = report(t); });"#,
        &[
            "visibleCaller<",
            "visibleCallback<visibleCallsBack<",
            "visibleBound<",
            "visibleNew<",
        ],
    );
    assert_only_the_page_resource(&run, &r);
}

/// Case 2: the built-ins a muted script calls (`Array.prototype.map` with
/// a muted callback, `JSON.parse` with a muted reviver, `sort` with a
/// muted comparator), sampled inside the muted callbacks and inside a
/// visible callback the muted code passes to `map`: no `map`, `parse` or
/// `sort` frame. The control: the same built-ins called by visible code do
/// appear (name only).
#[test]
fn builtins_called_by_muted_code_are_absent() {
    muted_case(
        "window.mutedBuiltins = function mutedBuiltins_7f3a(visibleCb) {\n\
          [1].map(function mutedMapCb_7f3a(x) { return tb.forceProfilerSample(); });\n\
          JSON.parse('[1]', function mutedReviver_7f3a(k, v) { return k === '' ? tb.forceProfilerSample() : v; });\n\
          [2, 1].sort(function mutedCompare_7f3a(a, b) { tb.forceProfilerSample(); return a - b; });\n\
          return [1].map(visibleCb);\n\
        };\n",
        r#"function visibleCb() { return tb.forceProfilerSample(); }
function visibleCaller() { return mutedBuiltins(visibleCb); }
function visibleControl() { return [1].map(visibleCb).concat(JSON.parse("[1]", function visibleReviver(k, v) { return k === "" ? tb.forceProfilerSample() : v; })); }
visibleCaller();
visibleControl();
p.stop().then(t => { window.result = report(t); });"#,
        &[
            "visibleCaller<",
            "visibleCaller<",
            "visibleCaller<",
            "visibleCb<visibleCaller<",
            "visibleCb<map<visibleControl<",
            "visibleReviver<parse<visibleControl<",
        ],
    );
}

/// Case 3: a muted script's timer callback (`setTimeout` registered by the
/// muted script) runs while the visible session is started, and Force
/// Sample happens inside it: that sample has no stack. A visible timer
/// callback sampled the same way has its frame.
#[test]
fn muted_timer_callback() {
    let (server, muted) = serve_muted(
        "function mutedTimerInner_7f3a() { return tb.forceProfilerSample(); }\n\
        setTimeout(function mutedTimerCb_7f3a() { window.mutedRan = mutedTimerInner_7f3a(); }, 0);\n",
    );
    let run = run(
        server,
        &scripts(&[muted.as_str()]),
        r#"waitFor(() => window.mutedRan, () => {
  setTimeout(function visibleTimerCb() { tb.forceProfilerSample(); }, 0);
  waitFor(() => true, () => p.stop().then(t => { window.result = mutedRan + "|" + report(t); }));
});"#,
    );
    let (ran, out) = run.out.split_once('|').unwrap();
    assert_eq!(ran, "1");
    check(out, &[muted.as_str()], &["-", "visibleTimerCb"]);
}

/// Case 3c: a muted script's animation frame and idle callbacks
/// (`requestAnimationFrame`, `requestIdleCallback`, also with a timeout)
/// run while the visible session is started, and Force Sample happens
/// inside them: those samples have no stack. The visible page's own
/// animation frame and idle callbacks sampled the same way have their
/// frames.
#[test]
fn muted_animation_frame_and_idle_callbacks() {
    let (server, muted) = serve_muted(
        "function mutedFrameInner_7f3a() { return tb.forceProfilerSample(); }\n\
        requestAnimationFrame(function mutedFrameCb_7f3a(t) { window.mutedFrame = mutedFrameInner_7f3a(); });\n\
        requestIdleCallback(function mutedIdleCb_7f3a(d) { window.mutedIdle = mutedFrameInner_7f3a(); });\n\
        requestIdleCallback(function mutedIdleTimeoutCb_7f3a(d) { window.mutedIdle2 = mutedFrameInner_7f3a(); }, { timeout: 1 });\n",
    );
    let run = run(
        server,
        &scripts(&[muted.as_str()]),
        r#"waitFor(() => window.mutedFrame && window.mutedIdle && window.mutedIdle2, () => {
  requestAnimationFrame(function visibleFrameCb() {
    tb.forceProfilerSample();
    requestIdleCallback(function visibleIdleCb() {
      tb.forceProfilerSample();
      p.stop().then(t => { window.result = [mutedFrame, mutedIdle, mutedIdle2].join() + "|" + report(t); });
    });
  });
});"#,
    );
    let (ran, out) = run.out.split_once('|').unwrap();
    assert_eq!(ran, "1,1,1");
    check(
        out,
        &[muted.as_str()],
        &["-", "-", "-", "visibleFrameCb", "visibleIdleCb"],
    );
}

/// Case 3b: strings passed to `setTimeout` / `setInterval` by the muted
/// script (directly, through `Reflect.apply`, from a muted function that
/// visible code calls) are code the muted script wrote, like its eval
/// code: the functions they define never appear, on every repeat of the
/// interval too. (Found leaking: the timer compiled them as the page's own
/// inline script, so `mutedStringTimer_7f3a` appeared with the page's URL.)
#[test]
fn muted_string_timer_code() {
    let (mut run, _) = muted_case(
        "setTimeout('function mutedStringTimer_7f3a() { return tb.forceProfilerSample(); }\\n\
                    window.mutedRan = mutedStringTimer_7f3a();', 0);\n\
        window.mutedLater = function mutedLater_7f3a() {\n\
          setTimeout('window.mutedRan2 = (function mutedStringTimer2_7f3a() { return tb.forceProfilerSample(); })();', 0);\n\
          Reflect.apply(setTimeout, window, ['window.mutedRan3 = (function mutedStringTimer3_7f3a() { return tb.forceProfilerSample(); })();', 0]);\n\
          window.mutedInterval = setInterval('window.mutedTicks = (window.mutedTicks | 0) + (function mutedInterval_7f3a() { return tb.forceProfilerSample(); })();\\n\
                                              if (mutedTicks >= 3) clearInterval(mutedInterval);', 0);\n\
        };\n",
        r#"waitFor(() => window.mutedRan, () => {
  (function visibleCaller() { mutedLater(); })();
  waitFor(() => window.mutedRan2 && window.mutedRan3 && window.mutedTicks >= 3, () => {
    (function visibleLast() { tb.forceProfilerSample(); })();
    p.stop().then(t => { window.result = report(t); });
  });
});"#,
        &["-", "-", "-", "-", "-", "-", "visibleLast<<"],
    );
    assert_eq!(
        run.rt
            .evaluate(
                "[mutedRan, mutedRan2, mutedRan3, mutedTicks].join()",
                "c.js",
                1
            )
            .unwrap(),
        "1,1,1,3"
    );
}

/// Case 4: a muted script's event listener (and event handler IDL
/// attribute) on `window`, triggered by visible `dispatchEvent`: the
/// samples forced inside them keep only the visible dispatcher; a visible
/// listener on the same event appears under it.
#[test]
fn muted_event_listener() {
    muted_case(
        "addEventListener('ping', function mutedListener_7f3a(e) { mutedHelper_7f3a(); });\n\
        function mutedHelper_7f3a() { tb.forceProfilerSample(); }\n\
        window.onmessage = function mutedOnMessage_7f3a(e) { window.mutedGot = e.data; tb.forceProfilerSample(); };\n",
        r#"addEventListener("ping", function visibleListener() { tb.forceProfilerSample(); });
function visibleDispatcher() { dispatchEvent(new Event("ping")); }
visibleDispatcher();
postMessage("hi", "*");
waitFor(() => window.mutedGot, () => p.stop().then(t => { window.result = report(t); }));"#,
        &[
            "visibleDispatcher<",
            "visibleListener<visibleDispatcher<",
            "-",
        ],
    );
}

/// Case 4b: a muted script sets event handler content attributes
/// (`setAttribute('onclick', ...)` on an element it makes, and on a page
/// element). HTML compiles a content attribute handler as the document's
/// code ("getting the current value of the event handler": the element's
/// node document's settings object, its URL, muted errors false), whoever
/// set the attribute; Chromium does the same (the handler's source URL is
/// the document's). So a profiler may show the handler's own frame
/// (`onclick`, at the document's URL): its source is in the document's
/// DOM, readable with `getAttribute`. It never shows the muted script's
/// frames the handler calls, nor the muted script's URL.
#[test]
fn muted_script_sets_event_handler_attributes() {
    let (run, r) = muted_case(
        "function mutedHelper_7f3a() { return tb.forceProfilerSample(); }\n\
        const mutedDiv_7f3a = document.createElement('div');\n\
        mutedDiv_7f3a.id = 'm';\n\
        mutedDiv_7f3a.setAttribute('onclick', 'mutedHelper_7f3a(); tb.forceProfilerSample();');\n\
        document.documentElement.appendChild(mutedDiv_7f3a);\n\
        window.mutedClick_7f3a = function () { document.getElementById('m').click(); };\n",
        r#"function visibleClicker() { document.getElementById("m").click(); }
function visibleViaMuted() { mutedClick_7f3a(); }
visibleClicker();
visibleViaMuted();
p.stop().then(t => { window.result = report(t); });"#,
        &[
            "onclick<visibleClicker<",
            "onclick<visibleClicker<",
            "onclick<visibleViaMuted<",
            "onclick<visibleViaMuted<",
        ],
    );
    assert_only_the_page_resource(&run, &r);
}

/// Case 4c: a muted script builds iframes: a cross-origin one (whose
/// script and content attribute handler force samples) and a srcdoc one
/// (same origin as the page, a realm of its own). Neither child's code
/// appears in the page's trace: the forced samples have no stack (the
/// page's realm has no frame on the stack), and no child URL appears.
#[test]
fn muted_script_builds_iframes() {
    let (server, muted) = serve_muted(
        "const mutedFrame_7f3a = document.createElement('iframe');\n\
        mutedFrame_7f3a.src = window.crossChildUrl;\n\
        document.documentElement.appendChild(mutedFrame_7f3a);\n\
        const mutedDoc_7f3a = document.createElement('iframe');\n\
        mutedDoc_7f3a.srcdoc = '<script>function srcdocSecret_7f3a() { new TestBinding().forceProfilerSample(); parent.postMessage(\"srcdoc\", \"*\"); } srcdocSecret_7f3a();<\\/script>';\n\
        document.documentElement.appendChild(mutedDoc_7f3a);\n",
    );
    let child = server.http_url(CROSS, "/child.html");
    server.route("/child.html", |_| {
        TestResponse::ok(
            "<!DOCTYPE html><div id=c onclick=\"childHandler_7f3a()\"></div><script>\n\
             function childHandler_7f3a() { return new TestBinding().forceProfilerSample(); }\n\
             function childSecret_7f3a() { new TestBinding().forceProfilerSample(); document.getElementById('c').click(); }\n\
             childSecret_7f3a(); parent.postMessage('cross', '*');\n\
             </script>"
                .to_owned(),
        )
        .with_content_type("text/html")
    });
    let run = run(
        server,
        &format!(
            "<script>window.crossChildUrl = '{child}'; window.got = [];\n\
             addEventListener('message', e => got.push(e.data));</script>\n{}",
            scripts(&[muted.as_str()])
        ),
        r#"waitFor(() => got.length === 2, () => p.stop().then(t => { window.result = report(t); }));"#,
    );
    let r = check(
        &run.out,
        &[muted.as_str(), child.as_str(), "about:srcdoc"],
        &["-", "-", "-"],
    );
    assert_eq!(r.resources, "[]", "{}", run.out);
}

/// Case 5: a muted script's promise reactions (`.then` callbacks, an async
/// function's continuation, `queueMicrotask`, a generator resumed by
/// visible code) run from microtasks: the samples forced inside them have
/// no stack, or only the visible frames; a visible reaction appears.
#[test]
fn muted_promise_reactions_and_microtasks() {
    muted_case(
        "window.mutedThen = function mutedThen_7f3a(p) {\n\
          return p.then(function mutedReaction_7f3a(v) { tb.forceProfilerSample(); return v; });\n\
        };\n\
        window.mutedAsync = async function mutedAsync_7f3a(p) { await p; tb.forceProfilerSample(); return 2; };\n\
        queueMicrotask(function mutedMicrotask_7f3a() { tb.forceProfilerSample(); });\n\
        window.mutedGen = (function* mutedGen_7f3a() { for (;;) { tb.forceProfilerSample(); yield 1; } })();\n",
        r#"function visibleGen() { return mutedGen.next().value; }
visibleGen();
mutedThen(Promise.resolve(1))
  .then(() => mutedAsync(Promise.resolve()))
  .then(function visibleReaction() {
    tb.forceProfilerSample();
    p.stop().then(t => { window.result = report(t); });
  });"#,
        // The muted script's `queueMicrotask` callback runs in the
        // microtask checkpoint after that script (HTML "clean up after
        // running script"), before the next script: its sample comes first.
        &["-", "next<visibleGen<", "-", "-", "visibleReaction"],
    );
}

/// Case 6: getters, setters, `toString`, `valueOf`, `Symbol.toPrimitive`
/// and a Proxy trap defined by the muted script, triggered by visible
/// code (`obj.x`, `String(obj)`, `+obj`, template literals): only the
/// visible caller appears (and no built-in the conversion goes through
/// when its nearest scripted caller is muted).
#[test]
fn muted_accessors_and_conversion_hooks() {
    muted_case(
        "window.mutedObj = {\n\
          get mutedProp_7f3a() { return tb.forceProfilerSample(); },\n\
          set mutedProp_7f3a(v) { tb.forceProfilerSample(); },\n\
          toString: function mutedToString_7f3a() { tb.forceProfilerSample(); return 's'; },\n\
          valueOf: function mutedValueOf_7f3a() { tb.forceProfilerSample(); return 1; },\n\
        };\n\
        window.mutedPrim = { [Symbol.toPrimitive]: function mutedToPrimitive_7f3a() { tb.forceProfilerSample(); return 'p'; } };\n\
        window.mutedProxy = new Proxy({}, { get: function mutedTrap_7f3a(t, k) { return tb.forceProfilerSample(); } });\n",
        r#"const key = "mutedProp" + "_7f3a";
function visibleGet() { return mutedObj[key]; }
function visibleSet() { mutedObj[key] = 1; }
function visibleString() { return String(mutedObj); }
function visibleNumber() { return +mutedObj; }
function visibleTemplate() { return `${mutedPrim}`; }
function visibleProxy() { return mutedProxy.anything; }
[visibleGet(), visibleSet(), visibleString(), visibleNumber(), visibleTemplate(), visibleProxy()];
p.stop().then(t => { window.result = report(t); });"#,
        &[
            "visibleGet<",
            "visibleSet<",
            "visibleString<",
            "visibleNumber<",
            "visibleTemplate<",
            "visibleProxy<",
        ],
    );
}

/// Case 7: eval (direct, indirect, nested) and `new Function` code created
/// by the muted script, called from visible code: no frame of it (the
/// `new Function` function is named `anonymous`, which must not appear
/// either) and no resource of the form `<muted URL> line N > eval`.
#[test]
fn muted_eval_and_new_function() {
    let (server, muted) = serve_muted(
        "window.mutedDirect = eval('(function mutedEvalFn_7f3a() { return tb.forceProfilerSample(); })');\n\
        window.mutedIndirect = (0, eval)('(function mutedIndirectFn_7f3a() { return tb.forceProfilerSample(); })');\n\
        window.mutedNested = eval('eval(\"(function mutedNestedFn_7f3a() { return tb.forceProfilerSample(); })\")');\n\
        window.mutedFunction = new Function('return tb.forceProfilerSample();');\n\
        window.mutedFunctionInEval = eval('new Function(\"return tb.forceProfilerSample();\")');\n",
    );
    let run = run(
        server,
        &scripts(&[muted.as_str()]),
        r#"function visibleDirect() { return mutedDirect(); }
function visibleIndirect() { return mutedIndirect(); }
function visibleNested() { return mutedNested(); }
function visibleFunction() { return mutedFunction(); }
function visibleFunctionInEval() { return mutedFunctionInEval(); }
[visibleDirect(), visibleIndirect(), visibleNested(), visibleFunction(), visibleFunctionInEval()];
// The control: the page's own eval and new Function code appears.
new Function("return (function visibleEvalFn() { return tb.forceProfilerSample(); })()")();
p.stop().then(t => { window.result = report(t); });"#,
    );
    check(
        &run.out,
        &[muted.as_str(), "not-web-platform"],
        &[
            "visibleDirect<",
            "visibleIndirect<",
            "visibleNested<",
            "visibleFunction<",
            "visibleFunctionInEval<",
            "visibleEvalFn<anonymous<",
        ],
    );
}

/// Case 8: a same-origin script URL that redirects to another origin
/// without CORS is muted (its response URL is cross-origin), and so is
/// one that goes cross-origin and comes back to the page's origin (the
/// response is tainted by the cross-origin hop): their functions are
/// absent, and none of the URLs on the way appears.
#[test]
fn redirected_scripts_are_muted() {
    let server = TestServer::start().unwrap();
    let target = server.http_url(CROSS, "/target.js");
    let back = server.http_url(SAME, "/back.js");
    let via = server.http_url(CROSS, "/via.js");
    let (target_s, back_s) = (target.to_string(), back.to_string());
    server.route("/away.js", move |_| TestResponse::redirect(302, &target_s));
    server.route("/target.js", |_| {
        js("window.mutedAway = function mutedAway_7f3a() { return tb.forceProfilerSample(); };\n")
    });
    server.route("/round.js", {
        let via = via.to_string();
        move |_| TestResponse::redirect(302, &via)
    });
    server.route("/via.js", move |_| TestResponse::redirect(302, &back_s));
    server.route("/back.js", |_| {
        js("window.mutedBack = function mutedBack_7f3a() { return tb.forceProfilerSample(); };\n")
    });
    let run = run(
        server,
        &scripts(&["away.js", "round.js"]),
        r#"function visibleAway() { return mutedAway(); }
function visibleBack() { return mutedBack(); }
[visibleAway(), visibleBack()];
p.stop().then(t => { window.result = report(t); });"#,
    );
    check(
        &run.out,
        &[
            target.as_str(),
            back.as_str(),
            via.as_str(),
            "away.js",
            "round.js",
        ],
        &["visibleAway<", "visibleBack<"],
    );
    // The requests were made (the scripts ran through the redirects).
    assert_eq!(run.server.requests_to("/back.js").len(), 1);
}

/// Case 9: a muted script claiming the page's own URL (absolute and
/// relative) with `//# sourceURL=` and `//@ sourceURL=`: still absent
/// (the resource is the response URL, the muted flag the fetch's).
#[test]
fn muted_script_claiming_a_visible_source_url() {
    let server = TestServer::start().unwrap();
    let muted = server.http_url(CROSS, "/muted.js");
    let muted2 = server.http_url(CROSS, "/muted2.js");
    let href = server.http_url(SAME, "/index.html");
    let claim = href.to_string();
    server.route("/muted.js", move |_| {
        js(&format!(
            "window.mutedClaim = function mutedClaim_7f3a() {{ return tb.forceProfilerSample(); }};\n\
             window.mutedClaimEval = eval('(function mutedClaimEval_7f3a() {{ return tb.forceProfilerSample(); }})\\n//# sourceURL={claim}');\n\
             //# sourceURL={claim}\n"
        ))
    });
    server.route("/muted2.js", |_| {
        js("window.mutedClaim2 = function mutedClaim2_7f3a() { return tb.forceProfilerSample(); };\n\
            //@ sourceURL=index.html\n")
    });
    let run = run(
        server,
        &scripts(&[muted.as_str(), muted2.as_str()]),
        r#"function visibleCaller() { return mutedClaim() + mutedClaimEval() + mutedClaim2(); }
visibleCaller();
p.stop().then(t => { window.result = report(t); });"#,
    );
    let r = check(
        &run.out,
        &[muted.as_str(), muted2.as_str()],
        &["visibleCaller<", "visibleCaller<", "visibleCaller<"],
    );
    assert_eq!(r.resources, resources(&[&href]), "{}", run.out);
}

/// Case 10: realms in both call directions. The parent calls a
/// same-origin iframe's function, which calls back into the parent, where
/// the sample is forced: the parent's trace has the parent's frames and
/// none of the iframe's; the iframe's own profiler (sampled by the same
/// Force Sample) has the iframe's frame and none of the parent's.
#[test]
fn other_realms_in_both_directions() {
    let server = TestServer::start().unwrap();
    let frame_url = server.http_url(SAME, "/frame.html");
    server.route("/frame.html", |_| {
        html_with_policy(&format!(
            "<!DOCTYPE html>{HELPERS}<script>\n\
             window.fp = new Profiler({SLOW});\n\
             function frameMiddle_7f3a() {{ return parent.parentLeaf(); }}\n\
             addEventListener(\"go\", function frameOuter_7f3a() {{ return parent.parentMiddle(); }});\n\
             </script>"
        ))
    });
    let run = run(
        server,
        r#"<iframe src="frame.html"></iframe>"#,
        r#"function parentLeaf() { return tb.forceProfilerSample(); }
function parentMiddle() { return tb.forceProfilerSample(); }
function parentOuter() { return frames[0].frameMiddle_7f3a(); }
addEventListener("load", function parentOnLoad() {
  const w = frames[0];
  parentOuter();
  // The iframe calls the parent: the sample is forced in the parent's function.
  w.dispatchEvent(new w.Event("go"));
  Promise.all([p.stop(), w.fp.stop()]).then(([pt, ft]) => {
    window.result = report(pt) + "\n" + w.report(ft).replace(/_7f3a/g, "_IFRAME");
  });
});"#,
    );
    let out = &run.out;
    let (parent, frame) = out.split_once('\n').unwrap();
    let href = run.server.http_url(SAME, "/index.html");
    let pr = parse(parent, &[frame_url.as_str()]);
    assert_eq!(
        pr.stacks,
        [
            "parentLeaf<parentOuter<parentOnLoad",
            "parentMiddle<parentOnLoad"
        ],
        "{out}"
    );
    assert_eq!(pr.resources, resources(&[&href]), "{out}");
    // The iframe's trace: its own frames (renamed by the page so that
    // `parse` can look for the parent's names), never the parent's.
    let fr = parse(frame, &[href.as_str()]);
    assert!(!fr.json.contains("parent"), "{out}");
    assert_eq!(
        fr.stacks,
        ["frameMiddle_IFRAME", "frameOuter_IFRAME"],
        "{out}"
    );
    assert_eq!(fr.resources, resources(&[&frame_url]), "{out}");
}

/// Case 10b: one frame runs the animation frame callbacks of the parent
/// and of a same-origin iframe (the parent's first), each forcing a
/// sample: the parent's trace has the parent's callback and none of the
/// iframe's frames or URL; the iframe's trace has its callback and none of
/// the parent's.
#[test]
fn animation_frame_callbacks_of_other_realms_in_one_frame() {
    let server = TestServer::start().unwrap();
    let frame_url = server.http_url(SAME, "/frame.html");
    server.route("/frame.html", |_| {
        html_with_policy(&format!(
            "<!DOCTYPE html>{HELPERS}<script>\n\
             window.fp = new Profiler({SLOW});\n\
             window.startFrames = function frameStart_7f3a() {{\n\
               requestAnimationFrame(function frameCb_7f3a() {{ tb.forceProfilerSample(); }});\n\
             }};\n\
             </script>"
        ))
    });
    let run = run(
        server,
        r#"<iframe src="frame.html"></iframe>"#,
        r#"addEventListener("load", function parentOnLoad() {
  const w = frames[0];
  requestAnimationFrame(function parentFrameCb() { tb.forceProfilerSample(); });
  w.startFrames();
  requestAnimationFrame(function parentNextFrame() {
    requestAnimationFrame(function parentLastFrame() {
      Promise.all([p.stop(), w.fp.stop()]).then(([pt, ft]) => {
        window.result = report(pt) + "\n" + w.report(ft).replace(/_7f3a/g, "_IFRAME");
      });
    });
  });
});"#,
    );
    let out = &run.out;
    let (parent, frame) = out.split_once('\n').unwrap();
    let href = run.server.http_url(SAME, "/index.html");
    // (`parse` fails on any `_7f3a` name or the iframe's URL.)
    let pr = parse(parent, &[frame_url.as_str()]);
    assert!(pr.stacks.iter().any(|s| s == "parentFrameCb"), "{out}");
    assert_eq!(pr.resources, resources(&[&href]), "{out}");
    let fr = parse(frame, &[href.as_str()]);
    assert!(!fr.json.contains("parent"), "{out}");
    assert!(fr.stacks.iter().any(|s| s == "frameCb_IFRAME"), "{out}");
    assert_eq!(fr.resources, resources(&[&frame_url]), "{out}");
}

/// Case 11, the control: a CORS-enabled cross-origin script (the
/// `crossorigin` attribute and `Access-Control-Allow-Origin`) is visible:
/// its functions appear with its URL, around and under the visible caller.
/// Proves the tests above can see cross-origin frames at all.
#[test]
fn cors_enabled_cross_origin_script_is_visible() {
    let server = TestServer::start().unwrap();
    let cors = server.http_url(CROSS, "/cors.js");
    server.route("/cors.js", |r| {
        js("function corsLeaf() { return tb.forceProfilerSample(); }\n\
            window.corsEntry = function corsEntry(cb) { return cb ? [1].map(cb)[0] : corsLeaf(); };\n")
        .with_cors_echo(r)
    });
    let run = run(
        server,
        &format!(r#"<script src="{cors}" crossorigin></script>"#),
        r#"function visibleCaller() { return corsEntry(); }
function visibleCallback() { return tb.forceProfilerSample(); }
function visibleCallsBack() { return corsEntry(visibleCallback); }
[visibleCaller(), visibleCallsBack()];
p.stop().then(t => { window.result = report(t); });"#,
    );
    let r = check(
        &run.out,
        &[],
        &[
            "corsLeaf<corsEntry<visibleCaller<",
            "visibleCallback<map<corsEntry<visibleCallsBack<",
        ],
    );
    let href = run.server.http_url(SAME, "/index.html");
    assert_eq!(r.resources, resources(&[&href, &cors]), "{}", run.out);
}

/// Case 12: a muted script that inserts further scripts
/// (<https://html.spec.whatwg.org/multipage/scripting.html#prepare-the-script-element>
/// for script-inserted scripts). Each inserted script is fetched with the
/// document as its client, as a parser-inserted one would be:
///
/// * a cross-origin script it inserts without `crossOrigin` is muted too
///   (no frame, no URL of it), whether async or in order (`async = false`);
/// * a same-origin script it inserts is the page's own (visible, under its
///   own URL), and so is a CORS-enabled one (`crossOrigin = "anonymous"`
///   with `Access-Control-Allow-Origin`);
/// * an inline script it inserts is the document's (HTML creates it with
///   the document's settings object and no muted errors; Chromium does the
///   same): visible under the document's URL. The muted script chose to
///   expose that text; its own frames (the inserting function) stay hidden
///   even though the inline script runs inside its `appendChild` call.
#[test]
fn muted_script_inserting_scripts() {
    let server = TestServer::start().unwrap();
    let muted = server.http_url(CROSS, "/muted.js");
    let muted2 = server.http_url(CROSS, "/muted2.js");
    let cors = server.http_url(CROSS, "/cors2.js");
    let same = server.http_url(SAME, "/same.js");
    // Inserted through a redirect: the trace names the response URL.
    let same_redirect = server.http_url(SAME, "/same-redirect.js");
    let inserter = format!(
        "function mutedInsert_7f3a(src, inOrder, cors) {{\n\
           const s = document.createElement('script');\n\
           if (inOrder) s.async = false;\n\
           if (cors) s.crossOrigin = 'anonymous';\n\
           s.src = src;\n\
           s.onload = function mutedOnload_7f3a() {{ window.loaded = (window.loaded || 0) + 1; tb.forceProfilerSample(); }};\n\
           document.head.appendChild(s);\n\
         }}\n\
         function mutedInline_7f3a() {{\n\
           const s = document.createElement('script');\n\
           s.text = 'function inlineFromMuted() {{ return tb.forceProfilerSample(); }} inlineFromMuted();';\n\
           document.head.appendChild(s);\n\
         }}\n\
         window.mutedEntry = function mutedEntry_7f3a() {{\n\
           mutedInsert_7f3a('{muted2}', false, false);\n\
           mutedInsert_7f3a('{muted2}?in-order', true, false);\n\
           mutedInsert_7f3a('{same_redirect}', true, false);\n\
           mutedInsert_7f3a('{cors}', true, true);\n\
           mutedInline_7f3a();\n\
         }};\n"
    );
    server.route("/muted.js", move |_| js(&inserter));
    server.route("/muted2.js", |_| {
        js("function muted2Secret_7f3a() { tb.forceProfilerSample(); window.visibleCallback(); }\n\
            muted2Secret_7f3a();\n")
    });
    server.route("/same-redirect.js", |_| {
        TestResponse::redirect(302, "/same.js")
    });
    server.route("/same.js", |_| {
        js("// line 1\nfunction sameOriginInserted() { return tb.forceProfilerSample(); }\nsameOriginInserted();\n")
    });
    server.route("/cors2.js", |r| {
        js("function corsInserted() { return tb.forceProfilerSample(); }\ncorsInserted();\n")
            .with_cors_echo(r)
    });
    let run = run(
        server,
        &scripts(&[muted.as_str()]),
        r#"window.visibleCallback = function visibleCallback() { return tb.forceProfilerSample(); };
function visibleCaller() { mutedEntry(); }
visibleCaller();
waitFor(() => window.loaded === 4, () => p.stop().then(t => { window.result = report(t); }));"#,
    );
    // The fetched scripts run from tasks in completion order (the async
    // one), so the samples are compared sorted.
    let r = parse(&run.out, &[muted.as_str(), muted2.as_str()]);
    let mut stacks = r.stacks.clone();
    stacks.sort();
    let mut expected = vec![
        // The inline script, run inside the muted `appendChild` call: its
        // own frames and the visible caller, nothing between.
        "inlineFromMuted<<visibleCaller<",
        // muted2.js twice: the sample inside it has no visible frame, the
        // visible callback it calls appears alone.
        "-",
        "visibleCallback",
        "-",
        "visibleCallback",
        // The same-origin and the CORS-enabled script it inserted (under
        // their top-level script frame).
        "sameOriginInserted<",
        "corsInserted<",
        // The muted onload listener, four times.
        "-",
        "-",
        "-",
        "-",
    ];
    expected.sort();
    assert_eq!(stacks, expected, "{}", run.out);
    let href = run.server.http_url(SAME, "/index.html");
    for url in [&href, &same, &cors] {
        assert!(
            r.resources.contains(&format!("\"{url}\"")),
            "{url} missing: {}",
            r.resources
        );
    }
    assert!(!r.json.contains("same-redirect"), "{}", r.json);
    // 1-based positions in the inserted file, as for a parser-inserted
    // script (the function is declared on line 2); the inline script's
    // lines count from its own first line.
    assert!(
        r.json.contains(r#""line":2,"name":"sameOriginInserted""#),
        "{}",
        r.json
    );
    assert!(
        r.json.contains(r#""line":1,"name":"inlineFromMuted""#),
        "{}",
        r.json
    );
}

/// Case 13, modules: a muted classic script calls `import()` on a
/// same-origin module and on a CORS-enabled cross-origin module, then
/// calls into them from its own promise reactions. The modules' code runs
/// in the modules' scripts, so it is attributed to them (their response
/// URLs, their function names, top-level code included); the muted
/// caller and its URL never appear. The third module, cross-origin
/// without `Access-Control-Allow-Origin`, is a network error: `import()`
/// rejects, it never runs, and nothing of it appears.
#[test]
fn modules_imported_by_a_muted_script() {
    let (server, muted) = serve_muted(
        "window.mutedImport = function mutedImport_7f3a(url) {\n\
           return import(url).then(function mutedThen_7f3a(m) { return m.work(); });\n\
         };\n",
    );
    let same = server.http_url(SAME, "/same-module.js");
    let cors = server.http_url(CROSS, "/cors-module.js");
    let no_cors = server.http_url(CROSS, "/nocors-module_7f3a.js");
    server.route("/same-module.js", |_| {
        js("function sameTop() { tb.forceProfilerSample(); }\n\
            sameTop();\n\
            export function work() { return sameWork(); }\n\
            function sameWork() { return tb.forceProfilerSample(); }\n")
    });
    server.route("/cors-module.js", |r| {
        js("export function work() { return corsModuleWork(); }\n\
            function corsModuleWork() { return tb.forceProfilerSample(); }\n")
        .with_cors_echo(r)
    });
    server.route("/nocors-module_7f3a.js", |_| {
        js(
            "function noCorsModule_7f3a() { tb.forceProfilerSample(); }\n\
            noCorsModule_7f3a(); window.noCorsRan = true;\n\
            export function work() { noCorsModule_7f3a(); }\n",
        )
    });
    let run = run(
        server,
        &scripts(&[muted.as_str()]),
        &format!(
            r#"mutedImport("{same}")
  .then(() => mutedImport("{cors}"))
  .then(() => mutedImport("{no_cors}"))
  .then(() => "resolved", e => e.name)
  .then(outcome => p.stop().then(t => {{ window.result = outcome + "|" + window.noCorsRan + "|" + report(t); }}));"#
        ),
    );
    let (outcome, rest) = run.out.split_once('|').unwrap();
    let (ran, report) = rest.split_once('|').unwrap();
    assert_eq!(outcome, "TypeError", "{}", run.out);
    assert_eq!(ran, "undefined", "the no-CORS module never ran");
    let r = check(
        report,
        &[muted.as_str(), no_cors.as_str()],
        &["sameTop<", "sameWork<work", "corsModuleWork<work"],
    );
    assert_eq!(r.resources, resources(&[&same, &cors]), "{}", run.out);
}

/// Case 14, a cross-origin module script served without CORS, as a
/// `<script type="module">` and through a visible `import()`: a network
/// error (`error` event, rejected import), never run, absent from the
/// trace; the visible code around it is sampled.
#[test]
fn cross_origin_module_without_cors_never_runs() {
    let server = TestServer::start().unwrap();
    let no_cors = server.http_url(CROSS, "/secret-module_7f3a.js");
    server.route("/secret-module_7f3a.js", |_| {
        js(
            "function secretModule_7f3a() { tb.forceProfilerSample(); }\n\
            secretModule_7f3a(); window.secretRan = true;\n",
        )
    });
    let run = run(
        server,
        &format!(
            r#"<script type="module" src="{no_cors}" id="m"></script>
<script>document.getElementById("m").addEventListener("error", () => {{ window.elementError = true; }});</script>"#
        ),
        &format!(
            r#"function visibleCaller() {{ return tb.forceProfilerSample(); }}
import("{no_cors}").then(() => "resolved", e => e.name).then(outcome => {{
  visibleCaller();
  waitFor(() => window.elementError, () => p.stop().then(t => {{
    window.result = outcome + "|" + window.secretRan + "|" + report(t);
  }}));
}});"#
        ),
    );
    let (outcome, rest) = run.out.split_once('|').unwrap();
    let (ran, report) = rest.split_once('|').unwrap();
    assert_eq!(outcome, "TypeError");
    assert_eq!(ran, "undefined");
    let r = check(report, &[no_cors.as_str()], &["visibleCaller<"]);
    assert_only_the_page_resource(&run, &r);
}

/// Case 14: a muted script's MutationObserver callback, run by "notify
/// mutation observers" at microtask timing after visible code mutated the
/// tree, and a `<script>` the muted script inserts through `innerHTML`
/// (which must never run): the sample forced in the muted callback has no
/// stack, the visible observer's appears, and the injected script adds no
/// sample.
#[test]
fn muted_mutation_observer_and_inner_html() {
    let (mut run, _) = muted_case(
        "const mutedHost_7f3a = document.createElement('div');\n\
        document.documentElement.appendChild(mutedHost_7f3a);\n\
        window.mutedObserver_7f3a = new MutationObserver(function mutedCallback_7f3a() { tb.forceProfilerSample(); });\n\
        mutedObserver_7f3a.observe(document.documentElement, { childList: true, subtree: true });\n\
        window.mutedInject_7f3a = function () {\n\
          mutedHost_7f3a.innerHTML = '<script>tb.forceProfilerSample(); window.injected_7f3a = 1;<\\/script><b onclick=\"tb.forceProfilerSample()\">x</b>';\n\
        };\n",
        r#"function visibleObserver() {
  tb.forceProfilerSample();
  window.injected = typeof window.injected_7f3a;
  p.stop().then(t => { window.result = report(t); });
}
new MutationObserver(visibleObserver).observe(document.documentElement, { childList: true, subtree: true });
function visibleMutate() { mutedInject_7f3a(); document.documentElement.appendChild(document.createElement('span')); }
visibleMutate();"#,
        &["-", "visibleObserver"],
    );
    let injected = run.rt.evaluate("window.injected", "check.js", 1).unwrap();
    assert_eq!(injected, "undefined", "a script inserted by innerHTML ran");
}

/// Case 10c: calls through WindowProxy objects, in both directions. A
/// same-origin iframe made by script, profiling, calls the parent's
/// functions through `parent`, `top` and `parent.frames[0].parent`, and
/// through a parent function that calls back into the iframe: the
/// iframe's trace has only its own frames (the parent's are cut out, its
/// URL absent), and the parent's trace only the parent's. Then the parent, profiling, tries to reach a cross-origin
/// iframe's functions through that iframe's WindowProxy (get, call,
/// descriptor, `Reflect.get`, an inherited method), each a
/// "SecurityError", and posts it a message whose listener forces a
/// sample: that sample has no stack and nothing of the iframe appears.
#[test]
fn window_proxies_in_both_directions() {
    let server = TestServer::start().unwrap();
    let same_url = server.http_url(SAME, "/same.html");
    let cross_url = server.http_url(CROSS, "/cross.html");
    server.route("/same.html", |_| {
        html_with_policy(&format!(
            "<!DOCTYPE html>{HELPERS}<script>\n\
             window.fp = new Profiler({SLOW});\n\
             function childViaParent() {{ return parent.parentSecret_7f3a(); }}\n\
             function childViaTop() {{ return top.parentSecret_7f3a(); }}\n\
             function childViaFrames() {{ return parent.frames[0].parent.parentSecret_7f3a(); }}\n\
             function childCallback() {{ return parent.parentCallsBack_7f3a(function childLeaf() {{ return tb.forceProfilerSample(); }}); }}\n\
             function childRun() {{ childViaParent(); childViaTop(); childViaFrames(); childCallback(); }}\n\
             </script>"
        ))
    });
    server.route("/cross.html", |_| {
        html_with_policy(
            "<!DOCTYPE html><script>\n\
             const tb_7f3a = new TestBinding();\n\
             function childSecret_7f3a() { return tb_7f3a.forceProfilerSample(); }\n\
             window.childSecret_7f3a = childSecret_7f3a;\n\
             addEventListener('message', function childOnMessage_7f3a() {\n\
               childSecret_7f3a(); parent.postMessage('done', '*');\n\
             });\n\
             </script>",
        )
    });
    let run = run(
        server,
        "",
        &format!(
            r#"function parentSecret_7f3a() {{ return tb.forceProfilerSample(); }}
function parentCallsBack_7f3a(f) {{ return f(); }}
function parentTry(f) {{ try {{ f(); return "ok"; }} catch (e) {{ return e.name; }} }}
const same = document.createElement("iframe");
same.src = "{same_url}";
const cross = document.createElement("iframe");
cross.src = "{cross_url}";
let loaded = 0;
same.onload = cross.onload = function parentOnLoad_7f3a() {{
  if (++loaded < 2) return;
  const s = same.contentWindow;
  s.childRun();
  s.fp.stop().then(function parentStopped_7f3a(ft) {{
    window.childTrace = s.report(ft);
    const w = cross.contentWindow;
    window.tries = [
      parentTry(() => w.childSecret_7f3a()),
      parentTry(() => Object.getOwnPropertyDescriptor(w, "childSecret_7f3a").value()),
      parentTry(() => Reflect.get(w, "childSecret_7f3a")),
      parentTry(() => w.addEventListener("x", () => {{}})),
      parentTry(() => frames[1].childSecret_7f3a()),
    ].join();
    addEventListener("message", function parentOnDone() {{
      tb.forceProfilerSample();
      // The parent's own functions are visible in its trace: renamed, so
      // that `parse` looks for the iframe's.
      p.stop().then(t => {{
        window.result = tries + "\n" + childTrace + "\n" + report(t).replace(/(parent\w*)_7f3a/g, "$1_PARENT");
      }});
    }});
    w.postMessage("go", "*");
  }});
}};
document.documentElement.appendChild(same);
document.documentElement.appendChild(cross);"#
        ),
    );
    let out = &run.out;
    let mut parts = out.splitn(3, '\n');
    let tries = parts.next().unwrap();
    let child = parts.next().expect("the iframe's trace");
    let parent = parts.next().expect("the parent's trace");
    assert_eq!(
        tries, "SecurityError,SecurityError,SecurityError,SecurityError,SecurityError",
        "{out}"
    );
    let href = run.server.http_url(SAME, "/index.html");
    // The same-origin iframe's trace: its frames only, never the parent's
    // (`parse` fails on a `_7f3a` name or the parent's URL).
    let cr = parse(child, &[href.as_str()]);
    assert_eq!(
        cr.stacks,
        [
            "childViaParent<childRun",
            "childViaTop<childRun",
            "childViaFrames<childRun",
            "childLeaf<childCallback<childRun"
        ],
        "{out}"
    );
    assert_eq!(cr.resources, resources(&[&same_url]), "{out}");
    // The parent's trace: the sample forced in the cross-origin iframe's
    // listener has no stack; the parent's own has its frame; nothing of
    // the iframe (`parse` fails on its URL or a `_7f3a` name).
    let pr = parse(parent, &[cross_url.as_str(), same_url.as_str()]);
    let via_parent = "parentSecret_PARENT<parentOnLoad_PARENT";
    assert_eq!(
        pr.stacks,
        [
            via_parent,
            via_parent,
            via_parent,
            "parentCallsBack_PARENT<parentOnLoad_PARENT",
            "-",
            "parentOnDone"
        ],
        "{out}"
    );
    assert_eq!(pr.resources, resources(&[&href]), "{out}");
}
