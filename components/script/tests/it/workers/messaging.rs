//! A worker's global scope, its messages both ways, nested workers,
//! `importScripts` of `data:` and `blob:` URLs, `[SecureContext]` members,
//! and `fetch`/`XMLHttpRequest` with the worker as the client.

use std::time::Duration;

use super::{idle, load, page, page_log, run_alone, PRELUDE};
use crate::common::{html, js, CROSS, SAME};
use jsprof_test_server::{TestResponse, TestServer};

#[test]
fn messages_both_ways_with_structured_clone() {
    let log = run_alone(
        r#"
        const w = dataWorker(`
            onmessage = (e) => postMessage({ echo: e.data, type: typeof self,
                isGlobal: self instanceof DedicatedWorkerGlobalScope,
                isWorkerScope: self instanceof WorkerGlobalScope,
                hasWindow: typeof window, hasDocument: typeof document });
        `);
        w.onmessage = (e) => log.push(e.data, e.origin, e.source === null, e instanceof MessageEvent);
        w.postMessage({ a: [1, 2, { b: 'c' }], d: new Map([[1, 2]]).size });
        "#,
    );
    assert_eq!(
        log,
        r#"[{"echo":{"a":[1,2,{"b":"c"}],"d":1},"type":"object","isGlobal":true,"isWorkerScope":true,"hasWindow":"undefined","hasDocument":"undefined"},"",true,true]"#
    );
}

#[test]
fn messages_before_the_script_ran_are_delivered_in_order() {
    let log = run_alone(
        r#"
        const w = blobWorker(`
            const got = [];
            onmessage = (e) => { got.push(e.data); if (got.length === 3) postMessage(got); };
        `);
        w.onmessage = (e) => log.push(e.data);
        w.postMessage(1); w.postMessage(2); w.postMessage(3);
        "#,
    );
    assert_eq!(log, "[[1,2,3]]");
}

