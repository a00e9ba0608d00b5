//! The Fetch Standard's fetch for script-made requests (`fetch()`,
//! `XMLHttpRequest`): request modes `same-origin`/`no-cors`/`cors`,
//! response tainting, the CORS check (`jsprof_document`'s, the one script
//! elements use), the CORS-preflight fetch and its cache, redirect modes,
//! and the filtered responses (basic, cors, opaque, opaqueredirect).
//! <https://fetch.spec.whatwg.org/#main-fetch>
//!
//! Each hop goes through a caller-given function (a
//! [`Fetcher::fetch_hop`](crate::Fetcher::fetch_hop) or a page loader's),
//! which adds the cookies of a credentialed hop and stores its
//! `Set-Cookie` lines. Blocking: run it off the event loop's thread.
//!
//! Not done: HTTP caching, service workers, the referrer and its policy,
//! `Range` for `no-cors`, integrity metadata, keepalive, priority,
//! timing-allow checks.

use std::collections::BTreeSet;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use jsprof_document::cors::{cors_check, cross_origin_resource_policy_check};
use jsprof_document::{CredentialsMode, EmbedderPolicyValue, HeaderList, Origin, ResponseTainting};
use url::Url;

use crate::mime::MimeType;
use crate::{HopRequest, Method, NetError, RawResponse, REDIRECT_LIMIT};

/// <https://fetch.spec.whatwg.org/#concept-request-mode> for script-made
/// requests (`navigate` and `websocket` are not made here).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RequestMode {
    /// `same-origin`: a cross-origin URL is a network error.
    SameOrigin,
    /// `no-cors`: cross-origin responses are opaque.
    NoCors,
    /// `cors`: cross-origin responses must pass the CORS check.
    Cors,
}

/// <https://fetch.spec.whatwg.org/#concept-request-redirect-mode>
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RedirectMode {
    /// `follow`.
    Follow,
    /// `error`: a redirect is a network error.
    Error,
    /// `manual`: a redirect is returned as an opaque-redirect response.
    Manual,
}

/// <https://fetch.spec.whatwg.org/#concept-response-type>
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ResponseType {
    /// `basic`.
    Basic,
    /// `cors`.
    Cors,
    /// `opaque`.
    Opaque,
    /// `opaqueredirect`.
    OpaqueRedirect,
}

/// A script-made request.
#[derive(Clone, Debug)]
pub struct ApiRequest {
    /// The method, normalized (not a forbidden method).
    pub method: Method,
    /// The URL.
    pub url: Url,
    /// The author header list (checked by the `Headers` guard:
    /// no forbidden request-header), in order.
    pub headers: Vec<(String, String)>,
    /// The body bytes, if any.
    pub body: Option<Vec<u8>>,
    /// The request's origin (the client's).
    pub origin: Origin,
    /// The mode.
    pub mode: RequestMode,
    /// The credentials mode.
    pub credentials: CredentialsMode,
    /// The redirect mode.
    pub redirect: RedirectMode,
    /// <https://fetch.spec.whatwg.org/#use-cors-preflight-flag> (an XHR
    /// with upload listeners).
    pub use_cors_preflight: bool,
}

/// A filtered response as script sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiResponse {
    /// The type.
    pub response_type: ResponseType,
    /// The URL list (empty for an opaque response).
    pub url_list: Vec<Url>,
    /// The status (0 for opaque responses).
    pub status: u16,
    /// The status message.
    pub status_text: String,
    /// The header list, filtered for the type.
    pub headers: HeaderList,
    /// The body (empty for opaque responses).
    pub body: Vec<u8>,
}

impl ApiResponse {
    /// <https://fetch.spec.whatwg.org/#concept-response-url>: the last URL
    /// of the URL list, `None` when it is empty.
    pub fn url(&self) -> Option<&Url> {
        self.url_list.last()
    }
}

// ------------------------------------------------------- header predicates

