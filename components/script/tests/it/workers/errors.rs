//! Errors in and of workers: error events at the `Worker` object,
//! reporting in the owner's global, unhandled rejections, failed loads,
//! bad arguments, error reporting mode, and a panicking worker thread.

use super::{idle, run, run_alone, run_sorted, runtime, worker_threads};
use crate::common;
use jsprof_script::runtime::workers;

#[test]
fn uncaught_errors_fire_error_events_at_the_worker_object() {
    let mut rt = runtime();
    let log = run(
        &mut rt,
        r#"
        const src = `onmessage = () => { undefinedFunction(); };
            throw new TypeError('boom');`;
        const url = blobURL(src);
        const w = new Worker(url);
        w.onerror = (e) => {
            log.push([e.constructor.name, e.message, e.filename === url, e.lineno, e.colno > 0,
                e.error, e.cancelable]);
            e.preventDefault();
            if (log.length === 1) w.postMessage('again');
        };
        addEventListener('error', () => log.push('window error (unexpected)'));
        "#,
    );
    assert_eq!(
        log,
        r#"[["ErrorEvent","TypeError: boom",true,2,true,null,true],["ErrorEvent","ReferenceError: undefinedFunction is not defined",true,1,true,null,true]]"#
    );
    assert!(rt.reported_errors().is_empty());
}

#[test]
fn errors_handled_in_the_worker_do_not_reach_the_owner() {
    let log = run_alone(
        r#"
        const w = dataWorker(`
            addEventListener('error', (e) => { e.preventDefault(); postMessage('worker saw ' + e.message); });
            setTimeout(() => { throw new Error('late'); });
        `);
        w.onmessage = (e) => log.push(e.data);
        w.onerror = () => log.push('owner saw it (unexpected)');
        "#,
    );
    assert_eq!(log, r#"["worker saw Error: late"]"#);
}

#[test]
fn unhandled_worker_errors_are_reported_in_the_owners_global() {
    let mut rt = runtime();
    let log = run(
        &mut rt,
        r#"
        const w = dataWorker(`throw new RangeError('up')`);
        w.addEventListener('error', (e) => log.push('worker object: ' + e.message));
        addEventListener('error', (e) => { log.push('window: ' + e.message + ' ' + e.lineno); });
        "#,
    );
    assert_eq!(
        log,
        r#"["worker object: RangeError: up","window: RangeError: up 1"]"#
    );
    let errors = rt.take_reported_errors();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].message, "RangeError: up");
    assert!(errors[0].filename.starts_with("data:text/javascript,"));
}

#[test]
fn unhandled_rejections_in_workers_fire_at_the_worker_global() {
    let log = run_alone(
        r#"
        const w = dataWorker(`
            addEventListener('unhandledrejection', (e) => { e.preventDefault(); postMessage('unhandled ' + e.reason); });
            Promise.reject(7);
        `);
        w.onmessage = (e) => log.push(e.data);
        "#,
    );
    assert_eq!(log, r#"["unhandled 7"]"#);
}

#[test]
fn failed_loads_and_parse_errors_fire_a_plain_error_event() {
    let mut rt = runtime();
    let log = run_sorted(
        &mut rt,
        r#"
        function watch(label, w) {
            w.onerror = (e) => log.push(label + ':' + e.constructor.name + ':' + (e instanceof ErrorEvent));
            w.onmessage = (e) => log.push(label + ': ran');
        }
        watch('revoked', new Worker('blob:null/00000000-0000-0000-0000-000000000000'));
        watch('syntax', dataWorker('postMessage(1); let let = ;'));
        watch('bad data', new Worker('data:text/javascript;base64,%%%'));
        watch('unsupported scheme', new Worker('ftp://example.test/w.js'));
        "#,
    );
    assert_eq!(
        log,
        r#"["bad data:Event:false","revoked:Event:false","syntax:Event:false","unsupported scheme:Event:false"]"#
    );
    // Nothing reached the window.
    assert!(rt.reported_errors().is_empty());
}

#[test]
fn bad_arguments_throw_synchronously() {
    let mut rt = runtime();
    let result = rt
        .evaluate(
            r#"
            const out = [];
            try { new Worker('http://[::1'); } catch (e) { out.push(e.name); }
            try { new Worker(dataURL('1'), { type: 'nope' }); } catch (e) { out.push(e.name); }
            try { Worker(dataURL('1')); } catch (e) { out.push(e.name); }
            out.join();
            "#,
            "t.js",
            1,
        )
        .unwrap();
    assert_eq!(result, "SyntaxError,TypeError,TypeError");
    idle(&mut rt);
}

#[test]
fn a_throwing_onerror_handler_is_not_called_again_for_its_own_exception() {
    let mut rt = runtime();
    // HTML "report an exception": while the global is in error reporting
    // mode, an exception the error handler throws is not dispatched again
    // (no recursion); it is reported (console, the list of reported
    // errors) instead.
    let log = run(
        &mut rt,
        r#"
        self.onerror = () => { log.push('window handler'); throw 0; };
        setTimeout(() => { throw new Error('first'); });
        "#,
    );
    assert_eq!(log, r#"["window handler"]"#);
    let errors = rt.take_reported_errors();
    assert_eq!(
        errors.len(),
        2,
        "the handler's exception and the first: {errors:?}"
    );
    // The same in a worker: its handler runs once; neither exception is
    // handled, so both reach the Worker object.
    let log = run(
        &mut rt,
        r#"
        log = [];
        const w = dataWorker(`
            self.onerror = () => { postMessage('worker handler'); throw 0; };
            setTimeout(() => { throw new Error('first'); });
        `);
        w.onmessage = (e) => log.push(e.data);
        w.onerror = (e) => { e.preventDefault(); log.push('at the Worker'); };
        "#,
    );
    assert_eq!(log, r#"["worker handler","at the Worker","at the Worker"]"#);
}

#[test]
fn a_worker_panicking_after_publishing_its_context_unpublishes_it_first() {
    if !common::own_process() {
        return;
    }
    let mut rt = runtime();
    let before = worker_threads();
    // The worker thread's panic unwinds through run_a_worker: its context
    // must be unpublished (so that no terminate() requests an interrupt on
    // it) before its runtime destroys it.
    workers::panic_in_next_worker_after_publishing_its_context();
    let log = run(
        &mut rt,
        "dataWorker('postMessage(1)').onmessage = (e) => log.push('ran (unexpected)');",
    );
    assert_eq!(log, "[]");
    // The thread ended with its panic (the page is idle only then).
    assert_eq!(worker_threads(), before);
    assert_eq!(workers::contexts_dropped_while_published(), 0);
}
