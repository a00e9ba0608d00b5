//! `HTMLOListElement` (<https://html.spec.whatwg.org/multipage/grouping-content.html#the-ol-element>), the interface of `ol` elements.

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;

use crate::dom::bindings::codegen::HTMLOListElementBinding::HTMLOListElementMethods;
use crate::dom::bindings::error::Fallible;
use crate::dom::html::htmlelement::HTMLElement;
use crate::dom::nodes::element::Element;

#[derive(JSTraceable)]
pub struct HTMLOListElement {
    htmlelement: HTMLElement,
}

impl AsRef<HTMLElement> for HTMLOListElement {
    fn as_ref(&self) -> &HTMLElement {
        &self.htmlelement
    }
}

impl HTMLOListElement {
    pub fn new_inherited(element: Element) -> HTMLOListElement {
        HTMLOListElement {
            htmlelement: HTMLElement::new_inherited(element),
        }
    }

    pub fn element(&self) -> &Element {
        self.htmlelement.upcast_element()
    }
}

impl HTMLOListElementMethods for HTMLOListElement {
    crate::reflect_bool_attribute!(
        /// <https://html.spec.whatwg.org/multipage/grouping-content.html#dom-ol-reversed>: reflects `reversed`.
        |this| this.element(), Reversed, SetReversed, "reversed"
    );

    /// <https://html.spec.whatwg.org/multipage/grouping-content.html#dom-ol-start>: reflects `start`.
    fn Start(&self, _cx: &mut JSContext) -> i32 {
        self.element().reflected_long("start", 1)
    }

    fn SetStart(&self, _cx: &mut JSContext, value: i32) -> Fallible<()> {
        self.element().set_reflected_long("start", value);
        Ok(())
    }

    crate::reflect_string_attribute!(
        /// <https://html.spec.whatwg.org/multipage/grouping-content.html#dom-ol-type>: reflects `type`.
        |this| this.element(), Type, SetType, "type"
    );
}
