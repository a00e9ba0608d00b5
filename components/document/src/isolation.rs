//! Cross-Origin-Opener-Policy, Cross-Origin-Embedder-Policy, and whether a
//! global is cross-origin isolated (`self.crossOriginIsolated`).
//!
//! COOP and COEP are structured-field items: a token, with parameters such as
//! `report-to` (a string). A header that fails to parse, is not a token, or
//! is an unknown token, is the default (`unsafe-none`). Report-only headers
//! and reporting are not implemented.
//!
//! Isolation here is "concrete": the shell never puts documents of another
//! origin in the page's agent cluster, so `COOP: same-origin` with a COEP
//! compatible with isolation, in a secure context, makes the global
//! cross-origin isolated.

use sfv::{BareItem, Item};

use crate::headers::HeaderList;

/// `Cross-Origin-Opener-Policy`.
pub(crate) const COOP_HEADER: &str = "Cross-Origin-Opener-Policy";
/// `Cross-Origin-Embedder-Policy`.
pub(crate) const COEP_HEADER: &str = "Cross-Origin-Embedder-Policy";

/// <https://html.spec.whatwg.org/multipage/browsers.html#cross-origin-opener-policy-value>
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum OpenerPolicyValue {
    /// `unsafe-none`, the default.
    #[default]
    UnsafeNone,
    /// `same-origin-allow-popups`.
    SameOriginAllowPopups,
    /// `same-origin`, with an embedder policy not compatible with isolation.
    SameOrigin,
    /// `same-origin` with a COEP compatible with cross-origin isolation; it
    /// cannot be set directly by the header.
    SameOriginPlusCoep,
    /// `noopener-allow-popups`.
    NoopenerAllowPopups,
}

/// <https://html.spec.whatwg.org/multipage/browsers.html#cross-origin-opener-policy>
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct OpenerPolicy {
    /// The enforced value.
    pub value: OpenerPolicyValue,
    /// The `report-to` endpoint name, if any (reporting not implemented).
    pub reporting_endpoint: Option<String>,
}

/// <https://html.spec.whatwg.org/multipage/browsers.html#embedder-policy-value-2>
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum EmbedderPolicyValue {
    /// `unsafe-none`, the default.
    #[default]
    UnsafeNone,
    /// `require-corp`.
    RequireCorp,
    /// `credentialless`.
    Credentialless,
}

impl EmbedderPolicyValue {
    /// <https://html.spec.whatwg.org/multipage/browsers.html#compatible-with-cross-origin-isolation>
    pub fn is_compatible_with_cross_origin_isolation(self) -> bool {
        // An embedder policy value is compatible with cross-origin isolation
        // if it is "credentialless" or "require-corp".
        matches!(
            self,
            EmbedderPolicyValue::Credentialless | EmbedderPolicyValue::RequireCorp
        )
    }
}

/// <https://html.spec.whatwg.org/multipage/browsers.html#embedder-policy>
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct EmbedderPolicy {
    /// The enforced value.
    pub value: EmbedderPolicyValue,
    /// The `report-to` endpoint name, if any (reporting not implemented).
    pub reporting_endpoint: Option<String>,
}

fn token(item: &Item) -> Option<&str> {
    item.bare_item.as_token().map(|t| t.as_str())
}

fn report_to(item: &Item) -> Option<String> {
    match item.params.get("report-to") {
        Some(BareItem::String(s)) => Some(s.as_str().to_owned()),
        _ => None,
    }
}

