//! [`Fetcher`]: one hop at a time ([`Fetcher::fetch_hop`]) or following
//! redirects ([`Fetcher::fetch_following`]).

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use jsprof_document::{HeaderList, OutgoingRequest, ResponseInfo};
use url::Url;

use crate::cookies::CookieContext;
use crate::data_url::process_data_url;
use crate::mime::{extract_mime_type, MimeType};
use crate::{file, http, NetConfig, NetError};

/// The most redirects a fetch follows (Fetch's HTTP-redirect fetch, step 7).
pub const REDIRECT_LIMIT: u32 = 20;

/// A request method.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Method {
    /// `GET`.
    #[default]
    Get,
    /// `POST`.
    Post,
    /// `HEAD`: the response's body is empty.
    Head,
    /// Any other method token, already normalized
    /// (<https://fetch.spec.whatwg.org/#concept-method-normalize>): `PUT`,
    /// `DELETE`, `OPTIONS`, `PATCH`, `PROPFIND`...
    Other(String),
}

impl Method {
    /// The method's name.
    pub fn as_str(&self) -> &str {
        match self {
            Method::Get => "GET",
            Method::Post => "POST",
            Method::Head => "HEAD",
            Method::Other(name) => name,
        }
    }

    /// A method from a token, normalized
    /// (<https://fetch.spec.whatwg.org/#concept-method-normalize>: a
    /// byte-case-insensitive match for `DELETE`, `GET`, `HEAD`, `OPTIONS`,
    /// `POST` or `PUT` is byte-uppercased). The caller checks that it is a
    /// method token and not a forbidden method.
    pub fn normalize(token: &str) -> Method {
        for known in ["DELETE", "GET", "HEAD", "OPTIONS", "POST", "PUT"] {
            if token.eq_ignore_ascii_case(known) {
                return match known {
                    "GET" => Method::Get,
                    "POST" => Method::Post,
                    "HEAD" => Method::Head,
                    other => Method::Other(other.to_owned()),
                };
            }
        }
        Method::Other(token.to_owned())
    }
}

/// One request to send: the URL, method, extra headers and body of one hop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HopRequest {
    /// The URL (its fragment and userinfo are not sent).
    pub url: Url,
    /// The method.
    pub method: Method,
    /// Headers to send, in order (e.g. `Origin`). `Host`, `User-Agent` and
    /// `Accept: */*` are added unless given here.
    pub headers: Vec<(String, String)>,
    /// The request body, for `POST`.
    pub body: Option<Vec<u8>>,
    /// Whether credentials may be sent and stored: with `true`, the
    /// cookie jar's `Cookie` header is added (unless one is given in
    /// `headers`) and the response's `Set-Cookie` lines are stored (Fetch's
    /// "includeCredentials", HTTP-network-or-cache fetch step 8.11 and
    /// HTTP-network fetch step 13).
    pub credentials: bool,
    /// The origin that initiated the request (the client's), for the
    /// cookies' same-site decision; `None` for a navigation the user
    /// started (same-site, top-level).
    pub initiator: Option<url::Origin>,
}

impl HopRequest {
    /// A `GET` of `url` with no extra header and credentials allowed.
    pub fn get(url: Url) -> Self {
        HopRequest {
            url,
            method: Method::Get,
            headers: Vec::new(),
            body: None,
            credentials: true,
            initiator: None,
        }
    }

    /// Builder: appends a header.
    pub fn with_header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.to_owned(), value.to_owned()));
        self
    }
}

/// The request [`jsprof_document`]'s script fetch state machine asks for: a
/// `GET` with its `Origin` header, if any, and its credentials decision.
impl From<&OutgoingRequest> for HopRequest {
    fn from(outgoing: &OutgoingRequest) -> Self {
        let mut request = HopRequest::get(outgoing.url.clone());
        if let Some(origin) = &outgoing.origin_header {
            request.headers.push(("Origin".to_owned(), origin.clone()));
        }
        request.credentials = outgoing.include_credentials;
        request
    }
}

