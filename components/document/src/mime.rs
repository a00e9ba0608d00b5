//! MIME types as the MIME Sniffing standard parses and serializes them,
//! for `data:` URLs and `file:` content types (the net component), a
//! script's encoding and the `nosniff` check (this component).
//! <https://mimesniff.spec.whatwg.org/#mime-type-representation>

use std::fmt;

use crate::headers::HeaderList;

/// A MIME type record: lowercase type and subtype, and the parameters in
/// order (names lowercase, the first of duplicate names kept).
/// <https://mimesniff.spec.whatwg.org/#mime-type>
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MimeType {
    /// The type, e.g. `text`.
    pub type_: String,
    /// The subtype, e.g. `html`.
    pub subtype: String,
    /// The parameters, e.g. `[("charset", "utf-8")]`.
    pub parameters: Vec<(String, String)>,
}

fn is_http_whitespace(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\t' | ' ')
}

/// <https://mimesniff.spec.whatwg.org/#http-token-code-point>
fn is_http_token_code_point(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

/// <https://mimesniff.spec.whatwg.org/#http-quoted-string-token-code-point>
fn is_http_quoted_string_token_code_point(c: char) -> bool {
    matches!(c, '\t' | ' '..='~' | '\u{80}'..='\u{ff}')
}

fn solely(s: &str, predicate: fn(char) -> bool) -> bool {
    s.chars().all(predicate)
}

/// A cursor over code points, for the spec's "position variable".
struct Input<'a> {
    rest: &'a str,
}

impl<'a> Input<'a> {
    /// <https://infra.spec.whatwg.org/#collect-a-sequence-of-code-points>
    fn collect(&mut self, keep: impl Fn(char) -> bool) -> &'a str {
        let end = self.rest.find(|c| !keep(c)).unwrap_or(self.rest.len());
        let (collected, rest) = self.rest.split_at(end);
        self.rest = rest;
        collected
    }

    fn peek(&self) -> Option<char> {
        self.rest.chars().next()
    }

    fn advance(&mut self) {
        let mut chars = self.rest.chars();
        chars.next();
        self.rest = chars.as_str();
    }

    fn past_end(&self) -> bool {
        self.rest.is_empty()
    }
}

/// <https://fetch.spec.whatwg.org/#collect-an-http-quoted-string> with
/// extract-value true.
fn collect_http_quoted_string_value(input: &mut Input<'_>) -> String {
    collect_http_quoted_string(input).0
}

/// <https://fetch.spec.whatwg.org/#collect-an-http-quoted-string>: the
/// extracted value, and the code points consumed (the extract-value false
/// result).
fn collect_http_quoted_string<'a>(input: &mut Input<'a>) -> (String, &'a str) {
    // Step 1: Let positionStart be position.
    let start = input.rest;
    // Step 2: Let value be the empty string.
    let mut value = String::new();
    // Step 3: Assert: the code point at position is U+0022 (").
    // Step 4: Advance position by 1.
    input.advance();
    // Step 5: While true:
    loop {
        // Step 5.1: Append the result of collecting a sequence of code
        // points that are not U+0022 (") or U+005C (\) to value.
        value.push_str(input.collect(|c| c != '"' && c != '\\'));
        // Step 5.2: If position is past the end of input, then break.
        let Some(quote_or_backslash) = input.peek() else {
            break;
        };
        // Step 5.4: Advance position by 1.
        input.advance();
        if quote_or_backslash == '\\' {
            // Step 5.5.1: If position is past the end of input, then append
            // U+005C (\) to value and break.
            let Some(escaped) = input.peek() else {
                value.push('\\');
                break;
            };
            // Step 5.5.2: Append the code point at position to value.
            value.push(escaped);
            // Step 5.5.3: Advance position by 1.
            input.advance();
        } else {
            // Step 5.6: Otherwise: Assert: quoteOrBackslash is U+0022 (").
            // Break.
            break;
        }
    }
    // Step 6: If extract-value is true, then return value.
    // Step 7: Return the code points from positionStart to position.
    let consumed = &start[..start.len() - input.rest.len()];
    (value, consumed)
}

