//! A Fetch header list and the structured-field look-ups the other modules
//! share.
//!
//! Names compare ASCII case-insensitively; values are bytes, as Fetch has
//! them. Several header lines with the same name combine into one value,
//! joined by `, ` (Fetch's "get"), which is also how RFC 9651 says a
//! structured field split over several lines must be parsed.

use sfv::{Dictionary, Item, Parser, Version};

/// A response's (or request's) header list: ordered (name, value) pairs,
/// duplicates allowed. <https://fetch.spec.whatwg.org/#concept-header-list>
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HeaderList {
    entries: Vec<(String, Vec<u8>)>,
}

/// Which RFC the structured-field parser follows. The issue, the
/// Document-Policy draft and COOP/COEP all name RFC 8941 (no Dates, no
/// Display Strings); a field using RFC 9651-only syntax fails to parse.
pub(crate) const STRUCTURED_FIELD_VERSION: Version = Version::Rfc8941;

impl HeaderList {
    /// An empty header list.
    pub fn new() -> Self {
        Self::default()
    }

    /// <https://fetch.spec.whatwg.org/#concept-header-list-append>, without
    /// the name normalisation (names are compared case-insensitively
    /// instead).
    pub fn append(&mut self, name: &str, value: impl Into<Vec<u8>>) {
        self.entries.push((name.to_owned(), value.into()));
    }

    /// Builder form of [`HeaderList::append`].
    pub fn with(mut self, name: &str, value: impl Into<Vec<u8>>) -> Self {
        self.append(name, value);
        self
    }

    /// Number of header lines.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the list has no header line.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The (name, value) lines, in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &[u8])> {
        self.entries.iter().map(|(n, v)| (n.as_str(), v.as_slice()))
    }

    fn values<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a [u8]> + 'a {
        self.entries
            .iter()
            .filter(move |(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_slice())
    }

    /// <https://fetch.spec.whatwg.org/#header-list-contains>
    pub fn contains(&self, name: &str) -> bool {
        self.values(name).next().is_some()
    }

    /// <https://fetch.spec.whatwg.org/#concept-header-list-get>
    pub fn get(&self, name: &str) -> Option<Vec<u8>> {
        // Step 1: If list does not contain name, then return null.
        if !self.contains(name) {
            return None;
        }
        // Step 2: Return the values of all headers in list whose name is a
        // byte-case-insensitive match for name, separated from each other by
        // 0x2C 0x20, in order.
        let mut combined = Vec::new();
        for (i, value) in self.values(name).enumerate() {
            if i > 0 {
                combined.extend_from_slice(b", ");
            }
            combined.extend_from_slice(value);
        }
        Some(combined)
    }

    /// The single value of a header whose ABNF allows one value only (such
    /// as `Location`): `None` if absent, an error if present more than once.
    /// Step 2 of <https://fetch.spec.whatwg.org/#extract-header-list-values>.
    pub(crate) fn get_single<'a>(
        &'a self,
        name: &'a str,
    ) -> Result<Option<&'a [u8]>, MultipleValues> {
        let mut values = self.values(name);
        let first = values.next();
        if values.next().is_some() {
            return Err(MultipleValues);
        }
        Ok(first)
    }

    /// <https://fetch.spec.whatwg.org/#concept-header-list-get-structured-header>
    /// for type "dictionary", keeping apart "absent" (`Ok(None)`) and "failed
    /// to parse" (`Err`), which Fetch folds into one null: the Document-Policy
    /// parser warns on the second.
    pub fn get_structured_dictionary(&self, name: &str) -> Result<Option<Dictionary>, sfv::Error> {
        // Step 2: Let value be the result of getting name from list.
        // Step 3: If value is null, then return null.
        let Some(value) = self.get(name) else {
            return Ok(None);
        };
        // Step 4: Let result be the result of parsing structured fields with
        // input_string set to value and header_type set to type.
        // Step 5: If parsing failed, then return null.
        // Step 6: Return result.
        Parser::new(&value)
            .with_version(STRUCTURED_FIELD_VERSION)
            .parse::<Dictionary>()
            .map(Some)
    }

    /// <https://fetch.spec.whatwg.org/#concept-header-list-get-structured-header>
    /// for type "item": `None` if the header is absent or fails to parse.
    pub fn get_structured_item(&self, name: &str) -> Option<Item> {
        // Steps 2-3: get name; null if absent.
        let value = self.get(name)?;
        // Steps 4-6: parse; null on failure.
        Parser::new(&value)
            .with_version(STRUCTURED_FIELD_VERSION)
            .parse::<Item>()
            .ok()
    }
}

