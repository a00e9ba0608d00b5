//! The fetcher against the loopback test server (and `data:`, `file:`,
//! `blob:` URLs). No network beyond 127.0.0.1; no timing assertions.

use std::sync::Arc;
use std::time::Duration;

use jsprof_document::{
    CorsSettings, EmbedderPolicyValue, Origin, ScriptCorsOutcome, ScriptFetchParams,
};
use jsprof_net::{
    BlobStore, Fetcher, HopRequest, HostRules, Method, NetConfig, NetError, TlsProblem, Url,
    REDIRECT_LIMIT,
};
use jsprof_test_server::{TestResponse, TestServer};

const WPT: &str = "web-platform.test";
const WWW: &str = "www.web-platform.test";
const OTHER: &str = "not-web-platform.test";

fn server() -> TestServer {
    TestServer::start().expect("test server starts")
}

fn fetcher(server: &TestServer) -> Fetcher {
    Fetcher::new(server.net_config()).expect("fetcher")
}

fn get(fetcher: &Fetcher, url: &Url) -> Result<jsprof_net::RawResponse, NetError> {
    fetcher.fetch_hop(&HopRequest::get(url.clone()))
}

fn header_lines(response: &jsprof_net::RawResponse, name: &str) -> Vec<String> {
    response
        .headers
        .iter()
        .filter(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| String::from_utf8_lossy(v).into_owned())
        .collect()
}

// ---------------------------------------------------------------- HTTP(S)

#[test]
fn http_get_keeps_status_headers_and_body() {
    let server = server();
    server.route("/h", |_| {
        TestResponse::new(201)
            .with_header("X-Dup", "a")
            .with_header("Content-Type", "text/plain;charset=utf-8")
            .with_header("x-dup", "b")
            .with_header("X-DUP", "c, d")
            .with_body("body bytes")
    });
    let response = get(&fetcher(&server), &server.http_url(WPT, "/h")).unwrap();
    assert_eq!(response.status, 201);
    assert_eq!(response.status_text, "Created");
    assert_eq!(response.body, b"body bytes");
    assert_eq!(header_lines(&response, "x-dup"), ["a", "b", "c, d"]);
    assert_eq!(response.header("X-Dup").as_deref(), Some("a, b, c, d"));
    assert_eq!(
        response.header("CONTENT-TYPE").as_deref(),
        Some("text/plain;charset=utf-8")
    );
    assert_eq!(response.mime_type().unwrap().essence(), "text/plain");
    assert_eq!(response.url, server.http_url(WPT, "/h"));
    assert_eq!(response.response_info().status, 201);
    assert!(response.is_ok() && !response.is_redirect());
}

#[test]
fn error_statuses_are_responses() {
    let server = server();
    let fetcher = fetcher(&server);
    let response = get(&fetcher, &server.http_url(WPT, "/missing")).unwrap();
    assert_eq!(response.status, 404);
    assert!(!response.is_ok());
    server.route("/boom", |_| panic!("handler failure"));
    assert_eq!(
        get(&fetcher, &server.http_url(WPT, "/boom"))
            .unwrap()
            .status,
        500
    );
}

#[test]
fn https_with_the_generated_ca() {
    let server = server();
    server.route("/s", |r| {
        TestResponse::ok(format!("{} {}", r.scheme, r.host().unwrap_or("")))
    });
    let fetcher = fetcher(&server);
    for host in [WPT, WWW, OTHER, "localhost", "127.0.0.1"] {
        let response = get(&fetcher, &server.https_url(host, "/s")).unwrap();
        let expected = format!("https {host}:{}", server.https_port());
        assert_eq!(String::from_utf8(response.body).unwrap(), expected);
    }
    assert!(server.ca_pem().starts_with("-----BEGIN CERTIFICATE-----"));
}

#[test]
fn https_accepting_invalid_certificates() {
    let server = server();
    server.route("/s", |_| TestResponse::ok("secure"));
    let fetcher = Fetcher::new(NetConfig {
        host_rules: server
            .host_rules()
            .map("unknown.example", "127.0.0.1")
            .unwrap(),
        accept_invalid_certs: true,
        ..NetConfig::default()
    })
    .unwrap();
    // Neither the issuer nor the name (not in the certificate) is checked.
    for host in [WPT, "unknown.example"] {
        assert_eq!(
            get(&fetcher, &server.https_url(host, "/s")).unwrap().body,
            b"secure"
        );
    }
}

