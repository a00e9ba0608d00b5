//! `HTMLImageElement` (<https://html.spec.whatwg.org/multipage/embedded-content.html#the-img-element>), the interface of `img` elements.

use mozjs::context::JSContext;
use mozjs::gc::Traceable;
use mozjs::jsapi::JSTracer;

use crate::dom::bindings::codegen::HTMLImageElementBinding::HTMLImageElementMethods;
use crate::dom::bindings::conversions::{DOMString, USVString};
use crate::dom::bindings::error::Fallible;
use crate::dom::element::Element;
use crate::dom::htmlelement::HTMLElement;

pub struct HTMLImageElement {
    htmlelement: HTMLElement,
}

impl AsRef<HTMLElement> for HTMLImageElement {
    fn as_ref(&self) -> &HTMLElement {
        &self.htmlelement
    }
}

unsafe impl Traceable for HTMLImageElement {
    unsafe fn trace(&self, trc: *mut JSTracer) {
        unsafe { self.htmlelement.trace(trc) }
    }
}

impl HTMLImageElement {
    pub fn new_inherited(element: Element) -> HTMLImageElement {
        HTMLImageElement {
            htmlelement: HTMLElement::new_inherited(element),
        }
    }

    pub fn element(&self) -> &Element {
        self.htmlelement.upcast_element()
    }
}

impl HTMLImageElementMethods for HTMLImageElement {
    /// <https://html.spec.whatwg.org/multipage/embedded-content.html#dom-img-alt>: reflects `alt`.
    fn Alt(&self, _cx: &mut JSContext) -> DOMString {
        self.element().reflected_string("alt")
    }

    fn SetAlt(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        self.element().set_reflected_string("alt", &value);
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/embedded-content.html#dom-img-src>: reflects `src`.
    fn Src(&self, _cx: &mut JSContext) -> USVString {
        USVString(self.element().reflected_url("src"))
    }

    fn SetSrc(&self, _cx: &mut JSContext, value: USVString) -> Fallible<()> {
        self.element().set_reflected_string("src", &value.0);
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/embedded-content.html#dom-img-srcset>: reflects `srcset`.
    fn Srcset(&self, _cx: &mut JSContext) -> DOMString {
        self.element().reflected_string("srcset")
    }

    fn SetSrcset(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        self.element().set_reflected_string("srcset", &value);
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/embedded-content.html#dom-img-sizes>: reflects `sizes`.
    fn Sizes(&self, _cx: &mut JSContext) -> DOMString {
        self.element().reflected_string("sizes")
    }

    fn SetSizes(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        self.element().set_reflected_string("sizes", &value);
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/embedded-content.html#dom-img-usemap>: reflects `usemap`.
    fn UseMap(&self, _cx: &mut JSContext) -> DOMString {
        self.element().reflected_string("usemap")
    }

    fn SetUseMap(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        self.element().set_reflected_string("usemap", &value);
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/embedded-content.html#dom-img-ismap>: reflects `ismap`.
    fn IsMap(&self, _cx: &mut JSContext) -> bool {
        self.element().reflected_bool("ismap")
    }

    fn SetIsMap(&self, _cx: &mut JSContext, value: bool) -> Fallible<()> {
        self.element().set_reflected_bool("ismap", value);
        Ok(())
    }
}
