//! `HTMLHeadElement` (<https://html.spec.whatwg.org/multipage/semantics.html#the-head-element>), the interface of `head` elements.

use mozjs::gc::Traceable;
use mozjs::jsapi::JSTracer;

use crate::dom::bindings::codegen::HTMLHeadElementBinding::HTMLHeadElementMethods;
use crate::dom::element::Element;
use crate::dom::htmlelement::HTMLElement;

pub struct HTMLHeadElement {
    htmlelement: HTMLElement,
}

impl AsRef<HTMLElement> for HTMLHeadElement {
    fn as_ref(&self) -> &HTMLElement {
        &self.htmlelement
    }
}

unsafe impl Traceable for HTMLHeadElement {
    unsafe fn trace(&self, trc: *mut JSTracer) {
        unsafe { self.htmlelement.trace(trc) }
    }
}

impl HTMLHeadElement {
    pub fn new_inherited(element: Element) -> HTMLHeadElement {
        HTMLHeadElement {
            htmlelement: HTMLElement::new_inherited(element),
        }
    }
}

impl HTMLHeadElementMethods for HTMLHeadElement {}
