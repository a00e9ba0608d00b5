//! `HTMLUnknownElement` (<https://html.spec.whatwg.org/multipage/dom.html#htmlunknownelement>), the interface of `unknown names` in the HTML namespace (<https://html.spec.whatwg.org/multipage/dom.html#element-interface>).

use jsprof_script_derive::JSTraceable;

use crate::dom::bindings::codegen::HTMLUnknownElementBinding::HTMLUnknownElementMethods;
use crate::dom::html::htmlelement::HTMLElement;
use crate::dom::nodes::element::Element;

#[derive(JSTraceable)]
pub struct HTMLUnknownElement {
    htmlelement: HTMLElement,
}

impl AsRef<HTMLElement> for HTMLUnknownElement {
    fn as_ref(&self) -> &HTMLElement {
        &self.htmlelement
    }
}

impl HTMLUnknownElement {
    pub fn new_inherited(element: Element) -> HTMLUnknownElement {
        HTMLUnknownElement {
            htmlelement: HTMLElement::new_inherited(element),
        }
    }
}

impl HTMLUnknownElementMethods for HTMLUnknownElement {}
