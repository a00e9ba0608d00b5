//! The method and header predicates of the Fetch Standard
//! (<https://fetch.spec.whatwg.org/#terminology-headers>): what the
//! `Headers` guards, `XMLHttpRequest` and the CORS decisions of a fetch
//! check.

use std::collections::BTreeSet;

use jsprof_document::HeaderList;

use crate::mime::MimeType;
use crate::Method;

/// <https://fetch.spec.whatwg.org/#cors-safelisted-method>
pub fn is_cors_safelisted_method(method: &Method) -> bool {
    matches!(method, Method::Get | Method::Head | Method::Post)
}

/// <https://fetch.spec.whatwg.org/#forbidden-method>: `CONNECT`, `TRACE`
/// or `TRACK`, byte-case-insensitively.
pub fn is_forbidden_method(method: &str) -> bool {
    ["CONNECT", "TRACE", "TRACK"]
        .iter()
        .any(|m| method.eq_ignore_ascii_case(m))
}

/// <https://fetch.spec.whatwg.org/#concept-method>: a method is a token.
pub fn is_method(method: &str) -> bool {
    is_token(method)
}

/// <https://httpwg.org/specs/rfc9110.html#tokens>: 1*tchar.
fn is_token(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// <https://fetch.spec.whatwg.org/#header-name>: a field-name token.
pub fn is_header_name(name: &str) -> bool {
    is_token(name)
}

/// <https://fetch.spec.whatwg.org/#header-value>: no leading or trailing
/// HTTP tab or space, no 0x00, 0x0A or 0x0D.
pub fn is_header_value(value: &[u8]) -> bool {
    let edge = |b: &u8| *b == b' ' || *b == b'\t';
    !value.first().is_some_and(edge)
        && !value.last().is_some_and(edge)
        && !value.iter().any(|b| matches!(b, 0x00 | 0x0A | 0x0D))
}

/// <https://fetch.spec.whatwg.org/#concept-header-value-normalize>: strip
/// leading and trailing HTTP whitespace bytes.
pub fn normalize_header_value(value: &str) -> &str {
    value.trim_matches([' ', '\t', '\n', '\r'])
}

/// <https://fetch.spec.whatwg.org/#forbidden-request-header>
pub fn is_forbidden_request_header(name: &str, value: &str) -> bool {
    const FORBIDDEN: [&str; 21] = [
        "Accept-Charset",
        "Accept-Encoding",
        "Access-Control-Request-Headers",
        "Access-Control-Request-Method",
        "Connection",
        "Content-Length",
        "Cookie",
        "Cookie2",
        "Date",
        "DNT",
        "Expect",
        "Host",
        "Keep-Alive",
        "Origin",
        "Referer",
        "Set-Cookie",
        "TE",
        "Trailer",
        "Transfer-Encoding",
        "Upgrade",
        "Via",
    ];
    // Step 1: If name is a byte-case-insensitive match for one of the
    // names above, return true.
    if FORBIDDEN.iter().any(|f| name.eq_ignore_ascii_case(f)) {
        return true;
    }
    // Step 2: If name when byte-lowercased starts with `proxy-` or `sec-`,
    // then return true.
    let lower = name.to_ascii_lowercase();
    if lower.starts_with("proxy-") || lower.starts_with("sec-") {
        return true;
    }
    // Step 3: If name is `X-HTTP-Method`, `X-HTTP-Method-Override` or
    // `X-Method-Override`: let parsedValues be the result of getting,
    // decoding, and splitting value; for each method of parsedValues, if
    // the isomorphic encoding of method is a forbidden method, return true.
    if [
        "x-http-method",
        "x-http-method-override",
        "x-method-override",
    ]
    .contains(&lower.as_str())
        && value
            .split(',')
            .any(|m| is_forbidden_method(m.trim_matches([' ', '\t'])))
    {
        return true;
    }
    // Step 4: Return false.
    false
}

/// <https://fetch.spec.whatwg.org/#forbidden-response-header-name>
pub fn is_forbidden_response_header_name(name: &str) -> bool {
    name.eq_ignore_ascii_case("Set-Cookie") || name.eq_ignore_ascii_case("Set-Cookie2")
}

/// <https://fetch.spec.whatwg.org/#no-cors-safelisted-request-header-name>
pub fn is_no_cors_safelisted_request_header_name(name: &str) -> bool {
    [
        "Accept",
        "Accept-Language",
        "Content-Language",
        "Content-Type",
    ]
    .iter()
    .any(|n| name.eq_ignore_ascii_case(n))
}

/// <https://fetch.spec.whatwg.org/#cors-unsafe-request-header-byte>
fn is_cors_unsafe_request_header_byte(b: u8) -> bool {
    (b < 0x20 && b != 0x09) || b"\"():<>?@[\\]{}\x7F".contains(&b)
}

/// <https://fetch.spec.whatwg.org/#cors-safelisted-request-header>
pub fn is_cors_safelisted_request_header(name: &str, value: &str) -> bool {
    // Step 1: If value's length is greater than 128, then return false.
    if value.len() > 128 {
        return false;
    }
    // Step 2: Byte-lowercase name and switch on the result:
    match name.to_ascii_lowercase().as_str() {
        // `accept`: If value contains a CORS-unsafe request-header byte,
        // then return false.
        "accept" => !value.bytes().any(is_cors_unsafe_request_header_byte),
        // `accept-language`, `content-language`: If value contains a byte
        // that is not 0-9, A-Z, a-z, space, *, ",", "-", ".", ";" or "=",
        // then return false.
        "accept-language" | "content-language" => value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b" *,-.;=".contains(&b)),
        // `content-type`: If value contains a CORS-unsafe request-header
        // byte, return false; let mimeType be the result of parsing the
        // result of isomorphic decoding value; if failure, return false;
        // if mimeType's essence is not "application/x-www-form-urlencoded",
        // "multipart/form-data", or "text/plain", return false.
        "content-type" => {
            !value.bytes().any(is_cors_unsafe_request_header_byte)
                && MimeType::parse(value).is_some_and(|m| {
                    matches!(
                        m.essence().as_str(),
                        "application/x-www-form-urlencoded" | "multipart/form-data" | "text/plain"
                    )
                })
        }
        // `range`: a simple range header value (`bytes=` digits `-`
        // optional digits, one range).
        "range" => value.strip_prefix("bytes=").is_some_and(|range| {
            range.split_once('-').is_some_and(|(start, end)| {
                !start.is_empty()
                    && start.bytes().all(|b| b.is_ascii_digit())
                    && end.bytes().all(|b| b.is_ascii_digit())
                    && (end.is_empty() || start.parse::<u64>().ok() <= end.parse::<u64>().ok())
            })
        }),
        // Otherwise: return false.
        _ => false,
    }
}

