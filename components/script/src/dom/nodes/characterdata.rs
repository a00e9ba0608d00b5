//! `CharacterData` (<https://dom.spec.whatwg.org/#interface-characterdata>):
//! the data of `Text` and `Comment` nodes, and the "replace data"
//! algorithm every change of it goes through.
//!
//! Offsets and counts are in UTF-16 code units, as the standard says. The
//! data is kept as a Rust `String`, so an edit that splits a surrogate pair
//! leaves U+FFFD where the lone surrogate would be (a DOMString here is
//! always valid Unicode).

use std::cell::RefCell;

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;

use crate::dom::bindings::codegen::CharacterDataBinding::CharacterDataMethods;
use crate::dom::bindings::conversions::DOMString;
use crate::dom::bindings::error::{DomExceptionName, Error, Fallible};
use crate::dom::nodes::document::Document;
use crate::dom::nodes::node::{Node, NodeKind};

#[derive(JSTraceable)]
pub struct CharacterData {
    node: Node,
    /// <https://dom.spec.whatwg.org/#concept-cd-data>
    data: RefCell<String>,
}

impl AsRef<Node> for CharacterData {
    fn as_ref(&self) -> &Node {
        &self.node
    }
}

impl CharacterData {
    pub fn new_inherited(kind: NodeKind, document: Option<&Document>, data: &str) -> CharacterData {
        CharacterData {
            node: Node::new_inherited(kind, document),
            data: RefCell::new(data.to_owned()),
        }
    }

    pub fn upcast_node(&self) -> &Node {
        &self.node
    }

    pub fn data(&self) -> String {
        self.data.borrow().clone()
    }

    /// Sets the data without the "replace data" steps (a node nobody can
    /// observe yet: the parser's text, a clone).
    pub fn set_data_silently(&self, data: &str) {
        *self.data.borrow_mut() = data.to_owned();
    }

    /// Appends to the data (the parser's text insertion, which HTML runs
    /// without mutation records for a node not yet observable).
    pub fn append_data_silently(&self, data: &str) {
        self.data.borrow_mut().push_str(data);
    }

    /// <https://dom.spec.whatwg.org/#concept-node-length> of a
    /// CharacterData node: its data's length in UTF-16 code units.
    pub fn length(&self) -> u32 {
        self.data.borrow().encode_utf16().count() as u32
    }

    /// <https://dom.spec.whatwg.org/#concept-cd-replace>
    pub fn replace_data(&self, offset: u32, count: u32, data: &str) -> Fallible<()> {
        let units: Vec<u16> = self.data.borrow().encode_utf16().collect();
        // Step 1: Let length be node's length.
        let length = units.len() as u32;
        // Step 2: If offset is greater than length, then throw an
        // "IndexSizeError" DOMException.
        if offset > length {
            return Err(Error::dom(DomExceptionName::IndexSizeError));
        }
        // Step 3: If offset plus count is greater than length, then set
        // count to length minus offset.
        let count = count.min(length - offset);
        // Step 4: Queue a mutation record of "characterData" for node with
        // null, null, node's data, « », « », null, and null.
        let old = self.data();
        crate::dom::nodes::mutationobserver::queue_character_data_record(&self.node, &old);
        // Step 5: Insert data into node's data after offset code units.
        // Step 6: Let delete offset be offset + data's length.
        // Step 7: Starting from delete offset code units, remove count code
        // units from node's data.
        let (offset, count) = (offset as usize, count as usize);
        let mut new: Vec<u16> = Vec::with_capacity(units.len() + data.len());
        new.extend_from_slice(&units[..offset]);
        new.extend(data.encode_utf16());
        new.extend_from_slice(&units[offset + count..]);
        *self.data.borrow_mut() = String::from_utf16_lossy(&new);
        // Steps 8-11: live ranges (none here).
        // Step 12: If node's parent is non-null, then run the children
        // changed steps for node's parent.
        if let Some(parent) = self.node.parent() {
            crate::dom::nodes::virtualmethods::children_changed(&parent);
        }
        Ok(())
    }

    /// <https://dom.spec.whatwg.org/#concept-cd-substring>
    fn substring_data(&self, offset: u32, count: u32) -> Fallible<String> {
        let units: Vec<u16> = self.data.borrow().encode_utf16().collect();
        // Step 1: Let length be node's length.
        let length = units.len() as u32;
        // Step 2: If offset is greater than length, then throw an
        // "IndexSizeError" DOMException.
        if offset > length {
            return Err(Error::dom(DomExceptionName::IndexSizeError));
        }
        // Step 3: If offset plus count is greater than length, return a
        // string whose value is the code units from the offsetth code unit
        // to the end of node's data, and then return.
        // Step 4: Return a string whose value is the code units from the
        // offsetth code unit to the offset+countth code unit in node's data.
        let end = offset.saturating_add(count).min(length) as usize;
        Ok(String::from_utf16_lossy(&units[offset as usize..end]))
    }
}

