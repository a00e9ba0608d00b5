//! `<iframe>` child browsing contexts (new Window globals in the same
//! agent), `frames`/`parent`/`top`/`contentWindow`, same- and
//! cross-origin access, and `window.postMessage`, on a loopback server
//! with two origins.

use crate::common;
use crate::common::{CROSS, SAME};
use jsprof_script::JsRuntime;
use jsprof_test_server::{TestResponse, TestServer};

fn html(body: &str) -> TestResponse {
    TestResponse::ok(body.to_owned()).with_content_type("text/html")
}

/// Loads `url` in a new (non-test) runtime and runs it to idle.
fn load(server: &TestServer, url: &url::Url) -> JsRuntime {
    common::load_in(JsRuntime::new().expect("runtime"), server, url)
}

fn log(rt: &mut JsRuntime) -> String {
    rt.evaluate("window.log.join(',')", "check.js", 1).unwrap()
}

#[test]
fn a_same_origin_iframe_is_scriptable_both_ways() {
    let server = TestServer::start().unwrap();
    server.route("/index.html", |_| {
        html(
            "<title>parent</title><script>window.log = ['length:' + frames.length]</script>\
             <iframe src=/child.html></iframe>\
             <script>const iframe = document.querySelector('iframe');\
             iframe.addEventListener('load', () => {\
               const w = iframe.contentWindow;\
               log.push('iframe-load', 'length:' + frames.length,\
                 'same:' + (frames[0] === w), 'value:' + w.childValue,\
                 'title:' + iframe.contentDocument.title,\
                 'doc:' + (w.document === iframe.contentDocument),\
                 'parent:' + (w.parent === window), 'top:' + (w.top === window),\
                 'own-global:' + (w !== window && w.Array !== Array));\
             });\
             addEventListener('load', () => log.push('parent-load'));</script>",
        )
    });
    server.route("/child.html", |_| {
        html(
            "<title>child</title><script>window.childValue = 42;\
             parent.log.push('child-script:' + parent.document.title + ':' + (parent === top)\
               + ':' + (self !== parent));\
             addEventListener('load', () => parent.log.push('child-load'));</script>",
        )
    });
    let mut rt = load(&server, &server.http_url(SAME, "/index.html"));
    assert_eq!(
        log(&mut rt),
        "length:0,child-script:parent:true:true,child-load,iframe-load,length:1,same:true,\
         value:42,title:child,doc:true,parent:true,top:true,own-global:true,parent-load"
    );
}

#[test]
fn a_cross_origin_iframe_is_not_scriptable() {
    let server = TestServer::start().unwrap();
    let child = server.http_url(CROSS, "/child.html");
    server.route("/index.html", move |_| {
        html(&format!(
            "<script>window.log = [];\
             addEventListener('message', e => log.push('message:' + e.data.name + ':'\
               + (e.origin === '{origin}') + ':' + (e.source === frames[0])));</script>\
             <iframe src={child}></iframe>\
             <script>const iframe = document.querySelector('iframe');\
             iframe.addEventListener('load', () => {{\
               const w = iframe.contentWindow;\
               try {{ w.document; log.push('document readable'); }}\
               catch (e) {{ log.push('document:' + e.name + ':' + (e instanceof DOMException)); }}\
               try {{ w.location; log.push('location readable'); }}\
               catch (e) {{ log.push('location:' + e.name); }}\
               let secret; try {{ secret = w.secret; }} catch (e) {{ secret = e.name; }}\
               log.push('contentDocument:' + iframe.contentDocument,\
                 'secret:' + secret, 'frames0:' + (frames[0] === w),\
                 'postMessage:' + typeof w.postMessage, 'self:' + (w.self === w),\
                 'parent:' + (w.parent === window));\
             }});</script>",
            origin = child.origin().ascii_serialization(),
        ))
    });
    server.route("/child.html", |_| {
        html(
            "<script>window.secret = 'hidden';\
             let name = 'none';\
             try { parent.document; } catch (e) { name = e.name; }\
             parent.postMessage({ name }, '*');</script>",
        )
    });
    let mut rt = load(&server, &server.http_url(SAME, "/index.html"));
    assert_eq!(
        log(&mut rt),
        "message:SecurityError:true:true,document:SecurityError:true,location:SecurityError,\
         contentDocument:null,secret:SecurityError,frames0:true,postMessage:function,self:true,\
         parent:true"
    );
    assert!(
        rt.reported_errors().is_empty(),
        "{:?}",
        rt.reported_errors()
    );
}

