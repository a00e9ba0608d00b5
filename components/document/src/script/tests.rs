use super::*;

const PAGE: &str = "https://page.test";

fn url(s: &str) -> Url {
    Url::parse(s).unwrap()
}

fn params(script: &str, cors: Option<&str>) -> ScriptFetchParams {
    params_from(PAGE, script, cors, EmbedderPolicyValue::UnsafeNone)
}

fn params_from(
    doc: &str,
    script: &str,
    cors: Option<&str>,
    coep: EmbedderPolicyValue,
) -> ScriptFetchParams {
    ScriptFetchParams {
        url: url(script),
        cors_setting: CorsSettings::from_attribute(cors),
        client_origin: Origin::of(&url(doc)),
        embedder_policy: coep,
    }
}

fn ok(headers: &[(&str, &str)]) -> ResponseInfo {
    ResponseInfo::new(200, headers.iter().copied().collect())
}

fn redirect(to: &str, headers: &[(&str, &str)]) -> ResponseInfo {
    let mut list: HeaderList = headers.iter().copied().collect();
    list.append("Location", to);
    ResponseInfo::new(302, list)
}

fn run(muted_errors: bool, response_url: &str) -> ScriptCorsOutcome {
    ScriptCorsOutcome::Run {
        muted_errors,
        response_url: url(response_url),
    }
}

fn blocked(reason: BlockReason) -> ScriptCorsOutcome {
    ScriptCorsOutcome::Blocked(reason)
}

fn outcome(p: ScriptFetchParams, responses: &[ResponseInfo]) -> ScriptCorsOutcome {
    classic_script_outcome(p, responses).expect("chain matches the fetch")
}

/// The requests the fetch sends for a chain, with its outcome.
fn trace(
    p: ScriptFetchParams,
    responses: &[ResponseInfo],
) -> (Vec<OutgoingRequest>, ScriptCorsOutcome) {
    let mut sent = Vec::new();
    let mut step = fetch_classic_script(p);
    let mut responses = responses.iter();
    loop {
        match step {
            FetchStep::Done(outcome) => {
                assert!(responses.next().is_none(), "responses left over");
                return (sent, outcome);
            }
            FetchStep::Request(pending) => {
                sent.push(pending.request().clone());
                step = pending.process_response(responses.next().expect("a response"));
            }
        }
    }
}

fn acao(value: &str) -> (&str, &str) {
    ("Access-Control-Allow-Origin", value)
}

const ACAC: (&str, &str) = ("Access-Control-Allow-Credentials", "true");

// ---- Single responses, each mode ----

#[test]
fn same_origin_no_cors_runs_unmuted() {
    let (sent, result) = trace(params("https://page.test/a.js", None), &[ok(&[])]);
    assert_eq!(result, run(false, "https://page.test/a.js"));
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0].origin_header, None);
    assert!(sent[0].include_credentials);
    assert_eq!(sent[0].mode, RequestMode::NoCors);
    assert_eq!(sent[0].tainting, ResponseTainting::Basic);
}

#[test]
fn cross_origin_no_cors_runs_muted_even_with_cors_headers() {
    let (sent, result) = trace(params("https://cdn.test/a.js", None), &[ok(&[])]);
    assert_eq!(result, run(true, "https://cdn.test/a.js"));
    assert_eq!(sent[0].origin_header, None);
    assert!(sent[0].include_credentials);
    assert_eq!(sent[0].tainting, ResponseTainting::Opaque);
    // CORS headers do not matter without the crossorigin attribute.
    let result = outcome(params("https://cdn.test/a.js", None), &[ok(&[acao("*")])]);
    assert_eq!(result, run(true, "https://cdn.test/a.js"));
}

#[test]
fn cross_origin_anonymous() {
    for attr in ["", "anonymous", "bogus"] {
        let p = || params("https://cdn.test/a.js", Some(attr));
        let (sent, result) = trace(p(), &[ok(&[acao("*")])]);
        assert_eq!(result, run(false, "https://cdn.test/a.js"), "{attr:?}");
        assert_eq!(sent[0].origin_header.as_deref(), Some(PAGE));
        assert!(
            !sent[0].include_credentials,
            "anonymous omits credentials cross-origin"
        );
        assert_eq!(sent[0].mode, RequestMode::Cors);
        assert_eq!(sent[0].tainting, ResponseTainting::Cors);
        assert_eq!(
            outcome(p(), &[ok(&[acao(PAGE)])]),
            run(false, "https://cdn.test/a.js")
        );
        assert_eq!(
            outcome(p(), &[ok(&[])]),
            blocked(BlockReason::CorsCheckFailed)
        );
        assert_eq!(
            outcome(p(), &[ok(&[acao("https://other.test")])]),
            blocked(BlockReason::CorsCheckFailed)
        );
        // Credentials are not required, but allowed.
        assert_eq!(
            outcome(p(), &[ok(&[acao(PAGE), ACAC])]),
            run(false, "https://cdn.test/a.js")
        );
    }
}

