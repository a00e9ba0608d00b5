//! `HTMLUListElement` (<https://html.spec.whatwg.org/multipage/grouping-content.html#the-ul-element>), the interface of `ul` elements.

use jsprof_script_derive::JSTraceable;

use crate::dom::bindings::codegen::HTMLUListElementBinding::HTMLUListElementMethods;
use crate::dom::html::htmlelement::HTMLElement;
use crate::dom::nodes::element::Element;

#[derive(JSTraceable)]
pub struct HTMLUListElement {
    htmlelement: HTMLElement,
}

impl AsRef<HTMLElement> for HTMLUListElement {
    fn as_ref(&self) -> &HTMLElement {
        &self.htmlelement
    }
}

impl HTMLUListElement {
    pub fn new_inherited(element: Element) -> HTMLUListElement {
        HTMLUListElement {
            htmlelement: HTMLElement::new_inherited(element),
        }
    }
}

impl HTMLUListElementMethods for HTMLUListElement {}
