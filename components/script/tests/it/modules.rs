//! Module scripts, `import()`, import maps and module workers, on pages
//! served by the loopback test server: each page records what happened in
//! `window.out`, read back after the event loop went idle, and the errors
//! "report the exception" recorded are checked exactly. Hostile inputs
//! (cycles, self-imports, 404s, syntax errors deep in a graph, wrong MIME
//! types, invalid import maps, a 3,000-deep import chain) end with the
//! right events and errors, never a crash or a hang.

use crate::common;
use crate::common::{html, js, CROSS, SAME};
use jsprof_script::JsRuntime;
use jsprof_test_server::{TestResponse, TestServer};

/// Serves `body` as JavaScript at `path`.
fn module(server: &TestServer, path: &str, body: &str) {
    let body = body.to_owned();
    server.route(path, move |_| js(&body));
}

/// Serves `body` (after a `log(x)` helper appending to `window.out`) at /index.html, loads it
/// and runs it to idle.
fn page(server: &TestServer, body: &str) -> JsRuntime {
    let body = format!(
        "<!DOCTYPE html><script>window.out = []; function log(x) {{ window.out.push(String(x)); }}</script>{body}"
    );
    server.route("/index.html", move |_| html(&body));
    common::load(server, &server.http_url(SAME, "/index.html"))
}

fn log(rt: &mut JsRuntime) -> String {
    rt.evaluate("window.out.join(',')", "check.js", 1).unwrap()
}

/// The messages of the errors the page reported, in order.
fn errors(rt: &JsRuntime) -> Vec<String> {
    rt.reported_errors()
        .into_iter()
        .map(|e| e.message)
        .collect()
}

#[test]
fn static_graph_evaluates_once_in_post_order_after_parsing() {
    let server = TestServer::start().unwrap();
    module(
        &server,
        "/m/main.js",
        "import { a } from './a.js'; import { b } from '/m/b.js'; log('main:' + a + b);",
    );
    module(
        &server,
        "/m/a.js",
        "import { c } from './c.js'; log('a'); export const a = 'A' + c;",
    );
    module(
        &server,
        "/m/b.js",
        "import { c } from './c.js'; log('b'); export const b = 'B' + c;",
    );
    module(&server, "/m/c.js", "log('c'); export const c = 'C';");
    let mut rt = page(
        &server,
        r#"<script type="module" src="/m/main.js"></script>
<script>log('classic after');</script>
<script type="module">import { c } from '/m/c.js'; log('inline:' + c);</script>
<script>document.addEventListener('DOMContentLoaded', () => log('DOMContentLoaded'));</script>"#,
    );
    // Deferred: after the classic script that follows; in document order;
    // every module once (c.js is shared by three importers).
    assert_eq!(
        log(&mut rt),
        "classic after,c,a,b,main:ACBC,inline:C,DOMContentLoaded"
    );
    assert_eq!(errors(&rt), Vec::<String>::new());
    assert_eq!(server.requests_to("/m/c.js").len(), 1, "one fetch per URL");
}

#[test]
fn load_and_error_events_of_module_scripts() {
    let server = TestServer::start().unwrap();
    module(&server, "/ok.js", "log('ok ran');");
    module(
        &server,
        "/imports-404.js",
        "import './missing.js'; log('never');",
    );
    server.route("/missing.js", |_| TestResponse::not_found());
    server.route("/plain.js", |_| {
        TestResponse::ok("log('never: text/plain')").with_content_type("text/plain")
    });
    let mut rt = page(
        &server,
        r#"<script>
function watch(s, name) { s.addEventListener('load', () => log(name + ':load')); s.addEventListener('error', () => log(name + ':error')); }
</script>
<script type="module" src="/ok.js" id="ok"></script><script>watch(document.getElementById('ok'), 'ok');</script>
<script type="module" src="/imports-404.js" id="i404"></script><script>watch(document.getElementById('i404'), 'i404');</script>
<script type="module" src="/plain.js" id="plain"></script><script>watch(document.getElementById('plain'), 'plain');</script>
<script type="module" src="/missing.js" id="missing"></script><script>watch(document.getElementById('missing'), 'missing');</script>"#,
    );
    assert_eq!(
        log(&mut rt),
        "ok ran,ok:load,i404:error,plain:error,missing:error"
    );
    // Fetch failures are `error` events at the element, not exceptions.
    assert_eq!(errors(&rt), Vec::<String>::new());
}

