//! How a script comes to have muted errors, or not: redirects, a
//! `//# sourceURL` claiming a visible URL, CORS, scripts and modules a
//! muted script inserts or imports, cross-origin modules without CORS.

use super::{assert_only_the_page_resource, check, resources, run, scripts, serve_muted};
use crate::common::{js, parse_report as parse, CROSS, SAME};
use jsprof_test_server::{TestResponse, TestServer};

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
