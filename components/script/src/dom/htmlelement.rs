//! `HTMLElement` (<https://html.spec.whatwg.org/multipage/dom.html#htmlelement>).

use std::cell::Cell;

use mozjs::context::JSContext;
use mozjs::gc::Traceable;
use mozjs::jsapi::JSTracer;

use crate::dom::bindings::codegen::HTMLElementBinding::HTMLElementMethods;
use crate::dom::bindings::conversions::DOMString;
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::root::DomRoot;
use crate::dom::element::Element;
use crate::dom::mouseevent::MouseEvent;

pub struct HTMLElement {
    element: Element,
    /// <https://html.spec.whatwg.org/multipage/interaction.html#click-in-progress-flag>
    click_in_progress: Cell<bool>,
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
        HTMLElement {
            element,
            click_in_progress: Cell::new(false),
        }
    }

    pub fn upcast_element(&self) -> &Element {
        &self.element
    }
}

/// The elements that are disabled form controls when they have a
/// `disabled` attribute
/// (<https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#concept-fe-disabled>;
/// a `fieldset` ancestor's `disabled` is not taken into account).
const DISABLEABLE: &[&str] = &["button", "input", "select", "textarea"];

impl HTMLElementMethods for HTMLElement {
    /// <https://html.spec.whatwg.org/multipage/interaction.html#dom-click>
    fn Click(&self, cx: &mut JSContext) -> Fallible<()> {
        // Step 1: If this element is a form control that is disabled, then
        // return.
        let disabled = DISABLEABLE.iter().any(|name| self.element.is_html(name))
            && self.element.get_attribute("disabled").is_some();
        if disabled {
            return Ok(());
        }
        // Step 2: If this element's click in progress flag is set, then
        // return.
        if self.click_in_progress.get() {
            return Ok(());
        }
        // Step 3: Set this element's click in progress flag.
        self.click_in_progress.set(true);
        // Step 4: Fire a synthetic pointer event named click at this
        // element, with the not trusted flag set.
        let node = self.element.upcast_node();
        let global = node.global();
        let view = node
            .owner_doc()
            .and_then(|d| d.upcast_node().global().as_window().map(DomRoot::from_ref));
        let event = MouseEvent::new_synthetic(cx, global, "click", view.as_deref(), true);
        // "Fire a synthetic pointer event", step 8: Return the result of
        // dispatching event at target.
        node.as_ref().dispatch(cx, event.upcast_event());
        // Step 5: Unset this element's click in progress flag.
        self.click_in_progress.set(false);
        Ok(())
    }

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
