//! Event dispatch (<https://dom.spec.whatwg.org/#concept-event-dispatch>):
//! the event path through "get the parent", and "invoke" / "inner invoke"
//! of each target's listeners in the capturing and bubbling phases.

use std::rc::Rc;

use mozjs::context::JSContext;
use mozjs::gc::RootedTraceableBox;
use mozjs::jsval::ObjectValue;
use mozjs::rooted;

use super::{EventListenerEntry, EventTarget, ListenerCallback};
use crate::dom::bindings::callback::ExceptionHandling;
use crate::dom::bindings::reflector::DomObject;
use crate::dom::bindings::root::DomRoot;
use crate::dom::events::event::{Event, EventPhase};
use crate::dom::nodes::node::{Node, NodeKind};

impl EventTarget {
    /// <https://dom.spec.whatwg.org/#concept-event-dispatch> (no shadow
    /// trees, related targets or touch targets; activation behavior from
    /// [`crate::dom::html::activation`]): the
    /// event path is the target and its ancestors by "get the parent"
    /// ([`EventTarget::get_the_parent`]). Returns false if the event was
    /// canceled.
    pub fn dispatch(&self, cx: &mut JSContext, event: &Event) -> bool {
        // Step 1: Set event's dispatch flag.
        event.set_dispatching(true);
        // Step 2: Let targetOverride be target (no legacy target override).
        // Step 4: no related target (Step 3 below).
        // Step 5.1-5.2: Append to an event path with event, target,
        // targetOverride.
        // Step 5.3: Let parent be the result of invoking target's get the
        // parent with event.
        // Step 5.4-5.9: While parent is non-null, append parent to the
        // event path and set parent to the result of invoking parent's get
        // the parent with event (no slots or shadow roots).
        let mut path: Vec<DomRoot<EventTarget>> = vec![DomRoot::from_ref(self)];
        while let Some(parent) = path.last().and_then(|t| t.get_the_parent(event)) {
            path.push(parent);
        }
        // Step 3: Let isActivationEvent be true, if event is a MouseEvent
        // object and event's type attribute is "click"; otherwise false.
        // Step 5.5: If isActivationEvent is true and target has activation
        // behavior, then set activationTarget to target.
        // Step 5.9.x: otherwise the first parent with activation behavior
        // when event's bubbles attribute is true.
        let activation_target = if crate::dom::html::activation::is_activation_event(event) {
            path.iter()
                .enumerate()
                .find(|(i, t)| {
                    (*i == 0 || event.bubbles())
                        && crate::dom::html::activation::has_activation_behavior(t)
                })
                .map(|(_, t)| t.clone())
        } else {
            None
        };
        // Step 5.10-5.12: clearTargets is false (no shadow trees).
        event.set_target(Some(self));
        // Step 5.11: If activationTarget is non-null and activationTarget
        // has legacy-pre-activation behavior, then run activationTarget's
        // legacy-pre-activation behavior.
        if let Some(target) = &activation_target {
            crate::dom::html::activation::legacy_pre_activation(target);
        }
        // Step 5.13: For each struct in event's path, in reverse order:
        for (index, target) in path.iter().enumerate().rev() {
            // Step 5.13.1: If struct's shadow-adjusted target is non-null
            // (the first struct), then set event's eventPhase attribute to
            // AT_TARGET. Step 5.13.2: Otherwise, set it to CAPTURING_PHASE.
            event.set_phase(if index == 0 {
                EventPhase::AtTarget
            } else {
                EventPhase::Capturing
            });
            // Step 5.13.3: Invoke with struct, event, "capturing".
            target.invoke(cx, event, Phase::Capturing);
        }
        // Step 5.14: For each struct in event's path:
        for (index, target) in path.iter().enumerate() {
            if index == 0 {
                // Step 5.14.1: AT_TARGET for the target.
                event.set_phase(EventPhase::AtTarget);
            } else {
                // Step 5.14.2.1: If event's bubbles attribute is false, then
                // continue. Step 5.14.2.2: Set event's eventPhase attribute
                // to BUBBLING_PHASE.
                if !event.bubbles() {
                    continue;
                }
                event.set_phase(EventPhase::Bubbling);
            }
            // Step 5.14.3: Invoke with struct, event, "bubbling".
            target.invoke(cx, event, Phase::Bubbling);
        }
        // Step 6: Set event's eventPhase attribute to NONE.
        event.set_phase(EventPhase::None);
        // Step 7: Set event's currentTarget attribute to null.
        event.set_current_target(None);
        // Step 8: Set event's path to the empty list.
        // Step 9: Unset event's dispatch flag, stop propagation flag, and
        // stop immediate propagation flag.
        event.set_dispatching(false);
        event.clear_propagation_flags();
        // Step 10: clearTargets is false; target stays set.
        // Step 11: If activationTarget is non-null: if event's canceled
        // flag is unset, then run activationTarget's activation behavior
        // with event; otherwise, if activationTarget has
        // legacy-canceled-activation behavior, then run it.
        if let Some(target) = &activation_target {
            if event.canceled_flag() {
                crate::dom::html::activation::legacy_canceled_activation(target);
            } else {
                crate::dom::html::activation::activation_behavior(cx, target, event);
            }
        }
        // Step 13: Return false if event's canceled flag is set; otherwise
        // true.
        !event.canceled_flag()
    }

