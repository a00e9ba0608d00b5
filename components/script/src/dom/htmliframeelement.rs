//! `HTMLIFrameElement`
//! (<https://html.spec.whatwg.org/multipage/iframe-embed-object.html#the-iframe-element>):
//! its insertion steps create a child navigable (see
//! `crate::script_loading::create_child_navigable`).

use mozjs::context::JSContext;
use mozjs::gc::Traceable;
use mozjs::jsapi::JSTracer;

use crate::browsing_context;
use crate::dom::bindings::codegen::HTMLIFrameElementBinding::HTMLIFrameElementMethods;
use crate::dom::bindings::conversions::{DOMString, RootedJsObject, USVString};
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::root::DomRoot;
use crate::dom::document::Document;
use crate::dom::element::Element;
use crate::dom::globalscope::GlobalScope;
use crate::dom::htmlelement::HTMLElement;

pub struct HTMLIFrameElement {
    htmlelement: HTMLElement,
}

impl AsRef<HTMLElement> for HTMLIFrameElement {
    fn as_ref(&self) -> &HTMLElement {
        &self.htmlelement
    }
}

unsafe impl Traceable for HTMLIFrameElement {
    unsafe fn trace(&self, trc: *mut JSTracer) {
        unsafe { self.htmlelement.trace(trc) }
    }
}

impl HTMLIFrameElement {
    pub fn new_inherited(element: Element) -> HTMLIFrameElement {
        HTMLIFrameElement {
            htmlelement: HTMLElement::new_inherited(element),
        }
    }

    pub fn element(&self) -> &Element {
        self.htmlelement.upcast_element()
    }

    /// The `src` attribute parsed against the node document's URL; `None`
    /// when absent, empty or not a URL (the child then gets
    /// `about:blank`).
    /// <https://html.spec.whatwg.org/multipage/iframe-embed-object.html#shared-attribute-processing-steps-for-iframe-and-frame-elements>
    pub fn src_url(&self) -> Option<url::Url> {
        // Step 1: Let url be the URL "about:blank".
        // Step 2: If element has a src attribute specified, and its value
        // is not the empty string, then: parse it relative to the
        // element's node document; if that is not failure, set url to it.
        let src = self.element().get_attribute("src")?;
        if src.is_empty() {
            return None;
        }
        let base = self.element().upcast_node().owner_doc().map(|d| d.url());
        match base {
            Some(base) => base.join(&src).ok(),
            None => url::Url::parse(&src).ok(),
        }
    }

    /// The child navigable's id, once created.
    pub fn content_navigable(&self) -> Option<browsing_context::NavigableId> {
        browsing_context::navigable_of_container(self)
    }
}

impl HTMLIFrameElementMethods for HTMLIFrameElement {
    /// <https://html.spec.whatwg.org/multipage/iframe-embed-object.html#dom-iframe-src>
    fn Src(&self, _cx: &mut JSContext) -> USVString {
        match self.element().get_attribute("src") {
            None => USVString(String::new()),
            Some(raw) => USVString(self.src_url().map_or(raw, String::from)),
        }
    }

    fn SetSrc(&self, _cx: &mut JSContext, value: USVString) -> Fallible<()> {
        self.element().set_attribute_value("src", &value.0);
        Ok(())
    }

    fn Name(&self, _cx: &mut JSContext) -> DOMString {
        self.element().get_attribute("name").unwrap_or_default()
    }

    fn SetName(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        self.element().set_attribute_value("name", &value);
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/iframe-embed-object.html#dom-iframe-contentdocument>:
    /// "the content document" — null unless the document's origin is the
    /// same as the current settings object's origin.
    fn ContentDocument(&self, cx: &mut JSContext) -> Option<DomRoot<Document>> {
        let window = browsing_context::window_of(self.content_navigable()?)?;
        let current = unsafe { GlobalScope::current(cx) }?;
        let accessor = current.as_window()?;
        if !accessor.origin().same_origin(&window.origin()) {
            return None;
        }
        Some(window.document(cx))
    }

    /// <https://html.spec.whatwg.org/multipage/iframe-embed-object.html#dom-iframe-contentwindow>
    fn ContentWindow(&self, cx: &mut JSContext) -> Option<RootedJsObject> {
        browsing_context::window_proxy_for(cx, self.content_navigable()?)
    }
}
