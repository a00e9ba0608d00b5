//! Page-loading tests: pages are written to a temp dir and loaded from
//! `file:` URLs; each page records what happened in `window.log`, read
//! back after the event loop went idle.

use std::rc::Rc;

use crate::common;
use jsprof_script::JsRuntime;

fn fetcher() -> jsprof_net::Fetcher {
    jsprof_net::Fetcher::new(jsprof_net::NetConfig::default()).unwrap()
}

/// Loads `files[0]` (others are beside it), runs to idle, returns the
/// runtime.
fn load(name: &str, files: &[(&str, &str)]) -> JsRuntime {
    common::load_files(&common::temp_dir("page", name), files)
}

fn log(rt: &mut JsRuntime) -> String {
    rt.evaluate("window.log.join(',')", "check.js", 1).unwrap()
}

#[test]
fn scripts_run_in_document_order_with_defer_and_async() {
    let mut rt = load(
        "order",
        &[
            (
                "index.html",
                "<!DOCTYPE html><script>window.log = ['inline1'];</script>\n\
                 <script src=defer.js defer></script>\n\
                 <script src=async.js async></script>\n\
                 <script src=sync.js></script>\n\
                 <script>log.push('inline2:' + document.currentScript.tagName)</script>\n\
                 <script>document.addEventListener('DOMContentLoaded', () => log.push('dcl'));\n\
                 addEventListener('load', () => log.push('load:' + document.readyState));</script>",
            ),
            ("defer.js", "log.push('defer:' + document.readyState)"),
            ("async.js", "log.push('async')"),
            ("sync.js", "log.push('sync')"),
        ],
    );
    // The async script runs when its fetch (on a fetch thread) completes:
    // before or after DOMContentLoaded (HTML allows either order), always
    // before load (it delays the load event).
    let order = log(&mut rt);
    let without_async = order.replace(",async", "");
    assert_eq!(
        without_async, "inline1,sync,inline2:SCRIPT,defer:interactive,dcl,load:complete",
        "{order}"
    );
    assert!(order.find("async") < order.find("load:"), "{order}");
    assert_eq!(order.matches("async").count(), 1, "{order}");
}

#[test]
fn error_positions_are_in_the_html_file_and_the_script_file() {
    let mut rt = load(
        "errors",
        &[
            (
                "index.html",
                "<!DOCTYPE html>\n<html>\n<head>\n<script>window.log = [];\n\
                 addEventListener('error', e => log.push(e.lineno));\n\
                 undefinedFunction();\n</script>\n<script src=ext.js></script>",
            ),
            ("ext.js", "// line 1\n\nnull.x;\n"),
        ],
    );
    let errors = rt.reported_errors();
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(errors[0].filename.ends_with("index.html"), "{errors:?}");
    assert_eq!(errors[0].line, 6);
    assert!(errors[1].filename.ends_with("ext.js"));
    assert_eq!(errors[1].line, 3);
    assert_eq!(log(&mut rt), "6,3");
}

#[test]
fn timers_and_microtasks_run_in_order() {
    let mut rt = load(
        "timers",
        &[(
            "index.html",
            "<script>window.log = [];\n\
             setTimeout(() => log.push('t2'), 2);\n\
             setTimeout((a, b) => { log.push('t0:' + a + b); Promise.resolve().then(() => log.push('p-in-t0')); }, 0, 'x', 'y');\n\
             const id = setTimeout(() => log.push('cleared'), 0); clearTimeout(id);\n\
             let n = 0; const iv = setInterval(() => { log.push('i' + n); if (++n == 2) clearInterval(iv); }, 1);\n\
             Promise.resolve().then(() => log.push('p'));\n\
             queueMicrotask(() => log.push('qm'));\n\
             log.push('sync');</script>",
        )],
    );
    let log = log(&mut rt);
    assert!(log.starts_with("sync,p,qm,t0:xy,p-in-t0"), "{log}");
    assert!(!log.contains("cleared"), "{log}");
    assert!(
        log.contains("i0") && log.contains("i1") && !log.contains("i2"),
        "{log}"
    );
}

#[test]
fn dom_queries_and_mutation() {
    let mut rt = load(
        "dom",
        &[(
            "index.html",
            "<title>T</title><div id=a class='x y'><p data-k=v>hi</p><p>there</p></div>\n\
             <script>window.log = [];\n\
             log.push(document.getElementById('a').tagName);\n\
             log.push(document.querySelectorAll('div p').length);\n\
             log.push(document.querySelector('.y [data-k=v]').textContent);\n\
             const s = document.createElement('span'); s.appendChild(document.createTextNode('new'));\n\
             document.body.appendChild(s); log.push(document.body.textContent.includes('new'));\n\
             document.body.removeChild(s); log.push(s.parentNode);\n\
             log.push(document.title, document.documentElement.nodeName, document.head.nodeName);\n\
             log.push(window === self && self === globalThis && window.window === window && frames === window && top === window);\n\
             log.push(location.href.startsWith('file:'), typeof performance.now(), crossOriginIsolated, isSecureContext);\n\
             </script>",
        )],
    );
    assert_eq!(
        log(&mut rt),
        "DIV,2,hi,true,,T,HTML,HEAD,true,true,number,false,true"
    );
}

