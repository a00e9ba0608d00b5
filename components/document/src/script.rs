//! Fetching a classic script: the Fetch steps that decide, hop by hop, the
//! request's response tainting, the `Origin` header, whether credentials go
//! out, the CORS and CORP checks and redirects; and HTML's outcome: not run
//! (fire `error` at the element), or run with muted errors true or false.
//!
//! The loader drives it: [`fetch_classic_script`] gives the first request to
//! send; each response goes to [`PendingScriptFetch::process_response`],
//! which gives either the next request (a redirect) or the outcome. The
//! loader must not follow redirects itself, since each hop's `Origin` header
//! and credentials depend on the chain so far. [`classic_script_outcome`]
//! runs a whole recorded chain at once.
//!
//! Not modelled (other parts of Fetch): CSP, mixed content, bad ports,
//! service workers, MIME type and nosniff checks, ORB, and the `blob:` URL
//! store.

use url::Url;

use crate::cors::{
    cors_check, cross_origin_resource_policy_check, potential_cors_request, CorsSettings,
    CredentialsMode, RequestMode, ResponseTainting,
};
use crate::headers::{isomorphic_decode, HeaderList};
use crate::isolation::EmbedderPolicyValue;
use crate::origin::Origin;

/// The most redirects Fetch follows.
pub const REDIRECT_LIMIT: u32 = 20;

/// What the loader knows when it starts fetching a `<script src>`.
#[derive(Clone, Debug)]
pub struct ScriptFetchParams {
    /// The script's URL (already parsed against the document's base URL).
    pub url: Url,
    /// The element's `crossorigin` attribute state.
    pub cors_setting: CorsSettings,
    /// The origin of the document (the request's client).
    pub client_origin: Origin,
    /// The document's embedder policy value (COEP), for CORP and
    /// credentialless.
    pub embedder_policy: EmbedderPolicyValue,
}

/// One request the loader must send.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutgoingRequest {
    /// The URL to fetch (a `GET`).
    pub url: Url,
    /// The `Origin` header to send, if any.
    pub origin_header: Option<String>,
    /// Whether to send credentials (cookies, HTTP authentication).
    pub include_credentials: bool,
    /// The request's mode (for `Sec-Fetch-Mode`, logging).
    pub mode: RequestMode,
    /// The request's response tainting for this hop.
    pub tainting: ResponseTainting,
}

/// What the loader got back for an [`OutgoingRequest`]: the status and
/// header list. For `data:` and `file:` URLs use status 200 and the headers
/// the loader synthesised (e.g. `Content-Type`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ResponseInfo {
    /// The HTTP status code.
    pub status: u16,
    /// The response headers.
    pub headers: HeaderList,
}

impl ResponseInfo {
    /// A response with this status and headers.
    pub fn new(status: u16, headers: HeaderList) -> Self {
        ResponseInfo { status, headers }
    }
}

/// Why a script is not run; the element then gets an `error` event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BlockReason {
    /// The CORS check failed (cors mode, cross-origin response or redirect).
    CorsCheckFailed,
    /// A cors-mode request to a cross-origin URL whose scheme is not HTTP(S).
    CorsNonHttpScheme,
    /// The cross-origin resource policy check blocked an opaque response.
    CrossOriginResourcePolicy,
    /// A redirect's `Location` is not a URL, or appears more than once.
    InvalidRedirectLocation,
    /// A redirect to a URL whose scheme is not HTTP(S).
    RedirectToNonHttpScheme,
    /// More than [`REDIRECT_LIMIT`] redirects.
    TooManyRedirects,
    /// A redirect to a URL with a username or password, in cors mode.
    RedirectWithCredentials,
    /// The final response's status is not 200-299.
    BadStatus(u16),
    /// `X-Content-Type-Options: nosniff` and a `Content-Type` that is not
    /// a JavaScript MIME type.
    Nosniff,
}

/// The decision for one classic script.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScriptCorsOutcome {
    /// Do not run the script; fire `error` at the element.
    Blocked(BlockReason),
    /// Run the script.
    Run {
        /// The classic script's muted errors: true for a CORS-cross-origin
        /// (opaque) response. Its errors are reported as "Script error." and
        /// its frames never appear in a profile.
        muted_errors: bool,
        /// The response's URL (the last URL of the redirect chain): the
        /// script's base URL and the resource URL of its frames.
        response_url: Url,
    },
}