/// <https://fetch.spec.whatwg.org/#cors-safelisted-method>
pub fn is_cors_safelisted_method(method: &Method) -> bool {
    matches!(method, Method::Get | Method::Head | Method::Post)
}

/// <https://fetch.spec.whatwg.org/#forbidden-method>: `CONNECT`, `TRACE`
/// or `TRACK`, byte-case-insensitively.
pub fn is_forbidden_method(method: &str) -> bool {
    ["CONNECT", "TRACE", "TRACK"]
        .iter()
        .any(|m| method.eq_ignore_ascii_case(m))
}

/// <https://fetch.spec.whatwg.org/#concept-method>: a method is a token.
pub fn is_method(method: &str) -> bool {
    is_token(method)
}

/// <https://httpwg.org/specs/rfc9110.html#tokens>: 1*tchar.
pub fn is_token(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// <https://fetch.spec.whatwg.org/#header-name>: a field-name token.
pub fn is_header_name(name: &str) -> bool {
    is_token(name)
}

/// <https://fetch.spec.whatwg.org/#header-value>: no leading or trailing
/// HTTP tab or space, no 0x00, 0x0A or 0x0D.
pub fn is_header_value(value: &[u8]) -> bool {
    let edge = |b: &u8| *b == b' ' || *b == b'\t';
    !value.first().is_some_and(edge)
        && !value.last().is_some_and(edge)
        && !value.iter().any(|b| matches!(b, 0x00 | 0x0A | 0x0D))
}

/// <https://fetch.spec.whatwg.org/#concept-header-value-normalize>: strip
/// leading and trailing HTTP whitespace bytes.
pub fn normalize_header_value(value: &str) -> &str {
    value.trim_matches([' ', '\t', '\n', '\r'])
}

/// <https://fetch.spec.whatwg.org/#forbidden-request-header>
pub fn is_forbidden_request_header(name: &str, value: &str) -> bool {
    const FORBIDDEN: [&str; 21] = [
        "Accept-Charset",
        "Accept-Encoding",
        "Access-Control-Request-Headers",
        "Access-Control-Request-Method",
        "Connection",
        "Content-Length",
        "Cookie",
        "Cookie2",
        "Date",
        "DNT",
        "Expect",
        "Host",
        "Keep-Alive",
        "Origin",
        "Referer",
        "Set-Cookie",
        "TE",
        "Trailer",
        "Transfer-Encoding",
        "Upgrade",
        "Via",
    ];
    // Step 1: If name is a byte-case-insensitive match for one of the
    // names above, return true.
    if FORBIDDEN.iter().any(|f| name.eq_ignore_ascii_case(f)) {
        return true;
    }
    // Step 2: If name when byte-lowercased starts with `proxy-` or `sec-`,
    // then return true.
    let lower = name.to_ascii_lowercase();
    if lower.starts_with("proxy-") || lower.starts_with("sec-") {
        return true;
    }
    // Step 3: If name is `X-HTTP-Method`, `X-HTTP-Method-Override` or
    // `X-Method-Override`: let parsedValues be the result of getting,
    // decoding, and splitting value; for each method of parsedValues, if
    // the isomorphic encoding of method is a forbidden method, return true.
    if [
        "x-http-method",
        "x-http-method-override",
        "x-method-override",
    ]
    .contains(&lower.as_str())
        && value
            .split(',')
            .any(|m| is_forbidden_method(m.trim_matches([' ', '\t'])))
    {
        return true;
    }
    // Step 4: Return false.
    false
}

/// <https://fetch.spec.whatwg.org/#forbidden-response-header-name>
pub fn is_forbidden_response_header_name(name: &str) -> bool {
    name.eq_ignore_ascii_case("Set-Cookie") || name.eq_ignore_ascii_case("Set-Cookie2")
}

/// <https://fetch.spec.whatwg.org/#no-cors-safelisted-request-header-name>
pub fn is_no_cors_safelisted_request_header_name(name: &str) -> bool {
    [
        "Accept",
        "Accept-Language",
        "Content-Language",
        "Content-Type",
    ]
    .iter()
    .any(|n| name.eq_ignore_ascii_case(n))
}

/// <https://fetch.spec.whatwg.org/#cors-unsafe-request-header-byte>
fn is_cors_unsafe_request_header_byte(b: u8) -> bool {
    (b < 0x20 && b != 0x09) || b"\"():<>?@[\\]{}\x7F".contains(&b)
}

/// <https://fetch.spec.whatwg.org/#cors-safelisted-request-header>
pub fn is_cors_safelisted_request_header(name: &str, value: &str) -> bool {
    // Step 1: If value's length is greater than 128, then return false.
    if value.len() > 128 {
        return false;
    }
    // Step 2: Byte-lowercase name and switch on the result:
    match name.to_ascii_lowercase().as_str() {
        // `accept`: If value contains a CORS-unsafe request-header byte,
        // then return false.
        "accept" => !value.bytes().any(is_cors_unsafe_request_header_byte),
        // `accept-language`, `content-language`: If value contains a byte
        // that is not 0-9, A-Z, a-z, space, *, ",", "-", ".", ";" or "=",
        // then return false.
        "accept-language" | "content-language" => value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b" *,-.;=".contains(&b)),
        // `content-type`: If value contains a CORS-unsafe request-header
        // byte, return false; let mimeType be the result of parsing the
        // result of isomorphic decoding value; if failure, return false;
        // if mimeType's essence is not "application/x-www-form-urlencoded",
        // "multipart/form-data", or "text/plain", return false.
        "content-type" => {
            !value.bytes().any(is_cors_unsafe_request_header_byte)
                && MimeType::parse(value).is_some_and(|m| {
                    matches!(
                        m.essence().as_str(),
                        "application/x-www-form-urlencoded" | "multipart/form-data" | "text/plain"
                    )
                })
        }
        // `range`: a simple range header value (`bytes=` digits `-`
        // optional digits, one range).
        "range" => value.strip_prefix("bytes=").is_some_and(|range| {
            range.split_once('-').is_some_and(|(start, end)| {
                !start.is_empty()
                    && start.bytes().all(|b| b.is_ascii_digit())
                    && end.bytes().all(|b| b.is_ascii_digit())
                    && (end.is_empty() || start.parse::<u64>().ok() <= end.parse::<u64>().ok())
            })
        }),
        // Otherwise: return false.
        _ => false,
    }
}

