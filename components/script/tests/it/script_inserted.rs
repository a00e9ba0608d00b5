//! Script-inserted classic scripts (HTML's "prepare the script element"
//! for scripts a page creates and inserts), `load` / `error` events,
//! `document.currentScript`, the `crossOrigin` attribute, hostile input,
//! and HTML's error reporting (`window.onerror` as `OnErrorEventHandler`,
//! `reportError()`), on pages served by the loopback test server with two
//! origins. Expected behaviour checked against headless Chromium (see each
//! test).

use std::time::Duration;

use crate::common;
use crate::common::{html, js, load, CROSS, SAME};
use jsprof_script::JsRuntime;
use jsprof_test_server::{TestResponse, TestServer};

fn eval(rt: &mut JsRuntime, source: &str) -> String {
    rt.evaluate(source, "check.js", 1).unwrap()
}

fn log(rt: &mut JsRuntime) -> String {
    eval(rt, "window.log.join(',')")
}

/// Serves `body` as /index.html of the same origin (after a `window.log`
/// and a `insert(src, attrs)` helper) and loads it to idle.
fn page(server: &TestServer, body: &str) -> JsRuntime {
    let body = format!(
        "<!DOCTYPE html><script>window.log = [];\n\
         function insert(src, f) {{\n\
           const s = document.createElement('script');\n\
           if (f) f(s);\n\
           s.src = src;\n\
           s.onload = () => log.push('load:' + src);\n\
           s.onerror = () => log.push('error:' + src);\n\
           document.head.appendChild(s);\n\
           return s;\n\
         }}</script>\n{body}"
    );
    server.route("/index.html", move |_| html(&body));
    load(server, &server.http_url(SAME, "/index.html"))
}

/// An external script inserted by `appendChild` is fetched and run, then
/// gets `load`; it is async by default (force async) and
/// `document.currentScript` is the element while it runs and null after.
/// (Chromium: `true,ran:true,load:/a.js,null`.)
#[test]
fn appended_external_script_runs_and_fires_load() {
    let server = TestServer::start().unwrap();
    server.route("/a.js", |_| {
        js("log.push('ran:' + (document.currentScript === window.s));")
    });
    let mut rt = page(
        &server,
        "<script>window.s = document.createElement('script');\n\
         log.push(s.async);\n\
         s.src = '/a.js';\n\
         s.onload = () => { log.push('load:' + new URL(s.src).pathname); log.push(String(document.currentScript)); };\n\
         document.body ? document.body.appendChild(s) : document.head.appendChild(s);</script>",
    );
    assert_eq!(log(&mut rt), "true,ran:true,load:/a.js,null");
    assert!(rt.reported_errors().is_empty());
}

/// An inline script runs synchronously inside `appendChild` /
/// `insertBefore` / `replaceChild`, with `currentScript` set; the outer
/// script's `currentScript` is restored afterwards.
#[test]
fn inline_scripts_run_during_insertion() {
    let server = TestServer::start().unwrap();
    let mut rt = page(
        &server,
        "<script id=outer>\n\
         const a = document.createElement('script');\n\
         a.id = 'a';\n\
         a.text = \"log.push('a:' + document.currentScript.id)\";\n\
         document.head.appendChild(a);\n\
         log.push('after-a:' + document.currentScript.id);\n\
         const b = document.createElement('script');\n\
         b.textContent = \"log.push('b')\";\n\
         document.head.insertBefore(b, a);\n\
         const c = document.createElement('script');\n\
         c.appendChild(document.createTextNode(\"log.push('c')\"));\n\
         document.head.replaceChild(c, a);\n\
         log.push(a.parentNode === null);\n\
         </script>",
    );
    assert_eq!(log(&mut rt), "a:a,after-a:outer,b,c,true");
}

/// A script runs once: moving it, changing its text or its `src` after it
/// started does nothing; a script that is not connected does not run until
/// it becomes connected (with its ancestor).
#[test]
fn already_started_and_connection() {
    let server = TestServer::start().unwrap();
    server.route("/b.js", |_| js("log.push('b.js')"));
    let mut rt = page(
        &server,
        "<script>\n\
         const div = document.createElement('div');\n\
         const s = document.createElement('script');\n\
         s.text = \"log.push('ran')\";\n\
         div.appendChild(s);\n\
         log.push('detached');\n\
         document.head.appendChild(div);\n\
         document.head.appendChild(s);\n\
         s.text = \"log.push('again')\";\n\
         s.src = '/b.js';\n\
         log.push('end');\n\
         </script>",
    );
    assert_eq!(log(&mut rt), "detached,ran,end");
}