impl CharacterDataMethods for CharacterData {
    /// <https://dom.spec.whatwg.org/#dom-characterdata-data>
    fn Data(&self, _cx: &mut JSContext) -> DOMString {
        self.data()
    }

    /// <https://dom.spec.whatwg.org/#dom-characterdata-data>: replace data
    /// with node this, offset 0, count this's length, and data the new value.
    fn SetData(&self, cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        self.replace_data(0, self.length(), &value)?;
        crate::dom::nodes::virtualmethods::run_post_connection_steps(cx);
        Ok(())
    }

    /// <https://dom.spec.whatwg.org/#dom-characterdata-length>
    fn Length(&self, _cx: &mut JSContext) -> u32 {
        self.length()
    }

    /// <https://dom.spec.whatwg.org/#dom-characterdata-substringdata>
    fn SubstringData(&self, _cx: &mut JSContext, offset: u32, count: u32) -> Fallible<DOMString> {
        self.substring_data(offset, count)
    }

    /// <https://dom.spec.whatwg.org/#dom-characterdata-appenddata>: replace
    /// data with node this, offset this's length, count 0, and data data.
    fn AppendData(&self, cx: &mut JSContext, data: DOMString) -> Fallible<()> {
        self.replace_data(self.length(), 0, &data)?;
        crate::dom::nodes::virtualmethods::run_post_connection_steps(cx);
        Ok(())
    }

    /// <https://dom.spec.whatwg.org/#dom-characterdata-insertdata>: replace
    /// data with node this, offset offset, count 0, and data data.
    fn InsertData(&self, cx: &mut JSContext, offset: u32, data: DOMString) -> Fallible<()> {
        self.replace_data(offset, 0, &data)?;
        crate::dom::nodes::virtualmethods::run_post_connection_steps(cx);
        Ok(())
    }

    /// <https://dom.spec.whatwg.org/#dom-characterdata-deletedata>: replace
    /// data with node this, offset offset, count count, and data the empty
    /// string.
    fn DeleteData(&self, cx: &mut JSContext, offset: u32, count: u32) -> Fallible<()> {
        self.replace_data(offset, count, "")?;
        crate::dom::nodes::virtualmethods::run_post_connection_steps(cx);
        Ok(())
    }

    /// <https://dom.spec.whatwg.org/#dom-characterdata-replacedata>
    fn ReplaceData(
        &self,
        cx: &mut JSContext,
        offset: u32,
        count: u32,
        data: DOMString,
    ) -> Fallible<()> {
        self.replace_data(offset, count, &data)?;
        crate::dom::nodes::virtualmethods::run_post_connection_steps(cx);
        Ok(())
    }

    crate::child_node_methods!();
}

/// The parts of `Text` and `Comment` (a struct `$type` whose only field
/// is `characterdata: CharacterData`, of node kind `$kind`) that are the
/// same: `$type::new_with_proto`, and the interface's constructor
/// (`$methods`), documented by `$doc`.
#[macro_export]
macro_rules! character_data_node {
    ($type:ident, $methods:ident, $kind:expr, $(#[$doc:meta])*) => {
        impl $type {
            fn new_with_proto(
                cx: &mut mozjs::context::JSContext,
                global: &$crate::dom::globals::globalscope::GlobalScope,
                document: Option<&$crate::dom::nodes::document::Document>,
                data: &str,
                proto: Option<mozjs::rust::HandleObject>,
            ) -> $crate::dom::bindings::root::DomRoot<$type> {
                $crate::dom::bindings::reflector::reflect_dom_object(
                    cx,
                    global,
                    Box::new($type {
                        characterdata: $crate::dom::nodes::characterdata::CharacterData::new_inherited(
                            $kind, document, data,
                        ),
                    }),
                    proto,
                )
            }
        }

        impl $methods for $type {
            $(#[$doc])*
            fn Constructor(
                cx: &mut mozjs::context::JSContext,
                global: &$crate::dom::globals::globalscope::GlobalScope,
                proto: Option<mozjs::rust::HandleObject>,
                data: $crate::dom::bindings::conversions::DOMString,
            ) -> $crate::dom::bindings::error::Fallible<$crate::dom::bindings::root::DomRoot<$type>>
            {
                let document = global.as_window().map(|w| w.document(cx));
                Ok(Self::new_with_proto(
                    cx,
                    global,
                    document.as_deref(),
                    &data,
                    proto,
                ))
            }
        }
    };
}
