//! Page loads over HTTP(S) from a loopback test server with two origins
//! (`web-platform.test` and `not-web-platform.test`, both mapped to
//! 127.0.0.1): script order, CORS modes and muted errors, redirects,
//! response headers reaching the document, failed loads.

use std::rc::Rc;

use jsprof_net::Fetcher;
use jsprof_script::dom::globals::globalscope::GlobalScope;
use jsprof_script::loading::script_loading::PageLoadError;
use jsprof_script::{loading::script_registry, JsRuntime};
use jsprof_test_server::{TestResponse, TestServer};

const SAME: &str = "web-platform.test";
const CROSS: &str = "not-web-platform.test";

fn html(body: &str) -> TestResponse {
    TestResponse::ok(body.to_owned()).with_content_type("text/html;charset=utf-8")
}

fn js(body: &str) -> TestResponse {
    TestResponse::ok(body.to_owned()).with_content_type("text/javascript")
}

fn try_load(server: &TestServer, url: &url::Url) -> (JsRuntime, Result<(), PageLoadError>) {
    let fetcher = Fetcher::new(server.net_config()).unwrap();
    let mut rt = JsRuntime::new().expect("runtime");
    let result = rt.load_page(url, Rc::new(fetcher));
    if result.is_ok() {
        assert!(rt.run_until_idle(None));
    }
    (rt, result)
}

fn load(server: &TestServer, url: &url::Url) -> JsRuntime {
    let (rt, result) = try_load(server, url);
    result.expect("page loads");
    rt
}

fn eval(rt: &mut JsRuntime, source: &str) -> String {
    rt.evaluate(source, "check.js", 1).unwrap()
}

fn log(rt: &mut JsRuntime) -> String {
    eval(rt, "window.log.join(',')")
}

/// The page's error listener logs `message|filename|lineno|colno|error`.
const ERROR_LOGGER: &str = "<script>window.log = [];\
    addEventListener('error', e => log.push([e.message, e.filename, e.lineno, e.colno, \
    e.error === null ? 'null' : String(e.error)].join('|')));</script>";

#[test]
fn scripts_from_two_origins_run_in_document_order_over_http_and_https() {
    let server = TestServer::start().unwrap();
    let cross = server.https_url(CROSS, "/cross.js");
    server.route("/index.html", move |_| {
        html(&format!(
            "<!DOCTYPE html><script>window.log = ['inline1']</script>\
             <script src=/same.js></script><script src={cross}></script>\
             <script src={cross}?defer defer></script>\
             <script>log.push('inline2')</script>"
        ))
    });
    server.route("/same.js", |_| js("log.push('same:' + location.protocol)"));
    server.route("/cross.js", |r| {
        if r.query.as_deref() == Some("defer") {
            js("log.push('cross-defer')")
        } else {
            js("log.push('cross')")
        }
    });
    for url in [
        server.http_url(SAME, "/index.html"),
        server.https_url(SAME, "/index.html"),
    ] {
        let mut rt = load(&server, &url);
        let scheme = url.scheme();
        assert_eq!(
            log(&mut rt),
            format!("inline1,same:{scheme}:,cross,inline2,cross-defer")
        );
        assert_eq!(eval(&mut rt, "location.href"), url.as_str());
        assert_eq!(
            eval(&mut rt, "String(isSecureContext)"),
            (scheme == "https").to_string()
        );
    }
}

#[test]
fn a_cross_origin_no_cors_script_error_is_muted() {
    let server = TestServer::start().unwrap();
    let cross = server.http_url(CROSS, "/throws.js");
    let script_url = cross.clone();
    server.route("/index.html", move |_| {
        html(&format!("{ERROR_LOGGER}<script src={script_url}></script>"))
    });
    server.route("/throws.js", |_| {
        js("// line 1\nthrow new TypeError('secret detail');")
    });
    let mut rt = load(&server, &server.http_url(SAME, "/index.html"));
    assert_eq!(log(&mut rt), "Script error.||0|0|null");
    let errors = rt.reported_errors();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].message, "Script error.");
    assert_eq!(errors[0].filename, "");
    // A no-cors request carries no `Origin` header.
    let requests = server.requests_to("/throws.js");
    assert_eq!(requests[0].header("Origin"), None);
    // The script's host-defined data.
    let record = script_registry::lookup(cross.as_str(), 2).expect("registered");
    assert!(record.muted_errors);
    assert_eq!(record.cors_status, "opaque");
}

#[test]
fn a_crossorigin_script_with_cors_headers_reports_the_real_error() {
    let server = TestServer::start().unwrap();
    let cross = server.http_url(CROSS, "/throws.js");
    let script_url = cross.clone();
    server.route("/index.html", move |_| {
        html(&format!(
            "{ERROR_LOGGER}<script src={script_url} crossorigin></script>"
        ))
    });
    server.route("/throws.js", |r| {
        js("// line 1\nthrow new TypeError('real detail');").with_cors_echo(r)
    });
    let page = server.http_url(SAME, "/index.html");
    let mut rt = load(&server, &page);
    assert_eq!(
        log(&mut rt),
        format!("TypeError: real detail|{cross}|2|7|TypeError: real detail")
    );
    let origin = page.origin().ascii_serialization();
    assert_eq!(
        server.requests_to("/throws.js")[0].header("Origin"),
        Some(origin.as_str())
    );
    let record = script_registry::lookup(cross.as_str(), 2).expect("registered");
    assert!(!record.muted_errors);
    assert_eq!(record.cors_status, "cors");
}

