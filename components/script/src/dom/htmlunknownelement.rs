//! `HTMLUnknownElement` (<https://html.spec.whatwg.org/multipage/dom.html#htmlunknownelement>), the interface of `unknown names` in the HTML namespace (<https://html.spec.whatwg.org/multipage/dom.html#element-interface>).

use mozjs::gc::Traceable;
use mozjs::jsapi::JSTracer;

use crate::dom::bindings::codegen::HTMLUnknownElementBinding::HTMLUnknownElementMethods;
use crate::dom::element::Element;
use crate::dom::htmlelement::HTMLElement;

pub struct HTMLUnknownElement {
    htmlelement: HTMLElement,
}

impl AsRef<HTMLElement> for HTMLUnknownElement {
    fn as_ref(&self) -> &HTMLElement {
        &self.htmlelement
    }
}

unsafe impl Traceable for HTMLUnknownElement {
    unsafe fn trace(&self, trc: *mut JSTracer) {
        unsafe { self.htmlelement.trace(trc) }
    }
}

impl HTMLUnknownElement {
    pub fn new_inherited(element: Element) -> HTMLUnknownElement {
        HTMLUnknownElement {
            htmlelement: HTMLElement::new_inherited(element),
        }
    }
}

impl HTMLUnknownElementMethods for HTMLUnknownElement {}
