//! `Blob`, `URL` (with blob URLs in the loader's blob URL store), `fetch()`
//! and `Response`, and documents loaded from `blob:` and `data:` URLs.

use std::rc::Rc;

use jsprof_net::Fetcher;
use jsprof_script::JsRuntime;
use jsprof_test_server::{TestResponse, TestServer};

const SAME: &str = "web-platform.test";
const CROSS: &str = "not-web-platform.test";

fn load_with(fetcher: Fetcher, url: &url::Url) -> JsRuntime {
    let mut rt = JsRuntime::new().expect("runtime");
    rt.load_page(url, Rc::new(fetcher)).expect("page loads");
    assert!(rt.run_until_idle(None));
    rt
}

fn log(rt: &mut JsRuntime) -> String {
    rt.evaluate("window.log.join(',')", "check.js", 1).unwrap()
}

#[test]
fn blobs_urls_and_object_urls() {
    let server = TestServer::start().unwrap();
    server.route("/index.html", |_| {
        TestResponse::ok(
            "<script>window.log = [];\
             const b = new Blob(['hello ', new Blob(['world'])], { type: 'Text/Plain' });\
             log.push(b.size, b.type, new Blob().size, new Blob(['x'], { type: '\\u00e9' }).type === '');\
             b.text().then(t => log.push('text:' + t));\
             b.slice(-5).text().then(t => log.push('slice:' + t));\
             const u = URL.createObjectURL(b);\
             log.push('prefix:' + u.startsWith('blob:' + origin + '/'));\
             fetch(u).then(r => r.text()).then(t => log.push('fetched:' + t));\
             const revoked = URL.createObjectURL(b);\
             URL.revokeObjectURL(revoked);\
             fetch(revoked).catch(e => log.push('revoked:' + e.name));\
             const url = new URL('../a?x=1#frag', 'http://h.test:8080/b/c');\
             log.push(url.href, url.origin, url.host, url.pathname, url.search, url.hash,\
               URL.canParse('no scheme'), URL.canParse('/p', 'http://h.test/'));\
             try { new URL('no scheme'); } catch (e) { log.push('throws:' + e.name); }\
             </script>",
        )
        .with_content_type("text/html")
    });
    let fetcher = Fetcher::new(server.net_config()).unwrap();
    let mut rt = load_with(fetcher, &server.http_url(SAME, "/index.html"));
    // The four promise results come from tasks on different task sources
    // (blob reads, two fetches) whose relative order no spec fixes: compare
    // them as a set after the synchronous part.
    let log = log(&mut rt);
    let mut entries: Vec<&str> = log.split(',').collect();
    let (sync, results) = entries.split_at_mut(14);
    assert_eq!(
        sync.join(","),
        "11,text/plain,0,true,prefix:true,http://h.test:8080/a?x=1#frag,http://h.test:8080,\
         h.test:8080,/a,?x=1,#frag,false,true,throws:TypeError"
    );
    results.sort_unstable();
    assert_eq!(
        results.join(","),
        "fetched:hello world,revoked:TypeError,slice:world,text:hello world"
    );
}

#[test]
fn fetch_same_origin_resources() {
    let server = TestServer::start().unwrap();
    let cross = server.http_url(CROSS, "/data.json");
    server.route("/index.html", move |_| {
        TestResponse::ok(format!(
            "<script>window.log = [];\
             (async () => {{\
               const r = await fetch('data.json');\
               log.push(r.status, r.ok, r.type, r.redirected, r.url.endsWith('/data.json'));\
               const j = await r.json();\
               log.push('json:' + j.list.join('+'), 'used:' + r.bodyUsed);\
               try {{ await r.text(); }} catch (e) {{ log.push('again:' + e.name); }}\
               const missing = await fetch('/missing');\
               log.push('missing:' + missing.status + ':' + missing.ok);\
               const moved = await fetch('/moved');\
               log.push('moved:' + moved.redirected + ':' + (await moved.text()));\
               try {{ await (await fetch('/bad.json')).json(); }} catch (e) {{ log.push('bad:' + e.name); }}\
               try {{ await fetch('{cross}'); }} catch (e) {{ log.push('cross:' + e.name); }}\
               try {{ await fetch('/away'); }} catch (e) {{ log.push('away:' + e.name); }}\
               const d = await fetch('data:text/plain,inline%20data');\
               log.push('data:' + (await d.text()));\
             }})();</script>"
        ))
        .with_content_type("text/html")
    });
    server.route("/data.json", |_| {
        TestResponse::ok("{\"list\": [1, 2, 3]}").with_content_type("application/json")
    });
    server.route("/moved", |_| TestResponse::redirect(302, "/plain.txt"));
    server.route("/plain.txt", |_| {
        TestResponse::ok("plain").with_content_type("text/plain")
    });
    server.route("/bad.json", |_| {
        TestResponse::ok("{oops").with_content_type("application/json")
    });
    let away = server.http_url(CROSS, "/data.json").to_string();
    server.route("/away", move |_| TestResponse::redirect(302, &away));
    let fetcher = Fetcher::new(server.net_config()).unwrap();
    let mut rt = load_with(fetcher, &server.http_url(SAME, "/index.html"));
    assert_eq!(
        log(&mut rt),
        "200,true,basic,false,true,json:1+2+3,used:true,again:TypeError,missing:404:false,\
         moved:true:plain,bad:SyntaxError,cross:TypeError,away:TypeError,data:inline data"
    );
    // The cross-origin requests were CORS requests (with the page's
    // Origin), refused by the CORS check: the response has no
    // Access-Control-Allow-Origin.
    let origin = server.http_url(SAME, "/").origin().ascii_serialization();
    let cross: Vec<_> = server
        .requests_to("/data.json")
        .into_iter()
        .filter(|r| r.host().is_some_and(|h| h.starts_with(CROSS)))
        .collect();
    assert_eq!(cross.len(), 2, "the direct fetch and the redirect's target");
    assert!(cross
        .iter()
        .all(|r| r.header("Origin") == Some(origin.as_str())));
}

#[test]
fn documents_from_blob_and_data_urls() {
    let fetcher = Fetcher::new(jsprof_net::NetConfig::default()).unwrap();
    let origin = jsprof_document::Origin::of(&url::Url::parse("https://example.test/").unwrap());
    let blob_url = fetcher.config().blob_store.register(
        &origin,
        b"<script>window.log = ['blob page', location.protocol]</script>".to_vec(),
        "text/html",
    );
    let mut rt = load_with(fetcher, &blob_url);
    assert_eq!(log(&mut rt), "blob page,blob:");
    drop(rt);
    // base64 and percent-encoded data: documents, with an inline script
    // whose error line is counted in the data: document.
    let page = "<script>window.log = ['data page'];\naddEventListener('error', e => log.push(e.lineno));\nnull.x</script>";
    let url = url::Url::parse(&format!(
        "data:text/html;base64,{}",
        base64_encode(page.as_bytes())
    ))
    .unwrap();
    let fetcher = Fetcher::new(jsprof_net::NetConfig::default()).unwrap();
    let mut rt = load_with(fetcher, &url);
    assert_eq!(log(&mut rt), "data page,3");
}

fn base64_encode(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}