/// A single-valued header appeared more than once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MultipleValues;

impl<N: AsRef<str>, V: AsRef<[u8]>> FromIterator<(N, V)> for HeaderList {
    fn from_iter<I: IntoIterator<Item = (N, V)>>(iter: I) -> Self {
        let mut list = HeaderList::new();
        for (name, value) in iter {
            list.append(name.as_ref(), value.as_ref().to_vec());
        }
        list
    }
}

/// <https://infra.spec.whatwg.org/#isomorphic-decode>: each byte becomes the
/// code point of the same value, so no byte sequence fails to decode.
pub(crate) fn isomorphic_decode(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| char::from(b)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn get_is_case_insensitive_and_joins_lines_in_order() {
        let list = HeaderList::new()
            .with("Document-Policy", "a")
            .with("content-type", "text/javascript")
            .with("document-POLICY", "b=?0");
        assert_eq!(
            list.get("document-policy").as_deref(),
            Some(&b"a, b=?0"[..])
        );
        assert_eq!(
            list.get("CONTENT-TYPE").as_deref(),
            Some(&b"text/javascript"[..])
        );
        assert_eq!(list.get("missing"), None);
        assert!(list.contains("Content-Type"));
        assert!(!list.contains("Content"));
        assert_eq!(list.len(), 3);
    }

    #[test]
    fn empty_value_is_present_but_empty() {
        let list = HeaderList::new().with("X", "");
        assert_eq!(list.get("x").as_deref(), Some(&b""[..]));
    }

    #[test]
    fn get_single_rejects_duplicates() {
        let list = HeaderList::new()
            .with("Location", "/a")
            .with("location", "/b");
        assert_eq!(list.get_single("Location"), Err(MultipleValues));
        let list = HeaderList::new().with("Location", "/a");
        assert_eq!(list.get_single("location"), Ok(Some(&b"/a"[..])));
        assert_eq!(HeaderList::new().get_single("location"), Ok(None));
    }

    #[test]
    fn structured_dictionary_absent_vs_invalid() {
        let list = HeaderList::new();
        assert!(matches!(list.get_structured_dictionary("d"), Ok(None)));
        let list = HeaderList::new().with("d", "a=");
        assert!(list.get_structured_dictionary("d").is_err());
        let list = HeaderList::new().with("d", "a").with("d", "b=1");
        let dict = list.get_structured_dictionary("d").unwrap().unwrap();
        assert_eq!(dict.len(), 2);
    }

    #[test]
    fn structured_item_rejects_lists_and_rfc9651_only_syntax() {
        let list = HeaderList::new().with("i", "same-origin");
        assert!(list.get_structured_item("i").is_some());
        // Two lines make a list, which is not an item.
        let list = HeaderList::new().with("i", "a").with("i", "b");
        assert!(list.get_structured_item("i").is_none());
        // A Date is RFC 9651 only.
        let list = HeaderList::new().with("i", "@1659578233");
        assert!(list.get_structured_item("i").is_none());
    }

    #[test]
    fn from_iterator_and_isomorphic_decode() {
        let list: HeaderList = [("A", "1"), ("B", "2")].into_iter().collect();
        assert_eq!(
            list.iter().collect::<Vec<_>>(),
            vec![("A", &b"1"[..]), ("B", &b"2"[..])]
        );
        assert_eq!(isomorphic_decode(b"a\xe9"), "a\u{e9}");
    }
}
