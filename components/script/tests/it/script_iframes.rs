//! Iframes created by script: `createElement('iframe')` with `src`,
//! `srcdoc` or neither (the initial `about:blank`), inserted with
//! `appendChild`; the child navigable exists as soon as the element is
//! connected (`contentWindow` non-null at once); `src` changes navigate;
//! `frames`/`length`/`parent`/`top`; removal destroys the child navigable
//! (`frames.length` drops, `contentWindow` becomes null, the child's
//! timers and profiler sessions stop); and a page that creates and removes
//! 1,000 iframes while it profiles. Orders of events were checked in
//! headless Chromium.

use crate::common;
use crate::common::{html, html_with_policy, CROSS, SAME, SLOW};
use jsprof_script::JsRuntime;
use jsprof_test_server::TestServer;

fn log(rt: &mut JsRuntime) -> String {
    let errors = rt.reported_errors();
    assert!(errors.is_empty(), "page errors: {errors:?}");
    rt.evaluate("window.log.join('|')", "check.js", 1).unwrap()
}

/// Serves `body` at /index.html of the page's origin and loads it.
fn load_index(server: &TestServer, body: &'static str) -> JsRuntime {
    serve(server, "/index.html", body);
    common::load(server, &server.http_url(SAME, "/index.html"))
}

fn serve(server: &TestServer, path: &'static str, body: &'static str) {
    server.route(path, move |_| html(body));
}

/// A same-origin `src`: the initial about:blank window is there at once
/// and is kept by the same-origin document (the same object before and
/// after the load); `load` fires once, after the child's own load.
#[test]
fn same_origin_src_keeps_the_initial_window() {
    let server = TestServer::start().unwrap();
    serve(
        &server,
        "/child.html",
        "<title>child</title><script>window.childValue = 42; \
         addEventListener('load', () => parent.log.push('child-load'));</script>",
    );
    let mut rt = load_index(
        &server,
        "<!DOCTYPE html><body><script>window.log = [];\n\
         const iframe = document.createElement('iframe');\n\
         iframe.src = 'child.html';\n\
         log.push('before:' + iframe.contentWindow + ':' + iframe.contentDocument);\n\
         iframe.addEventListener('load', () => {\n\
           log.push('iframe-load', 'same:' + (w === iframe.contentWindow) + ':' + (frames[0] === w),\n\
             'value:' + w.childValue, 'title:' + iframe.contentDocument.title,\n\
             'parent:' + (w.parent === window) + ':' + (w.top === window));\n\
         });\n\
         document.body.appendChild(iframe);\n\
         const w = iframe.contentWindow;\n\
         log.push('inserted:' + (w !== null) + ':' + frames.length + ':' + (frames[0] === w) + ':'\n\
           + iframe.contentDocument.URL + ':' + (w.parent === window));\n\
         addEventListener('load', () => log.push('parent-load'));\n\
         </script>",
    );
    assert_eq!(
        log(&mut rt),
        "before:null:null|inserted:true:1:true:about:blank:true|child-load|iframe-load|\
         same:true:true|value:42|title:child|parent:true:true|parent-load"
    );
}

/// No `src`: the iframe stays on the initial about:blank, whose load event
/// fires synchronously inside `appendChild` (HTML "process the iframe
/// attributes" step 2.3; Chromium does the same); its document is
/// same-origin and scriptable at once.
#[test]
fn no_src_fires_load_synchronously() {
    let server = TestServer::start().unwrap();
    let mut rt = load_index(
        &server,
        "<!DOCTYPE html><body><script>window.log = [];\n\
         const iframe = document.createElement('iframe');\n\
         iframe.onload = () => log.push('load');\n\
         log.push('append');\n\
         document.body.appendChild(iframe);\n\
         log.push('appended');\n\
         iframe.contentWindow.foo = 1;\n\
         log.push(iframe.contentDocument.URL, iframe.contentWindow.document === iframe.contentDocument,\n\
           iframe.contentWindow.origin === origin);\n\
         </script>",
    );
    assert_eq!(log(&mut rt), "append|load|appended|about:blank|true|true");
}

