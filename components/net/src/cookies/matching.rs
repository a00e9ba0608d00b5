//! Hosts, domains, paths and sites: what decides whether a cookie applies
//! to a URL (RFC 6265bis §5.1.2-5.1.4, §5.2).

use url::{Host, Url};

/// Whether `url`'s scheme is one the jar treats as secure.
pub(super) fn is_secure_scheme(url: &Url) -> bool {
    matches!(url.scheme(), "https" | "wss")
}

/// The canonicalized host name of `url` (§5.1.2: lowercase, IDNA already
/// applied by the URL parser), `None` if it has none.
pub(super) fn canonical_host(url: &Url) -> Option<String> {
    match url.host()? {
        Host::Domain(domain) if !domain.is_empty() => Some(domain.to_ascii_lowercase()),
        Host::Domain(_) => None,
        Host::Ipv4(ip) => Some(ip.to_string()),
        Host::Ipv6(ip) => Some(format!("[{ip}]")),
    }
}

/// <https://httpwg.org/http-extensions/draft-ietf-httpbis-rfc6265bis.html#name-domain-matching>
pub(crate) fn domain_match(string: &str, domain_string: &str) -> bool {
    // The domain string and the string are identical.
    if string == domain_string {
        return true;
    }
    // Or all of: the domain string is a suffix of the string; the last
    // character of the string that is not included in the domain string is
    // "."; the string is a host name (not an IP address).
    let is_ip = string.parse::<std::net::IpAddr>().is_ok() || string.starts_with('[');
    !is_ip
        && string.len() > domain_string.len()
        && string.ends_with(domain_string)
        && string.as_bytes()[string.len() - domain_string.len() - 1] == b'.'
}

/// <https://httpwg.org/http-extensions/draft-ietf-httpbis-rfc6265bis.html#name-paths-and-path-match>:
/// the default-path of `url`.
pub(crate) fn default_path(url: &Url) -> String {
    // Step 1: Let uri-path be the path portion of the request-uri.
    let uri_path = url.path();
    // Step 2: If uri-path is empty or if the first character is not "/",
    // output "/".
    // Step 3: If uri-path contains no more than one "/", output "/".
    if !uri_path.starts_with('/') || uri_path.matches('/').count() <= 1 {
        return "/".to_owned();
    }
    // Step 4: Output the characters of the uri-path from the first
    // character up to, but not including, the right-most "/".
    let last = uri_path.rfind('/').unwrap_or(0);
    uri_path[..last].to_owned()
}

/// Path-match (same section): whether `request_path` path-matches
/// `cookie_path`.
pub(crate) fn path_match(request_path: &str, cookie_path: &str) -> bool {
    // The cookie-path and the request-path are identical.
    if request_path == cookie_path {
        return true;
    }
    // Or the cookie-path is a prefix of the request-path, and either the
    // last character of the cookie-path is "/" or the first character of
    // the request-path that is not included in the cookie-path is "/".
    request_path.starts_with(cookie_path)
        && (cookie_path.ends_with('/') || request_path.as_bytes()[cookie_path.len()] == b'/')
}

/// Whether a request to `url` initiated by `initiator` is same-site
/// (§5.2, decided as same scheme class and same host; see the module
/// documentation). `None` (no initiator: a navigation typed by the user,
/// the shell's own load) is same-site.
pub(crate) fn is_same_site(url: &Url, initiator: Option<&url::Origin>) -> bool {
    match initiator {
        None => true,
        Some(url::Origin::Opaque(_)) => false,
        Some(url::Origin::Tuple(_, host, _)) => url.host().is_some_and(|h| h.to_owned() == *host),
    }
}
