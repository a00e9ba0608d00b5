//! Pages built to misbehave end cleanly: the watchdog interrupts endless
//! script (a busy loop, an endless microtask chain) in the page and in
//! workers, the heap ceiling turns endless allocation into an
//! out-of-memory error, and storms of timers, messages, recursion and
//! profilers end with the page still working. Each test states its bound
//! (`HANG_BOUND`, a hang-catcher, never a performance check) and checks
//! that no worker, sampler or watchdog thread is left behind.
//!
//! The tests that check for threads left behind run in a process of
//! their own (`common::own_process`): they look at all of the process's
//! threads.

use std::time::{Duration, Instant};

use crate::common;
use jsprof_script::runtime::watchdog::{self, Watchdog};
use jsprof_script::{runtime::workers, JsRuntime};
use jsprof_test_server::TestServer;

/// Far longer than any of these tests may take: a hang-catcher.
const HANG_BOUND: Duration = Duration::from_secs(120);

const PRELUDE: &str = r#"
var log = [];
function blobURL(src) { return URL.createObjectURL(new Blob([src], { type: 'text/javascript' })); }
function blobWorker(src) { return new Worker(blobURL(src)); }
"#;

fn runtime() -> JsRuntime {
    let mut rt = JsRuntime::new_for_tests().expect("runtime");
    rt.evaluate(PRELUDE, "prelude.js", 1).unwrap();
    rt
}

fn eval(rt: &mut JsRuntime, source: &str) -> String {
    rt.evaluate(source, "check.js", 1)
        .unwrap_or_else(|e| panic!("{source}: {e:?}"))
}

