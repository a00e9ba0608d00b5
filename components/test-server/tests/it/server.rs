//! The test server itself, through the fetcher: static files and their
//! `.headers` sidecars, prefix routes, shutdown, malformed requests. No
//! network beyond 127.0.0.1.

use std::time::Duration;

use jsprof_net::{Fetcher, HopRequest, HostRules, NetConfig, NetError, RawResponse, Url};
use jsprof_test_server::{TestResponse, TestServer};

const WPT: &str = "web-platform.test";

fn server() -> TestServer {
    TestServer::start().expect("test server starts")
}

fn fetcher(server: &TestServer) -> Fetcher {
    Fetcher::new(server.net_config()).expect("fetcher")
}

fn get(fetcher: &Fetcher, url: &Url) -> Result<RawResponse, NetError> {
    fetcher.fetch_hop(&HopRequest::get(url.clone()))
}

/// The response to a GET of `path` on the WPT host (fails the test on a
/// network error).
fn get_wpt(fetcher: &Fetcher, server: &TestServer, path: &str) -> RawResponse {
    get(fetcher, &server.http_url(WPT, path)).unwrap()
}

/// Every `Content-Type` line, in order.
fn content_types(response: &RawResponse) -> Vec<String> {
    let lines = response.headers.iter();
    lines
        .filter(|(name, _)| name.eq_ignore_ascii_case("Content-Type"))
        .map(|(_, value)| String::from_utf8_lossy(value).into_owned())
        .collect()
}

#[test]
fn serves_static_files_safely() {
    let root = std::env::temp_dir().join(format!("jsprof-net-static-{}", std::process::id()));
    std::fs::create_dir_all(root.join("dir")).unwrap();
    std::fs::write(root.join("dir/index.html"), "<p>index").unwrap();
    std::fs::write(root.join("a b.js"), "var a;").unwrap();
    std::fs::write(root.join("dir/__dir__.headers"), "X-Dir: 1\n").unwrap();
    std::fs::write(root.join("dir/p.html"), "<p>").unwrap();
    std::fs::write(
        root.join("dir/p.html.headers"),
        "Document-Policy: js-profiling\nContent-Type: text/html;charset=utf-8\n",
    )
    .unwrap();
    let server = TestServer::builder()
        .static_dir(&root)
        .route("/dir/override.js", |_| TestResponse::ok("handler"))
        .start()
        .unwrap();
    let fetcher = fetcher(&server);
    let response = get_wpt(&fetcher, &server, "/dir/");
    assert_eq!(response.body, b"<p>index");
    assert_eq!(
        response.header("Content-Type").as_deref(),
        Some("text/html")
    );
    assert_eq!(response.header("X-Dir").as_deref(), Some("1"));
    let response = get_wpt(&fetcher, &server, "/dir/p.html");
    assert_eq!(response.header("X-Dir").as_deref(), Some("1"));
    assert_eq!(
        response.header("Document-Policy").as_deref(),
        Some("js-profiling")
    );
    assert_eq!(content_types(&response), ["text/html;charset=utf-8"]);
    let response = get_wpt(&fetcher, &server, "/a%20b.js");
    assert_eq!(response.body, b"var a;");
    assert_eq!(
        response.header("Content-Type").as_deref(),
        Some("text/javascript")
    );
    assert_eq!(
        get_wpt(&fetcher, &server, "/dir/override.js").body,
        b"handler"
    );
    // `..` (here percent-encoded, which URL parsing keeps) never leaves the root.
    let escape = server.http_url(WPT, "/dir/%2e%2e/%2e%2e/etc/passwd");
    assert_eq!(get(&fetcher, &escape).unwrap().status, 404);
    drop(server);
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn prefix_routes_and_drop() {
    let server = server();
    server.route("/p/*", |r| TestResponse::ok(format!("short {}", r.path)));
    server.route("/p/deeper/*", |r| {
        TestResponse::ok(format!("long {}", r.path))
    });
    let fetcher = fetcher(&server);
    assert_eq!(get_wpt(&fetcher, &server, "/p/x").body, b"short /p/x");
    assert_eq!(
        get_wpt(&fetcher, &server, "/p/deeper/y").body,
        b"long /p/deeper/y"
    );
    let url = server.http_url(WPT, "/p/x");
    let ca_file = server.ca_file().to_owned();
    assert!(ca_file.exists());
    drop(server);
    assert!(!ca_file.exists());
    // Nothing listens any more.
    let fresh = Fetcher::new(NetConfig {
        host_rules: HostRules::parse(&format!("MAP {WPT} 127.0.0.1")).unwrap(),
        ..NetConfig::default()
    })
    .unwrap();
    assert!(matches!(
        get(&fresh, &url),
        Err(NetError::ConnectionRefused { .. })
    ));
}

#[test]
fn rejects_malformed_requests() {
    // (An oversized head gets 431, but the unread rest of it makes the
    // close a reset that can drop the response, so it is not tested here.)
    use std::io::{Read, Write};
    let server = server();
    for (request, status) in [
        (b"NOT A REQUEST\r\n\r\n".to_vec(), "400"),
        (
            b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n".to_vec(),
            "400",
        ),
        (
            b"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec(),
            "501",
        ),
    ] {
        let mut stream = std::net::TcpStream::connect(("127.0.0.1", server.http_port())).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        stream.write_all(&request).unwrap();
        let mut response = String::new();
        let _ = stream.read_to_string(&mut response);
        assert!(
            response.starts_with(&format!("HTTP/1.1 {status} ")),
            "{status}: {response:?}"
        );
    }
}

/// A typo in a `.headers` file (here a missing colon) used to drop that
/// header silently, so a test relying on it (a `Document-Policy:
/// js-profiling` line, say) ran against a page without it and could pass
/// for the wrong reason. Now the file is not served: the answer is a 500
/// naming the sidecar and the line.
#[test]
fn a_malformed_headers_line_is_a_500_naming_the_file_and_the_line() {
    let root = tempfile::tempdir().unwrap();
    std::fs::write(root.path().join("p.html"), "<p>").unwrap();
    std::fs::write(
        root.path().join("p.html.headers"),
        "X-Ok: 1\nDocument-Policy js-profiling\n",
    )
    .unwrap();
    std::fs::create_dir(root.path().join("d")).unwrap();
    std::fs::write(root.path().join("d/q.html"), "<p>").unwrap();
    std::fs::write(root.path().join("d/__dir__.headers"), "Bad Name: x\n").unwrap();
    let server = TestServer::builder()
        .static_dir(root.path())
        .start()
        .unwrap();
    let fetcher = fetcher(&server);

    let response = get_wpt(&fetcher, &server, "/p.html");
    assert_eq!(response.status, 500);
    assert_eq!(response.header("X-Ok"), None);
    let body = String::from_utf8(response.body).unwrap();
    assert!(body.contains("p.html.headers:2:"), "{body}");
    assert!(body.contains("Document-Policy js-profiling"), "{body}");

    let response = get_wpt(&fetcher, &server, "/d/q.html");
    assert_eq!(response.status, 500);
    let body = String::from_utf8(response.body).unwrap();
    assert!(body.contains("__dir__.headers:1:"), "{body}");
}
