//! Odd but valid URLs and header overrides, and hand-written servers:
//! malformed responses, chunked and close-delimited bodies, abort.

use std::time::Duration;

use jsprof_net::{Fetcher, HopRequest, NetConfig, NetError, Url};
use jsprof_test_server::TestResponse;

use super::{fetcher, get, server, WPT};

#[test]
fn odd_but_valid_urls_and_header_overrides() {
    let server = server();
    server.route("/*", |r| {
        TestResponse::ok(format!("{}?{}", r.path, r.query.as_deref().unwrap_or("")))
    });
    let fetcher = fetcher(&server);
    let url = server.http_url(WPT, "/a|b^c[d]`e'f?x={y}|z^`'&[q]");
    let response = fetcher
        .fetch_hop(
            &HopRequest::get(url.clone())
                .with_header("Accept", "text/html")
                .with_header("User-Agent", "custom"),
        )
        .unwrap();
    let sent = &url[url::Position::BeforePath..url::Position::AfterQuery];
    assert_eq!(String::from_utf8(response.body).unwrap(), sent);
    let recorded = &server.requests()[0];
    assert_eq!(recorded.header_all("Accept"), ["text/html"]);
    assert_eq!(recorded.header_all("User-Agent"), ["custom"]);
    // Credentials in the URL are not sent in the request line or Host.
    let with_userinfo =
        Url::parse(&format!("http://user:pass@{WPT}:{}/u", server.http_port())).unwrap();
    assert_eq!(get(&fetcher, &with_userinfo).unwrap().body, b"/u?");
    let host = server.requests()[1].host().unwrap().to_owned();
    assert_eq!(host, format!("{WPT}:{}", server.http_port()));
}

/// A one-connection server that reads the request head, writes `answer`
/// and closes; returns the URL to fetch.
fn raw_server(answer: &'static [u8]) -> (Url, std::thread::JoinHandle<()>) {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let thread = std::thread::spawn(move || {
        let (mut stream, _) = listener.accept().unwrap();
        let mut head = Vec::new();
        let mut byte = [0u8; 1];
        while !head.ends_with(b"\r\n\r\n") && stream.read(&mut byte).unwrap_or(0) == 1 {
            head.push(byte[0]);
        }
        let _ = stream.write_all(answer);
    });
    (
        Url::parse(&format!("http://127.0.0.1:{port}/")).unwrap(),
        thread,
    )
}

#[test]
fn malformed_http_responses_are_protocol_errors() {
    let (url, server) = raw_server(b"NOT HTTP AT ALL\r\n\r\n");
    let fetcher = Fetcher::new(NetConfig::default()).unwrap();
    let error = get(&fetcher, &url).unwrap_err();
    assert!(matches!(error, NetError::Protocol { .. }), "{error:?}");
    assert!(error.to_string().starts_with("malformed HTTP response"));
    server.join().unwrap();
}

#[test]
fn chunked_and_close_delimited_bodies() {
    let fetcher = Fetcher::new(NetConfig::default()).unwrap();
    let (url, server) = raw_server(
        b"HTTP/1.1 200 Fine Thanks\r\nTransfer-Encoding: chunked\r\n\r\n\
          5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n",
    );
    let response = get(&fetcher, &url).unwrap();
    assert_eq!(response.body, b"hello world");
    // The reason phrase is the status code's usual one.
    assert_eq!(response.status_text, "OK");
    server.join().unwrap();

    let (url, server) =
        raw_server(b"HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil close");
    assert_eq!(get(&fetcher, &url).unwrap().body, b"until close");
    server.join().unwrap();
}

#[test]
fn abort_ends_a_stalled_fetch_and_refuses_later_ones() {
    let server = server();
    // Stalls (30 s, the server's cap) before its headers, then in its body.
    server.route("/stall-headers", |_| {
        TestResponse::ok("late").stall_before_headers(Duration::from_secs(30))
    });
    server.route("/stall-body", |_| {
        TestResponse::ok("late").stall_before_body(Duration::from_secs(30))
    });
    server.route("/ok", |_| TestResponse::ok("ok"));
    let shared = fetcher(&server);
    for path in ["/stall-headers", "/stall-body"] {
        let own = shared.with_own_connections().unwrap();
        let url = server.http_url(WPT, path);
        let started = std::time::Instant::now();
        let aborter = {
            let own = own.clone();
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(200));
                own.abort();
            })
        };
        let error = get(&own, &url).unwrap_err();
        aborter.join().unwrap();
        // A behavioural bound (the stall is 30 s), not a timing test.
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "{path}: the abort did not end the fetch ({:?})",
            started.elapsed()
        );
        assert!(
            matches!(error, NetError::Aborted { .. }),
            "{path}: {error:?}"
        );
        assert!(own.is_aborted());
        // Later fetches fail before they start, whatever the scheme.
        for later in [url.clone(), Url::parse("data:,x").unwrap()] {
            assert!(matches!(get(&own, &later), Err(NetError::Aborted { .. })));
        }
    }
    // The fetcher the others were made from is not aborted.
    assert_eq!(
        get(&shared, &server.http_url(WPT, "/ok")).unwrap().body,
        b"ok"
    );
}
