//! `HTMLTemplateElement` (<https://html.spec.whatwg.org/multipage/scripting.html#the-template-element>), the interface of `template` elements.

use mozjs::gc::Traceable;
use mozjs::jsapi::JSTracer;

use crate::dom::bindings::codegen::HTMLTemplateElementBinding::HTMLTemplateElementMethods;
use crate::dom::element::Element;
use crate::dom::htmlelement::HTMLElement;

pub struct HTMLTemplateElement {
    htmlelement: HTMLElement,
}

impl AsRef<HTMLElement> for HTMLTemplateElement {
    fn as_ref(&self) -> &HTMLElement {
        &self.htmlelement
    }
}

unsafe impl Traceable for HTMLTemplateElement {
    unsafe fn trace(&self, trc: *mut JSTracer) {
        unsafe { self.htmlelement.trace(trc) }
    }
}

impl HTMLTemplateElement {
    pub fn new_inherited(element: Element) -> HTMLTemplateElement {
        HTMLTemplateElement {
            htmlelement: HTMLElement::new_inherited(element),
        }
    }
}

impl HTMLTemplateElementMethods for HTMLTemplateElement {}
