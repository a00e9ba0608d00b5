//! `HTMLLIElement` (<https://html.spec.whatwg.org/multipage/grouping-content.html#the-li-element>), the interface of `li` elements.

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;

use crate::dom::bindings::codegen::HTMLLIElementBinding::HTMLLIElementMethods;
use crate::dom::bindings::error::Fallible;
use crate::dom::html::htmlelement::HTMLElement;
use crate::dom::nodes::element::Element;

#[derive(JSTraceable)]
pub struct HTMLLIElement {
    htmlelement: HTMLElement,
}

impl AsRef<HTMLElement> for HTMLLIElement {
    fn as_ref(&self) -> &HTMLElement {
        &self.htmlelement
    }
}

impl HTMLLIElement {
    pub fn new_inherited(element: Element) -> HTMLLIElement {
        HTMLLIElement {
            htmlelement: HTMLElement::new_inherited(element),
        }
    }

    pub fn element(&self) -> &Element {
        self.htmlelement.upcast_element()
    }
}

impl HTMLLIElementMethods for HTMLLIElement {
    /// <https://html.spec.whatwg.org/multipage/grouping-content.html#dom-li-value>: reflects `value`.
    fn Value(&self, _cx: &mut JSContext) -> i32 {
        self.element().reflected_long("value", 0)
    }

    fn SetValue(&self, _cx: &mut JSContext, value: i32) -> Fallible<()> {
        self.element().set_reflected_long("value", value);
        Ok(())
    }
}