/// The state of [`ScriptFetchParams`] after main fetch, between requests.
#[derive(Clone, Debug)]
struct Request {
    origin: Origin,
    embedder_policy: EmbedderPolicyValue,
    mode: RequestMode,
    credentials_mode: CredentialsMode,
    url_list: Vec<Url>,
    redirect_count: u32,
    response_tainting: ResponseTainting,
}

/// A fetch waiting for the response to [`PendingScriptFetch::request`].
#[derive(Clone, Debug)]
pub struct PendingScriptFetch {
    request: Request,
    outgoing: OutgoingRequest,
}

/// The next thing the loader does.
#[derive(Clone, Debug)]
pub enum FetchStep {
    /// Send [`PendingScriptFetch::request`], then hand its response to
    /// [`PendingScriptFetch::process_response`].
    Request(PendingScriptFetch),
    /// Done: run the script or fire `error`.
    Done(ScriptCorsOutcome),
}

fn is_http_scheme(url: &Url) -> bool {
    matches!(url.scheme(), "http" | "https")
}

/// <https://url.spec.whatwg.org/#include-credentials>
fn includes_credentials(url: &Url) -> bool {
    !url.username().is_empty() || url.password().is_some()
}

fn is_redirect_status(status: u16) -> bool {
    matches!(status, 301 | 302 | 303 | 307 | 308)
}

impl Request {
    fn current_url(&self) -> &Url {
        // The URL list always has the request's URL.
        &self.url_list[self.url_list.len() - 1]
    }

    /// Whether the request's redirect-taint is not "same-origin".
    /// <https://fetch.spec.whatwg.org/#concept-request-tainted-origin>
    ///
    /// Only "same-origin" versus the rest matters to its users here, and a
    /// hop that makes the taint "cross-site" or "same-site" is exactly one
    /// where both origins differ from lastURL's, so no site computation (and
    /// no public suffix list) is needed.
    fn is_redirect_tainted(&self) -> bool {
        // Step 2: Let lastURL be null.
        // Step 3: Let taint be "same-origin".
        // Step 4: For each url of request's URL list:
        // Step 4.1: If lastURL is null, then set lastURL to url and continue.
        // Step 4.2-4.3: If url's origin is not same site (resp. same origin)
        // with lastURL's origin and request's origin is not same site (resp.
        // same origin) with lastURL's origin, the taint is not "same-origin".
        // Step 4.4: Set lastURL to url.
        self.url_list.windows(2).any(|pair| {
            let last = Origin::of(&pair[0]);
            !Origin::of(&pair[1]).same_origin(&last) && !self.origin.same_origin(&last)
        })
        // Step 5: Return taint.
    }

    /// <https://fetch.spec.whatwg.org/#serializing-a-request-origin>
    fn serialized_origin(&self) -> String {
        // Step 2: If request's redirect-taint is not "same-origin", then
        // return "null".
        if self.is_redirect_tainted() {
            return "null".to_owned();
        }
        // Step 3: Return request's origin, serialized.
        self.origin.ascii_serialization()
    }

    /// <https://fetch.spec.whatwg.org/#cross-origin-embedder-policy-allows-credentials>
    fn coep_allows_credentials(&self) -> bool {
        // Step 2: If request's mode is not "no-cors", then return true.
        if self.mode != RequestMode::NoCors {
            return true;
        }
        // Step 3: request's client is never null here.
        // Step 4: If the client's embedder policy's value is not
        // "credentialless", then return true.
        if self.embedder_policy != EmbedderPolicyValue::Credentialless {
            return true;
        }
        // Step 5: If request's origin is same origin with request's current
        // URL's origin and request's redirect-taint is "same-origin" (the
        // older text's "does not have a redirect-tainted origin"), then
        // return true.
        if self.origin.same_origin(&Origin::of(self.current_url())) && !self.is_redirect_tainted() {
            return true;
        }
        // Step 6: Return false.
        false
    }

