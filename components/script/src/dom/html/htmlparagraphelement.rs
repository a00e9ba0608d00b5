//! `HTMLParagraphElement` (<https://html.spec.whatwg.org/multipage/grouping-content.html#the-p-element>), the interface of `p` elements.

use jsprof_script_derive::JSTraceable;

use crate::dom::bindings::codegen::HTMLParagraphElementBinding::HTMLParagraphElementMethods;
use crate::dom::html::htmlelement::HTMLElement;
use crate::dom::nodes::element::Element;

#[derive(JSTraceable)]
pub struct HTMLParagraphElement {
    htmlelement: HTMLElement,
}

impl AsRef<HTMLElement> for HTMLParagraphElement {
    fn as_ref(&self) -> &HTMLElement {
        &self.htmlelement
    }
}

impl HTMLParagraphElement {
    pub fn new_inherited(element: Element) -> HTMLParagraphElement {
        HTMLParagraphElement {
            htmlelement: HTMLElement::new_inherited(element),
        }
    }
}

impl HTMLParagraphElementMethods for HTMLParagraphElement {}
