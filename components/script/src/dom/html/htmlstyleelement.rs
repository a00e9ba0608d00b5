//! `HTMLStyleElement` (<https://html.spec.whatwg.org/multipage/semantics.html#the-style-element>), the interface of `style` elements.

use jsprof_script_derive::JSTraceable;

use crate::dom::bindings::codegen::HTMLStyleElementBinding::HTMLStyleElementMethods;
use crate::dom::html::htmlelement::HTMLElement;
use crate::dom::nodes::element::Element;

#[derive(JSTraceable)]
pub struct HTMLStyleElement {
    htmlelement: HTMLElement,
}

impl AsRef<HTMLElement> for HTMLStyleElement {
    fn as_ref(&self) -> &HTMLElement {
        &self.htmlelement
    }
}

impl HTMLStyleElement {
    pub fn new_inherited(element: Element) -> HTMLStyleElement {
        HTMLStyleElement {
            htmlelement: HTMLElement::new_inherited(element),
        }
    }

    pub fn element(&self) -> &Element {
        self.htmlelement.upcast_element()
    }
}

impl HTMLStyleElementMethods for HTMLStyleElement {
    crate::reflect_string_attribute!(
        /// <https://html.spec.whatwg.org/multipage/semantics.html#dom-style-media>: reflects `media`.
        |this| this.element(), Media, SetMedia, "media"
    );
}
