//! `HTMLDivElement` (<https://html.spec.whatwg.org/multipage/grouping-content.html#the-div-element>), the interface of `div` elements.

use mozjs::gc::Traceable;
use mozjs::jsapi::JSTracer;

use crate::dom::bindings::codegen::HTMLDivElementBinding::HTMLDivElementMethods;
use crate::dom::element::Element;
use crate::dom::htmlelement::HTMLElement;

pub struct HTMLDivElement {
    htmlelement: HTMLElement,
}

impl AsRef<HTMLElement> for HTMLDivElement {
    fn as_ref(&self) -> &HTMLElement {
        &self.htmlelement
    }
}

unsafe impl Traceable for HTMLDivElement {
    unsafe fn trace(&self, trc: *mut JSTracer) {
        unsafe { self.htmlelement.trace(trc) }
    }
}

impl HTMLDivElement {
    pub fn new_inherited(element: Element) -> HTMLDivElement {
        HTMLDivElement {
            htmlelement: HTMLElement::new_inherited(element),
        }
    }
}

impl HTMLDivElementMethods for HTMLDivElement {}
