//! Redirects: one hop, following with the URL list, loops and limits, bad
//! locations, methods after 303.

use jsprof_net::{HopRequest, Method, NetError, REDIRECT_LIMIT};
use jsprof_test_server::TestResponse;

use super::{fetcher, get, server, OTHER, WPT};

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