/// One response, as received: a redirect is not followed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawResponse {
    /// The URL this response answers (the request's URL, fragment kept).
    pub url: Url,
    /// The status code (200 for `data:`, `file:`, `blob:`, `about:blank`).
    pub status: u16,
    /// The status message: the code's canonical reason phrase (`OK`...).
    pub status_text: String,
    /// The header list: every line, duplicates kept, names compared
    /// case-insensitively. For `http(s)` the names are lowercase and the
    /// lines of one name come together (in their order, at the place of
    /// the name's first line), as the HTTP client's header map keeps them;
    /// Fetch's "get" (values joined by `, `) is unaffected.
    /// `data:`/`blob:`/`file:` responses have a synthesised `Content-Type`
    /// (and `Content-Length` for `blob:`).
    pub headers: HeaderList,
    /// The body (empty for `HEAD`).
    pub body: Vec<u8>,
}

impl RawResponse {
    /// Whether the status is a redirect status (301, 302, 303, 307, 308).
    /// <https://fetch.spec.whatwg.org/#redirect-status>
    pub fn is_redirect(&self) -> bool {
        matches!(self.status, 301 | 302 | 303 | 307 | 308)
    }

    /// Whether the status is 200-299. <https://fetch.spec.whatwg.org/#ok-status>
    pub fn is_ok(&self) -> bool {
        (200..=299).contains(&self.status)
    }

    /// The status and headers, for
    /// [`PendingScriptFetch::process_response`](jsprof_document::PendingScriptFetch::process_response).
    pub fn response_info(&self) -> ResponseInfo {
        ResponseInfo::new(self.status, self.headers.clone())
    }

    /// A header's combined value (Fetch's "get"), isomorphic-decoded.
    pub fn header(&self, name: &str) -> Option<String> {
        self.headers
            .get(name)
            .map(|value| value.iter().map(|&b| char::from(b)).collect())
    }

    /// The `Content-Type` as Fetch extracts it, `None` if absent or invalid.
    pub fn mime_type(&self) -> Option<MimeType> {
        extract_mime_type(&self.headers)
    }

    /// <https://fetch.spec.whatwg.org/#concept-response-location-url> given
    /// the request URL's fragment: `Ok(None)` if not a redirect or no
    /// `Location`, `Err` if it is not a URL or appears more than once.
    pub fn location_url(&self) -> Result<Option<Url>, NetError> {
        // Step 1: If response's status is not a redirect status, then return
        // null.
        if !self.is_redirect() {
            return Ok(None);
        }
        // Step 2: Let location be the result of extracting header list
        // values given `Location` and response's header list. (`Location` is
        // a single URI-reference: more than one line is failure.)
        let mut values = self
            .headers
            .iter()
            .filter(|(name, _)| name.eq_ignore_ascii_case("Location"))
            .map(|(_, value)| value.iter().map(|&b| char::from(b)).collect::<String>());
        let Some(location) = values.next() else {
            return Ok(None);
        };
        let invalid = |location: String| NetError::InvalidRedirectLocation {
            url: self.url.clone(),
            location,
        };
        if let Some(second) = values.next() {
            return Err(invalid(format!("{location}, {second}")));
        }
        // Step 3: If location is a header value, then set location to the
        // result of parsing location with response's URL.
        let mut location_url = self
            .url
            .join(location.trim_matches([' ', '\t']))
            .map_err(|_| invalid(location.clone()))?;
        // Step 4: If location is a URL whose fragment is null, then set
        // location's fragment to requestFragment.
        if location_url.fragment().is_none() {
            location_url.set_fragment(self.url.fragment());
        }
        // Step 5: Return location.
        Ok(Some(location_url))
    }
}

/// The response at the end of a redirect chain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FollowedResponse {
    /// Every URL fetched, in order; the last is [`RawResponse::url`] of
    /// `response` (Fetch's response URL list).
    pub url_list: Vec<Url>,
    /// The final response: not a redirect, or a redirect without
    /// `Location`.
    pub response: RawResponse,
}

/// The loader: fetches `http(s):`, `file:`, `data:`, `blob:` and
/// `about:blank` URLs. Cheap to clone (shared state behind an `Arc`); `Send`
/// and `Sync`, so one instance can serve several threads. HTTP connections
/// are pooled and reused.
#[derive(Clone, Debug)]
pub struct Fetcher {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    config: NetConfig,
    agent: ureq::Agent,
    /// [`Fetcher::abort`] ran: every fetch fails with
    /// [`NetError::Aborted`].
    aborted: AtomicBool,
}