/// The other triggers: an empty connected script runs when it gets text
/// (children changed steps) or a `src` (attribute change steps).
#[test]
fn children_changed_and_src_set_later() {
    let server = TestServer::start().unwrap();
    server.route("/late.js", |_| js("log.push('late.js')"));
    let mut rt = page(
        &server,
        "<script>\n\
         const e = document.createElement('script');\n\
         document.head.appendChild(e);\n\
         log.push('empty');\n\
         e.appendChild(document.createTextNode(\"log.push('text')\"));\n\
         const f = document.createElement('script');\n\
         document.head.appendChild(f);\n\
         f.onload = () => log.push('load');\n\
         f.setAttribute('src', '/late.js');\n\
         log.push('set');\n\
         </script>",
    );
    assert_eq!(log(&mut rt), "empty,text,set,late.js,load");
}

/// `async = false` puts script-inserted scripts in the list of scripts
/// that will execute in order as soon as possible: a slow first script
/// still runs first; async ones are not waited for.
#[test]
fn async_false_scripts_run_in_insertion_order() {
    let server = TestServer::start().unwrap();
    server.route("/slow.js", |_| {
        js("log.push('slow')").stall_before_body(Duration::from_millis(300))
    });
    server.route("/fast.js", |_| js("log.push('fast')"));
    server.route("/fast2.js", |_| js("log.push('fast2')"));
    let mut rt = page(
        &server,
        "<script>\n\
         for (const src of ['/slow.js', '/fast.js', '/fast2.js']) {\n\
           const s = document.createElement('script');\n\
           s.async = false;\n\
           s.src = src;\n\
           document.head.appendChild(s);\n\
         }\n\
         onload = () => log.push('window-load');\n\
         </script>",
    );
    assert_eq!(log(&mut rt), "slow,fast,fast2,window-load");
}

/// Hostile and broken input: a 404, an unparsable URL, an empty `src`, a
/// syntax error, a runtime error, a `text/plain` response (run: a classic
/// script has no MIME type check without `nosniff`, as in Chromium), a
/// non-script `type` (never run), `nomodule` (never run).
#[test]
fn broken_scripts_end_with_the_right_events() {
    let server = TestServer::start().unwrap();
    server.route("/404.js", |_| TestResponse::not_found());
    server.route("/syntax.js", |_| js("log.push('never' ;"));
    server.route("/throws.js", |_| js("log.push('throws'); null.x;"));
    server.route("/plain.js", |_| {
        TestResponse::ok("log.push('plain')").with_content_type("text/plain")
    });
    let mut rt = page(
        &server,
        "<script>\n\
         addEventListener('error', e => log.push('window-error:' + new URL(e.filename).pathname + ':' + e.lineno));\n\
         insert('/404.js');\n\
         insert('http://[::1');\n\
         insert('');\n\
         insert('/syntax.js');\n\
         insert('/throws.js');\n\
         insert('/plain.js');\n\
         insert('/404.js?data', s => s.type = 'text/plain');\n\
         insert('/404.js?nomodule', s => s.noModule = true);\n\
         onload = () => log.push('window-load');\n\
         </script>",
    );
    let mut events: Vec<String> = log(&mut rt).split(',').map(str::to_owned).collect();
    // The async scripts finish in any order; sort all but the last entry.
    assert_eq!(events.pop().as_deref(), Some("window-load"));
    events.sort();
    assert_eq!(
        events,
        [
            "error:",
            "error:/404.js",
            "error:http://[::1",
            "load:/plain.js",
            "load:/syntax.js",
            "load:/throws.js",
            "plain",
            "throws",
            "window-error:/syntax.js:1",
            "window-error:/throws.js:1",
        ]
    );
    let errors = rt.reported_errors();
    assert_eq!(errors.len(), 2, "{errors:?}");
}

/// A page inserting 10,000 scripts ends: 5,000 inline ones run at once,
/// 5,000 external ones (half of them 404) are fetched by the bounded pool
/// and each ends with exactly one event (`load` after it ran, or `error`:
/// the 404s, and any request the loaded test server drops).
#[test]
fn ten_thousand_inserted_scripts_end_cleanly() {
    let server = TestServer::start().unwrap();
    server.route("/count.js", |_| js("window.external++;"));
    server.route("/missing.js", |_| TestResponse::not_found());
    let mut rt = page(
        &server,
        "<script>\n\
         window.inline = 0; window.external = 0; window.loads = 0; window.errors = 0;\n\
         for (let i = 0; i < 5000; i++) {\n\
           const s = document.createElement('script');\n\
           s.text = 'window.inline++';\n\
           document.head.appendChild(s);\n\
           const e = document.createElement('script');\n\
           e.src = (i % 2 ? '/count.js?' : '/missing.js?') + i;\n\
           e.onload = () => window.loads++;\n\
           e.onerror = () => window.errors++;\n\
           document.head.appendChild(e);\n\
         }\n\
         </script>",
    );
    assert_eq!(
        eval(
            &mut rt,
            "[inline, loads + errors, external === loads, errors >= 2500].join()"
        ),
        "5000,5000,true,true"
    );
}

