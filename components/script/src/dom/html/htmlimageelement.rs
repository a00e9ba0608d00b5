//! `HTMLImageElement` (<https://html.spec.whatwg.org/multipage/embedded-content.html#the-img-element>), the interface of `img` elements.

use jsprof_script_derive::JSTraceable;

use crate::dom::bindings::codegen::HTMLImageElementBinding::HTMLImageElementMethods;
use crate::dom::html::htmlelement::HTMLElement;
use crate::dom::nodes::element::Element;

#[derive(JSTraceable)]
pub struct HTMLImageElement {
    htmlelement: HTMLElement,
}

impl AsRef<HTMLElement> for HTMLImageElement {
    fn as_ref(&self) -> &HTMLElement {
        &self.htmlelement
    }
}

impl HTMLImageElement {
    pub fn new_inherited(element: Element) -> HTMLImageElement {
        HTMLImageElement {
            htmlelement: HTMLElement::new_inherited(element),
        }
    }

    pub fn element(&self) -> &Element {
        self.htmlelement.upcast_element()
    }
}

impl HTMLImageElementMethods for HTMLImageElement {
    crate::reflect_string_attribute!(
        /// <https://html.spec.whatwg.org/multipage/embedded-content.html#dom-img-alt>: reflects `alt`.
        |this| this.element(), Alt, SetAlt, "alt"
    );

    crate::reflect_url_attribute!(
        /// <https://html.spec.whatwg.org/multipage/embedded-content.html#dom-img-src>: reflects `src`.
        |this| this.element(), Src, SetSrc, "src"
    );

    crate::reflect_string_attribute!(
        /// <https://html.spec.whatwg.org/multipage/embedded-content.html#dom-img-srcset>: reflects `srcset`.
        |this| this.element(), Srcset, SetSrcset, "srcset"
    );

    crate::reflect_string_attribute!(
        /// <https://html.spec.whatwg.org/multipage/embedded-content.html#dom-img-sizes>: reflects `sizes`.
        |this| this.element(), Sizes, SetSizes, "sizes"
    );

    crate::reflect_string_attribute!(
        /// <https://html.spec.whatwg.org/multipage/embedded-content.html#dom-img-usemap>: reflects `usemap`.
        |this| this.element(), UseMap, SetUseMap, "usemap"
    );

    crate::reflect_bool_attribute!(
        /// <https://html.spec.whatwg.org/multipage/embedded-content.html#dom-img-ismap>: reflects `ismap`.
        |this| this.element(), IsMap, SetIsMap, "ismap"
    );
}