/// <https://fetch.spec.whatwg.org/#cors-unsafe-request-header-names>:
/// lowercase, sorted, unique.
pub fn cors_unsafe_request_header_names(headers: &[(String, String)]) -> Vec<String> {
    // Step 1: Let unsafeNames be a new list.
    let mut unsafe_names = Vec::new();
    // Step 2: Let potentillyUnsafeNames be a new list.
    let mut potentially_unsafe = Vec::new();
    // Step 3: Let safelistValueSize be 0.
    let mut safelist_value_size = 0;
    // Step 4: For each header of headers: if header is not a
    // CORS-safelisted request-header, append its name to unsafeNames;
    // otherwise append it to potentiallyUnsafeNames and add its value's
    // length to safelistValueSize.
    for (name, value) in headers {
        if !is_cors_safelisted_request_header(name, value) {
            unsafe_names.push(name.to_ascii_lowercase());
        } else {
            potentially_unsafe.push(name.to_ascii_lowercase());
            safelist_value_size += value.len();
        }
    }
    // Step 5: If safelistValueSize is greater than 1024, then for each name
    // of potentillyUnsafeNames, append name to unsafeNames.
    if safelist_value_size > 1024 {
        unsafe_names.extend(potentially_unsafe);
    }
    // Step 6: Return the result of convert header names to a sorted-lowercase
    // set with unsafeNames.
    unsafe_names
        .into_iter()
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect()
}

