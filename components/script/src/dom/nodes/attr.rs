//! `Attr` (<https://dom.spec.whatwg.org/#interface-attr>): the node of one
//! attribute, made on first use by `Element.attributes` and the same object
//! afterwards while the attribute stays on its element. Its value is the
//! element's attribute value, read live; once the attribute is removed the
//! node keeps the last value and has no element.

use std::cell::RefCell;

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;

use crate::dom::bindings::codegen::AttrBinding::AttrMethods;
use crate::dom::bindings::conversions::DOMString;
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::reflector::reflect_dom_object;
use crate::dom::bindings::root::{DomRoot, MutNullableDom};
use crate::dom::nodes::document::Document;
use crate::dom::nodes::element::Element;
use crate::dom::nodes::node::{Node, NodeKind};

#[derive(JSTraceable)]
pub struct Attr {
    node: Node,
    /// <https://dom.spec.whatwg.org/#concept-attribute-qualified-name>
    name: String,
    /// The value once the attribute left its element.
    detached_value: RefCell<String>,
    /// <https://dom.spec.whatwg.org/#concept-attribute-element>
    element: MutNullableDom<Element>,
}

impl AsRef<Node> for Attr {
    fn as_ref(&self) -> &Node {
        &self.node
    }
}

impl Attr {
    /// The node of `element`'s attribute `name`.
    pub fn new(
        cx: &mut JSContext,
        document: &Document,
        element: Option<&Element>,
        name: &str,
        value: &str,
    ) -> DomRoot<Attr> {
        reflect_dom_object(
            cx,
            document.upcast_node().global(),
            Box::new(Attr {
                node: Node::new_inherited(NodeKind::Attribute, Some(document)),
                name: name.to_owned(),
                detached_value: RefCell::new(value.to_owned()),
                element: MutNullableDom::new(element),
            }),
            None,
        )
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// <https://dom.spec.whatwg.org/#concept-attribute-value>
    pub fn value(&self) -> String {
        match self.element.get() {
            Some(element) => element.get_attribute(&self.name).unwrap_or_default(),
            None => self.detached_value.borrow().clone(),
        }
    }

    /// The attribute was removed from its element, whose value it was.
    pub fn detach(&self, value: &str) {
        *self.detached_value.borrow_mut() = value.to_owned();
        self.element.set(None);
    }
}

impl AttrMethods for Attr {
    /// <https://dom.spec.whatwg.org/#dom-attr-namespaceuri>
    fn NamespaceURI(&self, _cx: &mut JSContext) -> Option<DOMString> {
        None
    }

    /// <https://dom.spec.whatwg.org/#dom-attr-prefix>
    fn Prefix(&self, _cx: &mut JSContext) -> Option<DOMString> {
        None
    }

    /// <https://dom.spec.whatwg.org/#dom-attr-localname>
    fn LocalName(&self, _cx: &mut JSContext) -> DOMString {
        self.name.clone()
    }

    /// <https://dom.spec.whatwg.org/#dom-attr-name>: the qualified name.
    fn Name(&self, _cx: &mut JSContext) -> DOMString {
        self.name.clone()
    }

    /// <https://dom.spec.whatwg.org/#dom-attr-value>
    fn Value(&self, _cx: &mut JSContext) -> DOMString {
        self.value()
    }

    /// <https://dom.spec.whatwg.org/#set-an-existing-attribute-value>
    fn SetValue(&self, cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        match self.element.get() {
            // Step 1: If attribute's element is null, then set attribute's
            // value to value.
            None => *self.detached_value.borrow_mut() = value,
            // Step 2: Otherwise, change attribute to value.
            Some(element) => {
                element.set_attribute_value(&self.name, &value);
                crate::dom::nodes::virtualmethods::run_post_connection_steps(cx);
            }
        }
        Ok(())
    }

    /// <https://dom.spec.whatwg.org/#dom-attr-ownerelement>
    fn OwnerElement(&self, _cx: &mut JSContext) -> Option<DomRoot<Element>> {
        self.element.get()
    }

    /// <https://dom.spec.whatwg.org/#dom-attr-specified>: always true.
    fn Specified(&self, _cx: &mut JSContext) -> bool {
        true
    }
}
