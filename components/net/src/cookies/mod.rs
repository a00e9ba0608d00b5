//! [`CookieJar`]: the process's in-memory cookie store, per
//! [RFC 6265bis](https://httpwg.org/http-extensions/draft-ietf-httpbis-rfc6265bis.html)
//! (draft 20): parsing `Set-Cookie` (§5.6), the storage model (§5.7) and
//! the retrieval of the `Cookie` header and of `document.cookie` (§5.8).
//!
//! Shared by every [`Fetcher`](crate::Fetcher) made from one
//! [`NetConfig`](crate::NetConfig) (clones and worker loaders included) and
//! by `document.cookie`.
//!
//! Deviations, all on the safe side:
//! * No public suffix list: a `Domain` attribute naming a public suffix
//!   (`Domain=com`) is not rejected by step 9 of the storage model.
//!   "Same site" is decided as "same host" (as `jsprof_document`'s CORP
//!   check does), a subset of what same-site allows, never more.
//! * "Secure" schemes are `https` and `wss` only (Chromium also treats
//!   `http://localhost` as secure).
//! * At most 3,000 cookies (`MAX_COOKIES`) are kept: the least recently
//!   used go first (§5.7's "excess cookies" is left to the user agent).
//! * Nothing persists past the process.
//!
//! The module's parts: [`CookieJar`] (the storage model and the retrieval
//! algorithm, `jar.rs`), the `Set-Cookie` parser (`parse.rs`), the
//! cookie-date parser (`date.rs`), and domain, path and same-site matching
//! (`matching.rs`).

mod date;
mod jar;
mod matching;
mod parse;
#[cfg(test)]
mod tests;

pub use jar::CookieJar;
pub(crate) use matching::is_same_site;

/// The most cookies the jar keeps (§5.7 lets the user agent evict).
pub(crate) const MAX_COOKIES: usize = 3000;

/// The longest a cookie lives: 400 days (§5.6.1 and §5.6.2 cap `Expires`
/// and `Max-Age` to it).
const MAX_AGE_CAP: i64 = 400 * 24 * 60 * 60;

/// A `SameSite` attribute's enforcement (§5.6.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SameSite {
    /// `None`: sent on cross-site requests (needs `Secure`).
    None,
    /// `Strict`: same-site requests only.
    Strict,
    /// `Lax`: same-site requests and top-level navigations with a safe
    /// method.
    Lax,
    /// No valid attribute: enforced as `Lax` (§5.8.3, "Default").
    Default,
}

/// One stored cookie (§5.7's cookie record).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cookie {
    /// The name.
    pub name: String,
    /// The value.
    pub value: String,
    /// The expiry time, in seconds since the Unix epoch; `None` for a
    /// session cookie (persistent-flag false).
    pub expiry: Option<i64>,
    /// The domain (the request host for a host-only cookie).
    pub domain: String,
    /// The path.
    pub path: String,
    /// Creation time (a counter: only the order matters).
    creation: u64,
    /// Last access (a counter), for eviction.
    last_access: u64,
    /// Whether only the exact host gets it.
    pub host_only: bool,
    /// `Secure`.
    pub secure_only: bool,
    /// `HttpOnly`: not visible to `document.cookie`.
    pub http_only: bool,
    /// `SameSite`.
    pub same_site: SameSite,
}

/// Where a cookie is set or read from, for the storage and retrieval
/// rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CookieContext {
    /// From an HTTP API (`Set-Cookie`, `Cookie`) rather than a non-HTTP one
    /// (`document.cookie`).
    pub http: bool,
    /// Whether the request is same-site with its initiator (§5.2).
    pub same_site: bool,
    /// A top-level navigation with a safe method (lets `Lax` cookies go
    /// cross-site, §5.8.3 step 2.4).
    pub safe_top_level_navigation: bool,
}

impl CookieContext {
    /// A same-site HTTP request.
    pub const HTTP_SAME_SITE: CookieContext = CookieContext {
        http: true,
        same_site: true,
        safe_top_level_navigation: false,
    };
    /// `document.cookie` (always same-site with its own document).
    pub const SCRIPT: CookieContext = CookieContext {
        http: false,
        same_site: true,
        safe_top_level_navigation: false,
    };
}

/// Why a `Set-Cookie` line (or `document.cookie` assignment) stored
/// nothing: the "ignore the cookie" exits of §5.6 and §5.7, for tests and
/// diagnostics. An ignored cookie is not an error for the response.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CookieRejected {
    /// A control character (§5.6 step 1).
    ControlCharacter,
    /// Empty name and value (§5.6 step 5).
    Empty,
    /// Name and value longer than 4096 bytes (§5.6 step 6).
    TooLong,
    /// `Domain` does not domain-match the request host (§5.7 step 10).
    DomainMismatch,
    /// `Secure` from an insecure scheme, or a secure cookie's name taken
    /// from an insecure scheme (§5.7 steps 13, 16).
    Insecure,
    /// `HttpOnly` from `document.cookie`, or overwriting an `HttpOnly`
    /// cookie from it (§5.7 steps 15, 23).
    HttpOnly,
    /// A `SameSite` cookie set by a cross-site request, or `SameSite=None`
    /// without `Secure` (§5.7 steps 18-19).
    SameSite,
    /// A `__Secure-` or `__Host-` prefix whose rules are not met (§5.7
    /// steps 20-22).
    Prefix,
    /// The URL has no host (`data:`, `file:`...), or is an opaque origin.
    NoHost,
}