/// `crossOrigin` decides the request mode, and the document component
/// decides the muted flag as for parser-inserted scripts: no `crossOrigin`
/// loads a cross-origin script with muted errors ("Script error.", empty
/// file name, 0, 0, null error); `anonymous` with an
/// `Access-Control-Allow-Origin` header is not muted; `anonymous` without
/// one is a network error (`error` event, nothing runs).
#[test]
fn cross_origin_attribute_decides_cors_and_muted_errors() {
    let server = TestServer::start().unwrap();
    let origin = server.http_url(SAME, "/").origin().ascii_serialization();
    server.route("/throw-nocors.js", |_| {
        js("throw new Error('secret detail')")
    });
    server.route("/throw-cors.js", move |_| {
        js("throw new Error('visible detail')").with_cors(&origin)
    });
    let nocors = server.http_url(CROSS, "/throw-nocors.js");
    let cors = server.http_url(CROSS, "/throw-cors.js");
    let mut rt = page(
        &server,
        &format!(
            "<script>\n\
             window.onerror = (message, source, lineno, colno, error) => {{\n\
               log.push([message, source, lineno, colno, error === null ? 'null' : typeof error].join('|'));\n\
             }};\n\
             insert('{nocors}', s => {{ s.async = false; }});\n\
             insert('{cors}', s => {{ s.async = false; s.crossOrigin = 'anonymous'; }});\n\
             insert('{nocors}?2', s => {{ s.async = false; s.crossOrigin = 'anonymous'; }});\n\
             </script>"
        ),
    );
    assert_eq!(
        log(&mut rt),
        format!(
            "Script error.||0|0|null,load:{nocors},\
             Error: visible detail|{cors}|1|7|object,load:{cors},\
             error:{nocors}?2"
        )
    );
}

/// `window.onerror` is an `OnErrorEventHandler`: five arguments, `this` the
/// window; returning true cancels the event (a later listener sees
/// `defaultPrevented`), returning false does not. `reportError()` reports
/// a value as an uncaught exception would. (Chromium:
/// `Uncaught Error: boom|<page>|3|...|true`.)
#[test]
fn window_onerror_gets_five_arguments_and_true_cancels() {
    let server = TestServer::start().unwrap();
    let mut rt = page(
        &server,
        "<script>\n\
         window.onerror = function (message, source, lineno, colno, error) {\n\
           log.push([this === window, typeof message, new URL(source).pathname, lineno, colno > 0, error && error.message].join('|'));\n\
           return error && error.message === 'cancel me';\n\
         };\n\
         addEventListener('error', e => log.push('prevented:' + e.defaultPrevented));\n\
         reportError(new Error('cancel me'));\n\
         reportError(new Error('keep me'));\n\
         log.push(typeof onerror, onerror.length);\n\
         onerror = 'not a function';\n\
         log.push(String(onerror));\n\
         </script>",
    );
    assert_eq!(
        log(&mut rt),
        "true|string|/index.html|17|true|cancel me,prevented:true,\
         true|string|/index.html|18|true|keep me,prevented:false,\
         function,5,null"
    );
    // Both were reported (recorded); only the second reached the console.
    assert_eq!(rt.reported_errors().len(), 2);
}

/// A worker's `self.onerror` is an `OnErrorEventHandler` too, and
/// `reportError()` exists in workers.
#[test]
fn worker_onerror_gets_five_arguments() {
    let server = TestServer::start().unwrap();
    server.route("/w.js", |_| {
        js("self.onerror = (m, s, l, c, e) => { postMessage([m, new URL(s).pathname, l, c > 0, e.message].join('|')); return true; };\n\
            reportError(new Error('from worker'));")
    });
    let mut rt = page(
        &server,
        "<script>\n\
         const w = new Worker('/w.js');\n\
         w.onmessage = e => log.push(e.data);\n\
         w.onerror = () => log.push('reached the owner (unexpected)');\n\
         </script>",
    );
    assert_eq!(log(&mut rt), "Error: from worker|/w.js|2|true|from worker");
}