#[test]
fn cross_origin_use_credentials() {
    let p = || params("https://cdn.test/a.js", Some("use-credentials"));
    let (sent, result) = trace(p(), &[ok(&[acao(PAGE), ACAC])]);
    assert_eq!(result, run(false, "https://cdn.test/a.js"));
    assert!(sent[0].include_credentials);
    assert_eq!(sent[0].origin_header.as_deref(), Some(PAGE));
    assert_eq!(
        outcome(p(), &[ok(&[acao("*")])]),
        blocked(BlockReason::CorsCheckFailed)
    );
    assert_eq!(
        outcome(p(), &[ok(&[acao("*"), ACAC])]),
        blocked(BlockReason::CorsCheckFailed)
    );
    assert_eq!(
        outcome(p(), &[ok(&[acao(PAGE)])]),
        blocked(BlockReason::CorsCheckFailed)
    );
    assert_eq!(
        outcome(
            p(),
            &[ok(&[
                acao(PAGE),
                ("Access-Control-Allow-Credentials", "TRUE")
            ])]
        ),
        blocked(BlockReason::CorsCheckFailed)
    );
}

#[test]
fn same_origin_cors_needs_no_cors_headers() {
    for attr in ["anonymous", "use-credentials"] {
        let (sent, result) = trace(params("https://page.test/a.js", Some(attr)), &[ok(&[])]);
        assert_eq!(result, run(false, "https://page.test/a.js"));
        assert_eq!(sent[0].tainting, ResponseTainting::Basic);
        assert_eq!(
            sent[0].origin_header, None,
            "GET with basic tainting sends no Origin"
        );
        assert!(
            sent[0].include_credentials,
            "{attr}: same-origin requests carry credentials"
        );
    }
}

#[test]
fn bad_status_blocks_in_every_mode() {
    for cors in [None, Some("anonymous"), Some("use-credentials")] {
        for script in ["https://page.test/a.js", "https://cdn.test/a.js"] {
            for status in [404, 500, 304, 199, 0, 100, 300] {
                let response = ResponseInfo::new(status, [acao(PAGE), ACAC].into_iter().collect());
                assert_eq!(
                    outcome(params(script, cors), &[response]),
                    blocked(BlockReason::BadStatus(status)),
                    "{script} {cors:?} {status}"
                );
            }
        }
    }
    // Any 2xx is ok.
    assert_eq!(
        outcome(
            params("https://cdn.test/a.js", None),
            &[ResponseInfo::new(299, HeaderList::new())]
        ),
        run(true, "https://cdn.test/a.js")
    );
}

#[test]
fn cors_failure_wins_over_bad_status() {
    let response = ResponseInfo::new(404, HeaderList::new());
    assert_eq!(
        outcome(
            params("https://cdn.test/a.js", Some("anonymous")),
            &[response]
        ),
        blocked(BlockReason::CorsCheckFailed)
    );
}

// ---- Redirect chains ----

#[test]
fn no_cors_same_origin_redirect_to_other_origin_is_opaque() {
    let chain = [redirect("https://cdn.test/b.js", &[]), ok(&[])];
    let (sent, result) = trace(params("https://page.test/a.js", None), &chain);
    assert_eq!(result, run(true, "https://cdn.test/b.js"));
    assert_eq!(sent[0].tainting, ResponseTainting::Basic);
    assert_eq!(sent[1].tainting, ResponseTainting::Opaque);
    assert_eq!(sent[1].url, url("https://cdn.test/b.js"));
    assert!(sent.iter().all(|r| r.origin_header.is_none()));
}

