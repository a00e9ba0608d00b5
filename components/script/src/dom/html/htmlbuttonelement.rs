//! `HTMLButtonElement` (<https://html.spec.whatwg.org/multipage/form-elements.html#the-button-element>)
//! and its activation behavior (submit or reset its form owner).

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;

use crate::dom::bindings::codegen::HTMLButtonElementBinding::HTMLButtonElementMethods;
use crate::dom::bindings::conversions::DOMString;
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::root::DomRoot;
use crate::dom::html::htmlelement::HTMLElement;
use crate::dom::html::htmlformelement::HTMLFormElement;
use crate::dom::nodes::element::Element;

#[derive(JSTraceable)]
pub struct HTMLButtonElement {
    htmlelement: HTMLElement,
}

impl AsRef<HTMLElement> for HTMLButtonElement {
    fn as_ref(&self) -> &HTMLElement {
        &self.htmlelement
    }
}

impl HTMLButtonElement {
    pub fn new_inherited(element: Element) -> HTMLButtonElement {
        HTMLButtonElement {
            htmlelement: HTMLElement::new_inherited(element),
        }
    }

    pub fn element(&self) -> &Element {
        self.htmlelement.upcast_element()
    }

    /// The `type` attribute's state
    /// (<https://html.spec.whatwg.org/multipage/form-elements.html#attr-button-type>):
    /// missing and invalid value default the Submit Button state (no
    /// `command` attribute).
    pub fn button_type(&self) -> String {
        self.element().reflected_enumerated(
            "type",
            &["submit", "reset", "button"],
            "submit",
            "submit",
        )
    }

    /// <https://html.spec.whatwg.org/multipage/form-elements.html#the-button-element:activation-behaviour>
    pub fn activation_behavior(&self, cx: &mut JSContext) {
        // Step 1: If element is disabled, then return.
        if crate::dom::html::forms::is_disabled(self.element()) {
            return;
        }
        // Step 2: If element's node document is not fully active, then
        // return.
        // Step 3: If element has a form owner then switch on element's type
        // attribute's state:
        let Some(form) = crate::dom::html::forms::form_owner(self.element()) else {
            return;
        };
        match self.button_type().as_str() {
            // Submit Button: Submit element's form owner from element.
            "submit" => form.submit_form(cx, self.element(), false),
            // Reset Button: Reset element's form owner.
            "reset" => form.reset_form(cx),
            // Button: Do nothing.
            _ => {}
        }
    }
}

impl HTMLButtonElementMethods for HTMLButtonElement {
    crate::reflect_bool_attribute!(
        /// <https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#dom-fe-disabled>:
        /// reflects `disabled`.
        |this| this.element(), Disabled, SetDisabled, "disabled"
    );

    /// <https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#dom-fae-form>
    fn Form(&self, _cx: &mut JSContext) -> Option<DomRoot<HTMLFormElement>> {
        crate::dom::html::forms::form_owner(self.element())
    }

    crate::reflect_string_attribute!(
        /// <https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#dom-fe-name>:
        /// reflects `name`.
        |this| this.element(), Name, SetName, "name"
    );

    /// <https://html.spec.whatwg.org/multipage/form-elements.html#dom-button-type>:
    /// reflects `type`, limited to only known values.
    fn Type(&self, _cx: &mut JSContext) -> DOMString {
        self.button_type()
    }

    fn SetType(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        self.element().set_reflected_string("type", &value);
        Ok(())
    }

    crate::reflect_string_attribute!(
        /// <https://html.spec.whatwg.org/multipage/form-elements.html#dom-button-value>:
        /// reflects `value`.
        |this| this.element(), Value, SetValue, "value"
    );
}
