//! `HTMLTextAreaElement` (<https://html.spec.whatwg.org/multipage/form-elements.html#the-textarea-element>):
//! its raw value and dirty value flag.

use std::cell::{Cell, RefCell};

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;

use crate::dom::bindings::codegen::HTMLTextAreaElementBinding::HTMLTextAreaElementMethods;
use crate::dom::bindings::conversions::DOMString;
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::root::DomRoot;
use crate::dom::html::htmlelement::HTMLElement;
use crate::dom::html::htmlformelement::HTMLFormElement;
use crate::dom::nodes::element::Element;

#[derive(JSTraceable)]
pub struct HTMLTextAreaElement {
    htmlelement: HTMLElement,
    /// <https://html.spec.whatwg.org/multipage/form-elements.html#concept-textarea-raw-value>
    raw_value: RefCell<String>,
    /// <https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#concept-fe-dirty>
    dirty_value: Cell<bool>,
}

impl AsRef<HTMLElement> for HTMLTextAreaElement {
    fn as_ref(&self) -> &HTMLElement {
        &self.htmlelement
    }
}

/// "Normalize newlines": CRLF and CR become LF.
fn normalize_newlines(value: &str) -> String {
    value.replace("\r\n", "\n").replace('\r', "\n")
}

impl HTMLTextAreaElement {
    pub fn new_inherited(element: Element) -> HTMLTextAreaElement {
        HTMLTextAreaElement {
            htmlelement: HTMLElement::new_inherited(element),
            raw_value: RefCell::new(String::new()),
            dirty_value: Cell::new(false),
        }
    }

    pub fn element(&self) -> &Element {
        self.htmlelement.upcast_element()
    }

    /// <https://html.spec.whatwg.org/multipage/form-elements.html#concept-textarea-api-value>:
    /// the raw value with newlines normalized; while the dirty value flag
    /// is false the raw value is the child text content (the default
    /// value), read when asked for (the children changed steps are not
    /// called out to).
    pub fn api_value(&self) -> String {
        if self.dirty_value.get() {
            normalize_newlines(&self.raw_value.borrow())
        } else {
            normalize_newlines(&self.element().upcast_node().child_text_content())
        }
    }

    /// <https://html.spec.whatwg.org/multipage/form-elements.html#the-textarea-element:concept-form-reset-control>:
    /// set the dirty value flag back to false, and set the raw value to
    /// the child text content.
    pub fn reset(&self) {
        self.dirty_value.set(false);
        *self.raw_value.borrow_mut() = self.element().upcast_node().child_text_content();
    }
}

impl HTMLTextAreaElementMethods for HTMLTextAreaElement {
    crate::text_control_reflected_attributes!("form-elements.html", "textarea");

    /// <https://html.spec.whatwg.org/multipage/form-elements.html#dom-textarea-cols>: reflects `cols`, limited to only positive numbers
    /// with fallback (default 20).
    fn Cols(&self, _cx: &mut JSContext) -> u32 {
        match self.element().reflected_unsigned_long("cols", 20) {
            0 => 20,
            n => n,
        }
    }

    fn SetCols(&self, _cx: &mut JSContext, value: u32) -> Fallible<()> {
        let value = if value == 0 { 20 } else { value };
        self.element()
            .set_reflected_unsigned_long("cols", value, 20);
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/form-elements.html#dom-textarea-rows>: reflects `rows`, limited to only positive numbers
    /// with fallback (default 2).
    fn Rows(&self, _cx: &mut JSContext) -> u32 {
        match self.element().reflected_unsigned_long("rows", 2) {
            0 => 2,
            n => n,
        }
    }

    fn SetRows(&self, _cx: &mut JSContext, value: u32) -> Fallible<()> {
        let value = if value == 0 { 2 } else { value };
        self.element().set_reflected_unsigned_long("rows", value, 2);
        Ok(())
    }

    crate::reflect_string_attribute!(
        /// <https://html.spec.whatwg.org/multipage/form-elements.html#dom-textarea-wrap>: reflects `wrap`.
        |this| this.element(), Wrap, SetWrap, "wrap"
    );

    /// <https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#dom-fae-form>
    fn Form(&self, _cx: &mut JSContext) -> Option<DomRoot<HTMLFormElement>> {
        crate::dom::html::forms::form_owner(self.element())
    }

    /// <https://html.spec.whatwg.org/multipage/form-elements.html#dom-textarea-type>
    fn Type(&self, _cx: &mut JSContext) -> DOMString {
        "textarea".into()
    }

    /// <https://html.spec.whatwg.org/multipage/form-elements.html#dom-textarea-defaultvalue>:
    /// the element's child text content.
    fn DefaultValue(&self, _cx: &mut JSContext) -> DOMString {
        self.element().upcast_node().child_text_content()
    }

    /// On setting: string replace all with the given value within this
    /// element.
    fn SetDefaultValue(&self, cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        self.element().string_replace_all(cx, &value);
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/form-elements.html#dom-textarea-value>:
    /// the element's API value.
    fn Value(&self, _cx: &mut JSContext) -> DOMString {
        self.api_value()
    }

    fn SetValue(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        // Step 1: Let oldAPIValue be this element's API value.
        // Step 2: Set this element's raw value to the new value.
        *self.raw_value.borrow_mut() = value;
        // Step 3: Set this element's dirty value flag to true.
        self.dirty_value.set(true);
        // Step 4: (text entry cursor: no selection.)
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/form-elements.html#dom-textarea-textlength>:
    /// the length of the API value (in UTF-16 code units).
    fn TextLength(&self, _cx: &mut JSContext) -> u32 {
        u32::try_from(self.api_value().encode_utf16().count()).unwrap_or(u32::MAX)
    }
}