#[test]
fn no_cors_taint_is_sticky_after_returning_to_the_same_origin() {
    let chain = [redirect("https://page.test/b.js", &[]), ok(&[])];
    let (sent, result) = trace(params("https://cdn.test/a.js", None), &chain);
    assert_eq!(result, run(true, "https://page.test/b.js"));
    assert_eq!(sent[1].tainting, ResponseTainting::Opaque);
    // Through another origin and back.
    let chain = [
        redirect("https://cdn.test/b.js", &[]),
        redirect("https://page.test/c.js", &[]),
        ok(&[]),
    ];
    assert_eq!(
        outcome(params("https://page.test/a.js", None), &chain),
        run(true, "https://page.test/c.js")
    );
}

#[test]
fn no_cors_same_origin_redirects_stay_unmuted() {
    let chain = [
        ResponseInfo::new(301, [("Location", "/b.js")].into_iter().collect()),
        ResponseInfo::new(307, [("Location", "c.js?x")].into_iter().collect()),
        ResponseInfo::new(
            308,
            [("Location", "https://PAGE.test:443/d.js")]
                .into_iter()
                .collect(),
        ),
        ResponseInfo::new(303, [("Location", "/e.js")].into_iter().collect()),
        ok(&[]),
    ];
    assert_eq!(
        outcome(params("https://page.test/dir/a.js", None), &chain),
        run(false, "https://page.test/e.js")
    );
}

#[test]
fn cors_redirect_to_another_origin_keeps_the_origin_on_the_first_hop() {
    // page -> cdn: request's origin is same origin with lastURL (page), so
    // the redirect-taint stays "same-origin" and the Origin is the page's.
    let chain = [redirect("https://cdn.test/b.js", &[]), ok(&[acao(PAGE)])];
    let (sent, result) = trace(params("https://page.test/a.js", Some("anonymous")), &chain);
    assert_eq!(result, run(false, "https://cdn.test/b.js"));
    assert_eq!(sent[0].tainting, ResponseTainting::Basic);
    assert_eq!(sent[0].origin_header, None);
    assert_eq!(sent[1].tainting, ResponseTainting::Cors);
    assert_eq!(sent[1].origin_header.as_deref(), Some(PAGE));
    assert!(!sent[1].include_credentials);
    // The cross-origin response must pass the CORS check.
    let chain = [redirect("https://cdn.test/b.js", &[]), ok(&[])];
    assert_eq!(
        outcome(params("https://page.test/a.js", Some("anonymous")), &chain),
        blocked(BlockReason::CorsCheckFailed)
    );
}

#[test]
fn cors_redirect_between_two_other_origins_sends_origin_null() {
    let p = || params("https://cdn.test/a.js", Some("anonymous"));
    // cdn's redirect passes the CORS check; then cdn -> third: tainted.
    let chain = [
        redirect("https://third.test/b.js", &[acao(PAGE)]),
        ok(&[acao("null")]),
    ];
    let (sent, result) = trace(p(), &chain);
    assert_eq!(result, run(false, "https://third.test/b.js"));
    assert_eq!(sent[0].origin_header.as_deref(), Some(PAGE));
    assert_eq!(sent[1].origin_header.as_deref(), Some("null"));
    // The final response must allow "null" (or "*"), not the page.
    let chain = [
        redirect("https://third.test/b.js", &[acao(PAGE)]),
        ok(&[acao(PAGE)]),
    ];
    assert_eq!(outcome(p(), &chain), blocked(BlockReason::CorsCheckFailed));
    let chain = [
        redirect("https://third.test/b.js", &[acao("*")]),
        ok(&[acao("*")]),
    ];
    assert_eq!(outcome(p(), &chain), run(false, "https://third.test/b.js"));
}

#[test]
fn cors_redirect_responses_are_cors_checked() {
    let chain = [redirect("https://third.test/b.js", &[])];
    assert_eq!(
        outcome(params("https://cdn.test/a.js", Some("anonymous")), &chain),
        blocked(BlockReason::CorsCheckFailed)
    );
}

#[test]
fn cors_redirect_back_to_the_page_origin_is_tainted_and_checked() {
    // cdn -> page: still "cors" tainting, and Origin: null.
    let p = || params("https://cdn.test/a.js", Some("anonymous"));
    let chain = [redirect("https://page.test/b.js", &[acao(PAGE)]), ok(&[])];
    assert_eq!(outcome(p(), &chain), blocked(BlockReason::CorsCheckFailed));
    let chain = [
        redirect("https://page.test/b.js", &[acao(PAGE)]),
        ok(&[acao("null")]),
    ];
    let (sent, result) = trace(p(), &chain);
    assert_eq!(result, run(false, "https://page.test/b.js"));
    assert_eq!(sent[1].tainting, ResponseTainting::Cors);
    assert_eq!(sent[1].origin_header.as_deref(), Some("null"));
    assert!(
        !sent[1].include_credentials,
        "anonymous + cors tainting omits credentials"
    );
}

