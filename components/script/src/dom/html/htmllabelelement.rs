//! `HTMLLabelElement` (<https://html.spec.whatwg.org/multipage/forms.html#the-label-element>):
//! its labeled control and its activation behavior (a click on the label
//! clicks the control).

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;

use crate::dom::bindings::codegen::HTMLElementBinding::HTMLElementMethods;
use crate::dom::bindings::codegen::HTMLLabelElementBinding::HTMLLabelElementMethods;
use crate::dom::bindings::root::DomRoot;
use crate::dom::events::eventtarget::EventTarget;
use crate::dom::html::htmlelement::HTMLElement;
use crate::dom::html::htmlformelement::HTMLFormElement;
use crate::dom::nodes::element::{Element, HTML_NAMESPACE};

#[derive(JSTraceable)]
pub struct HTMLLabelElement {
    htmlelement: HTMLElement,
}

impl AsRef<HTMLElement> for HTMLLabelElement {
    fn as_ref(&self) -> &HTMLElement {
        &self.htmlelement
    }
}

/// <https://html.spec.whatwg.org/multipage/forms.html#category-label>:
/// labelable elements (button, input not in the Hidden state, meter,
/// output, progress, select, textarea).
fn is_labelable(element: &Element) -> bool {
    element.namespace() == Some(HTML_NAMESPACE)
        && match element.local_name() {
            "button" | "meter" | "output" | "progress" | "select" | "textarea" => true,
            "input" => !element
                .get_attribute("type")
                .is_some_and(|t| t.eq_ignore_ascii_case("hidden")),
            _ => false,
        }
}

impl HTMLLabelElement {
    pub fn new_inherited(element: Element) -> HTMLLabelElement {
        HTMLLabelElement {
            htmlelement: HTMLElement::new_inherited(element),
        }
    }

    pub fn element(&self) -> &Element {
        self.htmlelement.upcast_element()
    }

    /// <https://html.spec.whatwg.org/multipage/forms.html#labeled-control>
    pub fn labeled_control(&self) -> Option<DomRoot<HTMLElement>> {
        match self.element().get_attribute("for") {
            // "If the for attribute is specified and there is an element in
            // the tree whose ID is equal to the value of the for
            // attribute, and the first such element in tree order is a
            // labelable element, then that element is the label element's
            // labeled control."
            Some(id) => crate::dom::html::forms::tree_root(self.element())
                .element_descendants()
                .into_iter()
                .find(|e| e.get_attribute("id").as_deref() == Some(id.as_str()))
                .filter(|e| is_labelable(e))
                .and_then(|e| e.downcast::<HTMLElement>()),
            // "If the for attribute is not specified, but the label element
            // has a labelable element descendant, then the first such
            // descendant in tree order is the label element's labeled
            // control."
            None => self
                .element()
                .upcast_node()
                .element_descendants()
                .into_iter()
                .find(|e| is_labelable(e))
                .and_then(|e| e.downcast::<HTMLElement>()),
        }
    }

    /// The label's activation behavior
    /// (<https://html.spec.whatwg.org/multipage/forms.html#the-label-element>):
    /// "the label element's exact default presentation and behavior ...
    /// should match the platform's label behavior ... the activation
    /// behavior of a label element for events targeted at interactive
    /// content descendants of a label element, and any descendants of
    /// those interactive content descendants, must be to do nothing";
    /// otherwise, as browsers do, a synthetic click on the labeled control.
    pub fn activation_behavior(&self, cx: &mut JSContext, target: &EventTarget) {
        let Some(control) = self.labeled_control() else {
            return;
        };
        // A click that reached the label from its control (or from inside
        // it) is not sent back to the control.
        let target_node = DomRoot::from_ref(target).downcast::<crate::dom::nodes::node::Node>();
        let from_control = target_node.is_some_and(|n| {
            control
                .upcast_element()
                .upcast_node()
                .is_inclusive_ancestor_of(&n)
        });
        if from_control {
            return;
        }
        let _ = control.Click(cx);
    }
}

impl HTMLLabelElementMethods for HTMLLabelElement {
    /// <https://html.spec.whatwg.org/multipage/forms.html#dom-label-form>:
    /// the labeled control's form owner, or null.
    fn Form(&self, _cx: &mut JSContext) -> Option<DomRoot<HTMLFormElement>> {
        let control = self.labeled_control()?;
        crate::dom::html::forms::form_owner(control.upcast_element())
    }

    crate::reflect_string_attribute!(
        /// <https://html.spec.whatwg.org/multipage/forms.html#dom-label-htmlfor>:
        /// reflects `for`.
        |this| this.element(), HtmlFor, SetHtmlFor, "for"
    );

    /// <https://html.spec.whatwg.org/multipage/forms.html#dom-label-control>
    fn Control(&self, _cx: &mut JSContext) -> Option<DomRoot<HTMLElement>> {
        self.labeled_control()
    }
}
