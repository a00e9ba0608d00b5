//! `HTMLInputElement` (<https://html.spec.whatwg.org/multipage/input.html#the-input-element>):
//! its value, checkedness and their dirty flags, the value modes of its
//! `value` IDL attribute, and the activation behavior of the Checkbox,
//! Radio Button, Submit Button and Reset Button states.
//!
//! Value sanitization is done for the text-like states (line breaks
//! stripped), URL and E-mail (also leading and trailing whitespace) and
//! Number (a valid floating-point number or nothing); the date, time,
//! range and color states keep what they are given. There is no user
//! editing: `input`/`change` fire for the activation of checkboxes and
//! radio buttons only (a test types by setting `value` and dispatching
//! the events itself, as testing libraries do).

use std::cell::{Cell, RefCell};

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;

use crate::dom::bindings::codegen::HTMLInputElementBinding::HTMLInputElementMethods;
use crate::dom::bindings::conversions::DOMString;
use crate::dom::bindings::error::{DomExceptionName, Error, Fallible};
use crate::dom::bindings::root::{DomRoot, MutNullableDom};
use crate::dom::html::htmlelement::HTMLElement;
use crate::dom::html::htmlformelement::HTMLFormElement;
use crate::dom::nodes::element::Element;

/// The keywords of the `type` attribute
/// (<https://html.spec.whatwg.org/multipage/input.html#attr-input-type>).
const TYPES: &[&str] = &[
    "hidden",
    "text",
    "search",
    "tel",
    "url",
    "email",
    "password",
    "date",
    "month",
    "week",
    "time",
    "datetime-local",
    "number",
    "range",
    "color",
    "checkbox",
    "radio",
    "file",
    "submit",
    "image",
    "reset",
    "button",
];

/// <https://html.spec.whatwg.org/multipage/input.html#dom-input-value>'s
/// modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ValueMode {
    Value,
    Default,
    DefaultOn,
    Filename,
}

#[derive(JSTraceable)]
pub struct HTMLInputElement {
    htmlelement: HTMLElement,
    /// <https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#concept-fe-value>
    value: RefCell<String>,
    /// <https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#concept-fe-dirty>
    dirty_value: Cell<bool>,
    /// <https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#concept-fe-checked>
    checkedness: Cell<bool>,
    /// <https://html.spec.whatwg.org/multipage/input.html#concept-input-checked-dirty-flag>
    dirty_checkedness: Cell<bool>,
    /// <https://html.spec.whatwg.org/multipage/input.html#dom-input-indeterminate>
    indeterminate: Cell<bool>,
    /// The state the legacy-pre-activation behavior saved for the legacy-
    /// canceled-activation behavior: the old checkedness and
    /// indeterminate (checkbox), the radio that was checked (radio).
    saved_checkedness: Cell<bool>,
    saved_indeterminate: Cell<bool>,
    saved_checked_radio: MutNullableDom<HTMLInputElement>,
}

impl AsRef<HTMLElement> for HTMLInputElement {
    fn as_ref(&self) -> &HTMLElement {
        &self.htmlelement
    }
}

/// "Strip newlines from the value".
fn strip_newlines(value: &str) -> String {
    value.chars().filter(|c| *c != '\n' && *c != '\r').collect()
}

/// <https://html.spec.whatwg.org/multipage/common-microsyntaxes.html#valid-floating-point-number>
fn is_valid_floating_point_number(value: &str) -> bool {
    let body = value.strip_prefix('-').unwrap_or(value);
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(i) => (&body[..i], Some(&body[i + 1..])),
        None => (body, None),
    };
    let (int, frac) = match mantissa.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (mantissa, None),
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let int_ok = int.is_empty() || digits(int);
    let frac_ok = frac.is_none_or(digits);
    let has_digits = !int.is_empty() || frac.is_some_and(|f| !f.is_empty());
    let exp_ok = exponent.is_none_or(|e| digits(e.strip_prefix(['-', '+']).unwrap_or(e)));
    int_ok && frac_ok && has_digits && exp_ok
}

