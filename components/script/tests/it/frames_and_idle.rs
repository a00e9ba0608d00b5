//! `requestAnimationFrame`/`cancelAnimationFrame` (run by the event loop's
//! "update the rendering" step while callbacks wait) and
//! `requestIdleCallback`/`cancelIdleCallback` (run in idle periods, or by
//! their timeout), in a page and its iframes. Each test runs the page to
//! idle: the frame clock stops once no callback waits.

use std::time::{Duration, Instant};

use crate::common;
use crate::common::SAME;
use jsprof_script::JsRuntime;
use jsprof_test_server::TestServer;

/// Far longer than any of these runs may take: a hang-catcher.
const HANG_BOUND: Duration = Duration::from_secs(60);

fn runtime() -> JsRuntime {
    let mut rt = JsRuntime::new_for_tests().expect("runtime");
    rt.evaluate("var log = [];", "prelude.js", 1).unwrap();
    rt
}

fn eval(rt: &mut JsRuntime, source: &str) -> String {
    rt.evaluate(source, "check.js", 1)
        .unwrap_or_else(|e| panic!("{source}: {e:?}"))
}

/// Evaluates `source`, runs the page to idle (it must get there: no
/// callback is left), returns `log.join()`.
fn run(rt: &mut JsRuntime, source: &str) -> String {
    eval(rt, source);
    let start = Instant::now();
    assert!(
        rt.run_until_idle(Some(start + HANG_BOUND)),
        "the page did not become idle"
    );
    eval(rt, "log.join()")
}

#[test]
fn animation_frame_callbacks_run_in_request_order_with_the_frame_timestamp() {
    let mut rt = runtime();
    let log = run(
        &mut rt,
        "var stamps = [];\n\
         var before = performance.now();\n\
         var h1 = requestAnimationFrame(t => { stamps.push(t); log.push('a:' + (t <= performance.now())); });\n\
         var h2 = requestAnimationFrame(t => { stamps.push(t); log.push('b'); });\n\
         var h3 = requestAnimationFrame(t => { stamps.push(t); log.push('c'); });\n\
         log.push('handles:' + [h1, h2, h3].join('/'));\n\
         log.push('sync');",
    );
    assert_eq!(log, "handles:1/2/3,sync,a:true,b,c");
    // One frame: the same timestamp for every callback, from the frame's
    // start (after the request, on performance.now()'s time origin).
    assert_eq!(
        eval(
            &mut rt,
            "stamps.length === 3 && stamps.every(s => s === stamps[0]) && stamps[0] >= before"
        ),
        "true"
    );
    assert!(rt.take_reported_errors().is_empty());
}

#[test]
fn a_chain_of_frames_has_increasing_timestamps_and_then_the_clock_stops() {
    let mut rt = runtime();
    let log = run(
        &mut rt,
        "var stamps = [];\n\
         function frame(t) { stamps.push(t); if (stamps.length < 10) requestAnimationFrame(frame); }\n\
         requestAnimationFrame(frame);",
    );
    assert_eq!(log, "");
    assert_eq!(
        eval(
            &mut rt,
            "stamps.length + ':' + stamps.every((s, i) => i === 0 || s > stamps[i - 1])"
        ),
        "10:true"
    );
    // The page was idle once the chain ended (run() checked); a new
    // request starts the clock again.
    assert_eq!(
        run(
            &mut rt,
            "requestAnimationFrame(t => log.push('again:' + (t > stamps[9])));"
        ),
        "again:true"
    );
}

#[test]
fn cancel_inside_a_callback_and_requests_for_the_next_frame() {
    let mut rt = runtime();
    let log = run(
        &mut rt,
        "var frameOf = {};\n\
         var second;\n\
         requestAnimationFrame(t => {\n\
           frameOf.first = t;\n\
           log.push('first');\n\
           cancelAnimationFrame(second);\n\
           requestAnimationFrame(t2 => { log.push('next:' + (t2 > frameOf.first)); });\n\
           cancelAnimationFrame(12345);\n\
         });\n\
         second = requestAnimationFrame(() => log.push('canceled one ran'));\n\
         requestAnimationFrame(t => log.push('third:' + (t === frameOf.first)));\n\
         var never = requestAnimationFrame(() => log.push('never'));\n\
         cancelAnimationFrame(never);",
    );
    assert_eq!(log, "first,third:true,next:true");
}

