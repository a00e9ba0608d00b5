//! `fetch()` with `Request`/`Headers`/`Response`, CORS and preflights,
//! `AbortController`, `XMLHttpRequest` and `document.cookie`, against the
//! loopback test server. Bad input included: refused ports, aborted
//! fetches, CORS failures, refused preflights, malformed cookies.

use std::rc::Rc;
use std::time::Duration;

use jsprof_net::Fetcher;
use jsprof_script::JsRuntime;
use jsprof_test_server::{TestResponse, TestServer};

const SAME: &str = "web-platform.test";
const CROSS: &str = "not-web-platform.test";

/// Loads `/index.html` (serving `script` inside a script element) and
/// runs until idle; returns `window.log` joined with `|`.
fn run_page(server: &TestServer, script: &str) -> String {
    let page = format!("<script>window.log = []; {script}</script>");
    server.route("/index.html", move |_| {
        TestResponse::ok(page.clone()).with_content_type("text/html")
    });
    let fetcher = Fetcher::new(server.net_config()).unwrap();
    let mut rt = JsRuntime::new().expect("runtime");
    rt.load_page(&server.http_url(SAME, "/index.html"), Rc::new(fetcher))
        .expect("page loads");
    assert!(rt.run_until_idle(None));
    rt.evaluate("window.log.join('|')", "check.js", 1).unwrap()
}

fn refused_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

#[test]
fn fetch_with_request_init_and_headers() {
    let server = TestServer::start().unwrap();
    server.route("/echo", |r| {
        TestResponse::ok(format!(
            "{} {} {} {}",
            r.method,
            r.header("Content-Type").unwrap_or("-"),
            r.header("X-A").unwrap_or("-"),
            String::from_utf8_lossy(&r.body)
        ))
        .with_header("X-Reply", "yes")
        .with_content_type("text/plain")
    });
    let log = run_page(
        &server,
        "(async () => {\
           let r = await fetch('/echo', {method: 'post', body: 'a=1', headers: [['X-A', '1']]});\
           log.push(await r.text(), r.headers.get('x-reply'), r.headers.has('set-cookie'));\
           const h = new Headers([['X-A', '2']]); h.append('x-a', '3');\
           log.push(h.get('X-A'));\
           h.append('Set-Cookie', 'a'); h.append('set-cookie', 'b'); h.append('B-First', '0');\
           log.push([...h].map(p => p.join('=')).join(';'), [...h.keys()].length);\
           /* A Headers init converts as the sequence its iterator gives\
              (sort and combine: one `x-a: 2, 3`). */\
           r = await fetch(new Request('/echo', {method: 'PUT', headers: h, body: new Blob(['blob'], {type: 'text/x-b'})}));\
           log.push(await r.text());\
           r = await fetch('/echo', {method: 'POST', body: new URLSearchParams([['q', 'a b'], ['x', '&']])});\
           log.push(await r.text());\
           const c = (await fetch('/echo')).clone();\
           log.push(new Uint8Array(await c.arrayBuffer()).length, c.bodyUsed);\
           const b = await (await fetch('/echo')).blob();\
           log.push(b.type, b.size);\
           try { new Headers([['bad name', 'x']]); } catch (e) { log.push('header:' + e.name); }\
           try { new Headers([['a']]); } catch (e) { log.push('pair:' + e.name); }\
           try { await fetch('/echo', {method: 'GET', body: 'x'}); } catch (e) { log.push('getbody:' + e.name); }\
           try { await fetch('/echo', {method: 'TRACE'}); } catch (e) { log.push('trace:' + e.name); }\
           try { await fetch('http://[bad'); } catch (e) { log.push('url:' + e.name); }\
           const req = new Request('/echo', {headers: [['Cookie', 'no'], ['X-Ok', '1']]});\
           log.push(req.headers.has('cookie'), req.headers.get('x-ok'), req.method, req.mode, req.credentials, req.redirect);\
           const made = new Response('made', {status: 201, statusText: 'Made', headers: [['X-M', '1']]});\
           log.push(made.status, made.statusText, made.headers.get('content-type'), await made.text(), made.type);\
           const red = Response.redirect('/x', 301);\
           log.push(red.status, red.headers.get('location').endsWith('/x'), Response.error().type);\
           try { new Response('x', {status: 204}); } catch (e) { log.push('nullbody:' + e.name); }\
           try { new Response('x', {status: 99}); } catch (e) { log.push('status:' + e.name); }\
         })();",
    );
    assert_eq!(
        log,
        "POST text/plain;charset=UTF-8 1 a=1|yes|false|2, 3|\
         b-first=0;set-cookie=a;set-cookie=b;x-a=2, 3|4|PUT text/x-b 2, 3 blob|\
         POST application/x-www-form-urlencoded;charset=UTF-8 - q=a+b&x=%26|\
         8|true|text/plain|8|header:TypeError|pair:TypeError|getbody:TypeError|\
         trace:TypeError|url:TypeError|false|1|GET|cors|same-origin|follow|\
         201|Made|text/plain;charset=UTF-8|made|default|301|true|error|\
         nullbody:TypeError|status:RangeError"
    );
}