#[test]
fn broken_pages_do_not_crash() {
    let mut rt = load(
        "broken",
        &[
            (
                "index.html",
                "<html><body><div><p>unclosed <b>tags<script>window.log = [];</script>\n\
                 <script src=missing.js onerror=x></script>\n\
                 <script>document.querySelector('script[src]').addEventListener('error', () => log.push('x'));</script>\n\
                 <script>syntax error here(</script>\n\
                 <script>log.push('after')</script>",
            ),
        ],
    );
    assert_eq!(log(&mut rt), "after");
    let errors = rt.reported_errors();
    assert_eq!(errors.len(), 2, "{errors:?}");
    // The `onerror=x` content attribute is compiled and run when the fetch
    // fails, as in browsers: `x` is not defined (the handler function
    // starts on line 2, its body on the next line).
    assert!(
        errors[0].message.starts_with("ReferenceError"),
        "{errors:?}"
    );
    assert_eq!(errors[0].line, 3);
    assert!(errors[1].message.contains("SyntaxError"), "{errors:?}");
    assert_eq!(errors[1].line, 4);
}

#[test]
fn a_missing_document_is_an_error() {
    let mut rt = JsRuntime::new().unwrap();
    let url = url::Url::parse("file:///nonexistent/jsprof/page.html").unwrap();
    assert!(rt.load_page(&url, Rc::new(fetcher())).is_err());
}

#[test]
fn data_urls_and_events() {
    let mut rt = load(
        "data",
        &[(
            "index.html",
            "<script>window.log = [];</script><script src='data:text/javascript,log.push(%22data%22)'></script>\n\
             <script>const e = new CustomEvent('c', {detail: 5}); addEventListener('c', ev => log.push(ev.detail)); dispatchEvent(e);</script>",
        )],
    );
    assert_eq!(log(&mut rt), "data,5");
}

#[test]
fn uncaught_dom_exceptions_are_reported_not_fatal() {
    let mut rt = load(
        "domexception",
        &[(
            "index.html",
            "<script>window.log = [];\
             addEventListener('error', e => log.push(e.message + '|' + e.error.name));</script>\
             <script>throw new DOMException('custom', 'SyntaxError');</script>\
             <script>document.createElement('not a name');</script>\
             <script>log.push('after')</script>",
        )],
    );
    assert_eq!(
        log(&mut rt),
        "SyntaxError: custom|SyntaxError,\
         InvalidCharacterError: The string contains invalid characters.|InvalidCharacterError,after"
    );
    assert_eq!(rt.reported_errors().len(), 2);
}

#[test]
fn unhandled_rejections_fire_events_and_late_handlers_fire_rejectionhandled() {
    let mut rt = load(
        "rejections",
        &[(
            "index.html",
            "<script>window.log = [];\
             addEventListener('unhandledrejection', e => {\
               log.push('unhandled:' + e.reason.message + ':' + (e.promise instanceof Promise)\
                 + ':' + e.cancelable + ':' + e.isTrusted);\
               if (e.reason.message === 'quiet') e.preventDefault();\
             });\
             onrejectionhandled = e => log.push('rejectionhandled:' + e.reason.message);\
             const p1 = Promise.reject(new Error('one'));\
             Promise.reject(new Error('quiet'));\
             Promise.reject(new Error('caught')).catch(() => log.push('caught'));\
             setTimeout(() => p1.catch(() => log.push('late catch')), 0);</script>",
        )],
    );
    assert_eq!(
        log(&mut rt),
        "caught,unhandled:one:true:true:true,unhandled:quiet:true:true:true,late catch,\
         rejectionhandled:one"
    );
}

#[test]
fn message_channels_deliver_cloned_messages_in_tasks() {
    let mut rt = load(
        "channel",
        &[(
            "index.html",
            "<script>window.log = [];\
             const { port1, port2 } = new MessageChannel();\
             const sent = { n: 1, nested: [2] };\
             port1.postMessage('queued before start');\
             port2.onmessage = e => log.push('port2:' + JSON.stringify(e.data) + ':'\
               + (e.data !== sent) + ':' + (e.target === port2));\
             port1.postMessage(sent);\
             port1.addEventListener('message', e => log.push('port1:' + e.data));\
             port2.postMessage('not started yet');\
             setTimeout(() => { port1.start(); }, 0);\
             const other = new MessageChannel();\
             other.port2.onmessage = () => log.push('closed port received');\
             other.port1.close();\
             other.port1.postMessage('dropped');\
             try { port1.postMessage(() => 1); } catch (e) { log.push(e.name); }\
             log.push('sync');</script>",
        )],
    );
    assert_eq!(
        log(&mut rt),
        "DataCloneError,sync,port2:\"queued before start\":true:true,\
         port2:{\"n\":1,\"nested\":[2]}:true:true,port1:not started yet"
    );
}
