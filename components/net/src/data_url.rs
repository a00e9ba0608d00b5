//! `data:` URLs (RFC 2397 as Fetch processes them).

use base64::alphabet::STANDARD;
use base64::engine::general_purpose::GeneralPurpose;
use base64::engine::{DecodePaddingMode, GeneralPurposeConfig};
use base64::Engine;
use url::{Position, Url};

use crate::mime::MimeType;

/// The result of the data: URL processor.
/// <https://fetch.spec.whatwg.org/#data-url-struct>
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataUrl {
    /// The MIME type (`text/plain;charset=US-ASCII` when the URL's does not
    /// parse).
    pub mime_type: MimeType,
    /// The decoded body.
    pub body: Vec<u8>,
}

/// Why the data: URL processor failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataUrlError {
    /// The URL's scheme is not `data`.
    NotData,
    /// No `,` separates the MIME type from the body.
    NoComma,
    /// The body is marked `;base64` but is not forgiving-base64.
    BadBase64,
}

impl DataUrlError {
    /// A short description, for [`NetError::BadDataUrl`](crate::NetError::BadDataUrl).
    pub fn reason(self) -> &'static str {
        match self {
            DataUrlError::NotData => "not a data: URL",
            DataUrlError::NoComma => "no comma after the MIME type",
            DataUrlError::BadBase64 => "the ;base64 body is not valid base64",
        }
    }
}

/// <https://infra.spec.whatwg.org/#ascii-whitespace>
fn is_ascii_whitespace(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\x0C' | '\r' | ' ')
}

