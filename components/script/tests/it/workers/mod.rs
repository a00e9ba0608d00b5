//! Dedicated workers: lifecycle, messages, errors, termination (also of a
//! busy worker), nested workers, importScripts, blob:/data:/http(s)
//! scripts, the Profiler in workers (policy, realm), and thread clean-up.
//!
//! Every test runs the page's event loop to idle (`run_until_idle` returns
//! true only when the page and all its workers have nothing left to run:
//! no timing is asserted; the deadline only turns a hang into a failure).
//! A test that counts the process's worker threads (or uses a hook that
//! acts on the next worker of the process) runs in a process of its own
//! (`common::own_process`), so that the worker threads it sees are its
//! own.

mod errors;
mod loading;
mod messaging;
mod profiler;
mod termination;

use std::time::{Duration, Instant};

use crate::common::{fetcher, html, SAME};
use jsprof_script::JsRuntime;
use jsprof_test_server::TestServer;

/// A hang guard, never a pass condition.
fn deadline() -> Option<Instant> {
    Some(Instant::now() + Duration::from_secs(60))
}

/// Helpers every page gets: `log`, `dataWorker(src)`, `blobWorker(src)`.
const PRELUDE: &str = r#"
var log = [];
function dataURL(src) { return 'data:text/javascript,' + encodeURIComponent(src); }
function blobURL(src) { return URL.createObjectURL(new Blob([src], { type: 'text/javascript' })); }
function dataWorker(src) { return new Worker(dataURL(src)); }
function blobWorker(src) { return new Worker(blobURL(src)); }
"#;

fn runtime() -> JsRuntime {
    let mut rt = JsRuntime::new_for_tests().expect("runtime");
    rt.evaluate(PRELUDE, "prelude.js", 1).unwrap();
    rt
}

/// Runs the page (and its workers) to idle.
fn idle(rt: &mut JsRuntime) {
    assert!(
        rt.run_until_idle(deadline()),
        "the page did not become idle"
    );
}

/// Runs the page for `ms` milliseconds, in which it must not become idle
/// (a worker waits for a stalled fetch or never ends).
fn busy_for(rt: &mut JsRuntime, ms: u64) {
    assert!(
        !rt.run_until_idle(Some(Instant::now() + Duration::from_millis(ms))),
        "the page became idle within {ms} ms"
    );
}

/// Evaluates `source`, runs the page to idle, returns `JSON.stringify(log)`.
fn run(rt: &mut JsRuntime, source: &str) -> String {
    rt.evaluate(source, "test.js", 1).unwrap();
    idle(rt);
    page_log(rt)
}

/// `run` in a new runtime, for tests that look at nothing but the log.
fn run_alone(source: &str) -> String {
    let mut rt = runtime();
    run(&mut rt, source)
}

/// Evaluates `source`, runs the page to idle, returns the log sorted (for
/// events whose relative order is not defined).
fn run_sorted(rt: &mut JsRuntime, source: &str) -> String {
    run(rt, source);
    sorted_log(rt)
}

fn sorted_log(rt: &mut JsRuntime) -> String {
    rt.evaluate("JSON.stringify(log.slice().sort())", "check.js", 1)
        .unwrap()
}

/// The names of this process's threads (`/proc/self/task/*/comm`).
fn thread_names() -> Vec<String> {
    std::fs::read_dir("/proc/self/task")
        .expect("/proc/self/task")
        .filter_map(|entry| {
            let path = entry.ok()?.path().join("comm");
            Some(std::fs::read_to_string(path).ok()?.trim().to_owned())
        })
        .collect()
}

fn worker_threads() -> usize {
    thread_names()
        .iter()
        .filter(|n| n.starts_with("js-worker"))
        .count()
}

// ---- Network workers (loopback test server) ----

/// Loads `/index.html` (with `policy` as its Document-Policy, if any) of
/// the same origin, with `body` after the prelude, and runs it to idle.
fn page(server: &TestServer, body: &str, policy: Option<&str>) -> JsRuntime {
    let body = format!("<!DOCTYPE html><script>{PRELUDE}</script>{body}");
    let policy = policy.map(str::to_owned);
    server.route("/index.html", move |_| {
        let response = html(&body);
        match &policy {
            Some(p) => response.with_header("Document-Policy", p),
            None => response,
        }
    });
    let mut rt = load(server, &server.http_url(SAME, "/index.html"));
    idle(&mut rt);
    rt
}

/// A new runtime (without the prelude) that loaded `url` (not yet run).
fn load(server: &TestServer, url: &url::Url) -> JsRuntime {
    let mut rt = JsRuntime::new_for_tests().expect("runtime");
    rt.load_page(url, fetcher(server)).expect("page loads");
    rt
}

/// Serves `document` at /index.html of the same origin with COOP
/// same-origin and COEP require-corp (cross-origin isolated), loads it
/// over HTTPS and runs it to idle.
fn isolated_page(server: &TestServer, document: String) -> JsRuntime {
    server.route("/index.html", move |_| {
        html(&document)
            .with_header("Cross-Origin-Opener-Policy", "same-origin")
            .with_header("Cross-Origin-Embedder-Policy", "require-corp")
    });
    let mut rt = load(server, &server.https_url(SAME, "/index.html"));
    idle(&mut rt);
    rt
}

fn page_log(rt: &mut JsRuntime) -> String {
    rt.evaluate("JSON.stringify(log)", "check.js", 1).unwrap()
}

const PROFILE_CHECK: &str = r#"
    function check() {
        try { new Profiler({ sampleInterval: 10, maxBufferSize: 10 }); return 'allowed'; }
        catch (e) { return e.name; }
    }
"#;