fn is_http_scheme(url: &Url) -> bool {
    matches!(url.scheme(), "http" | "https")
}

/// <https://fetch.spec.whatwg.org/#bad-port>
const BAD_PORTS: [u16; 83] = [
    0, 1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101,
    102, 103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427,
    465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990,
    993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667,
    6668, 6669, 6679, 6697, 10080,
];

/// <https://fetch.spec.whatwg.org/#block-bad-port>, steps 2-3: an HTTP(S)
/// URL whose port is a bad port.
fn is_bad_port(url: &Url) -> bool {
    // Step 2: If url's scheme is an HTTP(S) scheme and url's port is a bad
    // port, then return blocked.
    is_http_scheme(url) && url.port().is_some_and(|port| BAD_PORTS.contains(&port))
}

/// Fetch's "request-body-header name".
const REQUEST_BODY_HEADER_NAMES: [&str; 4] = [
    "Content-Encoding",
    "Content-Language",
    "Content-Location",
    "Content-Type",
];

impl Fetcher {
    /// A fetcher for this configuration. Fails only if
    /// [`NetConfig::ca_file`] cannot be read or holds no certificate.
    pub fn new(config: NetConfig) -> Result<Fetcher, NetError> {
        let agent = http::build_agent(&config)?;
        Ok(Fetcher {
            inner: Arc::new(Inner {
                config,
                agent,
                aborted: AtomicBool::new(false),
            }),
        })
    }

    /// A fetcher with this one's configuration (host rules, certificates,
    /// limits, blob URL store) but a connection pool of its own, so that
    /// [`Fetcher::abort`] on it ends its own fetches only (a dedicated
    /// worker's loader).
    pub fn with_own_connections(&self) -> Result<Fetcher, NetError> {
        Fetcher::new(self.inner.config.clone())
    }

    /// Aborts this fetcher (and its clones, which share its connections):
    /// a fetch in flight fails with [`NetError::Aborted`] at once, however
    /// long the server stalls (a read or write blocked on one of its
    /// connections, the TLS handshake included, is interrupted by shutting
    /// the socket down), and every later fetch fails with it before it
    /// starts. Name resolution and the TCP connect in progress are not
    /// interrupted (the HTTP client cannot): they end within the timeout.
    /// Thread-safe; idempotent.
    /// <https://fetch.spec.whatwg.org/#fetch-controller-abort>
    pub fn abort(&self) {
        if !self.inner.aborted.swap(true, Ordering::SeqCst) {
            self.inner.agent.clone().shutdown();
        }
    }

    /// The Fetch Standard's fetch of a script-made request
    /// ([`crate::api_fetch::fetch`]) over this fetcher's hops, with the
    /// configuration's preflight cache. `cancelled` is polled before each
    /// hop (an `AbortSignal`).
    pub fn fetch_api(
        &self,
        request: crate::ApiRequest,
        cancelled: &dyn Fn() -> bool,
    ) -> Result<crate::ApiResponse, NetError> {
        crate::api_fetch::fetch(
            &|hop| self.fetch_hop(hop),
            &self.inner.config.preflight_cache,
            request,
            cancelled,
        )
    }

    /// Whether [`Fetcher::abort`] ran.
    pub fn is_aborted(&self) -> bool {
        self.inner.aborted.load(Ordering::SeqCst)
    }

    /// The configuration.
    pub fn config(&self) -> &NetConfig {
        &self.inner.config
    }