/// <https://infra.spec.whatwg.org/#forgiving-base64-decode>
pub fn forgiving_base64_decode(data: &str) -> Option<Vec<u8>> {
    // Step 1: Remove all ASCII whitespace from data.
    let mut data: String = data.chars().filter(|&c| !is_ascii_whitespace(c)).collect();
    // Step 2: If data's code point length divides by 4 leaving no
    // remainder, then: if data ends with one or two U+003D (=) code points,
    // then remove them from data.
    if data.len().is_multiple_of(4) {
        if data.ends_with("==") {
            data.truncate(data.len() - 2);
        } else if data.ends_with('=') {
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
    if !data
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '+' || c == '/')
    {
        return None;
    }
    // Steps 5-9: decode 6 bits per code point, discarding leftover bits
    // (12 or 18 bits at the end: keep the first 8 or 16).
    const ENGINE: GeneralPurpose = GeneralPurpose::new(
        &STANDARD,
        GeneralPurposeConfig::new()
            .with_decode_allow_trailing_bits(true)
            .with_decode_padding_mode(DecodePaddingMode::RequireNone),
    );
    ENGINE.decode(data.as_bytes()).ok()
}

/// <https://fetch.spec.whatwg.org/#data-url-processor>
pub fn process_data_url(data_url: &Url) -> Result<DataUrl, DataUrlError> {
    // Step 1: Assert: dataURL's scheme is "data".
    if data_url.scheme() != "data" {
        return Err(DataUrlError::NotData);
    }
    // Step 2: Let input be the result of running the URL serializer on
    // dataURL with exclude fragment set to true.
    let input = &data_url[..Position::AfterQuery];
    // Step 3: Remove the leading "data:" from input.
    let input = &input["data:".len()..];
    // Step 4: Let position point at the start of input.
    // Step 5: Let mimeType be the result of collecting a sequence of code
    // points that are not equal to U+002C (,), given position.
    // Step 7: If position is past the end of input, then return failure.
    let Some((mime_type, encoded_body)) = input.split_once(',') else {
        return Err(DataUrlError::NoComma);
    };
    // Step 6: Strip leading and trailing ASCII whitespace from mimeType.
    let mut mime_type = mime_type.trim_matches(is_ascii_whitespace).to_owned();
    // Step 8: Advance position by 1.
    // Step 9: Let encodedBody be the remainder of input.
    // Step 10: Let body be the percent-decoding of encodedBody.
    let mut body: Vec<u8> = percent_encoding::percent_decode_str(encoded_body).collect();
    // Step 11: If mimeType ends with U+003B (;), followed by zero or more
    // U+0020 SPACE, followed by an ASCII case-insensitive match for
    // "base64", then:
    if let Some(without_base64) = strip_base64_suffix(&mime_type) {
        // Step 11.4: Let stringBody be the isomorphic decode of body.
        let string_body: String = body.iter().map(|&b| char::from(b)).collect();
        // Step 11.5: Set body to the forgiving-base64 decode of stringBody.
        // Step 11.6: If body is failure, then return failure.
        body = forgiving_base64_decode(&string_body).ok_or(DataUrlError::BadBase64)?;
        // Steps 11.1-11.3: Remove the last 6 code points from mimeType,
        // then trailing U+0020 SPACE code points, then the last U+003B (;).
        mime_type = without_base64;
    }
    // Step 12: If mimeType starts with ";", then prepend "text/plain" to
    // mimeType.
    if mime_type.starts_with(';') {
        mime_type.insert_str(0, "text/plain");
    }
    // Step 13: Let mimeTypeRecord be the result of parsing mimeType.
    // Step 14: If mimeTypeRecord is failure, then set mimeTypeRecord to
    // text/plain;charset=US-ASCII.
    let mime_type = MimeType::parse(&mime_type).unwrap_or_else(|| MimeType {
        type_: "text".into(),
        subtype: "plain".into(),
        parameters: vec![("charset".into(), "US-ASCII".into())],
    });
    // Step 15: Return a new data: URL struct whose MIME type is
    // mimeTypeRecord and body is body.
    Ok(DataUrl { mime_type, body })
}

/// Steps 11 and 11.1-11.3: `mimeType` without its `;base64` suffix, if it
/// has one.
fn strip_base64_suffix(mime_type: &str) -> Option<String> {
    let len = mime_type.len();
    if len < 6 || !mime_type.is_char_boundary(len - 6) {
        return None;
    }
    let (rest, last6) = mime_type.split_at(len - 6);
    if !last6.eq_ignore_ascii_case("base64") {
        return None;
    }
    let rest = rest.trim_end_matches(' ');
    rest.strip_suffix(';').map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn process(url: &str) -> Result<(String, Vec<u8>), DataUrlError> {
        let url = Url::parse(url).unwrap();
        process_data_url(&url).map(|d| (d.mime_type.to_string(), d.body))
    }

    #[test]
    fn plain_and_percent_encoded() {
        assert_eq!(
            process("data:,Hello%2C%20World%21"),
            Ok((
                "text/plain;charset=US-ASCII".into(),
                b"Hello, World!".to_vec()
            ))
        );
        assert_eq!(
            process("data:text/html,<p>%e2%82%ac%zz</p>#frag"),
            Ok(("text/html".into(), b"<p>\xe2\x82\xac%zz</p>".to_vec()))
        );
        assert_eq!(
            process("data:;charset=utf-8,x"),
            Ok(("text/plain;charset=utf-8".into(), b"x".to_vec()))
        );
        assert_eq!(
            process("data:text/html;charset=\"a b\",x?q"),
            Ok(("text/html;charset=\"a b\"".into(), b"x?q".to_vec()))
        );
    }

    #[test]
    fn base64() {
        assert_eq!(
            process("data:text/javascript;base64,YWxlcnQoMSk="),
            Ok(("text/javascript".into(), b"alert(1)".to_vec()))
        );
        assert_eq!(
            process("data:;BASE64,SGk"),
            Ok(("text/plain;charset=US-ASCII".into(), b"Hi".to_vec()))
        );
        assert_eq!(
            process("data:image/png ;  base64,%20S%20G%20k%20="),
            Ok(("image/png".into(), b"Hi".to_vec()))
        );
        // Trailing bits are discarded.
        assert_eq!(
            process("data:text/plain;base64,SGl"),
            Ok(("text/plain".into(), b"Hi".to_vec()))
        );
        // Not a `;base64` suffix: the body is taken as is.
        assert_eq!(
            process("data:text/plain;base64x,SGk="),
            Ok(("text/plain".into(), b"SGk=".to_vec()))
        );
        assert_eq!(
            process("data:base64,SGk="),
            Ok(("text/plain;charset=US-ASCII".into(), b"SGk=".to_vec()))
        );
    }

    #[test]
    fn malformed() {
        assert_eq!(process("data:text/plain"), Err(DataUrlError::NoComma));
        assert_eq!(process("data:;base64,SGk=x"), Err(DataUrlError::BadBase64));
        assert_eq!(process("data:;base64,S"), Err(DataUrlError::BadBase64));
        assert_eq!(process("data:;base64,S=Gk"), Err(DataUrlError::BadBase64));
        assert_eq!(process("data:;base64,%ff"), Err(DataUrlError::BadBase64));
        assert_eq!(process("http://x/"), Err(DataUrlError::NotData));
    }

    #[test]
    fn forgiving_base64() {
        assert_eq!(forgiving_base64_decode(""), Some(vec![]));
        assert_eq!(forgiving_base64_decode("ab=="), Some(vec![0x69]));
        assert_eq!(forgiving_base64_decode("ab="), None);
        assert_eq!(forgiving_base64_decode("abc="), Some(vec![0x69, 0xb7]));
        assert_eq!(
            forgiving_base64_decode(" a b\nc d "),
            Some(vec![0x69, 0xb7, 0x1d])
        );
        assert_eq!(forgiving_base64_decode("ab==="), None);
        assert_eq!(forgiving_base64_decode("a-b_"), None);
    }
}