/// `srcdoc` loads its value as an `about:srcdoc` document of the parent's
/// origin; it wins over `src`.
#[test]
fn srcdoc_loads_its_value() {
    let server = TestServer::start().unwrap();
    let mut rt = load_index(
        &server,
        "<!DOCTYPE html><body><script>window.log = [];\n\
         const iframe = document.createElement('iframe');\n\
         iframe.src = 'never.html';\n\
         iframe.setAttribute('srcdoc', '<title>doc</title><script>parent.log.push(\"child:\" + location.href + \":\" + document.title)<\\/script>');\n\
         iframe.onload = () => log.push('load:' + iframe.contentDocument.URL + ':' + iframe.contentDocument.title);\n\
         document.body.appendChild(iframe);\n\
         </script>",
    );
    assert_eq!(log(&mut rt), "child:about:srcdoc:doc|load:about:srcdoc:doc");
}

/// Setting `src` on a connected iframe navigates it again: a new document
/// (in a new Window, behind the same WindowProxy: `contentWindow` is the
/// object it was) and a second `load`.
#[test]
fn setting_src_navigates_again() {
    let server = TestServer::start().unwrap();
    serve(&server, "/a.html", "<title>a</title>");
    serve(&server, "/b.html", "<title>b</title>");
    let mut rt = load_index(
        &server,
        "<!DOCTYPE html><body><script>window.log = [];\n\
         const iframe = document.createElement('iframe');\n\
         iframe.src = 'a.html';\n\
         let first;\n\
         iframe.onload = () => {\n\
           log.push('load:' + iframe.contentDocument.title + ':' + frames.length);\n\
           if (!first) { first = iframe.contentWindow; iframe.src = 'b.html'; }\n\
           else log.push('same-proxy:' + (first === iframe.contentWindow) + ':' + (frames[0] === iframe.contentWindow) + ':' + first.document.title);\n\
         };\n\
         document.body.appendChild(iframe);\n\
         </script>",
    );
    assert_eq!(log(&mut rt), "load:a:1|load:b:1|same-proxy:true:true:b");
}

/// A cross-origin `src`: before the load the initial about:blank is
/// same-origin; after it, `contentDocument` is null and `contentWindow`
/// (and `frames[0]`) is the WindowProxy seen cross origin, whose
/// `document` throws.
#[test]
fn cross_origin_src_is_not_scriptable_after_load() {
    let server = TestServer::start().unwrap();
    serve(
        &server,
        "/child.html",
        "<script>window.secret = 1; parent.postMessage('hi', '*');</script>",
    );
    let child = server.http_url(CROSS, "/child.html");
    server.route("/index.html", move |_| {
        html(&format!(
            "<!DOCTYPE html><body><script>window.log = [];\n\
             addEventListener('message', e => log.push('message:' + e.data + ':' + (e.source === frames[0])));\n\
             const iframe = document.createElement('iframe');\n\
             iframe.src = '{child}';\n\
             document.body.appendChild(iframe);\n\
             log.push('before:' + (iframe.contentDocument !== null));\n\
             iframe.onload = () => {{\n\
               const w = iframe.contentWindow;\n\
               let r; try {{ w.document; r = 'readable'; }} catch (e) {{ r = e.name; }}\n\
               let s; try {{ s = w.secret; }} catch (e) {{ s = e.name; }}\n\
               log.push('after:' + iframe.contentDocument + ':' + r + ':' + s + ':' + (frames[0] === w));\n\
             }};\n\
             </script>"
        ))
    });
    let mut rt = common::load(&server, &server.http_url(SAME, "/index.html"));
    assert_eq!(
        log(&mut rt),
        "before:true|message:hi:true|after:null:SecurityError:SecurityError:true"
    );
}

