//! How workers end (`terminate()`, `close()`, the owner's drop, the
//! removal of their iframe), also while busy or waiting for a stalled
//! fetch, and that their threads are gone after.

use std::time::{Duration, Instant};

use super::{
    busy_for, idle, load, page, page_log, run, run_alone, run_sorted, runtime, thread_names,
    worker_threads, PRELUDE,
};
use crate::common;
use crate::common::{html, js, SAME};
use jsprof_script::{runtime::workers, JsRuntime};
use jsprof_test_server::{TestResponse, TestServer};

#[test]
fn terminate_stops_a_busy_worker_and_its_thread_exits() {
    if !common::own_process() {
        return;
    }
    let mut rt = runtime();
    let before = worker_threads();
    let log = run(
        &mut rt,
        r#"
        const w = dataWorker(`postMessage('started'); for (;;) {}`);
        w.onmessage = (e) => {
            log.push(e.data);
            w.terminate();
            w.terminate(); // twice is harmless
            w.postMessage('ignored');
        };
        "#,
    );
    assert_eq!(log, r#"["started"]"#);
    // Idle means joined: the worker's thread is gone.
    assert_eq!(worker_threads(), before);
    assert_eq!(workers::owned_worker_count(), 0);
}

#[test]
fn terminate_stops_endless_microtasks_and_timers() {
    if !common::own_process() {
        return;
    }
    let mut rt = runtime();
    let before = worker_threads();
    let log = run_sorted(
        &mut rt,
        r#"
        const a = dataWorker(`postMessage(0); (function f() { Promise.resolve().then(f); })();`);
        const b = dataWorker(`setInterval(() => postMessage('tick'), 1);`);
        let ticks = 0;
        a.onmessage = () => { log.push('a'); a.terminate(); };
        b.onmessage = () => { if (++ticks === 3) { log.push('b'); b.terminate(); } };
        "#,
    );
    assert_eq!(log, r#"["a","b"]"#);
    assert_eq!(worker_threads(), before);
}

#[test]
fn messages_of_a_terminated_worker_are_dropped() {
    let log = run_alone(
        r#"
        const w = dataWorker(`for (let i = 0; i < 100; i++) postMessage(i); for (;;) {}`);
        w.onmessage = (e) => { log.push(e.data); w.terminate(); };
        w.onerror = () => log.push('error (unexpected)');
        "#,
    );
    // The first message terminates the worker; the 99 already queued ones
    // are not delivered.
    assert_eq!(log, "[0]");
}

#[test]
fn close_ends_the_worker_after_the_current_task() {
    if !common::own_process() {
        return;
    }
    let mut rt = runtime();
    let before = worker_threads();
    let log = run(
        &mut rt,
        r#"
        const w = dataWorker(`
            onmessage = (e) => { postMessage('got ' + e.data); };
            setTimeout(() => postMessage('timer (unexpected)'), 0);
            close();
            postMessage('after close');
        `);
        w.onmessage = (e) => log.push(e.data);
        w.postMessage('x');
        "#,
    );
    // The message posted in the same task as close() is delivered; the
    // timer and the owner's message are discarded with the closing worker.
    assert_eq!(log, r#"["after close"]"#);
    assert_eq!(worker_threads(), before);
}

#[test]
fn terminating_a_worker_terminates_its_nested_workers() {
    if !common::own_process() {
        return;
    }
    let mut rt = runtime();
    let before = worker_threads();
    let log = run(
        &mut rt,
        r#"
        const leaf = `postMessage('leaf up'); for (;;) {}`;
        const middle = `
            const child = new Worker(URL.createObjectURL(new Blob([${JSON.stringify(leaf)}])));
            child.onmessage = (e) => postMessage(e.data);
        `;
        const w = blobWorker(middle);
        w.onmessage = (e) => { log.push(e.data); w.terminate(); };
        "#,
    );
    assert_eq!(log, r#"["leaf up"]"#);
    assert_eq!(worker_threads(), before);
}

#[test]
fn dropping_the_owner_terminates_and_joins_its_workers() {
    if !common::own_process() {
        return;
    }
    let mut rt = runtime();
    let before = worker_threads();
    rt.evaluate(
        r#"
        const busy = dataWorker(`for (;;) {}`);
        const waiting = blobWorker(`onmessage = () => {}`);
        const nested = blobWorker(`new Worker(URL.createObjectURL(new Blob(['for(;;){}'])))`);
        "#,
        "t.js",
        1,
    )
    .unwrap();
    // Not idle: the busy workers never will be.
    busy_for(&mut rt, 200);
    assert!(worker_threads() >= before + 3);
    drop(rt);
    assert_eq!(worker_threads(), before);
    assert_eq!(workers::live_worker_threads(), 0);
}

#[test]
fn many_workers_created_and_terminated_leave_no_thread() {
    if !common::own_process() {
        return;
    }
    let mut rt = runtime();
    let before = worker_threads();
    for round in 0..3 {
        let log = run(
            &mut rt,
            r#"
            log = [];
            for (let i = 0; i < 10; i++) {
                const w = dataWorker(`postMessage(1); for (;;) {}`);
                w.onmessage = () => { log.push(1); w.terminate(); };
            }
            "#,
        );
        assert_eq!(log, "[1,1,1,1,1,1,1,1,1,1]", "round {round}");
        assert_eq!(worker_threads(), before, "round {round}");
        assert_eq!(workers::owned_worker_count(), 0);
    }
}

#[test]
fn removing_an_iframe_terminates_its_workers() {
    if !common::own_process() {
        return;
    }
    let server = TestServer::start().unwrap();
    let before = worker_threads();
    server.route("/frame.html", |_| {
        html("<script>const w = new Worker(URL.createObjectURL(new Blob(['postMessage(1); onmessage = () => {};']))); w.onmessage = () => parent.log.push('frame worker up');</script>")
    });
    let mut rt = page(&server, r#"<iframe src="/frame.html"></iframe>"#, None);
    assert_eq!(page_log(&mut rt), r#"["frame worker up"]"#);
    assert_eq!(worker_threads(), before + 1);
    rt.evaluate(
        "const f = document.querySelector('iframe'); f.parentNode.removeChild(f);",
        "t.js",
        1,
    )
    .unwrap();
    idle(&mut rt);
    assert_eq!(worker_threads(), before);
}

/// How long the test server stalls a response (its cap): longer than the
/// test fetcher's network timeout (10 s), which ends the fetch first.
const STALL: Duration = Duration::from_secs(30);

/// A script response whose headers the server stalls (`STALL`).
fn stalled(body: &str) -> TestResponse {
    js(body).stall_before_headers(STALL)
}

/// The bound on `terminate()` (or the owner's drop) ending a worker that
/// waits for a stalled fetch: a behavioural bound (a worker that waits for
/// the fetch to end takes the 10 s network timeout), not a timing test.
/// Measured with the fix: about 10-20 ms after terminate() (printed).
const TERMINATE_BOUND: Duration = Duration::from_secs(5);

/// Checks that `what`, begun at `start`, ended within `TERMINATE_BOUND`
/// (and prints how long it took).
fn ended_within_bound(start: Instant, what: &str) {
    let took = start.elapsed();
    eprintln!("{what} took {took:?}");
    assert!(
        took < TERMINATE_BOUND,
        "{what} took {took:?} (bound {TERMINATE_BOUND:?})"
    );
}

/// Drops the owner (`rt`), which terminates and joins its workers, and
/// checks that this ended within `TERMINATE_BOUND`.
fn drop_within_bound(rt: JsRuntime, what: &str) {
    let start = Instant::now();
    drop(rt);
    ended_within_bound(start, &format!("{what}: the owner's drop"));
}

#[test]
fn terminate_or_drop_while_the_script_is_being_fetched() {
    if !common::own_process() {
        return;
    }
    let server = TestServer::start().unwrap();
    let before = worker_threads();
    server.route("/slow.js", |_| stalled("postMessage('ran (unexpected)')"));
    server.route("/slow-body.js", |_| {
        js("postMessage('ran (unexpected)')").stall_before_body(STALL)
    });
    server.route("/redirect-to-slow.js", |_| {
        TestResponse::redirect(302, "/slow.js")
    });
    for path in ["/slow.js", "/slow-body.js", "/redirect-to-slow.js"] {
        // terminate() while the worker waits for its script: none of it
        // runs, and the page is idle (the worker's thread joined) well
        // before the stall ends.
        let start = Instant::now();
        let mut rt = page(
            &server,
            &format!(
                r#"<script>
                const w = new Worker('{path}');
                w.onmessage = (e) => log.push(e.data);
                w.onerror = () => log.push('error (unexpected)');
                setTimeout(() => {{ w.terminate(); log.push('terminated'); }}, 200);
                </script>"#
            ),
            None,
        );
        ended_within_bound(
            start,
            &format!("{path}: loading, terminate() after 200 ms and idle"),
        );
        assert_eq!(page_log(&mut rt), r#"["terminated"]"#, "{path}");
        assert_eq!(worker_threads(), before, "{path}");
        // The owner goes away while a fetch stalls: dropping the runtime
        // terminates and joins the worker, within the bound too.
        rt.evaluate(
            &format!("new Worker('{path}').onmessage = (e) => log.push(e.data);"),
            "t.js",
            1,
        )
        .unwrap();
        busy_for(&mut rt, 200);
        drop_within_bound(rt, path);
        assert_eq!(worker_threads(), before, "{path}");
    }
}

#[test]
fn dropping_the_owner_ends_a_nested_worker_waiting_for_a_stalled_fetch() {
    if !common::own_process() {
        return;
    }
    let server = TestServer::start().unwrap();
    let before = worker_threads();
    server.route("/slow.js", |_| stalled("postMessage('ran (unexpected)')"));
    // page -> blob: worker -> network worker whose script stalls: the
    // owner's drop terminates the first, whose runtime's drop terminates
    // the nested one; both end within the bound.
    let slow = server.http_url(SAME, "/slow.js");
    let body = format!(
        r#"<!DOCTYPE html><script>{PRELUDE}
        const w = blobWorker(`new Worker('{slow}'); postMessage('nested worker made');`);
        w.onmessage = (e) => log.push(e.data);
        </script>"#
    );
    server.route("/index.html", move |_| html(&body));
    let mut rt = load(&server, &server.http_url(SAME, "/index.html"));
    busy_for(&mut rt, 300);
    assert_eq!(page_log(&mut rt), r#"["nested worker made"]"#);
    assert_eq!(server.requests_to("/slow.js").len(), 1);
    drop_within_bound(rt, "nested");
    assert_eq!(worker_threads(), before);
}

#[test]
fn terminate_while_import_scripts_waits_for_a_stalled_fetch() {
    if !common::own_process() {
        return;
    }
    let server = TestServer::start().unwrap();
    let before = worker_threads();
    server.route("/slow-a.js", |_| stalled("var a = 1;"));
    server.route("/slow-b.js", |_| stalled("var b = 1;"));
    server.route("/importer.js", |_| {
        js("postMessage('importing'); importScripts('/slow-a.js', '/slow-b.js'); postMessage('imported (unexpected)');")
    });
    let start = Instant::now();
    let mut rt = page(
        &server,
        r#"<script>
        const w = new Worker('/importer.js');
        w.onmessage = (e) => {
            log.push(e.data);
            setTimeout(() => { w.terminate(); log.push('terminated'); }, 200);
        };
        w.onerror = () => log.push('error (unexpected)');
        </script>"#,
        None,
    );
    ended_within_bound(
        start,
        "importScripts: loading, terminate() after 200 ms and idle",
    );
    assert_eq!(page_log(&mut rt), r#"["importing","terminated"]"#);
    assert_eq!(worker_threads(), before);
    // The URL after the stalled one was never requested.
    assert!(server.requests_to("/slow-b.js").is_empty());
    // The same while the owner goes away.
    rt.evaluate("new Worker('/importer.js');", "t.js", 1)
        .unwrap();
    busy_for(&mut rt, 300);
    drop_within_bound(rt, "importScripts");
    assert_eq!(worker_threads(), before);
    assert!(server.requests_to("/slow-b.js").is_empty());
}

/// A measurement, not a pass/fail test (run it with `--ignored
/// --nocapture`): the time from `new Worker()` to the page receiving the
/// worker's first message, for `data:` workers started one after the other
/// (thread, child runtime, global, fetch, script, message back), and the
/// process's thread count before, while 20 workers wait, and after they
/// are terminated.
#[test]
#[ignore]
fn measure_worker_start_cost_and_threads() {
    if !common::own_process() {
        return;
    }
    let mut rt = runtime();
    let threads = || thread_names().len();
    // Warm-up: the engine's helper threads and the first worker's costs.
    run(
        &mut rt,
        "dataWorker('postMessage(1)').onmessage = () => log.push(1);",
    );
    let mut samples = Vec::new();
    for _ in 0..50 {
        let start = Instant::now();
        run(
            &mut rt,
            "log = []; dataWorker('postMessage(1)').onmessage = () => log.push(1);",
        );
        samples.push(start.elapsed().as_secs_f64() * 1000.0);
    }
    samples.sort_by(f64::total_cmp);
    println!(
        "worker start to first message: median {:.2} ms, p90 {:.2} ms, max {:.2} ms (50 workers)",
        samples[25], samples[45], samples[49]
    );
    let before = threads();
    run(
        &mut rt,
        "log = []; window.ws = []; for (let i = 0; i < 20; i++) { const w = dataWorker('postMessage(1); onmessage = () => {}'); w.onmessage = () => log.push(1); ws.push(w); }",
    );
    let during = threads();
    run(&mut rt, "for (const w of ws) w.terminate(); ws = [];");
    let after = threads();
    println!("threads: before {before}, with 20 idle workers {during}, after terminate {after}");
}
