//! `HTMLUListElement` (<https://html.spec.whatwg.org/multipage/grouping-content.html#the-ul-element>), the interface of `ul` elements.

use mozjs::gc::Traceable;
use mozjs::jsapi::JSTracer;

use crate::dom::bindings::codegen::HTMLUListElementBinding::HTMLUListElementMethods;
use crate::dom::element::Element;
use crate::dom::htmlelement::HTMLElement;

pub struct HTMLUListElement {
    htmlelement: HTMLElement,
}

impl AsRef<HTMLElement> for HTMLUListElement {
    fn as_ref(&self) -> &HTMLElement {
        &self.htmlelement
    }
}

unsafe impl Traceable for HTMLUListElement {
    unsafe fn trace(&self, trc: *mut JSTracer) {
        unsafe { self.htmlelement.trace(trc) }
    }
}

impl HTMLUListElement {
    pub fn new_inherited(element: Element) -> HTMLUListElement {
        HTMLUListElement {
            htmlelement: HTMLElement::new_inherited(element),
        }
    }
}

impl HTMLUListElementMethods for HTMLUListElement {}
