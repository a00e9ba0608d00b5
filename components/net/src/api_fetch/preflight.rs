//! The CORS-preflight fetch (<https://fetch.spec.whatwg.org/#cors-preflight-fetch-0>)
//! and the CORS-preflight cache (<https://fetch.spec.whatwg.org/#concept-cache>).

use std::sync::Mutex;
use std::time::{Duration, Instant};

use jsprof_document::cors::cors_check;
use jsprof_document::CredentialsMode;
use url::Url;

use super::headers::{
    cors_unsafe_request_header_names, extract_token_list, is_cors_safelisted_method,
};
use super::{FetchState, Hop};
use crate::{HopRequest, Method, NetError};

/// The longest a preflight result is cached, whatever
/// `Access-Control-Max-Age` says (Chromium's cap: 2 hours).
const MAX_AGE_CAP: Duration = Duration::from_secs(2 * 60 * 60);

/// <https://fetch.spec.whatwg.org/#concept-cache>: the CORS-preflight
/// cache, shared by every fetch of one [`NetConfig`](crate::NetConfig).
#[derive(Debug, Default)]
pub struct PreflightCache {
    entries: Mutex<Vec<CacheEntry>>,
}

#[derive(Debug, Clone)]
struct CacheEntry {
    /// The serialized origin.
    key: String,
    url: Url,
    expires: Instant,
    credentials: bool,
    /// A method (`Method::as_str`) or a lowercase header name.
    value: String,
    is_method: bool,
}

impl PreflightCache {
    /// An empty cache.
    pub fn new() -> PreflightCache {
        PreflightCache::default()
    }

    /// <https://fetch.spec.whatwg.org/#concept-cache-match> with a
    /// method (`is_method`) or header name, entries past their max-age
    /// cleared first.
    pub(super) fn matches(&self, request: &FetchState, value: &str, is_method: bool) -> bool {
        let now = Instant::now();
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        // "Whenever the max-age is exceeded, the entry is cleared."
        entries.retain(|e| e.expires > now);
        let credentials = request.request.credentials == CredentialsMode::Include;
        entries.iter().any(|entry| {
            // A cache entry matches if its key is the network partition key
            // (here: the serialized origin), its byte-serialized origin is
            // the request's, its URL is the request's current URL, its
            // credentials is true or the request's credentials mode is not
            // "include"; and its method is method, or `*` without
            // credentials (for header names, byte-case-insensitively).
            entry.key == request.serialized_origin()
                && entry.url == request.current_url
                && (entry.credentials || !credentials)
                && entry.is_method == is_method
                && (if is_method {
                    entry.value == value
                } else {
                    entry.value.eq_ignore_ascii_case(value)
                } || (entry.value == "*" && !credentials))
        })
    }

    pub(super) fn insert(
        &self,
        request: &FetchState,
        value: &str,
        is_method: bool,
        max_age: Duration,
    ) {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        let credentials = request.request.credentials == CredentialsMode::Include;
        let expires = Instant::now() + max_age;
        let key = request.serialized_origin();
        // If there is a cache entry match, set its max-age; otherwise
        // create a new cache entry.
        if let Some(entry) = entries.iter_mut().find(|e| {
            e.key == key
                && e.url == request.current_url
                && e.credentials == credentials
                && e.is_method == is_method
                && e.value.eq_ignore_ascii_case(value)
        }) {
            entry.expires = expires;
        } else {
            entries.push(CacheEntry {
                key,
                url: request.current_url.clone(),
                expires,
                credentials,
                value: if is_method {
                    value.to_owned()
                } else {
                    value.to_ascii_lowercase()
                },
                is_method,
            });
        }
    }