#[test]
fn post_message_clones_plain_data_and_checks_the_target_origin() {
    let server = TestServer::start().unwrap();
    server.route("/index.html", |_| {
        html(
            "<script>window.log = [];\
             const sent = { list: [1, { b: 'x' }], date: new Date(0), map: new Map([[1, 2]]) };\
             sent.self = sent;\
             addEventListener('message', e => {\
               const d = e.data;\
               log.push('message:' + JSON.stringify(d.list) + ':' + d.date.getTime() + ':'\
                 + d.map.get(1) + ':' + (d.self === d) + ':' + (d !== sent) + ':'\
                 + e.origin + ':' + (e.source === window) + ':' + e.isTrusted);\
             });\
             postMessage(sent, '/');\
             postMessage('dropped', 'http://elsewhere.test');\
             for (const [value, origin] of [[() => 1, '*'], [document, '*'], ['x', 'not a url']]) {\
               try { postMessage(value, origin); } catch (e) { log.push(e.name); }\
             }\
             log.push('sync-end');</script>",
        )
    });
    let page = server.http_url(SAME, "/index.html");
    let mut rt = load(&server, &page);
    let origin = page.origin().ascii_serialization();
    assert_eq!(
        log(&mut rt),
        format!(
            "DataCloneError,DataCloneError,SyntaxError,sync-end,\
             message:[1,{{\"b\":\"x\"}}]:0:2:true:true:{origin}:true:true"
        )
    );
}

#[test]
fn a_child_posts_to_its_parent_and_back() {
    let server = TestServer::start().unwrap();
    let child = server.https_url(CROSS, "/child.html");
    let parent_origin = server.https_url(SAME, "/").origin().ascii_serialization();
    let child_origin = child.origin().ascii_serialization();
    let page_child_origin = child_origin.clone();
    server.route("/index.html", move |_| {
        html(&format!(
            "<script>window.log = [];\
             addEventListener('message', e => {{\
               log.push('parent got ' + e.data);\
               if (e.data === 'ping') e.source.postMessage('pong', '{page_child_origin}');\
             }});</script><iframe src={child}></iframe>"
        ))
    });
    server.route("/child.html", move |_| {
        html(&format!(
            "<script>addEventListener('message', e => parent.postMessage('child got ' + e.data\
               + ' from ' + e.origin, '*'));\
             parent.postMessage('ping', '{parent_origin}');</script>"
        ))
    });
    let mut rt = load(&server, &server.https_url(SAME, "/index.html"));
    let origin = server.https_url(SAME, "/").origin().ascii_serialization();
    assert_eq!(
        log(&mut rt),
        format!("parent got ping,parent got child got pong from {origin}")
    );
}

#[test]
fn broken_and_self_framing_iframes_do_not_hang_or_crash() {
    let server = TestServer::start().unwrap();
    server.route("/index.html", |_| {
        html(
            "<script>window.log = []</script>\
             <iframe src=/missing.html></iframe><iframe src=/self.html></iframe>\
             <iframe src='http://unmapped.invalid/'></iframe><iframe></iframe>\
             <script>for (const f of document.querySelectorAll('iframe'))\
               f.addEventListener('load', () => log.push('load'));\
             addEventListener('load', () => log.push('parent-load:' + frames.length));</script>",
        )
    });
    // Frames itself forever (stopped by the nesting limit).
    server.route("/self.html", |_| html("<iframe src=/self.html></iframe>"));
    let mut rt = load(&server, &server.http_url(SAME, "/index.html"));
    // Three: the `<iframe>` without `src` stays on its initial about:blank,
    // whose load event fires synchronously when it is inserted ("process
    // the iframe attributes" step 2.3; Chromium too), before the script
    // below it adds the listener.
    assert_eq!(log(&mut rt), "load,load,load,parent-load:4");
    // The about:blank child inherits the parent's origin: scriptable.
    assert_eq!(
        rt.evaluate(
            "String(frames[3].document.URL) + ' ' + (frames[3].origin === origin)",
            "check.js",
            1
        )
        .unwrap(),
        "about:blank true"
    );
}