#[test]
fn https_without_trust_fails_clearly() {
    let server = server();
    let fetcher = Fetcher::new(NetConfig {
        host_rules: server.host_rules(),
        ..NetConfig::default()
    })
    .unwrap();
    let error = get(&fetcher, &server.https_url(WPT, "/")).unwrap_err();
    assert!(
        matches!(
            &error,
            NetError::Tls {
                problem: TlsProblem::UnknownIssuer,
                ..
            }
        ),
        "{error:?}"
    );
    let message = error.to_string();
    assert!(
        message.contains("TLS") && message.contains("not trusted"),
        "{message}"
    );
    assert!(!message.contains('\n'));
    assert!(server.requests().is_empty());
}

#[test]
fn https_certificate_for_another_name_fails() {
    let server = server();
    let mut config = server.net_config();
    config.host_rules = config
        .host_rules
        .map("elsewhere.example", "127.0.0.1")
        .unwrap();
    let fetcher = Fetcher::new(config).unwrap();
    let error = get(&fetcher, &server.https_url("elsewhere.example", "/")).unwrap_err();
    assert!(
        matches!(
            &error,
            NetError::Tls {
                problem: TlsProblem::NotValidForName,
                ..
            }
        ),
        "{error:?}"
    );
    assert!(error.to_string().contains("not valid for this host name"));
}

#[test]
fn ca_file_problems_are_reported_at_construction() {
    let missing = std::env::temp_dir().join("jsprof-net-no-such-ca.pem");
    let error = Fetcher::new(NetConfig {
        ca_file: Some(missing.clone()),
        ..NetConfig::default()
    })
    .unwrap_err();
    assert!(
        matches!(&error, NetError::CaFile { path, .. } if *path == missing),
        "{error:?}"
    );

    let empty = std::env::temp_dir().join(format!("jsprof-net-empty-{}.pem", std::process::id()));
    std::fs::write(&empty, "not a certificate\n").unwrap();
    let error = Fetcher::new(NetConfig {
        ca_file: Some(empty.clone()),
        ..NetConfig::default()
    })
    .unwrap_err();
    std::fs::remove_file(&empty).unwrap();
    assert!(error.to_string().contains("no PEM certificate"), "{error}");
}

// ------------------------------------------------------------ host rules

#[test]
fn host_rules_give_two_origins_on_one_port_without_changing_host() {
    let server = server();
    server.route("/who", |r| {
        TestResponse::ok(r.host().unwrap_or("").to_owned())
    });
    let fetcher = fetcher(&server);
    for make_url in [TestServer::http_url, TestServer::https_url] {
        let a = make_url(&server, WWW, "/who");
        let b = make_url(&server, OTHER, "/who");
        assert_ne!(Origin::of(&a), Origin::of(&b));
        let port = a.port().unwrap();
        assert_eq!(
            get(&fetcher, &a).unwrap().body,
            format!("{WWW}:{port}").as_bytes()
        );
        assert_eq!(
            get(&fetcher, &b).unwrap().body,
            format!("{OTHER}:{port}").as_bytes()
        );
    }
    let hosts: Vec<String> = server
        .requests_to("/who")
        .iter()
        .map(|r| r.host().unwrap().to_owned())
        .collect();
    assert_eq!(hosts.len(), 4);
    assert!(hosts[0].starts_with(WWW) && hosts[1].starts_with(OTHER));
}

#[test]
fn host_rules_can_change_the_port_and_fail_lookups() {
    let server = server();
    server.route("/p", |r| {
        TestResponse::ok(r.host().unwrap_or("").to_owned())
    });
    let rules = HostRules::parse(&format!(
        "MAP moved.test 127.0.0.1:{}, MAP gone.test ~NOTFOUND",
        server.http_port()
    ))
    .unwrap();
    let fetcher = Fetcher::new(NetConfig {
        host_rules: rules,
        ..NetConfig::default()
    })
    .unwrap();
    let response = get(&fetcher, &Url::parse("http://moved.test/p").unwrap()).unwrap();
    // The Host header keeps the URL's host and (default) port.
    assert_eq!(response.body, b"moved.test");
    let error = get(&fetcher, &Url::parse("http://gone.test/").unwrap()).unwrap_err();
    assert!(
        matches!(&error, NetError::Dns { host, .. } if host == "gone.test"),
        "{error:?}"
    );
    assert!(
        error.to_string().starts_with("DNS lookup of gone.test"),
        "{error}"
    );
}

