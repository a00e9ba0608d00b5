//! The shell's loading layer: fetches documents and subresources over
//! `http:`/`https:` (HTTP/1.1, rustls), `file:`, `data:`, `blob:` and
//! `about:blank`. (The loopback HTTP/HTTPS server the tests use is the
//! dev-only crate `jsprof-test-server`.)
//!
//! # Use
//!
//! ```no_run
//! use std::sync::Arc;
//! use jsprof_net::{Fetcher, HopRequest, HostRules, NetConfig, BlobStore};
//! use url::Url;
//!
//! let blobs = Arc::new(BlobStore::new());
//! let fetcher = Fetcher::new(NetConfig {
//!     host_rules: HostRules::parse("MAP *web-platform.test 127.0.0.1").unwrap(),
//!     blob_store: blobs.clone(),
//!     ..NetConfig::default()
//! })?;
//! // A navigation: follows redirects.
//! let page = fetcher.fetch_following(&Url::parse("http://web-platform.test:8000/")?, &[])?;
//! assert_eq!(page.url_list.last(), Some(&page.response.url));
//! // One hop, as the script fetch state machine asks: 3xx come back as is.
//! let hop = fetcher.fetch_hop(
//!     &HopRequest::get(Url::parse("http://web-platform.test:8000/a.js")?)
//!         .with_header("Origin", "http://web-platform.test:8000"),
//! )?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! * [`Fetcher::fetch_hop`]: one request, no redirect following. The
//!   script side drives `jsprof_document::fetch_classic_script` with it:
//!   `HopRequest::from(pending.request())`, then
//!   `pending.process_response(&response.response_info())`, or all at once
//!   with [`Fetcher::fetch_classic_script`].
//! * [`Fetcher::fetch_following`] / [`Fetcher::fetch_following_request`]:
//!   follow redirects (at most [`REDIRECT_LIMIT`]), with the URL list.
//! * Every failure is a [`NetError`] whose `Display` is one line naming
//!   the URL and the cause (DNS, refused, TLS problem, timeout, redirects,
//!   bad `data:`, unknown `blob:`, missing file...). An HTTP error status is
//!   a response, not an error. Bad input never panics.
//!
//! The API is blocking: run fetches on a worker thread to keep an event
//! loop responsive. A [`Fetcher`] is `Clone + Send + Sync` and pools
//! connections.
//!
//! # Configuration ([`NetConfig`])
//!
//! * [`HostRules`]: `MAP <pattern> <replacement>` / `EXCLUDE <pattern>`
//!   rules like Chromium's `--host-resolver-rules`; they change name
//!   resolution only, never the URL, the `Host` header or the TLS name.
//! * `ca_file` (trust exactly these PEM roots instead of the bundled Mozilla
//!   roots) or `accept_invalid_certs` (no verification; loopback tests).
//! * `timeout` (whole request, for `http(s)`), `max_body` (bytes, for
//!   `http(s)` and `file:`).
//! * `blob_store`: the [`BlobStore`] `blob:` URLs resolve in, shared with
//!   the script side (`URL.createObjectURL`).
//!
//! # Not done
//!
//! HTTP caching,
//! HTTP/2, proxies (environment proxy variables are ignored), compression
//! (no `Accept-Encoding` is sent), `Range` requests for `blob:`.
//!
//! # Script-made requests and cookies
//!
//! * [`api_fetch::fetch`] / [`Fetcher::fetch_api`]: the Fetch Standard's
//!   fetch for `fetch()` and `XMLHttpRequest`: modes, CORS check (the
//!   `jsprof_document` one script elements use), CORS preflight and its
//!   cache, redirect modes, filtered (basic/cors/opaque) responses.
//! * [`CookieJar`] (RFC 6265bis): `Set-Cookie` stored and `Cookie` sent
//!   on credentialed `http(s)` hops, shared through [`NetConfig`].

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod api_fetch;
pub mod blob;
pub mod config;
pub mod cookies;
pub mod data_url;
pub mod error;
pub mod fetch;
pub mod file;
pub mod hosts;
mod http;
pub use jsprof_document::mime;
pub mod script_fetch;

pub use api_fetch::{
    ApiRequest, ApiResponse, PreflightCache, RedirectMode, RequestMode, ResponseType,
};
pub use blob::{BlobCreator, BlobEntry, BlobStore};
pub use config::{default_user_agent, platform, NetConfig, SPIDERMONKEY_VERSION};
pub use cookies::{CookieContext, CookieJar, CookieRejected};
pub use data_url::{process_data_url, DataUrl, DataUrlError};
pub use error::{NetError, TlsProblem};
pub use fetch::{Fetcher, FollowedResponse, HopRequest, Method, RawResponse, REDIRECT_LIMIT};
pub use file::content_type_for_path;
pub use hosts::{HostResolution, HostRules, HostRulesError};
pub use mime::{extract_mime_type, MimeType};
pub use script_fetch::ClassicScriptFetch;
pub use url::Url;
