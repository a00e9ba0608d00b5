//! Reflecting content attributes in IDL attributes
//! (<https://html.spec.whatwg.org/multipage/common-dom-interfaces.html#reflecting-content-attributes-in-idl-attributes>):
//! the getter and setter steps shared by every element interface, on
//! [`Element`].

use mozjs::context::JSContext;

use crate::dom::bindings::error::{DomExceptionName, Error, Fallible};
use crate::dom::nodes::element::Element;
use crate::dom::nodes::text::Text;

/// The getter and setter of an IDL attribute of type `DOMString` that
/// reflects the content attribute `$name`
/// ([`Element::reflected_string`], [`Element::set_reflected_string`]) on
/// the element `|this| $element` gives, with the doc comment given.
#[macro_export]
macro_rules! reflect_string_attribute {
    ($(#[$doc:meta])* |$this:ident| $element:expr, $getter:ident, $setter:ident, $name:literal) => {
        $(#[$doc])*
        fn $getter(
            &self,
            _cx: &mut mozjs::context::JSContext,
        ) -> $crate::dom::bindings::conversions::DOMString {
            let $this = self;
            $element.reflected_string($name)
        }

        fn $setter(
            &self,
            _cx: &mut mozjs::context::JSContext,
            value: $crate::dom::bindings::conversions::DOMString,
        ) -> $crate::dom::bindings::error::Fallible<()> {
            let $this = self;
            $element.set_reflected_string($name, &value);
            Ok(())
        }
    };
}

/// The getter and setter of an IDL attribute of type `boolean` that
/// reflects the content attribute `$name` ([`Element::reflected_bool`],
/// [`Element::set_reflected_bool`]).
#[macro_export]
macro_rules! reflect_bool_attribute {
    ($(#[$doc:meta])* |$this:ident| $element:expr, $getter:ident, $setter:ident, $name:literal) => {
        $(#[$doc])*
        fn $getter(&self, _cx: &mut mozjs::context::JSContext) -> bool {
            let $this = self;
            $element.reflected_bool($name)
        }

        fn $setter(
            &self,
            _cx: &mut mozjs::context::JSContext,
            value: bool,
        ) -> $crate::dom::bindings::error::Fallible<()> {
            let $this = self;
            $element.set_reflected_bool($name, value);
            Ok(())
        }
    };
}

/// The getter and setter of an IDL attribute of type `USVString` that
/// reflects the content attribute `$name` as a URL
/// ([`Element::reflected_url`], [`Element::set_reflected_string`]).
#[macro_export]
macro_rules! reflect_url_attribute {
    ($(#[$doc:meta])* |$this:ident| $element:expr, $getter:ident, $setter:ident, $name:literal) => {
        $(#[$doc])*
        fn $getter(
            &self,
            _cx: &mut mozjs::context::JSContext,
        ) -> $crate::dom::bindings::conversions::USVString {
            let $this = self;
            $crate::dom::bindings::conversions::USVString($element.reflected_url($name))
        }

        fn $setter(
            &self,
            _cx: &mut mozjs::context::JSContext,
            value: $crate::dom::bindings::conversions::USVString,
        ) -> $crate::dom::bindings::error::Fallible<()> {
            let $this = self;
            $element.set_reflected_string($name, &value.0);
            Ok(())
        }
    };
}

/// The getter and setter of an IDL attribute of type `long` that reflects
/// the content attribute `$name`, limited to only non-negative numbers
/// ([`Element::reflected_non_negative_long`]: -1 when absent or invalid;
/// [`Element::set_reflected_non_negative_long`]: a negative value throws an
/// "IndexSizeError").
#[macro_export]
macro_rules! reflect_non_negative_long_attribute {
    ($(#[$doc:meta])* |$this:ident| $element:expr, $getter:ident, $setter:ident, $name:literal) => {
        $(#[$doc])*
        fn $getter(&self, _cx: &mut mozjs::context::JSContext) -> i32 {
            let $this = self;
            $element.reflected_non_negative_long($name)
        }

        fn $setter(
            &self,
            _cx: &mut mozjs::context::JSContext,
            value: i32,
        ) -> $crate::dom::bindings::error::Fallible<()> {
            let $this = self;
            $element.set_reflected_non_negative_long($name, value)
        }
    };
}

/// The reflected attributes that `input` and `textarea` (the text
/// controls) both have, for an impl whose type has an `element()`; `$page`
/// and `$prefix` make each interface's own spec links (`input.html`,
/// `input`; `form-elements.html`, `textarea`).
#[macro_export]
macro_rules! text_control_reflected_attributes {
    ($page:literal, $prefix:literal) => {
        $crate::reflect_string_attribute!(
            /// <https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#dom-fe-autocomplete>:
            /// the `autocomplete` attribute's value (not normalized).
            |this| this.element(), Autocomplete, SetAutocomplete, "autocomplete"
        );

        $crate::reflect_bool_attribute!(
            /// <https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#dom-fe-disabled>:
            /// reflects `disabled`.
            |this| this.element(), Disabled, SetDisabled, "disabled"
        );

        $crate::reflect_string_attribute!(
            /// <https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#dom-fe-name>:
            /// reflects `name`.
            |this| this.element(), Name, SetName, "name"
        );

        $crate::reflect_string_attribute!(
            #[doc = concat!("<https://html.spec.whatwg.org/multipage/", $page, "#dom-", $prefix, "-placeholder>:")]
            /// reflects `placeholder`.
            |this| this.element(), Placeholder, SetPlaceholder, "placeholder"
        );

        $crate::reflect_bool_attribute!(
            #[doc = concat!("<https://html.spec.whatwg.org/multipage/", $page, "#dom-", $prefix, "-readonly>:")]
            /// reflects `readonly`.
            |this| this.element(), ReadOnly, SetReadOnly, "readonly"
        );

        $crate::reflect_bool_attribute!(
            #[doc = concat!("<https://html.spec.whatwg.org/multipage/", $page, "#dom-", $prefix, "-required>:")]
            /// reflects `required`.
            |this| this.element(), Required, SetRequired, "required"
        );

        $crate::reflect_non_negative_long_attribute!(
            #[doc = concat!("<https://html.spec.whatwg.org/multipage/", $page, "#dom-", $prefix, "-maxlength>:")]
            /// reflects `maxlength`, limited to only non-negative numbers.
            |this| this.element(), MaxLength, SetMaxLength, "maxlength"
        );

        $crate::reflect_non_negative_long_attribute!(
            #[doc = concat!("<https://html.spec.whatwg.org/multipage/", $page, "#dom-", $prefix, "-minlength>:")]
            /// reflects `minlength`, limited to only non-negative numbers.
            |this| this.element(), MinLength, SetMinLength, "minlength"
        );
    };
}

/// <https://html.spec.whatwg.org/multipage/common-microsyntaxes.html#rules-for-parsing-integers>
pub fn parse_integer(input: &str) -> Option<i64> {
    // Steps 1-3: position at the start, sign positive.
    // Step 4: Skip ASCII whitespace within input given position.
    let s = input.trim_start_matches([' ', '\t', '\n', '\x0C', '\r']);
    let mut chars = s.chars().peekable();
    // Step 5: If position is past the end of input, return an error.
    // Steps 6-7: a leading "-" makes sign negative, a "+" is skipped.
    let mut negative = false;
    match chars.peek() {
        Some('-') => {
            negative = true;
            chars.next();
        }
        Some('+') => {
            chars.next();
        }
        _ => {}
    }
    // Step 8: If position is past the end of input, or the character is not
    // an ASCII digit, return an error.
    // Step 9: Collect a sequence of ASCII digits and interpret them as a
    // base-ten integer (saturating: a value out of range of i64 is out of
    // range of every IDL type it is used for).
    let mut value: i64 = 0;
    let mut digits = 0;
    while let Some(c) = chars.peek().copied().filter(char::is_ascii_digit) {
        value = value
            .saturating_mul(10)
            .saturating_add(i64::from(c as u8 - b'0'));
        digits += 1;
        chars.next();
    }
    if digits == 0 {
        return None;
    }
    // Steps 10-11: apply the sign.
    Some(if negative { -value } else { value })
}

/// <https://html.spec.whatwg.org/multipage/common-microsyntaxes.html#rules-for-parsing-non-negative-integers>
pub fn parse_non_negative_integer(input: &str) -> Option<i64> {
    // Step 1-2: parse an integer; an error is an error.
    // Step 3: If value is less than zero, then return an error.
    parse_integer(input).filter(|v| *v >= 0)
}

impl Element {
    /// <https://dom.spec.whatwg.org/#string-replace-all> with `value`
    /// within this element.
    pub fn string_replace_all(&self, cx: &mut JSContext, value: &str) {
        let node = self.upcast_node();
        // Step 1: Let node be null.
        // Step 2: If string is not the empty string, then set node to a new
        // Text node whose data is string and node document is parent's node
        // document.
        let document = node.owner_doc();
        let text =
            (!value.is_empty()).then(|| Text::new(cx, node.global(), document.as_deref(), value));
        // Step 3: Replace all with node within parent.
        node.replace_all(text.as_ref().map(|t| t.upcast_node()));
    }

    /// The getter of a reflected `DOMString` attribute: the content
    /// attribute's value, or the empty string when absent.
    pub fn reflected_string(&self, name: &str) -> String {
        self.get_attribute(name).unwrap_or_default()
    }

    /// The setter of a reflected `DOMString` attribute: set the content
    /// attribute to the given value.
    pub fn set_reflected_string(&self, name: &str, value: &str) {
        self.set_attribute_value(name, value);
    }

    /// The getter of a reflected `boolean` attribute: true if the content
    /// attribute is present.
    pub fn reflected_bool(&self, name: &str) -> bool {
        self.get_attribute(name).is_some()
    }

    /// The setter of a reflected `boolean` attribute: remove the content
    /// attribute on false, set it to the empty string on true.
    pub fn set_reflected_bool(&self, name: &str, value: bool) {
        if value {
            self.set_attribute_value(name, "");
        } else {
            self.remove_attribute(name);
        }
    }

    /// The getter of a reflected `USVString` attribute marked as a URL:
    /// the empty string if absent; else the content attribute parsed
    /// relative to the element's node document, serialized, or the
    /// attribute's value if parsing fails.
    pub fn reflected_url(&self, name: &str) -> String {
        // Step 1: Let contentAttributeValue be the result of running this's
        // get the content attribute.
        // Step 2: If contentAttributeValue is null, then return the empty
        // string.
        let Some(value) = self.get_attribute(name) else {
            return String::new();
        };
        // Step 3: Let urlString be the result of encoding-parsing-and-
        // serializing a URL given contentAttributeValue, relative to the
        // element's node document.
        let base = self.upcast_node().owner_doc().map(|d| d.url());
        let parsed = match base {
            Some(base) => base.join(&value).ok(),
            None => url::Url::parse(&value).ok(),
        };
        // Step 4: If urlString is not failure, then return urlString.
        // Step 5: Return contentAttributeValue, converted to a scalar value
        // string.
        parsed.map_or(value, String::from)
    }

    /// The getter of a reflected `long` attribute: the content attribute
    /// parsed with the rules for parsing integers if that succeeds and is
    /// in range, else `default`.
    pub fn reflected_long(&self, name: &str, default: i32) -> i32 {
        // Step 1-2: parse the content attribute; if that is not an error
        // and is within the range of the IDL attribute's type, return it.
        // Step 3: Otherwise return the default value.
        self.get_attribute(name)
            .and_then(|v| parse_integer(&v))
            .and_then(|v| i32::try_from(v).ok())
            .unwrap_or(default)
    }

    /// The setter of a reflected `long` attribute: set the content
    /// attribute to the integer's shortest base-ten string.
    pub fn set_reflected_long(&self, name: &str, value: i32) {
        self.set_attribute_value(name, &value.to_string());
    }

    /// The getter of a reflected `long` attribute "limited to only
    /// non-negative numbers"
    /// (<https://html.spec.whatwg.org/multipage/common-dom-interfaces.html#reflecting-content-attributes-in-idl-attributes>,
    /// `maxLength`, `minLength`): the content attribute parsed if that
    /// succeeds, is in range and is not negative, else -1 (the default).
    pub fn reflected_non_negative_long(&self, name: &str) -> i32 {
        self.reflected_long(name, -1).max(-1)
    }

    /// Its setter: "If the reflected IDL attribute has the type long and
    /// is limited to only non-negative numbers, then, on setting, if the
    /// new value is negative, the user agent must throw an "IndexSizeError"
    /// DOMException."
    pub fn set_reflected_non_negative_long(&self, name: &str, value: i32) -> Fallible<()> {
        if value < 0 {
            return Err(Error::dom(DomExceptionName::IndexSizeError));
        }
        self.set_reflected_long(name, value);
        Ok(())
    }

    /// The getter of a reflected `unsigned long` attribute: the content
    /// attribute parsed with the rules for parsing non-negative integers if
    /// that succeeds and is in the range 0 to 2147483647, else `default`.
    pub fn reflected_unsigned_long(&self, name: &str, default: u32) -> u32 {
        self.get_attribute(name)
            .and_then(|v| parse_non_negative_integer(&v))
            .filter(|v| *v <= 2147483647)
            .and_then(|v| u32::try_from(v).ok())
            .unwrap_or(default)
    }

    /// The setter of a reflected `unsigned long` attribute: values above
    /// 2147483647 are replaced by `default`.
    pub fn set_reflected_unsigned_long(&self, name: &str, value: u32, default: u32) {
        let value = if value <= 2147483647 { value } else { default };
        self.set_attribute_value(name, &value.to_string());
    }

    /// The getter of a reflected attribute that is an enumerated attribute
    /// limited to only known values: the keyword (in its canonical case)
    /// the content attribute matches ASCII case-insensitively; `missing`
    /// (the missing value default) when absent; `invalid` (the invalid
    /// value default) when it matches none.
    pub fn reflected_enumerated(
        &self,
        name: &str,
        keywords: &[&'static str],
        missing: &'static str,
        invalid: &'static str,
    ) -> String {
        match self.get_attribute(name) {
            None => missing.to_owned(),
            Some(value) => keywords
                .iter()
                .find(|k| k.eq_ignore_ascii_case(&value))
                .copied()
                .unwrap_or(invalid)
                .to_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_follow_the_html_parsing_rules() {
        assert_eq!(parse_integer("  42px"), Some(42));
        assert_eq!(parse_integer("-7"), Some(-7));
        assert_eq!(parse_integer("+3"), Some(3));
        assert_eq!(parse_integer("x1"), None);
        assert_eq!(parse_integer(""), None);
        assert_eq!(parse_integer("-"), None);
        assert_eq!(parse_non_negative_integer("-1"), None);
        assert_eq!(parse_non_negative_integer("0"), Some(0));
    }
}
