//! `HTMLSelectElement` (<https://html.spec.whatwg.org/multipage/form-elements.html#the-select-element>):
//! its list of options and the selectedness setting algorithm.
//!
//! The selectedness setting algorithm runs when the selection is read
//! (through this interface, `option.selected` or `:checked`) rather than on
//! every insertion and removal of options (the shell's node insertion and
//! removal steps do not call out to the select element); what a page
//! reads is the same, except after `value` or `selectedIndex` selected
//! nothing: then options inserted later are not auto-selected until the
//! next reset.

use std::cell::Cell;

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;

use crate::dom::bindings::codegen::HTMLSelectElementBinding::HTMLSelectElementMethods;
use crate::dom::bindings::conversions::DOMString;
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::root::DomRoot;
use crate::dom::html::htmlelement::HTMLElement;
use crate::dom::html::htmlformelement::HTMLFormElement;
use crate::dom::html::htmloptionelement::HTMLOptionElement;
use crate::dom::nodes::element::Element;

#[derive(JSTraceable)]
pub struct HTMLSelectElement {
    htmlelement: HTMLElement,
    /// Set when `value` or `selectedIndex` chose the selection (which the
    /// selectedness setting algorithm does not revisit); unset by a
    /// reset.
    selection_set_by_script: Cell<bool>,
}

impl AsRef<HTMLElement> for HTMLSelectElement {
    fn as_ref(&self) -> &HTMLElement {
        &self.htmlelement
    }
}

impl HTMLSelectElement {
    pub fn new_inherited(element: Element) -> HTMLSelectElement {
        HTMLSelectElement {
            htmlelement: HTMLElement::new_inherited(element),
            selection_set_by_script: Cell::new(false),
        }
    }

    pub fn element(&self) -> &Element {
        self.htmlelement.upcast_element()
    }

    fn multiple(&self) -> bool {
        self.element().get_attribute("multiple").is_some()
    }

    /// <https://html.spec.whatwg.org/multipage/form-elements.html#concept-select-option-list>:
    /// option children and option children of optgroup children, in tree
    /// order.
    pub fn options(&self) -> Vec<DomRoot<HTMLOptionElement>> {
        let mut options = Vec::new();
        for child in self.element().upcast_node().children() {
            if let Some(option) = child.downcast::<HTMLOptionElement>() {
                options.push(option);
            } else if let Some(group) = child.downcast::<Element>() {
                if group.is_html("optgroup") {
                    options.extend(
                        group
                            .upcast_node()
                            .children()
                            .into_iter()
                            .filter_map(|c| c.downcast::<HTMLOptionElement>()),
                    );
                }
            }
        }
        options
    }

    /// Unselects every option but `keep` when the select is not
    /// `multiple` (an option asked for a reset after being selected).
    pub fn deselect_others(&self, keep: &HTMLOptionElement) {
        if self.multiple() {
            return;
        }
        for option in self.options() {
            if !std::ptr::eq::<HTMLOptionElement>(&*option, keep) {
                option.set_raw_selectedness(false);
            }
        }
    }

    /// The selectedness setting algorithm as the options' insertion and
    /// removal would have run it (see the module's comment).
    pub fn ensure_selectedness(&self) {
        if !self.selection_set_by_script.get() {
            self.run_selectedness_setting_algorithm();
        }
    }

    /// An option asks for a reset
    /// (<https://html.spec.whatwg.org/multipage/form-elements.html#ask-for-a-reset>):
    /// run the selectedness setting algorithm.
    pub fn ask_for_reset(&self) {
        self.selection_set_by_script.set(false);
        self.run_selectedness_setting_algorithm();
    }

    /// <https://html.spec.whatwg.org/multipage/form-elements.html#selectedness-setting-algorithm>
    fn run_selectedness_setting_algorithm(&self) {
        // "If element's multiple attribute is absent, and element's display
        // size is 1":
        if self.multiple() || self.display_size() != 1 {
            return;
        }
        let options = self.options();
        let selected: Vec<_> = options.iter().filter(|o| o.raw_selectedness()).collect();
        match selected.len() {
            // "and no option elements in the element's list of options
            // have their selectedness set to true, then set the
            // selectedness of the first option element in the list of
            // options in tree order that is not disabled, if any, to true,
            // and return."
            0 => {
                if let Some(first) = options
                    .iter()
                    .find(|o| !crate::dom::html::forms::is_disabled(o.element()))
                {
                    first.set_raw_selectedness(true);
                }
            }
            1 => {}
            // "If element's multiple attribute is absent, and two or more
            // option elements in element's list of options have their
            // selectedness set to true, then set the selectedness of all
            // but the last option element with its selectedness set to true,
            // in the list of options in tree order, to false."
            n => {
                for option in &selected[..n - 1] {
                    option.set_raw_selectedness(false);
                }
            }
        }
    }

    /// <https://html.spec.whatwg.org/multipage/form-elements.html#concept-select-size>:
    /// the `size` attribute if valid and non-zero, else 4 if `multiple`,
    /// else 1.
    fn display_size(&self) -> u32 {
        match self.element().reflected_unsigned_long("size", 0) {
            0 if self.multiple() => 4,
            0 => 1,
            n => n,
        }
    }