#[test]
fn bad_ports_are_blocked_before_connecting() {
    let fetcher = Fetcher::new(NetConfig::default()).unwrap();
    for url in [
        "http://127.0.0.1:6000/",
        "https://127.0.0.1:25/",
        "http://127.0.0.1:10080/",
    ] {
        let error = get(&fetcher, &Url::parse(url).unwrap()).unwrap_err();
        assert!(
            matches!(error, NetError::BadPort { .. }),
            "{url}: {error:?}"
        );
        assert!(error.to_string().starts_with("blocked: port"), "{error}");
    }
}

#[test]
fn connection_refused() {
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let fetcher = Fetcher::new(NetConfig::default()).unwrap();
    let url = Url::parse(&format!("http://127.0.0.1:{port}/")).unwrap();
    let error = get(&fetcher, &url).unwrap_err();
    assert!(
        matches!(error, NetError::ConnectionRefused { .. }),
        "{error:?}"
    );
    assert!(error.to_string().starts_with("connection refused"));
}

// -------------------------------------------------------------- redirects

#[test]
fn navigation_follows_redirects_with_the_url_list() {
    let server = server();
    let final_url = server.http_url(OTHER, "/final");
    server.route("/r1", |_| TestResponse::redirect(302, "r2?x=1"));
    let absolute = final_url.to_string();
    server.route("/r2", move |_| TestResponse::redirect(301, &absolute));
    server.route("/final", |_| TestResponse::ok("landed"));
    let fetcher = fetcher(&server);
    let start = server.http_url(WPT, "/r1#top");
    let followed = fetcher.fetch_following(&start, &[]).unwrap();
    let mut final_with_fragment = final_url.clone();
    final_with_fragment.set_fragment(Some("top"));
    assert_eq!(
        followed.url_list,
        [
            start.clone(),
            server.http_url(WPT, "/r2?x=1#top"),
            final_with_fragment.clone()
        ]
    );
    assert_eq!(followed.response.url, final_with_fragment);
    assert_eq!(followed.response.status, 200);
    assert_eq!(followed.response.body, b"landed");
    // The fragment is never sent.
    let paths: Vec<_> = server
        .requests()
        .into_iter()
        .map(|r| (r.path, r.query))
        .collect();
    assert_eq!(
        paths,
        [
            ("/r1".into(), None),
            ("/r2".into(), Some("x=1".into())),
            ("/final".into(), None)
        ]
    );
}

