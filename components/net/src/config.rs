//! [`NetConfig`]: how a [`Fetcher`](crate::Fetcher) connects.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use crate::api_fetch::PreflightCache;
use crate::{BlobStore, CookieJar, HostRules};

/// The default [`NetConfig::timeout`]: 30 seconds.
pub(crate) const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// The default [`NetConfig::max_body`]: 64 MiB.
pub const DEFAULT_MAX_BODY: usize = 64 * 1024 * 1024;

/// The SpiderMonkey release the shell embeds (the `mozjs_sys` crate's
/// version without its build suffix), as the user agent string names it.
/// The script crate checks it against `JS_GetImplementationVersion()` in
/// a test, so the two cannot drift apart.
pub const SPIDERMONKEY_VERSION: &str = "153.6.0";

/// The platform part of the user agent string and of `navigator.platform`
/// (<https://html.spec.whatwg.org/multipage/system-state.html#dom-navigator-platform>:
/// "Linux x86_64", "MacIntel", "Win32", as browsers say on these systems).
pub fn platform() -> String {
    match std::env::consts::OS {
        "macos" => "MacIntel".to_owned(),
        "windows" => "Win32".to_owned(),
        "linux" => format!("Linux {}", std::env::consts::ARCH),
        other => format!("{other} {}", std::env::consts::ARCH),
    }
}

/// The "default `User-Agent` value"
/// (<https://html.spec.whatwg.org/multipage/system-state.html#default-user-agent-value>):
/// browsers' "Mozilla/5.0 (platform)" prefix, then the shell and
/// SpiderMonkey with their versions. The one string both the HTTP
/// `User-Agent` header ([`NetConfig::user_agent`]'s default) and
/// `navigator.userAgent` use.
pub fn default_user_agent() -> &'static str {
    static USER_AGENT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    USER_AGENT.get_or_init(|| {
        let system = match std::env::consts::OS {
            "macos" => "Macintosh; Intel Mac OS X 10_15_7".to_owned(),
            "windows" => "Windows NT 10.0; Win64; x64".to_owned(),
            _ => format!("X11; {}", platform()),
        };
        format!(
            "Mozilla/5.0 ({system}) jsprof-shell/{} SpiderMonkey/{SPIDERMONKEY_VERSION}",
            env!("CARGO_PKG_VERSION")
        )
    })
}

/// How a [`Fetcher`](crate::Fetcher) resolves, connects and limits.
/// `NetConfig::default()` resolves normally, trusts the bundled Mozilla
/// roots, and has a fresh [`BlobStore`].
#[derive(Clone, Debug)]
pub struct NetConfig {
    /// Host-resolver rules (`MAP web-platform.test 127.0.0.1`): change where
    /// connections go, never the URL, `Host` header or TLS server name.
    pub host_rules: HostRules,
    /// A PEM file of CA certificates to trust *instead of* the bundled
    /// Mozilla roots (like `curl --cacert`): for the test server's generated
    /// CA. Read once, by [`Fetcher::new`](crate::Fetcher::new).
    pub ca_file: Option<PathBuf>,
    /// Accept any server certificate (self-signed, expired, wrong name):
    /// for loopback tests only. Overrides `ca_file`.
    pub accept_invalid_certs: bool,
    /// The most one request may take, from name resolution to the end of
    /// the body ([`NetError::Timeout`](crate::NetError::Timeout)). For
    /// `http(s)` only.
    pub timeout: Duration,
    /// The largest body accepted, in bytes
    /// ([`NetError::BodyTooLarge`](crate::NetError::BodyTooLarge)); applies
    /// to `http(s)` and `file:` (`data:` and `blob:` bodies are already in
    /// memory).
    pub max_body: usize,
    /// The blob URL store `blob:` URLs resolve in: share the script side's.
    pub blob_store: Arc<BlobStore>,
    /// The `User-Agent` request header ([`default_user_agent`] by default,
    /// the string `navigator.userAgent` returns).
    pub user_agent: String,
    /// The cookie store (RFC 6265bis), shared by every fetcher made from
    /// this configuration and by `document.cookie`.
    pub cookie_jar: Arc<CookieJar>,
    /// The CORS-preflight cache, shared like the cookie jar.
    pub preflight_cache: Arc<PreflightCache>,
}

impl Default for NetConfig {
    fn default() -> Self {
        NetConfig {
            host_rules: HostRules::default(),
            ca_file: None,
            accept_invalid_certs: false,
            timeout: DEFAULT_TIMEOUT,
            max_body: DEFAULT_MAX_BODY,
            blob_store: Arc::new(BlobStore::new()),
            user_agent: default_user_agent().to_owned(),
            cookie_jar: Arc::new(CookieJar::new()),
            preflight_cache: Arc::new(PreflightCache::new()),
        }
    }
}
