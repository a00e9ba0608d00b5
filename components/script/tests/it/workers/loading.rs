//! Loading worker scripts: network scripts (same origin, JavaScript, OK,
//! redirects), `importScripts` over HTTP with muted errors, embedder
//! policies of isolated pages, and blob URL entries (resolved at
//! `new Worker()`, revoked when their creator ends).

use super::{isolated_page, page, page_log, run, run_sorted, runtime, sorted_log, PRELUDE};
use crate::common::{html, js, CROSS, SAME};
use jsprof_script::JsRuntime;
use jsprof_test_server::{TestResponse, TestServer};

#[test]
fn network_worker_scripts_must_be_same_origin_javascript_and_ok() {
    let server = TestServer::start().unwrap();
    server.route("/ok.js", |_| js("postMessage(location.pathname)"));
    server.route("/html.js", |_| html("postMessage('html ran')"));
    server.route("/missing.js", |_| TestResponse::not_found());
    let cross = server.http_url(CROSS, "/ok.js");
    server.route("/redirect-cross.js", move |_| {
        TestResponse::redirect(302, cross.as_str())
    });
    server.route("/redirect-same.js", |_| {
        TestResponse::redirect(302, "/ok.js")
    });
    let cross = server.http_url(CROSS, "/ok.js");
    let body = format!(
        r#"<script>
        function watch(label, url) {{
            const w = new Worker(url);
            w.onmessage = (e) => log.push(label + ' ' + e.data);
            w.onerror = (e) => log.push(label + ' error');
        }}
        watch('ok', '/ok.js');
        watch('html', '/html.js');
        watch('404', '/missing.js');
        watch('cross', '{cross}');
        watch('redirect-cross', '/redirect-cross.js');
        watch('redirect-same', '/redirect-same.js');
        </script>"#
    );
    let mut rt = page(&server, &body, None);
    assert_eq!(
        sorted_log(&mut rt),
        r#"["404 error","cross error","html error","ok /ok.js","redirect-cross error","redirect-same /ok.js"]"#
    );
    assert!(rt.reported_errors().is_empty());
}

#[test]
fn import_scripts_over_http_mutes_cross_origin_errors() {
    let server = TestServer::start().unwrap();
    server.route("/same.js", |_| {
        js("var same = 1; function thrower() { throw new Error('same secret'); }")
    });
    server.route("/cross.js", |_| {
        js("var cross = 2; throw new Error('cross secret');")
    });
    server.route("/cross-fn.js", |_| {
        js("function crossThrower() { throw new Error('cross fn secret'); }")
    });
    server.route("/text.js", |_| {
        TestResponse::ok("var text = 1;").with_content_type("text/plain")
    });
    let cross = server.http_url(CROSS, "/cross.js");
    let cross_fn = server.http_url(CROSS, "/cross-fn.js");
    let worker = format!(
        r#"
        const r = [];
        importScripts('/same.js');
        r.push(same);
        try {{ importScripts('{cross}'); }} catch (e) {{ r.push(e.name + ': ' + e.message, cross); }}
        try {{ importScripts('/text.js'); }} catch (e) {{ r.push(e.name, typeof text); }}
        importScripts('{cross_fn}');
        try {{ thrower(); }} catch (e) {{ r.push(e.message); }}
        postMessage(r);
        setTimeout(() => crossThrower());
        "#
    );
    server.route("/worker.js", move |_| js(&worker));
    let mut rt = page(
        &server,
        r#"<script>
        const w = new Worker('/worker.js');
        w.onmessage = (e) => log.push(e.data);
        w.onerror = (e) => { e.preventDefault(); log.push([e.message, e.filename, e.lineno, e.colno]); };
        </script>"#,
        None,
    );
    assert_eq!(
        page_log(&mut rt),
        r#"[[1,"NetworkError: a script with muted errors failed",2,"NetworkError","undefined","same secret"],["Script error.","",0,0]]"#
    );
}

#[test]
fn workers_of_an_isolated_page_need_a_compatible_embedder_policy() {
    let server = TestServer::start().unwrap();
    let report = "postMessage([crossOriginIsolated, isSecureContext, self.origin])";
    server.route("/coep.js", move |_| {
        js(report).with_header("Cross-Origin-Embedder-Policy", "require-corp")
    });
    server.route("/no-coep.js", move |_| js(report));
    let body = format!(
        r#"<!DOCTYPE html><script>{PRELUDE}
        function watch(label, w) {{
            w.onmessage = (e) => log.push(label + ' ' + JSON.stringify(e.data));
            w.onerror = () => log.push(label + ' error');
        }}
        log.push('page ' + crossOriginIsolated);
        watch('coep', new Worker('/coep.js'));
        watch('no-coep', new Worker('/no-coep.js'));
        watch('blob', blobWorker({report:?}));
        watch('data', dataWorker({report:?}));
        </script>"#
    );
    let mut rt = isolated_page(&server, body);
    let origin = server
        .https_url(SAME, "/index.html")
        .origin()
        .ascii_serialization();
    // A network worker must send a COEP compatible with its isolated
    // owner's (else its fetch is a network error); blob: inherits the
    // owner's; a data: worker is never isolated and has an opaque origin.
    assert_eq!(
        sorted_log(&mut rt),
        format!(
            r#"["blob [true,true,\"{origin}\"]","coep [true,true,\"{origin}\"]","data [false,true,\"null\"]","no-coep error","page true"]"#
        )
    );
}

