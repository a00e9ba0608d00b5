//! `HTMLParagraphElement` (<https://html.spec.whatwg.org/multipage/grouping-content.html#the-p-element>), the interface of `p` elements.

use mozjs::gc::Traceable;
use mozjs::jsapi::JSTracer;

use crate::dom::bindings::codegen::HTMLParagraphElementBinding::HTMLParagraphElementMethods;
use crate::dom::element::Element;
use crate::dom::htmlelement::HTMLElement;

pub struct HTMLParagraphElement {
    htmlelement: HTMLElement,
}

impl AsRef<HTMLElement> for HTMLParagraphElement {
    fn as_ref(&self) -> &HTMLElement {
        &self.htmlelement
    }
}

unsafe impl Traceable for HTMLParagraphElement {
    unsafe fn trace(&self, trc: *mut JSTracer) {
        unsafe { self.htmlelement.trace(trc) }
    }
}

impl HTMLParagraphElement {
    pub fn new_inherited(element: Element) -> HTMLParagraphElement {
        HTMLParagraphElement {
            htmlelement: HTMLElement::new_inherited(element),
        }
    }
}

impl HTMLParagraphElementMethods for HTMLParagraphElement {}
