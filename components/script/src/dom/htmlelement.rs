//! `HTMLElement` (<https://html.spec.whatwg.org/multipage/dom.html#htmlelement>).

use mozjs::context::JSContext;
use mozjs::gc::Traceable;
use mozjs::jsapi::JSTracer;

use crate::dom::bindings::codegen::HTMLElementBinding::HTMLElementMethods;
use crate::dom::bindings::conversions::DOMString;
use crate::dom::bindings::error::Fallible;
use crate::dom::element::Element;

pub struct HTMLElement {
    element: Element,
}

impl AsRef<Element> for HTMLElement {
    fn as_ref(&self) -> &Element {
        &self.element
    }
}

unsafe impl Traceable for HTMLElement {
    unsafe fn trace(&self, trc: *mut JSTracer) {
        unsafe { self.element.trace(trc) }
    }
}

impl HTMLElement {
    pub fn new_inherited(element: Element) -> HTMLElement {
        HTMLElement { element }
    }

    pub fn upcast_element(&self) -> &Element {
        &self.element
    }
}

impl HTMLElementMethods for HTMLElement {
    /// <https://html.spec.whatwg.org/multipage/dom.html#dom-title>: reflects
    /// `title`.
    fn Title(&self, _cx: &mut JSContext) -> DOMString {
        self.element.get_attribute("title").unwrap_or_default()
    }

    fn SetTitle(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        self.element.set_attribute_value("title", &value);
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/dom.html#dom-lang>: reflects
    /// `lang`.
    fn Lang(&self, _cx: &mut JSContext) -> DOMString {
        self.element.get_attribute("lang").unwrap_or_default()
    }

    fn SetLang(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        self.element.set_attribute_value("lang", &value);
        Ok(())
    }
}
