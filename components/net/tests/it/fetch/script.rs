//! The classic-script fetch state machine (`jsprof_document`) driven
//! over real hops: CORS modes and muted errors.

use jsprof_document::{
    CorsSettings, EmbedderPolicyValue, Origin, ScriptCorsOutcome, ScriptFetchParams,
};
use jsprof_test_server::{TestResponse, TestServer};

use super::{fetcher, server, OTHER, WPT};

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