/// <https://html.spec.whatwg.org/multipage/browsers.html#obtain-an-embedder-policy>
///
/// `secure_context`: whether the environment being created (the document's,
/// or the worker's) is a secure context.
pub fn obtain_embedder_policy(headers: &HeaderList, secure_context: bool) -> EmbedderPolicy {
    // Step 1: Let policy be a new embedder policy.
    let mut policy = EmbedderPolicy::default();
    // Step 2: If environment is a non-secure context, then return policy.
    if !secure_context {
        return policy;
    }
    // Step 3: Let parsedItem be the result of getting a structured field
    // value with `Cross-Origin-Embedder-Policy` and "item" from response's
    // header list.
    // Step 4: If parsedItem is non-null and parsedItem[0] is compatible with
    // cross-origin isolation:
    if let Some(item) = headers.get_structured_item(COEP_HEADER) {
        let value = match token(&item) {
            Some("require-corp") => Some(EmbedderPolicyValue::RequireCorp),
            Some("credentialless") => Some(EmbedderPolicyValue::Credentialless),
            _ => None,
        };
        if let Some(value) = value {
            // Step 4.1: Set policy's value to parsedItem[0].
            policy.value = value;
            // Step 4.2: If parsedItem[1]["report-to"] exists, then set
            // policy's endpoint to parsedItem[1]["report-to"].
            policy.reporting_endpoint = report_to(&item);
        }
    }
    // Step 5: the report-only header (not implemented).
    // Step 6: Return policy.
    policy
}

/// <https://html.spec.whatwg.org/multipage/browsers.html#obtain-coop>
pub fn obtain_opener_policy(headers: &HeaderList, secure_context: bool) -> OpenerPolicy {
    // Step 1: Let policy be a new opener policy.
    let mut policy = OpenerPolicy::default();
    // Step 2: If reservedEnvironment is a non-secure context, then return
    // policy.
    if !secure_context {
        return policy;
    }
    // Step 3: Let parsedItem be the result of getting a structured field
    // value given `Cross-Origin-Opener-Policy` and "item" from response's
    // header list.
    // Step 4: If parsedItem is not null, then:
    if let Some(item) = headers.get_structured_item(COOP_HEADER) {
        let value = match token(&item) {
            // Step 4.1: If parsedItem[0] is "same-origin", then:
            Some("same-origin") => {
                // Step 4.1.1: Let coep be the result of obtaining an embedder
                // policy from response and reservedEnvironment.
                let coep = obtain_embedder_policy(headers, secure_context);
                // Step 4.1.2: Set policy's value to "same-origin".
                // Step 4.1.3: If coep's value is compatible with cross-origin
                // isolation, then set policy's value to
                // "same-origin-plus-COEP".
                if coep.value.is_compatible_with_cross_origin_isolation() {
                    Some(OpenerPolicyValue::SameOriginPlusCoep)
                } else {
                    Some(OpenerPolicyValue::SameOrigin)
                }
            }
            // Step 4.2: If parsedItem[0] is "same-origin-allow-popups", then
            // set policy's value to "same-origin-allow-popups".
            Some("same-origin-allow-popups") => Some(OpenerPolicyValue::SameOriginAllowPopups),
            // Step 4.3: If parsedItem[0] is "noopener-allow-popups", then set
            // policy's value to "noopener-allow-popups".
            Some("noopener-allow-popups") => Some(OpenerPolicyValue::NoopenerAllowPopups),
            // `unsafe-none` and anything else: the default.
            _ => None,
        };
        if let Some(value) = value {
            policy.value = value;
        }
        // Step 4.4: If parsedItem[1]["report-to"] exists and it is a string,
        // then set policy's reporting endpoint to it.
        policy.reporting_endpoint = report_to(&item);
    }
    // Step 5: the report-only header (not implemented).
    // Step 6: Return policy.
    policy
}

/// The cross-origin isolation state of a document's global.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct CrossOriginIsolation {
    /// Whether the document's environment is a secure context.
    pub secure_context: bool,
    /// The document's opener policy.
    pub opener_policy: OpenerPolicy,
    /// The document's embedder policy.
    pub embedder_policy: EmbedderPolicy,
}

impl CrossOriginIsolation {
    /// Reads COOP and COEP from a top-level document's response.
    pub fn from_response(headers: &HeaderList, secure_context: bool) -> Self {
        CrossOriginIsolation {
            secure_context,
            opener_policy: obtain_opener_policy(headers, secure_context),
            embedder_policy: obtain_embedder_policy(headers, secure_context),
        }
    }