    /// The request HTTP-network-or-cache fetch sends for the current URL.
    /// <https://fetch.spec.whatwg.org/#http-network-or-cache-fetch>
    fn outgoing(&self) -> OutgoingRequest {
        // Step 8.3: Let includeCredentials be true if request's credentials
        // mode is "include", or "same-origin" and request's response
        // tainting is "basic"; otherwise false.
        let mut include_credentials = match self.credentials_mode {
            CredentialsMode::Include => true,
            CredentialsMode::SameOrigin => self.response_tainting == ResponseTainting::Basic,
            CredentialsMode::Omit => false,
        };
        // Step 8.4: If Cross-Origin-Embedder-Policy allows credentials with
        // request returns false, then set includeCredentials to false.
        if !self.coep_allows_credentials() {
            include_credentials = false;
        }
        // Step 8.12: Append a request `Origin` header for httpRequest.
        // <https://fetch.spec.whatwg.org/#append-a-request-origin-header>
        // Step 1: Let serializedOrigin be the result of byte-serializing a
        // request origin with request.
        // Step 2: If request's response tainting is "cors" or request's mode
        // is "websocket", then append (`Origin`, serializedOrigin).
        // Step 3: Otherwise, if request's method is neither `GET` nor `HEAD`
        // (never: scripts are fetched with `GET`), ...
        let origin_header =
            (self.response_tainting == ResponseTainting::Cors).then(|| self.serialized_origin());
        OutgoingRequest {
            url: self.current_url().clone(),
            origin_header,
            include_credentials,
            mode: self.mode,
            tainting: self.response_tainting,
        }
    }

    /// Step 12 of <https://fetch.spec.whatwg.org/#concept-main-fetch>: pick
    /// the response tainting for the current URL, or fail.
    fn main_fetch(mut self) -> FetchStep {
        let current_origin = Origin::of(self.current_url());
        // Step 12: If response is null, then set response to the result of
        // running the steps corresponding to the first matching statement:
        if (current_origin.same_origin(&self.origin)
            && self.response_tainting == ResponseTainting::Basic)
            || self.current_url().scheme() == "data"
        {
            // request's current URL's origin is same origin with request's
            // origin, and request's response tainting is "basic"; or the
            // current URL's scheme is "data":
            // Step 12.1: Set request's response tainting to "basic".
            self.response_tainting = ResponseTainting::Basic;
            // Step 12.2: Return the result of running scheme fetch.
        } else {
            match self.mode {
                // request's mode is "no-cors":
                RequestMode::NoCors => {
                    // Step 12.1: redirect mode is "follow" for scripts.
                    // Step 12.2: Set request's response tainting to "opaque".
                    self.response_tainting = ResponseTainting::Opaque;
                    // Step 12.3: Return the result of running scheme fetch.
                }
                // request's current URL's scheme is not an HTTP(S) scheme:
                // Return a network error.
                RequestMode::Cors if !is_http_scheme(self.current_url()) => {
                    return FetchStep::Done(ScriptCorsOutcome::Blocked(
                        BlockReason::CorsNonHttpScheme,
                    ));
                }
                // Otherwise (scripts never need a CORS preflight: GET with
                // no unsafe headers):
                RequestMode::Cors => {
                    // Step 12.1: Set request's response tainting to "cors".
                    self.response_tainting = ResponseTainting::Cors;
                    // Step 12.2: Return the result of running HTTP fetch.
                }
            }
        }
        let outgoing = self.outgoing();
        FetchStep::Request(PendingScriptFetch {
            request: self,
            outgoing,
        })
    }
}

/// Starts <https://html.spec.whatwg.org/multipage/webappapis.html#fetch-a-classic-script>.
pub fn fetch_classic_script(params: ScriptFetchParams) -> FetchStep {
    // Step 1: Let request be the result of creating a potential-CORS request
    // given url, "script", and corsSetting.
    let (mode, credentials_mode) = potential_cors_request(params.cors_setting);
    // Step 2: Set request's client to settingsObject (its origin and
    // embedder policy).
    let request = Request {
        origin: params.client_origin,
        embedder_policy: params.embedder_policy,
        mode,
        credentials_mode,
        url_list: vec![params.url],
        redirect_count: 0,
        response_tainting: ResponseTainting::Basic,
    };
    // Step 5: Fetch request (main fetch).
    request.main_fetch()
}

impl PendingScriptFetch {
    /// The request to send now.
    pub fn request(&self) -> &OutgoingRequest {
        &self.outgoing
    }

    /// The URLs fetched so far, the current one last.
    pub fn url_list(&self) -> &[Url] {
        &self.request.url_list
    }

