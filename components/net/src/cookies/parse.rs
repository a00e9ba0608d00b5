//! Parsing one `Set-Cookie` line (RFC 6265bis §5.6) into its name, value
//! and attributes.

use super::date::parse_cookie_date;
use super::{CookieRejected, SameSite, MAX_AGE_CAP};

/// The attributes of one `Set-Cookie` line, as parsed by §5.6.
#[derive(Debug, Default)]
pub(super) struct Parsed {
    /// The cookie-name.
    pub(super) name: String,
    /// The cookie-value.
    pub(super) value: String,
    /// (`Expires` or `Max-Age`, the last one of each kind, §5.6.1-2).
    pub(super) expires: Option<i64>,
    /// The expiry time `Max-Age` gives (`i64::MIN`, the earliest
    /// representable time, for zero or less).
    pub(super) max_age: Option<i64>,
    /// The last `Domain` attribute's value, lowercased, without a leading
    /// ".".
    pub(super) domain: Option<String>,
    /// The last valid `Path` attribute's value (`None`: the default-path).
    pub(super) path: Option<String>,
    /// `Secure`.
    pub(super) secure: bool,
    /// `HttpOnly`.
    pub(super) http_only: bool,
    /// The last `SameSite` attribute's enforcement.
    pub(super) same_site: Option<SameSite>,
}

/// WSP: space and horizontal tab.
fn trim_wsp(s: &str) -> &str {
    s.trim_matches([' ', '\t'])
}

/// <https://httpwg.org/http-extensions/draft-ietf-httpbis-rfc6265bis.html#name-the-set-cookie-header-field>
pub(super) fn parse_set_cookie(line: &str, now: i64) -> Result<Parsed, CookieRejected> {
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
