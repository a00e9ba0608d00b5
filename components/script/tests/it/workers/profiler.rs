//! The `Profiler` in workers: the document policy a worker gets (from
//! its own response, or inherited by `blob:`, `data:` and nested workers,
//! from a blob URL's creator), and what a worker's trace may contain.

use super::{
    page, page_log, run, runtime, sorted_log, thread_names, worker_threads, PROFILE_CHECK,
};
use crate::common;
use crate::common::{js, CROSS, SAME};
use jsprof_test_server::TestServer;

#[test]
fn profiler_in_a_worker_needs_the_policy() {
    let mut rt = runtime();
    // The page has no Document-Policy: its blob: and data: workers inherit
    // that.
    let log = run(
        &mut rt,
        r#"
        const src = `try { new Profiler({ sampleInterval: 10, maxBufferSize: 10 }); postMessage('allowed'); }
            catch (e) { postMessage(e.name); }`;
        dataWorker(src).onmessage = (e) => log.push('data ' + e.data);
        "#,
    );
    assert_eq!(log, r#"["data NotAllowedError"]"#);
}

#[test]
fn network_worker_policy_comes_from_its_own_response() {
    let server = TestServer::start().unwrap();
    let worker = format!("{PROFILE_CHECK} postMessage(check());");
    let w1 = worker.clone();
    server.route("/with.js", move |_| {
        js(&w1).with_header("Document-Policy", "js-profiling")
    });
    let w2 = worker.clone();
    server.route("/without.js", move |_| js(&w2));
    // The page has the policy; only the worker with the header may profile.
    let mut rt = page(
        &server,
        r#"<script>
        new Worker('/with.js').onmessage = (e) => log.push('with ' + e.data);
        new Worker('without.js').onmessage = (e) => log.push('without ' + e.data);
        </script>"#,
        Some("js-profiling"),
    );
    assert_eq!(
        sorted_log(&mut rt),
        r#"["with allowed","without NotAllowedError"]"#
    );
    drop(rt);
    // Without the page's policy, the worker's own header still decides.
    let mut rt = page(
        &server,
        r#"<script>
        new Worker('/with.js').onmessage = (e) => log.push('with ' + e.data);
        new Worker('/without.js').onmessage = (e) => log.push('without ' + e.data);
        </script>"#,
        None,
    );
    assert_eq!(
        sorted_log(&mut rt),
        r#"["with allowed","without NotAllowedError"]"#
    );
}

#[test]
fn blob_data_and_nested_workers_inherit_the_policy_transitively() {
    let server = TestServer::start().unwrap();
    let body = format!(
        r#"<script>
        const check = {PROFILE_CHECK:?} + 'postMessage(check());';
        dataWorker(check).onmessage = (e) => log.push('data ' + e.data);
        blobWorker(check).onmessage = (e) => log.push('blob ' + e.data);
        const nested = `const c = new Worker(URL.createObjectURL(new Blob([${{JSON.stringify(check)}}])));
            c.onmessage = (e) => postMessage(e.data);`;
        blobWorker(nested).onmessage = (e) => log.push('nested blob ' + e.data);
        </script>"#
    );
    let mut rt = page(&server, &body, Some("js-profiling"));
    assert_eq!(
        sorted_log(&mut rt),
        r#"["blob allowed","data allowed","nested blob allowed"]"#
    );
    drop(rt);
    let mut rt = page(&server, &body, Some("js-profiling=?0"));
    assert_eq!(
        sorted_log(&mut rt),
        r#"["blob NotAllowedError","data NotAllowedError","nested blob NotAllowedError"]"#
    );
}

#[test]
fn profile_in_a_worker_has_the_workers_frames_only() {
    let server = TestServer::start().unwrap();
    // The worker profiles itself; Force Sample (the TestBinding hook, in
    // the worker) samples the worker's session with workerMain on the
    // stack (functions entered after the profiler started are on the
    // profiling stack). (That no frame of the page can appear in a
    // worker's trace is checked with the page busy at the same time by
    // `a_workers_trace_has_no_frame_of_its_busy_page` and the WPT
    // workers/profile-isolation test.)
    let worker = r#"
        function workerLeaf() { return new TestBinding().forceProfilerSample(); }
        function workerMain() { return workerLeaf(); }
        const p = new Profiler({ sampleInterval: 100000, maxBufferSize: 100 });
        const forced = workerMain();
        p.stop().then((trace) => {
            const names = trace.frames.map(f => f.name);
            const now = performance.now();
            postMessage([forced, names.includes('workerMain'),
                JSON.stringify(trace.resources), trace.samples.length > 0,
                trace.samples.every(s => s.timestamp >= 0 && s.timestamp <= now)]);
        });
    "#;
    server.route("/profiled.js", move |_| {
        js(worker).with_header("Document-Policy", "js-profiling")
    });
    let mut rt = page(
        &server,
        r#"<script>
        const tb = new TestBinding();
        function pageLeaf() { return tb.forceProfilerSample(); }
        const pageProfiler = new Profiler({ sampleInterval: 100000, maxBufferSize: 100 });
        const w = new Worker('/profiled.js');
        w.onmessage = (e) => {
            log.push(e.data, pageLeaf());
            pageProfiler.stop().then((t) => log.push(t.frames.map(f => f.name).filter(n => n).join()));
        };
        </script>"#,
        Some("js-profiling"),
    );
    let resources = format!("[\\\"{}\\\"]", server.http_url(SAME, "/profiled.js"));
    assert_eq!(
        page_log(&mut rt),
        format!(r#"[[1,true,"{resources}",true,true],1,"pageLeaf"]"#)
    );
}

#[test]
fn cross_origin_imported_scripts_are_hidden_from_the_workers_profile() {
    let server = TestServer::start().unwrap();
    // A cross-origin script imported without CORS (muted errors): its
    // function calls back into the worker's own code, which force-samples.
    server.route("/lib.js", |_| js("function crossLib(f) { return f(); }"));
    let lib = server.http_url(CROSS, "/lib.js");
    let worker = format!(
        r#"
        importScripts('{lib}');
        function ownLeaf() {{ return new TestBinding().forceProfilerSample(); }}
        function ownMain() {{ return crossLib(ownLeaf); }}
        const p = new Profiler({{ sampleInterval: 100000, maxBufferSize: 100 }});
        const forced = ownMain();
        p.stop().then((trace) => postMessage([forced,
            trace.frames.map(f => f.name).filter(n => n).sort().join(),
            trace.resources.some(r => r.includes('lib.js'))]));
        "#
    );
    server.route("/worker.js", move |_| {
        js(&worker).with_header("Document-Policy", "js-profiling")
    });
    let mut rt = page(
        &server,
        r#"<script>new Worker('/worker.js').onmessage = (e) => log.push(e.data);</script>"#,
        None,
    );
    assert_eq!(page_log(&mut rt), r#"[[1,"ownLeaf,ownMain",false]]"#);
}

#[test]
fn terminate_during_an_active_profile() {
    if !common::own_process() {
        return;
    }
    let server = TestServer::start().unwrap();
    let before = worker_threads();
    server.route("/busy.js", |_| {
        js("new Profiler({ sampleInterval: 1, maxBufferSize: 100000 }); postMessage('profiling'); for (;;) {}")
            .with_header("Document-Policy", "js-profiling")
    });
    let mut rt = page(
        &server,
        r#"<script>
        const w = new Worker('/busy.js');
        w.onmessage = (e) => { log.push(e.data); setTimeout(() => { w.terminate(); log.push('terminated'); }, 20); };
        </script>"#,
        None,
    );
    assert_eq!(page_log(&mut rt), r#"["profiling","terminated"]"#);
    assert_eq!(worker_threads(), before);
    assert!(
        !thread_names().iter().any(|n| n == "js-sampler"),
        "the worker's sampling thread is gone: {:?}",
        thread_names()
    );
}

#[test]
fn a_blob_worker_gets_the_policy_of_the_blob_urls_creator() {
    let server = TestServer::start().unwrap();
    // A network worker makes a blob URL of a script that tries a Profiler
    // and posts the URL to the page, which makes a worker of it: that
    // worker's policy is the blob URL creator's (the network worker's,
    // from its own response), not the page's.
    let creator = format!(
        "const check = {:?}; postMessage(URL.createObjectURL(new Blob([check + 'postMessage(check());'], {{ type: 'text/javascript' }})));",
        PROFILE_CHECK
    );
    let c1 = creator.clone();
    server.route("/creator-without.js", move |_| js(&c1));
    let c2 = creator.clone();
    server.route("/creator-with.js", move |_| {
        js(&c2).with_header("Document-Policy", "js-profiling")
    });
    let body = |creator: &str| {
        format!(
            r#"<script>
            new Worker('{creator}').onmessage = (e) => {{
                const w = new Worker(e.data);
                w.onmessage = (r) => log.push(r.data);
                w.onerror = () => log.push('error (unexpected)');
            }};
            </script>"#
        )
    };
    // The page may profile, the blob URL's creator may not.
    let mut rt = page(&server, &body("/creator-without.js"), Some("js-profiling"));
    assert_eq!(page_log(&mut rt), r#"["NotAllowedError"]"#);
    drop(rt);
    // The converse.
    let mut rt = page(&server, &body("/creator-with.js"), None);
    assert_eq!(page_log(&mut rt), r#"["allowed"]"#);
}

#[test]
fn a_workers_trace_has_no_frame_of_its_busy_page() {
    let server = TestServer::start().unwrap();
    // The worker samples every 10 ms for 300 ms while the page runs a busy
    // loop of its own: no frame of the page may appear in the worker's
    // trace (and the worker's loop is sampled).
    server.route("/busy.js", |_| {
        js(r#"
        function workerBusy_wk(ms) { const end = performance.now() + ms; while (performance.now() < end) {} }
        const p = new Profiler({ sampleInterval: 10, maxBufferSize: 10000 });
        postMessage('started');
        workerBusy_wk(300);
        p.stop().then((trace) => {
            const names = trace.frames.map(f => f.name);
            postMessage([names.filter(n => n.endsWith('_pg')).join(), names.includes('workerBusy_wk')]);
        });
        "#)
        .with_header("Document-Policy", "js-profiling")
    });
    let mut rt = page(
        &server,
        r#"<script>
        function pageBusy_pg(ms) { const end = performance.now() + ms; while (performance.now() < end) {} }
        const w = new Worker('/busy.js');
        w.onmessage = (e) => {
            if (e.data === 'started') { pageBusy_pg(250); return; }
            log.push(e.data);
        };
        </script>"#,
        None,
    );
    assert_eq!(page_log(&mut rt), r#"[["",true]]"#);
}