    /// Processes the response to [`PendingScriptFetch::request`]: the rest of
    /// <https://fetch.spec.whatwg.org/#concept-http-fetch> and
    /// <https://fetch.spec.whatwg.org/#http-redirect-fetch>, then step 5 of
    /// fetch a classic script.
    pub fn process_response(self, response: &ResponseInfo) -> FetchStep {
        let PendingScriptFetch { request, outgoing } = self;
        // HTTP fetch, step 4.4: If request's response tainting is "cors" and
        // a CORS check for request and response returns failure, then return
        // a network error.
        if request.response_tainting == ResponseTainting::Cors {
            let serialized = request.serialized_origin();
            if !cors_check(&serialized, request.credentials_mode, &response.headers) {
                return FetchStep::Done(ScriptCorsOutcome::Blocked(BlockReason::CorsCheckFailed));
            }
        }
        // HTTP fetch, step 5: If request's response tainting is "opaque", and
        // the cross-origin resource policy check with request's origin,
        // client, destination, and internalResponse returns blocked, then
        // return a network error.
        if request.response_tainting == ResponseTainting::Opaque
            && !cross_origin_resource_policy_check(
                &request.origin,
                request.embedder_policy,
                request.current_url(),
                &response.headers,
                outgoing.include_credentials,
            )
        {
            return FetchStep::Done(ScriptCorsOutcome::Blocked(
                BlockReason::CrossOriginResourcePolicy,
            ));
        }
        // HTTP fetch, step 6: If internalResponse's status is a redirect
        // status: redirect mode is "follow": run HTTP-redirect fetch.
        if is_redirect_status(response.status) {
            // HTTP-redirect fetch, step 3: Let locationURL be
            // internalResponse's location URL given request's current URL's
            // fragment.
            match location_url(response, request.current_url()) {
                // Step 4: If locationURL is null, then return response.
                Ok(None) => {}
                // Step 5: If locationURL is failure, then return a network
                // error.
                Err(()) => {
                    return FetchStep::Done(ScriptCorsOutcome::Blocked(
                        BlockReason::InvalidRedirectLocation,
                    ))
                }
                Ok(Some(location_url)) => return request.redirect(location_url),
            }
        }
        // Main fetch, step 14: the filtered response per response tainting
        // (opaque for "opaque").
        // Main fetch, step 19: If internalResponse is not a network error
        // and should internalResponse to request be blocked due to nosniff
        // returns blocked (the destination is "script"), then set response
        // and internalResponse to a network error.
        // <https://fetch.spec.whatwg.org/#main-fetch>
        if crate::mime::script_blocked_due_to_nosniff(&response.headers) {
            return FetchStep::Done(ScriptCorsOutcome::Blocked(BlockReason::Nosniff));
        }
        // Fetch a classic script, step 5.1: Set response to response's unsafe
        // response.
        // Step 5.2: If response's status is not an ok status, then run
        // onComplete given null (the element gets an `error` event).
        if !(200..=299).contains(&response.status) {
            return FetchStep::Done(ScriptCorsOutcome::Blocked(BlockReason::BadStatus(
                response.status,
            )));
        }
        // Step 5.6: Let mutedErrors be true if response was CORS-cross-origin
        // (an opaque filtered response), and false otherwise.
        let muted_errors = request.response_tainting == ResponseTainting::Opaque;
        // Step 5.7: create a classic script given ..., response's URL, ...,
        // mutedErrors.
        FetchStep::Done(ScriptCorsOutcome::Run {
            muted_errors,
            response_url: outgoing.url,
        })
    }
}

impl Request {
    /// Steps 6-22 of <https://fetch.spec.whatwg.org/#http-redirect-fetch>.
    fn redirect(mut self, location_url: Url) -> FetchStep {
        let blocked = |reason| FetchStep::Done(ScriptCorsOutcome::Blocked(reason));
        // Step 6: If locationURL's scheme is not an HTTP(S) scheme, then
        // return a network error.
        if !is_http_scheme(&location_url) {
            return blocked(BlockReason::RedirectToNonHttpScheme);
        }
        // Step 7: If request's redirect count is 20, then return a network
        // error.
        if self.redirect_count == REDIRECT_LIMIT {
            return blocked(BlockReason::TooManyRedirects);
        }
        // Step 8: Increase request's redirect count by 1.
        self.redirect_count += 1;
        // Step 9: If request's mode is "cors", locationURL includes
        // credentials, and request's origin is not same origin with
        // locationURL's origin, then return a network error.
        if self.mode == RequestMode::Cors
            && includes_credentials(&location_url)
            && !self.origin.same_origin(&Origin::of(&location_url))
        {
            return blocked(BlockReason::RedirectWithCredentials);
        }
        // Step 10: If request's response tainting is "cors" and locationURL
        // includes credentials, then return a network error.
        if self.response_tainting == ResponseTainting::Cors && includes_credentials(&location_url) {
            return blocked(BlockReason::RedirectWithCredentials);
        }
        // Steps 11-17: body, method, `Authorization` and timing: nothing for
        // a script's GET.
        // Step 18: Append locationURL to request's URL list.
        self.url_list.push(location_url);
        // Steps 19-21: referrer policy; recursive is true.
        // Step 22: Return the result of running main fetch given fetchParams
        // and recursive.
        self.main_fetch()
    }
}