impl HTMLInputElement {
    pub fn new_inherited(element: Element) -> HTMLInputElement {
        HTMLInputElement {
            htmlelement: HTMLElement::new_inherited(element),
            value: RefCell::new(String::new()),
            dirty_value: Cell::new(false),
            checkedness: Cell::new(false),
            dirty_checkedness: Cell::new(false),
            indeterminate: Cell::new(false),
            saved_checkedness: Cell::new(false),
            saved_indeterminate: Cell::new(false),
            saved_checked_radio: MutNullableDom::default(),
        }
    }

    pub fn element(&self) -> &Element {
        self.htmlelement.upcast_element()
    }

    /// The state of the `type` attribute: an enumerated attribute whose
    /// missing value default and invalid value default are the Text state.
    pub fn input_type(&self) -> String {
        self.element()
            .reflected_enumerated("type", TYPES, "text", "text")
    }

    /// Checkbox or Radio Button.
    pub fn is_checkable(&self) -> bool {
        matches!(self.input_type().as_str(), "checkbox" | "radio")
    }

    pub fn checkedness(&self) -> bool {
        self.checkedness.get()
    }

    /// The Submit Button and Image Button states: a submit button
    /// (<https://html.spec.whatwg.org/multipage/forms.html#concept-submit-button>).
    pub fn is_submit_button(&self) -> bool {
        matches!(self.input_type().as_str(), "submit" | "image")
    }

    /// The element's value.
    pub fn current_value(&self) -> String {
        self.value.borrow().clone()
    }

    fn value_mode(&self) -> ValueMode {
        match self.input_type().as_str() {
            "hidden" | "submit" | "image" | "reset" | "button" => ValueMode::Default,
            "checkbox" | "radio" => ValueMode::DefaultOn,
            "file" => ValueMode::Filename,
            _ => ValueMode::Value,
        }
    }

    /// The value sanitization algorithm of the current state.
    fn sanitize(&self, value: &str) -> String {
        match self.input_type().as_str() {
            "text" | "search" | "tel" | "password" => strip_newlines(value),
            "url" | "email" => strip_newlines(value)
                .trim_matches(['\t', '\n', '\x0C', '\r', ' '])
                .to_owned(),
            "number" => {
                if is_valid_floating_point_number(value) {
                    value.to_owned()
                } else {
                    String::new()
                }
            }
            _ => value.to_owned(),
        }
    }

    /// Sets the checkedness; checking a radio button unchecks the other
    /// buttons of its radio button group
    /// (<https://html.spec.whatwg.org/multipage/input.html#radio-button-state-(type=radio)>).
    pub fn set_checkedness(&self, value: bool) {
        self.checkedness.set(value);
        if value && self.input_type() == "radio" {
            for other in self.radio_group() {
                if !std::ptr::eq::<HTMLInputElement>(&*other, self) {
                    other.checkedness.set(false);
                }
            }
        }
    }

    /// <https://html.spec.whatwg.org/multipage/input.html#radio-button-group>:
    /// the radio buttons in the same tree with the same form owner and the
    /// same non-empty name (this one included).
    fn radio_group(&self) -> Vec<DomRoot<HTMLInputElement>> {
        let name = self.element().get_attribute("name").unwrap_or_default();
        if name.is_empty() {
            return vec![DomRoot::from_ref(self)];
        }
        let owner = crate::dom::html::forms::form_owner(self.element());
        crate::dom::html::forms::tree_root(self.element())
            .element_descendants()
            .into_iter()
            .filter_map(|e| e.downcast::<HTMLInputElement>())
            .filter(|i| {
                i.input_type() == "radio"
                    && i.element().get_attribute("name").as_deref() == Some(name.as_str())
                    && match (&owner, crate::dom::html::forms::form_owner(i.element())) {
                        (None, None) => true,
                        (Some(a), Some(b)) => std::ptr::eq::<HTMLFormElement>(&**a, &*b),
                        _ => false,
                    }
            })
            .collect()
    }

