//! Infra's forgiving-base64 (<https://infra.spec.whatwg.org/#forgiving-base64>)
//! and HTML's `btoa()`/`atob()` method steps
//! (<https://html.spec.whatwg.org/multipage/webappapis.html#atob>), which
//! `Window` and `WorkerGlobalScope` (the `WindowOrWorkerGlobalScope`
//! mixin) call.

use crate::dom::bindings::error::{DomExceptionName, Error, Fallible};

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// <https://infra.spec.whatwg.org/#forgiving-base64-encode>: apply the
/// base64 algorithm of RFC 4648 section 4 (with padding).
pub fn forgiving_base64_encode(data: &[u8]) -> String {
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for chunk in data.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        out.push(ALPHABET[(n >> 18) as usize & 63] as char);
        out.push(ALPHABET[(n >> 12) as usize & 63] as char);
        out.push(if chunk.len() > 1 {
            ALPHABET[(n >> 6) as usize & 63] as char
        } else {
            '='
        });
        out.push(if chunk.len() > 2 {
            ALPHABET[n as usize & 63] as char
        } else {
            '='
        });
    }
    out
}

/// <https://infra.spec.whatwg.org/#ascii-whitespace>
fn is_ascii_whitespace(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\u{c}' | '\r' | ' ')
}

/// <https://infra.spec.whatwg.org/#forgiving-base64-decode>; `None` for
/// failure.
pub fn forgiving_base64_decode(data: &str) -> Option<Vec<u8>> {
    // Step 1: Remove all ASCII whitespace from data.
    let mut data: Vec<char> = data.chars().filter(|c| !is_ascii_whitespace(*c)).collect();
    // Step 2: If data's code point length divides by 4 leaving no
    // remainder, then: if data ends with one or two U+003D (=) code points,
    // then remove them from data.
    if data.len().is_multiple_of(4) {
        if data.ends_with(&['=', '=']) {
            data.truncate(data.len() - 2);
        } else if data.ends_with(&['=']) {
            data.truncate(data.len() - 1);
        }
    }
    // Step 3: If data's code point length divides by 4 leaving a remainder
    // of 1, return failure.
    if data.len() % 4 == 1 {
        return None;
    }
    // Step 4: If data contains a code point that is not one of U+002B (+),
    // U+002F (/), ASCII alphanumeric, then return failure.
    // Step 5-6: Let output be an empty byte sequence; let buffer be an
    // empty buffer that can have bits appended to it.
    let mut output = Vec::with_capacity(data.len() / 4 * 3 + 2);
    let mut buffer: u32 = 0;
    let mut bits = 0;
    // Step 7-8: For each code point, append the six bits of its value in
    // the base64 alphabet to buffer; each 24 bits become three bytes
    // (big-endian), and buffer is emptied.
    for c in data {
        let value = match c {
            'A'..='Z' => c as u32 - 'A' as u32,
            'a'..='z' => c as u32 - 'a' as u32 + 26,
            '0'..='9' => c as u32 - '0' as u32 + 52,
            '+' => 62,
            '/' => 63,
            _ => return None,
        };
        buffer = (buffer << 6) | value;
        bits += 6;
        if bits == 24 {
            output.extend_from_slice(&[(buffer >> 16) as u8, (buffer >> 8) as u8, buffer as u8]);
            buffer = 0;
            bits = 0;
        }
    }
    // Step 9: If buffer is not empty, it contains either 12 or 18 bits. If
    // it contains 12 bits, then discard the last four and interpret the
    // remaining eight as an 8-bit big-endian number. If it contains 18
    // bits, then discard the last two and interpret the remaining 16 as
    // two 8-bit big-endian numbers. Append the one or two bytes to output.
    match bits {
        12 => output.push((buffer >> 4) as u8),
        18 => output.extend_from_slice(&[(buffer >> 10) as u8, (buffer >> 2) as u8]),
        _ => {}
    }
    // Step 10: Return output.
    Some(output)
}

/// <https://html.spec.whatwg.org/multipage/webappapis.html#dom-btoa>
pub fn btoa(data: &str) -> Fallible<String> {
    // Step 1: If data contains any code point greater than U+00FF, then
    // throw an "InvalidCharacterError" DOMException. (A lone surrogate,
    // which the DOMString conversion turned into U+FFFD, is above U+00FF
    // too.)
    // Step 2: Convert data to a byte sequence whose nth byte is the
    // eight-bit representation of the nth code point of data, and then
    // apply forgiving-base64 encode to that byte sequence and return the
    // result.
    let bytes = data
        .chars()
        .map(|c| u8::try_from(u32::from(c)).ok())
        .collect::<Option<Vec<u8>>>()
        .ok_or_else(|| {
            Error::dom_with_message(
                DomExceptionName::InvalidCharacterError,
                "btoa: the string contains characters outside of the Latin1 range",
            )
        })?;
    Ok(forgiving_base64_encode(&bytes))
}

/// <https://html.spec.whatwg.org/multipage/webappapis.html#dom-atob>
pub fn atob(data: &str) -> Fallible<Vec<u8>> {
    // Step 1: Let decodedData be the result of running forgiving-base64
    // decode on data.
    // Step 2: If decodedData is failure, then throw an
    // "InvalidCharacterError" DOMException.
    let decoded = forgiving_base64_decode(data).ok_or_else(|| {
        Error::dom_with_message(
            DomExceptionName::InvalidCharacterError,
            "atob: the string to be decoded is not correctly encoded",
        )
    })?;
    // Step 3: Return decodedData.
    Ok(decoded)
}

#[cfg(test)]
mod tests {
    use super::{forgiving_base64_decode, forgiving_base64_encode};

    #[test]
    fn round_trips_all_lengths() {
        let data: Vec<u8> = (0..=255u8).collect();
        for len in 0..40 {
            let encoded = forgiving_base64_encode(&data[..len]);
            assert_eq!(encoded.len() % 4, 0);
            assert_eq!(forgiving_base64_decode(&encoded).unwrap(), &data[..len]);
        }
    }

    #[test]
    fn forgiving_rules() {
        assert_eq!(forgiving_base64_decode(" YW\nJj ").unwrap(), b"abc");
        assert_eq!(forgiving_base64_decode("YQ").unwrap(), b"a");
        assert_eq!(forgiving_base64_decode("YQ==").unwrap(), b"a");
        assert_eq!(forgiving_base64_decode("YR").unwrap(), b"a");
        assert!(forgiving_base64_decode("YQ=").is_none());
        assert!(forgiving_base64_decode("Y").is_none());
        assert!(forgiving_base64_decode("YQ===").is_none());
        assert!(forgiving_base64_decode("YQ-_").is_none());
        assert!(forgiving_base64_decode("=YQ=").is_none());
    }
}