/// <https://fetch.spec.whatwg.org/#concept-response-location-url>: `Ok(None)`
/// for no `Location`, `Err` for failure.
fn location_url(response: &ResponseInfo, request_url: &Url) -> Result<Option<Url>, ()> {
    // Step 1: If response's status is not a redirect status, then return
    // null. (Checked by the caller.)
    // Step 2: Let location be the result of extracting header list values
    // given `Location` and response's header list (failure if more than one).
    let location = match response.headers.get_single("Location") {
        Ok(None) => return Ok(None),
        Ok(Some(value)) => value,
        Err(_) => return Err(()),
    };
    // Step 3: If location is a header value, then set location to the result
    // of parsing location with response's URL (the request's current URL).
    let mut location = request_url
        .join(&isomorphic_decode(location))
        .map_err(|_| ())?;
    // Step 4: If location is a URL whose fragment is null, then set
    // location's fragment to requestFragment.
    if location.fragment().is_none() {
        location.set_fragment(request_url.fragment());
    }
    // Step 5: Return location.
    Ok(Some(location))
}

/// A recorded redirect chain did not match the fetch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChainError {
    /// The fetch asked for this URL but the chain had no more responses.
    MissingResponse(Url),
    /// The fetch finished with this many responses left over.
    UnusedResponses(usize),
}

/// Runs a whole fetch over recorded responses: `responses[0]` answers the
/// script's URL, each later one the URL the previous redirect led to.
pub fn classic_script_outcome(
    params: ScriptFetchParams,
    responses: &[ResponseInfo],
) -> Result<ScriptCorsOutcome, ChainError> {
    let mut step = fetch_classic_script(params);
    let mut remaining = responses.iter();
    loop {
        match step {
            FetchStep::Done(outcome) => {
                let unused = remaining.len();
                return if unused == 0 {
                    Ok(outcome)
                } else {
                    Err(ChainError::UnusedResponses(unused))
                };
            }
            FetchStep::Request(pending) => {
                let Some(response) = remaining.next() else {
                    return Err(ChainError::MissingResponse(pending.request().url.clone()));
                };
                step = pending.process_response(response);
            }
        }
    }
}

/// Error information for reporting an exception (an `ErrorEvent`'s fields).
/// `E` is the engine's handle on the thrown value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ErrorInfo<E> {
    /// `message`.
    pub message: String,
    /// `filename`.
    pub filename: String,
    /// `lineno`.
    pub lineno: u32,
    /// `colno`.
    pub colno: u32,
    /// `error`; `None` is null.
    pub error: Option<E>,
}

/// The message a muted error is reported with.
pub(crate) const MUTED_ERROR_MESSAGE: &str = "Script error.";

/// Steps 4-5 of <https://html.spec.whatwg.org/multipage/webappapis.html#report-an-exception>:
/// the fields to report for an uncaught exception from a script with these
/// muted errors.
pub fn error_info_to_report<E>(
    mut info: ErrorInfo<E>,
    script_muted_errors: bool,
    omit_error: bool,
) -> ErrorInfo<E> {
    // Step 4: If script is a classic script and script's muted errors is
    // true, then set errorInfo[error] to null, errorInfo[message] to "Script
    // error.", errorInfo[filename] to the empty string, errorInfo[lineno] to
    // 0, and errorInfo[colno] to 0.
    if script_muted_errors {
        info = ErrorInfo {
            message: MUTED_ERROR_MESSAGE.to_owned(),
            filename: String::new(),
            lineno: 0,
            colno: 0,
            error: None,
        };
    }
    // Step 5: If omitError is true, then set errorInfo[error] to null.
    if omit_error {
        info.error = None;
    }
    info
}

/// Muted errors of code created by `eval` or `new Function`: ECMA-262's
/// PerformEval and CreateDynamicFunction give the new code the running
/// execution context's ScriptOrModule, so it carries its creator's classic
/// script and thereby its muted errors (transitively, for eval inside eval'd
/// code). `creator_muted_errors` is that of the active script, `None` if
/// there is none (or it is a module script, which never mutes errors).
///
/// String timers (`setTimeout("...")`) are not this case: HTML creates a new
/// classic script for them, with muted errors false.
pub fn dynamic_code_muted_errors(creator_muted_errors: Option<bool>) -> bool {
    creator_muted_errors.unwrap_or(false)
}

#[cfg(test)]
mod tests;