    /// Sends one request and returns its response, whatever the status: a
    /// redirect (3xx) is returned as is, for the caller to follow (the
    /// script fetch state machine decides each hop's `Origin` header and
    /// credentials). Fetch's "scheme fetch" for the non-HTTP schemes.
    /// <https://fetch.spec.whatwg.org/#scheme-fetch>
    pub fn fetch_hop(&self, request: &HopRequest) -> Result<RawResponse, NetError> {
        let url = &request.url;
        let config = &self.inner.config;
        if self.is_aborted() {
            return Err(NetError::Aborted { url: url.clone() });
        }
        let ok = |headers: HeaderList, body: Vec<u8>| RawResponse {
            url: url.clone(),
            status: 200,
            status_text: "OK".to_owned(),
            headers,
            body,
        };
        let with_body = request.method != Method::Head;
        // Scheme fetch, step 4: switch on request's current URL's scheme.
        match url.scheme() {
            "about" => {
                // "about": if the URL's path is the string "blank", return a
                // new response whose status message is `OK`, header list is «
                // (`Content-Type`, `text/html;charset=utf-8`) », and body is
                // the empty byte sequence; otherwise a network error.
                if url.path() == "blank" {
                    Ok(ok(
                        HeaderList::new().with("Content-Type", "text/html;charset=utf-8"),
                        Vec::new(),
                    ))
                } else {
                    Err(NetError::UnsupportedScheme { url: url.clone() })
                }
            }
            "blob" => {
                // "blob", step 1: Let blobURLEntry be request's current
                // URL's blob URL entry (resolved now, at fetch time).
                let entry = config.blob_store.resolve(url);
                // Step 2: If request's method is not `GET` or blobURLEntry
                // is null, then return a network error.
                if request.method != Method::Get {
                    return Err(NetError::InvalidRequest {
                        url: url.clone(),
                        reason: format!("{} of a blob: URL", request.method.as_str()),
                    });
                }
                let Some(entry) = entry else {
                    return Err(NetError::UnknownBlob { url: url.clone() });
                };
                // Steps 8-10: fullLength, serializedFullLength, type.
                // Step 11 (no `Range` header; ranges are not supported and
                // the whole blob is returned): status message `OK`, body,
                // header list « (`Content-Length`, serializedFullLength),
                // (`Content-Type`, type) ».
                let headers = HeaderList::new()
                    .with("Content-Length", entry.bytes.len().to_string())
                    .with("Content-Type", entry.mime_type.as_str());
                Ok(ok(headers, entry.bytes.to_vec()))
            }
            "data" => {
                // "data", step 1: Let dataURLStruct be the result of running
                // the data: URL processor on request's current URL.
                // Step 2: If dataURLStruct is failure, then return a network
                // error.
                let data = process_data_url(url).map_err(|e| NetError::BadDataUrl {
                    url: url.as_str().chars().take(100).collect(),
                    reason: e.reason(),
                })?;
                // Step 3: Let mimeType be dataURLStruct's MIME type,
                // serialized.
                // Step 4: Return a new response whose status message is `OK`,
                // header list is « (`Content-Type`, mimeType) », and body is
                // dataURLStruct's body as a body.
                let headers = HeaderList::new().with("Content-Type", data.mime_type.to_string());
                Ok(ok(headers, if with_body { data.body } else { Vec::new() }))
            }
            "file" => {
                let file = file::fetch_file(url, config.max_body, with_body)?;
                let mut headers = HeaderList::new();
                if let Some(content_type) = file.content_type {
                    headers.append("Content-Type", content_type);
                }
                Ok(ok(headers, file.body))
            }
            "http" | "https" => {
                // Main fetch, step 7: If should request be blocked due to a
                // bad port returns blocked, then set response to a network
                // error.
                if is_bad_port(url) {
                    return Err(NetError::BadPort { url: url.clone() });
                }
                // HTTP-network-or-cache fetch, step 8.11: If
                // includeCredentials is true, then: ... let cookies be the
                // result of running the "cookie-string" algorithm (RFC
                // 6265bis §5.8.3) with the user agent's cookie store and
                // httpRequest's current URL; if cookies is not the empty
                // string, append (`Cookie`, cookies) to httpRequest's
                // header list (a `Cookie` given by the caller is kept).
                let same_site = crate::cookies::is_same_site(url, request.initiator.as_ref());
                let context = CookieContext {
                    http: true,
                    same_site,
                    safe_top_level_navigation: request.initiator.is_none()
                        && matches!(request.method, Method::Get | Method::Head),
                };
                let with_cookie;
                let mut sent = request;
                if request.credentials
                    && !request
                        .headers
                        .iter()
                        .any(|(name, _)| name.eq_ignore_ascii_case("Cookie"))
                {
                    if let Some(cookies) = config.cookie_jar.cookie_string(url, context) {
                        let mut copy = request.clone();
                        copy.headers.push(("Cookie".to_owned(), cookies));
                        with_cookie = copy;
                        sent = &with_cookie;
                    }
                }
                // (A fetch the abort interrupted fails with an I/O error:
                // report the abort.)
                let response = http::fetch(&self.inner.agent, config, sent).map_err(|e| {
                    if self.is_aborted() {
                        NetError::Aborted { url: url.clone() }
                    } else {
                        e
                    }
                })?;
                // HTTP-network fetch, step 13: If includeCredentials is
                // true, the user agent should parse and store response's
                // `Set-Cookie` headers (RFC 6265bis §5.6-5.7): each line on
                // its own; a line the storage model ignores is dropped.
                if request.credentials {
                    for (name, value) in response.headers.iter() {
                        if name.eq_ignore_ascii_case("Set-Cookie") {
                            let line: String = value.iter().map(|&b| char::from(b)).collect();
                            let _ = config.cookie_jar.set_cookie(url, &line, context);
                        }
                    }
                }
                Ok(response)
            }
            _ => Err(NetError::UnsupportedScheme { url: url.clone() }),
        }
    }

