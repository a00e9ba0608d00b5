//! Form control infrastructure shared by the form element interfaces
//! (<https://html.spec.whatwg.org/multipage/form-control-infrastructure.html>):
//! form owners, disabledness, the `:checked`/`:placeholder-shown` states,
//! and the attribute change steps of form controls and of `style`.
//!
//! Not implemented: the `fieldset` element (a disabled fieldset does not
//! disable its descendants), constraint validation (every control is
//! valid: a form is submitted without interactive validation), and the
//! form-associated custom elements.

use mozjs::context::JSContext;

use crate::dom::bindings::root::DomRoot;
use crate::dom::events::event::Event;
use crate::dom::html::htmlformelement::HTMLFormElement;
use crate::dom::html::htmlinputelement::HTMLInputElement;
use crate::dom::html::htmloptionelement::HTMLOptionElement;
use crate::dom::nodes::element::{Element, HTML_NAMESPACE};
use crate::dom::nodes::node::Node;

fn is_html(element: &Element, names: &[&str]) -> bool {
    element.namespace() == Some(HTML_NAMESPACE) && names.contains(&element.local_name())
}

/// The elements `:enabled` and `:disabled` apply to
/// (<https://html.spec.whatwg.org/multipage/semantics-other.html#selector-enabled>).
pub fn is_form_control(element: &Element) -> bool {
    is_html(
        element,
        &[
            "button", "input", "select", "textarea", "optgroup", "option", "fieldset",
        ],
    )
}

/// <https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#concept-fe-disabled>
/// for `button`, `input`, `select`, `textarea` and `fieldset` (the
/// `disabled` attribute; no fieldset ancestor), and
/// <https://html.spec.whatwg.org/multipage/form-elements.html#concept-option-disabled>
/// for `option` (its own or its `optgroup` parent's `disabled`).
pub fn is_disabled(element: &Element) -> bool {
    if is_html(
        element,
        &[
            "button", "input", "select", "textarea", "fieldset", "optgroup",
        ],
    ) {
        return element.get_attribute("disabled").is_some();
    }
    if is_html(element, &["option"]) {
        if element.get_attribute("disabled").is_some() {
            return true;
        }
        return element
            .upcast_node()
            .parent()
            .and_then(|p| p.downcast::<Element>())
            .is_some_and(|p| is_html(&p, &["optgroup"]) && p.get_attribute("disabled").is_some());
    }
    false
}

/// <https://html.spec.whatwg.org/multipage/semantics-other.html#selector-checked>:
/// checkboxes and radio buttons whose checkedness is true, and option
/// elements whose selectedness is true.
pub fn matches_checked(element: &Element) -> bool {
    let root = DomRoot::from_ref(element);
    if let Some(input) = root.downcast::<HTMLInputElement>() {
        return input.is_checkable() && input.checkedness();
    }
    if let Some(option) = root.downcast::<HTMLOptionElement>() {
        return option.selectedness();
    }
    false
}

/// <https://html.spec.whatwg.org/multipage/semantics-other.html#selector-placeholder-shown>:
/// an input or textarea with a `placeholder` attribute whose value is
/// empty.
pub fn placeholder_shown(element: &Element) -> bool {
    if element.get_attribute("placeholder").is_none() {
        return false;
    }
    let root = DomRoot::from_ref(element);
    if let Some(input) = root.downcast::<HTMLInputElement>() {
        return input.current_value().is_empty();
    }
    if let Some(textarea) =
        root.downcast::<crate::dom::html::htmltextareaelement::HTMLTextAreaElement>()
    {
        return textarea.api_value().is_empty();
    }
    false
}

/// <https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#form-owner>:
/// the element with the ID of the `form` attribute when there is one (and
/// it is a form in the same tree), else the nearest form ancestor.
pub fn form_owner(element: &Element) -> Option<DomRoot<HTMLFormElement>> {
    if let Some(id) = element.get_attribute("form") {
        // "If element has a form content attribute and is connected: the
        // first element in element's tree, in tree order, with an ID
        // equal to its value, if it is a form element; else null."
        let root = crate::dom::html::forms::tree_root(element);
        return root
            .element_descendants()
            .into_iter()
            .find(|e| e.get_attribute("id").as_deref() == Some(id.as_str()))
            .and_then(|e| e.downcast::<HTMLFormElement>());
    }
    let mut current = element.upcast_node().parent();
    while let Some(node) = current {
        if let Some(form) = node.downcast::<HTMLFormElement>() {
            return Some(form);
        }
        current = node.parent();
    }
    None
}

/// <https://dom.spec.whatwg.org/#concept-tree-root> of `element`.
pub fn tree_root(element: &Element) -> DomRoot<Node> {
    let mut root = DomRoot::from_ref(element.upcast_node());
    while let Some(parent) = root.parent() {
        root = parent;
    }
    root
}

/// <https://dom.spec.whatwg.org/#concept-event-fire>: fires a trusted
/// `Event` named `type_` at `target`; returns false if it was canceled.
pub fn fire_event(
    cx: &mut JSContext,
    target: &Element,
    type_: &str,
    bubbles: bool,
    cancelable: bool,
) -> bool {
    let node = target.upcast_node();
    let event = Event::new(cx, node.global(), type_, bubbles, cancelable);
    event.set_trusted(true);
    node.as_ref().dispatch(cx, &event)
}

/// Fires the `input` event of user interaction
/// (<https://html.spec.whatwg.org/multipage/input.html#checkbox-state-(type=checkbox)>'s
/// "fire an event named input at the element with the bubbles and composed
/// attributes initialized to true") and then `change` (bubbles).
pub fn fire_input_and_change(cx: &mut JSContext, target: &Element) {
    let node = target.upcast_node();
    let input = Event::new(cx, node.global(), "input", true, false);
    input.set_composed(true);
    input.set_trusted(true);
    node.as_ref().dispatch(cx, &input);
    fire_event(cx, target, "change", true, false);
}
