//! `HTMLSpanElement` (<https://html.spec.whatwg.org/multipage/text-level-semantics.html#the-span-element>), the interface of `span` elements.

use jsprof_script_derive::JSTraceable;

use crate::dom::bindings::codegen::HTMLSpanElementBinding::HTMLSpanElementMethods;
use crate::dom::html::htmlelement::HTMLElement;
use crate::dom::nodes::element::Element;

#[derive(JSTraceable)]
pub struct HTMLSpanElement {
    htmlelement: HTMLElement,
}

impl AsRef<HTMLElement> for HTMLSpanElement {
    fn as_ref(&self) -> &HTMLElement {
        &self.htmlelement
    }
}

impl HTMLSpanElement {
    pub fn new_inherited(element: Element) -> HTMLSpanElement {
        HTMLSpanElement {
            htmlelement: HTMLElement::new_inherited(element),
        }
    }
}

impl HTMLSpanElementMethods for HTMLSpanElement {}