#[test]
fn an_exception_in_a_callback_is_reported_and_the_frame_goes_on() {
    let mut rt = runtime();
    let log = run(
        &mut rt,
        "requestAnimationFrame(() => { log.push('a'); throw new Error('boom'); });\n\
         requestAnimationFrame(() => { Promise.resolve().then(() => log.push('microtask')); log.push('b'); });\n\
         requestAnimationFrame(() => log.push('c'));",
    );
    // Microtasks run after each callback (clean up after running script).
    assert_eq!(log, "a,b,microtask,c");
    let log = run(
        &mut rt,
        "log = [];\n\
         requestIdleCallback(() => { throw new TypeError('idle boom'); });\n\
         requestIdleCallback(() => log.push('idle after'));",
    );
    assert_eq!(log, "idle after");
    let errors = rt.take_reported_errors();
    let messages: Vec<&str> = errors.iter().map(|e| e.message.as_str()).collect();
    assert_eq!(messages, ["Error: boom", "TypeError: idle boom"]);
}

#[test]
fn bad_arguments_are_type_errors() {
    let mut rt = runtime();
    assert_eq!(
        eval(
            &mut rt,
            "[() => requestAnimationFrame(), () => requestAnimationFrame(42),\n\
              () => requestIdleCallback('x'), () => requestIdleCallback(() => {}, 5),\n\
              () => requestIdleCallback(() => {}, { timeout: -1 })]\n\
             .map(f => { try { f(); return 'ok'; } catch (e) { return e.name; } }).join()"
        ),
        "TypeError,TypeError,TypeError,TypeError,ok"
    );
    // (`timeout: -1` converts to 4294967295 ms, as in browsers: a timeout
    // that never comes; the callback runs in the next idle period.)
    assert_eq!(
        run(&mut rt, "requestIdleCallback(d => log.push(d.didTimeout));"),
        "false"
    );
    assert!(rt.take_reported_errors().is_empty());
}

#[test]
fn idle_callbacks_run_in_order_with_deadlines_of_at_most_50_ms() {
    let mut rt = runtime();
    let log = run(
        &mut rt,
        "var remaining = [];\n\
         requestIdleCallback(d => { remaining.push(d.timeRemaining()); log.push('1:' + d.didTimeout);\n\
           requestIdleCallback(() => log.push('requested in 1')); });\n\
         var two = requestIdleCallback(() => log.push('canceled one ran'));\n\
         requestIdleCallback(d => { remaining.push(d.timeRemaining()); log.push('3'); cancelIdleCallback(two); });\n\
         cancelIdleCallback(two);\n\
         log.push('sync');",
    );
    assert_eq!(log, "sync,1:false,3,requested in 1");
    assert_eq!(
        eval(
            &mut rt,
            "remaining.length === 2 && remaining.every(r => r >= 0 && r <= 50) && \
             typeof IdleDeadline === 'function' && IdleDeadline.prototype.hasOwnProperty('didTimeout')"
        ),
        "true"
    );
}

#[test]
fn a_pending_animation_frame_shortens_the_idle_deadline_to_the_next_frame() {
    let mut rt = runtime();
    // With a frame waiting, the idle period ends at the next render
    // deadline: one frame (16.7 ms, and the coarsening of 0.1 ms) after
    // the last render opportunity. (Whether the idle period comes before
    // the next frame depends on how long the frame took: when the frame
    // ran first, no frame waits and the deadline is the 50 ms one.)
    let log = run(
        &mut rt,
        "var frameRan = false;\n\
         requestAnimationFrame(() => {\n\
           requestAnimationFrame(() => { frameRan = true; });\n\
           requestIdleCallback(d => log.push('idle:' + (d.timeRemaining() <= (frameRan ? 50 : 16.8))));\n\
         });",
    );
    assert_eq!(log, "idle:true");
}

