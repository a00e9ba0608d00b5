//! Module scripts, `import()`, import maps and module workers, on pages
//! served by the loopback test server: each page records what happened in
//! `window.out`, read back after the event loop went idle, and the errors
//! "report the exception" recorded are checked exactly. Hostile inputs
//! (cycles, self-imports, 404s, syntax errors deep in a graph, wrong MIME
//! types, invalid import maps, a 3,000-deep import chain) end with the
//! right events and errors, never a crash or a hang.

mod common;

use common::{html, js, CROSS, SAME};
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
