//! `HTMLOptionElement` (<https://html.spec.whatwg.org/multipage/form-elements.html#the-option-element>):
//! selectedness and dirtiness.

use std::cell::Cell;

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;

use crate::dom::bindings::codegen::HTMLOptionElementBinding::HTMLOptionElementMethods;
use crate::dom::bindings::conversions::DOMString;
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::root::DomRoot;
use crate::dom::html::htmlelement::HTMLElement;
use crate::dom::html::htmlformelement::HTMLFormElement;
use crate::dom::html::htmlselectelement::HTMLSelectElement;
use crate::dom::nodes::element::Element;

#[derive(JSTraceable)]
pub struct HTMLOptionElement {
    htmlelement: HTMLElement,
    /// <https://html.spec.whatwg.org/multipage/form-elements.html#concept-option-selectedness>
    selectedness: Cell<bool>,
    /// <https://html.spec.whatwg.org/multipage/form-elements.html#concept-option-dirtiness>
    dirtiness: Cell<bool>,
}

impl AsRef<HTMLElement> for HTMLOptionElement {
    fn as_ref(&self) -> &HTMLElement {
        &self.htmlelement
    }
}

impl HTMLOptionElement {
    pub fn new_inherited(element: Element) -> HTMLOptionElement {
        HTMLOptionElement {
            htmlelement: HTMLElement::new_inherited(element),
            selectedness: Cell::new(false),
            dirtiness: Cell::new(false),
        }
    }

    pub fn element(&self) -> &Element {
        self.htmlelement.upcast_element()
    }

    /// The option's select element: its parent, or its optgroup parent's
    /// parent (<https://html.spec.whatwg.org/multipage/form-elements.html#concept-select-option-list>).
    pub fn select(&self) -> Option<DomRoot<HTMLSelectElement>> {
        let parent = self.element().upcast_node().parent()?;
        if let Some(select) = parent.downcast::<HTMLSelectElement>() {
            return Some(select);
        }
        let group = parent.downcast::<Element>()?;
        if !group.is_html("optgroup") {
            return None;
        }
        group
            .upcast_node()
            .parent()?
            .downcast::<HTMLSelectElement>()
    }

    /// The selectedness, after the select element's selectedness setting
    /// algorithm.
    pub fn selectedness(&self) -> bool {
        if let Some(select) = self.select() {
            select.ensure_selectedness();
        }
        self.selectedness.get()
    }

    pub fn raw_selectedness(&self) -> bool {
        self.selectedness.get()
    }

    pub fn set_raw_selectedness(&self, value: bool) {
        self.selectedness.set(value);
    }

    pub fn set_dirtiness(&self, value: bool) {
        self.dirtiness.set(value);
    }

    /// "When an option element's selected attribute is added, if its
    /// dirtiness is false, its selectedness must be set to true; when it
    /// is removed, to false" (and a select element that is not multiple
    /// then keeps only this one selected: "ask for a reset" keeps the
    /// last selected option).
    pub fn attribute_changed(&self, name: &str, value: Option<&str>) {
        if name != "selected" || self.dirtiness.get() {
            return;
        }
        self.selectedness.set(value.is_some());
        if let Some(select) = self.select() {
            if value.is_some() {
                select.deselect_others(self);
            }
            select.ask_for_reset();
        }
    }

    /// <https://html.spec.whatwg.org/multipage/form-elements.html#concept-option-value>:
    /// the `value` attribute, or the element's text.
    pub fn option_value(&self) -> String {
        self.element()
            .get_attribute("value")
            .unwrap_or_else(|| self.text())
    }

    /// <https://html.spec.whatwg.org/multipage/form-elements.html#dom-option-text>:
    /// the descendant text content (not inside `script`), with ASCII
    /// whitespace stripped and collapsed.
    pub fn text(&self) -> String {
        self.element()
            .upcast_node()
            .descendant_text_content()
            .split_ascii_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    }
}

impl HTMLOptionElementMethods for HTMLOptionElement {
    crate::reflect_bool_attribute!(
        /// <https://html.spec.whatwg.org/multipage/form-elements.html#dom-option-disabled>:
        /// reflects `disabled`.
        |this| this.element(), Disabled, SetDisabled, "disabled"
    );

    /// <https://html.spec.whatwg.org/multipage/form-elements.html#dom-option-form>:
    /// the select element's form owner, or null.
    fn Form(&self, _cx: &mut JSContext) -> Option<DomRoot<HTMLFormElement>> {
        let select = self.select()?;
        crate::dom::html::forms::form_owner(select.element())
    }

    /// <https://html.spec.whatwg.org/multipage/form-elements.html#dom-option-label>:
    /// the `label` attribute if present, else the text.
    fn Label(&self, _cx: &mut JSContext) -> DOMString {
        self.element()
            .get_attribute("label")
            .unwrap_or_else(|| self.text())
    }

    fn SetLabel(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        self.element().set_reflected_string("label", &value);
        Ok(())
    }

    crate::reflect_bool_attribute!(
        /// <https://html.spec.whatwg.org/multipage/form-elements.html#dom-option-defaultselected>:
        /// reflects `selected`.
        |this| this.element(), DefaultSelected, SetDefaultSelected, "selected"
    );

    /// <https://html.spec.whatwg.org/multipage/form-elements.html#dom-option-selected>:
    /// the selectedness.
    fn Selected(&self, _cx: &mut JSContext) -> bool {
        self.selectedness()
    }

    /// "On setting, it must set the element's selectedness to the new
    /// value, set its dirtiness to true, and then cause the element to ask
    /// for a reset."
    fn SetSelected(&self, _cx: &mut JSContext, value: bool) -> Fallible<()> {
        self.selectedness.set(value);
        self.dirtiness.set(true);
        if let Some(select) = self.select() {
            if value {
                select.deselect_others(self);
            }
            select.ask_for_reset();
        }
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/form-elements.html#dom-option-value>
    fn Value(&self, _cx: &mut JSContext) -> DOMString {
        self.option_value()
    }

    fn SetValue(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        self.element().set_reflected_string("value", &value);
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/form-elements.html#dom-option-text>
    fn Text(&self, _cx: &mut JSContext) -> DOMString {
        self.text()
    }

    /// On setting: string replace all with the given value within this
    /// element.
    fn SetText(&self, cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        self.element().string_replace_all(cx, &value);
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/form-elements.html#dom-option-index>:
    /// the index in its select's list of options, else 0.
    fn Index(&self, _cx: &mut JSContext) -> i32 {
        self.select()
            .and_then(|s| {
                s.options()
                    .iter()
                    .position(|o| std::ptr::eq::<HTMLOptionElement>(&**o, self))
            })
            .and_then(|i| i32::try_from(i).ok())
            .unwrap_or(0)
    }
}

/// The option element's attribute change steps.
impl crate::dom::nodes::virtualmethods::VirtualMethods for HTMLOptionElement {
    fn attribute_changed(&self, name: &str, value: Option<&str>) {
        HTMLOptionElement::attribute_changed(self, name, value);
    }
}
