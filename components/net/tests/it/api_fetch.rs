//! The Fetch Standard's fetch for script-made requests
//! (`jsprof_net::api_fetch`) against the loopback test server: modes,
//! CORS checks and preflights, redirect modes, cookies.

use std::sync::atomic::{AtomicBool, Ordering};

use jsprof_document::{CredentialsMode, Origin};
use jsprof_net::{
    ApiRequest, Fetcher, Method, NetError, RedirectMode, RequestMode, ResponseType, Url,
};
use jsprof_test_server::{TestResponse, TestServer};

const WPT: &str = "web-platform.test";
const OTHER: &str = "not-web-platform.test";

fn setup() -> (TestServer, Fetcher) {
    let server = TestServer::start().expect("test server starts");
    let fetcher = Fetcher::new(server.net_config()).expect("fetcher");
    (server, fetcher)
}

fn request(server: &TestServer, url: Url) -> ApiRequest {
    ApiRequest {
        method: Method::Get,
        url,
        headers: Vec::new(),
        body: None,
        origin: Origin::of(&server.http_url(WPT, "/")),
        mode: RequestMode::Cors,
        credentials: CredentialsMode::SameOrigin,
        redirect: RedirectMode::Follow,
        use_cors_preflight: false,
    }
}

fn run(fetcher: &Fetcher, request: ApiRequest) -> Result<jsprof_net::ApiResponse, NetError> {
    fetcher.fetch_api(request, &|| false)
}

fn blocked(result: Result<jsprof_net::ApiResponse, NetError>) -> String {
    match result {
        Err(NetError::Blocked { reason, .. }) => reason,
        other => panic!("expected a blocked fetch, got {other:?}"),
    }
}

#[test]
fn same_origin_is_basic_and_hides_set_cookie() {
    let (server, fetcher) = setup();
    server.route("/a", |_| {
        TestResponse::ok("hi")
            .with_header("X-Custom", "1")
            .with_header("Set-Cookie", "a=1")
    });
    let response = run(&fetcher, request(&server, server.http_url(WPT, "/a"))).unwrap();
    assert_eq!(response.response_type, ResponseType::Basic);
    assert_eq!(response.body, b"hi");
    assert!(response.headers.contains("X-Custom"));
    assert!(!response.headers.contains("Set-Cookie"));
    // A same-origin GET sends no Origin header.
    assert_eq!(server.requests_to("/a")[0].header("Origin"), None);
}

#[test]
fn cross_origin_cors_check() {
    let (server, fetcher) = setup();
    let page = server.http_url(WPT, "/").origin().ascii_serialization();
    server.route("/ok", |r| {
        TestResponse::ok("x")
            .with_cors_echo(r)
            .with_header("X-Hidden", "1")
            .with_header("X-Shown", "2")
            .with_header("Access-Control-Expose-Headers", "X-Shown")
            .with_content_type("text/plain")
    });
    server.route("/no-acao", |_| TestResponse::ok("secret"));
    server.route("/star", |_| TestResponse::ok("s").with_cors("*"));
    let response = run(&fetcher, request(&server, server.http_url(OTHER, "/ok"))).unwrap();
    assert_eq!(response.response_type, ResponseType::Cors);
    assert_eq!(
        server.requests_to("/ok")[0].header("Origin"),
        Some(page.as_str())
    );
    assert!(response.headers.contains("X-Shown"));
    assert!(response.headers.contains("Content-Type"));
    assert!(!response.headers.contains("X-Hidden"));
    let reason = blocked(run(
        &fetcher,
        request(&server, server.http_url(OTHER, "/no-acao")),
    ));
    assert!(reason.contains("CORS check failed"), "{reason}");
    // `*` is enough without credentials, not with them.
    assert!(run(&fetcher, request(&server, server.http_url(OTHER, "/star"))).is_ok());
    let mut credentialed = request(&server, server.http_url(OTHER, "/star"));
    credentialed.credentials = CredentialsMode::Include;
    blocked(run(&fetcher, credentialed));
}

