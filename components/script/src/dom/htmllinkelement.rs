//! `HTMLLinkElement` (<https://html.spec.whatwg.org/multipage/semantics.html#the-link-element>), the interface of `link` elements.

use mozjs::context::JSContext;
use mozjs::gc::Traceable;
use mozjs::jsapi::JSTracer;

use crate::dom::bindings::codegen::HTMLLinkElementBinding::HTMLLinkElementMethods;
use crate::dom::bindings::conversions::{DOMString, USVString};
use crate::dom::bindings::error::Fallible;
use crate::dom::element::Element;
use crate::dom::htmlelement::HTMLElement;

pub struct HTMLLinkElement {
    htmlelement: HTMLElement,
}

impl AsRef<HTMLElement> for HTMLLinkElement {
    fn as_ref(&self) -> &HTMLElement {
        &self.htmlelement
    }
}

unsafe impl Traceable for HTMLLinkElement {
    unsafe fn trace(&self, trc: *mut JSTracer) {
        unsafe { self.htmlelement.trace(trc) }
    }
}

impl HTMLLinkElement {
    pub fn new_inherited(element: Element) -> HTMLLinkElement {
        HTMLLinkElement {
            htmlelement: HTMLElement::new_inherited(element),
        }
    }

    pub fn element(&self) -> &Element {
        self.htmlelement.upcast_element()
    }
}

impl HTMLLinkElementMethods for HTMLLinkElement {
    /// <https://html.spec.whatwg.org/multipage/semantics.html#dom-link-href>: reflects `href`.
    fn Href(&self, _cx: &mut JSContext) -> USVString {
        USVString(self.element().reflected_url("href"))
    }

    fn SetHref(&self, _cx: &mut JSContext, value: USVString) -> Fallible<()> {
        self.element().set_reflected_string("href", &value.0);
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/semantics.html#dom-link-rel>: reflects `rel`.
    fn Rel(&self, _cx: &mut JSContext) -> DOMString {
        self.element().reflected_string("rel")
    }

    fn SetRel(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        self.element().set_reflected_string("rel", &value);
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/semantics.html#dom-link-media>: reflects `media`.
    fn Media(&self, _cx: &mut JSContext) -> DOMString {
        self.element().reflected_string("media")
    }

    fn SetMedia(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        self.element().set_reflected_string("media", &value);
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/semantics.html#dom-link-hreflang>: reflects `hreflang`.
    fn Hreflang(&self, _cx: &mut JSContext) -> DOMString {
        self.element().reflected_string("hreflang")
    }

    fn SetHreflang(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        self.element().set_reflected_string("hreflang", &value);
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/semantics.html#dom-link-type>: reflects `type`.
    fn Type(&self, _cx: &mut JSContext) -> DOMString {
        self.element().reflected_string("type")
    }

    fn SetType(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        self.element().set_reflected_string("type", &value);
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/semantics.html#dom-link-integrity>: reflects `integrity`.
    fn Integrity(&self, _cx: &mut JSContext) -> DOMString {
        self.element().reflected_string("integrity")
    }

    fn SetIntegrity(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        self.element().set_reflected_string("integrity", &value);
        Ok(())
    }
}
