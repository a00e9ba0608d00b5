//! `HTMLAnchorElement` (<https://html.spec.whatwg.org/multipage/text-level-semantics.html#the-a-element>).
//!
//! Following hyperlinks is not implemented: the shell has no navigation
//! of the top-level page, so an `a` element has no activation behavior
//! here (a click on a link does nothing after its listeners ran).

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;

use crate::dom::bindings::codegen::HTMLAnchorElementBinding::HTMLAnchorElementMethods;
use crate::dom::bindings::conversions::{DOMString, USVString};
use crate::dom::bindings::error::Fallible;
use crate::dom::html::htmlelement::HTMLElement;
use crate::dom::nodes::element::Element;

#[derive(JSTraceable)]
pub struct HTMLAnchorElement {
    htmlelement: HTMLElement,
}

impl AsRef<HTMLElement> for HTMLAnchorElement {
    fn as_ref(&self) -> &HTMLElement {
        &self.htmlelement
    }
}

impl HTMLAnchorElement {
    pub fn new_inherited(element: Element) -> HTMLAnchorElement {
        HTMLAnchorElement {
            htmlelement: HTMLElement::new_inherited(element),
        }
    }

    pub fn element(&self) -> &Element {
        self.htmlelement.upcast_element()
    }
}

impl HTMLAnchorElementMethods for HTMLAnchorElement {
    crate::reflect_string_attribute!(
        /// <https://html.spec.whatwg.org/multipage/text-level-semantics.html#dom-a-target>:
        /// reflects `target`.
        |this| this.element(), Target, SetTarget, "target"
    );

    crate::reflect_string_attribute!(
        /// <https://html.spec.whatwg.org/multipage/text-level-semantics.html#dom-a-download>:
        /// reflects `download`.
        |this| this.element(), Download, SetDownload, "download"
    );

    crate::reflect_string_attribute!(
        /// <https://html.spec.whatwg.org/multipage/text-level-semantics.html#dom-a-rel>:
        /// reflects `rel`.
        |this| this.element(), Rel, SetRel, "rel"
    );

    crate::reflect_string_attribute!(
        /// <https://html.spec.whatwg.org/multipage/text-level-semantics.html#dom-a-hreflang>:
        /// reflects `hreflang`.
        |this| this.element(), Hreflang, SetHreflang, "hreflang"
    );

    crate::reflect_string_attribute!(
        /// <https://html.spec.whatwg.org/multipage/text-level-semantics.html#dom-a-type>:
        /// reflects `type`.
        |this| this.element(), Type, SetType, "type"
    );

    /// <https://html.spec.whatwg.org/multipage/text-level-semantics.html#dom-a-text>:
    /// the element's descendant text content.
    fn Text(&self, _cx: &mut JSContext) -> DOMString {
        self.element().upcast_node().descendant_text_content()
    }

    /// On setting: string replace all with the given value within this
    /// element.
    fn SetText(&self, cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        self.element().string_replace_all(cx, &value);
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-href>
    fn Href(&self, _cx: &mut JSContext) -> USVString {
        // Step 1: Reinitialize url. Step 2: Let url be this's url.
        // Step 3: If url is null and this has no href content attribute,
        // return the empty string. Step 4: Otherwise, if url is null,
        // return this's href content attribute's value. Step 5: Return url,
        // serialized.
        USVString(self.element().reflected_url("href"))
    }

    fn SetHref(&self, _cx: &mut JSContext, value: USVString) -> Fallible<()> {
        self.element().set_reflected_string("href", &value.0);
        Ok(())
    }
}