#[test]
fn modes_same_origin_and_no_cors() {
    let (server, fetcher) = setup();
    server.route("/r", |_| TestResponse::ok("body").with_header("X-A", "1"));
    let mut same = request(&server, server.http_url(OTHER, "/r"));
    same.mode = RequestMode::SameOrigin;
    blocked(run(&fetcher, same));
    assert!(server.requests_to("/r").is_empty(), "nothing was sent");
    let mut no_cors = request(&server, server.http_url(OTHER, "/r"));
    no_cors.mode = RequestMode::NoCors;
    let opaque = run(&fetcher, no_cors.clone()).unwrap();
    assert_eq!(opaque.response_type, ResponseType::Opaque);
    assert_eq!(opaque.status, 0);
    assert!(opaque.headers.is_empty());
    assert!(opaque.body.is_empty());
    assert!(opaque.url_list.is_empty());
    // no-cors across origins needs redirect mode "follow".
    no_cors.redirect = RedirectMode::Manual;
    blocked(run(&fetcher, no_cors));
}

#[test]
fn preflight_for_non_simple_requests() {
    let (server, fetcher) = setup();
    server.route("/api", |r| {
        if r.method == "OPTIONS" {
            TestResponse::new(204)
                .with_cors_echo(r)
                .with_header("Access-Control-Allow-Methods", "PUT")
                .with_header("Access-Control-Allow-Headers", "X-Token, content-type")
                .with_header("Access-Control-Max-Age", "60")
        } else {
            TestResponse::ok(r.method.clone()).with_cors_echo(r)
        }
    });
    let mut put = request(&server, server.http_url(OTHER, "/api"));
    put.method = Method::normalize("put");
    put.headers.push(("X-Token".into(), "t".into()));
    put.body = Some(b"data".to_vec());
    let response = run(&fetcher, put.clone()).unwrap();
    assert_eq!(response.body, b"PUT");
    let requests = server.requests_to("/api");
    assert_eq!(requests.len(), 2);
    assert_eq!(requests[0].method, "OPTIONS");
    assert_eq!(
        requests[0].header("Access-Control-Request-Method"),
        Some("PUT")
    );
    assert_eq!(
        requests[0].header("Access-Control-Request-Headers"),
        Some("x-token")
    );
    assert_eq!(requests[0].header("X-Token"), None);
    assert_eq!(requests[1].method, "PUT");
    assert_eq!(requests[1].header("X-Token"), Some("t"));
    assert_eq!(requests[1].body, b"data");
    // The preflight cache: no second OPTIONS within max-age.
    run(&fetcher, put).unwrap();
    let methods: Vec<String> = server
        .requests_to("/api")
        .iter()
        .map(|r| r.method.clone())
        .collect();
    assert_eq!(methods, ["OPTIONS", "PUT", "PUT"]);
    // A method or header the preflight does not allow is refused, and the
    // actual request is never sent.
    server.clear_requests();
    let mut delete = request(&server, server.http_url(OTHER, "/api"));
    delete.method = Method::normalize("DELETE");
    let reason = blocked(run(&fetcher, delete));
    assert!(reason.contains("DELETE"), "{reason}");
    let mut header = request(&server, server.http_url(OTHER, "/api"));
    header.headers.push(("X-Other".into(), "1".into()));
    let reason = blocked(run(&fetcher, header));
    assert!(reason.contains("x-other"), "{reason}");
    assert!(server
        .requests_to("/api")
        .iter()
        .all(|r| r.method == "OPTIONS"));
}

#[test]
fn preflight_refused() {
    let (server, fetcher) = setup();
    server.route("/no", |r| {
        if r.method == "OPTIONS" {
            TestResponse::new(403).with_cors_echo(r)
        } else {
            TestResponse::ok("should not be sent")
        }
    });
    server.route("/no-acao", |r| {
        if r.method == "OPTIONS" {
            TestResponse::new(204).with_header("Access-Control-Allow-Methods", "PUT")
        } else {
            TestResponse::ok("should not be sent")
        }
    });
    for path in ["/no", "/no-acao"] {
        let mut put = request(&server, server.http_url(OTHER, path));
        put.method = Method::normalize("PUT");
        let reason = blocked(run(&fetcher, put));
        assert!(reason.contains("preflight"), "{reason}");
        assert_eq!(server.requests_to(path).len(), 1, "only the OPTIONS");
    }
}