/// <https://fetch.spec.whatwg.org/#cors-unsafe-request-header-names>:
/// lowercase, sorted, unique.
pub(super) fn cors_unsafe_request_header_names(headers: &[(String, String)]) -> Vec<String> {
    // Step 1: Let unsafeNames be a new list.
    let mut unsafe_names = Vec::new();
    // Step 2: Let potentillyUnsafeNames be a new list.
    let mut potentially_unsafe = Vec::new();
    // Step 3: Let safelistValueSize be 0.
    let mut safelist_value_size = 0;
    // Step 4: For each header of headers: if header is not a
    // CORS-safelisted request-header, append its name to unsafeNames;
    // otherwise append it to potentiallyUnsafeNames and add its value's
    // length to safelistValueSize.
    for (name, value) in headers {
        if !is_cors_safelisted_request_header(name, value) {
            unsafe_names.push(name.to_ascii_lowercase());
        } else {
            potentially_unsafe.push(name.to_ascii_lowercase());
            safelist_value_size += value.len();
        }
    }
    // Step 5: If safelistValueSize is greater than 1024, then for each name
    // of potentillyUnsafeNames, append name to unsafeNames.
    if safelist_value_size > 1024 {
        unsafe_names.extend(potentially_unsafe);
    }
    // Step 6: Return the result of convert header names to a sorted-lowercase
    // set with unsafeNames.
    unsafe_names
        .into_iter()
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect()
}

/// <https://fetch.spec.whatwg.org/#cors-safelisted-response-header-name>
pub(super) fn is_cors_safelisted_response_header_name(name: &str, exposed: &[String]) -> bool {
    [
        "Cache-Control",
        "Content-Language",
        "Content-Length",
        "Content-Type",
        "Expires",
        "Last-Modified",
        "Pragma",
    ]
    .iter()
    .any(|n| name.eq_ignore_ascii_case(n))
        || (!is_forbidden_response_header_name(name)
            && exposed.iter().any(|n| name.eq_ignore_ascii_case(n)))
}

/// <https://fetch.spec.whatwg.org/#extract-header-list-values> for a list
/// of tokens: `Ok(None)` if absent, `Err` if a value is not a token.
pub(super) fn extract_token_list(
    headers: &HeaderList,
    name: &str,
) -> Result<Option<Vec<String>>, ()> {
    let Some(value) = headers.get(name) else {
        return Ok(None);
    };
    let value = String::from_utf8_lossy(&value).into_owned();
    let mut out = Vec::new();
    for item in value.split(',') {
        let item = item.trim_matches([' ', '\t']);
        if item.is_empty() {
            continue;
        }
        if !is_token(item) {
            return Err(());
        }
        out.push(item.to_owned());
    }
    Ok(Some(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Asserts `check(name, value) == expected` for each case.
    fn assert_each(check: fn(&str, &str) -> bool, cases: &[(&str, &str, bool)]) {
        for &(name, value, expected) in cases {
            assert_eq!(check(name, value), expected, "{name}: {value}");
        }
    }

    #[test]
    fn safelisted_request_headers() {
        let too_long = "a".repeat(129);
        assert_each(
            is_cors_safelisted_request_header,
            &[
                ("Accept", "text/html", true),
                ("Accept", "a\"b", false),
                ("content-type", "text/plain;charset=utf-8", true),
                ("content-type", "application/json", false),
                ("X-Custom", "1", false),
                ("Accept", &too_long, false),
                ("Range", "bytes=0-10", true),
                ("Range", "bytes=10-0", false),
            ],
        );
        assert_eq!(
            cors_unsafe_request_header_names(&[
                ("X-B".into(), "1".into()),
                ("Content-Type".into(), "application/json".into()),
                ("x-b".into(), "2".into()),
                ("Accept".into(), "*/*".into()),
            ]),
            ["content-type", "x-b"]
        );
    }

    #[test]
    fn forbidden_headers() {
        assert_each(
            is_forbidden_request_header,
            &[
                ("cookie", "a", true),
                ("Sec-Foo", "a", true),
                ("Proxy-Authorization", "a", true),
                ("X-HTTP-Method-Override", "get, trace", true),
                ("X-HTTP-Method-Override", "PUT", false),
                ("X-Custom", "a", false),
            ],
        );
        assert!(is_forbidden_response_header_name("set-cookie"));
        assert!(is_header_value(b"a b"));
        assert!(!is_header_value(b" a"));
        assert!(!is_header_value(b"a\r\nb"));
        assert!(is_token("X-Foo"));
        assert!(!is_token("X Foo"));
        assert!(!is_token(""));
    }
}
