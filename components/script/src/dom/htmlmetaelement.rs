//! `HTMLMetaElement` (<https://html.spec.whatwg.org/multipage/semantics.html#the-meta-element>), the interface of `meta` elements.

use mozjs::context::JSContext;
use mozjs::gc::Traceable;
use mozjs::jsapi::JSTracer;

use crate::dom::bindings::codegen::HTMLMetaElementBinding::HTMLMetaElementMethods;
use crate::dom::bindings::conversions::DOMString;
use crate::dom::bindings::error::Fallible;
use crate::dom::element::Element;
use crate::dom::htmlelement::HTMLElement;

pub struct HTMLMetaElement {
    htmlelement: HTMLElement,
}

impl AsRef<HTMLElement> for HTMLMetaElement {
    fn as_ref(&self) -> &HTMLElement {
        &self.htmlelement
    }
}

unsafe impl Traceable for HTMLMetaElement {
    unsafe fn trace(&self, trc: *mut JSTracer) {
        unsafe { self.htmlelement.trace(trc) }
    }
}

impl HTMLMetaElement {
    pub fn new_inherited(element: Element) -> HTMLMetaElement {
        HTMLMetaElement {
            htmlelement: HTMLElement::new_inherited(element),
        }
    }

    pub fn element(&self) -> &Element {
        self.htmlelement.upcast_element()
    }
}

impl HTMLMetaElementMethods for HTMLMetaElement {
    /// <https://html.spec.whatwg.org/multipage/semantics.html#dom-meta-name>: reflects `name`.
    fn Name(&self, _cx: &mut JSContext) -> DOMString {
        self.element().reflected_string("name")
    }

    fn SetName(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        self.element().set_reflected_string("name", &value);
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/semantics.html#dom-meta-httpequiv>: reflects `http-equiv`.
    fn HttpEquiv(&self, _cx: &mut JSContext) -> DOMString {
        self.element().reflected_string("http-equiv")
    }

    fn SetHttpEquiv(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        self.element().set_reflected_string("http-equiv", &value);
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/semantics.html#dom-meta-content>: reflects `content`.
    fn Content(&self, _cx: &mut JSContext) -> DOMString {
        self.element().reflected_string("content")
    }

    fn SetContent(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        self.element().set_reflected_string("content", &value);
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/semantics.html#dom-meta-media>: reflects `media`.
    fn Media(&self, _cx: &mut JSContext) -> DOMString {
        self.element().reflected_string("media")
    }

    fn SetMedia(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        self.element().set_reflected_string("media", &value);
        Ok(())
    }
}
