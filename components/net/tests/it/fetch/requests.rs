//! What goes out and what is kept: request headers, `HEAD`, connection
//! reuse, sharing across threads; limits and timeouts.

use std::sync::Arc;
use std::time::Duration;

use jsprof_net::{Fetcher, HopRequest, Method, NetConfig, NetError};
use jsprof_test_server::TestResponse;

use super::{fetcher, get, server, OTHER, WPT};

// ------------------------------------------------- requests and recording

#[test]
fn request_headers_are_sent_and_recorded() {
    let server = server();
    let fetcher = fetcher(&server);
    let request = HopRequest::get(server.http_url(OTHER, "/x?q"))
        .with_header("Origin", "http://web-platform.test:8000")
        .with_header("X-Test", "1");
    assert_eq!(fetcher.fetch_hop(&request).unwrap().status, 404);
    let recorded = server.requests_to("/x");
    assert_eq!(recorded.len(), 1);
    assert_eq!(
        recorded[0].header("origin"),
        Some("http://web-platform.test:8000")
    );
    assert_eq!(recorded[0].header_all("X-Test"), ["1"]);
    assert_eq!(recorded[0].query.as_deref(), Some("q"));
    assert_eq!(recorded[0].method, "GET");
    assert_eq!(
        recorded[0].header("User-Agent"),
        Some(jsprof_net::default_user_agent())
    );
    server.clear_requests();
    assert!(server.requests().is_empty());
}

#[test]
fn head_has_no_body() {
    let server = server();
    server.route("/h", |_| TestResponse::ok("twelve bytes"));
    let request = HopRequest {
        method: Method::Head,
        ..HopRequest::get(server.http_url(WPT, "/h"))
    };
    let response = fetcher(&server).fetch_hop(&request).unwrap();
    assert_eq!(response.status, 200);
    assert!(response.body.is_empty());
    assert_eq!(response.header("Content-Length").as_deref(), Some("12"));
    assert_eq!(server.requests()[0].method, "HEAD");
}

#[test]
fn invalid_request_headers_are_errors() {
    let server = server();
    let fetcher = fetcher(&server);
    for (name, value) in [("Bad Name", "x"), ("X", "a\r\nInjected: 1"), ("", "x")] {
        let request = HopRequest::get(server.http_url(WPT, "/")).with_header(name, value);
        let error = fetcher.fetch_hop(&request).unwrap_err();
        assert!(
            matches!(error, NetError::InvalidRequest { .. }),
            "{name:?}: {error:?}"
        );
    }
    assert!(server.requests().is_empty());
}

#[test]
fn connections_are_reused() {
    let server = server();
    server.route("/k", |_| TestResponse::ok("keep"));
    let fetcher = fetcher(&server);
    for _ in 0..3 {
        assert_eq!(
            get(&fetcher, &server.http_url(WPT, "/k")).unwrap().body,
            b"keep"
        );
    }
    assert_eq!(server.requests().len(), 3);
    assert_eq!(server.connections_accepted(), 1);
}

#[test]
fn fetcher_is_shared_across_threads() {
    fn assert_send_sync_clone<T: Send + Sync + Clone>() {}
    assert_send_sync_clone::<Fetcher>();
    let server = Arc::new(server());
    server.route("/t", |r| {
        TestResponse::ok(r.query.clone().unwrap_or_default())
    });
    let fetcher = fetcher(&server);
    let threads: Vec<_> = (0..4)
        .map(|i| {
            let fetcher = fetcher.clone();
            let url = server.http_url(WPT, &format!("/t?{i}"));
            std::thread::spawn(move || get(&fetcher, &url).unwrap().body)
        })
        .collect();
    for (i, thread) in threads.into_iter().enumerate() {
        assert_eq!(thread.join().unwrap(), i.to_string().as_bytes());
    }
}

// ------------------------------------------------------ limits and timeouts

#[test]
fn stalled_body_times_out() {
    let server = server();
    server.route("/slow", |_| {
        TestResponse::ok("late").stall_before_body(Duration::from_secs(10))
    });
    let fetcher = Fetcher::new(NetConfig {
        timeout: Duration::from_secs(1),
        ..server.net_config()
    })
    .unwrap();
    let error = get(&fetcher, &server.http_url(WPT, "/slow")).unwrap_err();
    assert!(
        matches!(&error, NetError::Timeout { after, .. } if *after == Duration::from_secs(1)),
        "{error:?}"
    );
    assert!(
        error.to_string().starts_with("timed out after 1s"),
        "{error}"
    );
}

#[test]
fn stalled_headers_time_out_over_https() {
    let server = server();
    server.route("/slow", |_| {
        TestResponse::ok("late").stall_before_headers(Duration::from_secs(10))
    });
    let fetcher = Fetcher::new(NetConfig {
        timeout: Duration::from_secs(1),
        ..server.net_config()
    })
    .unwrap();
    let error = get(&fetcher, &server.https_url(WPT, "/slow")).unwrap_err();
    assert!(matches!(error, NetError::Timeout { .. }), "{error:?}");
}

#[test]
fn body_size_limit() {
    let server = server();
    server.route("/big", |_| TestResponse::ok(vec![b'x'; 100]));
    server.route("/ten", |_| TestResponse::ok(vec![b'x'; 10]));
    let fetcher = Fetcher::new(NetConfig {
        max_body: 10,
        ..server.net_config()
    })
    .unwrap();
    assert_eq!(
        get(&fetcher, &server.http_url(WPT, "/ten"))
            .unwrap()
            .body
            .len(),
        10
    );
    let error = get(&fetcher, &server.http_url(WPT, "/big")).unwrap_err();
    assert!(
        matches!(error, NetError::BodyTooLarge { limit: 10, .. }),
        "{error:?}"
    );
    assert!(error.to_string().contains("10-byte limit"));
}