#[test]
fn cross_origin_modules_need_cors() {
    let server = TestServer::start().unwrap();
    let no_cors = server.http_url(CROSS, "/x/nocors.js");
    let cors = server.http_url(CROSS, "/x/cors.js");
    server.route("/x/nocors.js", |_| {
        js("log('never: no CORS'); window.leaked = 1;")
    });
    server.route("/x/cors.js", |r| {
        js("log('cors ran'); export const v = 1;").with_cors_echo(r)
    });
    let mut rt = page(
        &server,
        &format!(
            r#"<script type="module" src="{no_cors}" id="a"></script>
<script>document.getElementById('a').addEventListener('error', () => log('nocors:error'));</script>
<script type="module" src="{cors}" id="b"></script>
<script>document.getElementById('b').addEventListener('load', () => log('cors:load'));
import("{no_cors}").then(() => log('never'), e => log('import:' + e.name));</script>"#
        ),
    );
    assert_eq!(
        log(&mut rt),
        "nocors:error,cors ran,cors:load,import:TypeError"
    );
    assert_eq!(
        rt.evaluate("String(window.leaked)", "c.js", 1).unwrap(),
        "undefined"
    );
    // The module requests were CORS requests (an Origin header).
    let requests = server.requests_to("/x/cors.js");
    assert!(requests[0].header("Origin").is_some(), "{requests:?}");
}

#[test]
fn nomodule_inline_async_and_top_level_await() {
    let server = TestServer::start().unwrap();
    module(&server, "/tla.js", "log('tla start'); await new Promise(r => setTimeout(r, 10)); log('tla end'); export const done = true;");
    let mut rt = page(
        &server,
        r#"<script nomodule>log('never: nomodule');</script>
<script type="module">import { done } from '/tla.js'; log('after tla:' + done);</script>
<script type="module" async>log('async inline');</script>
<script>log('parsing');</script>"#,
    );
    let out = log(&mut rt);
    // The deferred module runs at the end of parsing (its graph awaits a
    // timer); the async one from a task queued while parsing.
    assert_eq!(out, "parsing,tla start,async inline,tla end,after tla:true");
    assert_eq!(errors(&rt), Vec::<String>::new());
}

#[test]
fn dynamic_import_from_classic_and_module_scripts_and_import_meta() {
    let server = TestServer::start().unwrap();
    module(&server, "/d/dep.js", "export const url = import.meta.url; export const resolved = import.meta.resolve('./sib.js');");
    module(
        &server,
        "/d/mod.js",
        "const m = await import('./dep.js'); log('module:' + m.url); export default 1;",
    );
    server.route("/d/classic.js", |_| {
        js("import('./dep.js').then(m => log('classic:' + m.url + ' ' + m.resolved));")
    });
    let mut rt = page(
        &server,
        r#"<script src="/d/classic.js"></script>
<script type="module" src="/d/mod.js"></script>"#,
    );
    let dep = server.http_url(SAME, "/d/dep.js");
    let sib = server.http_url(SAME, "/d/sib.js");
    // The classic script's import resolves against its own URL; both get
    // the same module instance (one module map).
    assert_eq!(log(&mut rt), format!("classic:{dep} {sib},module:{dep}"));
    assert_eq!(server.requests_to("/d/dep.js").len(), 1);
    assert_eq!(errors(&rt), Vec::<String>::new());
}

