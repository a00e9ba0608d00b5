//! `HTMLLinkElement` (<https://html.spec.whatwg.org/multipage/semantics.html#the-link-element>), the interface of `link` elements.

use jsprof_script_derive::JSTraceable;

use crate::dom::bindings::codegen::HTMLLinkElementBinding::HTMLLinkElementMethods;
use crate::dom::html::htmlelement::HTMLElement;
use crate::dom::nodes::element::Element;

#[derive(JSTraceable)]
pub struct HTMLLinkElement {
    htmlelement: HTMLElement,
}

impl AsRef<HTMLElement> for HTMLLinkElement {
    fn as_ref(&self) -> &HTMLElement {
        &self.htmlelement
    }
}

impl HTMLLinkElement {
    pub fn new_inherited(element: Element) -> HTMLLinkElement {
        HTMLLinkElement {
            htmlelement: HTMLElement::new_inherited(element),
        }
    }

    pub fn element(&self) -> &Element {
        self.htmlelement.upcast_element()
    }
}

impl HTMLLinkElementMethods for HTMLLinkElement {
    crate::reflect_url_attribute!(
        /// <https://html.spec.whatwg.org/multipage/semantics.html#dom-link-href>: reflects `href`.
        |this| this.element(), Href, SetHref, "href"
    );

    crate::reflect_string_attribute!(
        /// <https://html.spec.whatwg.org/multipage/semantics.html#dom-link-rel>: reflects `rel`.
        |this| this.element(), Rel, SetRel, "rel"
    );

    crate::reflect_string_attribute!(
        /// <https://html.spec.whatwg.org/multipage/semantics.html#dom-link-media>: reflects `media`.
        |this| this.element(), Media, SetMedia, "media"
    );

    crate::reflect_string_attribute!(
        /// <https://html.spec.whatwg.org/multipage/semantics.html#dom-link-hreflang>: reflects `hreflang`.
        |this| this.element(), Hreflang, SetHreflang, "hreflang"
    );

    crate::reflect_string_attribute!(
        /// <https://html.spec.whatwg.org/multipage/semantics.html#dom-link-type>: reflects `type`.
        |this| this.element(), Type, SetType, "type"
    );

    crate::reflect_string_attribute!(
        /// <https://html.spec.whatwg.org/multipage/semantics.html#dom-link-integrity>: reflects `integrity`.
        |this| this.element(), Integrity, SetIntegrity, "integrity"
    );
}