    /// The attribute change steps of `value` and `checked`
    /// (<https://html.spec.whatwg.org/multipage/input.html#the-input-element>):
    /// while the dirty flags are false they follow the attributes.
    pub fn attribute_changed(&self, name: &str, value: Option<&str>) {
        match name {
            // "When the value content attribute is added, set, or removed,
            // if the control's dirty value flag is false, the user agent
            // must set the value of the element to the value of the value
            // content attribute, if there is one, or the empty string
            // otherwise, and then run the current value sanitization
            // algorithm, if one is defined."
            "value" if !self.dirty_value.get() => {
                *self.value.borrow_mut() = self.sanitize(value.unwrap_or_default());
            }
            // "When the checked content attribute is added, if the control
            // does not have dirty checkedness, the user agent must set the
            // checkedness of the element to true; when the checked content
            // attribute is removed, if the control does not have dirty
            // checkedness, the user agent must set the checkedness of the
            // element to false."
            "checked" if !self.dirty_checkedness.get() => self.set_checkedness(value.is_some()),
            // "When an input element's type attribute changes state": the
            // value is sanitized for the new state.
            "type" => {
                let sanitized = self.sanitize(&self.value.borrow());
                *self.value.borrow_mut() = sanitized;
            }
            _ => {}
        }
    }

    /// <https://html.spec.whatwg.org/multipage/input.html#the-input-element:concept-form-reset-control>
    pub fn reset(&self) {
        // "Set the dirty value flag and dirty checkedness flag back to
        // false, set the value of the element to the value of the value
        // content attribute, if there is one, or the empty string
        // otherwise, set the checkedness of the element to true if the
        // element has a checked content attribute and false if it does
        // not, empty the list of selected files, and then invoke the value
        // sanitization algorithm, if the type attribute's current state
        // defines one."
        self.dirty_value.set(false);
        self.dirty_checkedness.set(false);
        let value = self.element().get_attribute("value").unwrap_or_default();
        *self.value.borrow_mut() = self.sanitize(&value);
        self.set_checkedness(self.element().get_attribute("checked").is_some());
    }

    /// Whether the element has activation behavior: the Checkbox, Radio
    /// Button, Submit Button, Image Button and Reset Button states.
    pub fn has_activation_behavior(&self) -> bool {
        matches!(
            self.input_type().as_str(),
            "checkbox" | "radio" | "submit" | "image" | "reset"
        )
    }

    /// The legacy-pre-activation behavior of the Checkbox state
    /// (<https://html.spec.whatwg.org/multipage/input.html#checkbox-state-(type=checkbox)>)
    /// and the Radio Button state
    /// (<https://html.spec.whatwg.org/multipage/input.html#radio-button-state-(type=radio)>).
    pub fn legacy_pre_activation(&self) {
        match self.input_type().as_str() {
            "checkbox" => {
                // Set the element's checkedness to its opposite value (i.e.
                // true if it is false, false if it is true) and set the
                // element's indeterminate IDL attribute to false.
                self.saved_checkedness.set(self.checkedness.get());
                self.saved_indeterminate.set(self.indeterminate.get());
                self.dirty_checkedness.set(true);
                self.set_checkedness(!self.checkedness.get());
                self.indeterminate.set(false);
            }
            "radio" => {
                // Set the checkedness of the element to true (remembering
                // the element of the group that was checked).
                let checked = self.radio_group().into_iter().find(|r| r.checkedness());
                self.saved_checked_radio.set(checked.as_deref());
                self.saved_checkedness.set(self.checkedness.get());
                self.dirty_checkedness.set(true);
                self.set_checkedness(true);
            }
            _ => {}
        }
    }

    /// The legacy-canceled-activation behavior: the checkbox gets back its
    /// checkedness and indeterminate; the radio button group gets back the
    /// button that was checked (if it is still in the group; else this one
    /// is unchecked).
    pub fn legacy_canceled_activation(&self) {
        match self.input_type().as_str() {
            "checkbox" => {
                self.set_checkedness(self.saved_checkedness.get());
                self.indeterminate.set(self.saved_indeterminate.get());
            }
            "radio" => {
                let old = self.saved_checked_radio.get();
                self.saved_checked_radio.set(None);
                let still_in_group = old.as_ref().is_some_and(|o| {
                    self.radio_group()
                        .iter()
                        .any(|r| std::ptr::eq::<HTMLInputElement>(&**r, &**o))
                });
                match old {
                    Some(old) if still_in_group => old.set_checkedness(true),
                    _ => self.checkedness.set(self.saved_checkedness.get()),
                }
            }
            _ => {}
        }
    }