#[test]
fn cors_same_origin_redirect_chain_stays_basic() {
    let chain = [redirect("/b.js", &[]), ok(&[])];
    let (sent, result) = trace(
        params("https://page.test/a.js", Some("use-credentials")),
        &chain,
    );
    assert_eq!(result, run(false, "https://page.test/b.js"));
    assert!(sent
        .iter()
        .all(|r| r.tainting == ResponseTainting::Basic && r.origin_header.is_none()));
}

#[test]
fn use_credentials_redirect_chain_needs_credentials_on_every_hop() {
    let p = || params("https://cdn.test/a.js", Some("use-credentials"));
    let chain = [
        redirect("https://cdn.test/b.js", &[acao(PAGE), ACAC]),
        ok(&[acao(PAGE), ACAC]),
    ];
    let (sent, result) = trace(p(), &chain);
    assert_eq!(result, run(false, "https://cdn.test/b.js"));
    assert!(sent.iter().all(|r| r.include_credentials));
    // cdn -> cdn is not tainted (same origin hops).
    assert_eq!(sent[1].origin_header.as_deref(), Some(PAGE));
    let chain = [redirect("https://cdn.test/b.js", &[acao(PAGE)])];
    assert_eq!(outcome(p(), &chain), blocked(BlockReason::CorsCheckFailed));
}

#[test]
fn redirect_limit_is_twenty() {
    let hops = |n: usize| -> Vec<ResponseInfo> {
        let mut chain: Vec<_> = (1..=n)
            .map(|i| redirect(&format!("/r{i}.js"), &[]))
            .collect();
        chain.push(ok(&[]));
        chain
    };
    assert_eq!(
        outcome(params("https://page.test/a.js", None), &hops(20)),
        run(false, "https://page.test/r20.js")
    );
    let mut chain = hops(21);
    chain.pop();
    assert_eq!(
        outcome(params("https://page.test/a.js", None), &chain),
        blocked(BlockReason::TooManyRedirects)
    );
}

#[test]
fn redirects_to_non_http_schemes_fail() {
    for target in [
        "data:text/javascript,1",
        "file:///etc/passwd",
        "blob:https://page.test/x",
        "ftp://page.test/a.js",
    ] {
        for cors in [None, Some("anonymous")] {
            assert_eq!(
                outcome(
                    params("https://page.test/a.js", cors),
                    &[redirect(target, &[acao("*")])]
                ),
                blocked(BlockReason::RedirectToNonHttpScheme),
                "{target} {cors:?}"
            );
        }
    }
}

#[test]
fn invalid_locations_fail() {
    assert_eq!(
        outcome(
            params("https://page.test/a.js", None),
            &[redirect("http://[::1", &[])]
        ),
        blocked(BlockReason::InvalidRedirectLocation)
    );
    let two = ResponseInfo::new(
        302,
        [("Location", "/b.js"), ("location", "/c.js")]
            .into_iter()
            .collect(),
    );
    assert_eq!(
        outcome(params("https://page.test/a.js", None), &[two]),
        blocked(BlockReason::InvalidRedirectLocation)
    );
}

#[test]
fn redirect_without_location_is_the_final_response() {
    let bare = ResponseInfo::new(302, HeaderList::new());
    assert_eq!(
        outcome(params("https://page.test/a.js", None), &[bare]),
        blocked(BlockReason::BadStatus(302))
    );
    // A Location on a non-redirect status is not followed.
    let not_redirect = ResponseInfo::new(
        200,
        [("Location", "https://cdn.test/x.js")]
            .into_iter()
            .collect(),
    );
    assert_eq!(
        outcome(params("https://page.test/a.js", None), &[not_redirect]),
        run(false, "https://page.test/a.js")
    );
}