/// <https://fetch.spec.whatwg.org/#header-value-get-decode-and-split>
pub(crate) fn get_decode_and_split(value: &[u8]) -> Vec<String> {
    // Step 1: Let input be the result of isomorphic decoding value.
    let decoded: String = value.iter().map(|&b| char::from(b)).collect();
    // Step 2: Let position be a position variable for input.
    let mut input = Input { rest: &decoded };
    // Step 3: Let values be a list of strings, initially empty.
    let mut values = Vec::new();
    // Step 4: Let temporaryValue be the empty string.
    let mut temporary_value = String::new();
    // Step 5: While true:
    loop {
        // Step 5.1: Append the result of collecting a sequence of code points
        // that are not U+0022 (") or U+002C (,) to temporaryValue.
        temporary_value.push_str(input.collect(|c| c != '"' && c != ','));
        // Step 5.2: If position is not past the end of input and the code
        // point at position is U+0022 ("): append the result of collecting
        // an HTTP quoted string (extract-value false) to temporaryValue; if
        // position is not past the end of input, then continue.
        if input.peek() == Some('"') {
            temporary_value.push_str(collect_http_quoted_string(&mut input).1);
            if !input.past_end() {
                continue;
            }
        }
        // Step 5.3: Remove all HTTP tab or space from the start and end of
        // temporaryValue.
        // Step 5.4: Append temporaryValue to values.
        // Step 5.5: Set temporaryValue to the empty string.
        values.push(temporary_value.trim_matches(['\t', ' ']).to_owned());
        temporary_value.clear();
        // Step 5.6: If position is past the end of input, then return values.
        if input.past_end() {
            return values;
        }
        // Step 5.7: Assert: the code point at position is U+002C (,).
        // Step 5.8: Advance position by 1.
        input.advance();
    }
}

/// <https://fetch.spec.whatwg.org/#concept-header-extract-mime-type>:
/// the `Content-Type` of a header list, `None` for failure.
pub fn extract_mime_type(headers: &HeaderList) -> Option<MimeType> {
    // Step 1: Let charset be null. Step 2: Let essence be null.
    let mut charset: Option<String> = None;
    let mut essence: Option<String> = None;
    // Step 3: Let mimeType be null.
    let mut mime_type: Option<MimeType> = None;
    // Step 4: Let values be the result of getting, decoding, and splitting
    // `Content-Type` from headers.
    // Step 5: If values is null, then return failure.
    let values = get_decode_and_split(&headers.get("Content-Type")?);
    // Step 6: For each value of values:
    for value in values {
        // Step 6.1: Let temporaryMimeType be the result of parsing value.
        // Step 6.2: If temporaryMimeType is failure or its essence is "*/*",
        // then continue.
        let Some(mut temporary) = MimeType::parse(&value) else {
            continue;
        };
        if temporary.essence() == "*/*" {
            continue;
        }
        // Step 6.3: Set mimeType to temporaryMimeType.
        // Step 6.4: If mimeType's essence is not essence, then: set charset
        // to null; if mimeType's parameters["charset"] exists, then set
        // charset to it; set essence to mimeType's essence.
        if essence.as_deref() != Some(temporary.essence().as_str()) {
            charset = temporary.parameter("charset").map(str::to_owned);
            essence = Some(temporary.essence());
        } else if temporary.parameter("charset").is_none() {
            // Step 6.5: Otherwise, if mimeType's parameters["charset"] does
            // not exist, and charset is non-null, set mimeType's
            // parameters["charset"] to charset.
            if let Some(charset) = &charset {
                temporary
                    .parameters
                    .push(("charset".to_owned(), charset.clone()));
            }
        }
        mime_type = Some(temporary);
    }
    // Step 7: If mimeType is null, then return failure.
    // Step 8: Return mimeType.
    mime_type
}

/// <https://mimesniff.spec.whatwg.org/#javascript-mime-type-essence-match>:
/// whether `string` is an ASCII case-insensitive match for one of the
/// JavaScript MIME type essence strings.
pub fn is_javascript_mime_type_essence_match(string: &str) -> bool {
    matches!(
        string.to_ascii_lowercase().as_str(),
        "application/ecmascript"
            | "application/javascript"
            | "application/x-ecmascript"
            | "application/x-javascript"
            | "text/ecmascript"
            | "text/javascript"
            | "text/javascript1.0"
            | "text/javascript1.1"
            | "text/javascript1.2"
            | "text/javascript1.3"
            | "text/javascript1.4"
            | "text/javascript1.5"
            | "text/jscript"
            | "text/livescript"
            | "text/x-ecmascript"
            | "text/x-javascript"
    )
}

