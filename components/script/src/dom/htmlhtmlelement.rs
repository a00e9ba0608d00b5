//! `HTMLHtmlElement` (<https://html.spec.whatwg.org/multipage/semantics.html#the-html-element>), the interface of `html` elements.

use mozjs::gc::Traceable;
use mozjs::jsapi::JSTracer;

use crate::dom::bindings::codegen::HTMLHtmlElementBinding::HTMLHtmlElementMethods;
use crate::dom::element::Element;
use crate::dom::htmlelement::HTMLElement;

pub struct HTMLHtmlElement {
    htmlelement: HTMLElement,
}

impl AsRef<HTMLElement> for HTMLHtmlElement {
    fn as_ref(&self) -> &HTMLElement {
        &self.htmlelement
    }
}

unsafe impl Traceable for HTMLHtmlElement {
    unsafe fn trace(&self, trc: *mut JSTracer) {
        unsafe { self.htmlelement.trace(trc) }
    }
}

impl HTMLHtmlElement {
    pub fn new_inherited(element: Element) -> HTMLHtmlElement {
        HTMLHtmlElement {
            htmlelement: HTMLElement::new_inherited(element),
        }
    }
}

impl HTMLHtmlElementMethods for HTMLHtmlElement {}
