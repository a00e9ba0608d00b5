//! `DOMStringMap` (<https://html.spec.whatwg.org/multipage/dom.html#domstringmap>),
//! the `dataset` of an HTML element: named properties over its `data-*`
//! attributes.

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;

use crate::dom::bindings::codegen::DOMStringMapBinding::DOMStringMapMethods;
use crate::dom::bindings::codegen::ElementBinding::ElementMethods;
use crate::dom::bindings::conversions::DOMString;
use crate::dom::bindings::error::{DomExceptionName, Error, Fallible};
use crate::dom::bindings::reflector::{reflect_dom_object, Reflector};
use crate::dom::bindings::root::{DomRoot, MutNullableDom};
use crate::dom::nodes::element::Element;

#[derive(JSTraceable)]
pub struct DOMStringMap {
    pub(crate) reflector: Reflector,
    /// The associated element.
    element: MutNullableDom<Element>,
}

/// An attribute name for a dataset name: "for each ASCII upper alpha in
/// name, insert a U+002D HYPHEN-MINUS character (-) before the character
/// and replace the character with the same character converted to ASCII
/// lowercase", then "insert the string data- at the front of name".
fn attribute_name(name: &str) -> String {
    let mut out = String::from("data-");
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            out.push('-');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The dataset name of a `data-*` attribute name, if it has one: "remove
/// the first five characters from the attribute's name ... for each
/// U+002D HYPHEN-MINUS character (-) in the name that is followed by an
/// ASCII lower alpha, remove the U+002D HYPHEN-MINUS character (-) and
/// replace the character that followed it by the same character
/// converted to ASCII uppercase"; attributes whose remaining characters
/// include ASCII upper alphas have none.
fn dataset_name(attribute: &str) -> Option<String> {
    let rest = attribute.strip_prefix("data-")?;
    if rest.chars().any(|c| c.is_ascii_uppercase()) {
        return None;
    }
    let mut out = String::new();
    let mut chars = rest.chars().peekable();
    while let Some(c) = chars.next() {
        match chars.peek() {
            Some(next) if c == '-' && next.is_ascii_lowercase() => {
                out.push(next.to_ascii_uppercase());
                chars.next();
            }
            _ => out.push(c),
        }
    }
    Some(out)
}

impl DOMStringMap {
    pub fn new(cx: &mut JSContext, element: &Element) -> DomRoot<DOMStringMap> {
        reflect_dom_object(
            cx,
            element.upcast_node().global(),
            Box::new(DOMStringMap {
                reflector: Reflector::new(),
                element: MutNullableDom::new(Some(element)),
            }),
            None,
        )
    }

    /// <https://html.spec.whatwg.org/multipage/dom.html#concept-domstringmap-pairs>
    fn pairs(&self, cx: &mut JSContext) -> Vec<(String, String)> {
        let Some(element) = self.element.get() else {
            return Vec::new();
        };
        let names = element.GetAttributeNames(cx).unwrap_or_default();
        names
            .into_iter()
            .filter_map(|attribute| {
                let name = dataset_name(&attribute)?;
                let value = element.get_attribute(&attribute)?;
                Some((name, value))
            })
            .collect()
    }
}

impl DOMStringMapMethods for DOMStringMap {
    /// <https://html.spec.whatwg.org/multipage/dom.html#dom-domstringmap-nameditem>:
    /// the value of the name-value pair whose name is `name`.
    fn NamedGetter(&self, cx: &mut JSContext, name: DOMString) -> Option<DOMString> {
        self.pairs(cx)
            .into_iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v)
    }

    /// The supported property names: the names of the name-value pairs,
    /// in attribute order.
    fn SupportedPropertyNames(&self, cx: &mut JSContext) -> Vec<DOMString> {
        self.pairs(cx).into_iter().map(|(n, _)| n).collect()
    }

    /// <https://html.spec.whatwg.org/multipage/dom.html#dom-domstringmap-setitem>
    fn NamedSetter(&self, _cx: &mut JSContext, name: DOMString, value: DOMString) -> Fallible<()> {
        // Step 1: If name contains a U+002D HYPHEN-MINUS character (-)
        // followed by an ASCII lower alpha, then throw a "SyntaxError"
        // DOMException.
        let bytes = name.as_bytes();
        if bytes
            .windows(2)
            .any(|w| w[0] == b'-' && w[1].is_ascii_lowercase())
        {
            return Err(Error::dom_with_message(
                DomExceptionName::SyntaxError,
                format!("'{name}' is not a valid dataset name"),
            ));
        }
        // Steps 2-3: the attribute name.
        let attribute = attribute_name(&name);
        // Step 4: If name is not a valid attribute local name, then throw
        // an "InvalidCharacterError" DOMException.
        if attribute
            .chars()
            .any(|c| c.is_ascii_whitespace() || matches!(c, '\0' | '/' | '=' | '>'))
        {
            return Err(Error::dom(DomExceptionName::InvalidCharacterError));
        }
        // Step 5: Set an attribute value for the DOMStringMap's associated
        // element using name and value.
        if let Some(element) = self.element.get() {
            element.set_attribute_value(&attribute, &value);
        }
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/dom.html#dom-domstringmap-removeitem>
    fn NamedDeleter(&self, _cx: &mut JSContext, name: DOMString) -> Fallible<()> {
        // Steps 1-2: the attribute name.
        // Step 3: Remove an attribute by name given name and the
        // DOMStringMap's associated element.
        if let Some(element) = self.element.get() {
            element.remove_attribute(&attribute_name(&name));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_map_both_ways() {
        assert_eq!(attribute_name("fooBarBaz"), "data-foo-bar-baz");
        assert_eq!(
            dataset_name("data-foo-bar-baz").as_deref(),
            Some("fooBarBaz")
        );
        assert_eq!(dataset_name("data-x-1").as_deref(), Some("x-1"));
        assert_eq!(dataset_name("data-"), Some(String::new()));
        assert_eq!(dataset_name("data-Foo"), None);
        assert_eq!(dataset_name("foo"), None);
    }
}