/// Removing a script-made iframe destroys its navigable: `frames.length`
/// and the indexed properties follow, `contentWindow` is null, the
/// child's timers stop; the remaining frames are renumbered.
#[test]
fn removal_destroys_the_child_navigable() {
    let server = TestServer::start().unwrap();
    serve(
        &server,
        "/ticker.html",
        "<script>setInterval(() => parent.ticks++, 1);</script>",
    );
    serve(&server, "/other.html", "<title>other</title>");
    let mut rt = load_index(
        &server,
        "<!DOCTYPE html><body><script>window.log = []; window.ticks = 0;\n\
         const a = document.createElement('iframe'); a.src = 'ticker.html';\n\
         const b = document.createElement('iframe'); b.src = 'other.html';\n\
         let loaded = 0;\n\
         const onload = () => { if (++loaded < 2) return;\n\
           setTimeout(() => {\n\
             log.push('length:' + frames.length + ':' + (frames[1] === b.contentWindow) + ':' + (ticks > 0));\n\
             document.body.removeChild(a);\n\
             const stopped = ticks;\n\
             log.push('removed:' + frames.length + ':' + a.contentWindow + ':' + a.contentDocument + ':'\n\
               + (frames[0] === b.contentWindow) + ':' + frames[1]);\n\
             setTimeout(() => log.push('ticks-stopped:' + (ticks === stopped)), 20);\n\
           }, 10);\n\
         };\n\
         a.onload = onload; b.onload = onload;\n\
         document.body.appendChild(a); document.body.appendChild(b);\n\
         </script>",
    );
    assert_eq!(
        log(&mut rt),
        "length:2:true:true|removed:1:null:null:true:undefined|ticks-stopped:true"
    );
}

/// Removing an iframe whose document is still loading: its navigation is
/// dropped, and the parent's load event is no longer delayed by it.
#[test]
fn removal_before_load_does_not_block_the_parents_load() {
    let server = TestServer::start().unwrap();
    serve(
        &server,
        "/child.html",
        "<script>parent.log.push('child ran')</script>",
    );
    let mut rt = load_index(
        &server,
        "<!DOCTYPE html><body><script>window.log = [];\n\
         const iframe = document.createElement('iframe'); iframe.src = 'child.html';\n\
         iframe.onload = () => log.push('iframe-load');\n\
         document.body.appendChild(iframe);\n\
         document.body.removeChild(iframe);\n\
         addEventListener('load', () => log.push('parent-load:' + frames.length));\n\
         </script>",
    );
    assert_eq!(log(&mut rt), "parent-load:0");
}

/// A page that creates and removes 1,000 iframes (each with a script that
/// runs) while its profiler runs, in batches that load before removal and
/// ones removed at once: it ends cleanly, with a valid trace, every frame
/// gone, no error; removed children's sessions are stopped.
#[test]
fn a_thousand_iframes_created_and_removed_while_profiling() {
    let server = TestServer::start().unwrap();
    server.route("/child.html", |_| {
        html_with_policy(
            "<script>parent.childRuns++;\
             if (parent.childRuns % 50 === 0) parent.childProfilers.push(new Profiler({ sampleInterval: 100000, maxBufferSize: 10 }));\
             </script>",
        )
    });
    let page = format!(
        "<!DOCTYPE html><body><script>\n\
         window.log = []; window.childRuns = 0; window.childProfilers = [];\n\
         const p = new Profiler({SLOW});\n\
         let made = 0;\n\
         function batch() {{\n\
           if (made >= 1000) return finish();\n\
           const frames = [];\n\
           for (let i = 0; i < 25; i++, made++) {{\n\
             const f = document.createElement('iframe');\n\
             if (made % 2) f.src = 'child.html'; else f.srcdoc = '<script>parent.childRuns++<\\/script>';\n\
             document.body.appendChild(f);\n\
             if (made % 5 === 0) document.body.removeChild(f); else frames.push(f);\n\
           }}\n\
           let pending = frames.length;\n\
           for (const f of frames) f.onload = () => {{ if (--pending === 0) {{ for (const g of frames) g.parentNode.removeChild(g); batch(); }} }};\n\
         }}\n\
         function finish() {{\n\
           const stopped = childProfilers.every(c => c.stopped);\n\
           p.stop().then(t => {{\n\
             log.push('made:' + made, 'frames:' + frames.length, 'iframes:' + document.querySelectorAll('iframe').length,\n\
               'ran:' + childRuns, 'child-sessions:' + (childProfilers.length > 0) + ':' + stopped,\n\
               'trace:' + Array.isArray(t.samples) + ':' + Array.isArray(t.frames));\n\
           }});\n\
         }}\n\
         batch();\n\
         </script>"
    );
    server.route("/index.html", move |_| html_with_policy(&page));
    let mut rt = common::load(&server, &server.http_url(SAME, "/index.html"));
    assert_eq!(
        log(&mut rt),
        "made:1000|frames:0|iframes:0|ran:800|child-sessions:true:true|trace:true:true"
    );
}