#[test]
fn fetch_does_not_block_the_event_loop() {
    let server = TestServer::start().unwrap();
    server.route("/slow", |_| {
        TestResponse::ok("slow").stall_before_headers(Duration::from_millis(1500))
    });
    // Timers keep firing while the fetch is in flight: the request runs on
    // a fetch thread. (Were it run on the loop's thread, no tick could run
    // before the response.)
    let log = run_page(
        &server,
        "let ticks = 0; const t = setInterval(() => ticks++, 10);\
         fetch('/slow').then(r => r.text()).then(text => {\
           clearInterval(t); log.push(text, ticks > 0);\
         });",
    );
    assert_eq!(log, "slow|true");
}

#[test]
fn cors_checks_preflights_and_modes() {
    let server = TestServer::start().unwrap();
    server.route("/open", |r| TestResponse::ok("open").with_cors_echo(r));
    server.route("/closed", |_| TestResponse::ok("secret"));
    server.route("/api", |r| {
        if r.method == "OPTIONS" {
            TestResponse::new(204)
                .with_cors_echo(r)
                .with_header("Access-Control-Allow-Methods", "PUT")
                .with_header("Access-Control-Allow-Headers", "X-Token")
        } else {
            TestResponse::ok(r.method.clone()).with_cors_echo(r)
        }
    });
    let open = server.http_url(CROSS, "/open");
    let closed = server.http_url(CROSS, "/closed");
    let api = server.http_url(CROSS, "/api");
    let log = run_page(
        &server,
        &format!(
            "(async () => {{\
               const ok = await fetch('{open}');\
               log.push(ok.type, await ok.text());\
               try {{ await fetch('{closed}'); }} catch (e) {{ log.push('closed:' + e.name); }}\
               try {{ const put = await fetch('{api}', {{method: 'PUT', headers: [['X-Token', 't']]}});\
               log.push(await put.text()); }} catch (e) {{ log.push(e.message); }}\
               try {{ await fetch('{api}', {{method: 'DELETE'}}); }} catch (e) {{ log.push('delete:' + e.name); }}\
               try {{ await fetch('{api}', {{headers: [['X-Other', '1']]}}); }} catch (e) {{ log.push('header:' + e.name); }}\
               const opaque = await fetch('{closed}', {{mode: 'no-cors'}});\
               log.push(opaque.type, opaque.status, await opaque.text(), opaque.url === '');\
               try {{ await fetch('{open}', {{mode: 'same-origin'}}); }} catch (e) {{ log.push('same:' + e.name); }}\
               try {{ await fetch('{open}', {{mode: 'no-cors', method: 'PUT'}}); }} catch (e) {{ log.push('nocorsput:' + e.name); }}\
             }})();"
        ),
    );
    assert_eq!(
        log,
        "cors|open|closed:TypeError|PUT|delete:TypeError|header:TypeError|\
         opaque|0||true|same:TypeError|nocorsput:TypeError"
    );
    // The refused preflights sent only their OPTIONS.
    let methods: Vec<String> = server
        .requests_to("/api")
        .iter()
        .map(|r| r.method.clone())
        .collect();
    assert_eq!(methods, ["OPTIONS", "PUT", "OPTIONS", "OPTIONS"]);
}