/// <https://mimesniff.spec.whatwg.org/#javascript-mime-type>: a MIME type
/// whose essence is one of the JavaScript MIME type essence strings.
pub fn is_javascript_mime_type(mime_type: &MimeType) -> bool {
    is_javascript_mime_type_essence_match(&mime_type.essence())
}

/// <https://fetch.spec.whatwg.org/#determine-nosniff>
pub(crate) fn determine_nosniff(headers: &HeaderList) -> bool {
    // Step 1: Let values be the result of getting, decoding, and splitting
    // `X-Content-Type-Options` from list.
    // Step 2: If values is null, then return false.
    let Some(value) = headers.get("X-Content-Type-Options") else {
        return false;
    };
    // Step 3: If values[0] is an ASCII case-insensitive match for
    // "nosniff", then return true.
    // Step 4: Return false.
    get_decode_and_split(&value)
        .first()
        .is_some_and(|first| first.eq_ignore_ascii_case("nosniff"))
}

/// <https://fetch.spec.whatwg.org/#should-response-to-request-be-blocked-due-to-nosniff?>
/// for a request whose destination is script-like (`script`, a worker's
/// script): whether a response with `headers` is blocked.
pub(crate) fn script_blocked_due_to_nosniff(headers: &HeaderList) -> bool {
    // Step 1: If determine nosniff with response's header list is false,
    // then return allowed.
    if !determine_nosniff(headers) {
        return false;
    }
    // Step 2: Let mimeType be the result of extracting a MIME type from
    // response's header list.
    // Step 3: Let destination be request's destination (script-like).
    // Step 4: If destination is script-like and one of the following is
    // true, then return blocked: mimeType is failure; mimeType is not a
    // JavaScript MIME type.
    // (Step 5, destination "style": not a script.)
    // Step 6: Return allowed.
    !extract_mime_type(headers).is_some_and(|m| is_javascript_mime_type(&m))
}