/// <https://fetch.spec.whatwg.org/#cors-safelisted-response-header-name>
fn is_cors_safelisted_response_header_name(name: &str, exposed: &[String]) -> bool {
    [
        "Cache-Control",
        "Content-Language",
        "Content-Length",
        "Content-Type",
        "Expires",
        "Last-Modified",
        "Pragma",
    ]
    .iter()
    .any(|n| name.eq_ignore_ascii_case(n))
        || (!is_forbidden_response_header_name(name)
            && exposed.iter().any(|n| name.eq_ignore_ascii_case(n)))
}

/// <https://fetch.spec.whatwg.org/#extract-header-list-values> for a list
/// of tokens: `Ok(None)` if absent, `Err` if a value is not a token.
fn extract_token_list(headers: &HeaderList, name: &str) -> Result<Option<Vec<String>>, ()> {
    let Some(value) = headers.get(name) else {
        return Ok(None);
    };
    let value = String::from_utf8_lossy(&value).into_owned();
    let mut out = Vec::new();
    for item in value.split(',') {
        let item = item.trim_matches([' ', '\t']);
        if item.is_empty() {
            continue;
        }
        if !is_token(item) {
            return Err(());
        }
        out.push(item.to_owned());
    }
    Ok(Some(out))
}

// -------------------------------------------------------- preflight cache

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
    fn matches(&self, request: &FetchState, value: &str, is_method: bool) -> bool {
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

    fn insert(&self, request: &FetchState, value: &str, is_method: bool, max_age: Duration) {
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

// -------------------------------------------------------------- the fetch

/// The request as the algorithms change it.
struct FetchState {
    request: ApiRequest,
    current_url: Url,
    url_list: Vec<Url>,
    tainting: ResponseTainting,
    /// <https://fetch.spec.whatwg.org/#concept-request-tainted-origin>
    tainted_origin: bool,
    redirect_count: u32,
}

impl FetchState {
    /// <https://fetch.spec.whatwg.org/#serializing-a-request-origin>
    fn serialized_origin(&self) -> String {
        // Step 1: If request has a redirect-tainted origin, return "null".
        if self.tainted_origin {
            return "null".to_owned();
        }
        // Step 2: Return request's origin, serialized.
        self.request.origin.ascii_serialization()
    }

    fn network_error(&self, reason: impl Into<String>) -> NetError {
        NetError::Blocked {
            url: self.current_url.clone(),
            reason: reason.into(),
        }
    }
}

/// One hop: [`Fetcher::fetch_hop`](crate::Fetcher::fetch_hop) or a loader's.
pub type Hop<'a> = &'a dyn Fn(&HopRequest) -> Result<RawResponse, NetError>;

/// Runs <https://fetch.spec.whatwg.org/#concept-fetch> for `request`
/// (from main fetch on), sending hops with `hop`. `cancelled` is polled
/// before each hop: once it returns true the fetch ends with
/// [`NetError::Aborted`] (a hop in flight is not interrupted; its
/// response is dropped).
pub fn fetch(
    hop: Hop<'_>,
    cache: &PreflightCache,
    request: ApiRequest,
    cancelled: &dyn Fn() -> bool,
) -> Result<ApiResponse, NetError> {
    let mut state = FetchState {
        current_url: request.url.clone(),
        url_list: vec![request.url.clone()],
        request,
        tainting: ResponseTainting::Basic,
        tainted_origin: false,
        redirect_count: 0,
    };
    main_fetch(hop, cache, &mut state, cancelled)
}

/// <https://fetch.spec.whatwg.org/#main-fetch>, looping over redirects
/// (HTTP-redirect fetch's step 22 "main fetch with recursive true").
fn main_fetch(
    hop: Hop<'_>,
    cache: &PreflightCache,
    state: &mut FetchState,
    cancelled: &dyn Fn() -> bool,
) -> Result<ApiResponse, NetError> {
    loop {
        if cancelled() {
            return Err(NetError::Aborted {
                url: state.current_url.clone(),
            });
        }
        let url = state.current_url.clone();
        let same_origin = Origin::of(&url).same_origin(&state.request.origin);
        // Step 12: If response is null, then set response to the result of
        // running the steps corresponding to the first matching statement:
        let make_preflight;
        if (same_origin && state.tainting == ResponseTainting::Basic) || url.scheme() == "data" {
            // request's current URL's origin is same origin with request's
            // origin, and request's response tainting is "basic"; request's
            // current URL's scheme is "data": set request's response
            // tainting to "basic"; return the result of running scheme
            // fetch given fetchParams.
            state.tainting = ResponseTainting::Basic;
            make_preflight = false;
        } else if state.request.mode == RequestMode::SameOrigin {
            // request's mode is "same-origin": return a network error.
            return Err(state
                .network_error("a same-origin request to another origin (mode \"same-origin\")"));
        } else if state.request.mode == RequestMode::NoCors {
            // request's mode is "no-cors": if request's redirect mode is not
            // "follow", return a network error; set request's response
            // tainting to "opaque"; return the result of running scheme
            // fetch.
            if state.request.redirect != RedirectMode::Follow {
                return Err(state.network_error(
                    "a no-cors request to another origin must use redirect mode \"follow\"",
                ));
            }
            state.tainting = ResponseTainting::Opaque;
            make_preflight = false;
        } else if !matches!(url.scheme(), "http" | "https") {
            // request's current URL's scheme is not an HTTP(S) scheme:
            // return a network error.
            return Err(state.network_error(format!(
                "a cors request to a {}: URL of another origin",
                url.scheme()
            )));
        } else {
            // request's use-CORS-preflight flag is set, or request's unsafe
            // request flag is set and either request's method is not a
            // CORS-safelisted method or CORS-unsafe request-header names
            // with request's header list is not empty: set request's
            // response tainting to "cors"; HTTP fetch with makeCORSPreflight
            // true. Otherwise: set request's response tainting to "cors";
            // HTTP fetch.
            state.tainting = ResponseTainting::Cors;
            make_preflight = state.request.use_cors_preflight
                || !is_cors_safelisted_method(&state.request.method)
                || !cors_unsafe_request_header_names(&state.request.headers).is_empty();
        }
        // HTTP fetch (<https://fetch.spec.whatwg.org/#concept-http-fetch>)
        // or scheme fetch, one hop.
        // HTTP fetch, step 4.1: If makeCORSPreflight is true and one of
        // these conditions is true: there is no method cache entry match
        // for request's method and either request's method is not a
        // CORS-safelisted method or request's use-CORS-preflight flag is
        // set; there is at least one item in the CORS-unsafe request-header
        // names with request's header list for which there is no
        // header-name cache entry match. Then let preflightResponse be the
        // result of running CORS-preflight fetch given request; if it is a
        // network error, then return it.
        if make_preflight {
            let method_needs = !cache.matches(state, state.request.method.as_str(), true)
                && (!is_cors_safelisted_method(&state.request.method)
                    || state.request.use_cors_preflight);
            let headers_need = cors_unsafe_request_header_names(&state.request.headers)
                .iter()
                .any(|name| !cache.matches(state, name, false));
            if method_needs || headers_need {
                cors_preflight_fetch(hop, cache, state)?;
            }
        }
        if cancelled() {
            return Err(NetError::Aborted { url });
        }
        // HTTP-network-or-cache fetch (one hop).
        let response = http_network_or_cache_fetch(hop, state)?;
        // HTTP fetch, step 4.4 (via main fetch's CORS handling): If
        // request's response tainting is "cors" and a CORS check for
        // request and response returns failure, then return a network
        // error. (A redirect is CORS-checked too: HTTP fetch step 4.4 runs
        // before step 8's redirect handling.)
        if state.tainting == ResponseTainting::Cors
            && !cors_check(
                &state.serialized_origin(),
                state.request.credentials,
                &response.headers,
            )
        {
            return Err(state.network_error(format!(
                "CORS check failed for {url} (origin {}): no matching \
                 Access-Control-Allow-Origin{}",
                state.serialized_origin(),
                if state.request.credentials == CredentialsMode::Include {
                    " with Access-Control-Allow-Credentials: true"
                } else {
                    ""
                }
            )));
        }
        // HTTP fetch, step 5: If either request's response tainting or
        // response's type is "opaque", and the cross-origin resource
        // policy check with request's origin, request's client, request's
        // destination, and internalResponse returns blocked, then return a
        // network error.
        if state.tainting == ResponseTainting::Opaque
            && !cross_origin_resource_policy_check(
                &state.request.origin,
                EmbedderPolicyValue::UnsafeNone,
                &url,
                &response.headers,
                include_credentials(state),
            )
        {
            return Err(state.network_error("blocked by Cross-Origin-Resource-Policy"));
        }
        // HTTP fetch, step 8: If internalResponse's status is a redirect
        // status: switch on request's redirect mode.
        if response.is_redirect() && matches!(url.scheme(), "http" | "https") {
            match state.request.redirect {
                // "error": Set response to a network error.
                RedirectMode::Error => {
                    return Err(state.network_error("redirected with redirect mode \"error\""))
                }
                // "manual": set response to an opaque-redirect filtered
                // response whose internal response is internalResponse.
                RedirectMode::Manual => {
                    return Ok(ApiResponse {
                        response_type: ResponseType::OpaqueRedirect,
                        url_list: state.url_list.clone(),
                        status: 0,
                        status_text: String::new(),
                        headers: HeaderList::new(),
                        body: Vec::new(),
                    });
                }
                // "follow": Set response to the result of running
                // HTTP-redirect fetch given fetchParams and response.
                RedirectMode::Follow => {
                    if let Some(location) = response.location_url()? {
                        http_redirect_fetch(state, &response, location)?;
                        continue;
                    }
                }
            }
        }
        // Main fetch, step 14: If recursive is false (the end of the
        // chain): set response to the filtered response per tainting.
        return Ok(filtered_response(state, response));
    }
}

/// Fetch's includeCredentials for this request: credentials mode
/// "include", or "same-origin" with response tainting "basic".
fn include_credentials(state: &FetchState) -> bool {
    match state.request.credentials {
        CredentialsMode::Include => true,
        CredentialsMode::SameOrigin => state.tainting == ResponseTainting::Basic,
        CredentialsMode::Omit => false,
    }
}

/// One hop of <https://fetch.spec.whatwg.org/#concept-http-network-or-cache-fetch>
/// for the request (or scheme fetch for the non-HTTP schemes, which the
/// hop function also does).
fn http_network_or_cache_fetch(hop: Hop<'_>, state: &FetchState) -> Result<RawResponse, NetError> {
    let request = &state.request;
    let mut headers = request.headers.clone();
    // Step 8.4 (append a request `Origin` header,
    // <https://fetch.spec.whatwg.org/#append-a-request-origin-header>):
    // Step 1: Let serializedOrigin be the result of byte-serializing a
    // request origin with request.
    // Step 2: If request's response tainting is "cors", append (`Origin`,
    // serializedOrigin).
    // Step 3: Otherwise, if request's method is neither `GET` nor `HEAD`:
    // (no-cors: the referrer policy may null it; no referrer policy here)
    // append (`Origin`, serializedOrigin).
    if state.tainting == ResponseTainting::Cors
        || !matches!(request.method, Method::Get | Method::Head)
    {
        headers.push(("Origin".to_owned(), state.serialized_origin()));
    }
    // The hop function adds `User-Agent`, `Accept: */*` (step 8.6's
    // default for an empty Accept), `Host`, and, with includeCredentials
    // (step 8.11), the cookies; it stores `Set-Cookie` lines.
    hop(&HopRequest {
        url: state.current_url.clone(),
        method: request.method.clone(),
        headers,
        body: request.body.clone(),
        credentials: include_credentials(state),
        initiator: Some(request.origin.as_url_origin().clone()),
    })
}

/// <https://fetch.spec.whatwg.org/#cors-preflight-fetch-0>
fn cors_preflight_fetch(
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

/// <https://fetch.spec.whatwg.org/#http-redirect-fetch> given the redirect
/// `response` and its location URL: updates the request for the next hop
/// (steps 6-18); main fetch then runs again (step 22).
fn http_redirect_fetch(
    state: &mut FetchState,
    response: &RawResponse,
    location: Url,
) -> Result<(), NetError> {
    // Step 6: If locationURL's scheme is not an HTTP(S) scheme, then return
    // a network error.
    if !matches!(location.scheme(), "http" | "https") {
        return Err(NetError::RedirectToNonHttpScheme {
            url: response.url.clone(),
            location: location.into(),
        });
    }
    // Step 7: If request's redirect count is 20, then return a network
    // error.
    if state.redirect_count == REDIRECT_LIMIT {
        let mut url_list = state.url_list.clone();
        url_list.push(location);
        return Err(NetError::TooManyRedirects {
            url_list,
            looped_at: None,
        });
    }
    // Step 8: Increase request's redirect count by 1.
    state.redirect_count += 1;
    let includes_credentials = !location.username().is_empty() || location.password().is_some();
    // Step 9: If request's mode is "cors", locationURL includes
    // credentials, and request's origin is not same origin with
    // locationURL's origin, then return a network error.
    if state.request.mode == RequestMode::Cors
        && includes_credentials
        && !state.request.origin.same_origin(&Origin::of(&location))
    {
        return Err(state.network_error("redirected to a URL with credentials"));
    }
    // Step 10: If request's response tainting is "cors" and locationURL
    // includes credentials, then return a network error.
    if state.tainting == ResponseTainting::Cors && includes_credentials {
        return Err(state.network_error("redirected to a URL with credentials"));
    }
    // Step 11: If internalResponse's status is not 303, request's body is
    // non-null, and request's body's source is null: never (the body is
    // bytes, its own source).
    // Step 12: If internalResponse's status is 301 or 302 and request's
    // method is `POST`, or internalResponse's status is 303 and request's
    // method is not `GET` or `HEAD`: set request's method to `GET`, its
    // body to null, and remove each request-body-header name from its
    // header list.
    if (matches!(response.status, 301 | 302) && state.request.method == Method::Post)
        || (response.status == 303 && !matches!(state.request.method, Method::Get | Method::Head))
    {
        state.request.method = Method::Get;
        state.request.body = None;
        state.request.headers.retain(|(name, _)| {
            ![
                "Content-Encoding",
                "Content-Language",
                "Content-Location",
                "Content-Type",
            ]
            .iter()
            .any(|n| name.eq_ignore_ascii_case(n))
        });
    }
    // Step 13: If request's current URL's origin is not same origin with
    // locationURL's origin, then remove `Authorization` from the header
    // list.
    let current_origin = Origin::of(&state.current_url);
    let location_origin = Origin::of(&location);
    if !current_origin.same_origin(&location_origin) {
        state
            .request
            .headers
            .retain(|(name, _)| !name.eq_ignore_ascii_case("Authorization"));
    }
    // Step 14: If request's current URL's origin is not same origin with
    // locationURL's origin and request's origin is not same origin with
    // request's current URL's origin, then set request's tainted origin
    // flag.
    if !current_origin.same_origin(&location_origin)
        && !state.request.origin.same_origin(&current_origin)
    {
        state.tainted_origin = true;
    }
    // Step 18: Append locationURL to request's URL list.
    state.url_list.push(location.clone());
    state.current_url = location;
    // Step 22: Return the result of running main fetch given fetchParams
    // and true (the caller's loop).
    Ok(())
}

/// Main fetch, step 14: the filtered response for the request's response
/// tainting (<https://fetch.spec.whatwg.org/#concept-filtered-response>).
fn filtered_response(state: &FetchState, response: RawResponse) -> ApiResponse {
    match state.tainting {
        // "basic": a basic filtered response: the header list excludes
        // forbidden response-header names.
        ResponseTainting::Basic => ApiResponse {
            response_type: ResponseType::Basic,
            url_list: state.url_list.clone(),
            status: response.status,
            status_text: response.status_text,
            headers: response
                .headers
                .iter()
                .filter(|(name, _)| !is_forbidden_response_header_name(name))
                .collect(),
            body: response.body,
        },
        // "cors": a CORS filtered response: only CORS-safelisted response
        // header names given the CORS-exposed header-name list (step 14.1:
        // `Access-Control-Expose-Headers`; `*` exposes every name when the
        // credentials mode is not "include").
        ResponseTainting::Cors => {
            let exposed = extract_token_list(&response.headers, "Access-Control-Expose-Headers")
                .ok()
                .flatten()
                .unwrap_or_default();
            let wildcard = state.request.credentials != CredentialsMode::Include
                && exposed.iter().any(|n| n == "*");
            let exposed: Vec<String> = if wildcard {
                response.headers.iter().map(|(n, _)| n.to_owned()).collect()
            } else {
                exposed
            };
            ApiResponse {
                response_type: ResponseType::Cors,
                url_list: state.url_list.clone(),
                status: response.status,
                status_text: response.status_text,
                headers: response
                    .headers
                    .iter()
                    .filter(|(name, _)| is_cors_safelisted_response_header_name(name, &exposed))
                    .collect(),
                body: response.body,
            }
        }
        // "opaque": an opaque filtered response: type "opaque", URL list
        // empty, status 0, status message empty, header list empty, body
        // null.
        ResponseTainting::Opaque => ApiResponse {
            response_type: ResponseType::Opaque,
            url_list: Vec::new(),
            status: 0,
            status_text: String::new(),
            headers: HeaderList::new(),
            body: Vec::new(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Asserts `check(name, value) == expected` for each case.
    fn assert_each(check: fn(&str, &str) -> bool, cases: &[(&str, &str, bool)]) {
        for &(name, value, expected) in cases {
            assert_eq!(check(name, value), expected, "{name}: {value}");
        }
    }

    #[test]
    fn safelisted_request_headers() {
        let too_long = "a".repeat(129);
        assert_each(
            is_cors_safelisted_request_header,
            &[
                ("Accept", "text/html", true),
                ("Accept", "a\"b", false),
                ("content-type", "text/plain;charset=utf-8", true),
                ("content-type", "application/json", false),
                ("X-Custom", "1", false),
                ("Accept", &too_long, false),
                ("Range", "bytes=0-10", true),
                ("Range", "bytes=10-0", false),
            ],
        );
        assert_eq!(
            cors_unsafe_request_header_names(&[
                ("X-B".into(), "1".into()),
                ("Content-Type".into(), "application/json".into()),
                ("x-b".into(), "2".into()),
                ("Accept".into(), "*/*".into()),
            ]),
            ["content-type", "x-b"]
        );
    }

    #[test]
    fn forbidden_headers() {
        assert_each(
            is_forbidden_request_header,
            &[
                ("cookie", "a", true),
                ("Sec-Foo", "a", true),
                ("Proxy-Authorization", "a", true),
                ("X-HTTP-Method-Override", "get, trace", true),
                ("X-HTTP-Method-Override", "PUT", false),
                ("X-Custom", "a", false),
            ],
        );
        assert!(is_forbidden_response_header_name("set-cookie"));
        assert!(is_header_value(b"a b"));
        assert!(!is_header_value(b" a"));
        assert!(!is_header_value(b"a\r\nb"));
        assert!(is_token("X-Foo"));
        assert!(!is_token("X Foo"));
        assert!(!is_token(""));
    }
}
