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
//! * At most [`MAX_COOKIES`] cookies are kept: the least recently used go
//!   first (§5.7's "excess cookies" is left to the user agent).
//! * Nothing persists past the process.

use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use url::{Host, Url};

/// The most cookies the jar keeps (§5.7 lets the user agent evict).
pub const MAX_COOKIES: usize = 3000;

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

/// Whether `url`'s scheme is one the jar treats as secure.
fn is_secure_scheme(url: &Url) -> bool {
    matches!(url.scheme(), "https" | "wss")
}

/// The canonicalized host name of `url` (§5.1.2: lowercase, IDNA already
/// applied by the URL parser), `None` if it has none.
fn canonical_host(url: &Url) -> Option<String> {
    match url.host()? {
        Host::Domain(domain) if !domain.is_empty() => Some(domain.to_ascii_lowercase()),
        Host::Domain(_) => None,
        Host::Ipv4(ip) => Some(ip.to_string()),
        Host::Ipv6(ip) => Some(format!("[{ip}]")),
    }
}

/// <https://httpwg.org/http-extensions/draft-ietf-httpbis-rfc6265bis.html#name-domain-matching>
pub fn domain_match(string: &str, domain_string: &str) -> bool {
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
pub fn default_path(url: &Url) -> String {
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
pub fn path_match(request_path: &str, cookie_path: &str) -> bool {
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

/// <https://httpwg.org/http-extensions/draft-ietf-httpbis-rfc6265bis.html#name-dates>:
/// the cookie-date algorithm. Seconds since the Unix epoch, `None` if it
/// fails to parse.
pub fn parse_cookie_date(input: &str) -> Option<i64> {
    // Step 1: Using the grammar below, divide the cookie-date into
    // date-tokens. delimiter = %x09 / %x20-2F / %x3B-40 / %x5B-60 / %x7B-7E.
    let is_delimiter =
        |c: char| matches!(c as u32, 0x09 | 0x20..=0x2F | 0x3B..=0x40 | 0x5B..=0x60 | 0x7B..=0x7E);
    let (mut time, mut day, mut month, mut year) = (None, None, None, None);
    // Step 2: Process each date-token sequentially in the order the
    // date-tokens appear in the cookie-date.
    for token in input.split(is_delimiter).filter(|t| !t.is_empty()) {
        // Step 2.1: If the found-time flag is not set and the token matches
        // the time production (hms-time [ non-digit *OCTET ]).
        if time.is_none() {
            if let Some(hms) = parse_time(token) {
                time = Some(hms);
                continue;
            }
        }
        // Step 2.2: day-of-month = 1*2DIGIT [ non-digit *OCTET ].
        if day.is_none() {
            if let Some(d) = leading_digits(token, 1, 2) {
                day = Some(d);
                continue;
            }
        }
        // Step 2.3: month = the first three characters name a month,
        // case-insensitively.
        if month.is_none() && token.len() >= 3 && token.is_char_boundary(3) {
            const MONTHS: [&str; 12] = [
                "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
            ];
            if let Some(m) = MONTHS
                .iter()
                .position(|m| token[..3].eq_ignore_ascii_case(m))
            {
                month = Some(m as u32 + 1);
                continue;
            }
        }
        // Step 2.4: year = 2*4DIGIT [ non-digit *OCTET ].
        if year.is_none() {
            if let Some(y) = leading_digits(token, 2, 4) {
                year = Some(y);
                continue;
            }
        }
    }
    // Step 3: If the year-value is greater than or equal to 70 and less
    // than or equal to 99, increment the year-value by 1900.
    // Step 4: If the year-value is greater than or equal to 0 and less than
    // or equal to 69, increment the year-value by 2000.
    let year = match year? {
        y @ 70..=99 => y + 1900,
        y @ 0..=69 => y + 2000,
        y => y,
    };
    let (hour, minute, second) = time?;
    let (day, month) = (day?, month?);
    // Step 5: Abort if at least one of the found flags is not set (above,
    // with `?`), the day-of-month-value is less than 1 or greater than 31,
    // the year-value is less than 1601, the hour-value is greater than 23,
    // the minute-value or second-value is greater than 59.
    if !(1..=31).contains(&day) || year < 1601 || hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    // Step 6: Let the parsed-cookie-date be the date whose day-of-month,
    // month, year, hour, minute, and second (in UTC) are the values above.
    // If no such date exists, abort these steps and fail to parse.
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let days_in_month = match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    if day > days_in_month {
        return None;
    }
    // Step 7: Return the parsed-cookie-date as the result.
    let days = days_from_civil(i64::from(year), month, day);
    Some(days * 86400 + i64::from(hour) * 3600 + i64::from(minute) * 60 + i64::from(second))
}

/// Days from 1970-01-01 to the given proleptic Gregorian date.
fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let month = i64::from(month);
    let day_of_year =
        (153 * (if month > 2 { month - 3 } else { month + 9 }) + 2) / 5 + i64::from(day) - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146097 + day_of_era - 719468
}

/// `min..=max` ASCII digits at the start of `token`, followed by nothing
/// or a non-digit.
fn leading_digits(token: &str, min: usize, max: usize) -> Option<u32> {
    let digits = token.bytes().take_while(u8::is_ascii_digit).count();
    if digits < min || digits > max {
        return None;
    }
    token[..digits].parse().ok()
}

/// The time production: hms-time = time-field ":" time-field ":"
/// time-field, time-field = 1*2DIGIT, then nothing or a non-digit.
fn parse_time(token: &str) -> Option<(u32, u32, u32)> {
    let mut parts = token.splitn(3, ':');
    let hour = parts.next()?;
    let minute = parts.next()?;
    let rest = parts.next()?;
    let whole = |s: &str| (1..=2).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit());
    if !whole(hour) || !whole(minute) {
        return None;
    }
    let second = leading_digits(rest, 1, 2)?;
    Some((hour.parse().ok()?, minute.parse().ok()?, second))
}

/// The attributes of one `Set-Cookie` line, as parsed by §5.6.
#[derive(Debug, Default)]
struct Parsed {
    name: String,
    value: String,
    /// (`Expires` or `Max-Age`, the last one of each kind, §5.6.1-2).
    expires: Option<i64>,
    max_age: Option<i64>,
    domain: Option<String>,
    path: Option<String>,
    secure: bool,
    http_only: bool,
    same_site: Option<SameSite>,
}

/// WSP: space and horizontal tab.
fn trim_wsp(s: &str) -> &str {
    s.trim_matches([' ', '\t'])
}

/// <https://httpwg.org/http-extensions/draft-ietf-httpbis-rfc6265bis.html#name-the-set-cookie-header-field>
fn parse_set_cookie(line: &str, now: i64) -> Result<Parsed, CookieRejected> {
    // Step 1: If the set-cookie-string contains a %x00-08 / %x0A-1F / %x7F
    // character (CTL characters excluding HTAB): abort these steps and
    // ignore the set-cookie-string entirely.
    if line
        .chars()
        .any(|c| matches!(c as u32, 0x00..=0x08 | 0x0A..=0x1F | 0x7F))
    {
        return Err(CookieRejected::ControlCharacter);
    }
    // Step 2: If the set-cookie-string contains a ";", the name-value-pair
    // is up to (not including) the first ";", the unparsed-attributes the
    // rest (including the ";"). Otherwise the whole string, and no
    // attributes.
    let (pair, unparsed) = match line.find(';') {
        Some(i) => (&line[..i], &line[i..]),
        None => (line, ""),
    };
    // Step 3: If the name-value-pair lacks a "=", the name string is empty
    // and the value string is the whole pair. Otherwise the name is up to
    // the first "=", the value after it.
    let (name, value) = match pair.find('=') {
        Some(i) => (&pair[..i], &pair[i + 1..]),
        None => ("", pair),
    };
    // Step 4: Remove any leading or trailing WSP characters from the name
    // string and the value string.
    let (name, value) = (trim_wsp(name), trim_wsp(value));
    // Step 5: If the sum of the lengths of the name string and the value
    // string is 0, ignore the set-cookie-string entirely.
    if name.is_empty() && value.is_empty() {
        return Err(CookieRejected::Empty);
    }
    // Step 6: If the sum of the lengths is more than 4096 octets, ignore
    // the set-cookie-string entirely.
    if name.len() + value.len() > 4096 {
        return Err(CookieRejected::TooLong);
    }
    // Step 7: The cookie-name is the name string, and the cookie-value is
    // the value string.
    let mut parsed = Parsed {
        name: name.to_owned(),
        value: value.to_owned(),
        ..Parsed::default()
    };
    // Parse the unparsed-attributes: while not empty, consume the ";" and
    // the cookie-av up to the next ";".
    for cookie_av in unparsed.split(';').skip(1) {
        // If the cookie-av contains a "=", the attribute-name is before
        // the first "=", the attribute-value after; otherwise the name is
        // the whole cookie-av and the value is empty. Remove leading and
        // trailing WSP from both.
        let (attribute_name, attribute_value) = match cookie_av.find('=') {
            Some(i) => (trim_wsp(&cookie_av[..i]), trim_wsp(&cookie_av[i + 1..])),
            None => (trim_wsp(cookie_av), ""),
        };
        // If the attribute-value is longer than 1024 octets, ignore the
        // cookie-av.
        if attribute_value.len() > 1024 {
            continue;
        }
        // Process the attribute-name and attribute-value (§5.6.1-7); an
        // unrecognised attribute is ignored.
        let is = |known: &str| attribute_name.eq_ignore_ascii_case(known);
        if is("Expires") {
            // §5.6.1: a cookie-date that fails to parse is ignored; an
            // expiry later than 400 days from now is capped to it.
            if let Some(time) = parse_cookie_date(attribute_value) {
                parsed.expires = Some(time.min(now.saturating_add(MAX_AGE_CAP)));
            }
        } else if is("Max-Age") {
            // §5.6.2: If the first character is neither a DIGIT nor "-",
            // or the remainder has a non-DIGIT, ignore the cookie-av.
            let digits = attribute_value.strip_prefix('-').unwrap_or(attribute_value);
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                continue;
            }
            // Let delta-seconds be the attribute-value converted to a base
            // 10 integer (saturating: a huge value is capped anyway), cap
            // it at 400 days; if delta-seconds is less than or equal to
            // zero, the expiry-time is the earliest representable time,
            // otherwise now plus delta-seconds.
            let negative = attribute_value.starts_with('-');
            let delta = digits.parse::<i64>().unwrap_or(i64::MAX).min(MAX_AGE_CAP);
            parsed.max_age = Some(if negative || delta == 0 {
                i64::MIN
            } else {
                now.saturating_add(delta)
            });
        } else if is("Domain") {
            // §5.6.3: an empty attribute-value is ignored; a leading "."
            // is removed; the cookie-domain is the value lowercased.
            if attribute_value.is_empty() {
                continue;
            }
            let domain = attribute_value.strip_prefix('.').unwrap_or(attribute_value);
            parsed.domain = Some(domain.to_ascii_lowercase());
        } else if is("Path") {
            // §5.6.4: If the attribute-value is empty or its first
            // character is not "/", let cookie-path be the default-path
            // (None here, resolved at storage); otherwise the value.
            parsed.path = attribute_value
                .starts_with('/')
                .then(|| attribute_value.to_owned());
        } else if is("Secure") {
            // §5.6.5
            parsed.secure = true;
        } else if is("HttpOnly") {
            // §5.6.6
            parsed.http_only = true;
        } else if is("SameSite") {
            // §5.6.7: "None", "Strict", "Lax" case-insensitively; any other
            // value is "Default".
            parsed.same_site = Some(if attribute_value.eq_ignore_ascii_case("None") {
                SameSite::None
            } else if attribute_value.eq_ignore_ascii_case("Strict") {
                SameSite::Strict
            } else if attribute_value.eq_ignore_ascii_case("Lax") {
                SameSite::Lax
            } else {
                SameSite::Default
            });
        }
    }
    Ok(parsed)
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
    pub fn set_cookie_at(
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
    pub fn cookie_string_at(&self, url: &Url, context: CookieContext, now: i64) -> Option<String> {
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

/// Whether a request to `url` initiated by `initiator` is same-site
/// (§5.2, decided as same scheme class and same host; see the module
/// documentation). `None` (no initiator: a navigation typed by the user,
/// the shell's own load) is same-site.
pub fn is_same_site(url: &Url, initiator: Option<&url::Origin>) -> bool {
    match initiator {
        None => true,
        Some(url::Origin::Opaque(_)) => false,
        Some(url::Origin::Tuple(_, host, _)) => url.host().is_some_and(|h| h.to_owned() == *host),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    #[test]
    fn dates() {
        // The three formats of RFC 7231 and friends.
        assert_eq!(
            parse_cookie_date("Sun, 06 Nov 1994 08:49:37 GMT"),
            Some(784111777)
        );
        assert_eq!(
            parse_cookie_date("Sunday, 06-Nov-94 08:49:37 GMT"),
            Some(784111777)
        );
        assert_eq!(
            parse_cookie_date("Sun Nov  6 08:49:37 1994"),
            Some(784111777)
        );
        assert_eq!(parse_cookie_date("Thu, 01 Jan 1970 00:00:00 GMT"), Some(0));
        assert_eq!(
            parse_cookie_date("Wed, 29 Feb 2024 00:00:01 GMT"),
            Some(1709164801)
        );
        // No such date, out of range fields, missing parts.
        assert_eq!(parse_cookie_date("Thu, 29 Feb 2023 00:00:00 GMT"), None);
        assert_eq!(parse_cookie_date("Thu, 31 Apr 2023 00:00:00 GMT"), None);
        assert_eq!(parse_cookie_date("Thu, 01 Jan 1600 00:00:00 GMT"), None);
        assert_eq!(parse_cookie_date("Thu, 01 Jan 2023 24:00:00 GMT"), None);
        assert_eq!(parse_cookie_date("Thu, 01 Jan 2023 GMT"), None);
        assert_eq!(parse_cookie_date(""), None);
        assert_eq!(parse_cookie_date("garbage"), None);
        assert_eq!(parse_cookie_date("1:2:3 ☃ 4 Jan 2000"), Some(946947723));
    }

    #[test]
    fn paths() {
        assert_eq!(default_path(&url("http://a.test/")), "/");
        assert_eq!(default_path(&url("http://a.test/x")), "/");
        assert_eq!(default_path(&url("http://a.test/x/y/z")), "/x/y");
        assert!(path_match("/x/y", "/x"));
        assert!(path_match("/x/", "/x/"));
        assert!(!path_match("/xy", "/x"));
        assert!(path_match("/x", "/"));
        assert!(domain_match("a.b.test", "b.test"));
        assert!(!domain_match("ab.test", "b.test"));
        assert!(!domain_match("1.2.3.4", "2.3.4"));
    }

    #[test]
    fn set_and_get() {
        let jar = CookieJar::new();
        let page = url("http://a.test/dir/page");
        let ctx = CookieContext::HTTP_SAME_SITE;
        jar.set_cookie_at(&page, "a=1", ctx, 1000).unwrap();
        jar.set_cookie_at(&page, "b=2; Path=/", ctx, 1000).unwrap();
        jar.set_cookie_at(&page, " c = 3 ; HttpOnly", ctx, 1000)
            .unwrap();
        // Longer paths first, then creation order.
        assert_eq!(
            jar.cookie_string_at(&page, ctx, 1000).as_deref(),
            Some("a=1; c=3; b=2")
        );
        // The default path is /dir: not sent to /.
        assert_eq!(
            jar.cookie_string_at(&url("http://a.test/"), ctx, 1000)
                .as_deref(),
            Some("b=2")
        );
        // Host-only: not sent to a subdomain.
        assert_eq!(
            jar.cookie_string_at(&url("http://x.a.test/"), ctx, 1000),
            None
        );
        // HttpOnly is hidden from scripts.
        assert_eq!(
            jar.cookie_string_at(&page, CookieContext::SCRIPT, 1000)
                .as_deref(),
            Some("a=1; b=2")
        );
        // Overwrite keeps the position (creation time).
        jar.set_cookie_at(&page, "a=9", ctx, 1001).unwrap();
        assert_eq!(
            jar.cookie_string_at(&page, ctx, 1001).as_deref(),
            Some("a=9; c=3; b=2")
        );
        // A script cannot overwrite an HttpOnly cookie, nor set one.
        assert_eq!(
            jar.set_cookie_at(&page, "c=x", CookieContext::SCRIPT, 1001),
            Err(CookieRejected::HttpOnly)
        );
        assert_eq!(
            jar.set_cookie_at(&page, "d=x; HttpOnly", CookieContext::SCRIPT, 1001),
            Err(CookieRejected::HttpOnly)
        );
        // Max-Age=0 deletes.
        jar.set_cookie_at(&page, "a=; Max-Age=0", ctx, 1002)
            .unwrap();
        assert_eq!(
            jar.cookie_string_at(&page, ctx, 1002).as_deref(),
            Some("c=3; b=2")
        );
    }

    #[test]
    fn expiry() {
        let jar = CookieJar::new();
        let page = url("http://a.test/");
        let ctx = CookieContext::HTTP_SAME_SITE;
        jar.set_cookie_at(&page, "m=1; Max-Age=10", ctx, 1000)
            .unwrap();
        jar.set_cookie_at(
            &page,
            "e=1; Expires=Thu, 01 Jan 1970 00:20:00 GMT",
            ctx,
            1000,
        )
        .unwrap();
        // Max-Age wins over Expires, whatever the order.
        jar.set_cookie_at(
            &page,
            "both=1; Max-Age=5; Expires=Thu, 01 Jan 1970 00:20:00 GMT",
            ctx,
            1000,
        )
        .unwrap();
        assert_eq!(
            jar.cookie_string_at(&page, ctx, 1004).as_deref(),
            Some("m=1; e=1; both=1")
        );
        assert_eq!(
            jar.cookie_string_at(&page, ctx, 1005).as_deref(),
            Some("m=1; e=1")
        );
        assert_eq!(
            jar.cookie_string_at(&page, ctx, 1010).as_deref(),
            Some("e=1")
        );
        assert_eq!(jar.cookie_string_at(&page, ctx, 1200), None);
        // A bad Max-Age or Expires is ignored (a session cookie).
        jar.set_cookie_at(&page, "s=1; Max-Age=1x; Expires=never", ctx, 1000)
            .unwrap();
        assert_eq!(
            jar.cookie_string_at(&page, ctx, 10_000_000).as_deref(),
            Some("s=1")
        );
        // Far-future expiries are capped to 400 days.
        jar.set_cookie_at(&page, "far=1; Max-Age=99999999999999999999999", ctx, 0)
            .unwrap();
        let far = jar.cookies().into_iter().find(|c| c.name == "far").unwrap();
        assert_eq!(far.expiry, Some(MAX_AGE_CAP));
    }

    #[test]
    fn malformed_lines() {
        let jar = CookieJar::new();
        let page = url("http://a.test/");
        let ctx = CookieContext::HTTP_SAME_SITE;
        assert_eq!(
            jar.set_cookie(&page, "a=b\x01c", ctx),
            Err(CookieRejected::ControlCharacter)
        );
        assert_eq!(
            jar.set_cookie(&page, "a=b\nc=d", ctx),
            Err(CookieRejected::ControlCharacter)
        );
        assert_eq!(jar.set_cookie(&page, "", ctx), Err(CookieRejected::Empty));
        assert_eq!(
            jar.set_cookie(&page, " = ; Path=/", ctx),
            Err(CookieRejected::Empty)
        );
        assert_eq!(
            jar.set_cookie(&page, &format!("a={}", "x".repeat(4096)), ctx),
            Err(CookieRejected::TooLong)
        );
        // No "=": an empty name.
        jar.set_cookie(&page, "lonely", ctx).unwrap();
        // Attributes only; unknown attributes and a bad Path are ignored.
        jar.set_cookie(&page, "x=1;;; Foo=bar; Path=relative; =", ctx)
            .unwrap();
        // A tab inside is fine (not a CTL for this rule).
        jar.set_cookie(&page, "t=a\tb", ctx).unwrap();
        assert_eq!(
            jar.cookie_string(&page, ctx).as_deref(),
            Some("lonely; x=1; t=a\tb")
        );
        // Non-HTTP(S) URLs have no cookies.
        assert_eq!(
            jar.set_cookie(&url("data:text/plain,x"), "a=1", ctx),
            Err(CookieRejected::NoHost)
        );
    }

    #[test]
    fn domains_secure_and_same_site() {
        let jar = CookieJar::new();
        let ctx = CookieContext::HTTP_SAME_SITE;
        let sub = url("http://www.a.test/");
        jar.set_cookie(&sub, "d=1; Domain=.A.test", ctx).unwrap();
        assert_eq!(
            jar.set_cookie(&sub, "e=1; Domain=other.test", ctx),
            Err(CookieRejected::DomainMismatch)
        );
        assert_eq!(
            jar.cookie_string(&url("http://a.test/"), ctx).as_deref(),
            Some("d=1")
        );
        assert_eq!(
            jar.cookie_string(&url("http://x.a.test/"), ctx).as_deref(),
            Some("d=1")
        );
        assert_eq!(jar.cookie_string(&url("http://xa.test/"), ctx), None);
        // Secure needs a secure scheme, both ways.
        assert_eq!(
            jar.set_cookie(&sub, "s=1; Secure", ctx),
            Err(CookieRejected::Insecure)
        );
        let secure = url("https://www.a.test/");
        jar.set_cookie(&secure, "s=1; Secure", ctx).unwrap();
        assert_eq!(jar.cookie_string(&secure, ctx).as_deref(), Some("d=1; s=1"));
        assert_eq!(jar.cookie_string(&sub, ctx).as_deref(), Some("d=1"));
        // An insecure origin cannot shadow a secure cookie's name.
        assert_eq!(
            jar.set_cookie(&sub, "s=2", ctx),
            Err(CookieRejected::Insecure)
        );
        // SameSite: cross-site contexts neither set nor get Lax/Strict.
        let cross = CookieContext {
            same_site: false,
            ..ctx
        };
        assert_eq!(
            jar.set_cookie(&sub, "l=1", cross),
            Err(CookieRejected::SameSite)
        );
        assert_eq!(
            jar.set_cookie(&secure, "n=1; SameSite=None", cross),
            Err(CookieRejected::SameSite)
        );
        jar.set_cookie(&secure, "n=1; SameSite=None; Secure", cross)
            .unwrap();
        jar.set_cookie(&secure, "st=1; SameSite=Strict", ctx)
            .unwrap();
        assert_eq!(jar.cookie_string(&secure, cross).as_deref(), Some("n=1"));
        let nav = CookieContext {
            safe_top_level_navigation: true,
            ..cross
        };
        assert_eq!(
            jar.cookie_string(&secure, nav).as_deref(),
            Some("d=1; s=1; n=1")
        );
        // Prefixes.
        assert_eq!(
            jar.set_cookie(&secure, "__Secure-a=1", ctx),
            Err(CookieRejected::Prefix)
        );
        jar.set_cookie(&secure, "__Secure-a=1; Secure", ctx)
            .unwrap();
        assert_eq!(
            jar.set_cookie(&secure, "__Host-a=1; Secure", ctx),
            Err(CookieRejected::Prefix)
        );
        assert_eq!(
            jar.set_cookie(&secure, "__Host-a=1; Secure; Path=/; Domain=a.test", ctx),
            Err(CookieRejected::Prefix)
        );
        jar.set_cookie(&secure, "__Host-a=1; Secure; Path=/", ctx)
            .unwrap();
        assert_eq!(
            jar.set_cookie(&secure, "=__Host-x", ctx),
            Err(CookieRejected::Prefix)
        );
    }

    #[test]
    fn same_site_decision() {
        let page = url("https://a.test/");
        let a = url("https://a.test:8443/x").origin();
        let b = url("https://b.test/").origin();
        assert!(is_same_site(&page, None));
        assert!(is_same_site(&page, Some(&a)));
        assert!(!is_same_site(&page, Some(&b)));
        assert!(!is_same_site(&page, Some(&url("data:,x").origin())));
    }
}
