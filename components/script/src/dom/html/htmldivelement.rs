//! `HTMLDivElement` (<https://html.spec.whatwg.org/multipage/grouping-content.html#the-div-element>), the interface of `div` elements.

use jsprof_script_derive::JSTraceable;

use crate::dom::bindings::codegen::HTMLDivElementBinding::HTMLDivElementMethods;
use crate::dom::html::htmlelement::HTMLElement;
use crate::dom::nodes::element::Element;

#[derive(JSTraceable)]
pub struct HTMLDivElement {
    htmlelement: HTMLElement,
}

impl AsRef<HTMLElement> for HTMLDivElement {
    fn as_ref(&self) -> &HTMLElement {
        &self.htmlelement
    }
}

impl HTMLDivElement {
    pub fn new_inherited(element: Element) -> HTMLDivElement {
        HTMLDivElement {
            htmlelement: HTMLElement::new_inherited(element),
        }
    }
}

impl HTMLDivElementMethods for HTMLDivElement {}