#[test]
fn location_keeps_the_request_fragment_unless_it_has_one() {
    let (sent, _) = trace(
        params("https://page.test/a.js#frag", None),
        &[redirect("/b.js", &[]), ok(&[])],
    );
    assert_eq!(sent[1].url, url("https://page.test/b.js#frag"));
    let (sent, _) = trace(
        params("https://page.test/a.js#frag", None),
        &[redirect("/b.js#own", &[]), ok(&[])],
    );
    assert_eq!(sent[1].url, url("https://page.test/b.js#own"));
}

#[test]
fn non_ascii_location_bytes_are_decoded_not_rejected() {
    let mut headers = HeaderList::new();
    headers.append("Location", &b"/caf\xe9.js"[..]);
    let (sent, result) = trace(
        params("https://page.test/a.js", None),
        &[ResponseInfo::new(302, headers), ok(&[])],
    );
    assert_eq!(sent[1].url.as_str(), "https://page.test/caf%C3%A9.js");
    assert_eq!(result, run(false, "https://page.test/caf%C3%A9.js"));
}

#[test]
fn cors_redirects_with_credentials_in_the_url() {
    let p = |cors| params("https://page.test/a.js", cors);
    // Cross-origin with userinfo, cors mode: network error (step 9).
    assert_eq!(
        outcome(
            p(Some("anonymous")),
            &[redirect("https://user:pw@cdn.test/b.js", &[])]
        ),
        blocked(BlockReason::RedirectWithCredentials)
    );
    // Same origin with userinfo, basic tainting: allowed.
    assert_eq!(
        outcome(
            p(Some("anonymous")),
            &[redirect("https://user@page.test/b.js", &[]), ok(&[])]
        ),
        run(false, "https://user@page.test/b.js")
    );
    // Once tainted "cors", userinfo is an error even to the same origin (step 10).
    assert_eq!(
        outcome(
            params("https://cdn.test/a.js", Some("anonymous")),
            &[redirect("https://user@page.test/b.js", &[acao("*")])]
        ),
        blocked(BlockReason::RedirectWithCredentials)
    );
    // no-cors: allowed, and opaque.
    assert_eq!(
        outcome(
            p(None),
            &[redirect("https://user:pw@cdn.test/b.js", &[]), ok(&[])]
        ),
        run(true, "https://user:pw@cdn.test/b.js")
    );
}

// ---- Schemes and odd origins ----

#[test]
fn data_scripts_are_basic_in_any_mode() {
    for cors in [None, Some("anonymous"), Some("use-credentials")] {
        let (sent, result) = trace(params("data:text/javascript,1", cors), &[ok(&[])]);
        assert_eq!(result, run(false, "data:text/javascript,1"));
        assert_eq!(sent[0].tainting, ResponseTainting::Basic);
        assert_eq!(sent[0].origin_header, None);
    }
}

#[test]
fn file_documents_and_scripts() {
    let file_doc = |script: &str, cors| {
        params_from(
            "file:///home/me/p.html",
            script,
            cors,
            EmbedderPolicyValue::UnsafeNone,
        )
    };
    assert_eq!(
        outcome(file_doc("file:///home/me/a.js", None), &[ok(&[])]),
        run(false, "file:///home/me/a.js")
    );
    assert_eq!(
        outcome(
            file_doc("file:///home/me/a.js", Some("anonymous")),
            &[ok(&[])]
        ),
        run(false, "file:///home/me/a.js")
    );
    // An http page and a file script.
    assert_eq!(
        outcome(params("file:///tmp/a.js", None), &[ok(&[])]),
        run(true, "file:///tmp/a.js")
    );
    assert_eq!(
        outcome(params("file:///tmp/a.js", Some("anonymous")), &[]),
        blocked(BlockReason::CorsNonHttpScheme)
    );
    // A file page and an https script with CORS: its Origin is "file://".
    let (sent, _) = trace(
        file_doc("https://cdn.test/a.js", Some("anonymous")),
        &[ok(&[acao("*")])],
    );
    assert_eq!(sent[0].origin_header.as_deref(), Some("file://"));
}

#[test]
fn opaque_document_origin_sends_origin_null() {
    let doc = "data:text/html,<script src=...>";
    let p = |cors| {
        params_from(
            doc,
            "https://cdn.test/a.js",
            cors,
            EmbedderPolicyValue::UnsafeNone,
        )
    };
    let (sent, result) = trace(p(Some("anonymous")), &[ok(&[acao("null")])]);
    assert_eq!(result, run(false, "https://cdn.test/a.js"));
    assert_eq!(sent[0].origin_header.as_deref(), Some("null"));
    assert_eq!(
        outcome(p(Some("anonymous")), &[ok(&[acao("*")])]),
        run(false, "https://cdn.test/a.js")
    );
    assert_eq!(
        outcome(p(None), &[ok(&[])]),
        run(true, "https://cdn.test/a.js")
    );
}