#[test]
fn single_hop_returns_the_redirect() {
    let server = server();
    server.route("/r", |_| {
        TestResponse::redirect(307, "/elsewhere").with_body("moved")
    });
    let response = get(&fetcher(&server), &server.http_url(WPT, "/r")).unwrap();
    assert_eq!(response.status, 307);
    assert!(response.is_redirect());
    assert_eq!(response.header("location").as_deref(), Some("/elsewhere"));
    assert_eq!(
        response.location_url().unwrap(),
        Some(server.http_url(WPT, "/elsewhere"))
    );
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn redirect_loops_stop_with_an_error() {
    let server = server();
    server.route("/a", |_| TestResponse::redirect(302, "/b"));
    server.route("/b", |_| TestResponse::redirect(302, "/a"));
    let start = server.http_url(WPT, "/a");
    let error = fetcher(&server).fetch_following(&start, &[]).unwrap_err();
    let NetError::TooManyRedirects {
        url_list,
        looped_at,
    } = &error
    else {
        panic!("{error:?}");
    };
    assert_eq!(url_list.len(), REDIRECT_LIMIT as usize + 2);
    assert_eq!(looped_at.as_deref(), Some(start.as_str()));
    assert!(error.to_string().contains("redirect loop"), "{error}");
    // The first request and 20 followed redirects.
    assert_eq!(server.requests().len(), REDIRECT_LIMIT as usize + 1);
}

#[test]
fn too_many_distinct_redirects() {
    let server = server();
    server.route("/n", |r| {
        let n: u32 = r.query.as_deref().unwrap_or("0").parse().unwrap_or(0);
        TestResponse::redirect(302, &format!("/n?{}", n + 1))
    });
    let error = fetcher(&server)
        .fetch_following(&server.http_url(WPT, "/n?0"), &[])
        .unwrap_err();
    assert!(
        matches!(
            &error,
            NetError::TooManyRedirects {
                looped_at: None,
                ..
            }
        ),
        "{error:?}"
    );
    assert!(
        error.to_string().starts_with("too many redirects"),
        "{error}"
    );
}

#[test]
fn twenty_redirects_are_allowed() {
    let server = server();
    server.route("/n", |r| {
        let n: u32 = r.query.as_deref().unwrap_or("0").parse().unwrap_or(0);
        if n == REDIRECT_LIMIT {
            TestResponse::ok("done")
        } else {
            TestResponse::redirect(308, &format!("/n?{}", n + 1))
        }
    });
    let followed = fetcher(&server)
        .fetch_following(&server.http_url(WPT, "/n?0"), &[])
        .unwrap();
    assert_eq!(followed.url_list.len(), REDIRECT_LIMIT as usize + 1);
    assert_eq!(followed.response.body, b"done");
}

#[test]
fn bad_redirects() {
    let server = server();
    server.route("/to-data", |_| TestResponse::redirect(302, "data:,x"));
    server.route("/two-locations", |_| {
        TestResponse::redirect(302, "/a").with_header("Location", "/b")
    });
    server.route("/bad-location", |_| {
        TestResponse::redirect(302, "http://[oops/")
    });
    server.route("/no-location", |_| TestResponse::new(302).with_body("stay"));
    let fetcher = fetcher(&server);
    let follow = |path: &str| fetcher.fetch_following(&server.http_url(WPT, path), &[]);
    let error = follow("/to-data").unwrap_err();
    assert!(
        matches!(error, NetError::RedirectToNonHttpScheme { .. }),
        "{error:?}"
    );
    let error = follow("/two-locations").unwrap_err();
    assert!(
        matches!(error, NetError::InvalidRedirectLocation { .. }),
        "{error:?}"
    );
    let error = follow("/bad-location").unwrap_err();
    assert!(
        matches!(error, NetError::InvalidRedirectLocation { .. }),
        "{error:?}"
    );
    // A redirect status without `Location` is the response.
    let followed = follow("/no-location").unwrap();
    assert_eq!(followed.response.status, 302);
    assert_eq!(followed.response.body, b"stay");
    assert_eq!(followed.url_list.len(), 1);
}

#[test]
fn post_becomes_get_after_303() {
    let server = server();
    server.route("/form", |_| TestResponse::redirect(303, "/result"));
    server.route("/result", |r| TestResponse::ok(r.method.clone()));
    let request = HopRequest {
        method: Method::Post,
        body: Some(b"a=1".to_vec()),
        ..HopRequest::get(server.http_url(WPT, "/form"))
    }
    .with_header("Content-Type", "application/x-www-form-urlencoded");
    let followed = fetcher(&server).fetch_following_request(request).unwrap();
    assert_eq!(followed.response.body, b"GET");
    let requests = server.requests();
    assert_eq!(requests[0].method, "POST");
    assert_eq!(requests[0].body, b"a=1");
    assert_eq!(requests[1].method, "GET");
    assert!(requests[1].body.is_empty());
    assert_eq!(requests[1].header("Content-Type"), None);
}

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

// ------------------------------------------------------------------ data:

#[test]
fn data_urls() {
    let fetcher = Fetcher::new(NetConfig::default()).unwrap();
    let fetch = |url: &str| get(&fetcher, &Url::parse(url).unwrap());
    let response = fetch("data:text/javascript;base64,YWxlcnQoMSk=").unwrap();
    assert_eq!(
        (response.status, response.status_text.as_str()),
        (200, "OK")
    );
    assert_eq!(response.body, b"alert(1)");
    assert_eq!(
        response.header("Content-Type").as_deref(),
        Some("text/javascript")
    );
    let response = fetch("data:text/html;charset=UTF-8,%3Cp%3Ehi%20there").unwrap();
    assert_eq!(response.body, b"<p>hi there");
    assert_eq!(
        response.header("Content-Type").as_deref(),
        Some("text/html;charset=UTF-8")
    );
    let response = fetch("data:,").unwrap();
    assert!(response.body.is_empty());
    assert_eq!(
        response.header("Content-Type").as_deref(),
        Some("text/plain;charset=US-ASCII")
    );
    for bad in ["data:no-comma", "data:;base64,!!!!", "data:;base64,a"] {
        let error = fetch(bad).unwrap_err();
        assert!(
            matches!(error, NetError::BadDataUrl { .. }),
            "{bad}: {error:?}"
        );
        assert!(error.to_string().starts_with("bad data: URL"));
    }
    // Navigations to data: URLs work (no redirect involved).
    let followed = fetcher
        .fetch_following(&Url::parse("data:text/html,x").unwrap(), &[])
        .unwrap();
    assert_eq!(followed.response.body, b"x");
}

// ------------------------------------------------------------------ file:

#[test]
fn file_urls() {
    let dir = std::env::temp_dir().join(format!("jsprof-net-file-test-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("page.html"), "<!doctype html>").unwrap();
    std::fs::write(dir.join("app.js"), "1+1").unwrap();
    std::fs::write(dir.join("blob.bin"), [0u8; 4]).unwrap();
    let fetcher = Fetcher::new(NetConfig::default()).unwrap();
    let file_url = |name: &str| Url::from_file_path(dir.join(name)).unwrap();

    let response = get(&fetcher, &file_url("page.html")).unwrap();
    assert_eq!(response.status, 200);
    assert_eq!(response.body, b"<!doctype html>");
    assert_eq!(
        response.header("Content-Type").as_deref(),
        Some("text/html")
    );
    let response = get(&fetcher, &file_url("app.js")).unwrap();
    assert_eq!(
        response.header("Content-Type").as_deref(),
        Some("text/javascript")
    );
    let response = get(&fetcher, &file_url("blob.bin")).unwrap();
    assert_eq!(response.body.len(), 4);

    let error = get(&fetcher, &file_url("missing.html")).unwrap_err();
    assert!(matches!(error, NetError::FileNotFound { .. }), "{error:?}");
    assert!(error.to_string().starts_with("file not found"));
    let error = get(&fetcher, &file_url("sub")).unwrap_err();
    assert!(
        matches!(error, NetError::FileIsDirectory { .. }),
        "{error:?}"
    );
    let error = get(&fetcher, &Url::parse("file://remote-host/share/x").unwrap()).unwrap_err();
    assert!(matches!(error, NetError::BadFileUrl { .. }), "{error:?}");

    // Larger than max_body (8): "<!doctype html>" is 15 bytes.
    let big = Fetcher::new(NetConfig {
        max_body: 8,
        ..NetConfig::default()
    })
    .unwrap();
    std::fs::write(dir.join("big.txt"), "0123456789").unwrap();
    let error = get(&big, &file_url("big.txt")).unwrap_err();
    assert!(
        matches!(error, NetError::BodyTooLarge { limit: 8, .. }),
        "{error:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

// ------------------------------------------------------------------ blob:

#[test]
fn blob_urls() {
    let store = Arc::new(BlobStore::new());
    let fetcher = Fetcher::new(NetConfig {
        blob_store: store.clone(),
        ..NetConfig::default()
    })
    .unwrap();
    let origin = Origin::of(&Url::parse("http://web-platform.test:8000/").unwrap());
    let url = store.register(&origin, b"console.log(1)".to_vec(), "text/javascript");
    let response = get(&fetcher, &url).unwrap();
    assert_eq!(response.body, b"console.log(1)");
    assert_eq!(
        response.header("Content-Type").as_deref(),
        Some("text/javascript")
    );
    assert_eq!(response.header("Content-Length").as_deref(), Some("14"));
    let post = HopRequest {
        method: Method::Post,
        ..HopRequest::get(url.clone())
    };
    assert!(matches!(
        fetcher.fetch_hop(&post),
        Err(NetError::InvalidRequest { .. })
    ));

    assert!(store.revoke(&url));
    let error = get(&fetcher, &url).unwrap_err();
    assert!(matches!(error, NetError::UnknownBlob { .. }), "{error:?}");
    assert!(error.to_string().contains("unknown blob: URL"));
    let never =
        Url::parse("blob:http://web-platform.test:8000/00000000-0000-4000-8000-000000000000")
            .unwrap();
    assert!(matches!(
        get(&fetcher, &never),
        Err(NetError::UnknownBlob { .. })
    ));
    // Another store's URLs are unknown here.
    let other = BlobStore::new().register(&origin, Vec::new(), "");
    assert!(matches!(
        get(&fetcher, &other),
        Err(NetError::UnknownBlob { .. })
    ));
}

// ------------------------------------------------------------ other schemes

#[test]
fn about_blank_and_unsupported_schemes() {
    let fetcher = Fetcher::new(NetConfig::default()).unwrap();
    let response = get(&fetcher, &Url::parse("about:blank").unwrap()).unwrap();
    assert_eq!(response.status, 200);
    assert!(response.body.is_empty());
    assert_eq!(
        response.header("content-type").as_deref(),
        Some("text/html;charset=utf-8")
    );
    for url in [
        "about:srcdoc",
        "ftp://example.test/",
        "javascript:1",
        "mailto:a@b.test",
    ] {
        let error = get(&fetcher, &Url::parse(url).unwrap()).unwrap_err();
        assert!(
            matches!(error, NetError::UnsupportedScheme { .. }),
            "{url}: {error:?}"
        );
    }
}

// ----------------------------------------------- the script state machine

fn script_params(server: &TestServer, path: &str, cors: CorsSettings) -> ScriptFetchParams {
    ScriptFetchParams {
        url: server.http_url(OTHER, path),
        cors_setting: cors,
        client_origin: Origin::of(&server.http_url(WPT, "/")),
        embedder_policy: EmbedderPolicyValue::UnsafeNone,
    }
}

#[test]
fn classic_script_cors_and_muted_errors() {
    let server = server();
    server.route("/cors.js", |r| {
        TestResponse::ok("1")
            .with_content_type("text/javascript")
            .with_cors_echo(r)
    });
    server.route("/plain.js", |_| {
        TestResponse::ok("2").with_content_type("text/javascript")
    });
    // In cors mode every hop, redirects included, passes the CORS check.
    server.route("/hop.js", |r| {
        TestResponse::redirect(302, "/cors.js").with_cors_echo(r)
    });
    server.route("/hop-no-cors.js", |_| {
        TestResponse::redirect(302, "/cors.js")
    });
    let fetcher = fetcher(&server);
    let client_origin = Origin::of(&server.http_url(WPT, "/")).ascii_serialization();

    // crossorigin=anonymous, the server allows the origin: not muted; the
    // Origin header went out on every hop.
    let fetch = fetcher
        .fetch_classic_script(script_params(&server, "/hop.js", CorsSettings::Anonymous))
        .unwrap();
    assert!(
        matches!(&fetch.outcome, ScriptCorsOutcome::Run { muted_errors: false, response_url }
            if *response_url == server.http_url(OTHER, "/cors.js")),
        "{:?}",
        fetch.outcome
    );
    assert_eq!(fetch.url_list.len(), 2);
    assert_eq!(fetch.response.unwrap().body, b"1");
    for request in server.requests() {
        assert_eq!(request.header("Origin"), Some(client_origin.as_str()));
    }
    server.clear_requests();

    // No crossorigin attribute, cross-origin: runs with muted errors and
    // sends no Origin header.
    let fetch = fetcher
        .fetch_classic_script(script_params(&server, "/plain.js", CorsSettings::NoCors))
        .unwrap();
    assert!(matches!(
        fetch.outcome,
        ScriptCorsOutcome::Run {
            muted_errors: true,
            ..
        }
    ));
    assert_eq!(server.requests()[0].header("Origin"), None);

    // A redirect without CORS headers fails the CORS check.
    let fetch = fetcher
        .fetch_classic_script(script_params(
            &server,
            "/hop-no-cors.js",
            CorsSettings::Anonymous,
        ))
        .unwrap();
    assert!(
        matches!(fetch.outcome, ScriptCorsOutcome::Blocked(_)),
        "{:?}",
        fetch.outcome
    );
    assert_eq!(fetch.url_list.len(), 1);

    // crossorigin=anonymous without CORS headers: blocked.
    let fetch = fetcher
        .fetch_classic_script(script_params(&server, "/plain.js", CorsSettings::Anonymous))
        .unwrap();
    assert!(
        matches!(fetch.outcome, ScriptCorsOutcome::Blocked(_)),
        "{:?}",
        fetch.outcome
    );
}

// ------------------------------------------------ odd URLs, raw servers

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