    /// The global's cross-origin isolated capability, which
    /// `self.crossOriginIsolated` returns.
    /// <https://html.spec.whatwg.org/multipage/webappapis.html#concept-settings-object-cross-origin-isolated-capability>
    ///
    /// For a top-level document: its browsing context group's cross-origin
    /// isolation mode is "concrete" when its opener policy is
    /// "same-origin-plus-COEP" (which needs a secure context), and then the
    /// capability is true. (No permissions policy restricts the
    /// `cross-origin-isolated` feature in a top-level document.)
    pub fn is_cross_origin_isolated(&self) -> bool {
        self.secure_context && self.opener_policy.value == OpenerPolicyValue::SameOriginPlusCoep
    }

    /// A dedicated worker's capability: its agent cluster is its owner's, so
    /// it is isolated when its owner is and the worker's own embedder policy
    /// is compatible with isolation (HTML "run a worker" rejects a worker
    /// response whose COEP is not, in an isolated owner).
    pub fn dedicated_worker_is_cross_origin_isolated(
        owner_is_isolated: bool,
        worker_embedder_policy: EmbedderPolicyValue,
    ) -> bool {
        owner_is_isolated && worker_embedder_policy.is_compatible_with_cross_origin_isolation()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&str, &str)]) -> HeaderList {
        pairs.iter().copied().collect()
    }

    #[test]
    fn coep_values() {
        let p = |v: &str| obtain_embedder_policy(&headers(&[(COEP_HEADER, v)]), true).value;
        assert_eq!(p("require-corp"), EmbedderPolicyValue::RequireCorp);
        assert_eq!(p("credentialless"), EmbedderPolicyValue::Credentialless);
        assert_eq!(p("unsafe-none"), EmbedderPolicyValue::UnsafeNone);
        assert_eq!(
            p("require-corp;report-to=\"e\""),
            EmbedderPolicyValue::RequireCorp
        );
        // Strings are not tokens; wrong case is another token; lists fail.
        assert_eq!(p("\"require-corp\""), EmbedderPolicyValue::UnsafeNone);
        assert_eq!(p("Require-Corp"), EmbedderPolicyValue::UnsafeNone);
        assert_eq!(
            p("require-corp, credentialless"),
            EmbedderPolicyValue::UnsafeNone
        );
        assert_eq!(p("require-corp;"), EmbedderPolicyValue::UnsafeNone);
        assert_eq!(p("?1"), EmbedderPolicyValue::UnsafeNone);
        assert_eq!(
            obtain_embedder_policy(&HeaderList::new(), true),
            EmbedderPolicy::default()
        );
    }

    #[test]
    fn coep_report_to_must_be_a_string() {
        let p = |v: &str| obtain_embedder_policy(&headers(&[(COEP_HEADER, v)]), true);
        assert_eq!(
            p("require-corp;report-to=\"main\"")
                .reporting_endpoint
                .as_deref(),
            Some("main")
        );
        assert_eq!(p("require-corp;report-to=main").reporting_endpoint, None);
        assert_eq!(p("unsafe-none;report-to=\"main\"").reporting_endpoint, None);
    }

    #[test]
    fn two_coep_lines_are_a_list_and_ignored() {
        let h = headers(&[(COEP_HEADER, "require-corp"), (COEP_HEADER, "require-corp")]);
        assert_eq!(
            obtain_embedder_policy(&h, true).value,
            EmbedderPolicyValue::UnsafeNone
        );
    }

    #[test]
    fn policies_are_ignored_outside_secure_contexts() {
        let h = headers(&[(COOP_HEADER, "same-origin"), (COEP_HEADER, "require-corp")]);
        assert_eq!(obtain_embedder_policy(&h, false), EmbedderPolicy::default());
        assert_eq!(obtain_opener_policy(&h, false), OpenerPolicy::default());
        assert!(!CrossOriginIsolation::from_response(&h, false).is_cross_origin_isolated());
    }

    #[test]
    fn coop_values() {
        let p = |coop: &str, coep: &str| {
            obtain_opener_policy(&headers(&[(COOP_HEADER, coop), (COEP_HEADER, coep)]), true).value
        };
        assert_eq!(
            p("same-origin", "require-corp"),
            OpenerPolicyValue::SameOriginPlusCoep
        );
        assert_eq!(
            p("same-origin", "credentialless"),
            OpenerPolicyValue::SameOriginPlusCoep
        );
        assert_eq!(
            p("same-origin", "unsafe-none"),
            OpenerPolicyValue::SameOrigin
        );
        assert_eq!(p("same-origin", "bogus"), OpenerPolicyValue::SameOrigin);
        assert_eq!(
            p("same-origin-allow-popups", "require-corp"),
            OpenerPolicyValue::SameOriginAllowPopups
        );
        assert_eq!(
            p("noopener-allow-popups", "require-corp"),
            OpenerPolicyValue::NoopenerAllowPopups
        );
        assert_eq!(
            p("unsafe-none", "require-corp"),
            OpenerPolicyValue::UnsafeNone
        );
        // The derived value cannot be set directly.
        assert_eq!(
            p("same-origin-plus-coep", "require-corp"),
            OpenerPolicyValue::UnsafeNone
        );
        assert_eq!(
            p("\"same-origin\"", "require-corp"),
            OpenerPolicyValue::UnsafeNone
        );
        assert_eq!(
            p("same-origin;report-to=\"r\"", "require-corp"),
            OpenerPolicyValue::SameOriginPlusCoep
        );
        let with_endpoint = obtain_opener_policy(
            &headers(&[(COOP_HEADER, "same-origin;report-to=\"r\"")]),
            true,
        );
        assert_eq!(with_endpoint.reporting_endpoint.as_deref(), Some("r"));
    }

    #[test]
    fn cross_origin_isolated_needs_coop_coep_and_a_secure_context() {
        let iso = |pairs: &[(&str, &str)], secure| {
            CrossOriginIsolation::from_response(&headers(pairs), secure).is_cross_origin_isolated()
        };
        assert!(iso(
            &[(COOP_HEADER, "same-origin"), (COEP_HEADER, "require-corp")],
            true
        ));
        assert!(iso(
            &[
                (COOP_HEADER, "same-origin"),
                (COEP_HEADER, "credentialless")
            ],
            true
        ));
        assert!(!iso(
            &[(COOP_HEADER, "same-origin"), (COEP_HEADER, "require-corp")],
            false
        ));
        assert!(!iso(&[(COOP_HEADER, "same-origin")], true));
        assert!(!iso(&[(COEP_HEADER, "require-corp")], true));
        assert!(!iso(
            &[
                (COOP_HEADER, "same-origin-allow-popups"),
                (COEP_HEADER, "require-corp")
            ],
            true
        ));
        assert!(!iso(&[], true));
    }

    #[test]
    fn malformed_and_huge_headers_are_the_default() {
        let huge_token = format!("same-origin{}", "x".repeat(1 << 20));
        let huge_params = format!("same-origin{}", ";a=1".repeat(100_000));
        let long_list = "same-origin, ".repeat(50_000) + "same-origin";
        for bad in [
            "",
            " ",
            ";",
            "same-origin;",
            "same origin",
            "(same-origin)",
            "same-origin=?1",
            "\u{e9}",
            huge_token.as_str(),
            long_list.as_str(),
        ] {
            let h = headers(&[(COOP_HEADER, bad), (COEP_HEADER, "require-corp")]);
            let isolation = CrossOriginIsolation::from_response(&h, true);
            assert_eq!(
                isolation.opener_policy.value,
                OpenerPolicyValue::UnsafeNone,
                "{:.40}",
                bad
            );
            assert!(!isolation.is_cross_origin_isolated());
        }
        // Many parameters are fine: the token still counts.
        let h = headers(&[
            (COOP_HEADER, huge_params.as_str()),
            (COEP_HEADER, "require-corp"),
        ]);
        assert!(CrossOriginIsolation::from_response(&h, true).is_cross_origin_isolated());
    }

    #[test]
    fn dedicated_workers_follow_their_owner() {
        use EmbedderPolicyValue::*;
        assert!(CrossOriginIsolation::dedicated_worker_is_cross_origin_isolated(true, RequireCorp));
        assert!(
            CrossOriginIsolation::dedicated_worker_is_cross_origin_isolated(true, Credentialless)
        );
        assert!(!CrossOriginIsolation::dedicated_worker_is_cross_origin_isolated(true, UnsafeNone));
        assert!(
            !CrossOriginIsolation::dedicated_worker_is_cross_origin_isolated(false, RequireCorp)
        );
    }
}
