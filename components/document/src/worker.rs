//! The document policy of a worker.
//!
//! A worker fetched over the network takes its policy from its own script
//! response's `Document-Policy` header. A worker whose script URL is local
//! (`blob:`, `data:`, `about:`) has no response of its own to speak for it
//! and inherits its creator's policy; for a nested worker the creator is the
//! parent worker, whose policy was itself decided this way, so inheritance
//! is transitive back to the first network-fetched environment.
//!
//! This follows how HTML initialises a worker's policy container (local
//! URLs inherit from the owner; others come from the response). For a
//! `blob:` URL HTML uses the policy container of the environment that
//! created the blob URL (kept in its blob URL entry, see
//! [`PolicyContainer`]); pass that as `creator_policy`.

use url::Url;

use crate::headers::HeaderList;
use crate::isolation::EmbedderPolicyValue;
use crate::policy::{process_response_policy, DocumentPolicy, PolicyOutcome};

/// The parts of an environment's policy container
/// (<https://html.spec.whatwg.org/multipage/browsers.html#policy-containers>)
/// a worker can inherit: its document policy (Document-Policy, which this
/// project keeps with the policy container) and its embedder policy's
/// value. A blob URL entry keeps its creator's
/// (<https://w3c.github.io/FileAPI/#blob-url-entry> "environment"), for
/// the `blob:` workers made from it
/// (<https://html.spec.whatwg.org/multipage/browsers.html#creating-a-policy-container-from-a-fetch-response>
/// step 1: a `blob:` response's policy container is a clone of its blob
/// URL entry's environment's).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PolicyContainer {
    /// The environment's document policy.
    pub document_policy: DocumentPolicy,
    /// The environment's embedder policy value (COEP).
    pub embedder_policy: EmbedderPolicyValue,
}

/// Where a worker's policy came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WorkerPolicySource {
    /// Inherited from the creator (local-scheme script URL).
    Inherited,
    /// Read from the worker script's own response headers.
    OwnResponse,
}

/// A worker's policy, its source, and the console warning, if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkerPolicy {
    /// The policy and the warning from parsing the worker's header.
    pub outcome: PolicyOutcome,
    /// Where it came from.
    pub source: WorkerPolicySource,
}

/// <https://fetch.spec.whatwg.org/#local-scheme>
fn is_local_scheme(url: &Url) -> bool {
    matches!(url.scheme(), "about" | "blob" | "data")
}

/// Decides a worker's document policy from its script URL, the script
/// response's headers, and its creator's (document's or parent worker's)
/// policy.
pub fn worker_document_policy(
    worker_script_url: &Url,
    response_headers: &HeaderList,
    creator_policy: &DocumentPolicy,
) -> WorkerPolicy {
    if is_local_scheme(worker_script_url) {
        return WorkerPolicy {
            outcome: PolicyOutcome {
                policy: *creator_policy,
                warning: None,
            },
            source: WorkerPolicySource::Inherited,
        };
    }
    WorkerPolicy {
        outcome: process_response_policy(response_headers),
        source: WorkerPolicySource::OwnResponse,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::{JsProfiling, PolicyWarning, ProfilingMode};

    fn url(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    fn header(v: &str) -> HeaderList {
        HeaderList::new().with("Document-Policy", v)
    }

    const LAZY: DocumentPolicy = DocumentPolicy::new(None, Some(ProfilingMode::Lazy));

    #[test]
    fn network_workers_use_their_own_headers() {
        let w = worker_document_policy(
            &url("https://page.test/w.js"),
            &header("js-profiling"),
            &LAZY,
        );
        assert_eq!(w.source, WorkerPolicySource::OwnResponse);
        assert_eq!(
            w.outcome.policy.js_profiling(),
            JsProfiling::Enabled(ProfilingMode::Eager)
        );
        // No header: the default, not the creator's.
        let w = worker_document_policy(&url("https://page.test/w.js"), &HeaderList::new(), &LAZY);
        assert_eq!(w.outcome.policy.js_profiling(), JsProfiling::Disabled);
        // A bad header: default and a warning.
        let w = worker_document_policy(
            &url("http://page.test/w.js"),
            &header("js-profiling=5"),
            &LAZY,
        );
        assert!(matches!(
            w.outcome.warning,
            Some(PolicyWarning::WrongType { .. })
        ));
        assert!(!w.outcome.policy.js_profiling_allowed());
    }

    #[test]
    fn blob_and_data_workers_inherit_and_ignore_headers() {
        for script in [
            "blob:https://page.test/5d3c",
            "data:text/javascript,postMessage(1)",
            "about:blank",
        ] {
            let w = worker_document_policy(&url(script), &header("js-profiling=?0"), &LAZY);
            assert_eq!(w.source, WorkerPolicySource::Inherited, "{script}");
            assert_eq!(w.outcome.policy, LAZY);
            assert_eq!(w.outcome.warning, None);
        }
        let off = DocumentPolicy::default();
        let w = worker_document_policy(&url("data:,x"), &header("js-profiling"), &off);
        assert!(!w.outcome.policy.js_profiling_allowed());
    }

    #[test]
    fn nested_local_workers_inherit_transitively() {
        let document = worker_document_policy(
            &url("https://page.test/w.js"),
            &header("js-profiling-mode=lazy"),
            &DocumentPolicy::default(),
        );
        let child = worker_document_policy(
            &url("blob:https://page.test/1"),
            &HeaderList::new(),
            &document.outcome.policy,
        );
        let grandchild = worker_document_policy(
            &url("data:,x"),
            &header("js-profiling=?0"),
            &child.outcome.policy,
        );
        assert_eq!(
            grandchild.outcome.policy.js_profiling(),
            JsProfiling::Enabled(ProfilingMode::Lazy)
        );
        // A network worker nested in a local one reads its own header again.
        let nested_network = worker_document_policy(
            &url("https://page.test/n.js"),
            &HeaderList::new(),
            &grandchild.outcome.policy,
        );
        assert_eq!(
            nested_network.outcome.policy.js_profiling(),
            JsProfiling::Disabled
        );
    }
}
