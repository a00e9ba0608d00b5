//! Code of a script with muted errors run in every way a page can make
//! it run: called from visible code, calling built-ins, as timer,
//! animation frame, idle, event listener and event handler callbacks,
//! promise reactions, accessors and conversion hooks, `eval` and
//! `new Function`, mutation observers and `innerHTML`.

use super::{assert_only_the_page_resource, check, muted_case, run, scripts, serve_muted};

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
