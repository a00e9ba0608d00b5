//! Fuzzes the Document-Policy header parser and the policy decision, plus
//! the COOP/COEP item parsers that share the structured-field layer.
//!
//! Input: header lines separated by `\n`. Besides "does not panic", checks:
//! a rejected header gives exactly the default policy; an accepted one is
//! self-consistent; profiling is never enabled without "js-profiling" in the
//! input; warnings stay short; the result is deterministic; local workers
//! inherit, network workers parse.
#![no_main]

use jsprof_document::{
    process_response_policy, worker_document_policy, CrossOriginIsolation, DocumentPolicy,
    HeaderList, JsProfiling, SamplerSetup, WorkerPolicySource,
};
use libfuzzer_sys::fuzz_target;
use url::Url;

fuzz_target!(|data: &[u8]| {
    let mut headers = HeaderList::new();
    for line in data.split(|&b| b == b'\n') {
        headers.append("Document-Policy", line);
    }

    let outcome = process_response_policy(&headers);
    assert_eq!(outcome, process_response_policy(&headers), "deterministic");

    let policy = outcome.policy;
    match &outcome.warning {
        Some(warning) => {
            assert_eq!(policy, DocumentPolicy::default());
            assert!(warning.to_string().len() < 512, "warning too long");
        }
        None => {
            let enabled = policy.js_profiling_allowed();
            assert_eq!(enabled, policy.mode().is_some());
            assert_eq!(
                enabled,
                matches!(policy.js_profiling(), JsProfiling::Enabled(_))
            );
            assert_eq!(policy.sampler_setup() == SamplerSetup::Never, !enabled);
            if enabled {
                let needle = b"js-profiling";
                assert!(data.windows(needle.len()).any(|w| w == needle));
            }
            if let Some(mode) = policy.declared_js_profiling_mode() {
                assert_eq!(policy.mode(), Some(mode), "mode takes precedence");
            }
        }
    }

    // Workers: a data: worker inherits whatever its creator had; a network
    // worker reads its own header.
    let creator = DocumentPolicy::new(Some(true), None);
    let local = worker_document_policy(&Url::parse("data:,x").unwrap(), &headers, &creator);
    assert_eq!(local.source, WorkerPolicySource::Inherited);
    assert_eq!(local.outcome.policy, creator);
    let network = worker_document_policy(
        &Url::parse("https://a.test/w.js").unwrap(),
        &headers,
        &creator,
    );
    assert_eq!(network.outcome, outcome);

    // The same bytes as COOP/COEP items.
    let mut isolation_headers = HeaderList::new();
    for line in data.split(|&b| b == b'\n') {
        isolation_headers.append("Cross-Origin-Opener-Policy", line);
        isolation_headers.append("Cross-Origin-Embedder-Policy", line);
    }
    let insecure = CrossOriginIsolation::from_response(&isolation_headers, false);
    assert!(!insecure.is_cross_origin_isolated());
    let secure = CrossOriginIsolation::from_response(&isolation_headers, true);
    if secure.is_cross_origin_isolated() {
        assert!(secure
            .embedder_policy
            .value
            .is_compatible_with_cross_origin_isolation());
    }
});
