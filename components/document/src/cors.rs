//! CORS pieces of a script fetch: the `crossorigin` attribute, request modes,
//! the CORS check, and the cross-origin resource policy check.

use url::Url;

use crate::headers::HeaderList;
use crate::isolation::EmbedderPolicyValue;
use crate::origin::Origin;

/// The state of a CORS settings attribute such as `<script crossorigin>`.
/// <https://html.spec.whatwg.org/multipage/urls-and-fetching.html#cors-settings-attribute>
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CorsSettings {
    /// No attribute: a no-cors request.
    #[default]
    NoCors,
    /// `anonymous`, the empty string, or any invalid value.
    Anonymous,
    /// `use-credentials`.
    UseCredentials,
}

impl CorsSettings {
    /// The attribute's state from its value (`None`: attribute absent).
    /// Keywords match ASCII case-insensitively; the missing value default is
    /// No CORS, and the invalid value default and empty value default are
    /// Anonymous.
    pub fn from_attribute(value: Option<&str>) -> Self {
        match value {
            None => CorsSettings::NoCors,
            Some(v) if v.eq_ignore_ascii_case("use-credentials") => CorsSettings::UseCredentials,
            // "anonymous", "" and every invalid value.
            Some(_) => CorsSettings::Anonymous,
        }
    }
}

/// <https://fetch.spec.whatwg.org/#concept-request-mode>, the values a
/// classic script request can have.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RequestMode {
    /// `no-cors`.
    NoCors,
    /// `cors`.
    Cors,
}

/// <https://fetch.spec.whatwg.org/#concept-request-credentials-mode>
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CredentialsMode {
    /// `omit`.
    Omit,
    /// `same-origin`.
    SameOrigin,
    /// `include`.
    Include,
}

/// <https://fetch.spec.whatwg.org/#concept-request-response-tainting>
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ResponseTainting {
    /// `basic`: same-origin (or `data:`).
    Basic,
    /// `cors`: cross-origin, CORS-checked.
    Cors,
    /// `opaque`: cross-origin without CORS; the response is opaque.
    Opaque,
}

/// The mode and credentials mode of a request made by
/// <https://html.spec.whatwg.org/multipage/urls-and-fetching.html#create-a-potential-cors-request>
/// (without the same-origin fallback flag, which classic scripts never set).
pub(crate) fn potential_cors_request(
    cors_attribute_state: CorsSettings,
) -> (RequestMode, CredentialsMode) {
    // Step 1: Let mode be "no-cors" if corsAttributeState is No CORS, and
    // "cors" otherwise.
    let mode = match cors_attribute_state {
        CorsSettings::NoCors => RequestMode::NoCors,
        CorsSettings::Anonymous | CorsSettings::UseCredentials => RequestMode::Cors,
    };
    // Step 2: same-origin fallback flag: not set for classic scripts.
    // Step 3: Let credentialsMode be "include".
    // Step 4: If corsAttributeState is Anonymous, set credentialsMode to
    // "same-origin".
    let credentials = match cors_attribute_state {
        CorsSettings::Anonymous => CredentialsMode::SameOrigin,
        CorsSettings::NoCors | CorsSettings::UseCredentials => CredentialsMode::Include,
    };
    // Step 5: Let request be a new request with these (and url, destination).
    (mode, credentials)
}

/// <https://fetch.spec.whatwg.org/#concept-cors-check>
///
/// `serialized_request_origin` is the result of serializing a request origin
/// (the `Origin` header that was sent: `"null"` once redirect-tainted).
pub fn cors_check(
    serialized_request_origin: &str,
    credentials_mode: CredentialsMode,
    response_headers: &HeaderList,
) -> bool {
    // Step 1: Let origin be the result of getting
    // `Access-Control-Allow-Origin` from response's header list.
    // Step 2: If origin is null, then return failure.
    let Some(origin) = response_headers.get("Access-Control-Allow-Origin") else {
        return false;
    };
    // Step 3: If request's credentials mode is not "include" and origin is
    // `*`, then return success.
    if credentials_mode != CredentialsMode::Include && origin == b"*" {
        return true;
    }
    // Step 4: If the result of byte-serializing a request origin with request
    // is not origin, then return failure.
    if origin != serialized_request_origin.as_bytes() {
        return false;
    }
    // Step 5: If request's credentials mode is not "include", then return
    // success.
    if credentials_mode != CredentialsMode::Include {
        return true;
    }
    // Step 6: Let credentials be the result of getting
    // `Access-Control-Allow-Credentials` from response's header list.
    // Step 7: If credentials is `true`, then return success.
    // Step 8: Return failure.
    response_headers
        .get("Access-Control-Allow-Credentials")
        .as_deref()
        == Some(&b"true"[..])
}