    /// The activation behavior
    /// (<https://html.spec.whatwg.org/multipage/input.html#the-input-element:activation-behaviour>).
    pub fn activation_behavior(&self, cx: &mut JSContext) {
        // Step 1: If element is not mutable and is not in the Checkbox
        // state and is not in the Radio state, then return.
        let type_ = self.input_type();
        let checkable = matches!(type_.as_str(), "checkbox" | "radio");
        if !checkable && crate::dom::html::forms::is_disabled(self.element()) {
            return;
        }
        // Step 2: Run element's input activation behavior, if any.
        match type_.as_str() {
            // Checkbox and Radio Button: "If the element is not connected,
            // then return. Fire an event named input at the element with
            // the bubbles and composed attributes initialized to true.
            // Fire an event named change at the element with the bubbles
            // attribute initialized to true."
            "checkbox" | "radio" => {
                self.saved_checked_radio.set(None);
                if !self.element().upcast_node().is_connected() {
                    return;
                }
                crate::dom::html::forms::fire_input_and_change(cx, self.element());
            }
            // Submit Button: "If the element does not have a form owner,
            // then return. If the element's node document is not fully
            // active, then return. Submit the element's form owner from
            // the element."
            "submit" | "image" => {
                if let Some(form) = crate::dom::html::forms::form_owner(self.element()) {
                    form.submit_form(cx, self.element(), false);
                }
            }
            // Reset Button: "If the element does not have a form owner,
            // then return. ... Reset the form owner from the element."
            "reset" => {
                if let Some(form) = crate::dom::html::forms::form_owner(self.element()) {
                    form.reset_form(cx);
                }
            }
            _ => {}
        }
    }
}

impl HTMLInputElementMethods for HTMLInputElement {
    crate::text_control_reflected_attributes!("input.html", "input");

    crate::reflect_string_attribute!(
        /// <https://html.spec.whatwg.org/multipage/input.html#dom-input-accept>:
        /// reflects `accept`.
        |this| this.element(), Accept, SetAccept, "accept"
    );

    crate::reflect_string_attribute!(
        /// <https://html.spec.whatwg.org/multipage/input.html#dom-input-alt>:
        /// reflects `alt`.
        |this| this.element(), Alt, SetAlt, "alt"
    );

    crate::reflect_bool_attribute!(
        /// <https://html.spec.whatwg.org/multipage/input.html#dom-input-defaultchecked>:
        /// reflects `checked`.
        |this| this.element(), DefaultChecked, SetDefaultChecked, "checked"
    );

    /// <https://html.spec.whatwg.org/multipage/input.html#dom-input-checked>:
    /// the element's checkedness.
    fn Checked(&self, _cx: &mut JSContext) -> bool {
        self.checkedness.get()
    }