#[test]
fn the_timeout_runs_an_idle_callback_when_the_page_stays_busy() {
    let mut rt = runtime();
    // A task that keeps the loop busy past the timeout: the timeout's task
    // runs the callback (didTimeout, no time remaining) before any idle
    // period; a callback without timeout waits for the idle period.
    let log = run(
        &mut rt,
        "requestIdleCallback(d => log.push('no timeout:' + d.didTimeout));\n\
         requestIdleCallback(d => log.push('timeout:' + d.didTimeout + ':' + d.timeRemaining()), { timeout: 5 });\n\
         var canceled = requestIdleCallback(() => log.push('canceled ran'), { timeout: 5 });\n\
         cancelIdleCallback(canceled);\n\
         setTimeout(() => { const end = performance.now() + 30; while (performance.now() < end) {} }, 0);",
    );
    assert_eq!(log, "timeout:true:0,no timeout:false");
}

#[test]
fn a_canceled_long_timeout_does_not_keep_the_page_alive() {
    let mut rt = runtime();
    let start = Instant::now();
    let log = run(
        &mut rt,
        "var h = requestIdleCallback(() => log.push('ran'), { timeout: 1000000 });\n\
         cancelIdleCallback(h);\n\
         var f = requestAnimationFrame(() => log.push('frame ran'));\n\
         cancelAnimationFrame(f);",
    );
    assert_eq!(log, "");
    // (A hang-catcher: the page is idle at once, not after the timeout.)
    assert!(start.elapsed() < Duration::from_secs(100));
}

/// The callbacks of an iframe's document run in the same frame as the
/// page's, after them, each with the frame's start on its own time origin.
#[test]
fn iframe_callbacks_run_in_the_same_frame() {
    let server = TestServer::start().unwrap();
    server.route("/index.html", |_| {
        common::html(
            "<script>var log = []; var stamps = {};</script>\
             <iframe src=/child.html></iframe>\
             <script>addEventListener('load', () => {\
               const child = frames[0];\
               child.requestAnimationFrame(t => { log.push('child'); stamps.child = t + child.performance.timeOrigin; });\
               requestAnimationFrame(t => { log.push('parent'); stamps.parent = t + performance.timeOrigin; });\
               child.requestIdleCallback(d => log.push('child idle:' + (d.timeRemaining() <= 50)));\
             });</script>",
        )
    });
    server.route("/child.html", |_| common::html("<p>child</p>"));
    let mut rt = common::load(&server, &server.http_url(SAME, "/index.html"));
    assert_eq!(
        rt.evaluate("log.filter(e => !e.includes('idle')).join()", "check.js", 1)
            .unwrap(),
        "parent,child"
    );
    assert_eq!(
        rt.evaluate("log.filter(e => e.includes('idle')).join()", "check.js", 1)
            .unwrap(),
        "child idle:true"
    );
    // The same instant on both time origins (within the coarsening of the
    // time origins and timestamps).
    assert_eq!(
        rt.evaluate("Math.abs(stamps.parent - stamps.child) < 1", "check.js", 1)
            .unwrap(),
        "true"
    );
}

/// A removed iframe's callbacks never run (its realm is discarded), and
/// its pending idle timeout finds nothing to run.
#[test]
fn a_removed_iframe_runs_no_callbacks() {
    let server = TestServer::start().unwrap();
    server.route("/index.html", |_| {
        common::html(
            "<script>var log = [];</script>\
             <iframe src=/child.html></iframe>\
             <script>addEventListener('load', () => {\
               const child = frames[0];\
               child.requestAnimationFrame(() => log.push('child frame'));\
               child.requestIdleCallback(() => log.push('child idle'));\
               child.requestIdleCallback(() => log.push('child timeout'), { timeout: 20 });\
               document.querySelector('iframe').remove();\
               requestAnimationFrame(() => log.push('parent frame'));\
               setTimeout(() => log.push('after the timeout'), 40);\
             });</script>",
        )
    });
    server.route("/child.html", |_| common::html("<p>child</p>"));
    let mut rt = common::load(&server, &server.http_url(SAME, "/index.html"));
    assert_eq!(
        rt.evaluate("log.join()", "check.js", 1).unwrap(),
        "parent frame,after the timeout"
    );
}