    /// "Get the parent" (<https://dom.spec.whatwg.org/#get-the-parent>):
    /// a node's is its parent (no slots or shadow roots); a document's is
    /// its relevant global object (<https://html.spec.whatwg.org/multipage/nav-history-apis.html#the-window-object>
    /// defines Document's: null if event's type is "load" or the document
    /// has no browsing context); every other target has none.
    fn get_the_parent(&self, event: &Event) -> Option<DomRoot<EventTarget>> {
        // SAFETY: the reflector of a live DOM object.
        let node = unsafe { DomRoot::<Node>::try_from_object(self.reflector().get_jsobject()) }?;
        if node.kind() != NodeKind::Document {
            return node.parent().map(|p| p.upcast::<EventTarget>());
        }
        // A document's get the parent: null if event's type attribute
        // value is "load" or document does not have a browsing context;
        // otherwise the document's relevant global object.
        if event.type_() == "load" {
            return None;
        }
        let window = node.global().as_window()?;
        let active = window
            .active_document()
            .is_some_and(|d| d.reflector_object() == node.reflector_object());
        active.then(|| DomRoot::from_ref(window.upcast_event_target()))
    }

    /// <https://dom.spec.whatwg.org/#concept-event-listener-invoke>
    fn invoke(&self, cx: &mut JSContext, event: &Event, phase: Phase) {
        // Steps 1-3: target, relatedTarget and touch targets are unchanged
        // (a single-struct path).
        // Step 4: If event's stop propagation flag is set, then return.
        if event.stop_propagation_flag() {
            return;
        }
        // Step 5: Initialize event's currentTarget attribute to struct's
        // invocation target.
        event.set_current_target(Some(self));
        // Step 6: Let listeners be a clone of event's currentTarget
        // attribute value's event listener list.
        let listeners: Vec<Rc<EventListenerEntry>> = self.listeners.borrow().clone();
        // Step 7: Let found be the result of running inner invoke.
        let _found = self.inner_invoke(cx, event, &listeners, phase);
        // Step 8: (legacy webkit-prefixed event types) n/a.
    }

    /// <https://dom.spec.whatwg.org/#concept-event-listener-inner-invoke>
    fn inner_invoke(
        &self,
        cx: &mut JSContext,
        event: &Event,
        listeners: &[Rc<EventListenerEntry>],
        phase: Phase,
    ) -> bool {
        // Step 1: Let found be false.
        let mut found = false;
        let event_type = event.type_();
        // Step 2: For each listener of listeners, whose removed is false:
        for listener in listeners {
            if listener.removed.get() {
                continue;
            }
            // Step 2.1: If event's type attribute value is not listener's
            // type, then continue.
            if listener.type_ != event_type {
                continue;
            }
            // Step 2.2: Set found to true.
            found = true;
            // Step 2.3: If phase is "capturing" and listener's capture is
            // false, then continue.
            if phase == Phase::Capturing && !listener.capture {
                continue;
            }
            // Step 2.4: If phase is "bubbling" and listener's capture is
            // true, then continue.
            if phase == Phase::Bubbling && listener.capture {
                continue;
            }
            // Step 2.5: If listener's once is true, then remove an event
            // listener given event's currentTarget and listener.
            if listener.once {
                self.remove_event_listener(listener);
            }
            // Steps 2.6-2.8: the global's current event (window.event) is
            // not implemented yet (no Window interface).
            // Step 2.9: If listener's passive is true, then set event's in
            // passive listener flag.
            if listener.passive {
                event.set_in_passive_listener(true);
            }
            // Step 2.11: Call a user object's operation with listener's
            // callback, "handleEvent", « event », and event's currentTarget
            // attribute value. If this throws an exception, report it (the
            // callbacks are called with ExceptionHandling::Report) and go on
            // with the next listener.
            rooted!(&in(cx) let this = ObjectValue(self.reflector().get_jsobject()));
            match &listener.callback {
                ListenerCallback::Listener(callback) => {
                    // Rooted for the call: a `once` listener was just
                    // removed from the (traced) list.
                    let _root = RootedTraceableBox::new(callback.clone());
                    let _ =
                        callback.HandleEvent(cx, this.handle(), event, ExceptionHandling::Report);
                }
                ListenerCallback::EventHandler => {
                    self.process_event_handler(cx, &listener.type_, event);
                }
            }
            // Step 2.12: Unset event's in passive listener flag.
            event.set_in_passive_listener(false);
            // Step 2.14: If event's stop immediate propagation flag is set,
            // then break.
            if event.stop_immediate_propagation_flag() {
                break;
            }
        }
        // Step 3: Return found.
        found
    }
}

/// The phase argument of "invoke".
#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    Capturing,
    Bubbling,
}
