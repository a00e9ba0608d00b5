//! `HTMLSpanElement` (<https://html.spec.whatwg.org/multipage/text-level-semantics.html#the-span-element>), the interface of `span` elements.

use mozjs::gc::Traceable;
use mozjs::jsapi::JSTracer;

use crate::dom::bindings::codegen::HTMLSpanElementBinding::HTMLSpanElementMethods;
use crate::dom::element::Element;
use crate::dom::htmlelement::HTMLElement;

pub struct HTMLSpanElement {
    htmlelement: HTMLElement,
}

impl AsRef<HTMLElement> for HTMLSpanElement {
    fn as_ref(&self) -> &HTMLElement {
        &self.htmlelement
    }
}

unsafe impl Traceable for HTMLSpanElement {
    unsafe fn trace(&self, trc: *mut JSTracer) {
        unsafe { self.htmlelement.trace(trc) }
    }
}

impl HTMLSpanElement {
    pub fn new_inherited(element: Element) -> HTMLSpanElement {
        HTMLSpanElement {
            htmlelement: HTMLElement::new_inherited(element),
        }
    }
}

impl HTMLSpanElementMethods for HTMLSpanElement {}
