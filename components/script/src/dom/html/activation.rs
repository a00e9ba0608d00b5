//! Activation behavior (<https://dom.spec.whatwg.org/#eventtarget-activation-behavior>)
//! of the elements that have it, called by event dispatch
//! ([`crate::dom::events::eventtarget::EventTarget::dispatch`]) for `click`
//! `MouseEvent`s: checkboxes and radio buttons (with their legacy-pre-
//! and legacy-canceled-activation behaviors), submit and reset buttons,
//! and labels. Links have none (no navigation: see `htmlanchorelement`).

use mozjs::context::JSContext;

use crate::dom::bindings::root::DomRoot;
use crate::dom::events::event::Event;
use crate::dom::events::eventtarget::EventTarget;
use crate::dom::events::mouseevent::MouseEvent;
use crate::dom::html::htmlbuttonelement::HTMLButtonElement;
use crate::dom::html::htmlinputelement::HTMLInputElement;
use crate::dom::html::htmllabelelement::HTMLLabelElement;

/// Step 3 of dispatch: "Let isActivationEvent be true, if event is a
/// MouseEvent object and event's type attribute is "click"; otherwise
/// false."
pub fn is_activation_event(event: &Event) -> bool {
    event.type_() == "click" && DomRoot::from_ref(event).downcast::<MouseEvent>().is_some()
}

/// Whether `target` has activation behavior.
pub fn has_activation_behavior(target: &EventTarget) -> bool {
    let target = DomRoot::from_ref(target);
    if let Some(input) = target.downcast::<HTMLInputElement>() {
        return input.has_activation_behavior();
    }
    target.downcast::<HTMLButtonElement>().is_some()
        || target.downcast::<HTMLLabelElement>().is_some()
}

/// Runs `target`'s legacy-pre-activation behavior, if any.
pub fn legacy_pre_activation(target: &EventTarget) {
    if let Some(input) = DomRoot::from_ref(target).downcast::<HTMLInputElement>() {
        input.legacy_pre_activation();
    }
}

/// Runs `target`'s legacy-canceled-activation behavior, if any.
pub fn legacy_canceled_activation(target: &EventTarget) {
    if let Some(input) = DomRoot::from_ref(target).downcast::<HTMLInputElement>() {
        input.legacy_canceled_activation();
    }
}

/// Runs `target`'s activation behavior with `event`.
pub fn activation_behavior(cx: &mut JSContext, target: &EventTarget, event: &Event) {
    let root = DomRoot::from_ref(target);
    if let Some(input) = root.downcast::<HTMLInputElement>() {
        input.activation_behavior(cx);
    } else if let Some(button) = root.downcast::<HTMLButtonElement>() {
        button.activation_behavior(cx);
    } else if let Some(label) = root.downcast::<HTMLLabelElement>() {
        let original = event.target_root();
        match original {
            Some(original) => label.activation_behavior(cx, &original),
            None => label.activation_behavior(cx, target),
        }
    }
}
