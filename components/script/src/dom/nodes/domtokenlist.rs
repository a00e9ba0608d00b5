//! `DOMTokenList` (<https://dom.spec.whatwg.org/#interface-domtokenlist>)
//! over an element's attribute (`classList`: `class`). The token set is
//! the attribute's value parsed as an ordered set each time it is read,
//! so it always follows the attribute
//! (<https://dom.spec.whatwg.org/#ref-for-concept-element-attributes-change-ext①>).

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;

use crate::dom::bindings::codegen::DOMTokenListBinding::DOMTokenListMethods;
use crate::dom::bindings::conversions::DOMString;
use crate::dom::bindings::error::{DomExceptionName, Error, Fallible};
use crate::dom::bindings::reflector::{reflect_dom_object, Reflector};
use crate::dom::bindings::root::{DomRoot, MutNullableDom};
use crate::dom::nodes::element::Element;

#[derive(JSTraceable)]
pub struct DOMTokenList {
    pub(crate) reflector: Reflector,
    /// The associated element.
    element: MutNullableDom<Element>,
    /// The associated attribute's local name.
    local_name: &'static str,
}

/// <https://dom.spec.whatwg.org/#concept-ordered-set-parser>: split on
/// ASCII whitespace, duplicates dropped, first occurrence kept.
pub fn ordered_set_parse(input: &str) -> Vec<String> {
    let mut tokens: Vec<String> = Vec::new();
    for token in input.split_ascii_whitespace() {
        if !tokens.iter().any(|t| t == token) {
            tokens.push(token.to_owned());
        }
    }
    tokens
}

/// The validation steps of add/remove/toggle/replace: an empty token is a
/// "SyntaxError", one containing ASCII whitespace an
/// "InvalidCharacterError".
fn validate(token: &str) -> Fallible<()> {
    // Step 1: If token is the empty string, then throw a "SyntaxError"
    // DOMException.
    if token.is_empty() {
        return Err(Error::dom_with_message(
            DomExceptionName::SyntaxError,
            "The token must not be empty.",
        ));
    }
    // Step 2: If token contains any ASCII whitespace, then throw an
    // "InvalidCharacterError" DOMException.
    if token.contains(['\t', '\n', '\x0C', '\r', ' ']) {
        return Err(Error::dom_with_message(
            DomExceptionName::InvalidCharacterError,
            format!("The token '{token}' contains whitespace."),
        ));
    }
    Ok(())
}

impl DOMTokenList {
    pub fn new(
        cx: &mut JSContext,
        element: &Element,
        local_name: &'static str,
    ) -> DomRoot<DOMTokenList> {
        reflect_dom_object(
            cx,
            element.upcast_node().global(),
            Box::new(DOMTokenList {
                reflector: Reflector::new(),
                element: MutNullableDom::new(Some(element)),
                local_name,
            }),
            None,
        )
    }

    fn element(&self) -> Option<DomRoot<Element>> {
        self.element.get()
    }

    /// The token set: the attribute's value parsed (the empty set when the
    /// attribute is absent).
    fn tokens(&self) -> Vec<String> {
        self.element()
            .and_then(|e| e.get_attribute(self.local_name))
            .map(|v| ordered_set_parse(&v))
            .unwrap_or_default()
    }

    /// <https://dom.spec.whatwg.org/#concept-dtl-update>
    fn update(&self, tokens: &[String]) {
        let Some(element) = self.element() else {
            return;
        };
        // Step 1: If the associated element does not have an associated
        // attribute and token set is empty, then return.
        if element.get_attribute(self.local_name).is_none() && tokens.is_empty() {
            return;
        }
        // Step 2: Set an attribute value for the associated element using
        // associated attribute's local name and the result of running the
        // ordered set serializer for token set.
        element.set_attribute_value(self.local_name, &tokens.join(" "));
    }
}

impl DOMTokenListMethods for DOMTokenList {
    /// <https://dom.spec.whatwg.org/#dom-domtokenlist-length>
    fn Length(&self, _cx: &mut JSContext) -> u32 {
        u32::try_from(self.tokens().len()).unwrap_or(u32::MAX)
    }

    /// <https://dom.spec.whatwg.org/#dom-domtokenlist-item>
    fn Item(&self, _cx: &mut JSContext, index: u32) -> Fallible<Option<DOMString>> {
        // Step 1: If index is equal to or greater than this's token set's
        // size, then return null.
        // Step 2: Return this's token set[index].
        Ok(self.tokens().into_iter().nth(index as usize))
    }

    /// <https://dom.spec.whatwg.org/#ref-for-dfn-supported-property-indices>:
    /// the supported property indices are the numbers in the range zero to
    /// the token set's size minus one.
    fn IndexedGetter(&self, cx: &mut JSContext, index: u32) -> Option<DOMString> {
        self.Item(cx, index).ok().flatten()
    }