impl MimeType {
    /// <https://mimesniff.spec.whatwg.org/#parse-a-mime-type>; `None` is
    /// failure.
    pub fn parse(input: &str) -> Option<MimeType> {
        // Step 1: Remove any leading and trailing HTTP whitespace from input.
        let input = input.trim_matches(is_http_whitespace);
        // Step 2: Let position be a position variable for input.
        let mut input = Input { rest: input };
        // Step 3: Let type be the result of collecting a sequence of code
        // points that are not U+002F (/) from input.
        let type_ = input.collect(|c| c != '/');
        // Step 4: If type is the empty string or does not solely contain
        // HTTP token code points, then return failure.
        if type_.is_empty() || !solely(type_, is_http_token_code_point) {
            return None;
        }
        // Step 5: If position is past the end of input, then return failure.
        if input.past_end() {
            return None;
        }
        // Step 6: Advance position by 1. (This skips past U+002F (/).)
        input.advance();
        // Step 7: Let subtype be the result of collecting a sequence of code
        // points that are not U+003B (;) from input.
        // Step 8: Remove any trailing HTTP whitespace from subtype.
        let subtype = input
            .collect(|c| c != ';')
            .trim_end_matches(is_http_whitespace);
        // Step 9: If subtype is the empty string or does not solely contain
        // HTTP token code points, then return failure.
        if subtype.is_empty() || !solely(subtype, is_http_token_code_point) {
            return None;
        }
        // Step 10: Let mimeType be a new MIME type record whose type is type,
        // in ASCII lowercase, and subtype is subtype, in ASCII lowercase.
        let mut mime_type = MimeType {
            type_: type_.to_ascii_lowercase(),
            subtype: subtype.to_ascii_lowercase(),
            parameters: Vec::new(),
        };
        // Step 11: While position is not past the end of input:
        while !input.past_end() {
            // Step 11.1: Advance position by 1. (This skips past U+003B (;).)
            input.advance();
            // Step 11.2: Collect a sequence of code points that are HTTP
            // whitespace from input given position.
            input.collect(is_http_whitespace);
            // Step 11.3: Let parameterName be the result of collecting a
            // sequence of code points that are not U+003B (;) or U+003D (=).
            // Step 11.4: Set parameterName to parameterName, in ASCII
            // lowercase.
            let parameter_name = input.collect(|c| c != ';' && c != '=').to_ascii_lowercase();
            // Step 11.5: If position is not past the end of input, then:
            if let Some(c) = input.peek() {
                // Step 11.5.1: If the code point at position within input is
                // U+003B (;), then continue.
                if c == ';' {
                    continue;
                }
                // Step 11.5.2: Advance position by 1. (This skips past
                // U+003D (=).)
                input.advance();
            }
            // Step 11.6: If position is past the end of input, then break.
            if input.past_end() {
                break;
            }
            // Step 11.7: Let parameterValue be null.
            // Step 11.8: If the code point at position within input is U+0022
            // ("), then:
            let parameter_value = if input.peek() == Some('"') {
                // Step 11.8.1: Set parameterValue to the result of collecting
                // an HTTP quoted string from input, given position and true.
                let value = collect_http_quoted_string_value(&mut input);
                // Step 11.8.2: Collect a sequence of code points that are not
                // U+003B (;) from input, given position.
                input.collect(|c| c != ';');
                value
            } else {
                // Step 11.9: Otherwise: Step 11.9.1: Set parameterValue to
                // the result of collecting a sequence of code points that are
                // not U+003B (;) from input, given position.
                // Step 11.9.2: Remove any trailing HTTP whitespace from
                // parameterValue.
                let value = input
                    .collect(|c| c != ';')
                    .trim_end_matches(is_http_whitespace);
                // Step 11.9.3: If parameterValue is the empty string, then
                // continue.
                if value.is_empty() {
                    continue;
                }
                value.to_owned()
            };
            // Step 11.10: If all of the following are true: parameterName is
            // not the empty string; parameterName solely contains HTTP token
            // code points; parameterValue solely contains HTTP quoted-string
            // token code points; mimeType's parameters[parameterName] does
            // not exist, then set mimeType's parameters[parameterName] to
            // parameterValue.
            if !parameter_name.is_empty()
                && solely(&parameter_name, is_http_token_code_point)
                && solely(&parameter_value, is_http_quoted_string_token_code_point)
                && !mime_type
                    .parameters
                    .iter()
                    .any(|(name, _)| *name == parameter_name)
            {
                mime_type.parameters.push((parameter_name, parameter_value));
            }
        }
        // Step 12: Return mimeType.
        Some(mime_type)
    }

    /// The essence: `type/subtype`.
    /// <https://mimesniff.spec.whatwg.org/#mime-type-essence>
    pub fn essence(&self) -> String {
        format!("{}/{}", self.type_, self.subtype)
    }

    /// The value of a parameter.
    pub fn parameter(&self, name: &str) -> Option<&str> {
        self.parameters
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// <https://mimesniff.spec.whatwg.org/#serialize-a-mime-type>
impl fmt::Display for MimeType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Step 1: Let serialization be the concatenation of mimeType's type,
        // U+002F (/), and mimeType's subtype.
        write!(f, "{}/{}", self.type_, self.subtype)?;
        // Step 2: For each name → value of mimeType's parameters:
        for (name, value) in &self.parameters {
            // Steps 2.1-2.3: Append U+003B (;), name, U+003D (=).
            write!(f, ";{name}=")?;
            // Step 2.4: If value does not solely contain HTTP token code
            // points or value is the empty string, then: precede each
            // occurrence of U+0022 (") or U+005C (\) in value with U+005C
            // (\), and wrap it in U+0022 (").
            if value.is_empty() || !solely(value, is_http_token_code_point) {
                f.write_str("\"")?;
                for c in value.chars() {
                    if c == '"' || c == '\\' {
                        f.write_str("\\")?;
                    }
                    write!(f, "{c}")?;
                }
                f.write_str("\"")?;
            } else {
                // Step 2.5: Append value to serialization.
                f.write_str(value)?;
            }
        }
        // Step 3: Return serialization.
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(lines: &[(&str, &str)]) -> HeaderList {
        let mut list = HeaderList::default();
        for (name, value) in lines {
            list.append(name, value.as_bytes());
        }
        list
    }

    #[test]
    fn nosniff_blocks_scripts_of_other_types() {
        let js = [("Content-Type", "text/javascript")];
        let css = [("Content-Type", "text/css")];
        // No X-Content-Type-Options: allowed, whatever the type.
        assert!(!script_blocked_due_to_nosniff(&headers(&css)));
        let nosniff = |ct: &[(&'static str, &'static str)], value: &'static str| {
            let mut lines = ct.to_vec();
            lines.push(("X-Content-Type-Options", value));
            script_blocked_due_to_nosniff(&headers(&lines))
        };
        assert!(!nosniff(&js, "nosniff"));
        assert!(!nosniff(
            &[("Content-Type", "Application/X-JavaScript;charset=utf-8")],
            "NoSniff"
        ));
        assert!(nosniff(&css, "nosniff"));
        assert!(nosniff(&[("Content-Type", "text/plain")], "nosniff"));
        // No Content-Type, or one that does not parse: failure, blocked.
        assert!(nosniff(&[], "nosniff"));
        assert!(nosniff(&[("Content-Type", "javascript")], "nosniff"));
        // Only the first value counts.
        assert!(nosniff(&css, "nosniff, other"));
        assert!(!nosniff(&css, "other, nosniff"));
        assert!(!nosniff(&css, ""));
    }

