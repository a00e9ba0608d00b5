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
//!
//! The module's parts: the fetch itself (main fetch, HTTP fetch, one hop:
//! here), the header and method predicates the `Headers` guards share
//! (`headers.rs`), the CORS-preflight fetch and its cache
//! (`preflight.rs`), HTTP-redirect fetch (`redirect.rs`), and the filtered
//! responses (`response.rs`).

mod headers;
mod preflight;
mod redirect;
mod response;

use jsprof_document::cors::{cors_check, cross_origin_resource_policy_check};
use jsprof_document::{CredentialsMode, EmbedderPolicyValue, HeaderList, Origin, ResponseTainting};
use url::Url;

use headers::cors_unsafe_request_header_names;
pub use headers::{
    is_cors_safelisted_method, is_cors_safelisted_request_header, is_forbidden_method,
    is_forbidden_request_header, is_forbidden_response_header_name, is_header_name,
    is_header_value, is_method, is_no_cors_safelisted_request_header_name, normalize_header_value,
};
use preflight::cors_preflight_fetch;
pub use preflight::PreflightCache;
use redirect::http_redirect_fetch;
use response::filtered_response;
pub use response::{ApiResponse, ResponseType};

use crate::{HopRequest, Method, NetError, RawResponse};

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
