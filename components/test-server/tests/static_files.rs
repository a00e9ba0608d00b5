//! Static files and their `.headers` sidecars, fetched over loopback.

use jsprof_net::{Fetcher, HopRequest};
use jsprof_test_server::TestServer;

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
    let fetcher = Fetcher::new(server.net_config()).unwrap();
    let get = |path: &str| {
        let url = server.http_url("web-platform.test", path);
        fetcher.fetch_hop(&HopRequest::get(url)).unwrap()
    };

    let response = get("/p.html");
    assert_eq!(response.status, 500);
    assert_eq!(response.header("X-Ok"), None);
    let body = String::from_utf8(response.body).unwrap();
    assert!(body.contains("p.html.headers:2:"), "{body}");
    assert!(body.contains("Document-Policy js-profiling"), "{body}");

    let response = get("/d/q.html");
    assert_eq!(response.status, 500);
    let body = String::from_utf8(response.body).unwrap();
    assert!(body.contains("__dir__.headers:1:"), "{body}");
}
