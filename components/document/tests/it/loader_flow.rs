//! The component used the way the shell's loader and the Profiler will use
//! it, through the public API only.

use jsprof_document::{
    coarsen_time, error_info_to_report, fetch_classic_script, is_secure_context,
    process_response_policy, worker_document_policy, CorsSettings, CrossOriginIsolation,
    Environment, ErrorInfo, FetchStep, HeaderList, Origin, ResponseInfo, SamplerSetup,
    ScriptCorsOutcome, ScriptFetchParams, WorkerPolicySource,
};
use url::Url;

struct Document {
    origin: Origin,
    isolation: CrossOriginIsolation,
    policy: jsprof_document::DocumentPolicy,
    warnings: Vec<String>,
}

fn load_document(url: &str, headers: HeaderList) -> Document {
    let url = Url::parse(url).unwrap();
    let secure = is_secure_context(Environment::Window {
        top_level_creation_url: &url,
    });
    let outcome = process_response_policy(&headers);
    Document {
        origin: Origin::of(&url),
        isolation: CrossOriginIsolation::from_response(&headers, secure),
        policy: outcome.policy,
        warnings: outcome.warning.iter().map(ToString::to_string).collect(),
    }
}

/// A fake network: each URL answers with one response.
fn load_script(
    doc: &Document,
    src: &str,
    crossorigin: Option<&str>,
    network: &dyn Fn(&Url, Option<&str>) -> ResponseInfo,
) -> ScriptCorsOutcome {
    let mut step = fetch_classic_script(ScriptFetchParams {
        url: Url::parse(src).unwrap(),
        cors_setting: CorsSettings::from_attribute(crossorigin),
        client_origin: doc.origin.clone(),
        embedder_policy: doc.isolation.embedder_policy.value,
    });
    loop {
        match step {
            FetchStep::Done(outcome) => return outcome,
            FetchStep::Request(pending) => {
                let request = pending.request();
                let response = network(&request.url, request.origin_header.as_deref());
                step = pending.process_response(&response);
            }
        }
    }
}

fn headers(pairs: &[(&str, &str)]) -> HeaderList {
    pairs.iter().copied().collect()
}

#[test]
fn an_isolated_profiling_page_with_first_and_third_party_scripts() {
    let doc = load_document(
        "https://app.test/",
        headers(&[
            ("Document-Policy", "js-profiling-mode=lazy"),
            ("Cross-Origin-Opener-Policy", "same-origin"),
            ("Cross-Origin-Embedder-Policy", "require-corp"),
        ]),
    );
    assert!(doc.warnings.is_empty());
    assert!(doc.policy.js_profiling_allowed());
    assert_eq!(doc.policy.sampler_setup(), SamplerSetup::AtFirstProfiler);
    assert!(doc.isolation.is_cross_origin_isolated());
    assert_eq!(
        coarsen_time(12.345_678, doc.isolation.is_cross_origin_isolated()),
        12.345
    );

    let network = |url: &Url, origin: Option<&str>| -> ResponseInfo {
        match (url.host_str(), url.path()) {
            (Some("app.test"), _) => ResponseInfo::new(200, HeaderList::new()),
            (Some("cdn.test"), "/lib.js") if origin == Some("https://app.test") => {
                ResponseInfo::new(200, headers(&[("Access-Control-Allow-Origin", "*")]))
            }
            (Some("ads.test"), "/ads.js") => ResponseInfo::new(
                200,
                headers(&[("Cross-Origin-Resource-Policy", "cross-origin")]),
            ),
            _ => ResponseInfo::new(404, HeaderList::new()),
        }
    };
    let run = |muted, url: &str| ScriptCorsOutcome::Run {
        muted_errors: muted,
        response_url: Url::parse(url).unwrap(),
    };
    assert_eq!(
        load_script(&doc, "https://app.test/main.js", None, &network),
        run(false, "https://app.test/main.js")
    );
    assert_eq!(
        load_script(&doc, "https://cdn.test/lib.js", Some("anonymous"), &network),
        run(false, "https://cdn.test/lib.js")
    );
    // Third-party script without crossorigin: runs, but muted (never in a
    // trace, errors reported as "Script error.").
    assert_eq!(
        load_script(&doc, "https://ads.test/ads.js", None, &network),
        run(true, "https://ads.test/ads.js")
    );
    // Without CORP it would not even run in this isolated page.
    assert!(matches!(
        load_script(&doc, "https://cdn.test/lib.js", None, &network),
        ScriptCorsOutcome::Blocked(_)
    ));

    let reported = error_info_to_report(
        ErrorInfo {
            message: "Uncaught Error: secret".into(),
            filename: "https://ads.test/ads.js".into(),
            lineno: 3,
            colno: 9,
            error: Some(42u32),
        },
        true,
        false,
    );
    assert_eq!(
        (reported.message.as_str(), reported.filename.as_str()),
        ("Script error.", "")
    );
    assert_eq!(
        (reported.lineno, reported.colno, reported.error),
        (0, 0, None)
    );

    // A blob: worker inherits the page's lazy policy.
    let worker = worker_document_policy(
        &Url::parse("blob:https://app.test/8c1e").unwrap(),
        &HeaderList::new(),
        &doc.policy,
    );
    assert_eq!(worker.source, WorkerPolicySource::Inherited);
    assert_eq!(worker.outcome.policy, doc.policy);
}

#[test]
fn a_plain_http_page_with_a_broken_policy() {
    let doc = load_document(
        "http://site.test/",
        headers(&[
            ("Document-Policy", "js-profiling=yes"),
            ("Cross-Origin-Opener-Policy", "same-origin"),
            ("Cross-Origin-Embedder-Policy", "require-corp"),
        ]),
    );
    assert!(!doc.policy.js_profiling_allowed());
    assert_eq!(doc.warnings.len(), 1);
    assert!(
        doc.warnings[0].contains("'js-profiling' must be a boolean"),
        "{}",
        doc.warnings[0]
    );
    // Not a secure context: COOP/COEP are ignored, 100 µs timestamps.
    assert!(!doc.isolation.is_cross_origin_isolated());
    assert_eq!(
        coarsen_time(12.345_678, doc.isolation.is_cross_origin_isolated()),
        12.3
    );
}
