//! `HTMLMetaElement` (<https://html.spec.whatwg.org/multipage/semantics.html#the-meta-element>), the interface of `meta` elements.

use jsprof_script_derive::JSTraceable;

use crate::dom::bindings::codegen::HTMLMetaElementBinding::HTMLMetaElementMethods;
use crate::dom::html::htmlelement::HTMLElement;
use crate::dom::nodes::element::Element;

#[derive(JSTraceable)]
pub struct HTMLMetaElement {
    htmlelement: HTMLElement,
}

impl AsRef<HTMLElement> for HTMLMetaElement {
    fn as_ref(&self) -> &HTMLElement {
        &self.htmlelement
    }
}

impl HTMLMetaElement {
    pub fn new_inherited(element: Element) -> HTMLMetaElement {
        HTMLMetaElement {
            htmlelement: HTMLElement::new_inherited(element),
        }
    }

    pub fn element(&self) -> &Element {
        self.htmlelement.upcast_element()
    }
}

impl HTMLMetaElementMethods for HTMLMetaElement {
    crate::reflect_string_attribute!(
        /// <https://html.spec.whatwg.org/multipage/semantics.html#dom-meta-name>: reflects `name`.
        |this| this.element(), Name, SetName, "name"
    );

    crate::reflect_string_attribute!(
        /// <https://html.spec.whatwg.org/multipage/semantics.html#dom-meta-httpequiv>: reflects `http-equiv`.
        |this| this.element(), HttpEquiv, SetHttpEquiv, "http-equiv"
    );

    crate::reflect_string_attribute!(
        /// <https://html.spec.whatwg.org/multipage/semantics.html#dom-meta-content>: reflects `content`.
        |this| this.element(), Content, SetContent, "content"
    );

    crate::reflect_string_attribute!(
        /// <https://html.spec.whatwg.org/multipage/semantics.html#dom-meta-media>: reflects `media`.
        |this| this.element(), Media, SetMedia, "media"
    );
}
