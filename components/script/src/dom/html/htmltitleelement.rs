//! `HTMLTitleElement` (<https://html.spec.whatwg.org/multipage/semantics.html#the-title-element>).

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;

use crate::dom::bindings::codegen::HTMLTitleElementBinding::HTMLTitleElementMethods;
use crate::dom::bindings::conversions::DOMString;
use crate::dom::bindings::error::Fallible;
use crate::dom::html::htmlelement::HTMLElement;
use crate::dom::nodes::element::Element;

#[derive(JSTraceable)]
pub struct HTMLTitleElement {
    htmlelement: HTMLElement,
}

impl AsRef<HTMLElement> for HTMLTitleElement {
    fn as_ref(&self) -> &HTMLElement {
        &self.htmlelement
    }
}

impl HTMLTitleElement {
    pub fn new_inherited(element: Element) -> HTMLTitleElement {
        HTMLTitleElement {
            htmlelement: HTMLElement::new_inherited(element),
        }
    }
}

impl HTMLTitleElementMethods for HTMLTitleElement {
    /// <https://html.spec.whatwg.org/multipage/semantics.html#dom-title-text>:
    /// the child text content of the title element.
    fn Text(&self, _cx: &mut JSContext) -> DOMString {
        self.htmlelement
            .upcast_element()
            .upcast_node()
            .child_text_content()
    }

    /// On setting: string replace all with the given value within the
    /// title element.
    fn SetText(&self, cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        self.htmlelement
            .upcast_element()
            .string_replace_all(cx, &value);
        Ok(())
    }
}