    #[test]
    fn javascript_mime_types() {
        assert!(is_javascript_mime_type_essence_match("TEXT/JavaScript"));
        assert!(!is_javascript_mime_type_essence_match(
            "text/javascript;x=y"
        ));
        assert!(!is_javascript_mime_type_essence_match(" text/javascript"));
        assert!(!is_javascript_mime_type_essence_match("module"));
        let m = MimeType::parse("text/ecmascript; charset=latin1").unwrap();
        assert!(is_javascript_mime_type(&m));
    }

    fn round_trip(input: &str) -> Option<String> {
        MimeType::parse(input).map(|m| m.to_string())
    }

    #[test]
    fn parses_and_serializes() {
        assert_eq!(round_trip(" Text/HTML ").as_deref(), Some("text/html"));
        assert_eq!(
            round_trip("text/html;Charset=UTF-8;charset=latin1").as_deref(),
            Some("text/html;charset=UTF-8")
        );
        assert_eq!(
            round_trip("text/plain; a=\"b\\\"c\" ; d=e f ;;x;y=").as_deref(),
            Some("text/plain;a=\"b\\\"c\";d=\"e f\"")
        );
        assert_eq!(
            round_trip("text/plain;a=\"unterminated\\").as_deref(),
            Some("text/plain;a=\"unterminated\\\\\"")
        );
        assert_eq!(
            round_trip("text/plain;a=\"\"").as_deref(),
            Some("text/plain;a=\"\"")
        );
    }

    #[test]
    fn failures() {
        for bad in [
            "",
            "text",
            "text/",
            "/html",
            "te xt/html",
            "text/ht ml",
            "tëxt/x",
        ] {
            assert_eq!(MimeType::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn decode_and_split() {
        assert_eq!(
            get_decode_and_split(b"text/html;\"\",\" x,y\" , b ,"),
            vec!["text/html;\"\"", "\" x,y\"", "b", ""]
        );
        assert_eq!(
            get_decode_and_split(b"\"unterminated"),
            vec!["\"unterminated"]
        );
        assert_eq!(get_decode_and_split(b"\xe9"), vec!["\u{e9}"]);
    }

    #[test]
    fn extract() {
        let extract = |values: &[&str]| {
            let headers: HeaderList = values.iter().map(|v| ("Content-Type", *v)).collect();
            extract_mime_type(&headers).map(|m| m.to_string())
        };
        assert_eq!(extract(&[]), None);
        assert_eq!(extract(&["bogus"]), None);
        assert_eq!(
            extract(&["text/plain;charset=gbk, text/html"]).as_deref(),
            Some("text/html")
        );
        assert_eq!(
            extract(&["text/html;charset=gbk", "text/html"]).as_deref(),
            Some("text/html;charset=gbk")
        );
        assert_eq!(
            extract(&["text/html;charset=gbk;x=\"1,2\"", "*/*"]).as_deref(),
            Some("text/html;charset=gbk;x=\"1,2\"")
        );
    }

    #[test]
    fn essence_and_parameter() {
        let m = MimeType::parse("Application/JSON; CHARSET=utf-8").unwrap();
        assert_eq!(m.essence(), "application/json");
        assert_eq!(m.parameter("charset"), Some("utf-8"));
        assert_eq!(m.parameter("x"), None);
    }
}