/// A muted script's `reportError()` reaches `onerror` as "Script error."
/// with an empty source, zeros and a null error; an inline script it
/// inserts is the document's (not muted: HTML creates it with the
/// document's settings), its error visible under the document's URL with
/// lines counted from the inline script's first line. (Chromium, same
/// page: `Uncaught TypeError: ...|<page URL>|1|6|TypeError: ...` then
/// `Script error.||0|0|null`.)
#[test]
fn muted_report_error_is_script_error_but_its_inline_scripts_are_not_muted() {
    let server = TestServer::start().unwrap();
    server.route("/muted.js", |_| {
        js("const s = document.createElement('script');\n\
            s.text = 'null.x';\n\
            document.head.appendChild(s);\n\
            reportError(new Error('secret_7f3a'));")
    });
    let muted = server.http_url(CROSS, "/muted.js");
    let mut rt = page(
        &server,
        &format!(
            "<script>\n\
             window.onerror = (m, s, l, c, e) => {{\n\
               log.push([m === 'Script error.' ? m : 'visible', s && new URL(s).pathname, l, c > 0, String(e === null ? e : e.name)].join('|'));\n\
             }};\n\
             </script><script src='{muted}'></script>"
        ),
    );
    assert_eq!(
        log(&mut rt),
        "visible|/index.html|1|true|TypeError,Script error.||0|false|null"
    );
}

/// HTMLScriptElement's reflected attributes and `HTMLScriptElement.supports()`.
#[test]
fn script_element_attributes_reflect() {
    let server = TestServer::start().unwrap();
    let mut rt = page(
        &server,
        "<script>\n\
         const s = document.createElement('script');\n\
         log.push(s.src === '', s.type === '', s.crossOrigin, s.referrerPolicy === '', s.fetchPriority, s.noModule, s.async, s.defer);\n\
         s.src = 'x.js'; s.crossOrigin = 'USE-CREDENTIALS'; s.referrerPolicy = 'NO-REFERRER'; s.fetchPriority = 'bogus';\n\
         s.noModule = true; s.async = false; s.charset = 'utf-8'; s.event = 'onload'; s.htmlFor = 'window'; s.integrity = 'sha256-x';\n\
         log.push(new URL(s.src).pathname, s.getAttribute('src'), s.crossOrigin, s.referrerPolicy, s.fetchPriority, s.noModule, s.getAttribute('nomodule') === '', s.async);\n\
         log.push(s.charset, s.event, s.htmlFor, s.getAttribute('for'), s.integrity);\n\
         s.crossOrigin = 'nonsense'; log.push(s.crossOrigin); s.crossOrigin = null; log.push(s.getAttribute('crossorigin'));\n\
         log.push(HTMLScriptElement.supports('classic'), HTMLScriptElement.supports('CLASSIC'), HTMLScriptElement.supports('text/javascript'));\n\
         </script>",
    );
    // supports() matches its types exactly ("CLASSIC" is not one, as in
    // Chromium).
    assert_eq!(
        log(&mut rt),
        "true,true,,true,auto,false,true,false,\
         /x.js,x.js,use-credentials,no-referrer,auto,true,true,false,\
         utf-8,onload,window,window,sha256-x,\
         anonymous,,\
         true,false,false"
    );
}

/// A script-inserted fetch that never completes (the server stalls) does
/// not block the event loop: the page is not idle while it is in flight,
/// so the run ends at its deadline, and dropping the runtime then aborts
/// the fetch and joins the fetch threads at once.
#[test]
fn a_stalled_fetch_ends_at_the_deadline_and_on_drop() {
    let server = TestServer::start().unwrap();
    server.route("/stall.js", |_| {
        js("log.push('never')").stall_before_headers(Duration::from_secs(60))
    });
    let body = "<!DOCTYPE html><script>window.log = [];\n\
         const s = document.createElement('script');\n\
         s.src = '/stall.js';\n\
         document.head.appendChild(s);\n\
         setTimeout(() => log.push('timer'), 0);\n\
         </script>";
    server.route("/index.html", move |_| html(body));
    let url = server.http_url(SAME, "/index.html");
    let mut rt = JsRuntime::new_for_tests().unwrap();
    rt.load_page(&url, common::fetcher(&server)).unwrap();
    let deadline = std::time::Instant::now() + Duration::from_millis(500);
    assert!(
        !rt.run_until_idle(Some(deadline)),
        "a fetch in flight is not idle"
    );
    assert_eq!(log(&mut rt), "timer");
    let start = std::time::Instant::now();
    drop(rt);
    // A generous bound, only to catch a hang (the stall is 60 s).
    assert!(start.elapsed() < Duration::from_secs(20));
}