#[test]
fn blob_scripts_follow_their_inner_origin() {
    assert_eq!(
        outcome(params("blob:https://page.test/1234", None), &[ok(&[])]),
        run(false, "blob:https://page.test/1234")
    );
    assert_eq!(
        outcome(params("blob:https://cdn.test/1234", None), &[ok(&[])]),
        run(true, "blob:https://cdn.test/1234")
    );
    assert_eq!(
        outcome(params("blob:https://cdn.test/1234", Some("anonymous")), &[]),
        blocked(BlockReason::CorsNonHttpScheme)
    );
}

// ---- COEP: CORP and credentialless ----

#[test]
fn require_corp_blocks_no_cors_cross_origin_scripts_without_corp() {
    let p = |cors| {
        params_from(
            PAGE,
            "https://cdn.test/a.js",
            cors,
            EmbedderPolicyValue::RequireCorp,
        )
    };
    assert_eq!(
        outcome(p(None), &[ok(&[])]),
        blocked(BlockReason::CrossOriginResourcePolicy)
    );
    assert_eq!(
        outcome(
            p(None),
            &[ok(&[("Cross-Origin-Resource-Policy", "cross-origin")])]
        ),
        run(true, "https://cdn.test/a.js")
    );
    // CORS-mode responses are not CORP-checked.
    assert_eq!(
        outcome(p(Some("anonymous")), &[ok(&[acao("*")])]),
        run(false, "https://cdn.test/a.js")
    );
    // Same-origin scripts need nothing.
    let same = params_from(
        PAGE,
        "https://page.test/a.js",
        None,
        EmbedderPolicyValue::RequireCorp,
    );
    assert_eq!(
        outcome(same, &[ok(&[])]),
        run(false, "https://page.test/a.js")
    );
    // Opaque redirects are CORP-checked too.
    let chain = [redirect("https://page.test/b.js", &[])];
    assert_eq!(
        outcome(p(None), &chain),
        blocked(BlockReason::CrossOriginResourcePolicy)
    );
}

#[test]
fn corp_same_origin_blocks_even_without_coep() {
    let corp = [("Cross-Origin-Resource-Policy", "same-origin")];
    assert_eq!(
        outcome(params("https://cdn.test/a.js", None), &[ok(&corp)]),
        blocked(BlockReason::CrossOriginResourcePolicy)
    );
    assert_eq!(
        outcome(params("https://page.test/a.js", None), &[ok(&corp)]),
        run(false, "https://page.test/a.js")
    );
}

#[test]
fn credentialless_omits_credentials_on_no_cors_cross_origin_requests() {
    let p = |script, cors| params_from(PAGE, script, cors, EmbedderPolicyValue::Credentialless);
    let (sent, result) = trace(p("https://cdn.test/a.js", None), &[ok(&[])]);
    assert!(!sent[0].include_credentials);
    assert_eq!(result, run(true, "https://cdn.test/a.js"));
    let (sent, _) = trace(p("https://page.test/a.js", None), &[ok(&[])]);
    assert!(sent[0].include_credentials);
    let (sent, _) = trace(
        p("https://cdn.test/a.js", Some("use-credentials")),
        &[ok(&[acao(PAGE), ACAC])],
    );
    assert!(sent[0].include_credentials, "cors mode is not affected");
    // Same origin reached through another origin: tainted, no credentials.
    let (sent, _) = trace(
        p("https://page.test/a.js", None),
        &[
            redirect("https://cdn.test/b.js", &[]),
            redirect("https://page.test/c.js", &[]),
            ok(&[]),
        ],
    );
    assert_eq!(
        sent.iter()
            .map(|r| r.include_credentials)
            .collect::<Vec<_>>(),
        [true, false, false]
    );
}

// ---- The driver ----

#[test]
fn chain_errors() {
    assert_eq!(
        classic_script_outcome(params("https://page.test/a.js", None), &[]),
        Err(ChainError::MissingResponse(url("https://page.test/a.js")))
    );
    assert_eq!(
        classic_script_outcome(
            params("https://page.test/a.js", None),
            &[redirect("/b.js", &[])]
        ),
        Err(ChainError::MissingResponse(url("https://page.test/b.js")))
    );
    assert_eq!(
        classic_script_outcome(params("https://page.test/a.js", None), &[ok(&[]), ok(&[])]),
        Err(ChainError::UnusedResponses(1))
    );
}