/// <https://fetch.spec.whatwg.org/#cross-origin-resource-policy-check>,
/// without reporting (steps 4 and 6 queue reports) and never for a
/// navigation. `true` is "allowed".
pub fn cross_origin_resource_policy_check(
    origin: &Origin,
    embedder_policy: EmbedderPolicyValue,
    response_url: &Url,
    response_headers: &HeaderList,
    request_includes_credentials: bool,
) -> bool {
    let internal = |value| {
        cross_origin_resource_policy_internal_check(
            origin,
            value,
            response_url,
            response_headers,
            request_includes_credentials,
        )
    };
    // Step 3: If the internal check with origin, "unsafe-none", response and
    // forNavigation returns blocked, then return blocked.
    if !internal(EmbedderPolicyValue::UnsafeNone) {
        return false;
    }
    // Step 5: If the internal check with origin, embedderPolicy's value,
    // response, and forNavigation returns allowed, then return allowed.
    // Step 7: Return blocked.
    internal(embedder_policy)
}

/// <https://fetch.spec.whatwg.org/#cross-origin-resource-policy-internal-check>
/// with forNavigation false.
///
/// `same-site` is evaluated as "same host" (plus the scheme rule): without a
/// public suffix list the registrable domain is unknown, so this allows a
/// subset of what same-site allows, never more.
fn cross_origin_resource_policy_internal_check(
    origin: &Origin,
    embedder_policy: EmbedderPolicyValue,
    response_url: &Url,
    response_headers: &HeaderList,
    request_includes_credentials: bool,
) -> bool {
    #[derive(PartialEq)]
    enum Policy {
        SameOrigin,
        SameSite,
        CrossOrigin,
    }
    // Step 1: forNavigation is false.
    // Step 2: Let policy be the result of getting
    // `Cross-Origin-Resource-Policy` from response's header list.
    // Step 3: If policy is neither `same-origin`, `same-site`, nor
    // `cross-origin`, then set policy to null.
    let mut policy = match response_headers
        .get("Cross-Origin-Resource-Policy")
        .as_deref()
    {
        Some(b"same-origin") => Some(Policy::SameOrigin),
        Some(b"same-site") => Some(Policy::SameSite),
        Some(b"cross-origin") => Some(Policy::CrossOrigin),
        _ => None,
    };
    // Step 4: If policy is null, then switch on embedderPolicyValue:
    if policy.is_none() {
        match embedder_policy {
            // "unsafe-none": Do nothing.
            EmbedderPolicyValue::UnsafeNone => {}
            // "credentialless": Set policy to `same-origin` if response's
            // request-includes-credentials is true (or forNavigation).
            EmbedderPolicyValue::Credentialless => {
                if request_includes_credentials {
                    policy = Some(Policy::SameOrigin);
                }
            }
            // "require-corp": Set policy to `same-origin`.
            EmbedderPolicyValue::RequireCorp => policy = Some(Policy::SameOrigin),
        }
    }
    // Step 5: Switch on policy:
    let response_origin = Origin::of(response_url);
    match policy {
        // null, `cross-origin`: Return allowed.
        None | Some(Policy::CrossOrigin) => true,
        // `same-origin`: If origin is same origin with response's URL's
        // origin, then return allowed. Otherwise, return blocked.
        Some(Policy::SameOrigin) => origin.same_origin(&response_origin),
        // `same-site`: If origin is schemelessly same site with response's
        // URL's origin, and origin's scheme is "https" or response's URL's
        // scheme is not "https", then return allowed. Otherwise, blocked.
        Some(Policy::SameSite) => {
            let same_host = match (origin.host(), response_origin.host()) {
                (Some(a), Some(b)) => a == b,
                _ => origin.same_origin(&response_origin),
            };
            same_host && (origin.scheme() == Some("https") || response_url.scheme() != "https")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crossorigin_attribute_states() {
        assert_eq!(CorsSettings::from_attribute(None), CorsSettings::NoCors);
        // Keywords match ASCII case-insensitively; invalid values (near
        // misses, padding, non-ASCII case folding: "ſ" is not "s") are the
        // invalid value default, Anonymous; the empty string is Anonymous.
        for (value, expected) in [
            ("", CorsSettings::Anonymous),
            ("anonymous", CorsSettings::Anonymous),
            ("ANONYMOUS", CorsSettings::Anonymous),
            ("use-credentials", CorsSettings::UseCredentials),
            ("Use-Credentials", CorsSettings::UseCredentials),
            ("foo", CorsSettings::Anonymous),
            (" use-credentials", CorsSettings::Anonymous),
            ("use-credentials ", CorsSettings::Anonymous),
            ("credentials", CorsSettings::Anonymous),
            ("uſe-credentials", CorsSettings::Anonymous),
        ] {
            assert_eq!(
                CorsSettings::from_attribute(Some(value)),
                expected,
                "{value:?}"
            );
        }
    }

    #[test]
    fn potential_cors_request_modes() {
        assert_eq!(
            potential_cors_request(CorsSettings::NoCors),
            (RequestMode::NoCors, CredentialsMode::Include)
        );
        assert_eq!(
            potential_cors_request(CorsSettings::Anonymous),
            (RequestMode::Cors, CredentialsMode::SameOrigin)
        );
        assert_eq!(
            potential_cors_request(CorsSettings::UseCredentials),
            (RequestMode::Cors, CredentialsMode::Include)
        );
    }

    fn h(pairs: &[(&str, &str)]) -> HeaderList {
        pairs.iter().copied().collect()
    }

    /// Response headers with one Access-Control-Allow-Origin per value.
    fn allow_origin(values: &[&str]) -> HeaderList {
        values
            .iter()
            .map(|value| ("Access-Control-Allow-Origin", *value))
            .collect()
    }

    /// Response headers with Access-Control-Allow-Origin and
    /// Access-Control-Allow-Credentials.
    fn allow_origin_and_credentials(origin: &str, credentials: &str) -> HeaderList {
        h(&[
            ("Access-Control-Allow-Origin", origin),
            ("Access-Control-Allow-Credentials", credentials),
        ])
    }

    const DOC: &str = "https://page.test";

    #[test]
    fn cors_check_without_credentials() {
        use CredentialsMode::*;
        for mode in [Omit, SameOrigin] {
            assert!(!cors_check(DOC, mode, &h(&[])));
            assert!(cors_check(DOC, mode, &allow_origin(&["*"])));
            assert!(cors_check(
                DOC,
                mode,
                &h(&[("access-control-allow-origin", DOC)])
            ));
            // Another origin; byte-exact: no trailing slash, no case
            // folding, no whitespace; empty.
            for other in [
                "https://other.test",
                "https://page.test/",
                "https://PAGE.test",
                " https://page.test",
                "",
            ] {
                assert!(!cors_check(DOC, mode, &allow_origin(&[other])), "{other:?}");
            }
            // Two values combine into "a, b", which matches nothing.
            assert!(!cors_check(DOC, mode, &allow_origin(&[DOC, DOC])));
            assert!(!cors_check(DOC, mode, &allow_origin(&["*", "*"])));
            // "null" matches only a null request origin.
            assert!(!cors_check(DOC, mode, &allow_origin(&["null"])));
            assert!(cors_check("null", mode, &allow_origin(&["null"])));
            assert!(cors_check("null", mode, &allow_origin(&["*"])));
        }
    }

    #[test]
    fn cors_check_with_credentials() {
        let inc = CredentialsMode::Include;
        // The wildcard is not enough with credentials.
        assert!(!cors_check(DOC, inc, &allow_origin(&["*"])));
        assert!(!cors_check(
            DOC,
            inc,
            &allow_origin_and_credentials("*", "true")
        ));
        // The exact origin needs Allow-Credentials: true as well.
        assert!(!cors_check(DOC, inc, &allow_origin(&[DOC])));
        assert!(cors_check(
            DOC,
            inc,
            &allow_origin_and_credentials(DOC, "true")
        ));
        for bad in ["TRUE", "True", "1", "", "true, true", " true"] {
            assert!(
                !cors_check(DOC, inc, &allow_origin_and_credentials(DOC, bad)),
                "{bad:?}"
            );
        }
        assert!(!cors_check(
            DOC,
            inc,
            &allow_origin_and_credentials("https://x.test", "true")
        ));
    }

    fn url(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    #[test]
    fn corp_without_embedder_policy() {
        let page = Origin::of(&url("https://page.test/"));
        let cdn = url("https://cdn.test/a.js");
        let same = url("https://page.test/a.js");
        let none = EmbedderPolicyValue::UnsafeNone;
        let corp = |v: &str| h(&[("Cross-Origin-Resource-Policy", v)]);
        assert!(cross_origin_resource_policy_check(
            &page,
            none,
            &cdn,
            &h(&[]),
            true
        ));
        assert!(cross_origin_resource_policy_check(
            &page,
            none,
            &cdn,
            &corp("cross-origin"),
            true
        ));
        assert!(!cross_origin_resource_policy_check(
            &page,
            none,
            &cdn,
            &corp("same-origin"),
            true
        ));
        assert!(cross_origin_resource_policy_check(
            &page,
            none,
            &same,
            &corp("same-origin"),
            true
        ));
        assert!(!cross_origin_resource_policy_check(
            &page,
            none,
            &cdn,
            &corp("same-site"),
            true
        ));
        // Unknown and combined values are null: allowed without COEP.
        assert!(cross_origin_resource_policy_check(
            &page,
            none,
            &cdn,
            &corp("Same-Origin"),
            true
        ));
        let two = h(&[
            ("Cross-Origin-Resource-Policy", "same-site"),
            ("Cross-Origin-Resource-Policy", "same-origin"),
        ]);
        assert!(cross_origin_resource_policy_check(
            &page, none, &cdn, &two, true
        ));
    }

    #[test]
    fn corp_same_site_scheme_rule() {
        let http_page = Origin::of(&url("http://page.test/"));
        let https_page = Origin::of(&url("https://page.test/"));
        let corp = h(&[("Cross-Origin-Resource-Policy", "same-site")]);
        let none = EmbedderPolicyValue::UnsafeNone;
        // An https response does not match an http requester.
        assert!(!cross_origin_resource_policy_check(
            &http_page,
            none,
            &url("https://page.test/a.js"),
            &corp,
            true
        ));
        assert!(cross_origin_resource_policy_check(
            &https_page,
            none,
            &url("http://page.test:8080/a.js"),
            &corp,
            true
        ));
        assert!(cross_origin_resource_policy_check(
            &https_page,
            none,
            &url("https://page.test:8443/a.js"),
            &corp,
            true
        ));
    }

    #[test]
    fn corp_with_embedder_policies() {
        let page = Origin::of(&url("https://page.test/"));
        let cdn = url("https://cdn.test/a.js");
        let nothing = h(&[]);
        use EmbedderPolicyValue::*;
        assert!(!cross_origin_resource_policy_check(
            &page,
            RequireCorp,
            &cdn,
            &nothing,
            false
        ));
        assert!(cross_origin_resource_policy_check(
            &page,
            RequireCorp,
            &cdn,
            &h(&[("Cross-Origin-Resource-Policy", "cross-origin")]),
            true
        ));
        assert!(cross_origin_resource_policy_check(
            &page,
            RequireCorp,
            &url("https://page.test/a.js"),
            &nothing,
            true
        ));
        // credentialless: only a credentialed response needs CORP.
        assert!(cross_origin_resource_policy_check(
            &page,
            Credentialless,
            &cdn,
            &nothing,
            false
        ));
        assert!(!cross_origin_resource_policy_check(
            &page,
            Credentialless,
            &cdn,
            &nothing,
            true
        ));
    }
}