#[test]
fn redirect_modes_and_tainting() {
    let (server, fetcher) = setup();
    let other = server.http_url(OTHER, "/target").to_string();
    server.route("/to-other", move |_| TestResponse::redirect(302, &other));
    server.route("/to-same", |_| TestResponse::redirect(301, "/target"));
    server.route("/target", |r| TestResponse::ok("t").with_cors_echo(r));
    let mut error = request(&server, server.http_url(WPT, "/to-same"));
    error.redirect = RedirectMode::Error;
    blocked(run(&fetcher, error));
    let mut manual = request(&server, server.http_url(WPT, "/to-same"));
    manual.redirect = RedirectMode::Manual;
    let response = run(&fetcher, manual).unwrap();
    assert_eq!(response.response_type, ResponseType::OpaqueRedirect);
    assert_eq!(response.status, 0);
    let followed = run(&fetcher, request(&server, server.http_url(WPT, "/to-same"))).unwrap();
    assert_eq!(followed.url_list.len(), 2);
    assert_eq!(followed.response_type, ResponseType::Basic);
    // Same-origin to cross-origin: CORS from the hop on, with the page's
    // origin (not tainted: the redirect came from the page's own origin).
    let cross = run(
        &fetcher,
        request(&server, server.http_url(WPT, "/to-other")),
    )
    .unwrap();
    assert_eq!(cross.response_type, ResponseType::Cors);
    let origin = server.http_url(WPT, "/").origin().ascii_serialization();
    assert_eq!(
        server
            .requests_to("/target")
            .last()
            .unwrap()
            .header("Origin"),
        Some(origin.as_str())
    );
    // In same-origin mode, the cross-origin hop is a network error.
    let mut same = request(&server, server.http_url(WPT, "/to-other"));
    same.mode = RequestMode::SameOrigin;
    blocked(run(&fetcher, same));
}

#[test]
fn refused_port_and_cancellation() {
    let (server, fetcher) = setup();
    // A port nothing listens on: bind, note the port, close.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = Url::parse(&format!("http://{WPT}:{port}/")).unwrap();
    let result = run(&fetcher, request(&server, url));
    assert!(
        matches!(result, Err(NetError::ConnectionRefused { .. })),
        "{result:?}"
    );
    server.route("/slow", |_| TestResponse::ok("x"));
    let cancelled = AtomicBool::new(true);
    let result = fetcher.fetch_api(request(&server, server.http_url(WPT, "/slow")), &|| {
        cancelled.load(Ordering::SeqCst)
    });
    assert!(
        matches!(result, Err(NetError::Aborted { .. })),
        "{result:?}"
    );
    assert!(server.requests_to("/slow").is_empty());
}

#[test]
fn cookies_follow_the_credentials_mode() {
    let (server, fetcher) = setup();
    server.route("/set", |r| {
        TestResponse::ok("set")
            .with_cors_echo(r)
            .with_header("Set-Cookie", "id=42; Path=/")
            .with_header("Set-Cookie", "=; Path=/")
            .with_header("Set-Cookie", "x=1; Domain=elsewhere.test")
            .with_header("Set-Cookie", "s=1; Secure")
            .with_header("Set-Cookie", "h=1; HttpOnly")
    });
    server.route("/echo", |r| {
        TestResponse::ok(r.header("Cookie").unwrap_or("").to_owned()).with_cors_echo(r)
    });
    // Same-origin with "same-origin" credentials: stored and sent.
    run(&fetcher, request(&server, server.http_url(WPT, "/set"))).unwrap();
    let echoed = run(&fetcher, request(&server, server.http_url(WPT, "/echo"))).unwrap();
    assert_eq!(echoed.body, b"id=42; h=1");
    // "omit": nothing sent.
    let mut omit = request(&server, server.http_url(WPT, "/echo"));
    omit.credentials = CredentialsMode::Omit;
    assert_eq!(run(&fetcher, omit).unwrap().body, b"");
    // Cookies of the page's host are not sent to another host.
    let mut include = request(&server, server.http_url(OTHER, "/echo"));
    include.credentials = CredentialsMode::Include;
    assert_eq!(run(&fetcher, include).unwrap().body, b"");
    // HttpOnly is stored (the jar hides it from scripts only).
    let jar = &fetcher.config().cookie_jar;
    assert_eq!(
        jar.cookie_string(
            &server.http_url(WPT, "/"),
            jsprof_net::CookieContext::SCRIPT
        )
        .as_deref(),
        Some("id=42")
    );
}
