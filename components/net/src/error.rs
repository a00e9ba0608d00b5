//! [`NetError`]: why a fetch failed, with a one-line [`Display`](fmt::Display)
//! that names the URL (or path) and the cause.

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use url::Url;

/// Why a fetch produced no response. Every variant is a *network error* in
/// Fetch's terms; an HTTP error status (404, 500...) is not an error here but
/// a [`RawResponse`](crate::RawResponse).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NetError {
    /// The URL's scheme is not one the loader fetches (`http`, `https`,
    /// `file`, `data`, `blob`, `about:blank`).
    UnsupportedScheme {
        /// The URL asked for.
        url: Url,
    },
    /// The request itself is malformed: a header name or value that cannot
    /// be sent, a URL the HTTP client cannot express, a method the scheme
    /// does not allow.
    InvalidRequest {
        /// The URL asked for.
        url: Url,
        /// What is wrong with it.
        reason: String,
    },
    /// The URL's port is a "bad port" Fetch never connects to.
    /// <https://fetch.spec.whatwg.org/#port-blocking>
    BadPort {
        /// The URL asked for.
        url: Url,
    },
    /// Name resolution failed (after the host rules were applied).
    Dns {
        /// The host name in the URL.
        host: String,
        /// The name that was looked up (differs from `host` when a host rule
        /// mapped it), or `~NOTFOUND` when a rule made it fail.
        resolved_as: String,
        /// The resolver's message.
        detail: String,
    },
    /// The fetch was aborted by its client ([`Fetcher::abort`](crate::Fetcher::abort):
    /// a terminated worker's fetches), in flight or before it started.
    /// <https://fetch.spec.whatwg.org/#fetch-controller-abort>
    Aborted {
        /// The URL asked for.
        url: Url,
    },
    /// The Fetch Standard's rules refuse the request or its response: a
    /// failed CORS check or preflight, a same-origin request to another
    /// origin, a redirect the redirect mode forbids, a
    /// `Cross-Origin-Resource-Policy` block.
    Blocked {
        /// The URL the rule applied to.
        url: Url,
        /// Which rule, in a few words.
        reason: String,
    },
    /// Nothing listens on the address (TCP connection refused).
    ConnectionRefused {
        /// The URL asked for.
        url: Url,
    },
    /// Another I/O error while connecting, sending or receiving.
    Connection {
        /// The URL asked for.
        url: Url,
        /// The I/O error.
        detail: String,
    },
    /// The TLS handshake failed.
    Tls {
        /// The URL asked for.
        url: Url,
        /// Which problem.
        problem: TlsProblem,
    },
    /// The server's answer is not valid HTTP/1.x.
    Protocol {
        /// The URL asked for.
        url: Url,
        /// The parser's message.
        detail: String,
    },
    /// The whole request (connect, send, headers and body) took longer than
    /// [`NetConfig::timeout`](crate::NetConfig::timeout).
    Timeout {
        /// The URL asked for.
        url: Url,
        /// The configured timeout.
        after: Duration,
    },
    /// The body is larger than [`NetConfig::max_body`](crate::NetConfig::max_body).
    BodyTooLarge {
        /// The URL asked for.
        url: Url,
        /// The configured limit in bytes.
        limit: usize,
    },
    /// More than [`REDIRECT_LIMIT`](crate::REDIRECT_LIMIT) redirects.
    TooManyRedirects {
        /// The chain: the URL the fetch started at, each redirect target,
        /// and last the target of the redirect that was one too many.
        url_list: Vec<Url>,
        /// The first URL that appears twice in the chain, if any: a
        /// redirect loop.
        looped_at: Option<String>,
    },
    /// A redirect's `Location` is not a URL, or appears more than once.
    InvalidRedirectLocation {
        /// The redirecting response's URL.
        url: Url,
        /// The `Location` value(s).
        location: String,
    },
    /// A redirect to a scheme other than `http`/`https`.
    RedirectToNonHttpScheme {
        /// The redirecting response's URL.
        url: Url,
        /// Where it pointed.
        location: String,
    },
    /// A `data:` URL the data: URL processor rejects.
    BadDataUrl {
        /// The URL, truncated to 100 characters.
        url: String,
        /// Why.
        reason: &'static str,
    },
    /// A `blob:` URL with no entry in the [`BlobStore`](crate::BlobStore):
    /// never registered, revoked, or from another store.
    UnknownBlob {
        /// The URL asked for.
        url: Url,
    },
    /// A `file:` URL that is not a local path (e.g. it has a host).
    BadFileUrl {
        /// The URL asked for.
        url: Url,
    },
    /// The file does not exist.
    FileNotFound {
        /// The path.
        path: PathBuf,
    },
    /// The path is a directory; directory listings are not served.
    FileIsDirectory {
        /// The path.
        path: PathBuf,
    },
    /// Another error reading the file (permissions...).
    FileRead {
        /// The path.
        path: PathBuf,
        /// The I/O error.
        detail: String,
    },
    /// [`NetConfig::ca_file`](crate::NetConfig::ca_file) cannot be used.
    CaFile {
        /// The path.
        path: PathBuf,
        /// Why.
        detail: String,
    },
}

