//! `HTMLScriptElement`
//! (<https://html.spec.whatwg.org/multipage/scripting.html#htmlscriptelement>)
//! and its script-element state; "prepare the script element" and
//! "execute the script element" are in `crate::script_loading`.

use std::cell::{Cell, RefCell};

use mozjs::context::JSContext;
use mozjs::gc::Traceable;
use mozjs::jsapi::JSTracer;

use crate::dom::bindings::codegen::HTMLScriptElementBinding::HTMLScriptElementMethods;
use crate::dom::bindings::conversions::{DOMString, USVString};
use crate::dom::bindings::error::Fallible;
use crate::dom::element::Element;
use crate::dom::htmlelement::HTMLElement;

pub struct HTMLScriptElement {
    htmlelement: HTMLElement,
    /// <https://html.spec.whatwg.org/multipage/scripting.html#already-started>
    already_started: Cell<bool>,
    /// <https://html.spec.whatwg.org/multipage/scripting.html#parser-document>
    parser_inserted: Cell<bool>,
    /// The line of the HTML file the script's text starts on (inline
    /// scripts), 1-origin.
    line: Cell<u32>,
    /// The document URL the `src` attribute resolves against.
    base_url: RefCell<Option<url::Url>>,
}

impl AsRef<HTMLElement> for HTMLScriptElement {
    fn as_ref(&self) -> &HTMLElement {
        &self.htmlelement
    }
}

unsafe impl Traceable for HTMLScriptElement {
    unsafe fn trace(&self, trc: *mut JSTracer) {
        unsafe { self.htmlelement.trace(trc) }
    }
}

impl HTMLScriptElement {
    pub fn new_inherited(element: Element) -> HTMLScriptElement {
        HTMLScriptElement {
            htmlelement: HTMLElement::new_inherited(element),
            already_started: Cell::new(false),
            parser_inserted: Cell::new(false),
            line: Cell::new(1),
            base_url: RefCell::new(None),
        }
    }

    pub fn element(&self) -> &Element {
        self.htmlelement.upcast_element()
    }

    pub fn already_started(&self) -> bool {
        self.already_started.get()
    }

    pub fn set_already_started(&self, value: bool) {
        self.already_started.set(value);
    }

    pub fn parser_inserted(&self) -> bool {
        self.parser_inserted.get()
    }

    pub fn set_parser_inserted(&self, value: bool, line: u32) {
        self.parser_inserted.set(value);
        self.line.set(line);
    }

    pub fn line(&self) -> u32 {
        self.line.get()
    }

    pub fn set_base_url(&self, url: url::Url) {
        *self.base_url.borrow_mut() = Some(url);
    }

    /// The `src` attribute parsed relative to the document's URL
    /// (<https://html.spec.whatwg.org/multipage/urls-and-fetching.html#encoding-parsing-a-url>);
    /// `Err` with the raw value when it does not parse.
    pub fn resolved_src(&self) -> Option<Result<url::Url, String>> {
        let src = self.element().get_attribute("src")?;
        let base = self.base_url.borrow().clone();
        let parsed = match &base {
            Some(base) => base.join(&src),
            None => url::Url::parse(&src),
        };
        Some(parsed.map_err(|_| src))
    }

    /// The child text content (<https://dom.spec.whatwg.org/#concept-child-text-content>).
    pub fn source_text(&self) -> String {
        self.element().upcast_node().child_text_content()
    }
}

impl HTMLScriptElementMethods for HTMLScriptElement {
    /// <https://html.spec.whatwg.org/multipage/scripting.html#dom-script-src>:
    /// reflects `src` as a URL (resolved).
    fn Src(&self, _cx: &mut JSContext) -> USVString {
        match self.resolved_src() {
            None => USVString(String::new()),
            Some(Ok(url)) => USVString(url.into()),
            Some(Err(raw)) => USVString(raw),
        }
    }

    fn SetSrc(&self, _cx: &mut JSContext, value: USVString) -> Fallible<()> {
        self.element().set_attribute_value("src", &value.0);
        Ok(())
    }

    fn Type(&self, _cx: &mut JSContext) -> DOMString {
        self.element().get_attribute("type").unwrap_or_default()
    }

    fn SetType(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        self.element().set_attribute_value("type", &value);
        Ok(())
    }

    fn Async(&self, _cx: &mut JSContext) -> bool {
        self.element().get_attribute("async").is_some()
    }

    fn SetAsync(&self, _cx: &mut JSContext, value: bool) -> Fallible<()> {
        if value {
            self.element().set_attribute_value("async", "");
        } else {
            self.element().remove_attribute("async");
        }
        Ok(())
    }

    fn Defer(&self, _cx: &mut JSContext) -> bool {
        self.element().get_attribute("defer").is_some()
    }

    fn SetDefer(&self, _cx: &mut JSContext, value: bool) -> Fallible<()> {
        if value {
            self.element().set_attribute_value("defer", "");
        } else {
            self.element().remove_attribute("defer");
        }
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/urls-and-fetching.html#cors-settings-attribute>
    fn CrossOrigin(&self, _cx: &mut JSContext) -> Option<DOMString> {
        self.element().get_attribute("crossorigin").map(|v| {
            if v.eq_ignore_ascii_case("use-credentials") {
                "use-credentials".to_owned()
            } else {
                "anonymous".to_owned()
            }
        })
    }

    fn SetCrossOrigin(&self, _cx: &mut JSContext, value: Option<DOMString>) -> Fallible<()> {
        match value {
            Some(v) => self.element().set_attribute_value("crossorigin", &v),
            None => self.element().remove_attribute("crossorigin"),
        }
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/scripting.html#dom-script-text>
    fn Text(&self, _cx: &mut JSContext) -> DOMString {
        self.source_text()
    }

    fn SetText(&self, cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        // String replace all with the given value within this.
        let node = self.element().upcast_node();
        let text = (!value.is_empty()).then(|| {
            let document = node.owner_doc();
            crate::dom::text::Text::new(cx, node.global(), document.as_deref(), &value)
        });
        node.replace_all(text.as_deref().map(|t| t.upcast_node()));
        Ok(())
    }
}