#[test]
fn an_https_frame_in_an_http_page_is_not_a_secure_context() {
    let server = TestServer::start().unwrap();
    let child = server.https_url(CROSS, "/child.html");
    server.route("/index.html", move |_| {
        html(&format!(
            "<script>window.log = [isSecureContext];\
             addEventListener('message', e => log.push('child:' + e.data));</script>\
             <iframe src={child}></iframe>"
        ))
    });
    server.route("/child.html", |_| {
        html("<script>parent.postMessage(isSecureContext + ':' + location.protocol, '*')</script>")
    });
    let mut rt = load(&server, &server.http_url(SAME, "/index.html"));
    assert_eq!(log(&mut rt), "false,child:false:https:");
    // The same frame at top level is secure.
    let mut rt2 = {
        drop(rt);
        load(&server, &server.https_url(CROSS, "/child.html"))
    };
    assert_eq!(
        rt2.evaluate("String(isSecureContext)", "check.js", 1)
            .unwrap(),
        "true"
    );
}

/// The agent's state (its navigables, session storage bottles, module
/// map, profiler and workers) is one `Agent` owned by the runtime: a
/// runtime dropped while a profiler runs, an iframe is open and a worker
/// is alive tears all of it down, and a second runtime on the same thread
/// starts with none of it. (When session storage was a per-thread table,
/// the second page read the first one's `sessionStorage`: both top-level
/// traversables are navigable 0 of their agent, with the same origin.)
/// Runs in a process of its own: it counts the process's worker threads.
#[test]
fn a_second_runtime_on_the_thread_inherits_nothing_from_the_first() {
    if !common::own_process() {
        return;
    }
    use jsprof_script::{navigation::browsing_context, runtime::profiling, runtime::workers};
    let server = TestServer::start().unwrap();
    server.route("/child.html", |_| html("<p>child</p>"));
    server.route("/m.js", |_| common::js("window.moduleRan = true;"));
    server.route("/w.js", |_| {
        common::js("onmessage = (e) => postMessage(e.data);")
    });
    server.route("/second.html", |_| {
        html(
            "<script>window.result = [String(sessionStorage.getItem('first')),\
             sessionStorage.length, frames.length, typeof moduleRan].join();</script>",
        )
    });
    let mut first = common::page_with_policy(
        &server,
        "",
        "<iframe src=/child.html></iframe>\
         <script type=module src=/m.js></script>\
         <script>sessionStorage.setItem('first', 'runtime one');\
         window.profiler = new Profiler({ sampleInterval: 10, maxBufferSize: 100000 });\
         window.worker = new Worker('/w.js');\
         window.result = [sessionStorage.getItem('first'), frames.length].join();</script>",
    );
    assert_eq!(common::result(&mut first), "runtime one,1");
    assert_eq!(
        first
            .evaluate("String(window.moduleRan)", "check.js", 1)
            .unwrap(),
        "true"
    );
    assert_eq!(browsing_context::count(), 2);
    assert!(profiling::sampler_created());
    assert!(profiling::has_started_sessions());
    // (No other test runs in this process: the worker is this page's.)
    assert_eq!(workers::live_worker_threads(), 1);
    // Dropped with the profiler started, the iframe's navigable and the
    // worker alive: the teardown runs in the agent's one order.
    drop(first);
    assert!(!profiling::sampler_created());
    assert_eq!(profiling::live_session_count(), 0);
    assert_eq!(browsing_context::count(), 0);
    assert_eq!(workers::live_worker_threads(), 0);

    let mut second = common::load(&server, &server.http_url(common::SAME, "/second.html"));
    assert_eq!(common::result(&mut second), "null,0,0,undefined");
    assert_eq!(browsing_context::count(), 1);
    assert!(!profiling::sampler_created());
    assert_eq!(profiling::live_session_count(), 0);
}