#[test]
fn import_maps_remap_bare_specifiers_and_scopes() {
    let server = TestServer::start().unwrap();
    module(&server, "/lib/v1/util.js", "export const v = 'v1';");
    module(&server, "/lib/v2/util.js", "export const v = 'v2';");
    module(
        &server,
        "/app/main.js",
        "import { v } from 'util'; import { v as w } from 'pkg/util.js'; log('app:' + v + w);",
    );
    module(
        &server,
        "/main.js",
        "import { v } from 'util'; log('root:' + v);",
    );
    let mut rt = page(
        &server,
        r#"<script type="importmap">
{ "imports": { "util": "/lib/v1/util.js", "pkg/": "/lib/v2/" },
  "scopes": { "/app/": { "util": "/lib/v2/util.js" } } }
</script>
<script type="module" src="/app/main.js"></script>
<script type="module" src="/main.js"></script>
<script type="module">import('unmapped').catch(e => log('bare:' + e.name));</script>"#,
    );
    assert_eq!(log(&mut rt), "app:v2v2,root:v1,bare:TypeError");
    assert_eq!(errors(&rt), Vec::<String>::new());
}

#[test]
fn invalid_import_maps_are_reported() {
    let server = TestServer::start().unwrap();
    let mut rt = page(
        &server,
        r#"<script>window.addEventListener('error', e => log('error:' + e.error.name));</script>
<script type="importmap">{ not json</script>
<script type="importmap">[1, 2]</script>
<script type="importmap">{ "imports": { "a": 1 }, "scopes": 5 }</script>
<script type="importmap" src="/external.json" id="ext"></script>
<script>document.getElementById('ext').addEventListener('error', () => log('external:error'));</script>
<script type="module">import 'still-unmapped'; log('never');</script>"#,
    );
    assert_eq!(
        log(&mut rt),
        "error:SyntaxError,error:TypeError,error:TypeError,error:TypeError,external:error"
    );
    let errors = errors(&rt);
    assert_eq!(errors.len(), 4, "{errors:?}");
    assert!(
        errors[0].starts_with("SyntaxError: JSON.parse"),
        "{errors:?}"
    );
    assert!(errors[3].contains("still-unmapped"), "{errors:?}");
}

#[test]
fn cycles_self_imports_and_deep_syntax_errors() {
    let server = TestServer::start().unwrap();
    module(
        &server,
        "/cyc/a.js",
        "import { b } from './b.js'; export const a = 'a'; log('a sees ' + b);",
    );
    module(&server, "/cyc/b.js", "import { a } from './a.js'; export const b = 'b'; log('b runs'); export function getA() { return a; }");
    module(
        &server,
        "/self.js",
        "import * as me from './self.js'; export const x = 1; log('self:' + me.x);",
    );
    module(&server, "/deep/1.js", "import './2.js'; log('never 1');");
    module(&server, "/deep/2.js", "import './3.js'; log('never 2');");
    module(&server, "/deep/3.js", "log('never 3'); export const = ;");
    module(
        &server,
        "/link.js",
        "import { nothere } from './cyc/b.js'; log('never link');",
    );
    let mut rt = page(
        &server,
        r#"<script>window.addEventListener('error', e => log('error:' + e.error.name + '@' + e.filename.split('/').pop()));</script>
<script type="module" src="/cyc/a.js"></script>
<script type="module" src="/self.js"></script>
<script type="module" src="/deep/1.js" id="deep"></script>
<script>document.getElementById('deep').addEventListener('error', () => log('never: deep fires no error event'));</script>
<script type="module" src="/link.js"></script>"#,
    );
    assert_eq!(
        log(&mut rt),
        "b runs,a sees b,self:1,error:SyntaxError@3.js,error:SyntaxError@link.js"
    );
    let errors = errors(&rt);
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(errors[1].contains("nothere"), "{errors:?}");
}

#[test]
fn evaluation_errors_are_reported_and_imports_rejected() {
    let server = TestServer::start().unwrap();
    module(
        &server,
        "/throws.js",
        "log('throws runs'); throw new RangeError('boom');",
    );
    module(&server, "/syntax.js", "export default (;");
    server.route("/missing-404.js", |_| TestResponse::not_found());
    let mut rt = page(
        &server,
        r#"<script type="module" src="/throws.js"></script>
<script>
import('/throws.js').then(() => log('never'), e => log('import throws:' + e.name));
import('/syntax.js').then(() => log('never'), e => log('import syntax:' + e.name));
import('/missing-404.js').then(() => log('never'), e => log('import 404:' + e.name));
</script>"#,
    );
    let out = log(&mut rt);
    // The dynamic imports settle in tasks; the deferred module runs first
    // only if parsing ended before their tasks ran.
    let mut parts: Vec<&str> = out.split(',').collect();
    parts.sort();
    assert_eq!(
        parts,
        [
            "import 404:TypeError",
            "import syntax:SyntaxError",
            "import throws:RangeError",
            "throws runs"
        ],
        "{out}"
    );
    // Only the module script's own evaluation error is reported (once):
    // the rejected imports are handled.
    assert_eq!(errors(&rt), ["RangeError: boom"]);
}

#[test]
fn a_deep_import_chain_loads_without_exhausting_the_stack() {
    const DEPTH: usize = 3000;
    let server = TestServer::start().unwrap();
    server.route("/chain/*", |r| {
        let n: usize = r
            .path
            .trim_start_matches("/chain/")
            .trim_end_matches(".js")
            .parse()
            .unwrap();
        if n == DEPTH {
            js("export const depth = 0;")
        } else {
            js(&format!(
                "import {{ depth as d }} from './{}.js'; export const depth = d + 1;",
                n + 1
            ))
        }
    });
    let mut rt = page(
        &server,
        r#"<script type="module">import { depth } from '/chain/0.js'; log(depth);</script>"#,
    );
    assert_eq!(log(&mut rt), DEPTH.to_string());
    assert_eq!(errors(&rt), Vec::<String>::new());
}

#[test]
fn module_workers_import_and_refuse_import_scripts() {
    let server = TestServer::start().unwrap();
    module(&server, "/w/dep.js", "export const dep = 'dep';");
    module(
        &server,
        "/w/worker.js",
        "import { dep } from './dep.js';\n\
         let importScriptsError = 'none';\n\
         try { importScripts('./dep.js'); } catch (e) { importScriptsError = e.name; }\n\
         const lazy = await import('./dep.js');\n\
         postMessage([dep, import.meta.url, importScriptsError, lazy.dep].join(' '));",
    );
    module(
        &server,
        "/w/classic-worker.js",
        "import('./dep.js').then(m => postMessage('classic worker: ' + m.dep));",
    );
    module(&server, "/w/broken.js", "import './nope.js';");
    server.route("/w/nope.js", |_| TestResponse::not_found());
    let mut rt = page(
        &server,
        r#"<script>
const w = new Worker('/w/worker.js', { type: 'module' });
w.onmessage = e => { log(e.data); w.terminate(); };
const c = new Worker('/w/classic-worker.js');
c.onmessage = e => { log(e.data); c.terminate(); };
const b = new Worker('/w/broken.js', { type: 'module' });
b.onerror = () => log('broken:error');
</script>"#,
    );
    let mut out: Vec<String> = log(&mut rt).split(',').map(str::to_owned).collect();
    out.sort();
    let url = server.http_url(SAME, "/w/worker.js");
    assert_eq!(
        out,
        [
            "broken:error".to_owned(),
            "classic worker: dep".to_owned(),
            format!("dep {url} TypeError dep"),
        ]
    );
    assert_eq!(errors(&rt), Vec::<String>::new());
}

#[test]
fn json_modules_and_unsupported_types() {
    let server = TestServer::start().unwrap();
    server.route("/data.json", |_| {
        TestResponse::ok(r#"{"answer": 42}"#).with_content_type("application/json")
    });
    module(
        &server,
        "/uses-json.js",
        "import data from './data.json' with { type: 'json' }; log('json:' + data.answer);",
    );
    let mut rt = page(
        &server,
        r#"<script type="module" src="/uses-json.js"></script>
<script type="module">import('/data.json').then(() => log('never'), e => log('json as js:' + e.name));</script>"#,
    );
    assert_eq!(log(&mut rt), "json:42,json as js:TypeError");
}

#[test]
fn script_inserted_module_scripts_and_import_maps() {
    let server = TestServer::start().unwrap();
    module(
        &server,
        "/ins/a.js",
        "import { v } from 'mapped'; log('a:' + v);",
    );
    module(&server, "/ins/v.js", "export const v = 'v';");
    server.route("/ins/missing.js", |_| TestResponse::not_found());
    let mut rt = page(
        &server,
        r#"<script>
const map = document.createElement('script');
map.type = 'importmap';
map.textContent = '{"imports": {"mapped": "/ins/v.js"}}';
document.head.appendChild(map);
const a = document.createElement('script');
a.type = 'module';
a.src = '/ins/a.js';
a.onload = () => log('a:load');
document.head.appendChild(a);
const inline = document.createElement('script');
inline.type = 'module';
inline.textContent = "log('inline module, currentScript ' + document.currentScript);";
document.head.appendChild(inline);
const missing = document.createElement('script');
missing.type = 'module';
missing.src = '/ins/missing.js';
missing.onerror = () => log('missing:error');
document.head.appendChild(missing);
log('inserted');
</script>"#,
    );
    assert_eq!(
        log(&mut rt),
        "inserted,a:v,a:load,inline module, currentScript null,missing:error"
    );
    assert_eq!(errors(&rt), Vec::<String>::new());
}

/// A script-inserted module script without `async` (`async = false`) is
/// in the list of scripts that will execute in order as soon as possible,
/// with the classic scripts around it: it waits for a slower classic
/// script inserted before it, and the one inserted after waits for it. A
/// script-inserted module script left async runs as soon as it is ready.
#[test]
fn script_inserted_module_scripts_without_async_run_in_order() {
    let server = TestServer::start().unwrap();
    server.route("/order/slow.js", |_| {
        std::thread::sleep(std::time::Duration::from_millis(300));
        js("log('slow classic');")
    });
    module(&server, "/order/ordered.js", "log('ordered module');");
    module(&server, "/order/async.js", "log('async module');");
    server.route("/order/after.js", |_| js("log('classic after');"));
    let mut rt = page(
        &server,
        r#"<script>
function insert(src, type, async) {
  const s = document.createElement('script');
  if (type) s.type = type;
  s.async = async;
  s.src = src;
  document.head.appendChild(s);
}
insert('/order/slow.js', '', false);
insert('/order/ordered.js', 'module', false);
insert('/order/after.js', '', false);
insert('/order/async.js', 'module', true);
log('inserted');
</script>"#,
    );
    assert_eq!(
        log(&mut rt),
        "inserted,async module,slow classic,ordered module,classic after"
    );
    assert_eq!(errors(&rt), Vec::<String>::new());
}

/// `import()` settles without waiting for a task when it can: a specifier
/// that does not resolve rejects at once (HostLoadImportedModule step 11),
/// and a module already in the module map loads from it at once ("fetch a
/// single module script" step 5), so neither lets a 1,000-microtask chain
/// run to its end first; a module that must be fetched does.
#[test]
fn import_settles_without_a_task_for_resolution_errors_and_mapped_modules() {
    let server = TestServer::start().unwrap();
    module(&server, "/mt/empty.js", "export {};");
    let mut rt = page(
        &server,
        r#"<script>
let n = 0;
function ticker() {
  n = 0;
  const loop = () => { if (n < 1000) { n++; Promise.resolve().then(loop); } };
  Promise.resolve().then(loop);
}
ticker();
import('bare-specifier').catch(e => log('resolution:' + e.name + ':' + n));
</script>
<script type="module">
await import('/mt/empty.js');
ticker();
await import('/mt/empty.js');
log('mapped:' + (n < 1000));
ticker();
await import('/mt/empty.js?fresh');
log('fetched:' + n);
</script>"#,
    );
    let out = log(&mut rt);
    let resolution: u32 = out
        .split(',')
        .find_map(|e| e.strip_prefix("resolution:TypeError:"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{out}"));
    assert!(resolution < 1000, "{out}");
    assert!(out.ends_with(",mapped:true,fetched:1000"), "{out}");
    // The module once (the second import came from the module map), and
    // the `?fresh` one.
    assert_eq!(server.requests_to("/mt/empty.js").len(), 2);
}

/// A failed module fetch is not cached in the module map
/// (<https://github.com/whatwg/html/pull/10327>): importing the same URL
/// again fetches again, and a success is then cached.
#[test]
fn failed_module_fetches_are_fetched_again() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    let server = TestServer::start().unwrap();
    let count = Arc::new(AtomicUsize::new(0));
    let seen = count.clone();
    server.route("/re/flaky.js", move |_| {
        if seen.fetch_add(1, Ordering::SeqCst) == 0 {
            TestResponse::not_found()
        } else {
            js("export const x = 'x';")
        }
    });
    let mut rt = page(
        &server,
        r#"<script type="module">
try { await import('/re/flaky.js'); } catch (e) { log('first:' + e.name); }
const m = await import('/re/flaky.js');
log('second:' + m.x);
log('third:' + (await import('/re/flaky.js') === m));
</script>"#,
    );
    assert_eq!(log(&mut rt), "first:TypeError,second:x,third:true");
    assert_eq!(count.load(Ordering::SeqCst), 2);
    assert_eq!(server.requests_to("/re/flaky.js").len(), 2);
}

/// A `base` element's URL is the document base URL: script `src`
/// attributes, inline module and classic scripts' specifiers and `import()`
/// in event handlers resolve against it; an external script's and a
/// module's specifiers resolve against their own response URL.
#[test]
fn base_element_sets_the_base_url_of_scripts_and_imports() {
    let server = TestServer::start().unwrap();
    module(
        &server,
        "/based/main.js",
        "import { v } from './dep.js'; log('main:' + v);",
    );
    module(&server, "/based/dep.js", "export const v = 'dep';");
    module(&server, "/based/dyn.js", "export const v = 'dyn';");
    module(&server, "/ext/rel.js", "export const v = 'rel';");
    server.route("/ext/classic.js", |_| {
        js("import('./rel.js').then(m => log('external:' + m.v));")
    });
    let mut rt = page(
        &server,
        r#"<base href="/based/">
<script type="module" src="main.js"></script>
<script type="module">import('./dyn.js').then(m => log('inline module:' + m.v));</script>
<script>import('./dyn.js').then(m => log('inline classic:' + m.v));</script>
<script src="/ext/classic.js"></script>
<div id="d" onclick="import('./dyn.js').then(m => log('handler:' + m.v))"></div>
<script>document.getElementById('d').dispatchEvent(new Event('click'));</script>"#,
    );
    let out = rt
        .evaluate("window.out.slice().sort().join(',')", "check.js", 1)
        .unwrap();
    assert_eq!(
        out,
        "external:rel,handler:dyn,inline classic:dyn,inline module:dyn,main:dep"
    );
    assert_eq!(
        rt.evaluate("document.baseURI", "check.js", 1).unwrap(),
        server.http_url(SAME, "/based/").to_string()
    );
    assert_eq!(errors(&rt), Vec::<String>::new());
    assert_eq!(server.requests_to("/based/dyn.js").len(), 1);
}
