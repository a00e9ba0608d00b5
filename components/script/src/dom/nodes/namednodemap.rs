//! `NamedNodeMap` (<https://dom.spec.whatwg.org/#interface-namednodemap>):
//! `Element.attributes`, a live view of the element's attribute list whose
//! entries are the attributes' `Attr` nodes.

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;

use crate::dom::bindings::codegen::NamedNodeMapBinding::NamedNodeMapMethods;
use crate::dom::bindings::conversions::DOMString;
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::reflector::{reflect_dom_object, Reflector};
use crate::dom::bindings::root::{Dom, DomRoot};
use crate::dom::nodes::attr::Attr;
use crate::dom::nodes::element::{Element, HTML_NAMESPACE};

#[derive(JSTraceable)]
pub struct NamedNodeMap {
    pub(crate) reflector: Reflector,
    /// <https://dom.spec.whatwg.org/#concept-namednodemap-element>
    element: Dom<Element>,
}

impl NamedNodeMap {
    pub fn new(cx: &mut JSContext, element: &Element) -> DomRoot<NamedNodeMap> {
        reflect_dom_object(
            cx,
            element.upcast_node().global(),
            Box::new(NamedNodeMap {
                reflector: Reflector::new(),
                element: Dom::from_ref(element),
            }),
            None,
        )
    }
}

impl NamedNodeMapMethods for NamedNodeMap {
    /// <https://dom.spec.whatwg.org/#dom-namednodemap-length>: the
    /// attribute list's size.
    fn Length(&self, _cx: &mut JSContext) -> u32 {
        self.element.root().attribute_list().len() as u32
    }

    /// <https://dom.spec.whatwg.org/#dom-namednodemap-item>
    fn Item(&self, cx: &mut JSContext, index: u32) -> Fallible<Option<DomRoot<Attr>>> {
        Ok(self.IndexedGetter(cx, index))
    }

    /// <https://dom.spec.whatwg.org/#dom-namednodemap-getnameditem>: the
    /// result of getting an attribute given qualifiedName and element.
    fn GetNamedItem(&self, cx: &mut JSContext, name: DOMString) -> Fallible<Option<DomRoot<Attr>>> {
        Ok(self.NamedGetter(cx, name))
    }

    /// <https://dom.spec.whatwg.org/#dom-namednodemap-item>: step 1: if
    /// index is equal to or greater than this's attribute list's size,
    /// then return null; step 2: otherwise, return this's attribute
    /// list\[index].
    fn IndexedGetter(&self, cx: &mut JSContext, index: u32) -> Option<DomRoot<Attr>> {
        let element = self.element.root();
        let (name, _) = element.attribute_list().into_iter().nth(index as usize)?;
        Some(element.attr_node(cx, &name))
    }

    fn SupportedIndexCount(&self, cx: &mut JSContext) -> u32 {
        self.Length(cx)
    }

    fn NamedGetter(&self, cx: &mut JSContext, name: DOMString) -> Option<DomRoot<Attr>> {
        let element = self.element.root();
        element.get_attribute(&name)?;
        let name = element.normalized_attribute_name(&name);
        Some(element.attr_node(cx, &name))
    }

    /// <https://dom.spec.whatwg.org/#ref-for-dfn-supported-property-names%E2%91%A0>:
    /// the qualified names of the attributes, without duplicates; for an
    /// HTML element, without those that contain ASCII upper alphas.
    fn SupportedPropertyNames(&self, _cx: &mut JSContext) -> Vec<DOMString> {
        let element = self.element.root();
        let html = element.namespace() == Some(HTML_NAMESPACE);
        let mut names: Vec<String> = Vec::new();
        for (name, _) in element.attribute_list() {
            if html && name.chars().any(|c| c.is_ascii_uppercase()) {
                continue;
            }
            if !names.contains(&name) {
                names.push(name);
            }
        }
        names
    }
}