    /// How many entries are cached (for tests).
    pub fn len(&self) -> usize {
        self.entries.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// Whether nothing is cached.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// <https://fetch.spec.whatwg.org/#cors-preflight-fetch-0>
pub(super) fn cors_preflight_fetch(
    hop: Hop<'_>,
    cache: &PreflightCache,
    state: &FetchState,
) -> Result<(), NetError> {
    let request = &state.request;
    // Step 1: Let preflight be a new request whose method is `OPTIONS`, URL
    // list is a clone of request's URL list, origin, referrer, referrer
    // policy... are request's, mode is "cors", and response tainting is
    // "cors".
    // Step 2: Append (`Accept`, `*/*`) to preflight's header list.
    // Step 3: Append (`Access-Control-Request-Method`, request's method).
    let mut headers = vec![
        ("Accept".to_owned(), "*/*".to_owned()),
        (
            "Access-Control-Request-Method".to_owned(),
            request.method.as_str().to_owned(),
        ),
    ];
    // Step 4: Let headers be the CORS-unsafe request-header names with
    // request's header list.
    let unsafe_names = cors_unsafe_request_header_names(&request.headers);
    // Step 5: If headers is not empty, then: let value be the items in
    // headers separated from each other by `,`; append
    // (`Access-Control-Request-Headers`, value).
    if !unsafe_names.is_empty() {
        headers.push((
            "Access-Control-Request-Headers".to_owned(),
            unsafe_names.join(","),
        ));
    }
    // The `Origin` header (preflight's response tainting is "cors").
    headers.push(("Origin".to_owned(), state.serialized_origin()));
    // Step 6: Let response be the result of running HTTP-network-or-cache
    // fetch given a new fetch params whose request is preflight (no
    // credentials: preflight's credentials mode is "same-origin" with
    // "cors" tainting).
    let response = hop(&HopRequest {
        url: state.current_url.clone(),
        method: Method::Other("OPTIONS".to_owned()),
        headers,
        body: None,
        credentials: false,
        initiator: Some(request.origin.as_url_origin().clone()),
    })?;
    let fail = |reason: String| Err(state.network_error(format!("CORS preflight: {reason}")));
    // Step 7: If a CORS check for request and response returns success and
    // response's status is an ok status, then:
    if !cors_check(
        &state.serialized_origin(),
        request.credentials,
        &response.headers,
    ) {
        return fail("no matching Access-Control-Allow-Origin in the OPTIONS response".into());
    }
    if !response.is_ok() {
        return fail(format!(
            "the OPTIONS response's status is {}",
            response.status
        ));
    }
    // Step 7.1: Let methods be the result of extracting header list values
    // given `Access-Control-Allow-Methods` and response's header list.
    // Step 7.2: Let headerNames be the same for
    // `Access-Control-Allow-Headers`.
    // Step 7.3: If either methods or headerNames is failure, return a
    // network error.
    let (Ok(methods), Ok(header_names)) = (
        extract_token_list(&response.headers, "Access-Control-Allow-Methods"),
        extract_token_list(&response.headers, "Access-Control-Allow-Headers"),
    ) else {
        return fail("malformed Access-Control-Allow-Methods or -Headers".into());
    };
    // Step 7.4: If methods is null and request's use-CORS-preflight flag is
    // set, then set methods to a new list containing request's method.
    let methods = match methods {
        None if request.use_cors_preflight => vec![request.method.as_str().to_owned()],
        other => other.unwrap_or_default(),
    };
    let header_names = header_names.unwrap_or_default();
    let credentials = request.credentials == CredentialsMode::Include;
    // Step 7.5: If request's method is not in methods, request's method is
    // not a CORS-safelisted method, and request's credentials mode is
    // "include" or methods does not contain `*`, then return a network
    // error.
    if !methods.iter().any(|m| m == request.method.as_str())
        && !is_cors_safelisted_method(&request.method)
        && (credentials || !methods.iter().any(|m| m == "*"))
    {
        return fail(format!(
            "method {} is not in Access-Control-Allow-Methods",
            request.method.as_str()
        ));
    }
    // Step 7.6: If one of request's header list's names is a CORS
    // non-wildcard request-header name (`Authorization`) and is not a
    // byte-case-insensitive match for an item in headerNames, then return
    // a network error.
    if request
        .headers
        .iter()
        .any(|(name, _)| name.eq_ignore_ascii_case("Authorization"))
        && !header_names
            .iter()
            .any(|n| n.eq_ignore_ascii_case("Authorization"))
    {
        return fail("Authorization is not in Access-Control-Allow-Headers".into());
    }
    // Step 7.7: For each unsafeName of the CORS-unsafe request-header names
    // with request's header list: if unsafeName is not a
    // byte-case-insensitive match for an item in headerNames and request's
    // credentials mode is "include" or headerNames does not contain `*`,
    // return a network error.
    for unsafe_name in &unsafe_names {
        if !header_names
            .iter()
            .any(|n| n.eq_ignore_ascii_case(unsafe_name))
            && (credentials || !header_names.iter().any(|n| n == "*"))
        {
            return fail(format!(
                "header {unsafe_name} is not in Access-Control-Allow-Headers"
            ));
        }
    }
    // Step 7.8: Let max-age be the result of extracting header list values
    // given `Access-Control-Max-Age`; if failure or null, 5.
    let max_age = response
        .header("Access-Control-Max-Age")
        .and_then(|v| v.trim_matches([' ', '\t']).parse::<u64>().ok())
        .map_or(Duration::from_secs(5), Duration::from_secs);
    // Step 7.9: If max-age is greater than an imposed limit on max-age,
    // then set max-age to the imposed limit.
    let max_age = max_age.min(MAX_AGE_CAP);
    // Step 7.10: If the user agent does not provide for a cache, return
    // response. (It does.)
    // Step 7.11: For each method in methods for which there is a method
    // cache entry match, set the matching entry's max-age to max-age;
    // for each other method, create a new cache entry.
    if !max_age.is_zero() {
        for method in &methods {
            cache.insert(state, method, true, max_age);
        }
        // Step 7.12: The same for each headerName in headerNames.
        for name in &header_names {
            cache.insert(state, name, false, max_age);
        }
    }
    // Step 7.13: Return response.
    Ok(())
    // Step 8: Otherwise, return a network error (the `fail` exits above).
}