    /// A `GET` of `url` with these extra headers that follows redirects:
    /// for navigations and simple subresources. See
    /// [`Fetcher::fetch_following_request`].
    pub fn fetch_following(
        &self,
        url: &Url,
        headers: &[(String, String)],
    ) -> Result<FollowedResponse, NetError> {
        let mut request = HopRequest::get(url.clone());
        request.headers = headers.to_vec();
        self.fetch_following_request(request)
    }

    /// Sends `request`, following redirects (Fetch's HTTP-redirect fetch
    /// with redirect mode "follow"): at most [`REDIRECT_LIMIT`], only to
    /// `http(s)` URLs; `POST` becomes `GET` on 301/302/303.
    /// <https://fetch.spec.whatwg.org/#http-redirect-fetch>
    pub fn fetch_following_request(
        &self,
        mut request: HopRequest,
    ) -> Result<FollowedResponse, NetError> {
        let mut url_list = vec![request.url.clone()];
        let mut redirect_count = 0;
        let mut seen = HashSet::from([request.url.clone()]);
        let mut looped_at = None;
        loop {
            let response = self.fetch_hop(&request)?;
            // Step 3: Let locationURL be internalResponse's location URL
            // given request's current URL's fragment.
            // Step 5: If locationURL is failure, then return a network error.
            // Step 4: If locationURL is null, then return response.
            let Some(location_url) = response.location_url()? else {
                return Ok(FollowedResponse { url_list, response });
            };
            // Step 6: If locationURL's scheme is not an HTTP(S) scheme, then
            // return a network error.
            if !is_http_scheme(&location_url) {
                return Err(NetError::RedirectToNonHttpScheme {
                    url: response.url,
                    location: location_url.into(),
                });
            }
            // Step 7: If request's redirect count is 20, then return a
            // network error.
            if redirect_count == REDIRECT_LIMIT {
                url_list.push(location_url);
                return Err(NetError::TooManyRedirects {
                    url_list,
                    looped_at,
                });
            }
            // Step 8: Increase request's redirect count by 1.
            redirect_count += 1;
            // Steps 9-10: CORS-mode credential checks: not for these
            // requests (no request mode "cors" here).
            // Step 11: request's body's source is never null here.
            // Step 12: If internalResponse's status is 301 or 302 and
            // request's method is `POST`, or internalResponse's status is 303
            // and request's method is not `GET` or `HEAD`, then: set
            // request's method to `GET` and request's body to null; remove
            // each request-body-header name from request's header list.
            if (matches!(response.status, 301 | 302) && request.method == Method::Post)
                || (response.status == 303 && !matches!(request.method, Method::Get | Method::Head))
            {
                request.method = Method::Get;
                request.body = None;
                request.headers.retain(|(name, _)| {
                    !REQUEST_BODY_HEADER_NAMES
                        .iter()
                        .any(|body_header| name.eq_ignore_ascii_case(body_header))
                });
            }
            // Step 13: If request's current URL's origin is not same origin
            // with locationURL's origin, then remove `Authorization` from
            // request's header list.
            if request.url.origin() != location_url.origin() {
                request
                    .headers
                    .retain(|(name, _)| !name.eq_ignore_ascii_case("Authorization"));
            }
            // Step 18: Append locationURL to request's URL list.
            if !seen.insert(location_url.clone()) && looped_at.is_none() {
                looped_at = Some(location_url.to_string());
            }
            url_list.push(location_url.clone());
            request.url = location_url;
            // Step 22: Return the result of running main fetch (the loop).
        }
    }
}