#[test]
fn uncloneable_messages_throw_data_clone_error() {
    let log = run_alone(
        r#"
        const w = dataWorker(`
            try { postMessage(() => 1); } catch (e) { postMessage(e.name); }
        `);
        w.onmessage = (e) => log.push(e.data);
        try { w.postMessage(Symbol('x')); } catch (e) { log.push('page:' + e.name); }
        "#,
    );
    assert_eq!(log, r#"["page:DataCloneError","DataCloneError"]"#);
}

#[test]
fn worker_global_scope_members() {
    let log = run_alone(
        r#"
        const src = `
            const r = {};
            r.name = self.name;
            r.self = self === globalThis;
            r.location = location.href.startsWith('blob:') && location.protocol;
            r.origin = self.origin;
            r.types = [typeof setTimeout, typeof setInterval, typeof queueMicrotask,
                typeof importScripts, typeof close, typeof postMessage, typeof console.log,
                typeof performance.now, typeof Blob, typeof URL.createObjectURL,
                typeof Worker, typeof Profiler, typeof MessageChannel, typeof fetch].join();
            r.secure = isSecureContext;
            r.isolated = crossOriginIsolated;
            const order = [];
            queueMicrotask(() => order.push('microtask'));
            Promise.resolve().then(() => order.push('promise'));
            setTimeout((x) => { order.push('timeout ' + x);
                const id = setInterval(() => { order.push('interval'); clearInterval(id);
                    r.order = order; postMessage(r); }, 0);
            }, 0, 'arg');
            order.push('sync');
        `;
        const w = new Worker(blobURL(src), { name: 'w1' });
        w.onmessage = (e) => log.push(e.data);
        "#,
    );
    assert_eq!(
        log,
        r#"[{"name":"w1","self":true,"location":"blob:","origin":"null","types":"function,function,function,function,function,function,function,function,function,function,function,function,function,function","secure":false,"isolated":false,"order":["sync","microtask","promise","timeout arg","interval"]}]"#
    );
}

#[test]
fn performance_now_uses_the_workers_own_time_origin() {
    // The worker's time origin is the moment `new Worker` ran: between the
    // page's clock readings just before and just after the constructor
    // (give or take 1 ms for coarsening and the epoch conversion). The
    // page waits 30 ms of its own clock first, so the two origins differ
    // by at least that.
    let log = run_alone(
        r#"
        const start = performance.now();
        while (performance.now() - start < 30) {}
        const before = performance.now();
        const w = dataWorker(`postMessage([performance.now(), performance.timeOrigin])`);
        const after = performance.now();
        w.onmessage = (e) => {
            const [workerNow, workerOrigin] = e.data;
            const origin = performance.timeOrigin;
            log.push(workerNow >= 0, workerOrigin >= origin + before - 1,
                workerOrigin <= origin + after + 1, workerOrigin - origin >= 29);
        };
        "#,
    );
    assert_eq!(log, "[true,true,true,true]");
}

#[test]
fn nested_workers_relay_messages_and_errors() {
    let log = run_alone(
        r#"
        const inner = `postMessage('inner:' + (typeof Worker) + ':' + location.protocol);
            onmessage = (e) => { if (e.data === 'throw') throw new Error('deep'); };`;
        const outer = `
            const child = new Worker(URL.createObjectURL(new Blob([${JSON.stringify(inner)}])));
            child.onmessage = (e) => { postMessage('outer got ' + e.data); child.postMessage('throw'); };
            child.onerror = (e) => { postMessage('outer saw ' + e.message); };
        `;
        const w = blobWorker(outer);
        w.onmessage = (e) => log.push(e.data);
        w.onerror = (e) => log.push('page saw ' + e.message);
        "#,
    );
    // The inner error is not canceled in the outer worker: it is reported
    // there as if it happened in the outer global, so it reaches the page's
    // Worker object too.
    assert_eq!(
        log,
        r#"["outer got inner:function:blob:","outer saw Error: deep","page saw Error: deep"]"#
    );
}

#[test]
fn import_scripts_from_data_and_blob_urls() {
    let log = run_alone(
        r#"
        const a = dataURL('var fromA = 1; var order = ["a"];');
        const b = blobURL('order.push("b"); var fromB = fromA + 1;');
        const bad = dataURL('order.push("bad"); throw new TypeError("inside")');
        const w = dataWorker(`
            const r = [];
            importScripts(${JSON.stringify(a)}, ${JSON.stringify(b)});
            r.push(fromB, order.join());
            importScripts();
            try { importScripts('http://[::1'); } catch (e) { r.push(e.name); }
            try { importScripts(${JSON.stringify(bad)}); } catch (e) { r.push(e.name + ': ' + e.message); }
            try { importScripts('blob:null/00000000-0000-0000-0000-000000000000'); } catch (e) { r.push(e.name); }
            try { importScripts(${JSON.stringify(dataURL('let let'))}); } catch (e) { r.push(e.name); }
            r.push(order.join());
            postMessage(r);
        `);
        w.onmessage = (e) => log.push(e.data);
        "#,
    );
    assert_eq!(
        log,
        r#"[[2,"a,b","SyntaxError","TypeError: inside","NetworkError","SyntaxError","a,b,bad"]]"#
    );
}

#[test]
fn secure_context_members_in_workers_follow_the_owner() {
    // [SecureContext] (https://webidl.spec.whatwg.org/#SecureContext): a
    // worker of an https page is a secure context and has
    // crypto.randomUUID(); one of an http page has not.
    let server = TestServer::start().unwrap();
    let report = "postMessage([isSecureContext, typeof crypto.randomUUID, \
        'randomUUID' in Crypto.prototype, typeof crypto.getRandomValues, \
        typeof crypto.randomUUID === 'function' && crypto.randomUUID().length])";
    let body = format!(
        r#"<!DOCTYPE html><script>{PRELUDE}
        const w = blobWorker({report:?});
        w.onmessage = (e) => log.push(location.protocol + ' ' + JSON.stringify(e.data));
        </script>"#
    );
    server.route("/index.html", move |_| html(&body));
    for (url, expected) in [
        (
            server.https_url(SAME, "/index.html"),
            r#"["https: [true,\"function\",true,\"function\",36]"]"#,
        ),
        (
            server.http_url(SAME, "/index.html"),
            r#"["http: [false,\"undefined\",false,\"function\",false]"]"#,
        ),
    ] {
        let mut rt = load(&server, &url);
        idle(&mut rt);
        assert_eq!(page_log(&mut rt), expected);
    }
}

/// `fetch`, `Headers`, `Request`, `Response`, `AbortController` and
/// `XMLHttpRequest` in a dedicated worker: the request's client is the
/// worker (its origin is the `Origin` a cross-origin request carries, and
/// decides CORS: a cross-origin response without CORS headers is a
/// TypeError), and the worker's event loop keeps running while a fetch is
/// in flight.
#[test]
fn worker_fetch_and_xhr_with_the_worker_as_client() {
    let server = TestServer::start().unwrap();
    server.route("/data", |r| {
        TestResponse::ok(format!(
            "data {} {}",
            r.method,
            String::from_utf8_lossy(&r.body)
        ))
        .with_content_type("text/plain")
    });
    server.route("/open", |r| {
        TestResponse::ok(format!("origin {}", r.header("Origin").unwrap_or("-"))).with_cors_echo(r)
    });
    server.route("/closed", |_| TestResponse::ok("secret"));
    server.route("/slow", |_| {
        TestResponse::ok("slow").stall_before_headers(Duration::from_millis(800))
    });
    let open = server.http_url(CROSS, "/open");
    let closed = server.http_url(CROSS, "/closed");
    let worker = format!(
        r#"
        const r = [];
        (async () => {{
          r.push([typeof fetch, typeof Headers, typeof Request, typeof Response,
                  typeof AbortController, typeof XMLHttpRequest].join());
          let res = await fetch('/data', {{method: 'POST', body: new Uint8Array([104, 105]),
                                          headers: {{'X-A': '1'}}}});
          r.push(await res.text(), res.url.endsWith('/data'));
          res = await fetch('{open}');
          r.push(await res.text(), res.type);
          try {{ await fetch('{closed}'); r.push('closed read'); }}
          catch (e) {{ r.push('closed ' + e.name); }}
          let ticks = 0;
          const t = setInterval(() => ticks++, 10);
          res = await fetch('/slow');
          clearInterval(t);
          r.push(await res.text(), ticks > 0);
          const c = new AbortController();
          const p = fetch('/slow', {{signal: c.signal}});
          c.abort();
          try {{ await p; }} catch (e) {{ r.push('abort ' + e.name); }}
          const h = new Headers({{'B': '2', 'A': '1'}});
          r.push([...h].join(';'));
          const x = new XMLHttpRequest();
          x.responseType = 'document';
          r.push('type "' + x.responseType + '"');
          x.open('PUT', '/data');
          x.onload = () => {{
            r.push(x.status, x.responseText);
            const y = new XMLHttpRequest();
            y.open('GET', '{closed}');
            y.onerror = () => {{ r.push('xhr cors ' + y.status); postMessage(r); }};
            y.onload = () => {{ r.push('xhr read ' + y.responseText); postMessage(r); }};
            y.send();
          }};
          x.send(new Uint8Array([120]).buffer);
        }})().catch(e => postMessage(['failed', String(e)]));
        "#
    );
    server.route("/worker.js", move |_| js(&worker));
    let mut rt = page(
        &server,
        r#"<script>
        const w = new Worker('/worker.js');
        w.onmessage = (e) => log.push(e.data);
        </script>"#,
        None,
    );
    let origin = server.http_url(SAME, "/").origin().ascii_serialization();
    assert_eq!(
        page_log(&mut rt),
        format!(
            r#"[["function,function,function,function,function,function","data POST hi",true,"origin {origin}","cors","closed TypeError","slow",true,"abort AbortError","a,1;b,2","type \"\"",200,"data PUT x","xhr cors 0"]]"#
        )
    );
}