#[test]
fn refused_port_and_abort() {
    let server = TestServer::start().unwrap();
    server.route("/slow", |_| {
        TestResponse::ok("late").stall_before_headers(Duration::from_millis(800))
    });
    let refused = format!("http://{SAME}:{}/", refused_port());
    let log = run_page(
        &server,
        &format!(
            "(async () => {{\
               try {{ await fetch('{refused}'); }} catch (e) {{ log.push('refused:' + e.name); }}\
               const c = new AbortController();\
               c.signal.onabort = e => log.push('onabort:' + e.type + ':' + e.isTrusted);\
               const p = fetch('/slow', {{signal: c.signal}});\
               setTimeout(() => c.abort(), 50);\
               try {{ await p; }} catch (e) {{ log.push('aborted:' + e.name + ':' + (e instanceof DOMException)); }}\
               log.push(c.signal.aborted, c.signal.reason.name);\
               try {{ c.signal.throwIfAborted(); }} catch (e) {{ log.push('throw:' + e.name); }}\
               const already = AbortSignal.abort('why');\
               try {{ await fetch('/slow', {{signal: already}}); }} catch (e) {{ log.push('already:' + e); }}\
               const r = new Request('/slow', {{signal: already}});\
               log.push('req:' + r.signal.aborted + ':' + r.signal.reason);\
               try {{ await fetch('/slow', {{signal: AbortSignal.timeout(30)}}); }} catch (e) {{ log.push('timeout:' + e.name); }}\
               try {{ AbortSignal.timeout(-1); }} catch (e) {{ log.push('negative:' + e.name); }}\
               const c2 = new AbortController(); c2.abort(42);\
               log.push(c2.signal.reason, new AbortController().signal.aborted);\
             }})();"
        ),
    );
    assert_eq!(
        log,
        "refused:TypeError|onabort:abort:true|aborted:AbortError:true|true|AbortError|\
         throw:AbortError|already:why|req:true:why|timeout:TimeoutError|negative:TypeError|42|false"
    );
}