#[test]
fn a_blob_url_revoked_right_after_new_worker_still_loads() {
    let mut rt = runtime();
    // The URL parser resolves a blob URL's entry when `new Worker()`
    // parses it: revoking the URL afterwards does not affect the worker
    // (in the page and in a worker); a URL revoked before does not load.
    let log = run_sorted(
        &mut rt,
        r#"
        const u = blobURL(`postMessage('ran')`);
        const w = new Worker(u);
        URL.revokeObjectURL(u);
        w.onmessage = (e) => log.push(e.data);
        w.onerror = () => log.push('error (unexpected)');
        const gone = blobURL(`postMessage('revoked ran (unexpected)')`);
        URL.revokeObjectURL(gone);
        const w2 = new Worker(gone);
        w2.onmessage = (e) => log.push(e.data);
        w2.onerror = () => log.push('revoked before: error');
        const nested = blobWorker(`
            const u = URL.createObjectURL(new Blob(["postMessage('nested ran')"]));
            const c = new Worker(u);
            URL.revokeObjectURL(u);
            c.onmessage = (e) => postMessage(e.data);
            c.onerror = () => postMessage('nested error (unexpected)');
        `);
        nested.onmessage = (e) => log.push(e.data);
        "#,
    );
    assert_eq!(log, r#"["nested ran","ran","revoked before: error"]"#);
}

#[test]
fn a_blob_worker_gets_the_embedder_policy_of_the_blob_urls_creator() {
    let server = TestServer::start().unwrap();
    // An isolated page (COEP require-corp) makes workers of two blob URLs:
    // its own (the worker inherits require-corp and runs) and one its
    // same-origin iframe, served without COEP, created: that worker's
    // embedder policy is its creator's ("unsafe-none"), which its isolated
    // owner refuses (check a global object's embedder policy: a network
    // error, an error event).
    server.route("/frame.html", |_| {
        html("<script>parent.frameURL = URL.createObjectURL(new Blob(['postMessage(crossOriginIsolated)'], { type: 'text/javascript' }));</script>")
    });
    let body = format!(
        r#"<!DOCTYPE html><script>{PRELUDE}
        function watch(label, w) {{
            w.onmessage = (e) => log.push(label + ' ' + e.data);
            w.onerror = () => log.push(label + ' error');
        }}
        watch('page blob', blobWorker('postMessage(crossOriginIsolated)'));
        </script><iframe src="/frame.html"></iframe>"#
    );
    let mut rt = isolated_page(&server, body);
    let log = run_sorted(
        &mut rt,
        "log.push(typeof frameURL); watch('iframe blob', new Worker(frameURL));",
    );
    assert_eq!(log, r#"["iframe blob error","page blob true","string"]"#);
}

#[test]
fn a_worker_script_redirected_to_a_non_http_url_fails() {
    let server = TestServer::start().unwrap();
    // Fetch's HTTP-redirect fetch, step 6: a redirect to a URL whose scheme
    // is not HTTP(S) is a network error (the Worker gets an error event),
    // whatever the target (here a data: URL, which "same-origin" alone
    // would let through).
    server.route("/to-data.js", |_| {
        TestResponse::redirect(
            302,
            "data:text/javascript,postMessage('data ran (unexpected)')",
        )
    });
    server.route("/ok.js", |_| js("postMessage('ok')"));
    server.route("/to-ok.js", |_| TestResponse::redirect(302, "/ok.js"));
    let mut rt = page(
        &server,
        r#"<script>
        for (const url of ['/to-data.js', '/to-ok.js']) {
            const w = new Worker(url);
            w.onmessage = (e) => log.push(url + ' ' + e.data);
            w.onerror = () => log.push(url + ' error');
        }
        </script>"#,
        None,
    );
    assert_eq!(
        sorted_log(&mut rt),
        r#"["/to-data.js error","/to-ok.js ok"]"#
    );
}

/// Runs `before` (JS), then checks that a worker of the blob URL `url` (a
/// JS expression) does not load: the URL is revoked.
fn assert_revoked(rt: &mut JsRuntime, before: &str, url: &str) {
    let log = run(
        rt,
        &format!(
            r#"
            log = [];
            {before}
            const w = new Worker({url});
            w.onmessage = (e) => log.push(e.data + ' (unexpected)');
            w.onerror = () => log.push('revoked');
            "#
        ),
    );
    assert_eq!(log, r#"["revoked"]"#);
}

#[test]
fn blob_urls_of_a_worker_are_revoked_when_it_ends() {
    let mut rt = runtime();
    // "When an environment settings object is destroyed, remove its blob
    // URL entries": a blob URL made by a worker no longer loads once the
    // worker is gone.
    let log = run(
        &mut rt,
        r#"
        const maker = blobWorker(`
            postMessage(URL.createObjectURL(new Blob(["postMessage('loaded')"])));
        `);
        maker.onmessage = (e) => {
            log.push('made');
            window.madeURL = e.data;
            maker.terminate();
        };
        "#,
    );
    assert_eq!(log, r#"["made"]"#);
    assert_revoked(&mut rt, "", "window.madeURL");
}

#[test]
fn blob_urls_of_a_removed_iframe_are_revoked() {
    let server = TestServer::start().unwrap();
    server.route("/frame.html", |_| {
        html("<script>parent.frameURL = URL.createObjectURL(new Blob([\"postMessage('loaded')\"]));</script>")
    });
    let mut rt = page(&server, r#"<iframe src="/frame.html"></iframe>"#, None);
    let log = run(
        &mut rt,
        r#"
        const before = new Worker(window.frameURL);
        before.onmessage = (e) => log.push('before removal: ' + e.data);
        "#,
    );
    assert_eq!(log, r#"["before removal: loaded"]"#);
    assert_revoked(
        &mut rt,
        "const f = document.querySelector('iframe'); f.parentNode.removeChild(f);",
        "window.frameURL",
    );
}
