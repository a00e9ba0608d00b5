//! `HTMLHeadingElement` (<https://html.spec.whatwg.org/multipage/sections.html#the-h1,-h2,-h3,-h4,-h5,-and-h6-elements>), the interface of `h1-h6` elements.

use jsprof_script_derive::JSTraceable;

use crate::dom::bindings::codegen::HTMLHeadingElementBinding::HTMLHeadingElementMethods;
use crate::dom::html::htmlelement::HTMLElement;
use crate::dom::nodes::element::Element;

#[derive(JSTraceable)]
pub struct HTMLHeadingElement {
    htmlelement: HTMLElement,
}

impl AsRef<HTMLElement> for HTMLHeadingElement {
    fn as_ref(&self) -> &HTMLElement {
        &self.htmlelement
    }
}

impl HTMLHeadingElement {
    pub fn new_inherited(element: Element) -> HTMLHeadingElement {
        HTMLHeadingElement {
            htmlelement: HTMLElement::new_inherited(element),
        }
    }
}

impl HTMLHeadingElementMethods for HTMLHeadingElement {}