#[test]
fn xhr_events_and_response_types() {
    let server = TestServer::start().unwrap();
    server.route("/data", |_| {
        TestResponse::ok("{\"a\":[1,2]}")
            .with_content_type("application/json")
            .with_header("X-B", "b")
    });
    server.route("/slow", |_| {
        TestResponse::ok("late").stall_before_headers(Duration::from_millis(1500))
    });
    let refused = format!("http://{SAME}:{}/", refused_port());
    let closed = server.http_url(CROSS, "/data");
    let log = run_page(
        &server,
        &format!(
            "function xhr(url, type, setup) {{\
               return new Promise(resolve => {{\
                 const x = new XMLHttpRequest(); const ev = [];\
                 for (const t of ['readystatechange', 'loadstart', 'progress', 'load', 'error', 'abort', 'timeout', 'loadend'])\
                   x.addEventListener(t, e => ev.push(t === 'readystatechange' ? 'rs' + x.readyState : t));\
                 x.onloadend = () => resolve([x, ev]);\
                 x.open('GET', url); if (type) x.responseType = type;\
                 if (setup) setup(x); x.send();\
               }});\
             }}\
             (async () => {{\
               let [x, ev] = await xhr('/data');\
               log.push(ev.join(','), x.status, x.statusText, x.responseText, x.getResponseHeader('x-b'),\
                 x.getAllResponseHeaders().includes('content-type: application/json\\r\\n'), x.responseURL.endsWith('/data'));\
               [x] = await xhr('/data', 'json'); log.push(x.response.a.join('+'));\
               try {{ x.responseText; }} catch (e) {{ log.push('text:' + e.name); }}\
               [x] = await xhr('/data', 'arraybuffer'); log.push(x.response.byteLength);\
               [x] = await xhr('/data', 'blob'); log.push(x.response.type, x.response.size);\
               [x, ev] = await xhr('{refused}'); log.push('refused:' + ev.join(','), x.status, x.readyState);\
               [x, ev] = await xhr('{closed}'); log.push('cors:' + ev.join(','));\
               [x, ev] = await xhr('/slow', '', x => x.timeout = 100); log.push('timeout:' + ev.join(','));\
               [x, ev] = await xhr('/slow', '', x => setTimeout(() => x.abort(), 20)); log.push('abort:' + ev.join(','), x.readyState);\
               const s = new XMLHttpRequest();\
               try {{ s.open('GET', '/data', false); }} catch (e) {{ log.push('sync:' + e.name); }}\
               try {{ s.setRequestHeader('a', 'b'); }} catch (e) {{ log.push('state:' + e.name); }}\
               try {{ s.open('TRACE', '/data'); }} catch (e) {{ log.push('method:' + e.name); }}\
               try {{ s.open('GET', 'http://[bad'); }} catch (e) {{ log.push('url:' + e.name); }}\
               log.push(XMLHttpRequest.DONE, new ProgressEvent('p', {{loaded: 5, total: 9, lengthComputable: true}}).loaded);\
             }})();"
        ),
    );
    assert_eq!(
        log,
        "rs1,loadstart,rs2,rs3,progress,progress,rs4,load,loadend|200|OK|{\"a\":[1,2]}|b|true|true|\
         1+2|text:InvalidStateError|11|application/json|11|\
         refused:rs1,loadstart,rs4,error,loadend|0|4|\
         cors:rs1,loadstart,rs4,error,loadend|\
         timeout:rs1,loadstart,rs4,timeout,loadend|\
         abort:rs1,loadstart,rs4,abort,loadend|0|\
         sync:InvalidAccessError|state:InvalidStateError|method:SecurityError|url:SyntaxError|4|5"
    );
}

#[test]
fn cookies_between_http_and_document_cookie() {
    let server = TestServer::start().unwrap();
    server.route("/set", |_| {
        TestResponse::ok("set")
            .with_header("Set-Cookie", "server=1; Path=/")
            .with_header("Set-Cookie", "secret=2; Path=/; HttpOnly")
            .with_header("Set-Cookie", "=; Path=/")
    });
    server.route("/echo", |r| {
        TestResponse::ok(r.header("Cookie").unwrap_or("").to_owned())
    });
    let log = run_page(
        &server,
        "(async () => {\
           await fetch('/set');\
           log.push(document.cookie);\
           document.cookie = 'script=3; path=/';\
           document.cookie = 'hidden=4; HttpOnly';\
           document.cookie = 'bad\\u0001=5';\
           document.cookie = 'secret=overwritten';\
           log.push(document.cookie);\
           log.push(await (await fetch('/echo')).text());\
           log.push(await (await fetch('/echo', {credentials: 'omit'})).text() === '');\
           document.cookie = 'script=; max-age=0; path=/';\
           log.push(document.cookie);\
         })();",
    );
    assert_eq!(
        log,
        "server=1|server=1; script=3|server=1; secret=2; script=3|true|server=1"
    );
}

