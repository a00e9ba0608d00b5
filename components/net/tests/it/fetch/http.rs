//! HTTP(S) and host rules: status, headers and bodies, TLS with the
//! generated CA, name mapping, blocked ports, refused connections.

use jsprof_document::Origin;
use jsprof_net::{Fetcher, HostRules, NetConfig, NetError, TlsProblem, Url};
use jsprof_test_server::{TestResponse, TestServer};

use super::{fetcher, get, header_lines, server, OTHER, WPT, WWW};

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