    /// <https://html.spec.whatwg.org/multipage/form-elements.html#the-select-element:concept-form-reset-control>
    pub fn reset(&self) {
        // Step 1: Set the user validity to false. Step 2: For each
        // optionElement of select's list of options: if it has a selected
        // attribute, set its selectedness to true, else to false; set its
        // dirtiness to false.
        for option in self.options() {
            option.set_raw_selectedness(option.element().get_attribute("selected").is_some());
            option.set_dirtiness(false);
        }
        // Step 3: Run the selectedness setting algorithm given select.
        self.ask_for_reset();
    }

    fn selected_options(&self) -> Vec<DomRoot<HTMLOptionElement>> {
        self.ensure_selectedness();
        self.options()
            .into_iter()
            .filter(|o| o.raw_selectedness())
            .collect()
    }
}

impl HTMLSelectElementMethods for HTMLSelectElement {
    crate::reflect_string_attribute!(
        /// <https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#dom-fe-autocomplete>
        |this| this.element(), Autocomplete, SetAutocomplete, "autocomplete"
    );

    crate::reflect_bool_attribute!(
        /// <https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#dom-fe-disabled>:
        /// reflects `disabled`.
        |this| this.element(), Disabled, SetDisabled, "disabled"
    );

    /// <https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#dom-fae-form>
    fn Form(&self, _cx: &mut JSContext) -> Option<DomRoot<HTMLFormElement>> {
        crate::dom::html::forms::form_owner(self.element())
    }

    /// <https://html.spec.whatwg.org/multipage/form-elements.html#dom-select-multiple>:
    /// reflects `multiple`.
    fn Multiple(&self, _cx: &mut JSContext) -> bool {
        self.multiple()
    }

    fn SetMultiple(&self, _cx: &mut JSContext, value: bool) -> Fallible<()> {
        self.element().set_reflected_bool("multiple", value);
        Ok(())
    }

    crate::reflect_string_attribute!(
        /// <https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#dom-fe-name>:
        /// reflects `name`.
        |this| this.element(), Name, SetName, "name"
    );

    crate::reflect_bool_attribute!(
        /// <https://html.spec.whatwg.org/multipage/form-elements.html#dom-select-required>:
        /// reflects `required`.
        |this| this.element(), Required, SetRequired, "required"
    );

    /// <https://html.spec.whatwg.org/multipage/form-elements.html#dom-select-size>:
    /// reflects `size` (default 0).
    fn Size(&self, _cx: &mut JSContext) -> u32 {
        self.element().reflected_unsigned_long("size", 0)
    }

    fn SetSize(&self, _cx: &mut JSContext, value: u32) -> Fallible<()> {
        self.element().set_reflected_unsigned_long("size", value, 0);
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/form-elements.html#dom-select-type>
    fn Type(&self, _cx: &mut JSContext) -> DOMString {
        if self.multiple() {
            "select-multiple"
        } else {
            "select-one"
        }
        .into()
    }

    /// <https://html.spec.whatwg.org/multipage/form-elements.html#dom-select-length>:
    /// the number of nodes in the list of options.
    fn Length(&self, _cx: &mut JSContext) -> u32 {
        u32::try_from(self.options().len()).unwrap_or(u32::MAX)
    }

    /// <https://html.spec.whatwg.org/multipage/form-elements.html#dom-select-item>
    fn Item(
        &self,
        _cx: &mut JSContext,
        index: u32,
    ) -> Fallible<Option<DomRoot<HTMLOptionElement>>> {
        Ok(self.options().into_iter().nth(index as usize))
    }

    /// <https://html.spec.whatwg.org/multipage/form-elements.html#dom-select-selectedindex>:
    /// the index of the first selected option, or -1.
    fn SelectedIndex(&self, _cx: &mut JSContext) -> i32 {
        self.ensure_selectedness();
        self.options()
            .iter()
            .position(|o| o.raw_selectedness())
            .and_then(|i| i32::try_from(i).ok())
            .unwrap_or(-1)
    }

    /// "On setting, the selectedIndex attribute must set the selectedness
    /// of all the option elements in the list of options to false, and
    /// then the option element in the list of options whose index is the
    /// given new value, if any, must have its selectedness set to true and
    /// its dirtiness set to true."
    fn SetSelectedIndex(&self, _cx: &mut JSContext, index: i32) -> Fallible<()> {
        let options = self.options();
        for option in &options {
            option.set_raw_selectedness(false);
        }
        if let Some(option) = usize::try_from(index).ok().and_then(|i| options.get(i)) {
            option.set_raw_selectedness(true);
            option.set_dirtiness(true);
        }
        self.selection_set_by_script.set(true);
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/form-elements.html#dom-select-value>:
    /// the value of the first selected option, or the empty string.
    fn Value(&self, _cx: &mut JSContext) -> DOMString {
        self.selected_options()
            .first()
            .map(|o| o.option_value())
            .unwrap_or_default()
    }

    /// "On setting, the value attribute must set the selectedness of all
    /// the option elements in the list of options to false, and then the
    /// first option element in the list of options, in tree order, whose
    /// value is equal to the given new value, if any, must have its
    /// selectedness set to true and its dirtiness set to true."
    fn SetValue(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        let options = self.options();
        for option in &options {
            option.set_raw_selectedness(false);
        }
        if let Some(option) = options.iter().find(|o| o.option_value() == value) {
            option.set_raw_selectedness(true);
            option.set_dirtiness(true);
        }
        self.selection_set_by_script.set(true);
        Ok(())
    }
}
