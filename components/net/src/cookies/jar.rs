//! The cookie store: the storage model (RFC 6265bis §5.7) and the
//! retrieval algorithm (§5.8).

use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use url::Url;

use super::matching::{canonical_host, default_path, domain_match, is_secure_scheme, path_match};
use super::parse::parse_set_cookie;
use super::{Cookie, CookieContext, CookieRejected, SameSite, MAX_COOKIES};

#[derive(Debug, Default)]
struct Store {
    cookies: Vec<Cookie>,
    counter: u64,
}

/// The cookie store: thread-safe, shared behind an `Arc`.
#[derive(Debug, Default)]
pub struct CookieJar {
    store: Mutex<Store>,
}

/// Seconds since the Unix epoch.
fn now_seconds() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

fn starts_with_ignore_case(s: &str, prefix: &str) -> bool {
    s.len() >= prefix.len()
        && s.is_char_boundary(prefix.len())
        && s[..prefix.len()].eq_ignore_ascii_case(prefix)
}

impl CookieJar {
    /// An empty jar.
    pub fn new() -> CookieJar {
        CookieJar::default()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Store> {
        self.store.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Receives one `Set-Cookie` line (or a `document.cookie` assignment
    /// when `context.http` is false) for `url`: the storage model.
    pub fn set_cookie(
        &self,
        url: &Url,
        line: &str,
        context: CookieContext,
    ) -> Result<(), CookieRejected> {
        self.set_cookie_at(url, line, context, now_seconds())
    }

    /// [`CookieJar::set_cookie`] at a given time (seconds since the Unix
    /// epoch).
    /// <https://httpwg.org/http-extensions/draft-ietf-httpbis-rfc6265bis.html#name-storage-model>
    pub(crate) fn set_cookie_at(
        &self,
        url: &Url,
        line: &str,
        context: CookieContext,
        now: i64,
    ) -> Result<(), CookieRejected> {
        let parsed = parse_set_cookie(line, now)?;
        let host = canonical_host(url).ok_or(CookieRejected::NoHost)?;
        let secure_scheme = is_secure_scheme(url);
        let mut store = self.lock();
        // Step 1 (ignoring the cookie entirely by policy): not done.
        // Step 2: Let cookie-attribute-list be the collection of cookie
        // attribute-name-value pairs (parsed above).
        // Step 3: Create a new cookie with name cookie-name, value
        // cookie-value. Set the creation-time and the last-access-time to
        // the current date and time.
        store.counter += 1;
        let creation = store.counter;
        // Step 4: If the list contains Max-Age, the persistent-flag is true
        // and the expiry-time the last Max-Age's; otherwise, if it has
        // Expires, the last Expires'; otherwise the persistent-flag is
        // false and the expiry-time the latest representable date.
        let expiry = parsed.max_age.or(parsed.expires);
        // Step 5: If the list contains Domain, let the domain-attribute be
        // the value of the last one; otherwise the empty string.
        let domain_attribute = parsed.domain.clone().unwrap_or_default();
        // Steps 6-9 (public suffixes): not done, see the module
        // documentation.
        // Step 10: If the domain-attribute is non-empty: if the
        // canonicalized request-host does not domain-match it, ignore the
        // cookie entirely; otherwise host-only false, domain the
        // domain-attribute. Otherwise host-only true, domain the
        // canonicalized request-host.
        let (host_only, domain) = if domain_attribute.is_empty() {
            (true, host.clone())
        } else {
            if !domain_match(&host, &domain_attribute) {
                return Err(CookieRejected::DomainMismatch);
            }
            (false, domain_attribute)
        };
        // Step 11: If the list contains Path, the cookie's path is the last
        // one's value; otherwise the default-path of the request-uri.
        let path = parsed.path.clone().unwrap_or_else(|| default_path(url));
        // Step 12: secure-only-flag: whether the list contains Secure.
        // Step 13: If the scheme of the request-uri is not secure and the
        // secure-only-flag is true, ignore the cookie entirely.
        if parsed.secure && !secure_scheme {
            return Err(CookieRejected::Insecure);
        }
        // Step 14: http-only-flag: whether the list contains HttpOnly.
        // Step 15: If the cookie came from a non-HTTP API and the
        // http-only-flag is true, ignore the cookie entirely.
        if parsed.http_only && !context.http {
            return Err(CookieRejected::HttpOnly);
        }
        // Step 16: If the secure-only-flag is false and the scheme is not
        // secure, ignore the cookie if the store has a cookie with the same
        // name, secure-only true, domains domain-matching either way, and
        // whose path path-matches this cookie's path.
        if !parsed.secure
            && !secure_scheme
            && store.cookies.iter().any(|old| {
                old.name == parsed.name
                    && old.secure_only
                    && (domain_match(&domain, &old.domain) || domain_match(&old.domain, &domain))
                    && path_match(&path, &old.path)
            })
        {
            return Err(CookieRejected::Insecure);
        }
        // Step 17: The same-site-flag is the last SameSite attribute's
        // enforcement, "Default" without one.
        let same_site = parsed.same_site.unwrap_or(SameSite::Default);
        // Step 18: If the same-site-flag is not "None" and the cookie is
        // set from a cross-site context, ignore it (a cross-site top-level
        // navigation may set Lax/Default cookies).
        if same_site != SameSite::None
            && !context.same_site
            && !(context.safe_top_level_navigation && same_site != SameSite::Strict)
        {
            return Err(CookieRejected::SameSite);
        }
        // Step 19: If the same-site-flag is "None" and the secure-only-flag
        // is false, ignore the cookie entirely.
        if same_site == SameSite::None && !parsed.secure {
            return Err(CookieRejected::SameSite);
        }
        // Step 20: A cookie-name starting with "__Secure-"
        // (case-insensitively) needs the secure-only-flag.
        if starts_with_ignore_case(&parsed.name, "__Secure-") && !parsed.secure {
            return Err(CookieRejected::Prefix);
        }
        // Step 21: A cookie-name starting with "__Host-" needs the
        // secure-only-flag, host-only, and the path "/" (from a Path
        // attribute).
        if starts_with_ignore_case(&parsed.name, "__Host-")
            && !(parsed.secure && host_only && parsed.path.as_deref() == Some("/"))
        {
            return Err(CookieRejected::Prefix);
        }
        // Step 22: An empty cookie-name whose value starts with "__Secure-"
        // or "__Host-" is ignored.
        if parsed.name.is_empty()
            && (starts_with_ignore_case(&parsed.value, "__Secure-")
                || starts_with_ignore_case(&parsed.value, "__Host-"))
        {
            return Err(CookieRejected::Prefix);
        }
        // Step 23: If the store has a cookie with the same name, domain,
        // host-only-flag and path: if the new one comes from a non-HTTP API
        // and the old one is http-only, ignore the new one; otherwise the
        // new one keeps the old one's creation-time and the old one is
        // removed.
        let mut creation = creation;
        if let Some(index) = store.cookies.iter().position(|old| {
            old.name == parsed.name
                && old.domain == domain
                && old.host_only == host_only
                && old.path == path
        }) {
            if !context.http && store.cookies[index].http_only {
                return Err(CookieRejected::HttpOnly);
            }
            creation = store.cookies.remove(index).creation;
        }
        // Step 24: Insert the newly-created cookie into the cookie store.
        let last_access = store.counter;
        store.cookies.push(Cookie {
            name: parsed.name,
            value: parsed.value,
            expiry,
            domain,
            path,
            creation,
            last_access,
            host_only,
            secure_only: parsed.secure,
            http_only: parsed.http_only,
            same_site,
        });
        // Remove every expired cookie (a cookie set already expired, as
        // `Max-Age=0` does, deletes its namesake and is itself removed),
        // then evict the least recently accessed past the limit.
        store.cookies.retain(|c| c.expiry.is_none_or(|e| e > now));
        while store.cookies.len() > MAX_COOKIES {
            let oldest = (0..store.cookies.len())
                .min_by_key(|&i| store.cookies[i].last_access)
                .unwrap_or(0);
            store.cookies.remove(oldest);
        }
        Ok(())
    }

    /// The `Cookie` header value for a request to `url` (or the
    /// `document.cookie` string when `context.http` is false), `None` if
    /// no cookie applies.
    pub fn cookie_string(&self, url: &Url, context: CookieContext) -> Option<String> {
        self.cookie_string_at(url, context, now_seconds())
    }

    /// [`CookieJar::cookie_string`] at a given time.
    /// <https://httpwg.org/http-extensions/draft-ietf-httpbis-rfc6265bis.html#name-retrieval-algorithm>
    pub(crate) fn cookie_string_at(
        &self,
        url: &Url,
        context: CookieContext,
        now: i64,
    ) -> Option<String> {
        let host = canonical_host(url)?;
        let secure_scheme = is_secure_scheme(url);
        let mut store = self.lock();
        store.cookies.retain(|c| c.expiry.is_none_or(|e| e > now));
        store.counter += 1;
        let access = store.counter;
        // Step 1: Let cookie-list be the set of cookies from the cookie
        // store that meet all of the following requirements:
        let mut list: Vec<&mut Cookie> = store
            .cookies
            .iter_mut()
            .filter(|cookie| {
                // * Either the host-only-flag is true and the canonicalized
                //   host of the retrieval's URI is identical to the
                //   domain, or it is false and the host domain-matches it.
                let host_ok = if cookie.host_only {
                    host == cookie.domain
                } else {
                    domain_match(&host, &cookie.domain)
                };
                // * The retrieval's URI's path path-matches the path.
                // * If the secure-only-flag is true, the URI's scheme is
                //   secure.
                // * If the http-only-flag is true, the retrieval is from an
                //   HTTP API.
                // * If the same-site-flag is not "None" and the retrieval
                //   is cross-site: "Strict" excludes it; "Lax"/"Default"
                //   exclude it unless a safe top-level navigation.
                let same_site_ok = context.same_site
                    || match cookie.same_site {
                        SameSite::None => true,
                        SameSite::Strict => false,
                        SameSite::Lax | SameSite::Default => context.safe_top_level_navigation,
                    };
                host_ok
                    && path_match(url.path(), &cookie.path)
                    && (!cookie.secure_only || secure_scheme)
                    && (!cookie.http_only || context.http)
                    && same_site_ok
            })
            .collect();
        if list.is_empty() {
            return None;
        }
        // Step 2: Sort the cookie-list: longer paths first, then earlier
        // creation-times.
        list.sort_by(|a, b| {
            b.path
                .len()
                .cmp(&a.path.len())
                .then(a.creation.cmp(&b.creation))
        });
        // Step 3: Update the last-access-time of each cookie in the list.
        // Step 4: Serialize: each cookie's name, "=" and value (the name
        // and "=" left out when the name is empty), joined by "; ".
        let mut out = String::new();
        for cookie in list {
            cookie.last_access = access;
            if !out.is_empty() {
                out.push_str("; ");
            }
            if !cookie.name.is_empty() {
                out.push_str(&cookie.name);
                out.push('=');
            }
            out.push_str(&cookie.value);
        }
        Some(out)
    }

    /// Every stored cookie (expired ones included until the next access),
    /// for tests and diagnostics.
    pub fn cookies(&self) -> Vec<Cookie> {
        self.lock().cookies.clone()
    }
}