    fn SupportedIndexCount(&self, _cx: &mut JSContext) -> u32 {
        u32::try_from(self.tokens().len()).unwrap_or(u32::MAX)
    }

    /// <https://dom.spec.whatwg.org/#dom-domtokenlist-contains>
    fn Contains(&self, _cx: &mut JSContext, token: DOMString) -> Fallible<bool> {
        // Step 1: Return true if this's token set[token] exists; otherwise
        // false.
        Ok(self.tokens().contains(&token))
    }

    /// <https://dom.spec.whatwg.org/#dom-domtokenlist-add>
    fn Add(&self, _cx: &mut JSContext, tokens: Vec<DOMString>) -> Fallible<()> {
        // Step 1: For each token of tokens: validate it.
        for token in &tokens {
            validate(token)?;
        }
        // Step 2: For each token of tokens, append token to this's token
        // set.
        let mut set = self.tokens();
        for token in tokens {
            if !set.contains(&token) {
                set.push(token);
            }
        }
        // Step 3: Run the update steps.
        self.update(&set);
        Ok(())
    }

    /// <https://dom.spec.whatwg.org/#dom-domtokenlist-remove>
    fn Remove(&self, _cx: &mut JSContext, tokens: Vec<DOMString>) -> Fallible<()> {
        // Step 1: For each token of tokens: validate it.
        for token in &tokens {
            validate(token)?;
        }
        // Step 2: For each token of tokens, remove token from this's token
        // set.
        let mut set = self.tokens();
        set.retain(|t| !tokens.contains(t));
        // Step 3: Run the update steps.
        self.update(&set);
        Ok(())
    }

    /// <https://dom.spec.whatwg.org/#dom-domtokenlist-toggle>
    fn Toggle(&self, _cx: &mut JSContext, token: DOMString, force: Option<bool>) -> Fallible<bool> {
        // Steps 1-2: validate token.
        validate(&token)?;
        let mut set = self.tokens();
        // Step 3: If this's token set[token] exists, then:
        if set.contains(&token) {
            // Step 3.1: If force is either not given or is false, then
            // remove token from this's token set, run the update steps and
            // return false.
            if force != Some(true) {
                set.retain(|t| *t != token);
                self.update(&set);
                return Ok(false);
            }
            // Step 3.2: Return true.
            return Ok(true);
        }
        // Step 4: Otherwise, if force not given or is true, append token to
        // this's token set, run the update steps, and return true.
        if force != Some(false) {
            set.push(token);
            self.update(&set);
            return Ok(true);
        }
        // Step 5: Return false.
        Ok(false)
    }

    /// <https://dom.spec.whatwg.org/#dom-domtokenlist-replace>
    fn Replace(
        &self,
        _cx: &mut JSContext,
        token: DOMString,
        new_token: DOMString,
    ) -> Fallible<bool> {
        // Steps 1-2: validate both tokens (empty first, then whitespace).
        if token.is_empty() || new_token.is_empty() {
            return Err(Error::dom_with_message(
                DomExceptionName::SyntaxError,
                "The token must not be empty.",
            ));
        }
        validate(&token)?;
        validate(&new_token)?;
        // Step 3: If this's token set does not contain token, then return
        // false.
        let mut set = self.tokens();
        let Some(index) = set.iter().position(|t| *t == token) else {
            return Ok(false);
        };
        // Step 4: Replace token in this's token set with newToken (the
        // ordered set "replace": the first of token and newToken takes the
        // place, the other is removed).
        let new_index = set.iter().position(|t| *t == new_token);
        match new_index {
            Some(n) if n < index => {
                set.remove(index);
            }
            Some(n) => {
                set[index] = new_token;
                if n != index {
                    set.remove(n);
                }
            }
            None => set[index] = new_token,
        }
        // Step 5: Run the update steps.
        self.update(&set);
        // Step 6: Return true.
        Ok(true)
    }

    /// <https://dom.spec.whatwg.org/#dom-domtokenlist-supports>
    fn Supports(&self, _cx: &mut JSContext, _token: DOMString) -> Fallible<bool> {
        // Step 1: Let result be the return value of validation steps called
        // with token: `class` defines no supported tokens, so "throw a
        // TypeError".
        Err(Error::Type(format!(
            "The '{}' attribute has no supported tokens.",
            self.local_name
        )))
    }

    /// <https://dom.spec.whatwg.org/#dom-domtokenlist-value>: the
    /// associated attribute's value (the empty string when absent).
    fn Value(&self, _cx: &mut JSContext) -> DOMString {
        self.element()
            .and_then(|e| e.get_attribute(self.local_name))
            .unwrap_or_default()
    }

    fn SetValue(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        if let Some(element) = self.element() {
            element.set_attribute_value(self.local_name, &value);
        }
        Ok(())
    }
}