#[test]
fn pending_fetch_exposes_its_url_list() {
    let FetchStep::Request(pending) = fetch_classic_script(params("https://page.test/a.js", None))
    else {
        panic!("expected a request");
    };
    assert_eq!(pending.url_list(), [url("https://page.test/a.js")]);
    let FetchStep::Request(next) =
        pending.process_response(&redirect("https://cdn.test/b.js", &[]))
    else {
        panic!("expected a request");
    };
    assert_eq!(
        next.url_list(),
        [url("https://page.test/a.js"), url("https://cdn.test/b.js")]
    );
}

// ---- Muted errors ----

fn info() -> ErrorInfo<&'static str> {
    ErrorInfo {
        message: "Uncaught TypeError: x is undefined".into(),
        filename: "https://cdn.test/a.js".into(),
        lineno: 12,
        colno: 7,
        error: Some("the TypeError"),
    }
}

#[test]
fn muted_errors_report_script_error() {
    assert_eq!(
        error_info_to_report(info(), true, false),
        ErrorInfo {
            message: "Script error.".into(),
            filename: String::new(),
            lineno: 0,
            colno: 0,
            error: None,
        }
    );
}

#[test]
fn unmuted_errors_are_reported_as_they_are() {
    assert_eq!(error_info_to_report(info(), false, false), info());
    let omitted = error_info_to_report(info(), false, true);
    assert_eq!(omitted.error, None);
    assert_eq!(omitted.lineno, 12);
    assert_eq!(omitted.message, info().message);
}

#[test]
fn dynamic_code_inherits_muted_errors() {
    assert!(dynamic_code_muted_errors(Some(true)));
    assert!(!dynamic_code_muted_errors(Some(false)));
    assert!(!dynamic_code_muted_errors(None));
    // Transitively: eval inside eval'd code of a muted script.
    let outer = dynamic_code_muted_errors(Some(true));
    assert!(dynamic_code_muted_errors(Some(outer)));
}

#[test]
fn nosniff_blocks_a_script_that_is_not_javascript() {
    let nosniff = ("X-Content-Type-Options", "nosniff");
    for script in ["https://page.test/a.js", "https://cdn.test/a.js"] {
        for cors in [None, Some("anonymous")] {
            let with = |content_type: &'static str| {
                let mut headers = vec![nosniff, acao(PAGE)];
                if !content_type.is_empty() {
                    headers.push(("Content-Type", content_type));
                }
                outcome(params(script, cors), &[ok(&headers)])
            };
            // A JavaScript MIME type runs (muted when no-cors cross-origin).
            let muted = cors.is_none() && script.contains("cdn");
            assert_eq!(with("text/javascript; charset=utf-8"), run(muted, script));
            // CSS, a missing or an unparsable Content-Type: blocked.
            for bad in ["text/css", "", "javascript", "text/plain"] {
                assert_eq!(
                    with(bad),
                    blocked(BlockReason::Nosniff),
                    "{script} {cors:?} {bad}"
                );
            }
        }
    }
    // Without nosniff the type is not looked at.
    assert_eq!(
        outcome(
            params("https://page.test/a.js", None),
            &[ok(&[("Content-Type", "text/css")])]
        ),
        run(false, "https://page.test/a.js")
    );
    // The check is on the final response, not on a redirect's.
    let chain = [
        redirect(
            "https://page.test/b.js",
            &[nosniff, ("Content-Type", "text/html")],
        ),
        ok(&[nosniff, ("Content-Type", "application/javascript")]),
    ];
    assert_eq!(
        outcome(params("https://page.test/a.js", None), &chain),
        run(false, "https://page.test/b.js")
    );
    // Main fetch's nosniff check comes before "fetch a classic script"
    // looks at the status: a 404 stylesheet is blocked for nosniff.
    let response = ResponseInfo::new(
        404,
        [nosniff, ("Content-Type", "text/css")]
            .into_iter()
            .collect(),
    );
    assert_eq!(
        outcome(params("https://page.test/a.js", None), &[response]),
        blocked(BlockReason::Nosniff)
    );
}