/// `navigator.userAgent` and the HTTP `User-Agent` header are one string
/// (HTML's "default `User-Agent` value"), naming the SpiderMonkey release
/// that really runs.
#[test]
fn navigator_user_agent_is_the_http_user_agent() {
    let server = TestServer::start().unwrap();
    server.route("/ua", |r| {
        TestResponse::ok(r.header("User-Agent").unwrap_or("-").to_owned())
            .with_content_type("text/plain")
    });
    let log = run_page(
        &server,
        "(async () => {\
           const sent = await (await fetch('/ua')).text();\
           log.push(sent === navigator.userAgent, sent);\
           const xhr = new XMLHttpRequest(); xhr.open('GET', '/ua');\
           xhr.onload = () => log.push(xhr.responseText === navigator.userAgent);\
           xhr.send();\
         })();",
    );
    let ua = jsprof_net::default_user_agent();
    assert_eq!(log, format!("true|{ua}|true"));
    // SAFETY: JS_GetImplementationVersion returns a static NUL-terminated
    // string and needs no runtime.
    let engine = unsafe { std::ffi::CStr::from_ptr(mozjs::jsapi::JS_GetImplementationVersion()) };
    let engine = engine.to_str().unwrap();
    assert_eq!(
        engine.strip_prefix("JavaScript-C"),
        Some(jsprof_net::SPIDERMONKEY_VERSION),
        "jsprof_net::SPIDERMONKEY_VERSION names the embedded SpiderMonkey"
    );
    assert!(ua.ends_with(&format!(
        "SpiderMonkey/{}",
        jsprof_net::SPIDERMONKEY_VERSION
    )));
}

/// HeadersInit as a record (a plain object), ByteString conversions
/// (a code point above U+00FF is a TypeError), BufferSource bodies
/// (ArrayBuffer, typed arrays, DataView) for fetch, Request, Response and
/// XMLHttpRequest, and `open()`'s two overloads.
#[test]
fn record_headers_byte_strings_and_buffer_source_bodies() {
    let server = TestServer::start().unwrap();
    server.route("/echo", |r| {
        TestResponse::ok(format!(
            "{} {} {}",
            r.header("X-R").unwrap_or("-"),
            r.header("Content-Type").unwrap_or("-"),
            r.body
                .iter()
                .map(|b| b.to_string())
                .collect::<Vec<_>>()
                .join(",")
        ))
        .with_content_type("text/plain")
    });
    let log = run_page(
        &server,
        "(async () => {\
           const h = new Headers({'X-R': 'r', 'B': '\\u00ff'});\
           log.push([...h].join(';'), h.get('b').charCodeAt(0));\
           try { new Headers({'X-\\u0100': 'x'}); } catch (e) { log.push('name:' + e.name); }\
           try { new Headers().append('a', '\\u20ac'); } catch (e) { log.push('value:' + e.name); }\
           try { new Headers(5); } catch (e) { log.push('init:' + e.name); }\
           try { new Request('/echo', {method: 'P\\u0100ST'}); } catch (e) { log.push('method:' + e.name); }\
           let r = await fetch('/echo', {method: 'POST', headers: {'X-R': '1'}, body: new Uint8Array([1, 2]).buffer});\
           log.push(await r.text());\
           r = await fetch(new Request('/echo', {method: 'POST', body: new DataView(new Uint8Array([0, 3, 4, 0]).buffer, 1, 2)}));\
           log.push(await r.text());\
           log.push(new Uint8Array(await new Response(new Uint16Array([258])).arrayBuffer()).join(','));\
           const x = new XMLHttpRequest(); x.open('POST', '/echo');\
           x.setRequestHeader('X-R', 'xhr');\
           try { x.setRequestHeader('X-R', '\\u0100'); } catch (e) { log.push('xhr:' + e.name); }\
           x.onload = () => log.push(x.responseText);\
           x.send(new Int8Array([-1]));\
         })();",
    );
    assert_eq!(
        log,
        "b,\u{ff};x-r,r|255|name:TypeError|value:TypeError|init:TypeError|method:TypeError|\
         1 - 1,2|- - 3,4|2,1|xhr:TypeError|xhr - 255"
    );
}