/// No thread of ours is left: no worker, sampler, watchdog or fetch
/// thread (SpiderMonkey's helper pool and the test server's stay).
fn assert_no_thread_left() {
    let start = Instant::now();
    loop {
        let names = common::threads();
        let ours: Vec<&String> = names
            .keys()
            .filter(|n| {
                n.starts_with("js-worker")
                    || n.starts_with("js-sampler")
                    || n.starts_with("js-watchdog")
                    || n.starts_with("js-fetch")
            })
            .collect();
        if ours.is_empty() && workers::live_worker_threads() == 0 {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "threads left behind: {names:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Evaluates `source` and runs the page (and its workers) to idle.
fn run_to_idle(rt: &mut JsRuntime, source: &str) {
    eval(rt, source);
    assert!(
        rt.run_until_idle(Some(Instant::now() + HANG_BOUND)),
        "the page did not become idle"
    );
}

/// Drops the page, checks the hang bound (from `start`) and that nothing
/// is left behind.
fn finish(rt: JsRuntime, start: Instant) {
    drop(rt);
    assert!(start.elapsed() < HANG_BOUND, "took {:?}", start.elapsed());
    assert_no_thread_left();
}

/// Runs `body` with a watchdog of `limit` around a fresh runtime; returns
/// what the watchdog saw after the runtime was dropped, and checks the
/// bound and that nothing is left behind.
fn under_watchdog(
    limit: Duration,
    body: impl FnOnce(&mut JsRuntime),
) -> Option<watchdog::Interruption> {
    let start = Instant::now();
    let dog = Watchdog::arm(limit).unwrap();
    let mut rt = runtime();
    body(&mut rt);
    // The loop returns at once once the watchdog fired (no further task).
    assert!(!rt.run_until_idle(None), "the page became idle");
    drop(rt);
    let interruption = dog.interruption();
    drop(dog);
    assert!(start.elapsed() < HANG_BOUND, "took {:?}", start.elapsed());
    assert_no_thread_left();
    interruption
}

// -------------------------------------------------------------- watchdog

/// `while (true) {}` in the page: the watchdog stops it (uncatchably: the
/// `catch` and `finally` never run) and names where it ran.
#[test]
fn a_busy_loop_in_the_page_is_interrupted() {
    if !common::own_process() {
        return;
    }
    let interruption = under_watchdog(Duration::from_millis(500), |rt| {
        let result = rt.evaluate(
            "log.push('start');\ntry { while (true) {} } catch (e) { log.push('caught') }\n\
             finally { log.push('finally') }",
            "https://example.test/busy.js",
            1,
        );
        let error = result.unwrap_err();
        assert_eq!(error.message, "script terminated without an exception");
    })
    .expect("the watchdog fired");
    assert_eq!(interruption.after, Duration::from_millis(500));
    let location = interruption.location.expect("script was running");
    assert_eq!(location.url, "https://example.test/busy.js");
    assert_eq!(location.line, 2);
    assert!(!location.in_worker);
}

/// An endless microtask chain (each microtask queues the next) ends too:
/// the checkpoint runs no further microtask once the watchdog fired.
#[test]
fn an_endless_microtask_chain_in_the_page_is_interrupted() {
    if !common::own_process() {
        return;
    }
    let interruption = under_watchdog(Duration::from_millis(500), |rt| {
        rt.evaluate(
            "var runs = 0;\nfunction again() { runs++; queueMicrotask(again); }\nagain();",
            "chain.js",
            1,
        )
        .unwrap();
    })
    .expect("the watchdog fired");
    let location = interruption.location.expect("the chain was running");
    assert_eq!((location.url.as_str(), location.line), ("chain.js", 2));
}

/// A task that keeps queueing tasks (a zero timer re-armed forever) is no
/// script running at the time: the page is stopped all the same.
#[test]
fn a_page_that_never_idles_is_stopped() {
    if !common::own_process() {
        return;
    }
    let interruption = under_watchdog(Duration::from_millis(500), |rt| {
        eval(rt, "function tick() { setTimeout(tick, 0); } tick(); 0");
    })
    .expect("the watchdog fired");
    if let Some(location) = interruption.location {
        assert_eq!(location.url, "check.js");
    }
}

/// An animation frame callback that requests itself forever keeps the
/// frame clock running (the page never idles), as does an idle callback
/// that requests itself forever: the watchdog stops the page all the
/// same, with the timeout's status (the run does not end idle).
#[test]
fn endless_animation_frames_and_idle_callbacks_are_stopped() {
    if !common::own_process() {
        return;
    }
    for source in [
        "function again(t) { log.push(t); requestAnimationFrame(again); } requestAnimationFrame(again); 0",
        "function again(d) { log.push(d.timeRemaining()); requestIdleCallback(again); } requestIdleCallback(again); 0",
        "function again(d) { requestAnimationFrame(() => requestIdleCallback(again)); } requestIdleCallback(again); 0",
    ] {
        let interruption = under_watchdog(Duration::from_millis(500), |rt| {
            eval(rt, source);
        })
        .expect("the watchdog fired");
        if let Some(location) = interruption.location {
            assert_eq!(location.url, "check.js", "{source}");
        }
    }
}

/// A busy loop and an endless microtask chain in dedicated workers (the
/// page idle, waiting for them): the watchdog interrupts the workers too,
/// the page's run ends, the workers' threads are joined.
#[test]
fn busy_workers_are_interrupted() {
    if !common::own_process() {
        return;
    }
    for (source, line) in [
        ("postMessage('started');\nwhile (true) {}", 2),
        (
            "postMessage('started');\nfunction again() { queueMicrotask(again); }\nagain();",
            2,
        ),
    ] {
        let interruption = under_watchdog(Duration::from_millis(800), |rt| {
            eval(
                rt,
                &format!("var w = blobWorker({source:?}); w.onmessage = e => log.push(e.data); 0"),
            );
        })
        .expect("the watchdog fired");
        let location = interruption.location.expect("the worker was running");
        assert!(location.url.starts_with("blob:"), "{location:?}");
        assert_eq!(location.line, line);
        assert!(location.in_worker);
    }
}

/// Loads `body` (with the `js-profiling` policy) under a watchdog of
/// 800 ms; returns where the watchdog interrupted script, after checking
/// the bound and that no thread (sampler, worker, watchdog) is left.
fn interrupted_page_with_policy(body: String) -> watchdog::ScriptLocation {
    let server = TestServer::start().unwrap();
    let dog = Watchdog::arm(Duration::from_millis(800)).unwrap();
    let start = Instant::now();
    server.route("/index.html", move |_| common::html_with_policy(&body));
    let mut rt = JsRuntime::new_for_tests().unwrap();
    rt.load_page(
        &server.http_url(common::SAME, "/index.html"),
        common::fetcher(&server),
    )
    .unwrap();
    assert!(!rt.run_until_idle(None));
    drop(rt);
    let location = dog.interruption().unwrap().location.unwrap();
    drop(dog);
    assert!(start.elapsed() < HANG_BOUND, "took {:?}", start.elapsed());
    assert_no_thread_left();
    location
}

/// A profiler running in the page does not keep it alive, and its
/// sampler is shut down with the page.
#[test]
fn a_running_profiler_does_not_keep_a_busy_page_alive() {
    if !common::own_process() {
        return;
    }
    let location = interrupted_page_with_policy(
        "<script>\nvar p = new Profiler({ sampleInterval: 1, maxBufferSize: 100000 });\n\
         function spin() { while (true) {} }\nspin();\n</script>"
            .to_owned(),
    );
    assert!(location.url.ends_with("/index.html"), "{location:?}");
    assert_eq!(location.line, 3);
}

/// The same in a worker profiling itself: the worker's sampler does not
/// keep it alive either.
#[test]
fn a_running_profiler_does_not_keep_a_busy_worker_alive() {
    if !common::own_process() {
        return;
    }
    let worker = "var p = new Profiler({ sampleInterval: 1, maxBufferSize: 100000 });\n\
                  postMessage('profiling');\nwhile (true) {}";
    let location = interrupted_page_with_policy(format!(
        "<script>{PRELUDE}\nvar w = blobWorker({worker:?});\n\
         w.onmessage = e => log.push(e.data);</script>"
    ));
    assert!(location.in_worker, "{location:?}");
    assert_eq!(location.line, 3);
}

// ---------------------------------------------------------- heap ceiling

/// Endless allocation in the page hits the heap ceiling: SpiderMonkey's
/// out-of-memory error, which a page can catch, and which uncaught is
/// reported like any uncaught error (or the stop of the whole-memory
/// check, reported the same way); the page goes on afterwards.
#[test]
fn the_heap_ceiling_stops_endless_allocation_in_the_page() {
    if !common::own_process() {
        return;
    }
    watchdog::set_max_heap_mb(16);
    let mut rt = runtime();
    let start = Instant::now();
    // In a script: SpiderMonkey's out-of-memory error reaches `catch` or,
    // on paths where it cannot (it ran out again there), ends the script
    // like an uncaught error; `finally` runs either way, and the page goes
    // on.
    let outcome = rt.evaluate(
        "var a = [];\ntry { for (;;) a.push({ n: a.length }); }\n\
         catch (e) { a = null; log.push(String(e)); } finally { a = null; log.push('finally'); }",
        "alloc.js",
        1,
    );
    let log = eval(&mut rt, "log.join()");
    match outcome {
        Ok(_) => assert_eq!(log, "out of memory,finally"),
        // The ceiling on the agent's whole memory (GC heap and malloc'd
        // memory, checked at collections) stopped the script first: an
        // uncatchable stop reported as an out-of-memory error, where
        // neither `catch` nor `finally` runs.
        Err(error) if error.message == "out of memory" => {
            assert_eq!(error.filename, "alloc.js");
            assert_eq!(log, "");
        }
        Err(error) => {
            assert_eq!(error.message, "uncaught exception: out of memory");
            assert_eq!(log, "finally");
        }
    }
    eval(&mut rt, "log = []; 0");
    // Uncaught, in a task: reported, and the page goes on.
    run_to_idle(
        &mut rt,
        "var kept = []; setTimeout(() => { for (;;) kept.push({ n: kept.length }); }, 0);\n\
         setTimeout(() => { kept = null; log.push('after'); }, 10); 0",
    );
    let errors = rt.take_reported_errors();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].message.contains("out of memory"), "{errors:?}");
    assert_eq!(eval(&mut rt, "log.join()"), "after");
    watchdog::set_max_heap_mb(watchdog::DEFAULT_MAX_HEAP_MB);
    finish(rt, start);
}

/// The same in a worker: the worker's error reaches the page (its `error`
/// event), the page survives.
#[test]
fn the_heap_ceiling_stops_endless_allocation_in_a_worker() {
    if !common::own_process() {
        return;
    }
    watchdog::set_max_heap_mb(16);
    let mut rt = runtime();
    let start = Instant::now();
    run_to_idle(
        &mut rt,
        "var w = blobWorker('var kept = []; for (;;) kept.push({ n: kept.length });');\n\
         w.onerror = e => { log.push(e.message); e.preventDefault(); }; 0",
    );
    let log = eval(&mut rt, "log.join('|')");
    assert!(log.contains("out of memory"), "{log}");
    assert_eq!(eval(&mut rt, "'page alive'"), "page alive");
    watchdog::set_max_heap_mb(watchdog::DEFAULT_MAX_HEAP_MB);
    finish(rt, start);
}

/// Memory outside the GC heap: 64 MiB ArrayBuffers (their contents are
/// malloc'd), and flat 2 MiB strings (their characters are malloc'd),
/// kept alive without end. The ceiling (`--max-heap 256`) counts them:
/// the task is stopped with an out-of-memory error reported like any
/// uncaught error, after at most the documented overshoot (one collection
/// trigger's growth, at most 3 times the ceiling), and the page goes on.
const MALLOC_GROWTH: [(&str, &str, u32); 2] = [
    ("array buffers", "new ArrayBuffer(64 << 20)", 64),
    (
        "strings",
        "new Array((1 << 20) + 1).join(String.fromCharCode(97 + kept.length % 26) + 'b')",
        2,
    ),
];

#[test]
fn the_memory_ceiling_counts_malloced_memory_in_the_page() {
    if !common::own_process() {
        return;
    }
    watchdog::set_max_heap_mb(256);
    let mut rt = runtime();
    let start = Instant::now();
    for (name, make, mib_each) in MALLOC_GROWTH {
        eval(&mut rt, "log = []; 0");
        run_to_idle(
            &mut rt,
            &format!(
                "var kept = [];\nsetTimeout(() => {{ for (;;) kept.push({make}); }}, 0);\n\
                 setTimeout(() => {{ log.push(kept.length); kept = null; log.push('after'); }}, 10); 0"
            ),
        );
        let errors = rt.take_reported_errors();
        assert_eq!(errors.len(), 1, "{name}: {errors:?}");
        assert_eq!(errors[0].message, "out of memory", "{name}: {errors:?}");
        assert_eq!(errors[0].filename, "check.js", "{name}: {errors:?}");
        assert_eq!(errors[0].line, 2, "{name}: {errors:?}");
        let log = eval(&mut rt, "log.join()");
        let (count, after) = log
            .split_once(',')
            .unwrap_or_else(|| panic!("{name}: {log}"));
        assert_eq!(after, "after", "{name}");
        let grown: u32 = count.parse::<u32>().unwrap() * mib_each;
        assert!(
            (128..=3 * 256).contains(&grown),
            "{name}: stopped at {grown} MiB kept"
        );
    }
    // A script's own allocation below the ceiling runs as before.
    assert_eq!(
        eval(&mut rt, "var small = []; for (let i = 0; i < 2; i++) small.push(new ArrayBuffer(64 << 20)); small.length"),
        "2"
    );
    watchdog::set_max_heap_mb(watchdog::DEFAULT_MAX_HEAP_MB);
    finish(rt, start);
}

/// The same in a worker: the worker's script is stopped with the
/// out-of-memory error, which reaches the page as the worker's `error`
/// event; the page survives.
#[test]
fn the_memory_ceiling_counts_malloced_memory_in_a_worker() {
    if !common::own_process() {
        return;
    }
    watchdog::set_max_heap_mb(256);
    let mut rt = runtime();
    let start = Instant::now();
    for (name, make, _) in MALLOC_GROWTH {
        eval(&mut rt, "log = []; 0");
        run_to_idle(
            &mut rt,
            &format!(
                "var w = blobWorker('var kept = []; for (;;) kept.push({});');\n\
                 w.onerror = e => {{ log.push(e.message); e.preventDefault(); }}; 0",
                make.replace('\'', "\\'")
            ),
        );
        let log = eval(&mut rt, "log.join('|')");
        assert_eq!(log, "out of memory", "{name}");
        assert_eq!(eval(&mut rt, "'page alive'"), "page alive");
    }
    watchdog::set_max_heap_mb(watchdog::DEFAULT_MAX_HEAP_MB);
    finish(rt, start);
}

// ---------------------------------------------------------------- storms

/// A million timers, all firing: the page runs them all and goes idle; a
/// million pending (far-future) timers: the watchdog stops the page and
/// dropping it frees them.
#[test]
fn a_million_timers() {
    if !common::own_process() {
        return;
    }
    let start = Instant::now();
    let mut rt = runtime();
    run_to_idle(
        &mut rt,
        "var fired = 0; for (let i = 0; i < 1e6; i++) setTimeout(() => { fired++; }, 0); 0",
    );
    assert_eq!(eval(&mut rt, "fired"), "1000000");
    drop(rt);
    // Pending: the watchdog (armed once they are scheduled) stops the page
    // waiting for them.
    let mut rt = runtime();
    eval(
        &mut rt,
        "for (let i = 0; i < 1e6; i++) setTimeout(() => {}, 1e9); 0",
    );
    let dog = Watchdog::arm(Duration::from_millis(500)).unwrap();
    assert!(!rt.run_until_idle(None));
    drop(rt);
    let interruption = dog.interruption().expect("the watchdog fired");
    drop(dog);
    assert_eq!(interruption.location, None, "no script was running");
    assert!(start.elapsed() < HANG_BOUND);
    assert_no_thread_left();
}

/// A million messages to a worker and a million back.
#[test]
fn a_million_messages_to_a_worker_and_back() {
    if !common::own_process() {
        return;
    }
    let start = Instant::now();
    let mut rt = runtime();
    run_to_idle(
        &mut rt,
        "var got = 0; var w = blobWorker('onmessage = e => postMessage(e.data);');\n\
         w.onmessage = e => { got++; if (got === 1e6) w.terminate(); };\n\
         for (let i = 0; i < 1e6; i++) w.postMessage(i); 0",
    );
    assert_eq!(eval(&mut rt, "got"), "1000000");
    finish(rt, start);
}

/// Unbounded recursion in a worker: the worker reports "too much
/// recursion", the page survives.
#[test]
fn unbounded_recursion_in_a_worker_is_an_error() {
    if !common::own_process() {
        return;
    }
    let mut rt = runtime();
    run_to_idle(
        &mut rt,
        "var w = blobWorker('function f(n) { return f(n + 1) + 1; }\\nf(0);');\n\
         w.onerror = e => { log.push(e.message + '@' + e.lineno); e.preventDefault(); }; 0",
    );
    assert_eq!(
        eval(&mut rt, "log.join('|')"),
        "InternalError: too much recursion@1"
    );
    assert_eq!(eval(&mut rt, "'page alive'"), "page alive");
    drop(rt);
    assert_no_thread_left();
}

/// 5,000 concurrent profilers, `stop()` called 10 times on each: every
/// call's promise settles, the page goes idle, the sampler is gone after.
#[test]
fn five_thousand_profilers_stopped_many_times() {
    if !common::own_process() {
        return;
    }
    let server = TestServer::start().unwrap();
    let start = Instant::now();
    let mut rt = common::page_with_policy(
        &server,
        "",
        "<script>\nvar settled = 0; var ps = [];\n\
         for (let i = 0; i < 5000; i++) ps.push(new Profiler({ sampleInterval: 10, maxBufferSize: 100 }));\n\
         for (const p of ps) for (let k = 0; k < 10; k++) p.stop().then(() => settled++, () => settled++);\n\
         </script>",
    );
    assert_eq!(eval(&mut rt, "settled"), "50000");
    finish(rt, start);
}

/// A Blob asking for more than the 2 GiB limit (parts repeating a large
/// Blob) is a `RangeError`, not an allocation that aborts the process.
#[test]
fn a_huge_blob_is_a_range_error() {
    let mut rt = runtime();
    let out = eval(
        &mut rt,
        "var big = new Blob(['x'.repeat(1 << 24)]);\n\
         try { new Blob(Array(200).fill(big)); 'made' } catch (e) { String(e) }",
    );
    assert_eq!(
        out,
        "RangeError: the Blob would be larger than the 2147483648-byte limit"
    );
    assert_eq!(
        eval(&mut rt, "new Blob(Array(4).fill(big)).size"),
        "67108864"
    );
}