#[test]
fn a_crossorigin_script_without_cors_headers_is_blocked() {
    let server = TestServer::start().unwrap();
    let cross = server.http_url(CROSS, "/nocors.js");
    server.route("/index.html", move |_| {
        html(&format!(
            "<script>window.log = []</script>\
             <script src={cross} crossorigin defer></script>\
             <script>document.querySelector('script[crossorigin]')\
             .addEventListener('error', e => log.push(e.type + ':' + e.target.crossOrigin));\
             log.push('after')</script>"
        ))
    });
    server.route("/nocors.js", |_| js("log.push('ran')"));
    // A deferred script's `error` event fires after parsing, so a later
    // inline script can listen for it.
    let mut rt = load(&server, &server.http_url(SAME, "/index.html"));
    assert_eq!(log(&mut rt), "after,error:anonymous");
    assert_eq!(server.requests_to("/nocors.js").len(), 1);
}

#[test]
fn a_same_origin_url_redirecting_cross_origin_is_muted_with_the_final_url() {
    let server = TestServer::start().unwrap();
    let cross = server.http_url(CROSS, "/target.js");
    let location = cross.to_string();
    server.route("/index.html", |_| {
        html(&format!("{ERROR_LOGGER}<script src=/redirect.js></script>"))
    });
    server.route("/redirect.js", move |_| {
        TestResponse::redirect(302, &location)
    });
    server.route("/target.js", |_| js("log.push('ran');\nnull.x;"));
    let mut rt = load(&server, &server.http_url(SAME, "/index.html"));
    assert_eq!(log(&mut rt), "ran,Script error.||0|0|null");
    let record = script_registry::lookup(cross.as_str(), 2).expect("registered by response URL");
    assert!(record.muted_errors);
    let same = server.http_url(SAME, "/redirect.js");
    assert_eq!(script_registry::lookup(same.as_str(), 2), None);
}

#[test]
fn a_redirected_document_has_its_final_url() {
    let server = TestServer::start().unwrap();
    let target = server.https_url(CROSS, "/final.html");
    let location = target.to_string();
    server.route("/start.html", move |_| {
        TestResponse::redirect(301, &location)
    });
    server.route("/final.html", |_| {
        html("<script>window.log = [location.href, document.URL, origin]</script>")
    });
    let mut rt = load(&server, &server.http_url(SAME, "/start.html"));
    let origin = target.origin().ascii_serialization();
    assert_eq!(log(&mut rt), format!("{target},{target},{origin}"));
}

#[test]
fn a_404_script_fires_error_and_the_page_goes_on() {
    let server = TestServer::start().unwrap();
    server.route("/index.html", |_| {
        html(
            "<script>window.log = []</script>\
             <script src=/missing.js></script>\
             <script src=/missing.js?defer defer></script>\
             <script src=/ok.js defer></script>\
             <script>for (const s of document.querySelectorAll('script[defer]'))\
               s.addEventListener('error', e => log.push(e.type + ':' + e.target.src.split('/').pop()));\
             log.push('after')</script>",
        )
    });
    server.route("/ok.js", |_| js("log.push('ok')"));
    let mut rt = load(&server, &server.http_url(SAME, "/index.html"));
    assert_eq!(log(&mut rt), "after,error:missing.js?defer,ok");
    assert!(rt.reported_errors().is_empty());
    assert_eq!(server.requests_to("/missing.js").len(), 2);
}

#[test]
fn response_headers_reach_the_document() {
    let server = TestServer::start().unwrap();
    server.route("/index.html", |_| {
        html("<script>window.log = [crossOriginIsolated]</script>")
            .with_header("Document-Policy", "js-profiling")
            .with_header("Cross-Origin-Opener-Policy", "same-origin")
            .with_header("Cross-Origin-Embedder-Policy", "require-corp")
    });
    server.route("/plain.html", |_| {
        html("<script>window.log = [crossOriginIsolated]</script>")
    });
    let mut rt = load(&server, &server.https_url(SAME, "/index.html"));
    assert_eq!(log(&mut rt), "true");
    let document = {
        let global = rt.global().get();
        // SAFETY: `global` is the runtime's global, alive while `rt` is.
        let window = unsafe { GlobalScope::from_global(global) }
            .as_window()
            .expect("a window");
        window.document(rt.cx())
    };
    let policy = document.document_policy().expect("a Document-Policy");
    assert!(policy.js_profiling_allowed());
    assert_eq!(
        document.response_headers().get("document-policy"),
        Some(b"js-profiling".to_vec())
    );
    drop(document);
    drop(rt);
    // Without the headers (and over http: not a secure context): no policy,
    // not isolated.
    let mut rt = load(&server, &server.http_url(SAME, "/plain.html"));
    assert_eq!(log(&mut rt), "false");
}

#[test]
fn documents_that_cannot_be_loaded_are_errors() {
    let server = TestServer::start().unwrap();
    for (url, needle) in [
        (server.http_url(SAME, "/nothing-here.html"), "404"),
        // An unmapped host name does not resolve to the loopback server.
        (
            url::Url::parse("http://unmapped.invalid/").unwrap(),
            "unmapped.invalid",
        ),
    ] {
        let (_rt, result) = try_load(&server, &url);
        let message = result.expect_err("no page").to_string();
        assert!(message.contains(needle), "{message}");
    }
}