    /// "On setting, it must set the element's checkedness to the new value
    /// and set the element's dirty checkedness flag to true."
    fn SetChecked(&self, _cx: &mut JSContext, value: bool) -> Fallible<()> {
        self.set_checkedness(value);
        self.dirty_checkedness.set(true);
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#dom-fae-form>:
    /// the element's form owner.
    fn Form(&self, _cx: &mut JSContext) -> Option<DomRoot<HTMLFormElement>> {
        crate::dom::html::forms::form_owner(self.element())
    }

    /// <https://html.spec.whatwg.org/multipage/input.html#dom-input-indeterminate>
    fn Indeterminate(&self, _cx: &mut JSContext) -> bool {
        self.indeterminate.get()
    }

    fn SetIndeterminate(&self, _cx: &mut JSContext, value: bool) -> Fallible<()> {
        self.indeterminate.set(value);
        Ok(())
    }

    crate::reflect_string_attribute!(
        /// <https://html.spec.whatwg.org/multipage/input.html#dom-input-max>:
        /// reflects `max`.
        |this| this.element(), Max, SetMax, "max"
    );

    crate::reflect_string_attribute!(
        /// <https://html.spec.whatwg.org/multipage/input.html#dom-input-min>:
        /// reflects `min`.
        |this| this.element(), Min, SetMin, "min"
    );

    crate::reflect_bool_attribute!(
        /// <https://html.spec.whatwg.org/multipage/input.html#dom-input-multiple>:
        /// reflects `multiple`.
        |this| this.element(), Multiple, SetMultiple, "multiple"
    );

    crate::reflect_string_attribute!(
        /// <https://html.spec.whatwg.org/multipage/input.html#dom-input-pattern>:
        /// reflects `pattern`.
        |this| this.element(), Pattern, SetPattern, "pattern"
    );

    /// <https://html.spec.whatwg.org/multipage/input.html#dom-input-size>:
    /// reflects `size`, limited to only positive numbers, default 20.
    fn Size(&self, _cx: &mut JSContext) -> u32 {
        match self.element().reflected_unsigned_long("size", 20) {
            0 => 20,
            n => n,
        }
    }

    /// On setting 0: throw an "IndexSizeError".
    fn SetSize(&self, _cx: &mut JSContext, value: u32) -> Fallible<()> {
        if value == 0 {
            return Err(Error::dom(DomExceptionName::IndexSizeError));
        }
        self.element()
            .set_reflected_unsigned_long("size", value, 20);
        Ok(())
    }

    crate::reflect_url_attribute!(
        /// <https://html.spec.whatwg.org/multipage/input.html#dom-input-src>:
        /// reflects `src` as a URL.
        |this| this.element(), Src, SetSrc, "src"
    );

    crate::reflect_string_attribute!(
        /// <https://html.spec.whatwg.org/multipage/input.html#dom-input-step>:
        /// reflects `step`.
        |this| this.element(), Step, SetStep, "step"
    );

    /// <https://html.spec.whatwg.org/multipage/input.html#dom-input-type>:
    /// reflects `type`, limited to only known values.
    fn Type(&self, _cx: &mut JSContext) -> DOMString {
        self.input_type()
    }

    fn SetType(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        self.element().set_reflected_string("type", &value);
        Ok(())
    }

    crate::reflect_string_attribute!(
        /// <https://html.spec.whatwg.org/multipage/input.html#dom-input-defaultvalue>:
        /// reflects `value`.
        |this| this.element(), DefaultValue, SetDefaultValue, "value"
    );

    /// <https://html.spec.whatwg.org/multipage/input.html#dom-input-value>,
    /// by the mode of the current state.
    fn Value(&self, _cx: &mut JSContext) -> DOMString {
        match self.value_mode() {
            // value: the current value of the element.
            ValueMode::Value => self.value.borrow().clone(),
            // default: the value content attribute, or the empty string.
            ValueMode::Default => self.element().reflected_string("value"),
            // default/on: the value content attribute, or "on".
            ValueMode::DefaultOn => self
                .element()
                .get_attribute("value")
                .unwrap_or_else(|| "on".to_owned()),
            // filename: "C:\fakepath\" and the first file's name, or the
            // empty string (no file can be selected here).
            ValueMode::Filename => String::new(),
        }
    }

    fn SetValue(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        match self.value_mode() {
            ValueMode::Value => {
                // Step 1: Let oldValue be the element's value.
                // Step 2: Set the element's value to the new value.
                // Step 3: Set the element's dirty value flag to true.
                // Step 4: Invoke the value sanitization algorithm.
                // (Steps 5-6 move the text entry cursor: no selection.)
                *self.value.borrow_mut() = self.sanitize(&value);
                self.dirty_value.set(true);
            }
            // default, default/on: set the value content attribute.
            ValueMode::Default | ValueMode::DefaultOn => {
                self.element().set_reflected_string("value", &value);
            }
            // filename: "On setting, if the new value is the empty string,
            // empty the list of selected files; otherwise, throw an
            // "InvalidStateError" DOMException."
            ValueMode::Filename => {
                if !value.is_empty() {
                    return Err(Error::dom(DomExceptionName::InvalidStateError));
                }
            }
        }
        Ok(())
    }
}

/// The input element's attribute change steps (its value mode and
/// checkedness follow its content attributes).
impl crate::dom::nodes::virtualmethods::VirtualMethods for HTMLInputElement {
    fn attribute_changed(&self, name: &str, value: Option<&str>) {
        HTMLInputElement::attribute_changed(self, name, value);
    }
}

#[cfg(test)]
mod tests {
    use super::is_valid_floating_point_number;

    #[test]
    fn floating_point_numbers() {
        for ok in ["1", "-1.5", "0.25", ".5", "1e3", "2E-2"] {
            assert!(is_valid_floating_point_number(ok), "{ok}");
        }
        for bad in ["", "-", "1.", "+1", "1e", "abc", " 1", "1.2.3"] {
            assert!(!is_valid_floating_point_number(bad), "{bad}");
        }
    }
}