/// Hostile navigation: `src` set 500 times on a connected iframe in one
/// task (each navigation supersedes the previous one: one document
/// loads, one `load`); a page whose script frames itself (the shared
/// attribute processing steps refuse a URL an ancestor shows: the frame
/// stays on about:blank, without a second load); an iframe appended to
/// itself's own document 100 levels deep through `srcdoc` (stopped by the
/// nesting limit, said on stderr). All end, with no script error.
#[test]
fn hostile_navigations_end() {
    let server = TestServer::start().unwrap();
    serve(
        &server,
        "/n.html",
        "<script>parent.loads.push(location.search)</script>",
    );
    serve(
        &server,
        "/self.html",
        "<!DOCTYPE html><body><script>\
         const f = document.createElement('iframe'); f.src = 'self.html';\
         document.body.appendChild(f);\
         if (parent === window) window.log = []; else parent.log.push('nested ran');\
         </script>",
    );
    let mut rt = load_index(
        &server,
        "<!DOCTYPE html><body><script>window.log = []; window.loads = [];\n\
         const f = document.createElement('iframe');\n\
         let loadEvents = 0; f.onload = () => loadEvents++;\n\
         document.body.appendChild(f);\n\
         for (let i = 0; i < 500; i++) f.src = 'n.html?' + i;\n\
         const deep = document.createElement('iframe');\n\
         const level = '<script>const d = document.createElement(\"iframe\"); d.srcdoc = top.frameElementSrcdoc; document.documentElement.appendChild(d);<\\/script>';\n\
         window.frameElementSrcdoc = level;\n\
         deep.srcdoc = level;\n\
         document.body.appendChild(deep);\n\
         addEventListener('load', () => log.push('loads:' + loads.join() + ':' + loadEvents, 'frames:' + frames.length));\n\
         </script>",
    );
    // `loadEvents` counts the initial about:blank's synchronous load too.
    assert_eq!(log(&mut rt), "loads:?499:2|frames:2");
    drop(rt);
    let mut rt = common::load(&server, &server.http_url(SAME, "/self.html"));
    assert_eq!(log(&mut rt), "");
    assert_eq!(
        rt.evaluate("frames.length + ' ' + frames[0].location.href", "c.js", 1)
            .unwrap(),
        "1 about:blank"
    );
}

/// A `load` listener that re-inserts its own about:blank iframe (each
/// insertion destroys the old child navigable, creates a new one and
/// fires `load` again, synchronously): 300 rounds end without exhausting
/// the stack (past a nesting depth the event is queued), with one child
/// left.
#[test]
fn reinserting_an_iframe_from_its_load_event_ends() {
    let server = TestServer::start().unwrap();
    let mut rt = load_index(
        &server,
        "<!DOCTYPE html><body><script>window.log = [];\n\
         const f = document.createElement('iframe');\n\
         let n = 0;\n\
         f.onload = () => { if (++n < 300) document.body.appendChild(f); };\n\
         document.body.appendChild(f);\n\
         </script>",
    );
    assert_eq!(log(&mut rt), "");
    assert_eq!(
        rt.evaluate("n + ' ' + frames.length", "c.js", 1).unwrap(),
        "300 1"
    );
}

/// A document replaced while it is still loading (its own script sets the
/// iframe's `src`) never fires its container's `load`: one `load`, for
/// the document that replaced it.
#[test]
fn a_replaced_document_does_not_fire_the_containers_load() {
    let server = TestServer::start().unwrap();
    serve(
        &server,
        "/a.html",
        "<title>a</title><script>parent.frameElementSrc('b.html')</script>",
    );
    serve(&server, "/b.html", "<title>b</title>");
    let mut rt = load_index(
        &server,
        "<!DOCTYPE html><body><script>window.log = [];\n\
         const f = document.createElement('iframe');\n\
         window.frameElementSrc = src => { f.src = src; };\n\
         f.src = 'a.html';\n\
         f.onload = () => log.push('load:' + f.contentDocument.title);\n\
         document.body.appendChild(f);\n\
         </script>",
    );
    assert_eq!(log(&mut rt), "load:b");
}
