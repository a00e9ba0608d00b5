//! `HTMLHeadElement` (<https://html.spec.whatwg.org/multipage/semantics.html#the-head-element>), the interface of `head` elements.

use jsprof_script_derive::JSTraceable;

use crate::dom::bindings::codegen::HTMLHeadElementBinding::HTMLHeadElementMethods;
use crate::dom::html::htmlelement::HTMLElement;
use crate::dom::nodes::element::Element;

#[derive(JSTraceable)]
pub struct HTMLHeadElement {
    htmlelement: HTMLElement,
}

impl AsRef<HTMLElement> for HTMLHeadElement {
    fn as_ref(&self) -> &HTMLElement {
        &self.htmlelement
    }
}

impl HTMLHeadElement {
    pub fn new_inherited(element: Element) -> HTMLHeadElement {
        HTMLHeadElement {
            htmlelement: HTMLElement::new_inherited(element),
        }
    }
}

impl HTMLHeadElementMethods for HTMLHeadElement {}