/// What went wrong in a TLS handshake.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TlsProblem {
    /// The certificate chain does not lead to a trusted root (self-signed,
    /// or signed by a CA that is neither in the bundled roots nor in
    /// [`NetConfig::ca_file`](crate::NetConfig::ca_file)).
    UnknownIssuer,
    /// The certificate is not valid for the URL's host name.
    NotValidForName,
    /// The certificate has expired.
    Expired,
    /// The certificate is not valid yet.
    NotValidYet,
    /// The certificate was revoked.
    Revoked,
    /// Another certificate problem (bad signature, bad encoding...).
    BadCertificate(String),
    /// The handshake failed for a reason other than the certificate (no
    /// common protocol version or cipher suite, an alert...).
    Handshake(String),
}

impl fmt::Display for TlsProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TlsProblem::UnknownIssuer => f.write_str(
                "certificate is not trusted (unknown issuer or self-signed; \
                 pass a CA file or accept invalid certificates)",
            ),
            TlsProblem::NotValidForName => {
                f.write_str("certificate is not valid for this host name")
            }
            TlsProblem::Expired => f.write_str("certificate has expired"),
            TlsProblem::NotValidYet => f.write_str("certificate is not valid yet"),
            TlsProblem::Revoked => f.write_str("certificate has been revoked"),
            TlsProblem::BadCertificate(detail) => write!(f, "bad certificate: {detail}"),
            TlsProblem::Handshake(detail) => write!(f, "handshake failed: {detail}"),
        }
    }
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::UnsupportedScheme { url } => {
                write!(f, "unsupported URL scheme {:?} in {url}", url.scheme())
            }
            NetError::InvalidRequest { url, reason } => {
                write!(f, "invalid request for {url}: {reason}")
            }
            NetError::Aborted { url } => write!(f, "fetch of {url} aborted"),
            NetError::Blocked { url, reason } => write!(f, "blocked: {reason} ({url})"),
            NetError::Dns {
                host,
                resolved_as,
                detail,
            } => {
                if host == resolved_as {
                    write!(f, "DNS lookup of {host} failed: {detail}")
                } else {
                    write!(
                        f,
                        "DNS lookup of {host} (mapped to {resolved_as}) failed: {detail}"
                    )
                }
            }
            NetError::BadPort { url } => {
                write!(
                    f,
                    "blocked: port {} is a bad port ({url})",
                    url.port().unwrap_or(0)
                )
            }
            NetError::ConnectionRefused { url } => write!(f, "connection refused: {url}"),
            NetError::Connection { url, detail } => {
                write!(f, "connection error fetching {url}: {detail}")
            }
            NetError::Tls { url, problem } => write!(f, "TLS error fetching {url}: {problem}"),
            NetError::Protocol { url, detail } => {
                write!(f, "malformed HTTP response from {url}: {detail}")
            }
            NetError::Timeout { url, after } => {
                write!(f, "timed out after {after:?} fetching {url}")
            }
            NetError::BodyTooLarge { url, limit } => {
                write!(
                    f,
                    "response body of {url} is larger than the {limit}-byte limit"
                )
            }
            NetError::TooManyRedirects {
                url_list,
                looped_at,
            } => {
                let first = url_list.first().map(Url::as_str).unwrap_or("");
                match looped_at {
                    Some(looped) => write!(
                        f,
                        "redirect loop fetching {first}: {looped} is reached again \
                         (stopped after {} redirects)",
                        crate::REDIRECT_LIMIT
                    ),
                    None => write!(
                        f,
                        "too many redirects fetching {first} (more than {}, last to {})",
                        crate::REDIRECT_LIMIT,
                        url_list.last().map(Url::as_str).unwrap_or("")
                    ),
                }
            }
            NetError::InvalidRedirectLocation { url, location } => {
                write!(f, "invalid redirect Location {location:?} from {url}")
            }
            NetError::RedirectToNonHttpScheme { url, location } => {
                write!(f, "redirect from {url} to non-HTTP(S) URL {location}")
            }
            NetError::BadDataUrl { url, reason } => write!(f, "bad data: URL {url}: {reason}"),
            NetError::UnknownBlob { url } => {
                write!(f, "unknown blob: URL {url} (never registered or revoked)")
            }
            NetError::BadFileUrl { url } => write!(f, "file: URL {url} is not a local path"),
            NetError::FileNotFound { path } => write!(f, "file not found: {}", path.display()),
            NetError::FileIsDirectory { path } => {
                write!(f, "file: URL names a directory: {}", path.display())
            }
            NetError::FileRead { path, detail } => {
                write!(f, "cannot read {}: {detail}", path.display())
            }
            NetError::CaFile { path, detail } => {
                write!(f, "cannot use CA file {}: {detail}", path.display())
            }
        }
    }
}

impl std::error::Error for NetError {}
