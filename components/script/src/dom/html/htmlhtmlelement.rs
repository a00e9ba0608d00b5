//! `HTMLHtmlElement` (<https://html.spec.whatwg.org/multipage/semantics.html#the-html-element>), the interface of `html` elements.

use jsprof_script_derive::JSTraceable;

use crate::dom::bindings::codegen::HTMLHtmlElementBinding::HTMLHtmlElementMethods;
use crate::dom::html::htmlelement::HTMLElement;
use crate::dom::nodes::element::Element;

#[derive(JSTraceable)]
pub struct HTMLHtmlElement {
    htmlelement: HTMLElement,
}

impl AsRef<HTMLElement> for HTMLHtmlElement {
    fn as_ref(&self) -> &HTMLElement {
        &self.htmlelement
    }
}

impl HTMLHtmlElement {
    pub fn new_inherited(element: Element) -> HTMLHtmlElement {
        HTMLHtmlElement {
            htmlelement: HTMLElement::new_inherited(element),
        }
    }
}

impl HTMLHtmlElementMethods for HTMLHtmlElement {}
